/*
 * Back and Forward that only move the mini table (a worked example's "Play
 * from here" docks the table beside the example and adds a history entry):
 * dhumbal-table.js handles them, and Material's instant navigation must not,
 * since on the first history step within a page it fetches the page again
 * and replaces it, table and game included.
 *
 * This file is loaded in <head> (overrides/main.html), before Material's
 * bundle, so its popstate listener runs first: the browser calls a window's
 * listeners in the order they were added, capture or not.
 */
(function () {
  "use strict";
  window.__dhumbalHistoryFirst = true;
  window.addEventListener("popstate", function (ev) {
    var table = window.DhumbalTable;
    if (table && table.ownHistory && table.ownHistory()) ev.stopImmediatePropagation();
  });
})();
