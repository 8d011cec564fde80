/*
 * The mini table, the reader's hand: marking cards (a tap marks, a second tap
 * unmarks; the Throw control then shows the engine's verdict), one tab stop
 * for the hand with the arrows moving between cards. See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;

  Table.prototype.cards = function () {
    return this.board.querySelectorAll(".dht-card[aria-pressed]");
  };

  // One tab stop for the hand: the arrows move between the cards.
  Table.prototype.rove = function (card) {
    var cards = this.cards();
    for (var i = 0; i < cards.length; i++) cards[i].setAttribute("tabindex", cards[i] === card ? "0" : "-1");
  };

  Table.prototype.applyMarks = function () {
    var cards = this.cards();
    var present = {};
    for (var i = 0; i < cards.length; i++) present[cards[i].getAttribute("data-card")] = cards[i];
    this.marks = this.marks.filter(function (code) { return present[code]; });
    for (var j = 0; j < this.marks.length; j++) present[this.marks[j]].setAttribute("aria-pressed", "true");
    this.updateThrow();
  };

  Table.prototype.toggle = function (card) {
    var code = card.getAttribute("data-card");
    var at = this.marks.indexOf(code);
    if (at >= 0) {
      this.marks.splice(at, 1);
      card.setAttribute("aria-pressed", "false");
    } else {
      this.marks.push(code);
      card.setAttribute("aria-pressed", "true");
    }
    this.updateThrow();
  };

  // The Throw control says whether the marked cards may be thrown now, and why
  // not: the engine's verdict for every set of cards came with the view.

  Table.prototype.onKey = function (ev) {
    var card = ev.target.closest && ev.target.closest(".dht-card[aria-pressed]");
    if (!card) return;
    var cards = Array.prototype.slice.call(this.cards());
    var at = cards.indexOf(card);
    var to = -1;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") to = Math.min(cards.length - 1, at + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") to = Math.max(0, at - 1);
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = cards.length - 1;
    else if (ev.key === "Escape" && this.marks.length) {
      this.marks = [];
      for (var i = 0; i < cards.length; i++) cards[i].setAttribute("aria-pressed", "false");
      this.updateThrow();
      ev.preventDefault();
      return;
    }
    if (to >= 0) {
      this.rove(cards[to]);
      cards[to].focus();
      ev.preventDefault();
    }
  };

})();
