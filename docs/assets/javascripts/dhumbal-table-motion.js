/*
 * The mini table, cards that move: after a move the cards glide from where
 * they were to where the engine's new picture has them. A card taken from
 * the stock or the pile flies into the hand (or, for a bot, a card back onto
 * its seat), a throw flies from the hand or the seat onto the pile, and a
 * sorted hand slides into its new order. Nothing here decides anything: the
 * new board is already on the page, and the cards are found in the picture
 * before and after by their codes (data-card), the seats' counts and what
 * the engine says a bot's move did (data-move, data-took).
 *
 * Web Animations on transforms only (no layout), off when the reader asks
 * for reduced motion (prefers-reduced-motion), and finished at once when the
 * next move comes. See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;

  var PLACED = ".dht-me [data-card], .dht-lastthrow [data-card], .dht-pending [data-card]";
  var EASE = "cubic-bezier(0.2, 0.7, 0.3, 1)";
  var FLIGHT = "dht-flight";
  var quiet = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function still() {
    return !!(quiet && quiet.matches) || typeof Element.prototype.animate !== "function";
  }

  function box(el) {
    var r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  }

  // The board's picture: where each card shown face up is, the stock, and each seat.
  Table.prototype.snapshot = function () {
    var board = this.board;
    var shot = { cards: {}, pile: [], stock: null, seats: {} };
    var placed = board.querySelectorAll(PLACED);
    for (var i = 0; i < placed.length; i++) {
      var code = placed[i].getAttribute("data-card");
      if (!shot.cards[code]) shot.cards[code] = box(placed[i]);
      if (placed[i].closest(".dht-lastthrow")) shot.pile.push(code);
    }
    // A card thrown by dragging flies from where it was let go.
    if (this.dropped) {
      for (var code2 in this.dropped) shot.cards[code2] = this.dropped[code2];
      this.dropped = null;
    }
    var stock = board.querySelector(".dht-stack");
    if (stock) shot.stock = box(stock);
    var seats = board.querySelectorAll(".dht-seats > [data-seat]");
    for (var j = 0; j < seats.length; j++) {
      var where = seats[j].querySelector(".dht-seat__cards") || seats[j];
      shot.seats[seats[j].getAttribute("data-seat")] = {
        count: +seats[j].getAttribute("data-count"),
        box: box(where)
      };
    }
    return shot;
  };

  // Move `el` from `from` (a box in the viewport) to where it now is.
  Table.prototype.fly = function (el, from, ms) {
    var to = box(el);
    if (!to.width || !from || !from.width) return;
    var dx = from.left - to.left;
    var dy = from.top - to.top;
    if (Math.abs(dx) < 3 && Math.abs(dy) < 3) return;
    var sx = from.width / to.width;
    var sy = from.height / to.height;
    // Above its neighbours on the way (z-index in the keyframes: the markup stays as drawn).
    var run = el.animate([
      { transform: "translate(" + dx + "px, " + dy + "px) scale(" + sx + ", " + sy + ")", transformOrigin: "0 0", zIndex: 6 },
      { transform: "none", transformOrigin: "0 0", zIndex: 6 }
    ], { duration: ms, easing: EASE });
    run.id = FLIGHT;
  };

  // After a board or felt is drawn: its cards come from where `before` had them.
  Table.prototype.animate = function (before, scope, ms) {
    if (!before || !scope || still() || !ms) return;
    var self = this;
    var stock = before.stock;
    var placed = scope.querySelectorAll(PLACED);
    var arrived = []; // cards on the pile now that were nowhere in sight before
    for (var k = 0; k < placed.length; k++) {
      var el = placed[k];
      var code = el.getAttribute("data-card");
      var from = before.cards[code];
      var inHand = !!el.closest(".dht-me");
      if (from) {
        this.fly(el, from, ms);
      } else if (inHand && stock) {
        this.fly(el, stock, ms); // drawn blind from the stock
      } else if (!inHand) {
        arrived.push(el);
      }
    }
    // The other seats: a card taken (a back lands on the seat), cards thrown (they leave it).
    var seats = scope.querySelectorAll(".dht-seats > [data-seat]");
    for (var j = 0; j < seats.length; j++) {
      var seat = seats[j];
      var was = before.seats[seat.getAttribute("data-seat")];
      if (!was) continue;
      var count = +seat.getAttribute("data-count");
      if (count > was.count) {
        var backs = seat.querySelectorAll(".dht-seat__backs > .dhc");
        var landing = backs[backs.length - 1];
        // From the pile (the seat says which card it took), else from the stock.
        var source = stock;
        var took = seat.getAttribute("data-took");
        if (seat.getAttribute("data-move") === "pile" && took && before.cards[took]) source = before.cards[took];
        if (landing) this.fly(landing, source, ms);
      } else if (count < was.count) {
        arrived.forEach(function (card) { self.fly(card, was.box, ms); });
        arrived = [];
      }
    }
  };

  // Every card still moving lands at once (the next move is coming).
  Table.prototype.settle = function () {
    if (typeof this.board.getAnimations !== "function") return;
    var running = this.board.getAnimations({ subtree: true });
    for (var i = 0; i < running.length; i++) {
      if (running[i].id === FLIGHT) running[i].finish();
    }
  };

  // The reader's own move (and a sort): the whole board was drawn again.
  T.on("board", function (table, before) {
    if (before) table.animate(before, table.board, 300);
  });
})();
