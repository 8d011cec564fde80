/*
 * The mini table, its place on the page: brought into view (a shared link, a
 * "play" link), moved beside a worked example by "Play from here" (Back or
 * Close puts it home again), and the full table: on a phone (a narrow
 * screen, or a short one held sideways) Play, a "play" link, "Play from
 * here" and "Continue your game" open the table over the whole screen, and
 * the "Full table" button does so on any screen. The full table is the same
 * element, fixed over the page (which stays as it was, scrolled where it
 * was, out of reach of the keyboard and of screen readers meanwhile); it has
 * its own history entry, so the phone's Back closes it, as does Close or
 * Escape; the address keeps the game (#table=). See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;
  var parseJSON = T.parseJSON;
  var frugal = T.frugal;

  var DOCK_KEY = "play-";
  T.DOCK_KEY = DOCK_KEY;

  var SMALL = "(max-width: 44.9375em), (max-height: 32em)";

  // A phone's screen (narrow, or short when held sideways): the table opens full.
  function small() {
    return !!(window.matchMedia && window.matchMedia(SMALL).matches);
  }
  T.small = small;

  // -- going to the table ----------------------------------------------------------

  // Bring the table into view and give it the focus (a shared link, a "play"
  // link); on a phone, the full table.
  Table.prototype.reveal = function () {
    var root = this.root;
    if (small()) {
      this.openFull();
      return;
    }
    root.scrollIntoView({ block: "start" });
    root.focus({ preventScroll: true });
  };

  // -- the full table -----------------------------------------------------------------

  Table.prototype.openFull = function () {
    if (this.full) return;
    var root = this.root;
    this.full = { y: window.scrollY, x: window.scrollX, inert: [], entry: false, focus: document.activeElement };
    // Everything else on the page is out of reach while the table fills the screen.
    for (var el = root; el && el.parentElement && el !== document.body; el = el.parentElement) {
      var siblings = el.parentElement.children;
      for (var i = 0; i < siblings.length; i++) {
        var s = siblings[i];
        if (s !== el && !s.inert && s.tagName !== "SCRIPT" && s.tagName !== "STYLE") {
          s.inert = true;
          this.full.inert.push(s);
        }
      }
    }
    root.classList.add("dh-table--full");
    root.setAttribute("role", "dialog");
    root.setAttribute("aria-modal", "true");
    document.documentElement.classList.add("dh-full-table");
    // Its own history entry (the same address): Back closes the full table.
    // The entry, and those the table adds while it is open (a review's "Play
    // from here"), carry its mark: a step of history to an entry without it
    // leaves the full table.
    this.full.mark = "f" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
    try {
      var state = Object.assign({}, history.state, { dhFull: this.full.mark });
      delete state.dhReview; // (the entry below keeps the review's step)
      delete state.dhPracticeOf;
      history.pushState(state, "", location.href);
      this.full.entry = true;
    } catch (e) { /* Close and Escape still close it */ }
    root.scrollTop = 0;
    root.focus({ preventScroll: true });
    T.emit("full", this, true);
  };

  // `fromHistory`: the reader went Back (the entry is gone already).
  Table.prototype.closeFull = function (fromHistory) {
    var full = this.full;
    if (!full) return;
    this.full = null;
    var root = this.root;
    for (var i = 0; i < full.inert.length; i++) full.inert[i].inert = false;
    root.classList.remove("dh-table--full");
    root.removeAttribute("role");
    root.removeAttribute("aria-modal");
    document.documentElement.classList.remove("dh-full-table");
    window.scrollTo(full.x, full.y);
    if (full.entry && !fromHistory) {
      this.leaving = true; // the Back below is the table's own step
      try { history.back(); } catch (e) { this.leaving = false; }
    } else if (fromHistory) {
      this.keepAddress();
    }
    var back = root.querySelector("[data-dht-full]");
    if (full.focus && full.focus.isConnected && !root.contains(full.focus)) {
      full.focus.focus({ preventScroll: true });
    } else if (back && back.offsetParent) {
      back.focus({ preventScroll: true });
    } else {
      root.focus({ preventScroll: true });
    }
    T.emit("full", this, false);
  };

  // The history step that closed the full table went back to an entry made
  // before the game's last move: the address takes the game again.
  Table.prototype.keepAddress = function () {
    if (!this.played || !this.lastHash || this.path !== location.pathname) return;
    if (location.hash === "#" + this.lastHash) return;
    try {
      history.replaceState(history.state, "", location.pathname + location.search + "#" + this.lastHash);
    } catch (e) { /* the table still holds the game */ }
  };

  // A step of history while the full table is open, or the step its Close made:
  // true when the step was the table's own.
  Table.prototype.fullHistory = function () {
    if (this.leaving) {
      this.leaving = false;
      this.keepAddress();
      return true;
    }
    if (this.full && history.state && history.state.dhFull === this.full.mark) {
      return true; // a step between the table's own entries (a review's "Play from here"): it stays open
    }
    if (this.full) {
      this.closeFull(true);
      return true;
    }
    return false;
  };

  T.on("bind", function (table) {
    table.root.addEventListener("keydown", function (ev) {
      // (Escape in the question before a new game closes the question only)
      if (ev.key === "Escape" && table.full && !ev.defaultPrevented && !(ev.target.closest && ev.target.closest("dialog"))) {
        ev.preventDefault();
        table.closeFull(false);
      }
    });
  });

  // "Play these rules": the table, set to the page's rules, started. Over the
  // reader's game in progress, a fresh game is asked first (the page's top
  // offers "Continue your game" before this link then).
  Table.prototype.open = function () {
    if (this.dock) this.undock(false, true);
    var self = this;
    var wanted = this.root.getAttribute("data-profile") || "";
    var area = this.board.querySelector(".dht-play-area");
    var current = area ? area.getAttribute("data-profile-key") : "";
    if (this.live && !(wanted && current && wanted.split("(")[0] !== current)) {
      this.reveal(); // these rules are on the table already: the game goes on
      return;
    }
    this.startFresh(function () {
      self.reveal();
      self.focusOnStart = true;
      if (self.live) self.send(Object.assign({ op: "new" }, self.defaults()));
      else self.intent("profile");
    });
  };

  // "Play from here" on a worked example: the example's position, on the table
  // moved right beside the example; Back or Close puts it back.
  Table.prototype.playFrom = function (button, fromAddress) {
    var example = (button.parentElement && button.parentElement.closest(".dh-example, [data-example]")) ||
      button.parentElement;
    var payload = {
      op: "position",
      state: stepState(example) || button.getAttribute("data-state-json"),
      names: parseJSON(button.getAttribute("data-names")),
      difficulty: this.root.getAttribute("data-difficulty") || "medium"
    };
    this.dockAt(example, button, !fromAddress);
    if (!fromAddress && small()) this.openFull();
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

  // The position of the example's step on screen (the build puts each step's
  // position on it, data-play-state; a step that ends the deal has none, and
  // the one before it counts); none when every step is shown.
  function stepState(example) {
    var stepper = example && example.__dhumbalStepper;
    if (!stepper || stepper.showAll) return null;
    for (var i = stepper.index; i >= 0; i--) {
      var state = stepper.steps[i] && stepper.steps[i].getAttribute("data-play-state");
      if (state) return state;
    }
    return null;
  }

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
    // The table under the example, the example's end still in sight above it
    // when the table is not taller than the screen.
    var tall = root.getBoundingClientRect().height > innerHeight * 0.85;
    root.scrollIntoView({ block: tall ? "start" : "end" });
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

})();
