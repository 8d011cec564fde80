/*
 * The mini table's page side, part 1 of 11: the core. The Table object (one
 * per table on the page), its state (data-state), its requests to the engine
 * and the answers it puts into the page, the address (#table=) and the games
 * this tab made, and the reader's stored preferences.
 *
 * The table's script is several plain files loaded in order (mkdocs.yml,
 * extra_javascript), one job each, sharing the namespace window.DhumbalTable:
 *   dhumbal-table-core.js      this file
 *   dhumbal-table-felt.js      the felt: the bots' moves played back one at a time
 *   dhumbal-table-motion.js    cards moving from place to place after each move
 *   dhumbal-table-hand.js      the reader's hand: cards, marks, keyboard, drag to the pile
 *   dhumbal-table-dock.js      the dock: status line, controls, Throw's verdict, share
 *   dhumbal-table-summary.js   the score summary and the log
 *   dhumbal-table-review.js    the review of a finished deal, one move at a time
 *   dhumbal-table-settings.js  the settings form and the display preferences
 *   dhumbal-table-resume.js    the last game on this device, offered again
 *   dhumbal-table-cues.js      sound and vibration for the reader's turn and a caught call
 *   dhumbal-table-place.js     where the table sits: beside a worked example, full screen
 *   dhumbal-table-page.js      every page: tables set up, "play" links, Back and Forward
 * The later files add methods to DhumbalTable.Table.prototype and listen to
 * the table's moments (T.on, below); the last one creates the tables.
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
 * connection (navigator.connection). Intent only loads the engine when the
 * reader has a game in progress on this device ("Continue your game" stays
 * offered until they choose, see dhumbal-table-resume.js) or when the focus
 * is on the loader's own buttons (it stays there until they press one).
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

  var T = window.DhumbalTable = window.DhumbalTable || {};

  // What the other parts do at the table's moments: on("bind", fn(table)) when
  // a table is set up, on("answer", fn(table, result, payload)) when an answer
  // arrives, before anything of it is shown, on("board", fn(table, before, payload)) after a board is
  // put on the page (`before`: the board's picture just before, for the cards'
  // moves), on("shown", fn(table, result, payload)) once an answer is shown
  // in full (the bots' moves played back), on("hash", fn(table, hash)) when the
  // address takes the game, on("full", fn(table, open)) when the full table
  // opens or closes.
  var hooks = {};
  T.on = function (name, fn) {
    (hooks[name] = hooks[name] || []).push(fn);
  };
  T.emit = function (name, table, a, b) {
    var list = hooks[name] || [];
    for (var i = 0; i < list.length; i++) {
      try {
        list[i](table, a, b);
      } catch (e) {
        if (window.console) console.error(e); // one part failing leaves the table playable
      }
    }
  };

  var HASH_KEY = "table=";
  // Milliseconds between two of the bots' moves (a tap on the felt shows the next one at once).
  var PACE = { slow: 1000, normal: 450, fast: 200, instant: 0 };
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
    p.sound = p.sound === true;
    p.vibrate = p.vibrate === true;
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

  // When the page last scrolled (dhumbal-table-page.js keeps it): the pointer
  // passing over the table while the page scrolls is not intent.
  T.scrolledAt = -1e9;

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
      if (performance.now() - T.scrolledAt < REST_MS) {
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
      // (on the loader's buttons, Play or Continue, the focus waits for their press)
      if (ev.target !== root) self.intent(self.loader && self.loader.contains(ev.target) ? "preload" : "focus");
      if (ev.target.matches && ev.target.matches(".dht-card[aria-pressed]")) self.rove(ev.target);
    });
    root.addEventListener("click", function (ev) { self.onClick(ev); });
    root.addEventListener("keydown", function (ev) { self.keyboard = true; self.onKey(ev); });
    root.addEventListener("submit", function (ev) { self.onSubmit(ev); });
    root.addEventListener("change", function (ev) { self.onChange(ev); });
    T.emit("bind", this);
  };

  // The reader's display preferences, in the settings panel (no engine needed).

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

  // Start the engine (once) and then the session; returns a promise of both.
  // `how` says what asked: a press ("play", "position", "profile", "retry")
  // starts it in any case; intent ("pointer", "focus", "link", "ready") not
  // when the browser asks to save data, unless the engine is already here.
  // "preload" (focus on the loader's buttons) loads the engine and deals nothing.
  Table.prototype.intent = function (how) {
    if (how !== "preload") this.wanted = true; // begin() may deal, once the engine is here
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
    var own = this.resuming || ownGames().indexOf(hash) >= 0;
    this.resuming = false;
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
      // (the game carried here, or chosen with Continue, before a link the address still shows)
      payload = this.restoreRequest(this.carried || hash);
      this.carried = "";
      this.played = true;
    } else if (!this.wanted || (this.root.hasAttribute("data-resumable") && !this.fresh)) {
      // The engine is here, and nothing is dealt: the reader is about to press a
      // button of the loader, or has a game in progress to continue or leave
      // (Continue your game, or New game, which asks first). A later press starts again.
      this.starting = null;
      if (this.root.getAttribute("data-state") === "loading") this.setState("static");
      return Promise.resolve();
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
    T.emit("answer", this, result, payload);
    if (payload.op === "act" && /^throw\b/.test(payload.action) && !result.refusal) this.marks = [];
    if (payload.op !== "act" && payload.op !== "sort" && payload.op !== "hint") this.marks = [];
    var pace = PACE[prefs().speed];
    var pb = result.playback;
    // The cards' places before a move (or a sort), for them to move from there.
    var before = (payload.op === "act" || payload.op === "sort") && this.snapshot ? this.snapshot() : null;
    if (pb && pace > 0 && typeof result.html === "string") {
      var self = this;
      return this.playBack(result, payload, pace, before).then(function () {
        T.emit("shown", self, result, payload);
      });
    }
    // All at once: the moves go to the log; the status line says what starts and ends them.
    var status = pb ? [pb.say, pb.end].filter(Boolean).join(" ") : result.status;
    this.render(result, result.html, status, before, payload);
    T.emit("shown", this, result, payload);
    return null;
  };

  // Put an answer's board on the page; `status` is what the live region says.
  Table.prototype.render = function (result, html, status, before, payload) {
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
      } else if (this.focusOnStart) {
        this.refocus(""); // the loader hides once the table is live: carry focus in
      } else if (inLoader) {
        // dealt without a press (the pointer resting on the table): the focus
        // leaves the loader, which hides, for the board, not for a control
        this.board.focus({ preventScroll: true });
      }
      this.focusOnStart = false;
      this.keepLog();
      T.emit("board", this, before || null, payload || null);
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

  Table.prototype.keepHash = function (hash) {
    this.lastHash = hash;
    if (!this.played) return;
    rememberOwn(hash);
    T.emit("hash", this, hash);
    if (this.dock) this.dock.hash = "#" + hash;
    if (tableHash() === hash) return;
    try {
      history.replaceState(history.state, "", location.pathname + location.search + "#" + hash);
    } catch (e) { /* a sandboxed page may refuse: the table still works */ }
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
        board.querySelector("[data-dht-match]:not([hidden]):not([disabled])") ||
        board.querySelector("[data-op]:not([disabled])") || el;
    }
    if (el) this.focus(el);
  };

  Table.prototype.digits = function (text) {
    var map = this.root.getAttribute("data-digits") || "0123456789";
    return text.replace(/[0-9]/g, function (d) { return map.charAt(+d) || d; });
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

  T.HASH_KEY = HASH_KEY;
  T.PACE = PACE;
  T.CARRY_KEY = CARRY_KEY;
  T.runtime = runtime;
  T.tableHash = tableHash;
  T.store = store;
  T.prefs = prefs;
  T.savePrefs = savePrefs;
  T.applyPrefs = applyPrefs;
  T.ownGames = ownGames;
  T.frugal = frugal;
  T.parseJSON = parseJSON;
  T.printed = printed;
  T.cssEscape = cssEscape;
  T.Table = Table;
})();
