/*
 * The mini table, the reader's hand: marking cards (a tap marks, a second tap
 * unmarks; the Throw control then shows the engine's verdict), one tab stop
 * for the hand with the arrows moving between cards, and dragging a card
 * onto the pile to throw it (pointer events: mouse, touch and pen). A card
 * dragged with nothing marked goes on its own; a marked card dragged takes
 * the marked cards with it; an unmarked card dragged while others are
 * marked goes on its own (what is dragged is what is thrown). The engine
 * judges the throw as for the Throw button. See dhumbal-table-core.js.
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

  // -- dragging a card onto the pile ------------------------------------------------

  var DRAG_PX = 8; // a press that moves less is a tap
  var REACH_PX = 20; // the pile's drop area reaches this far around it

  // It is time to throw: the reader's turn, and Throw is the next step.
  Table.prototype.throwTime = function () {
    return this.live && !this.playing &&
      !!this.board.querySelector('[data-action="throw"]:not(.dht-throw--later):not([disabled])');
  };

  Table.prototype.dropTarget = function () {
    return this.board.querySelector(".dht-pile");
  };

  Table.prototype.overPile = function (x, y) {
    var pile = this.dropTarget();
    if (!pile) return false;
    var r = pile.getBoundingClientRect();
    return x >= r.left - REACH_PX && x <= r.right + REACH_PX && y >= r.top - REACH_PX && y <= r.bottom + REACH_PX;
  };

  // The card that follows the finger (or the pointer): a picture of the dragged
  // card, with the other marked cards under it when they go together.
  Table.prototype.lift = function (drag) {
    var card = drag.card;
    var r = card.getBoundingClientRect();
    var ghost = document.createElement("div");
    ghost.className = "dht-ghost";
    ghost.setAttribute("aria-hidden", "true");
    var faces = drag.codes.length > 1 ? Math.min(3, drag.codes.length) : 1;
    for (var i = faces - 1; i >= 0; i--) {
      var face = card.cloneNode(true);
      face.className = card.className.replace(/\bdht-card\b/, "dht-ghost__card");
      face.removeAttribute("aria-pressed");
      face.removeAttribute("data-key");
      face.removeAttribute("tabindex");
      face.style.fontSize = getComputedStyle(card).fontSize;
      face.style.width = r.width + "px";
      face.style.height = r.height + "px";
      if (i) face.style.transform = "translate(" + (-6 * i) + "px, " + (4 * i) + "px) rotate(" + (-5 * i) + "deg)";
      ghost.appendChild(face);
    }
    ghost.style.width = r.width + "px";
    ghost.style.height = r.height + "px";
    this.root.appendChild(ghost);
    drag.ghost = ghost;
    drag.dx = drag.x0 - r.left;
    drag.dy = drag.y0 - r.top;
    card.classList.add("dht-card--lifted");
    this.root.classList.add("dht-dragging");
  };

  Table.prototype.follow = function (drag, x, y) {
    // The table root is the ghost's containing block (CSS containment): place it in the root's box.
    var base = this.root.getBoundingClientRect();
    var left = x - drag.dx - base.left - this.root.clientLeft;
    var top = y - drag.dy - base.top - this.root.clientTop;
    drag.ghost.style.transform = "translate(" + left + "px, " + top + "px) rotate(-4deg)";
    var over = this.overPile(x, y);
    if (over !== drag.over) {
      drag.over = over;
      var pile = this.dropTarget();
      if (pile) pile.classList.toggle("dht-pile--over", over);
    }
  };

  Table.prototype.drop = function (drag, commit) {
    var card = drag.card;
    if (drag.ghost) {
      if (commit) {
        // The throw's cards fly on from where they were let go.
        var at = drag.ghost.getBoundingClientRect();
        this.dropped = {};
        this.dropped[drag.codes[drag.codes.length - 1]] = { left: at.left, top: at.top, width: at.width, height: at.height };
      }
      drag.ghost.remove();
    }
    card.classList.remove("dht-card--lifted");
    this.root.classList.remove("dht-dragging");
    var pile = this.dropTarget();
    if (pile) pile.classList.remove("dht-pile--over");
    this.dragging = null;
    if (!commit) return;
    this.marks = drag.codes.slice();
    var cards = this.cards();
    for (var i = 0; i < cards.length; i++) {
      cards[i].setAttribute("aria-pressed", this.marks.indexOf(cards[i].getAttribute("data-card")) >= 0 ? "true" : "false");
    }
    this.updateThrow();
    this.played = true;
    this.send({ op: "act", action: ["throw"].concat(this.marks).join(" ") });
  };

  T.on("bind", function (table) {
    var root = table.root;
    root.addEventListener("pointerdown", function (ev) {
      if (table.dragging || !ev.isPrimary || (ev.pointerType === "mouse" && ev.button !== 0)) return;
      var card = ev.target.closest && ev.target.closest(".dht-card[aria-pressed]");
      if (!card || !table.board.contains(card) || !table.throwTime()) return;
      var code = card.getAttribute("data-card");
      var marked = table.marks.indexOf(code) >= 0;
      // The marked group goes in its marked order (the last marked lands on top),
      // ending with the dragged card when it is one of them.
      var codes = marked ? table.marks.filter(function (c) { return c !== code; }).concat([code]) : [code];
      table.dragging = { card: card, id: ev.pointerId, x0: ev.clientX, y0: ev.clientY, codes: codes, started: false, over: false };
    });
    root.addEventListener("pointermove", function (ev) {
      var drag = table.dragging;
      if (!drag || ev.pointerId !== drag.id) return;
      if (!drag.started) {
        if (Math.abs(ev.clientX - drag.x0) + Math.abs(ev.clientY - drag.y0) < DRAG_PX) return;
        if (!table.throwTime()) {
          table.dragging = null;
          return;
        }
        drag.started = true;
        try { drag.card.setPointerCapture(ev.pointerId); } catch (e) { /* the move events still come to the root */ }
        table.lift(drag);
      }
      ev.preventDefault();
      table.follow(drag, ev.clientX, ev.clientY);
    });
    var end = function (ev) {
      var drag = table.dragging;
      if (!drag || ev.pointerId !== drag.id) return;
      if (!drag.started) {
        table.dragging = null;
        return;
      }
      // The click that follows a drag is not a tap on the card.
      table.draggedAt = performance.now();
      table.drop(drag, ev.type === "pointerup" && table.overPile(ev.clientX, ev.clientY) && table.throwTime());
    };
    root.addEventListener("pointerup", end);
    root.addEventListener("pointercancel", end);
    root.addEventListener("lostpointercapture", function (ev) {
      var drag = table.dragging;
      // (Not the implicit capture of a touch, which moves from the finger's first target to the card.)
      if (drag && drag.started && ev.pointerId === drag.id && ev.target === drag.card) {
        // Released outside the page or taken over by the browser: put it back.
        setTimeout(function () { if (table.dragging === drag) table.drop(drag, false); }, 0);
      }
    });
    root.addEventListener("click", function (ev) {
      if (table.draggedAt && performance.now() - table.draggedAt < 500 && ev.target.closest &&
          ev.target.closest(".dht-card[aria-pressed]")) {
        table.draggedAt = 0;
        ev.stopPropagation();
        ev.preventDefault();
      }
    }, true);
  });

})();
