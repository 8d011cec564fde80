/*
 * The mini table on every page: the tables set up (again after each of
 * Material's instant navigations, carrying a game drawn again on the same
 * page), the "play" links ("Continue your game" and "Play these rules" near
 * the top) and "Play from here" buttons, the language menu
 * taking the game along, a pasted #table= link, and Back and Forward
 * between a worked example and its table. The last of the table's scripts:
 * see dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;
  var store = T.store;
  var prefs = T.prefs;
  var applyPrefs = T.applyPrefs;
  var tableHash = T.tableHash;
  var cssEscape = T.cssEscape;
  var DOCK_KEY = T.DOCK_KEY;
  var CARRY_KEY = T.CARRY_KEY;

  // -- the page ---------------------------------------------------------------------

  var controllers = [];
  var watcher = null;
  window.addEventListener("scroll", function () { T.scrolledAt = performance.now(); }, { passive: true });

  function pageTable() {
    var root = document.querySelector("[data-dhumbal-table]");
    return root && root.__dhumbalTable ? root.__dhumbalTable : null;
  }

  function setup() {
    applyPrefs(prefs());
    // A full table left behind by a page change no longer holds the page.
    if (!document.querySelector(".dh-table--full")) document.documentElement.classList.remove("dh-full-table");
    var games = {};
    controllers.forEach(function (c) {
      if (!c.root.isConnected && c.gameAt()) games[c.id] = c.gameAt();
    });
    controllers = controllers.filter(function (c) { return c.root.isConnected; });
    var roots = document.querySelectorAll("[data-dhumbal-table]");
    for (var i = 0; i < roots.length; i++) {
      if (!roots[i].__dhumbalTable) {
        roots[i].__dhumbalTable = new Table(roots[i], games[roots[i].id || "dh-table"]);
        controllers.push(roots[i].__dhumbalTable);
      }
    }
    // Material's "back to top" button stays away while a table is on screen.
    if (watcher) watcher.disconnect();
    if ("IntersectionObserver" in window && roots.length) {
      watcher = new IntersectionObserver(function (entries) {
        var seen = entries.some(function (e) { return e.isIntersecting; });
        document.documentElement.classList.toggle("dh-table-in-view", seen);
      });
      for (var j = 0; j < roots.length; j++) watcher.observe(roots[j]);
    }
    // An address made by "Play from here" opens that example's table again.
    var h = location.hash.replace(/^#/, "");
    if (h.indexOf(DOCK_KEY) === 0) {
      var button = document.querySelector('.dh-play-from[data-example="' + cssEscape(h.slice(DOCK_KEY.length)) + '"]');
      var table = pageTable();
      if (button && table && !table.dock) table.playFrom(button, true);
    }
  }

  // Material's instant navigation swaps a page's content in before it tells
  // the page's scripts (document$), so a reader can press Play on a table
  // that is not set up yet: it is set up now, before the press reaches it.
  function setUpOnDemand() {
    var roots = document.querySelectorAll("[data-dhumbal-table]");
    for (var i = 0; i < roots.length; i++) {
      if (!roots[i].__dhumbalTable) {
        setup();
        return;
      }
    }
  }

  document.addEventListener("click", function (ev) {
    if (!ev.target.closest) return;
    setUpOnDemand();
    var table = pageTable();
    var from = ev.target.closest(".dh-play-from");
    if (from && table) {
      ev.preventDefault();
      table.playFrom(from, false);
      return;
    }
    var cont = ev.target.closest("[data-dh-play-continue]");
    if (cont && table) {
      // "Continue your game" near the top: the reader's game, brought back on the table
      // (and, as below, out of Material's sight)
      ev.preventDefault();
      ev.stopPropagation();
      table.resume(true);
      return;
    }
    var link = ev.target.closest("[data-dh-play-profile]");
    if (link && table) {
      // The link jumps to the table by itself without this script. Here the
      // table is scrolled to, set and started instead; and Material's instant
      // navigation must not see the click: on a first same-page link it
      // fetches the page again and replaces the table being started.
      ev.preventDefault();
      ev.stopPropagation();
      table.open();
      return;
    }
    // The language menu takes the reader's game along to the other language.
    var lang = ev.target.closest("a.md-select__link[hreflang]");
    var hash = tableHash();
    if (lang && hash) {
      lang.href = lang.href.split("#")[0] + "#" + hash;
      var s = store("sessionStorage");
      try {
        if (s) s.setItem(CARRY_KEY, hash);
      } catch (e) { /* the game still goes along, only not scrolled into view */ }
    }
  }, true);

  window.addEventListener("hashchange", function () {
    var hash = tableHash();
    if (!hash) return;
    for (var i = 0; i < controllers.length; i++) {
      var c = controllers[i];
      if (!c.root.isConnected || hash === c.lastHash) continue;
      c.played = true;
      if (c.live) c.send(c.restoreRequest(hash));
      else c.intent("link");
      break;
    }
  });

  // Back and Forward between "Play from here" and the example are the table's
  // own; true when this step was one of them. dhumbal-history.js calls it
  // before Material's instant navigation sees the step (see there).
  function ownHistory() {
    var table = pageTable();
    if (!table) return false;
    if (table.fullHistory()) return true;
    if (table.dock && location.hash !== table.dock.hash) {
      table.undock(true);
      return true;
    }
    if (!table.dock && table.lastDock && location.hash === table.lastDock.hash &&
        table.lastDock.example.isConnected) {
      table.dockAt(table.lastDock.example, table.lastDock.button, false); // Forward: beside the example again
      return true;
    }
    return false;
  }

  T.ownHistory = ownHistory;
  if (!window.__dhumbalHistoryFirst) window.addEventListener("popstate", ownHistory); // a page without it

  window.DhumbalPage.each(setup);
})();
