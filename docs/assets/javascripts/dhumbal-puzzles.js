/*
 * Puzzles: the trainer (filters, one puzzle at a time, Next, a link to each
 * puzzle), the daily puzzle, the reader's move and its answer, and the
 * reader's progress.
 *
 * Every puzzle is a file of its own, drawn and graded by the engine when the
 * site was built (sitegen/dhumbal_site/puzzles.py): <language>/puzzles/p/<id>.html,
 * with one answer panel per legal move, named by the move (data-answer="throw
 * KS KH", "take stock", "call", ...). This script fetches the puzzle it shows,
 * lets the reader make a move as at the table (mark cards and press Throw;
 * tap the stock or a face-up card; press Call), shows that move's panel, and
 * keeps the reader's progress in local storage. It decides no rule: whether
 * marked cards may be thrown, and why not, is the engine's verdict on every
 * set of the hand's cards (data-verdicts and data-reasons, as on the table's
 * Throw button); which puzzles match a filter is read from the list the build
 * wrote (data-profile, data-themes, data-band). It never loads the engine:
 * "Play from here" is the table's own button (dhumbal-table.js), which starts
 * the engine only when pressed.
 *
 * The daily puzzle: day d (whole days since 1970-01-01, UTC) shows entry d mod n
 * of the order the build wrote (data-daily), so every reader sees the same one
 * that day, here and on the home page.
 *
 * Kept on the device: "dhumbal-puzzles" ({id: {t: tried, s: solved, f: right
 * at the first try}}) and "dhumbal-puzzle-stats" ({run, best: the first tries
 * right in a row and the longest such run; day, days: the last day the daily
 * puzzle was solved and how many days in a row}).
 *
 * Works with Material's instant navigation (document$) and a strict
 * Content-Security-Policy: no inline script, no eval.
 */
