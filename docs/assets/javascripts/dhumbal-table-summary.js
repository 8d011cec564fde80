/*
 * The mini table, the summary of a deal's end and the log of the deal. The
 * strip of scores keeps the reader's folded or unfolded choice through the
 * answers of the same deal (a review's answer draws the board again); the
 * dock's Details opens the details of the scores (over the whole board in
 * the full table) and their Close or Escape shuts them, as the review's
 * Close does the review. The log keeps the reader's open/closed choice and
 * its newest line in sight, and the bots' moves are added to it as they are
 * shown. See dhumbal-table-core.js.
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

  // -- the strip, the details, the review's Close ----------------------------------

  // The strip as the reader left it, folded or not, while the deal's end is shown
  // (the next deal's strip is unfolded).
  T.on("board", function (table) {
    var fold = table.board.querySelector("[data-dht-fold]");
    if (!fold) table.stripFolded = false;
    else if (table.stripFolded) fold.open = false;
  });

  T.on("bind", function (table) {
    table.root.addEventListener("toggle", function (ev) {
      if (ev.target.matches && ev.target.matches("[data-dht-fold]")) table.stripFolded = !ev.target.open;
    }, true);
    table.root.addEventListener("click", function (ev) {
      var target = ev.target.closest && ev.target.closest("button");
      if (!target || !table.board.contains(target)) return;
      if (target.hasAttribute("data-dht-details")) {
        table.showDetails(target.getAttribute("aria-expanded") !== "true");
      } else if (target.hasAttribute("data-dht-panel-close")) {
        table.showDetails(false);
      } else if (target.hasAttribute("data-dht-review-close")) {
        table.closeReview();
      }
    });
    // Escape shuts what lies over the board first (before it closes the full table).
    table.root.addEventListener("keydown", function (ev) {
      if (ev.key !== "Escape" || ev.defaultPrevented) return;
      var details = table.board.querySelector(".dht-details:not([hidden])");
      var review = table.board.querySelector(".dht-summary > .dht-review");
      if (review) table.closeReview();
      else if (details) table.showDetails(false);
      else return;
      ev.preventDefault();
    });
  });

  // The details of the scores, opened (the focus on their title) or shut (back on Details).
  Table.prototype.showDetails = function (open) {
    var panel = this.board.querySelector(".dht-details");
    var button = this.board.querySelector("[data-dht-details]");
    if (!panel) return;
    var review = open && this.board.querySelector(".dht-summary > .dht-review");
    if (review) review.remove(); // one of the two over the board at a time
    panel.hidden = !open;
    if (button) button.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      var title = panel.querySelector(".dht-panel__title");
      if (title) {
        title.focus({ preventScroll: true });
        if (!this.full) panel.scrollIntoView({ block: "nearest" });
      }
    } else if (button) {
      button.focus({ preventScroll: true });
    }
  };

  Table.prototype.closeReview = function () {
    var review = this.board.querySelector(".dht-summary > .dht-review");
    if (review) review.remove();
    var button = this.board.querySelector(".dht-review-btn");
    if (button) button.focus({ preventScroll: true });
  };

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
