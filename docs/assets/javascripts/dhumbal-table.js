/*
 * The mini table's page side: events, marks, playback of the bots' moves,
 * keyboard, URL hash, sharing, docking beside a worked example, data-state.
 *
 * No rule of the game is decided here, and no reader-visible text is typed
 * here. The table is pre-rendered into the page by the engine's renderer
 * (dhumbal.view); this script sends requests to the engine running in a Web
 * Worker (window.DhumbalRuntime, see dhumbal-runtime.js) and puts the HTML
 * and the texts it answers with into the page. What it does locally:
 * marking cards (the Throw control then shows the engine's verdict on the
 * marked cards, sent with the view as data-verdicts/data-reasons), showing
 * the bots' moves one at a time (the engine sends the picture after each
 * move), and the reader's display preferences (pace, four-colour suits).
 *
 * Loading starts on Play or on clear intent only: the pointer resting on the
 * table, keyboard focus inside it, a shared #table= link, a "play" link or a
 * worked example's "Play from here". Never on scrolling alone, and never
 * without a press when the browser asks to save data or reports a 2G/3G
 * connection (navigator.connection).
 *
 * The address gets a #table= hash only once the reader has played at this
 * table (or opened it from such a link). Hashes this tab made are kept in
 * sessionStorage, so Back, Forward and a language switch bring the reader's
 * own game back without announcing a shared one.
 *
 * Material's instant navigation replaces the page content without reloading
 * this script: tables are set up again on every page (document$), and the
 * engine (the worker) survives page changes.
 */
