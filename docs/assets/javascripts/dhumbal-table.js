/*
 * The mini table's page side: events, marks, keyboard, URL hash, data-state.
 *
 * No rule of the game is decided here, and no reader-visible text is typed
 * here. The table is pre-rendered into the page by the engine's renderer
 * (dhumbal.view); this script sends requests to the engine running in a Web
 * Worker (window.DhumbalRuntime, see dhumbal-runtime.js) and puts the HTML
 * and the texts it answers with into the page. Marking cards is the one thing
 * done locally: the marked cards' point values come from the engine
 * (data-value) and the throw button's label template and the page language's
 * digits from the rendered HTML (data-label-value, data-digits).
 *
 * Loading starts on intent only: the pointer entering the table, keyboard
 * focus inside it, a click on Play, a "play from here" button, a shared
 * #table= link, or the table coming into view after the reader has scrolled.
 * A page view without any of these downloads no WebAssembly.
 *
 * Material's instant navigation replaces the page content without reloading
 * this script: tables are set up again on every page (document$), and the
 * engine (the worker) survives page changes.
 */
(function () {
  "use strict";

  var HASH_KEY = "table=";

  function runtime() {
    return window.DhumbalRuntime;
  }

  function tableHash() {
    var h = location.hash.replace(/^#/, "");
    return h.indexOf(HASH_KEY) === 0 ? h : "";
  }

  function Table(root) {
    this.root = root;
    this.id = root.id || "dh-table";
    this.lang = root.getAttribute("data-lang") || document.documentElement.lang || "en";
    this.board = root.querySelector(".dht-board");
    this.status = root.querySelector(".dht-status");
    this.settings = root.querySelector(".dht-settings__body");
    this.marks = [];
    this.starting = null;
    this.answers = 0;
    this.live = false;
    this.pending = null; // a position waiting for the engine
    this.queue = Promise.resolve();
    this.lastHash = "";
    this.unsubscribe = null;
    this.bind();
    var rt = runtime();
    if (tableHash() || (rt && rt.status === "ready")) {
      this.intent(); // a shared game link, or an engine already loaded: no new download
    }
  }

  Table.prototype.bind = function () {
    var self = this;
    var root = this.root;
    var intent = function () { self.intent(); };
    root.addEventListener("pointerenter", intent);
    root.addEventListener("focusin", intent);
    root.addEventListener("click", function (ev) { self.onClick(ev); });
    root.addEventListener("keydown", function (ev) { self.onKey(ev); });
    root.addEventListener("submit", function (ev) { self.onSubmit(ev); });
    root.addEventListener("change", function (ev) { self.onChange(ev); });
    // Coming into view counts as intent only once the reader has scrolled.
    if ("IntersectionObserver" in window) {
      var arm = function () {
        window.removeEventListener("scroll", arm);
        if (self.starting || !root.isConnected) return;
        var io = new IntersectionObserver(function (entries) {
          for (var i = 0; i < entries.length; i++) {
            if (entries[i].isIntersecting) {
              io.disconnect();
              self.intent();
              return;
            }
          }
        });
        io.observe(root);
        self.observer = io;
      };
      window.addEventListener("scroll", arm, { passive: true });
      this.disarm = function () { window.removeEventListener("scroll", arm); };
    }
  };

  Table.prototype.setState = function (state, code) {
    var root = this.root;
    root.setAttribute("data-state", state);
    var errors = root.querySelectorAll("[data-error-code]");
    if (state !== "error") {
      for (var i = 0; i < errors.length; i++) errors[i].hidden = true;
      return;
    }
    var shown = null;
    for (var j = 0; j < errors.length; j++) {
      var match = errors[j].getAttribute("data-error-code") === code;
      errors[j].hidden = !match;
      if (match) shown = errors[j];
    }
    if (!shown) {
      shown = root.querySelector('[data-error-code="generic"]');
      if (shown) shown.hidden = false;
    }
    // Whether the engine failed to start, or stopped under a game on the table.
    var titles = root.querySelectorAll("[data-error-title]");
    var title = null;
    for (var k = 0; k < titles.length; k++) {
      var live = titles[k].getAttribute("data-error-title") === "live";
      titles[k].hidden = live !== this.live;
      if (!titles[k].hidden) title = titles[k];
    }
    this.say((title ? title.textContent + " " : "") + (shown ? shown.textContent : ""), true);
  };

  Table.prototype.say = function (text, alert) {
    if (!this.status) return;
    this.status.textContent = text || "";
    this.status.classList.toggle("dht-status--alert", !!alert);
  };

  // Start the engine (once) and then the session; returns a promise of both.
  Table.prototype.intent = function () {
    if (this.starting) return this.starting;
    var self = this;
    var rt = runtime();
    if (this.disarm) this.disarm();
    if (this.observer) this.observer.disconnect();
    if (!rt) {
      this.setState("error", "missing");
      return Promise.resolve();
    }
    if (!this.unsubscribe && rt.onStatus) {
      this.unsubscribe = rt.onStatus(function (status) {
        if (!self.root.isConnected) {
          if (self.unsubscribe) self.unsubscribe();
          return;
        }
        if (status === "error") {
          self.setState("error", rt.error);
        } else if (status === "loading" && !self.live) {
          self.setState("loading");
        }
      });
    }
    if (!this.live && rt.status !== "ready") this.setState("loading");
    this.starting = rt.ensure().then(function () {
      return self.begin();
    }).catch(function (err) {
      self.starting = null;
      self.setState("error", (err && err.code) || rt.error || "generic");
    });
    return this.starting;
  };

  Table.prototype.defaults = function () {
    var r = this.root;
    var d = {
      profile: r.getAttribute("data-profile") || "nepali-games",
      difficulty: r.getAttribute("data-difficulty") || "medium"
    };
    var seed = r.getAttribute("data-seed");
    if (seed) d.seed = seed;
    return d;
  };

  // A request to restore the game in a link. A link longer than the engine
  // reads (data-max-hash, from the engine) is cut to one character more: the
  // engine then refuses it as too long and deals afresh with its notice,
  // instead of receiving a request too large to read at all.
  Table.prototype.restoreRequest = function (hash) {
    var max = parseInt(this.root.getAttribute("data-max-hash"), 10) || 100000;
    if (hash.length > max) hash = hash.slice(0, max + 1);
    return { op: "restore", hash: hash, fallback: this.defaults() };
  };

  Table.prototype.begin = function () {
    var hash = tableHash();
    var payload;
    if (this.pending) {
      payload = this.pending;
      this.pending = null;
    } else if (this.live) {
      return Promise.resolve();
    } else if (hash) {
      payload = this.restoreRequest(hash);
    } else if (this.root.hasAttribute("data-position-state")) {
      payload = {
        op: "position",
        state: this.root.getAttribute("data-position-state"),
        names: parseJSON(this.root.getAttribute("data-position-names")),
        difficulty: this.root.getAttribute("data-difficulty") || "medium"
      };
    } else {
      payload = Object.assign({ op: "new" }, this.defaults());
    }
    return this.send(payload);
  };

  Table.prototype.send = function (payload) {
    var self = this;
    var rt = runtime();
    payload.table = this.id;
    payload.lang = this.lang;
    var run = function () {
      if (!self.root.isConnected) return null;
      self.board.setAttribute("aria-busy", "true");
      return rt.request(payload).then(function (result) {
        self.board.removeAttribute("aria-busy");
        if (!self.root.isConnected) return result;
        self.show(result, payload);
        return result;
      }, function (err) {
        self.board.removeAttribute("aria-busy");
        self.setState("error", (err && err.code) || rt.error || "engine");
        throw err;
      });
    };
    var next = this.queue.then(run, run);
    this.queue = next.catch(function () {});
    return next;
  };

  Table.prototype.show = function (result, payload) {
    // How many answers the table has shown: lets tests (and tools) wait for one.
    this.root.setAttribute("data-answers", String(++this.answers));
    if (!result || result.ok === false) {
      var text = result && result.error && result.error.text;
      this.say(text || "", true);
      if (!this.live) this.setState("error", "engine");
      return;
    }
    if (typeof result.html === "string") {
      var loader = this.root.querySelector(".dht-loader");
      var inLoader = !!(loader && loader.contains(document.activeElement));
      var key = this.focusKey();
      if (payload.op === "act" && /^throw\b/.test(payload.action) && !result.refusal) this.marks = [];
      if (payload.op !== "act" && payload.op !== "sort" && payload.op !== "hint") this.marks = [];
      this.board.innerHTML = result.html;
      this.applyMarks();
      this.live = true;
      this.setState("ready");
      if (key !== null) {
        this.refocus(key);
      } else if (this.focusOnStart || inLoader) {
        this.refocus(""); // the loader hides once the table is live: carry focus in
      }
      this.focusOnStart = false;
    }
    if (typeof result.settings_html === "string" && this.settings) {
      var focusedId = document.activeElement && this.settings.contains(document.activeElement)
        ? document.activeElement.id : null;
      this.settings.innerHTML = result.settings_html;
      if (focusedId) {
        var again = document.getElementById(focusedId);
        if (again) again.focus();
      }
    }
    if (typeof result.status === "string") this.say(result.status, !!result.refusal);
    if (typeof result.hash === "string" && result.hash) {
      this.lastHash = result.hash;
      if (tableHash() !== result.hash) {
        try {
          history.replaceState(history.state, "", location.pathname + location.search + "#" + result.hash);
        } catch (e) { /* a sandboxed page may refuse: the table still works */ }
      }
    }
  };

  Table.prototype.focusKey = function () {
    var el = document.activeElement;
    if (!el || !this.board.contains(el)) return null;
    var keyed = el.closest("[data-key]");
    return keyed ? keyed.getAttribute("data-key") : "";
  };

  Table.prototype.refocus = function (key) {
    var board = this.board;
    var el = key ? board.querySelector('[data-key="' + cssEscape(key) + '"]') : null;
    if (!el || el.disabled || el.getAttribute("aria-disabled") === "true") {
      // The control is gone or no longer usable: go to what comes next, the
      // hand when it is time to throw, else the first control that is allowed.
      var throwing = board.querySelector('[data-action="throw"]:not([aria-disabled])');
      el = (throwing && board.querySelector(".dht-card[aria-pressed]")) ||
        board.querySelector("[data-action]:not([aria-disabled]):not([disabled])") ||
        board.querySelector("[data-op]:not([disabled])") || el;
    }
    if (el) el.focus();
  };

  Table.prototype.cards = function () {
    return this.board.querySelectorAll(".dht-card[aria-pressed]");
  };

  Table.prototype.applyMarks = function () {
    var cards = this.cards();
    var present = {};
    for (var i = 0; i < cards.length; i++) present[cards[i].getAttribute("data-card")] = cards[i];
    this.marks = this.marks.filter(function (code) { return present[code]; });
    for (var j = 0; j < this.marks.length; j++) present[this.marks[j]].setAttribute("aria-pressed", "true");
    this.updateThrow();
  };

  Table.prototype.toggle = function (card) {
    var code = card.getAttribute("data-card");
    var at = this.marks.indexOf(code);
    if (at >= 0) {
      this.marks.splice(at, 1);
      card.setAttribute("aria-pressed", "false");
    } else {
      this.marks.push(code);
      card.setAttribute("aria-pressed", "true");
    }
    this.updateThrow();
  };

  Table.prototype.updateThrow = function () {
    var button = this.board.querySelector('[data-action="throw"]');
    if (!button) return;
    if (!this.marks.length) {
      button.textContent = button.getAttribute("data-label-none") || button.textContent;
      return;
    }
    var total = 0;
    var cards = this.cards();
    for (var i = 0; i < cards.length; i++) {
      if (this.marks.indexOf(cards[i].getAttribute("data-card")) >= 0) {
        total += parseInt(cards[i].getAttribute("data-value"), 10) || 0;
      }
    }
    var template = button.getAttribute("data-label-value") || "{value}";
    button.textContent = template.replace("{value}", this.digits(String(total)));
  };

  Table.prototype.digits = function (text) {
    var map = this.root.getAttribute("data-digits") || "0123456789";
    return text.replace(/[0-9]/g, function (d) { return map.charAt(+d) || d; });
  };

  Table.prototype.onClick = function (ev) {
    var target = ev.target.closest("button");
    if (!target || !this.root.contains(target)) return;
    if (target.hasAttribute("data-dht-play")) {
      this.focusOnStart = true; // the button disappears: carry focus to the table
      this.intent();
      return;
    }
    if (target.hasAttribute("data-dht-retry")) {
      var rt = runtime();
      var self = this;
      this.starting = null;
      // A fresh engine has no session: the game comes back from the URL hash.
      this.live = false;
      this.setState("loading");
      Promise.resolve(rt && rt.retry ? rt.retry() : null).then(
        function () { self.intent(); },
        function () { self.intent(); });
      return;
    }
    if (target.disabled || !this.live) return;
    if (target.matches(".dht-card[aria-pressed]")) {
      this.toggle(target);
      return;
    }
    var action = target.getAttribute("data-action");
    if (action) {
      if (action === "throw") action = ["throw"].concat(this.marks).join(" ");
      this.send({ op: "act", action: action });
      return;
    }
    var op = target.getAttribute("data-op");
    if (op) this.send({ op: op });
  };

  Table.prototype.onKey = function (ev) {
    var card = ev.target.closest && ev.target.closest(".dht-card[aria-pressed]");
    if (!card) return;
    var cards = Array.prototype.slice.call(this.cards());
    var at = cards.indexOf(card);
    var to = -1;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") to = Math.min(cards.length - 1, at + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") to = Math.max(0, at - 1);
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = cards.length - 1;
    else if (ev.key === "Escape" && this.marks.length) {
      this.marks = [];
      for (var i = 0; i < cards.length; i++) cards[i].setAttribute("aria-pressed", "false");
      this.updateThrow();
      ev.preventDefault();
      return;
    }
    if (to >= 0) {
      cards[to].focus();
      ev.preventDefault();
    }
  };

  Table.prototype.onSubmit = function (ev) {
    var form = ev.target;
    if (!form.matches || !form.matches("[data-dht-settings]")) return;
    ev.preventDefault();
    if (!this.live) {
      this.intent();
      return;
    }
    var options = {};
    var payload = { op: "new", options: options };
    var fields = form.elements;
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (!f.name) continue;
      if (f.name.indexOf("opt:") === 0) options[f.name.slice(4)] = f.value;
      else if (f.name === "profile" || f.name === "difficulty") payload[f.name] = f.value;
    }
    this.send(payload);
  };

  Table.prototype.onChange = function (ev) {
    var el = ev.target;
    if (!el.matches || !el.matches("[data-dht-profile]") || !this.live) return;
    var form = el.form;
    var difficulty = form && form.elements.difficulty ? form.elements.difficulty.value : undefined;
    this.send({ op: "settings", profile: el.value, difficulty: difficulty });
  };

  // "Play from here" on a worked example: load its position into the page's table.
  Table.prototype.playFrom = function (button) {
    var payload = {
      op: "position",
      state: button.getAttribute("data-state-json"),
      names: parseJSON(button.getAttribute("data-names")),
      difficulty: this.root.getAttribute("data-difficulty") || "medium"
    };
    this.root.scrollIntoView({ block: "start", behavior: "smooth" });
    var board = this.board;
    var afterwards = function () {
      var first = board.querySelector(".dht-card[aria-pressed]") || board.querySelector("[data-action]");
      if (first) first.focus({ preventScroll: true });
    };
    if (this.live) {
      this.send(payload).then(afterwards, function () {});
      return;
    }
    var self = this;
    this.pending = payload;
    Promise.resolve(this.intent()).then(function () {
      if (self.pending) return self.begin(); // the engine started with another request first
    }).then(afterwards, function () {});
  };

  function parseJSON(text) {
    if (!text) return null;
    try {
      return JSON.parse(text);
    } catch (e) {
      return null;
    }
  }

  function cssEscape(text) {
    return window.CSS && CSS.escape ? CSS.escape(text) : text.replace(/["\\]/g, "\\$&");
  }

  var controllers = [];

  function setup() {
    controllers = controllers.filter(function (c) { return c.root.isConnected; });
    var roots = document.querySelectorAll("[data-dhumbal-table]");
    for (var i = 0; i < roots.length; i++) {
      if (!roots[i].__dhumbalTable) {
        roots[i].__dhumbalTable = new Table(roots[i]);
        controllers.push(roots[i].__dhumbalTable);
      }
    }
  }

  document.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest(".dh-play-from");
    if (!button) return;
    var root = document.querySelector("[data-dhumbal-table]");
    if (!root || !root.__dhumbalTable) return;
    ev.preventDefault();
    root.__dhumbalTable.playFrom(button);
  });

  window.addEventListener("hashchange", function () {
    var hash = tableHash();
    if (!hash) return;
    for (var i = 0; i < controllers.length; i++) {
      var c = controllers[i];
      if (!c.root.isConnected || hash === c.lastHash) continue;
      if (c.live) c.send(c.restoreRequest(hash));
      else c.intent();
      break;
    }
  });

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(setup);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
