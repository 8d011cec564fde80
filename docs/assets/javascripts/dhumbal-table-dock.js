/*
 * The mini table, the dock under the hand: the live status line, the
 * loader's progress, the controls (what each button asks of the engine), the
 * Throw control's verdict on the marked cards, and sharing the game's link.
 * See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;
  var runtime = T.runtime;
  var parseJSON = T.parseJSON;
  var printed = T.printed;

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

  Table.prototype.placeDock = function () {
    var slot = this.board.querySelector("[data-dht-slot]");
    if (!slot) return;
    if (this.loader) slot.appendChild(this.loader);
    if (this.status) slot.appendChild(this.status);
    if (this.shareLink) slot.appendChild(this.shareLink);
  };

  // The Throw control says whether the marked cards may be thrown now, and why
  // not: the engine's verdict for every set of cards came with the view.
  Table.prototype.updateThrow = function () {
    var button = this.board.querySelector('[data-action="throw"]');
    this.showMarked();
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

  // What the marked cards are worth, on the line above the hand (the same number as Throw).
  Table.prototype.showMarked = function () {
    var chip = this.board.querySelector(".dht-hand__marked");
    if (!chip) return;
    var total = 0;
    var cards = this.cards();
    for (var i = 0; i < cards.length; i++) {
      if (this.marks.indexOf(cards[i].getAttribute("data-card")) >= 0) {
        total += parseInt(cards[i].getAttribute("data-value"), 10) || 0;
      }
    }
    chip.hidden = !this.marks.length;
    chip.textContent = this.marks.length
      ? (chip.getAttribute("data-template") || "{value}").replace("{value}", this.digits(String(total)))
      : "";
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
    // the marked cards as the engine writes them in this language (data-words), else as printed
    var words = parseJSON(button.getAttribute("data-words")) || [];
    return text.replace("{cards}", this.marks.map(function (code) {
      var w = words[order.indexOf(code)];
      return typeof w === "string" ? w : printed(code);
    }).join(" "));
  };

  // Play, or New game beside "Continue your game" (which asks first: see
  // dhumbal-table-resume.js).
  Table.prototype.pressPlay = function () {
    var self = this;
    this.startFresh(function () {
      self.focusOnStart = true; // the button disappears: carry focus to the table
      if (T.small()) self.openFull();
      self.intent("play");
    });
  };

  // Play (or a page's "play" link) pressed before the page's scripts ran: the
  // control is a link to "#<table id>-play", so the press left that address.
  // It counts now: the address is put back as it was and the table starts.
  T.on("bind", function (table) {
    if (location.hash !== "#" + table.id + "-play") return;
    try {
      history.replaceState(history.state, "", location.pathname + location.search);
    } catch (e) { /* the table still starts */ }
    Promise.resolve().then(function () {
      if (!table.root.isConnected || table.starting || table.live) return;
      var cont = table.root.querySelector("[data-dht-continue]:not([hidden])");
      if (cont) {
        // the reader has a game in progress: the table offers it (focused), deals nothing
        table.reveal();
        cont.focus({ preventScroll: true });
        return;
      }
      table.focusOnStart = true;
      table.intent("play");
      if (T.small()) {
        table.reveal(); // the full table, at once
        return;
      }
      // else the table scrolled into view, once the page has loaded (the browser
      // and Material set the page's scroll until then)
      var reveal = function () {
        setTimeout(function () { if (table.root.isConnected) table.reveal(); }, 0);
      };
      if (document.readyState === "complete") reveal();
      else window.addEventListener("load", reveal, { once: true });
    });
  });

  // Play is a link that acts as a button: Space presses it too (Enter does by itself).
  T.on("bind", function (table) {
    table.root.addEventListener("keydown", function (ev) {
      if (ev.key !== " " || !ev.target.matches || !ev.target.matches("a[data-dht-play]")) return;
      ev.preventDefault();
      ev.target.click();
    });
  });

  Table.prototype.onClick = function (ev) {
    var target = ev.target.closest("button, a[data-dht-play]");
    if (!target || !this.root.contains(target)) {
      if (!this.live && !this.starting && ev.target.closest(".dht-board")) this.intent("tap");
      return;
    }
    if (target.hasAttribute("data-dht-play")) {
      // Play is a link to the table's "play" address, which is for a press before this
      // script runs; and Material's instant navigation must not see it (on a first
      // same-page link it fetches the page again and replaces the table being started)
      ev.preventDefault();
      ev.stopPropagation();
      this.pressPlay();
      return;
    }
    if (target.hasAttribute("data-dht-full")) {
      if (this.full) this.closeFull(false);
      else this.openFull();
      return;
    }
    if (target.hasAttribute("data-dht-retry")) {
      var rt = runtime();
      var self = this;
      this.starting = null;
      this.focusOnStart = true;
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
      this.focusOnStart = true;
      this.live = false;
      this.carried = "";
      this.pending = Object.assign({ op: "new" }, this.defaults());
      if (T.tableHash()) {
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
      if (this.full) this.closeFull(false);
      else this.undock(false);
      return;
    }
    if (target.hasAttribute("data-dht-match")) {
      this.backToMatch(); // the end of a practice deal (dhumbal-table-review.js)
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
    if (op === "hint") {
      // The odds take a moment to count: presses while they are counted are
      // one press, not a queue of work.
      if (this.hinting) return;
      var table = this;
      this.hinting = true;
      target.setAttribute("aria-busy", "true");
      var done = function () { table.hinting = false; };
      this.send({ op: op }).then(done, done);
      return;
    }
    if (op === "new-match") {
      // a fresh match: asked first over a game in progress (dhumbal-table-resume.js)
      var over = this;
      this.startFresh(function () {
        over.played = true;
        over.send({ op: op });
      });
      return;
    }
    if (op) {
      if (op !== "sort") this.played = true; // sorting is not a move
      this.send({ op: op });
    }
  };

  // The dock's height, for the hand that stays on screen just above it
  // (dhumbal-table-hand.css) while the dock sticks to the bottom of the screen.
  T.on("board", function (table) {
    var dock = table.board.querySelector(".dht-dock");
    if (!dock || typeof ResizeObserver === "undefined") return;
    if (!table.dockWatch) {
      table.dockWatch = new ResizeObserver(function (entries) {
        var h = Math.ceil(entries[entries.length - 1].target.getBoundingClientRect().height);
        table.root.style.setProperty("--dht-dock-h", h + "px");
      });
    }
    table.dockWatch.disconnect();
    table.dockWatch.observe(dock);
  });

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

})();
