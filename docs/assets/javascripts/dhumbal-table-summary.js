/*
 * The mini table, the score summary and the log of the deal: the log keeps
 * the reader's open/closed choice and its newest line in sight, and the
 * bots' moves are added to it as they are shown. See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;

  // The log is open on the page unless the reader closed it; in the full
  // table, where it lies over the felt, closed unless the reader opened it.
  Table.prototype.keepLog = function () {
    var log = this.board.querySelector(".dht-log");
    if (!log) return;
    var open = this.full ? !!this.logOpenFull : this.logOpen;
    if (log.open !== open) {
      this.logSet = log; // its toggle event is this script's, not the reader's
      log.open = open;
    }
    this.logToEnd();
  };

  T.on("bind", function (table) {
    table.root.addEventListener("toggle", function (ev) {
      if (!ev.target.matches || !ev.target.matches(".dht-log")) return;
      if (ev.target === table.logSet) {
        table.logSet = null;
        return;
      }
      if (table.full) table.logOpenFull = ev.target.open;
      else table.logOpen = ev.target.open;
    }, true);
  });

  T.on("full", function (table) {
    table.keepLog();
  });

  // The newest line in sight, at the next frame (no layout forced in between).
  Table.prototype.logToEnd = function () {
    var list = this.board.querySelector(".dht-log__list");
    if (list) requestAnimationFrame(function () { list.scrollTop = 1e9; });
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

})();
