/*
 * The mini table, the last game played on this device: kept in the browser's
 * local storage (nothing leaves the browser) from the reader's first move
 * on, as the link that restores it (#table=), and offered when the reader
 * comes back to any page of the site without a game in its address: the
 * loader then shows "Continue your game" beside "New game" (both drawn by
 * the engine's renderer, the first hidden until there is a game to continue).
 * A match that is over is not kept. See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;
  var KEY = "dhumbal:last-game";
  var MAX = 20000; // a link longer than this is not kept (the engine reads less)

  function saved() {
    var s = T.store("localStorage");
    var game = null;
    try {
      game = s && JSON.parse(s.getItem(KEY) || "null");
    } catch (e) { game = null; }
    if (!game || typeof game.hash !== "string" || game.hash.indexOf(T.HASH_KEY) !== 0 || game.hash.length > MAX) return null;
    return game;
  }

  function keep(game) {
    var s = T.store("localStorage");
    try {
      if (!s) return;
      if (game) s.setItem(KEY, JSON.stringify(game));
      else s.removeItem(KEY);
    } catch (e) { /* full or disabled: the game stays in the address */ }
  }
  T.lastGame = saved;

  // "Continue your game": that game, restored on this table.
  Table.prototype.resume = function () {
    var game = saved();
    if (!game) return;
    this.carried = game.hash;
    this.resuming = true; // the reader's own game: no "shared game" notice
    this.played = true;
    this.focusOnStart = true;
    if (T.small()) this.openFull();
    this.intent("play");
  };

  // The loader offers the last game while the table waits for Play.
  Table.prototype.offerResume = function () {
    var button = this.root.querySelector("[data-dht-continue]");
    var play = this.root.querySelector("[data-dht-play]");
    if (!button) return;
    var game = !this.live && !T.tableHash() && !this.carried && !this.root.hasAttribute("data-position-state") ? saved() : null;
    button.hidden = !game;
    if (play) {
      var label = game ? play.getAttribute("data-label-new") : play.getAttribute("data-label-play");
      if (label) play.textContent = label;
    }
    this.root.toggleAttribute("data-resumable", !!game);
  };

  T.on("bind", function (table) {
    var play = table.root.querySelector("[data-dht-play]");
    if (play && !play.hasAttribute("data-label-play")) play.setAttribute("data-label-play", play.textContent);
    table.offerResume();
    table.root.addEventListener("click", function (ev) {
      var button = ev.target.closest && ev.target.closest("[data-dht-continue]");
      if (!button || !table.root.contains(button)) return;
      ev.stopPropagation();
      table.resume();
    });
  });

  // Every move is kept at once (with the address).
  T.on("hash", function (table, hash) {
    if (hash.length <= MAX) keep({ hash: hash, page: location.pathname, at: Date.now() });
  });

  // A finished match is not offered again.
  T.on("shown", function (table, result) {
    if (!result || !result.summary || !result.summary.match_over) return;
    var game = saved();
    if (game && (game.hash === table.lastHash || !table.lastHash)) keep(null);
    else if (game && result.hash === game.hash) keep(null);
    table.offerResume();
  });
})();
