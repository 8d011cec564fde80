/*
 * The mini table, the reader's game in progress on this device: kept in the
 * browser's local storage (nothing leaves the browser) as the link that
 * restores it (#table=), and offered again on any page, "Continue your game"
 * first: beside New game on the table's loader (both drawn by the engine's
 * renderer), and near the top of a rules page before "Play these rules"
 * (drawn by the site's build, shown from here). See dhumbal-table-core.js.
 *
 * The saved game changes only by the reader's own moves in it. A move saves
 * the game on the table when that game is the saved one (continued, or
 * carried to another page or language), when the reader chose a fresh game
 * over it (New game, "Play these rules", a new match: each asks first, and
 * the saved game stays until the first move in the new one), or when there is
 * no game in progress to replace. So restoring someone's link, a damaged link
 * and its fresh deal, a worked example, a review's practice deal (never kept)
 * or a game dealt because the pointer rested on the table leave it as it was.
 * The move is saved when its answer arrives, with whether it ended the match:
 * a finished match is dropped then and there, never offered.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;
  var KEY = "dhumbal:last-game";
  var LINE_KEY = "dhumbal:kept-line"; // this tab's saved positions: Back within the game is still the game
  var MAX = 20000; // a link longer than this is not kept (the engine reads less)
  var MOVES = { act: true, "next-deal": true, sort: true };

  function saved() {
    var s = T.store("localStorage");
    var game = null;
    try {
      game = s && JSON.parse(s.getItem(KEY) || "null");
    } catch (e) { game = null; }
    if (!game || typeof game.hash !== "string" || game.hash.indexOf(T.HASH_KEY) !== 0 || game.hash.length > MAX) return null;
    if (game.over === true) return null; // (never written so; a finished match is not offered)
    return game;
  }

  function keep(game) {
    var s = T.store("localStorage");
    try {
      if (!s) return;
      if (game) s.setItem(KEY, JSON.stringify(game));
      else s.removeItem(KEY);
    } catch (e) { /* full or disabled: the game stays in the address */ }
    if (game) remember(game.hash);
    offerAll();
  }

  function line() {
    var s = T.store("sessionStorage");
    try {
      var list = s && JSON.parse(s.getItem(LINE_KEY) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];
    }
  }

  function remember(hash) {
    var s = T.store("sessionStorage");
    if (!s) return;
    var list = line().filter(function (h) { return h !== hash; });
    list.push(hash);
    try {
      s.setItem(LINE_KEY, JSON.stringify(list.slice(-200)));
    } catch (e) { /* only Back within the saved game is then a game of its own */ }
  }

  T.lastGame = saved;

  // The saved game, unless it is the game on this table now (`held`: the link
  // of the engine's last answer, set as it arrives, before the page shows it).
  Table.prototype.savedElsewhere = function () {
    var game = saved();
    return game && game.hash !== this.held ? game : null;
  };

  // -- what the reader's moves do -------------------------------------------------

  T.on("answer", function (table, result, payload) {
    var op = payload && payload.op;
    var summary = result.summary;
    if (!op || !summary || typeof result.hash !== "string") return;
    table.held = result.hash;
    var game = saved();
    if (op === "restore" || op === "new" || op === "new-match" || op === "position") {
      // A game comes onto the table: is it the reader's saved game?
      var resumed = table.resumeAsked;
      table.resumeAsked = false;
      if (summary.practice) {
        table.owns = false;
      } else if (op === "restore") {
        table.owns = !!resumed || !!(game && game.hash === result.hash) ||
          (payload.own === true && line().indexOf(result.hash) >= 0);
      } else {
        table.owns = !!table.fresh; // chosen over the saved game; else it claims the place only if it is free
      }
      table.fresh = false;
      if (resumed && result.restored === false) keep(null); // a damaged saved game never comes back
      else if (resumed && game && result.hash !== game.hash && !summary.match_over) save(result);
      if (table.owns && summary.match_over) keep(null); // (an old finished match, continued)
      return;
    }
    if (!MOVES[op] || result.refusal) return;
    if (!table.owns) {
      // Not the saved game: a move claims the place only when no game is in progress
      // there (a practice deal never does), and sorting is not a move.
      if (summary.practice || op === "sort" || game) return;
      table.owns = true;
    }
    if (summary.match_over) keep(null);
    else save(result);
  });

  function save(result) {
    if (result.hash.length > MAX) return;
    var s = result.summary;
    keep({ hash: result.hash, page: location.pathname, at: Date.now(), profile: s.profile, deal: s.deal, over: false });
  }

  // -- Continue your game -------------------------------------------------------------

  // That game, restored on this table (from the page's top, `reveal`: the table comes into view).
  Table.prototype.resume = function (reveal) {
    var game = saved();
    if (!game) {
      offerAll();
      return;
    }
    if (this.dock) this.undock(false, true);
    this.resumeAsked = true;
    this.resuming = true; // the reader's own game: no "shared game" notice
    this.played = true;
    this.focusOnStart = true;
    if (reveal) this.reveal();
    else if (T.small()) this.openFull();
    if (this.live) {
      this.send(this.restoreRequest(game.hash));
      return;
    }
    this.carried = game.hash;
    this.intent("play");
  };

  // Start a fresh game with `start` (a function), asking first when the reader
  // has a game in progress on this device (on this table or not): the fresh
  // game takes its place at its first move.
  Table.prototype.startFresh = function (start) {
    var self = this;
    if (!saved()) {
      start();
      return;
    }
    this.ask(function () {
      self.fresh = true;
      start();
    });
  };

  // The question before a fresh game (the engine drew it: dialog.dht-ask).
  Table.prototype.ask = function (yes) {
    var dialog = this.root.querySelector("dialog.dht-ask");
    if (!dialog || typeof dialog.showModal !== "function") {
      yes(); // no dialogs in this browser: New game was pressed, and does what it says
      return;
    }
    this.asking = { yes: yes, from: document.activeElement };
    if (!dialog.open) dialog.showModal();
    var keepButton = dialog.querySelector('[data-dht-ask="keep"]');
    if (keepButton) keepButton.focus();
  };

  Table.prototype.answerAsk = function (yes) {
    var dialog = this.root.querySelector("dialog.dht-ask");
    var asking = this.asking;
    this.asking = null;
    if (dialog && dialog.open) dialog.close();
    if (!asking) return;
    if (yes) {
      asking.yes();
      return;
    }
    // Kept: the focus goes back to what asked (Continue your game is beside it).
    var from = asking.from;
    if (from && from.isConnected && from !== document.body && from.getClientRects().length) {
      from.focus({ preventScroll: true });
    }
  };

  // The loader offers the saved game while the table waits for Play; the
  // page's top offers it whenever it is not the game on the table.
  Table.prototype.offerResume = function () {
    var button = this.root.querySelector("[data-dht-continue]");
    var play = this.root.querySelector("[data-dht-play]");
    var game = !this.live && !T.tableHash() && !this.carried && !this.root.hasAttribute("data-position-state") ? saved() : null;
    if (button) button.hidden = !game;
    if (play) {
      var label = game ? play.getAttribute("data-label-new") : play.getAttribute("data-label-play");
      if (label) play.textContent = label;
      // Continue is the primary choice; New game a quieter one beside it.
      play.classList.toggle("dht-btn--primary", !game);
    }
    this.root.toggleAttribute("data-resumable", !!game);
    offerTop(this);
  };

  function offerTop(table) {
    var top = document.querySelector("[data-dh-play-continue]");
    if (!top) return;
    var elsewhere = !!table.savedElsewhere() && !table.root.hasAttribute("data-position-state");
    top.hidden = !elsewhere;
    var play = document.querySelector("[data-dh-play-profile]");
    if (play) play.classList.toggle("md-button--primary", !elsewhere);
  }

  function offerAll() {
    var roots = document.querySelectorAll("[data-dhumbal-table]");
    for (var i = 0; i < roots.length; i++) {
      if (roots[i].__dhumbalTable) roots[i].__dhumbalTable.offerResume();
    }
  }
  T.offerResume = offerAll;

  T.on("bind", function (table) {
    var play = table.root.querySelector("[data-dht-play]");
    if (play && !play.hasAttribute("data-label-play")) play.setAttribute("data-label-play", play.textContent);
    table.offerResume();
    table.root.addEventListener("click", function (ev) {
      var target = ev.target.closest && ev.target.closest("[data-dht-continue], [data-dht-ask]");
      if (!target || !table.root.contains(target)) return;
      ev.stopPropagation();
      if (target.hasAttribute("data-dht-continue")) table.resume(false);
      else table.answerAsk(target.getAttribute("data-dht-ask") === "new");
    });
    var dialog = table.root.querySelector("dialog.dht-ask");
    if (dialog) {
      // Escape keeps the game, as "Keep my game" does.
      dialog.addEventListener("cancel", function (ev) {
        ev.preventDefault();
        table.answerAsk(false);
      });
    }
  });

  // Each answer: whether the saved game is the one on the table now.
  T.on("shown", function (table) {
    table.offerResume();
  });

  // Another tab kept or dropped a game: the offers follow.
  window.addEventListener("storage", function (ev) {
    if (ev.key === KEY || ev.key === null) offerAll();
  });
})();
