/*
 * The mini table, the score summary and the log of the deal: the log keeps
 * the reader's open/closed choice and its newest line in sight, and the
 * bots' moves are added to it as they are shown. See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;

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