(function () {
  "use strict";

  var HASH_KEY = "table=";
  var DOCK_KEY = "play-";
  var PACE = { slow: 1400, normal: 700, fast: 300, instant: 0 };
  var REST_MS = 600; // the pointer resting on the table this long is intent
  var OWN_KEY = "dhumbal:own-games";
  var CARRY_KEY = "dhumbal:carried";
  var PREFS_KEY = "dhumbal:table";
  var SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

  function runtime() {
    return window.DhumbalRuntime;
  }

  function tableHash() {
    var h = location.hash.replace(/^#/, "");
    return h.indexOf(HASH_KEY) === 0 ? h : "";
  }

  // -- stored preferences and own games ---------------------------------------

  function store(kind) {
    try {
      return window[kind];
    } catch (e) {
      return null; // storage may be disabled: everything still works for this page
    }
  }

  function prefs() {
    var s = store("localStorage");
    var p = null;
    try {
      p = s && JSON.parse(s.getItem(PREFS_KEY) || "null");
    } catch (e) { p = null; }
    p = p && typeof p === "object" ? p : {};
    if (!Object.prototype.hasOwnProperty.call(PACE, p.speed)) p.speed = "normal";
    p.fourColour = p.fourColour === true;
    return p;
  }

  function savePrefs(p) {
    var s = store("localStorage");
    try {
      if (s) s.setItem(PREFS_KEY, JSON.stringify(p));
    } catch (e) { /* full or disabled: the choice lasts for this page */ }
    applyPrefs(p);
  }

  function applyPrefs(p) {
    document.documentElement.classList.toggle("dh-4c", !!p.fourColour);
  }

  function ownGames() {
    var s = store("sessionStorage");
    try {
      var list = s && JSON.parse(s.getItem(OWN_KEY) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];
    }
  }

  function rememberOwn(hash) {
    var s = store("sessionStorage");
    if (!s || !hash) return;
    var list = ownGames().filter(function (h) { return h !== hash; });
    list.push(hash);
    try {
      s.setItem(OWN_KEY, JSON.stringify(list.slice(-40)));
    } catch (e) { /* a full storage only costs the quiet restore */ }
  }

  function frugal() {
    var c = navigator.connection;
    return !!(c && (c.saveData || /(^|-)(2g|3g)$/.test(c.effectiveType || "")));
  }

  // -- one table ------------------------------------------------------------------

  // `carried`: the game this page's table held before Material's instant
  // navigation drew the same page again (a link to a heading on it).
  function Table(root, carried) {
    this.root = root;
    this.path = location.pathname;
    this.carried = carried || "";
    this.id = root.id || "dh-table";
    this.lang = root.getAttribute("data-lang") || document.documentElement.lang || "en";
    this.board = root.querySelector(".dht-board");
    this.status = root.querySelector(".dht-status");
    this.loader = root.querySelector(".dht-loader");
    this.settings = root.querySelector(".dht-settings__body");
    this.marks = [];
    this.starting = null;
    this.answers = 0;
    this.live = false;
    this.played = false; // the reader has played here: the address may carry the game
    this.pending = null; // a position waiting for the engine
    this.queue = Promise.resolve();
    this.lastHash = "";
    this.playing = null; // the bots' moves being shown
    this.logOpen = true;
    this.keyboard = false;
    this.dock = null; // {example, marker, hash} while docked beside a worked example
    this.unsubscribe = null;
    this.bind();
    this.showPrefs();
    if (frugal()) this.note(".dht-frugal", true);
    var rt = runtime();
    var hash = tableHash();
    if (hash) {
      // A shared game comes into view; the reader's own game (Back, Forward) only
      // when it was carried to another language.
      var carried = store("sessionStorage");
      var reveal = ownGames().indexOf(hash) < 0;
      try {
        if (carried && carried.getItem(CARRY_KEY) === hash) {
          reveal = true;
          carried.removeItem(CARRY_KEY);
        }
      } catch (e) { /* storage disabled */ }
      if (reveal) this.reveal();
      this.intent("link"); // a shared game link
    } else if (rt && rt.status === "ready") {
      this.intent("ready"); // the engine is already here: no new download
    }
  }

  Table.prototype.gameAt = function () {
    return this.played && this.lastHash && this.path === location.pathname ? this.lastHash : "";
  };

  Table.prototype.note = function (selector, shown) {
    var el = this.root.querySelector(selector);
    if (el) el.hidden = !shown;
  };

  Table.prototype.bind = function () {
    var self = this;
    var root = this.root;
    // The pointer resting on the table: not passing over it while the page scrolls.
    var rest = null;
    var resting = function () {
      if (performance.now() - scrolledAt < REST_MS) {
        rest = setTimeout(resting, REST_MS);
        return;
      }
      self.intent("pointer");
    };
    var near = function (ev) {
      if (self.starting || ev.pointerType === "touch") return;
      clearTimeout(rest);
      rest = setTimeout(resting, REST_MS);
    };
    root.addEventListener("pointerenter", near);
    root.addEventListener("pointermove", near);
    root.addEventListener("pointerleave", function () { clearTimeout(rest); });
    root.addEventListener("pointerdown", function () { self.keyboard = false; });
    root.addEventListener("focusin", function (ev) {
      if (ev.target !== root) self.intent("focus");
      if (ev.target.matches && ev.target.matches(".dht-card[aria-pressed]")) self.rove(ev.target);
    });
    root.addEventListener("click", function (ev) { self.onClick(ev); });
    root.addEventListener("keydown", function (ev) { self.keyboard = true; self.onKey(ev); });
    root.addEventListener("submit", function (ev) { self.onSubmit(ev); });
    root.addEventListener("change", function (ev) { self.onChange(ev); });
    root.addEventListener("toggle", function (ev) {
      if (ev.target.matches && ev.target.matches(".dht-log")) self.logOpen = ev.target.open;
    }, true);
  };

  // The reader's display preferences, in the settings panel (no engine needed).
  Table.prototype.showPrefs = function () {
    var p = prefs();
    var speed = this.root.querySelector("[data-dht-speed]");
    var four = this.root.querySelector("[data-dht-4c]");
    if (speed) speed.value = p.speed;
    if (four) four.checked = p.fourColour;
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
    this.root.classList.toggle("dht-alerting", !!alert);
  };

  Table.prototype.progress = function (loaded, total) {
    var bar = this.root.querySelector(".dht-progress__bar");
    var text = this.root.querySelector(".dht-progress__text");
    if (!bar || !text || !total) return;
    var percent = Math.max(0, Math.min(100, Math.floor(loaded * 100 / total)));
    bar.value = percent;
    text.textContent = percent >= 100
      ? text.getAttribute("data-starting") || ""
      : (text.getAttribute("data-template") || "{percent}").replace("{percent}", this.digits(String(percent)));
  };

  // Start the engine (once) and then the session; returns a promise of both.
  // `how` says what asked: a press ("play", "position", "profile", "retry")
  // starts it in any case; intent ("pointer", "focus", "link", "ready") not
  // when the browser asks to save data, unless the engine is already here.
  Table.prototype.intent = function (how) {
    if (this.starting) return this.starting;
    var self = this;
    var rt = runtime();
    var pressed = how === "play" || how === "position" || how === "profile" || how === "retry";
    if (!pressed && frugal() && !(rt && rt.status === "ready")) return Promise.resolve();
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
    if (!this.unprogress && rt.onProgress) {
      this.unprogress = rt.onProgress(function (loaded, total) {
        if (self.root.isConnected) self.progress(loaded, total);
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
    var seed = r.getAttribute("data-seed"); // only an author's fixed deal; else a fresh one
    if (seed) d.seed = seed;
    return d;
  };

  // A request to restore the game in a link. A link longer than the engine
  // reads (data-max-hash, from the engine) is cut to one character more: the
  // engine then refuses it as too long and deals afresh with its notice,
  // instead of receiving a request too large to read at all.
  Table.prototype.restoreRequest = function (hash) {
    var max = parseInt(this.root.getAttribute("data-max-hash"), 10) || 100000;
    var own = ownGames().indexOf(hash) >= 0;
    if (hash.length > max) hash = hash.slice(0, max + 1);
    return { op: "restore", hash: hash, fallback: this.defaults(), own: own };
  };

  Table.prototype.begin = function () {
    var hash = tableHash();
    var payload;
    if (this.pending) {
      payload = this.pending;
      this.pending = null;
    } else if (this.live) {
      return Promise.resolve();
    } else if (hash || this.carried) {
      payload = this.restoreRequest(hash || this.carried);
      this.carried = "";
      this.played = true;
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
    if (this.playing) this.playing.skip(); // a new request: show the rest of the moves at once
    var run = function () {
      if (!self.root.isConnected) return null;
      return rt.request(payload).then(function (result) {
        if (!self.root.isConnected) return result;
        return Promise.resolve(self.show(result, payload)).then(function () { return result; });
      }, function (err) {
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
      return null;
    }
    if (payload.op === "act" && /^throw\b/.test(payload.action) && !result.refusal) this.marks = [];
    if (payload.op !== "act" && payload.op !== "sort" && payload.op !== "hint") this.marks = [];
    var pace = PACE[prefs().speed];
    var pb = result.playback;
    if (pb && pace > 0 && typeof result.html === "string") return this.playBack(result, payload, pace);
    // All at once: the moves go to the log; the status line says what starts and ends them.
    var status = pb ? [pb.say, pb.end].filter(Boolean).join(" ") : result.status;
    this.render(result, result.html, status);
    return null;
  };

  // Put an answer's board on the page; `status` is what the live region says.
  Table.prototype.render = function (result, html, status) {
    if (typeof html === "string") {
      var inLoader = !!(this.loader && this.loader.contains(document.activeElement));
      var key = this.focusKey();
      this.board.innerHTML = html;
      this.placeDock();
      this.applyMarks();
      this.live = true;
      this.setState("ready");
      if (key !== null) {
        this.refocus(key);
      } else if (this.focusOnStart || inLoader) {
        this.refocus(""); // the loader hides once the table is live: carry focus in
      }
      this.focusOnStart = false;
      this.keepLog();
    }
    if (typeof result.settings_html === "string" && this.settings) {
      var focusedId = document.activeElement && this.settings.contains(document.activeElement)
        ? document.activeElement.id : null;
      this.settings.innerHTML = result.settings_html;
      if (focusedId) {
        var again = document.getElementById(focusedId);
        if (again) again.focus();
      }
      result.settings_html = null;
    }
    if (typeof status === "string") this.say(status, !!result.refusal);
    if (typeof result.hash === "string" && result.hash) this.keepHash(result.hash);
  };

  // The page keeps its own loader and live status line: after each answer they
  // go back into the new board's dock, so a screen reader's live region stays.
  Table.prototype.placeDock = function () {
    var slot = this.board.querySelector("[data-dht-slot]");
    if (!slot) return;
    if (this.loader) slot.appendChild(this.loader);
    if (this.status) slot.appendChild(this.status);
    if (this.shareLink) slot.appendChild(this.shareLink);
  };

  Table.prototype.keepLog = function () {
    var log = this.board.querySelector(".dht-log");
    if (!log) return;
    if (!this.logOpen) log.open = false;
    this.logToEnd();
  };

  // The newest line in sight, at the next frame (no layout forced in between).
  Table.prototype.logToEnd = function () {
    var list = this.board.querySelector(".dht-log__list");
    if (list) requestAnimationFrame(function () { list.scrollTop = 1e9; });
  };

  Table.prototype.keepHash = function (hash) {
    this.lastHash = hash;
    if (!this.played) return;
    rememberOwn(hash);
    if (this.dock) this.dock.hash = "#" + hash;
    if (tableHash() === hash) return;
    try {
      history.replaceState(history.state, "", location.pathname + location.search + "#" + hash);
    } catch (e) { /* a sandboxed page may refuse: the table still works */ }
  };

  // The bots' moves, one at a time: the board before them, then the felt after
  // each move (the engine drew every picture), then the answer's board.
  Table.prototype.playBack = function (result, payload, pace) {
    var self = this;
    var pb = result.playback;
    var root = this.root;
    var hadFocus = this.board.contains(document.activeElement);
    var key = this.focusKey();
    this.render({ settings_html: result.settings_html, hash: null }, pb.html, pb.say);
    if (hadFocus) this.board.focus({ preventScroll: true });
    root.setAttribute("data-busy", "true");
    return new Promise(function (resolve) {
      var i = 0;
      var timer = null;
      var done = false;
      var finish = function () {
        if (done) return;
        done = true;
        clearTimeout(timer);
        self.playing = null;
        root.removeAttribute("data-busy");
        if (!root.isConnected) return resolve();
        var focused = self.board.contains(document.activeElement) || document.activeElement === self.board;
        result.settings_html = null;
        self.render(result, result.html, pb.end);
        if (focused || hadFocus) self.refocus(key || "");
        resolve();
      };
      var step = function () {
        if (done) return;
        if (!root.isConnected) return finish();
        if (i >= pb.frames.length) return finish();
        var frame = pb.frames[i++];
        var felt = self.board.querySelector(".dht-felt");
        if (felt) {
          var box = document.createElement("div");
          box.innerHTML = frame.felt;
          if (box.firstElementChild) felt.replaceWith(box.firstElementChild);
        }
        self.say(frame.say, false);
        self.appendLog(frame.log || []);
        timer = setTimeout(step, pace);
      };
      self.playing = { skip: finish };
      timer = setTimeout(step, pace);
    });
  };

  Table.prototype.appendLog = function (lines) {
    var list = this.board.querySelector(".dht-log__list");
    if (!list) return;
    for (var i = 0; i < lines.length; i++) {
      var li = document.createElement("li");
      li.textContent = lines[i];
      list.appendChild(li);
    }
    this.logToEnd();
  };

  Table.prototype.focusKey = function () {
    var el = document.activeElement;
    if (!el || !this.board.contains(el)) return null;
    var keyed = el.closest("[data-key]");
    return keyed ? keyed.getAttribute("data-key") : "";
  };

  Table.prototype.focus = function (el) {
    el.focus({ preventScroll: true });
    if (this.keyboard && el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
  };

  Table.prototype.refocus = function (key) {
    var board = this.board;
    var el = key ? board.querySelector('[data-key="' + cssEscape(key) + '"]') : null;
    if (!el || el.disabled || el.getAttribute("aria-disabled") === "true") {
      // The control is gone or no longer usable: go to what comes next, the
      // hand when it is time to throw, else the first control that is allowed.
      var throwing = board.querySelector('[data-action="throw"]:not(.dht-throw--later)');
      var card = board.querySelector('.dht-card[aria-pressed][tabindex="0"]') || board.querySelector(".dht-card[aria-pressed]");
      el = (throwing && card) ||
        board.querySelector("[data-action]:not([aria-disabled]):not([disabled])") ||
        board.querySelector("[data-op]:not([disabled])") || el;
    }
    if (el) this.focus(el);
  };

  Table.prototype.cards = function () {
    return this.board.querySelectorAll(".dht-card[aria-pressed]");
  };

  // One tab stop for the hand: the arrows move between the cards.
  Table.prototype.rove = function (card) {
    var cards = this.cards();
    for (var i = 0; i < cards.length; i++) cards[i].setAttribute("tabindex", cards[i] === card ? "0" : "-1");
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

  // The Throw control says whether the marked cards may be thrown now, and why
  // not: the engine's verdict for every set of cards came with the view.
  Table.prototype.updateThrow = function () {
    var button = this.board.querySelector('[data-action="throw"]');
    if (!button) return;
    var why = this.board.querySelector(".dht-why--throw");
    var hint = this.board.querySelector(".dht-hint");
    if (hint) hint.hidden = this.marks.length < 2;
    if (!this.marks.length) {
      button.textContent = button.getAttribute("data-label-none") || button.textContent;
      button.setAttribute("aria-disabled", "true");
      if (why) why.hidden = true;
      var call = this.board.querySelector(".dht-why--call");
      if (call) call.hidden = false;
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
    var reason = this.verdict(button);
    // Without verdicts (a very large hand) the engine answers when Throw is pressed.
    if (reason) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
    if (why) {
      why.textContent = reason || "";
      why.hidden = !reason;
    }
    var callWhy = this.board.querySelector(".dht-why--call");
    if (callWhy) callWhy.hidden = !!reason; // one reason at a time under the controls
  };

  // "" when the engine allows the marked cards now, its reason when not, null if unknown.
  Table.prototype.verdict = function (button) {
    var order = (button.getAttribute("data-cards") || "").split(" ");
    var verdicts = button.getAttribute("data-verdicts");
    var reasons = parseJSON(button.getAttribute("data-reasons"));
    if (!verdicts || !reasons) return null;
    var mask = 0;
    for (var i = 0; i < this.marks.length; i++) {
      var at = order.indexOf(this.marks[i]);
      if (at < 0) return null;
      mask |= 1 << at;
    }
    var digit = verdicts.charAt(mask - 1);
    var k = parseInt(digit, 36);
    if (!digit || isNaN(k)) return null;
    var text = k ? String(reasons[k] || "") : "";
    return text.replace("{cards}", this.marks.map(printed).join(" "));
  };

  Table.prototype.digits = function (text) {
    var map = this.root.getAttribute("data-digits") || "0123456789";
    return text.replace(/[0-9]/g, function (d) { return map.charAt(+d) || d; });
  };

  Table.prototype.onClick = function (ev) {
    var target = ev.target.closest("button");
    if (!target || !this.root.contains(target)) {
      if (!this.live && !this.starting && ev.target.closest(".dht-board")) this.intent("tap");
      return;
    }
    if (target.hasAttribute("data-dht-play")) {
      this.focusOnStart = true; // the button disappears: carry focus to the table
      this.intent("play");
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
        function () { self.intent("retry"); },
        function () { self.intent("retry"); });
      return;
    }
    if (target.hasAttribute("data-dht-fresh")) {
      // Out of the error state whatever caused it, the page's link included:
      // the link goes, and a fresh game is dealt with the table's settings.
      var runtimeNow = runtime();
      var table = this;
      this.starting = null;
      this.live = false;
      this.carried = "";
      this.pending = Object.assign({ op: "new" }, this.defaults());
      if (tableHash()) {
        try {
          history.replaceState(history.state, "", location.pathname + location.search);
        } catch (e) { /* a sandboxed page may refuse: the request below still deals afresh */ }
      }
      this.setState("loading");
      Promise.resolve(runtimeNow && runtimeNow.retry ? runtimeNow.retry() : null).then(
        function () { table.intent("retry"); },
        function () { table.intent("retry"); });
      return;
    }
    if (target.hasAttribute("data-dht-skip")) {
      if (this.playing) this.playing.skip();
      return;
    }
    if (target.hasAttribute("data-dht-share")) {
      this.share();
      return;
    }
    if (target.hasAttribute("data-dht-close")) {
      this.undock(false);
      return;
    }
    if (target.disabled || !this.live || this.playing) return;
    if (target.matches(".dht-card[aria-pressed]")) {
      this.toggle(target);
      return;
    }
    var action = target.getAttribute("data-action");
    if (action) {
      if (action === "throw") action = ["throw"].concat(this.marks).join(" ");
      this.played = true;
      this.send({ op: "act", action: action });
      return;
    }
    var op = target.getAttribute("data-op");
    if (op) {
      if (op !== "sort" && op !== "hint") this.played = true; // neither is a move
      this.send({ op: op });
    }
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
      this.rove(cards[to]);
      cards[to].focus();
      ev.preventDefault();
    }
  };

  Table.prototype.onSubmit = function (ev) {
    var form = ev.target;
    if (!form.matches || !form.matches("[data-dht-settings]")) return;
    ev.preventDefault();
    if (!this.live) {
      this.intent("play");
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
    this.played = true;
    this.send(payload);
  };

  Table.prototype.onChange = function (ev) {
    var el = ev.target;
    if (!el.matches) return;
    if (el.matches("[data-dht-speed], [data-dht-4c]")) {
      var p = prefs();
      if (el.matches("[data-dht-speed]")) p.speed = el.value;
      else p.fourColour = el.checked;
      savePrefs(p);
      return;
    }
    if (!el.matches("[data-dht-profile]") || !this.live) return;
    var form = el.form;
    var difficulty = form && form.elements.difficulty ? form.elements.difficulty.value : undefined;
    this.send({ op: "settings", profile: el.value, difficulty: difficulty });
  };

  // -- sharing -----------------------------------------------------------------

  Table.prototype.share = function () {
    if (!this.lastHash) return;
    var self = this;
    var button = this.root.querySelector("[data-dht-share]");
    var url = location.origin + location.pathname + location.search + "#" + this.lastHash;
    var shown = function () {
      // No clipboard here: show the link, selected, for the reader to copy.
      if (!self.shareLink) {
        self.shareLink = document.createElement("input");
        self.shareLink.type = "text";
        self.shareLink.readOnly = true;
        self.shareLink.className = "dht-sharelink";
        self.placeDock();
      }
      self.shareLink.setAttribute("aria-label", button.getAttribute("data-shown") || "");
      self.shareLink.value = url;
      self.say(button.getAttribute("data-shown") || "", false);
      self.shareLink.focus();
      self.shareLink.select();
    };
    var copied = function () {
      self.say(button.getAttribute("data-copied") || "", false);
      if (navigator.share) {
        navigator.share({ title: button.getAttribute("data-title") || document.title, url: url }).catch(function () {});
      }
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(copied, shown);
    } else {
      shown();
    }
  };

  // -- going to the table ----------------------------------------------------------

  // Bring the table into view and give it the focus (a shared link, a "play" link).
  Table.prototype.reveal = function () {
    var root = this.root;
    root.scrollIntoView({ block: "start" });
    root.focus({ preventScroll: true });
  };

  // "Play these rules": the table, set to the page's rules, started.
  Table.prototype.open = function () {
    if (this.dock) this.undock(false, true);
    this.reveal();
    var wanted = this.root.getAttribute("data-profile") || "";
    var area = this.board.querySelector(".dht-play-area");
    var current = area ? area.getAttribute("data-profile-key") : "";
    if (this.live && wanted && current && wanted.split("(")[0] !== current) {
      this.send(Object.assign({ op: "new" }, this.defaults()));
      return;
    }
    this.focusOnStart = true;
    this.intent("profile");
  };

  // "Play from here" on a worked example: the example's position, on the table
  // moved right beside the example; Back or Close puts it back.
  Table.prototype.playFrom = function (button, fromAddress) {
    var example = (button.parentElement && button.parentElement.closest(".dh-example, [data-example]")) ||
      button.parentElement;
    var payload = {
      op: "position",
      state: button.getAttribute("data-state-json"),
      names: parseJSON(button.getAttribute("data-names")),
      difficulty: this.root.getAttribute("data-difficulty") || "medium"
    };
    this.dockAt(example, button, !fromAddress);
    this.played = true;
    var self = this;
    var board = this.board;
    var afterwards = function () {
      var first = board.querySelector(".dht-card[aria-pressed]") || board.querySelector("[data-action]");
      if (first) first.focus({ preventScroll: true });
    };
    if (this.live) {
      this.send(payload).then(afterwards, function () {});
      return;
    }
    this.pending = payload;
    var started = fromAddress && frugal() ? Promise.resolve() : this.intent("position");
    Promise.resolve(started).then(function () {
      if (self.pending && self.live) return self.begin(); // the engine started with another request first
    }).then(afterwards, function () {});
  };

  Table.prototype.dockAt = function (example, button, push) {
    var root = this.root;
    if (!this.dock) {
      var marker = document.createComment("dhumbal table");
      root.parentNode.insertBefore(marker, root);
      this.dock = { marker: marker };
    }
    var id = button.getAttribute("data-example") || example.id || "";
    this.dock.example = example;
    this.dock.button = button;
    example.parentNode.insertBefore(root, example.nextSibling);
    root.classList.add("dh-table--docked");
    root.setAttribute("data-docked", id);
    if (push) {
      this.dock.hash = "#" + DOCK_KEY + id;
      try {
        history.pushState(history.state, "", location.pathname + location.search + this.dock.hash);
      } catch (e) { /* no history entry: Close still returns */ }
    } else {
      this.dock.hash = location.hash;
    }
    root.scrollIntoView({ block: "start" });
  };

  // Back to its own place at the end of the page; the reader back at the example.
  Table.prototype.undock = function (fromHistory, quiet) {
    var dock = this.dock;
    if (!dock) return;
    var ours = location.hash === dock.hash;
    this.dock = null;
    var root = this.root;
    if (dock.marker.parentNode) {
      dock.marker.parentNode.insertBefore(root, dock.marker);
      dock.marker.remove();
    }
    root.classList.remove("dh-table--docked");
    root.removeAttribute("data-docked");
    this.lastDock = dock;
    if (quiet) return;
    var button = dock.button;
    if (button && button.isConnected) {
      button.focus({ preventScroll: true });
      // Back restores where the reader was; if nothing did, bring the example's button into view.
      requestAnimationFrame(function () {
        var r = button.getBoundingClientRect();
        if (r.bottom < 0 || r.top > innerHeight) button.scrollIntoView({ block: "center" });
      });
    }
    if (!fromHistory && ours) {
      try {
        history.back(); // leave the entry "Play from here" made; popstate finds the table home
      } catch (e) { /* nothing to go back to */ }
    }
  };

  function parseJSON(text) {
    if (!text) return null;
    try {
      return JSON.parse(text);
    } catch (e) {
      return null;
    }
  }

  function printed(code) {
    var suit = SUITS[code.charAt(code.length - 1)];
    return suit ? code.slice(0, -1) + suit : code;
  }

  function cssEscape(text) {
    return window.CSS && CSS.escape ? CSS.escape(text) : text.replace(/["\\]/g, "\\$&");
  }

  // -- the page ---------------------------------------------------------------------

  var controllers = [];
  var watcher = null;
  var scrolledAt = -1e9;

  window.addEventListener("scroll", function () { scrolledAt = performance.now(); }, { passive: true });

  function pageTable() {
    var root = document.querySelector("[data-dhumbal-table]");
    return root && root.__dhumbalTable ? root.__dhumbalTable : null;
  }

  function setup() {
    applyPrefs(prefs());
    var games = {};
    controllers.forEach(function (c) {
      if (!c.root.isConnected && c.gameAt()) games[c.id] = c.gameAt();
    });
    controllers = controllers.filter(function (c) { return c.root.isConnected; });
    var roots = document.querySelectorAll("[data-dhumbal-table]");
    for (var i = 0; i < roots.length; i++) {
      if (!roots[i].__dhumbalTable) {
        roots[i].__dhumbalTable = new Table(roots[i], games[roots[i].id || "dh-table"]);
        controllers.push(roots[i].__dhumbalTable);
      }
    }
    // Material's "back to top" button stays away while a table is on screen.
    if (watcher) watcher.disconnect();
    if ("IntersectionObserver" in window && roots.length) {
      watcher = new IntersectionObserver(function (entries) {
        var seen = entries.some(function (e) { return e.isIntersecting; });
        document.documentElement.classList.toggle("dh-table-in-view", seen);
      });
      for (var j = 0; j < roots.length; j++) watcher.observe(roots[j]);
    }
    // An address made by "Play from here" opens that example's table again.
    var h = location.hash.replace(/^#/, "");
    if (h.indexOf(DOCK_KEY) === 0) {
      var button = document.querySelector('.dh-play-from[data-example="' + cssEscape(h.slice(DOCK_KEY.length)) + '"]');
      var table = pageTable();
      if (button && table && !table.dock) table.playFrom(button, true);
    }
  }

  document.addEventListener("click", function (ev) {
    if (!ev.target.closest) return;
    var table = pageTable();
    var from = ev.target.closest(".dh-play-from");
    if (from && table) {
      ev.preventDefault();
      table.playFrom(from, false);
      return;
    }
    var link = ev.target.closest("[data-dh-play-profile]");
    if (link && table) {
      // The link jumps to the table by itself without this script. Here the
      // table is scrolled to, set and started instead; and Material's instant
      // navigation must not see the click: on a first same-page link it
      // fetches the page again and replaces the table being started.
      ev.preventDefault();
      ev.stopPropagation();
      table.open();
      return;
    }
    // The language menu takes the reader's game along to the other language.
    var lang = ev.target.closest("a.md-select__link[hreflang]");
    var hash = tableHash();
    if (lang && hash) {
      lang.href = lang.href.split("#")[0] + "#" + hash;
      var s = store("sessionStorage");
      try {
        if (s) s.setItem(CARRY_KEY, hash);
      } catch (e) { /* the game still goes along, only not scrolled into view */ }
    }
  }, true);

  window.addEventListener("hashchange", function () {
    var hash = tableHash();
    if (!hash) return;
    for (var i = 0; i < controllers.length; i++) {
      var c = controllers[i];
      if (!c.root.isConnected || hash === c.lastHash) continue;
      c.played = true;
      if (c.live) c.send(c.restoreRequest(hash));
      else c.intent("link");
      break;
    }
  });

  // Back and Forward between "Play from here" and the example are the table's
  // own; true when this step was one of them. dhumbal-history.js calls it
  // before Material's instant navigation sees the step (see there).
  function ownHistory() {
    var table = pageTable();
    if (!table) return false;
    if (table.dock && location.hash !== table.dock.hash) {
      table.undock(true);
      return true;
    }
    if (!table.dock && table.lastDock && location.hash === table.lastDock.hash &&
        table.lastDock.example.isConnected) {
      table.dockAt(table.lastDock.example, table.lastDock.button, false); // Forward: beside the example again
      return true;
    }
    return false;
  }

  window.DhumbalTable = { ownHistory: ownHistory };
  if (!window.__dhumbalHistoryFirst) window.addEventListener("popstate", ownHistory); // a page without it

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(setup);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
