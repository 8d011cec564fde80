/*
 * Back and Forward that only move the mini table (a worked example's "Play
 * from here" docks the table beside the example and adds a history entry):
 * dhumbal-table-page.js handles them, and Material's instant navigation must not,
 * since on the first history step within a page it fetches the page again
 * and replaces it, table and game included.
 *
 * The full table (on a phone) has a history entry of its own, so that Back
 * closes it; that step is the table's too.
 *
 * The same holds for a change of the table's own link (`#table=…`) on the
 * same page: a shared link pasted into the address bar, or Back and Forward
 * between games. The table reads it from `hashchange`; Material would fetch
 * and redraw the whole page for it. So too the score pad's link (`#pad=…`,
 * dhumbal-scorepad.js).
 *
 * This file is loaded in <head> (overrides/main.html), before Material's
 * bundle, so its popstate listener runs first: the browser calls a window's
 * listeners in the order they were added, capture or not.
 */
(function () {
  "use strict";
  window.__dhumbalHistoryFirst = true;
  var PREFIXES = ["#table=", "#pad="];
  function linked(hash) {
    return PREFIXES.some(function (prefix) { return hash.indexOf(prefix) === 0; });
  }
  function page(loc) {
    return loc.origin + loc.pathname + loc.search;
  }
  var last = { page: page(location), hash: location.hash };
  window.addEventListener("popstate", function (ev) {
    var table = window.DhumbalTable;
    var now = { page: page(location), hash: location.hash };
    var tableLink = now.page === last.page && (linked(now.hash) || linked(last.hash));
    last = now;
    var own = !!(table && table.ownHistory && table.ownHistory());
    if (own || tableLink) ev.stopImmediatePropagation();
  });
  // Keep `last` current when the page itself changes the address (instant
  // navigation, the table writing its link). Instant navigation to another
  // page pushes its address without any event: `last` follows each page
  // Material draws (document$), so that Back to the previous page is that
  // page's step, which Material must see, even when its address holds a game.
  function sync() {
    last = { page: page(location), hash: location.hash };
  }
  window.addEventListener("hashchange", sync);
  document.addEventListener("DOMContentLoaded", function () {
    if (window.document$ && window.document$.subscribe) window.document$.subscribe(sync);
  });
})();
