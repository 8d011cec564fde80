/**
 * Cards that move: after a move the cards glide from where they were to where
 * the engine's new picture has them. A card taken from the stock or the pile
 * flies into the hand (for a bot, a card back onto its seat), a throw flies
 * from the hand or the seat onto the pile, a sorted hand slides into its new
 * order. Nothing here decides anything: the new board is on the page already,
 * and the cards are found in the pictures before and after by their codes
 * (data-card), the seats' counts and what the engine says a bot's move did
 * (data-move, data-took). Web Animations on transforms only (no layout), none
 * under reduced motion, finished at once when the next move comes.
 */

import { reducedMotion } from "../lib/dom";
import type { Table } from "./table";

const PLACED = ".dht-me [data-card], .dht-lastthrow [data-card], .dht-pending [data-card]";
const EASE = "cubic-bezier(0.2, 0.7, 0.3, 1)";
const FLIGHT = "dht-flight";

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The board's picture: where each card shown face up is, the stock, and each seat. */
export interface Picture {
  cards: Record<string, Box>;
  pile: string[];
  stock: Box | null;
  seats: Record<string, { count: number; box: Box }>;
}

function still(): boolean {
  return reducedMotion() || typeof Element.prototype.animate !== "function";
}

function box(el: Element): Box {
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

export function picture(t: Table): Picture {
  const board = t.board;
  const shot: Picture = { cards: {}, pile: [], stock: null, seats: {} };
  for (const el of board.querySelectorAll(PLACED)) {
    const code = el.getAttribute("data-card") || "";
    if (!shot.cards[code]) shot.cards[code] = box(el);
    if (el.closest(".dht-lastthrow")) shot.pile.push(code);
  }
  // A card thrown by dragging flies from where it was let go (hand.ts kept it).
  Object.assign(shot.cards, t.state.hand.dropped || {});
  const stock = board.querySelector(".dht-stack");
  if (stock) shot.stock = box(stock);
  for (const seat of board.querySelectorAll(".dht-seats > [data-seat]")) {
    const where = seat.querySelector(".dht-seat__cards") || seat;
    shot.seats[seat.getAttribute("data-seat") || ""] = {
      count: +(seat.getAttribute("data-count") || 0),
      box: box(where),
    };
  }
  return shot;
}

/** Move `el` from `from` (a box in the viewport) to where it now is. */
function fly(el: Element, from: Box | null | undefined, ms: number): void {
  const to = box(el);
  if (!to.width || !from?.width) return;
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 3 && Math.abs(dy) < 3) return;
  const sx = from.width / to.width;
  const sy = from.height / to.height;
  // Above its neighbours on the way (z-index in the keyframes: the markup stays as drawn).
  const run = el.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, transformOrigin: "0 0", zIndex: 6 },
      { transform: "none", transformOrigin: "0 0", zIndex: 6 },
    ],
    { duration: ms, easing: EASE },
  );
  run.id = FLIGHT;
}

/** After a board or felt is drawn: its cards come from where `before` had them. */
export function animate(before: Picture | null, scope: Element, ms: number): void {
  if (!before || still() || !ms) return;
  const stock = before.stock;
  let arrived: Element[] = []; // cards on the pile now that were nowhere in sight before
  for (const el of scope.querySelectorAll(PLACED)) {
    const from = before.cards[el.getAttribute("data-card") || ""];
    const inHand = !!el.closest(".dht-me");
    if (from) fly(el, from, ms);
    else if (inHand && stock)
      fly(el, stock, ms); // drawn blind from the stock
    else if (!inHand) arrived.push(el);
  }
  // The other seats: a card taken (a back lands on the seat), cards thrown (they leave it).
  for (const seat of scope.querySelectorAll(".dht-seats > [data-seat]")) {
    const was = before.seats[seat.getAttribute("data-seat") || ""];
    if (!was) continue;
    const count = +(seat.getAttribute("data-count") || 0);
    if (count > was.count) {
      const backs = seat.querySelectorAll(".dht-seat__backs > .dhc");
      const landing = backs[backs.length - 1];
      // From the pile (the seat says which card it took), else from the stock.
      const took = seat.getAttribute("data-took");
      const source =
        seat.getAttribute("data-move") === "pile" && took && before.cards[took] ? before.cards[took] : stock;
      if (landing) fly(landing, source, ms);
    } else if (count < was.count) {
      for (const card of arrived) fly(card, was.box, ms);
      arrived = [];
    }
  }
}

/** Every card still moving lands at once (the next move is coming). */
export function settle(t: Table): void {
  if (typeof t.board.getAnimations !== "function") return;
  for (const run of t.board.getAnimations({ subtree: true })) if (run.id === FLIGHT) run.finish();
}

export function attachMotion(t: Table): void {
  // The reader's own move (and a sort): the whole board was drawn again.
  t.moments.on("board", (before) => {
    if (before) animate(before, t.board, 300);
  });
}
