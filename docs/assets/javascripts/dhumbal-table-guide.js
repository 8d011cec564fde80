/*
 * The mini table, the first-run guide: three short steps (tap marks, drag
 * throws, call before you take or throw: the step that matches the turn
 * order of the rules on the table, data-turn-order) shown over the felt the
 * first time the table goes live in this browser. "Got it", Escape or the
 * reader's first move puts it away, and this browser remembers it then
 * (localStorage); where storage is refused it is put away for the page all
 * the same. The engine drew its words (dhumbal/view/guide.py). See
 * dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;
  var GUIDE_KEY = "dhumbal:guide";
  var seenHere = false; // this page's memory, where the browser's storage is refused

  function seen() {
    if (seenHere) return true;
    var s = T.store("localStorage");
    try {
      return !!(s && s.getItem(GUIDE_KEY));
    } catch (e) {
      return false;
    }
  }

  function remember() {
    seenHere = true;
    var s = T.store("localStorage");
    try {
      if (s) s.setItem(GUIDE_KEY, "seen");
    } catch (e) { /* refused or full: remembered for this page only */ }
  }

  Table.prototype.guide = function () {
    return this.root.querySelector("[data-dht-guide]");
  };

  // The guide's third step for the rules on the table.
  Table.prototype.guideOrder = function () {
    var guide = this.guide();
    var area = this.board.querySelector(".dht-play-area");
    if (!guide || !area) return;
    var order = area.getAttribute("data-turn-order") || "draw-first";
    var steps = guide.querySelectorAll(".dht-guide__call [data-turn-order]");
    for (var i = 0; i < steps.length; i++) steps[i].hidden = steps[i].getAttribute("data-turn-order") !== order;
  };

  Table.prototype.putGuideAway = function (focus) {
    var guide = this.guide();
    if (!guide || guide.hidden) return;
    var inside = guide.contains(document.activeElement);
    guide.hidden = true;
    remember();
    if (focus || inside) this.refocus("");
  };

  // The first live board: the guide, unless this browser has seen it.
  T.on("board", function (table) {
    var guide = table.guide();
    if (!guide) return;
    table.guideOrder();
    if (table.guideShown || seen()) return;
    table.guideShown = true;
    guide.hidden = false;
  });

  // The reader's first move: they are under way.
  T.on("shown", function (table, result, payload) {
    if (payload && payload.op === "act" && result && result.ok !== false) table.putGuideAway(false);
  });

  T.on("bind", function (table) {
    table.root.addEventListener("click", function (ev) {
      if (ev.target.closest && ev.target.closest("[data-dht-guide-done]")) table.putGuideAway(true);
    });
    table.root.addEventListener("keydown", function (ev) {
      var guide = table.guide();
      if (ev.key !== "Escape" || ev.defaultPrevented || !guide || guide.hidden || !guide.contains(ev.target)) return;
      ev.preventDefault();
      table.putGuideAway(true);
    });
  });

  T.GUIDE_KEY = GUIDE_KEY;
})();
