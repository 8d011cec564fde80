/*
 * Puzzles: the reader's move, its answer, and the reader's progress.
 *
 * Every answer is in the page already, graded by the engine when the site
 * was built (sitegen/dhumbal_site/puzzles.py): one panel per legal move,
 * named by the move (data-answer="throw KS KH", "take stock", "call", ...).
 * This script only lets the reader make a move as at the table (mark cards
 * and press Throw; tap the stock or a face-up card; press Call), shows that
 * move's panel, and keeps which puzzles were tried and solved in local
 * storage. It decides no rule: whether marked cards may be thrown, and why
 * not, is the engine's verdict on every set of the hand's cards
 * (data-verdicts and data-reasons, as on the table's Throw button). It never
 * loads the engine: "Play from here" is the table's own button
 * (dhumbal-table.js), which starts the engine only when pressed.
 *
 * Works with Material's instant navigation (document$) and a strict
 * Content-Security-Policy: no inline script, no eval.
 */
(function () {
  "use strict";

  var STORE = "dhumbal-puzzles";
  var DIGITS = "0123456789";

  function load() {
    try {
      var data = JSON.parse(window.localStorage.getItem(STORE) || "{}");
      return data && typeof data === "object" && !Array.isArray(data) ? data : {};
    } catch (e) {
      return {};
    }
  }

  function save(data) {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(data));
    } catch (e) { /* private mode or full: progress is kept for this page view only */ }
  }

  function Puzzle(root, list) {
    this.root = root;
    this.list = list;
    this.id = root.getAttribute("data-dhumbal-puzzle");
    this.hand = Array.prototype.slice.call(root.querySelectorAll(".dh-pz-hand button[data-card]"));
    this.throwButton = root.querySelector(".dh-pz-throw");
    this.why = root.querySelector(".dh-pz-why:not(.dh-pz-why--call)");
    this.answer = root.querySelector(".dh-pz-answer");
    this.board = root.querySelector(".dh-pz-board");
    this.answered = false;
    var self = this;
    root.addEventListener("click", function (ev) { self.onClick(ev); });
    root.addEventListener("keydown", function (ev) { self.onKey(ev); });
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
    this.answered = true;
    this.say("");
    this.root.setAttribute("data-answered", code);
    if (control) control.classList.add("dh-pz-chosen");
    var best = found.classList.contains("dh-pz-verdict--best");
    this.root.setAttribute("data-result", best ? "best" : "other");
    this.answer.hidden = false;
    this.answer.focus({ preventScroll: true });
    this.answer.scrollIntoView({ block: "nearest", behavior: reducedMotion() ? "auto" : "smooth" });
    this.list.record(this.id, best);
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

  Puzzle.prototype.show = function (entry) {
    var solved = !!(entry && entry.s);
    var tried = !!(entry && entry.t);
    var s = this.root.querySelector('[data-status="solved"]');
    var t = this.root.querySelector('[data-status="tried"]');
    if (s) s.hidden = !solved;
    if (t) t.hidden = solved || !tried;
  };

  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  // -- the page: every puzzle and the progress line ---------------------------------

  // ``box`` is the progress line (it may be missing); ``roots`` every puzzle of the page.
  function List(box, roots) {
    this.box = box;
    this.count = box ? box.querySelector(".dh-puzzles__count") : null;
    this.digits = (box && box.getAttribute("data-digits")) || DIGITS;
    var self = this;
    this.puzzles = roots.map(function (el) { return new Puzzle(el, self); });
    var forget = box ? box.querySelector(".dh-puzzles__forget") : null;
    if (forget) {
      forget.addEventListener("click", function () {
        var data = load();
        self.puzzles.forEach(function (p) { delete data[p.id]; });
        save(data);
        self.update(true);
      });
    }
    this.update(false);
    if (box) box.hidden = false;
  }

  List.prototype.record = function (id, best) {
    var data = load();
    var entry = data[id] && typeof data[id] === "object" ? data[id] : {};
    entry.t = 1;
    if (best) entry.s = 1;
    data[id] = entry;
    save(data);
    this.update(true);
  };

  List.prototype.number = function (n) {
    var digits = this.digits;
    return String(n).replace(/[0-9]/g, function (d) { return digits.charAt(+d); });
  };

  List.prototype.update = function (announce) {
    var data = load();
    var solved = 0;
    var tried = 0;
    this.puzzles.forEach(function (p) {
      var entry = data[p.id];
      if (entry && entry.t) tried += 1;
      if (entry && entry.s) solved += 1;
      p.show(entry);
    });
    if (!this.count) return;
    var text = (this.count.getAttribute("data-template") || "")
      .split("{solved}").join(this.number(solved))
      .split("{tried}").join(this.number(tried))
      .split("{total}").join(this.number(this.puzzles.length));
    // Announced after a move (the region is polite); set quietly on load.
    if (!announce) this.count.setAttribute("aria-live", "off");
    this.count.textContent = text;
    if (!announce) {
      var count = this.count;
      setTimeout(function () { count.setAttribute("aria-live", "polite"); }, 0);
    }
    this.box.setAttribute("data-solved", String(solved));
    this.box.setAttribute("data-tried", String(tried));
  };

  function setup() {
    var roots = Array.prototype.slice.call(document.querySelectorAll("[data-dhumbal-puzzle]"));
    if (!roots.length || roots[0].__dhumbalPuzzle) return;
    roots[0].__dhumbalPuzzle = new List(document.querySelector("[data-dhumbal-puzzles]"), roots);
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(setup);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
