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

  // A deal that has just ended: its summary comes into sight on the page (the
  // full table shows it over the felt). The page moves no more than it must:
  // the summary's foot just above the dock that sticks below it, its head
  // never under the site's header, so the felt and the hand stay in sight as
  // far as the screen allows.
  T.on("shown", function (table, result, payload) {
    var over = !!(result && result.summary && result.summary.is_over);
    var was = table.summaryShown;
    table.summaryShown = over;
    if (table.full || !payload) return;
    var dock = table.board.querySelector(".dht-dock");
    var header = document.querySelector(".md-header");
    var top = (header ? header.getBoundingClientRect().bottom : 0) + 8;
    var bottom = innerHeight - (dock ? dock.getBoundingClientRect().height : 0) - 8;
    var by = 0;
    if (over && !was && payload.op === "act") {
      var summary = table.board.querySelector(".dht-summary");
      if (!summary) return;
      var r = summary.getBoundingClientRect();
      by = r.bottom > bottom ? Math.min(r.bottom - bottom, r.top - top) : (r.top < top ? r.top - top : 0);
      // A summary too tall to show whole beside the hand (the match's standings
      // under the deal's scores): the hand stays in sight, under the header, as
      // long as every seat's line of the deal's scores still is; the rest of the
      // summary is a scroll away.
      var hand = table.board.querySelector(".dht-me");
      var seats = summary.querySelectorAll("tr.dht-score__seat");
      if (by > 0 && hand && seats.length) {
        var keep = Math.max(0, hand.getBoundingClientRect().top - top);
        if (keep < by && seats[seats.length - 1].getBoundingClientRect().bottom - keep <= bottom) by = keep;
      }
    } else if (!over && was) {
      // The next deal: the summary has gone and the page is shorter; the
      // board comes back down, as far as keeps the reader's hand above the dock.
      var me = table.board.querySelector(".dht-me");
      if (!me) return;
      var m = me.getBoundingClientRect();
      if (m.top >= top && m.bottom <= bottom) return;
      by = Math.max(table.board.getBoundingClientRect().top - top, m.bottom - bottom);
      window.scrollBy({ top: by, behavior: "auto" });
      return;
    }
    if (Math.abs(by) < 1) return;
    var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollBy({ top: by, behavior: still ? "auto" : "smooth" });
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