(function () {
  "use strict";

  var STORE = "dhumbal-puzzles";
  var STATS = "dhumbal-puzzle-stats";
  var DIGITS = "0123456789";
  var DAY = 86400000;

  function load(key) {
    try {
      var data = JSON.parse(window.localStorage.getItem(key) || "{}");
      return data && typeof data === "object" && !Array.isArray(data) ? data : {};
    } catch (e) {
      return {};
    }
  }

  function save(key, data) {
    try {
      window.localStorage.setItem(key, JSON.stringify(data));
    } catch (e) { /* private mode or full: progress is kept for this page view only */ }
  }

  function today() {
    return Math.floor(Date.now() / DAY);
  }

  function dailyId(order) {
    var ids = (order || "").split(" ").filter(Boolean);
    return ids.length ? ids[today() % ids.length] : "";
  }

  function fill(template, values, digits) {
    var text = template || "";
    Object.keys(values).forEach(function (k) {
      text = text.split("{" + k + "}").join(localDigits(String(values[k]), digits));
    });
    return text;
  }

  function localDigits(text, digits) {
    digits = digits || DIGITS;
    return text.replace(/[0-9]/g, function (d) { return digits.charAt(+d); });
  }

  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  // -- the reader's progress ------------------------------------------------------------------

  var listeners = [];

  // A move made on a puzzle: tried, solved, right at the first try; the streaks.
  function record(id, best, daily) {
    var data = load(STORE);
    var entry = data[id] && typeof data[id] === "object" ? data[id] : {};
    var first = !entry.t;
    entry.t = 1;
    if (best) entry.s = 1;
    if (first) entry.f = best ? 1 : 0;
    data[id] = entry;
    save(STORE, data);
    var stats = load(STATS);
    if (first) {
      stats.run = best ? (stats.run || 0) + 1 : 0;
      stats.best = Math.max(stats.best || 0, stats.run);
    }
    if (daily && best && stats.day !== today()) {
      stats.days = stats.day === today() - 1 ? (stats.days || 0) + 1 : 1;
      stats.day = today();
    }
    save(STATS, stats);
    listeners.forEach(function (fn) { fn(true); });
  }

  // The progress line, the streaks and each theme's success rate (on the Puzzles page).
  function Progress(box, entries) {
    this.box = box;
    this.entries = entries; // [{id, themes}]
    this.digits = box.getAttribute("data-digits") || DIGITS;
    var self = this;
    var forget = box.querySelector(".dh-puzzles__forget");
    if (forget) {
      forget.addEventListener("click", function () {
        var data = load(STORE);
        self.entries.forEach(function (e) { delete data[e.id]; });
        save(STORE, data);
        save(STATS, {});
        listeners.forEach(function (fn) { fn(true); });
        // the button goes (nothing is left to forget): the keyboard's place moves to the line that says so
        var count = box.querySelector(".dh-puzzles__count");
        if (count) {
          count.setAttribute("tabindex", "-1");
          count.focus();
        }
      });
    }
  }

  Progress.prototype.update = function (announce) {
    var data = load(STORE);
    var stats = load(STATS);
    var digits = this.digits;
    var solved = 0;
    var tried = 0;
    var themes = {};
    this.entries.forEach(function (e) {
      var entry = data[e.id];
      if (!entry || !entry.t) return;
      tried += 1;
      if (entry.s) solved += 1;
      e.themes.forEach(function (t) {
        var th = themes[t] || (themes[t] = { tried: 0, right: 0 });
        th.tried += 1;
        if (entry.f) th.right += 1;
      });
    });
    var count = this.box.querySelector(".dh-puzzles__count");
    if (count) {
      // Announced after a move (the region is polite); set quietly on load.
      if (!announce) count.setAttribute("aria-live", "off");
      count.textContent = fill(count.getAttribute("data-template"),
        { solved: solved, tried: tried, total: this.entries.length }, digits);
      if (!announce) setTimeout(function () { count.setAttribute("aria-live", "polite"); }, 0);
    }
    var streak = this.box.querySelector(".dh-puzzles__streak");
    if (streak) {
      var days = stats.day === today() || stats.day === today() - 1 ? stats.days || 0 : 0;
      var text = fill(streak.getAttribute("data-template"), { streak: stats.run || 0, best: stats.best || 0 }, digits);
      if (days) text += " " + fill(streak.getAttribute("data-daily-template"), { days: days }, digits);
      streak.textContent = text;
      streak.hidden = !tried;
    }
    var table = this.box.querySelector(".dh-puzzles__themes");
    if (table) {
      var percent = this.box.getAttribute("data-percent") || "{n}%";
      var rows = table.querySelectorAll("tr[data-theme]");
      var any = false;
      for (var i = 0; i < rows.length; i++) {
        var th = themes[rows[i].getAttribute("data-theme")];
        rows[i].hidden = !th;
        if (!th) continue;
        any = true;
        var cell = rows[i].querySelector("td");
        cell.textContent = fill(cell.getAttribute("data-template"), {
          right: th.right, tried: th.tried,
          percent: fill(percent, { n: Math.round(100 * th.right / th.tried) }, digits)
        }, digits);
      }
      table.hidden = !any;
    }
    var forget = this.box.querySelector(".dh-puzzles__forget");
    if (forget) forget.hidden = !tried && !stats.run && !stats.best && !stats.days; // nothing to forget yet
    this.box.setAttribute("data-solved", String(solved));
    this.box.setAttribute("data-tried", String(tried));
    this.box.hidden = false;
  };

  // -- one puzzle ---------------------------------------------------------------------------------

  function Puzzle(root, daily) {
    this.root = root;
    this.daily = !!daily;
    this.id = root.getAttribute("data-dhumbal-puzzle");
    this.hand = Array.prototype.slice.call(root.querySelectorAll(".dh-pz-hand button[data-card]"));
    this.throwButton = root.querySelector(".dh-pz-throw");
    this.why = root.querySelector(".dh-pz-why:not(.dh-pz-why--call)");
    this.answer = root.querySelector(".dh-pz-answer");
    this.answered = false;
    // Today's puzzle says so where its number was (the number means nothing to a visitor).
    var number = this.daily ? root.querySelector(".dh-puzzle__number[data-today]") : null;
    if (number) number.textContent = number.getAttribute("data-today");
    var self = this;
    root.addEventListener("click", function (ev) { self.onClick(ev); });
    root.addEventListener("keydown", function (ev) { self.onKey(ev); });
    this.show();
  }

  Puzzle.prototype.onClick = function (ev) {
    if (!ev.target.closest) return;
    var card = ev.target.closest(".dh-pz-hand button[data-card]");
    if (card) {
      if (this.answered) return;
      this.toggle(card);
      return;
    }
    if (ev.target.closest(".dh-pz-throw")) {
      if (!this.answered) this.throwMarked();
      return;
    }
    var move = ev.target.closest(".dh-pz-move");
    if (move) {
      if (this.answered) return;
      if (move.getAttribute("aria-disabled") === "true" || !move.getAttribute("data-move")) {
        var why = move.getAttribute("aria-describedby");
        var note = why ? document.getElementById(why) : null;
        this.say(note ? note.textContent : "");
        return;
      }
      this.choose(move.getAttribute("data-move"), move);
      return;
    }
    if (ev.target.closest(".dh-pz-again")) this.reset();
  };

  // The hand is one stop for Tab; the arrow keys move between its cards.
  Puzzle.prototype.onKey = function (ev) {
    var card = ev.target.closest ? ev.target.closest(".dh-pz-hand button[data-card]") : null;
    if (!card || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var i = this.hand.indexOf(card);
    var next = -1;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") next = Math.min(this.hand.length - 1, i + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") next = Math.max(0, i - 1);
    else if (ev.key === "Home") next = 0;
    else if (ev.key === "End") next = this.hand.length - 1;
    else return;
    ev.preventDefault();
    this.focusCard(next);
  };

  Puzzle.prototype.focusCard = function (i) {
    for (var k = 0; k < this.hand.length; k++) this.hand[k].tabIndex = k === i ? 0 : -1;
    if (this.hand[i]) this.hand[i].focus();
  };

  Puzzle.prototype.toggle = function (card) {
    var on = card.getAttribute("aria-pressed") !== "true";
    card.setAttribute("aria-pressed", on ? "true" : "false");
    card.classList.toggle("dhc--sel", on);
    this.focusCard(this.hand.indexOf(card));
    this.say(this.verdict());
  };

  Puzzle.prototype.marked = function () {
    return this.hand.filter(function (b) { return b.getAttribute("aria-pressed") === "true"; });
  };

  // The engine's verdict on the marked cards: "" when they may be thrown, else why not.
  Puzzle.prototype.verdict = function () {
    var button = this.throwButton;
    var marked = this.marked();
    if (!button || !marked.length) return "";
    var codes = (button.getAttribute("data-cards") || "").split(" ");
    var mask = 0;
    marked.forEach(function (b) {
      var i = codes.indexOf(b.getAttribute("data-card"));
      if (i >= 0) mask |= 1 << i;
    });
    var digits = button.getAttribute("data-verdicts") || "";
    var digit = digits.charAt(mask - 1);
    if (!digit || digit === "0") return "";
    var reasons;
    try {
      reasons = JSON.parse(button.getAttribute("data-reasons") || "[]");
    } catch (e) {
      reasons = [];
    }
    var reason = reasons[parseInt(digit, 36)] || "";
    return reason.split("{cards}").join(marked.map(function (b) { return printed(b); }).join(" "));
  };

  function printed(button) {
    var code = button.getAttribute("data-card") || "";
    var suit = { S: "♠", H: "♥", D: "♦", C: "♣" }[code.charAt(code.length - 1)];
    return suit ? code.slice(0, -1) + suit : code;
  }

  Puzzle.prototype.throwMarked = function () {
    var marked = this.marked();
    if (!marked.length) {
      this.say(this.throwButton.getAttribute("data-none") || "");
      return;
    }
    var why = this.verdict();
    if (why) {
      this.say(why);
      return;
    }
    var code = "throw " + marked.map(function (b) { return b.getAttribute("data-card"); }).join(" ");
    this.choose(code, this.throwButton);
  };

  Puzzle.prototype.say = function (text) {
    if (this.why) this.why.textContent = text || "";
  };

  // The reader's move: its answer shown where the eyes are, and the progress kept.
  Puzzle.prototype.choose = function (code, control) {
    var panels = this.answer.querySelectorAll("[data-answer]");
    var found = null;
    for (var i = 0; i < panels.length; i++) {
      var mine = panels[i].getAttribute("data-answer") === code;
      panels[i].hidden = !mine;
      if (mine) found = panels[i];
    }
    if (!found) {
      this.say("");
      return;
    }
    var more = this.answer.querySelectorAll("[data-why]");
    for (var j = 0; j < more.length; j++) more[j].hidden = more[j].getAttribute("data-why") !== code;
    this.answered = true;
    this.say("");
    this.root.setAttribute("data-answered", code);
    if (control) control.classList.add("dh-pz-chosen");
    var best = found.classList.contains("dh-pz-verdict--best");
    this.root.setAttribute("data-result", best ? "best" : "other");
    this.answer.hidden = false;
    this.answer.focus({ preventScroll: true });
    this.reveal();
    record(this.id, best, this.daily);
    this.root.dispatchEvent(new CustomEvent("dhumbal:answered", { bubbles: true, detail: { id: this.id, best: best } }));
  };

  // The verdict, the reader's move and its buttons in view at once, below the page's sticky
  // header (the answer's scroll-margin): on a phone the reasons that follow may take a scroll.
  Puzzle.prototype.reveal = function () {
    var top = this.answer.getBoundingClientRect().top;
    var actions = this.answer.querySelector(".dh-pz-answer__actions");
    var bottom = actions ? actions.getBoundingClientRect().bottom : top;
    var header = document.querySelector(".md-header");
    var below = header ? header.getBoundingClientRect().bottom : 0;
    if (top >= below && bottom <= window.innerHeight) return;
    this.answer.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
  };

  Puzzle.prototype.reset = function () {
    this.answered = false;
    this.root.removeAttribute("data-answered");
    this.root.removeAttribute("data-result");
    this.answer.hidden = true;
    var chosen = this.root.querySelectorAll(".dh-pz-chosen");
    for (var i = 0; i < chosen.length; i++) chosen[i].classList.remove("dh-pz-chosen");
    this.hand.forEach(function (b) {
      b.setAttribute("aria-pressed", "false");
      b.classList.remove("dhc--sel");
    });
    this.say("");
    var first = this.hand[0] || this.root.querySelector(".dh-pz-move:not([aria-disabled])");
    if (first) {
      if (this.hand.length) this.focusCard(0);
      else first.focus();
    }
  };

  // Its "Solved" or "Tried" mark.
  Puzzle.prototype.show = function () {
    var entry = load(STORE)[this.id];
    mark(this.root, entry);
  };

  function mark(el, entry) {
    var solved = !!(entry && entry.s);
    var tried = !!(entry && entry.t);
    var s = el.querySelector('[data-status="solved"]');
    var t = el.querySelector('[data-status="tried"]');
    if (s) s.hidden = !solved;
    if (t) t.hidden = solved || !tried;
  }

  // -- fetching a puzzle into a stage -------------------------------------------------------------

  var fetched = {};

  function fetchPuzzle(url) {
    if (!fetched[url]) {
      fetched[url] = fetch(url, { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error(String(r.status));
        return r.text();
      });
      fetched[url].catch(function () { delete fetched[url]; });
    }
    return fetched[url];
  }

  // A table docked beside the puzzle being replaced goes back to its place first.
  function releaseTable(stage) {
    var table = stage.querySelector("[data-dhumbal-table]");
    var ctl = table && table.__dhumbalTable;
    if (ctl && typeof ctl.undock === "function") ctl.undock(false, true);
  }

  // Show puzzle ``id`` in ``stage``; resolves with its Puzzle (null if it could not be loaded).
  function load_into(stage, src, id, daily, token) {
    stage.setAttribute("aria-busy", "true");
    stage.setAttribute("data-state", "loading");
    return fetchPuzzle(src + encodeURIComponent(id) + ".html").then(function (html) {
      if (token && token.cancelled) return null;
      releaseTable(stage);
      stage.innerHTML = html;
      stage.removeAttribute("aria-busy");
      stage.setAttribute("data-state", "shown");
      var root = stage.querySelector("[data-dhumbal-puzzle]");
      return root ? new Puzzle(root, daily) : null;
    }, function () {
      if (token && token.cancelled) return null;
      releaseTable(stage);
      stage.removeAttribute("aria-busy");
      stage.setAttribute("data-state", "failed");
      var p = document.createElement("p");
      p.className = "dh-trainer__failed";
      p.textContent = stage.getAttribute("data-failed") || "";
      stage.innerHTML = "";
      stage.appendChild(p);
      return null;
    });
  }

  // -- the trainer ------------------------------------------------------------------------------

  function Trainer(root, progress) {
    this.root = root;
    this.progress = progress;
    this.src = root.getAttribute("data-src") || "p/";
    this.digits = root.getAttribute("data-digits") || DIGITS;
    this.form = root.querySelector(".dh-trainer__filters");
    this.stage = root.querySelector(".dh-trainer__stage");
    this.found = root.querySelector(".dh-trainer__found");
    this.where = root.querySelector(".dh-trainer__where");
    this.prev = root.querySelector(".dh-trainer__prev");
    this.next = root.querySelector(".dh-trainer__next");
    this.dailyButton = root.querySelector(".dh-trainer__daily");
    this.link = root.querySelector(".dh-trainer__link");
    this.items = Array.prototype.slice.call(root.querySelectorAll("[data-puzzle-entry]"));
    this.byId = {};
    var self = this;
    this.entries = this.items.map(function (li) {
      var e = {
        id: li.getAttribute("data-puzzle-entry"), li: li,
        profile: li.getAttribute("data-profile"), band: li.getAttribute("data-band"),
        themes: (li.getAttribute("data-themes") || "").split(" ").filter(Boolean)
      };
      self.byId[e.id] = e;
      return e;
    });
    this.daily = dailyId(root.getAttribute("data-daily"));
    if (this.dailyButton) {
      this.dailyButton.setAttribute("data-dhumbal-daily", this.daily);
      this.dailyButton.addEventListener("click", function () { self.open(self.daily, true, true); });
    }
    this.current = null;
    this.token = null;
    this.form.addEventListener("change", function () { self.filter(true); });
    this.form.addEventListener("submit", function (ev) { ev.preventDefault(); });
    this.next.addEventListener("click", function () { self.step(1); });
    this.prev.addEventListener("click", function () { self.step(-1); });
    root.addEventListener("click", function (ev) {
      var a = ev.target.closest && ev.target.closest("[data-puzzle-entry] a");
      if (!a) return;
      ev.preventDefault();
      ev.stopPropagation(); // not Material's instant navigation: the puzzle comes into the stage
      self.open(a.closest("[data-puzzle-entry]").getAttribute("data-puzzle-entry"), true, true);
    });
    root.addEventListener("dhumbal:answered", function () {
      self.next.classList.add("dh-trainer__next--ready");
    });
    this.onHash = function () { self.fromAddress(true); };
    window.addEventListener("hashchange", this.onHash);
    listeners.push(function () { self.marks(); });
  }

  Trainer.prototype.choices = function () {
    var f = this.form;
    return {
      profile: f.elements.profile.value, theme: f.elements.theme.value, band: f.elements.band.value,
      unsolved: f.elements.unsolved.checked
    };
  };

  Trainer.prototype.matches = function (e, c, data) {
    if (c.profile && e.profile !== c.profile) return false;
    if (c.theme && e.themes.indexOf(c.theme) < 0) return false;
    if (c.band && e.band !== c.band) return false;
    if (c.unsolved && data[e.id] && data[e.id].s && e.id !== (this.current && this.current.id)) return false;
    return true;
  };

  // Apply the filters to the list; ``move``: show another puzzle if the one shown no longer matches.
  Trainer.prototype.filter = function (move) {
    var c = this.choices();
    var data = load(STORE);
    var self = this;
    this.shown = this.entries.filter(function (e) {
      var ok = self.matches(e, c, data);
      e.li.hidden = !ok;
      return ok;
    });
    var n = this.shown.length;
    var found = this.found;
    var tpl = n === 0 ? found.getAttribute("data-none") : n === 1 ? found.getAttribute("data-template-one") :
      found.getAttribute("data-template");
    found.textContent = fill(tpl, { count: n }, this.digits);
    var count = this.root.querySelector(".dh-trainer__shown");
    if (count) count.textContent = "(" + localDigits(String(n), this.digits) + ")";
    if (move && (!this.current || this.shown.indexOf(this.byId[this.current.id]) < 0)) {
      var first = this.firstUnsolved(0);
      if (first) this.open(first.id, false, true);
      else this.clearStage();
    }
    this.navState();
  };

  Trainer.prototype.clearStage = function () {
    if (this.token) this.token.cancelled = true;
    releaseTable(this.stage);
    this.stage.innerHTML = "";
    this.current = null;
    this.link.hidden = true;
  };

  Trainer.prototype.firstUnsolved = function (from) {
    var data = load(STORE);
    var n = this.shown.length;
    for (var k = 0; k < n; k++) {
      var e = this.shown[(from + k) % n];
      if (!(data[e.id] && data[e.id].s)) return e;
    }
    return this.shown[from % n] || null;
  };

  Trainer.prototype.index = function () {
    return this.current ? this.shown.indexOf(this.byId[this.current.id]) : -1;
  };

  // Next: the next puzzle not solved yet, in the list's order (from the start again at its end);
  // Previous: the one before in the list.
  Trainer.prototype.step = function (dir) {
    var n = this.shown.length;
    if (!n) return;
    var i = this.index();
    var target = dir > 0 ? this.firstUnsolved(i + 1) : this.shown[(i - 1 + n) % n];
    if (target) this.open(target.id, true, true);
  };

  Trainer.prototype.navState = function () {
    var n = this.shown ? this.shown.length : 0;
    var i = this.index();
    this.prev.disabled = n < 2 || i < 0;
    this.next.disabled = n === 0 || (n === 1 && i === 0);
    this.where.textContent = i >= 0 ? fill(this.where.getAttribute("data-template"), { index: i + 1, count: n }, this.digits) : "";
  };

  // Show puzzle ``id``: its file fetched into the stage, its address in the bar (``remember``),
  // the trainer scrolled to (``scroll``) and its title focused (``focus``, which scrolls too).
  Trainer.prototype.open = function (id, focus, remember, scroll) {
    var entry = this.byId[id];
    if (!entry) return;
    if (this.shown.indexOf(entry) < 0) {
      this.form.reset(); // a puzzle the filters hide: every puzzle again
      this.filter(false);
    }
    if (this.token) this.token.cancelled = true;
    var token = this.token = { cancelled: false };
    var self = this;
    this.current = { id: id, puzzle: null };
    this.next.classList.remove("dh-trainer__next--ready");
    this.items.forEach(function (li) { li.removeAttribute("aria-current"); });
    entry.li.setAttribute("aria-current", "true");
    this.navState();
    if (remember) {
      try {
        history.replaceState(history.state, "", location.pathname + location.search + "#puzzle-" + id);
      } catch (e) { /* the address stays; the puzzle is shown all the same */ }
    }
    this.link.href = "#puzzle-" + id;
    this.link.hidden = false;
    return load_into(this.stage, this.src, id, id === this.daily, token).then(function (puzzle) {
      if (token.cancelled) return;
      self.current.puzzle = puzzle;
      if (!puzzle) return;
      if (focus) {
        var title = self.stage.querySelector(".dh-puzzle__title");
        if (title) title.focus({ preventScroll: true });
      }
      if (focus || scroll) self.root.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
    });
  };

  // The address: #puzzle-ID shows that puzzle; #puzzles-PROFILE chooses that profile;
  // a table docked beside a puzzle (#play-puzzle-ID) shows that puzzle.
  Trainer.prototype.fromAddress = function (focus) {
    var h = decodeURIComponent(location.hash.replace(/^#/, ""));
    var m = /^(?:play-)?puzzle-(.+)$/.exec(h);
    if (m && this.byId[m[1]]) {
      if (!this.current || this.current.id !== m[1]) this.open(m[1], focus, false, true);
      return true;
    }
    m = /^puzzles-(.+)$/.exec(h);
    if (m && this.form.elements.profile.querySelector('option[value="' + m[1] + '"]')) {
      this.form.elements.profile.value = m[1];
      this.filter(true);
      if (focus) this.root.scrollIntoView({ block: "start" });
      return true;
    }
    return false;
  };

  Trainer.prototype.marks = function () {
    var data = load(STORE);
    this.entries.forEach(function (e) { mark(e.li, data[e.id]); });
    if (this.current && this.current.puzzle) this.current.puzzle.show();
  };

  Trainer.prototype.start = function () {
    this.filter(false);
    this.marks();
    if (this.fromAddress(false)) return;
    // No address: today's puzzle if it is not solved yet, else the first not solved.
    var data = load(STORE);
    var daily = this.byId[this.daily];
    if (daily && !(data[daily.id] && data[daily.id].s)) this.open(daily.id, false, false);
    else {
      var first = this.firstUnsolved(0);
      if (first) this.open(first.id, false, false);
    }
  };

  // -- the daily puzzle on another page -----------------------------------------------------------

  function Daily(root) {
    var id = dailyId(root.getAttribute("data-daily"));
    root.setAttribute("data-dhumbal-daily", id);
    var link = root.querySelector(".dh-daily__link");
    if (link && id) link.href = (root.getAttribute("data-page") || "") + "#puzzle-" + id;
    if (id) load_into(root.querySelector(".dh-trainer__stage"), root.getAttribute("data-src") || "", id, true, null);
  }

  // -- the page ---------------------------------------------------------------------------------

  var trainer = null;

  function setup() {
    if (trainer) {
      window.removeEventListener("hashchange", trainer.onHash);
      trainer = null;
    }
    listeners = [];
    var daily = document.querySelectorAll(".dh-daily[data-dhumbal-daily]");
    for (var i = 0; i < daily.length; i++) {
      if (!daily[i].__dhumbalDaily) daily[i].__dhumbalDaily = new Daily(daily[i]);
    }
    var root = document.querySelector("[data-dhumbal-trainer]");
    var box = document.querySelector("[data-dhumbal-puzzles]");
    if (!root) return;
    if (root.__dhumbalTrainer) return;
    trainer = root.__dhumbalTrainer = new Trainer(root);
    if (box) {
      var progress = new Progress(box, trainer.entries);
      listeners.push(function (announce) { progress.update(announce); });
      progress.update(false);
    }
    trainer.start();
  }

  window.DhumbalPage.each(setup);
})();
