/*
 * The mini table, its place on the page: brought into view (a shared link, a
 * "play" link), and moved beside a worked example by "Play from here" (Back
 * or Close puts it home again). See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;
  var parseJSON = T.parseJSON;
  var frugal = T.frugal;

  var DOCK_KEY = "play-";
  T.DOCK_KEY = DOCK_KEY;

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

})();
