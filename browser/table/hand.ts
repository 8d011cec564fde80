/**
 * The reader's hand: marking cards (a tap marks, a second tap unmarks; the
 * Throw control then shows the engine's verdict), one tab stop for the hand
 * with the arrows moving between cards, and dragging a card onto the pile to
 * throw it (pointer events: mouse, touch and pen). A card dragged with
 * nothing marked goes on its own; a marked card dragged takes the marked
 * cards with it; an unmarked card dragged while others are marked goes on
 * its own (what is dragged is what is thrown). The engine judges the throw
 * as for the Throw button. Owns the hand's slice of the state.
 */

import { closest } from "../lib/dom";
import { updateThrow } from "./dock";
import type { Box } from "./motion";
import type { Table } from "./table";

const DRAG_PX = 8; // a press that moves less is a tap
const REACH_PX = 20; // the pile's drop area reaches this far around it

export type DropBox = Box;

export interface Dragging {
  card: HTMLElement;
  id: number;
  x0: number;
  y0: number;
  codes: string[];
  started: boolean;
  over: boolean;
  ghost?: HTMLElement;
  dx?: number;
  dy?: number;
}

export function cards(t: Table): HTMLElement[] {
  return Array.from(t.board.querySelectorAll<HTMLElement>(".dht-card[aria-pressed]"));
}

/** One tab stop for the hand: the arrows move between the cards. */
export function rove(t: Table, card: Element): void {
  for (const c of cards(t)) c.setAttribute("tabindex", c === card ? "0" : "-1");
}

/** The marks, again, on a board drawn anew (a mark whose card has gone goes). */
function applyMarks(t: Table): void {
  const present = new Map(cards(t).map((c) => [c.getAttribute("data-card") || "", c]));
  const hand = t.state.hand;
  hand.marks = hand.marks.filter((code) => present.has(code));
  for (const code of hand.marks) present.get(code)?.setAttribute("aria-pressed", "true");
  updateThrow(t);
}

export function toggle(t: Table, card: HTMLElement): void {
  const hand = t.state.hand;
  const code = card.getAttribute("data-card") || "";
  const at = hand.marks.indexOf(code);
  if (at >= 0) {
    hand.marks.splice(at, 1);
    card.setAttribute("aria-pressed", "false");
  } else {
    hand.marks.push(code);
    card.setAttribute("aria-pressed", "true");
  }
  updateThrow(t);
}

function onKey(t: Table, ev: KeyboardEvent): void {
  const card = closest(ev, ".dht-card[aria-pressed]");
  if (!card) return;
  const all = cards(t);
  const at = all.indexOf(card);
  let to = -1;
  if (ev.key === "ArrowRight" || ev.key === "ArrowDown") to = Math.min(all.length - 1, at + 1);
  else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") to = Math.max(0, at - 1);
  else if (ev.key === "Home") to = 0;
  else if (ev.key === "End") to = all.length - 1;
  else if (ev.key === "Escape" && t.state.hand.marks.length) {
    t.state.hand.marks = [];
    for (const c of all) c.setAttribute("aria-pressed", "false");
    updateThrow(t);
    ev.preventDefault();
    return;
  }
  const target = all[to];
  if (target) {
    rove(t, target);
    target.focus();
    ev.preventDefault();
  }
}

// -- dragging a card onto the pile ---------------------------------------------------

/** It is time to throw: the reader's turn, and Throw is the next step. */
function throwTime(t: Table): boolean {
  return (
    t.state.core.live &&
    !t.state.felt.playing &&
    !!t.board.querySelector('[data-action="throw"]:not(.dht-throw--later):not([disabled])')
  );
}

function overPile(t: Table, x: number, y: number): boolean {
  const pile = t.board.querySelector(".dht-pile");
  if (!pile) return false;
  const r = pile.getBoundingClientRect();
  return x >= r.left - REACH_PX && x <= r.right + REACH_PX && y >= r.top - REACH_PX && y <= r.bottom + REACH_PX;
}

/** The card that follows the finger: a picture of the dragged card, the other marked cards under it. */
function lift(t: Table, drag: Dragging): void {
  const card = drag.card;
  const r = card.getBoundingClientRect();
  const ghost = document.createElement("div");
  ghost.className = "dht-ghost";
  ghost.setAttribute("aria-hidden", "true");
  const faces = drag.codes.length > 1 ? Math.min(3, drag.codes.length) : 1;
  for (let i = faces - 1; i >= 0; i--) {
    const face = card.cloneNode(true) as HTMLElement;
    face.className = card.className.replace(/\bdht-card\b/, "dht-ghost__card");
    face.removeAttribute("aria-pressed");
    face.removeAttribute("data-key");
    face.removeAttribute("tabindex");
    face.style.fontSize = getComputedStyle(card).fontSize;
    face.style.width = `${r.width}px`;
    face.style.height = `${r.height}px`;
    if (i) face.style.transform = `translate(${-6 * i}px, ${4 * i}px) rotate(${-5 * i}deg)`;
    ghost.appendChild(face);
  }
  ghost.style.width = `${r.width}px`;
  ghost.style.height = `${r.height}px`;
  t.root.appendChild(ghost);
  drag.ghost = ghost;
  drag.dx = drag.x0 - r.left;
  drag.dy = drag.y0 - r.top;
  card.classList.add("dht-card--lifted");
  t.root.classList.add("dht-dragging");
}

function follow(t: Table, drag: Dragging, x: number, y: number): void {
  // The table root is the ghost's containing block (CSS containment): place it in the root's box.
  const base = t.root.getBoundingClientRect();
  const left = x - (drag.dx || 0) - base.left - t.root.clientLeft;
  const top = y - (drag.dy || 0) - base.top - t.root.clientTop;
  if (drag.ghost) drag.ghost.style.transform = `translate(${left}px, ${top}px) rotate(-4deg)`;
  const over = overPile(t, x, y);
  if (over !== drag.over) {
    drag.over = over;
    t.board.querySelector(".dht-pile")?.classList.toggle("dht-pile--over", over);
  }
}

function drop(t: Table, drag: Dragging, commit: boolean): void {
  const hand = t.state.hand;
  if (drag.ghost) {
    if (commit) {
      // The throw's cards fly on from where they were let go.
      const at = drag.ghost.getBoundingClientRect();
      hand.dropped = {
        [drag.codes[drag.codes.length - 1] || ""]: { left: at.left, top: at.top, width: at.width, height: at.height },
      };
    }
    drag.ghost.remove();
  }
  drag.card.classList.remove("dht-card--lifted");
  t.root.classList.remove("dht-dragging");
  t.board.querySelector(".dht-pile")?.classList.remove("dht-pile--over");
  hand.dragging = null;
  if (!commit) return;
  hand.marks = drag.codes.slice();
  for (const c of cards(t))
    c.setAttribute("aria-pressed", hand.marks.includes(c.getAttribute("data-card") || "") ? "true" : "false");
  updateThrow(t);
  t.markPlayed();
  void t.send({ op: "act", action: ["throw", ...hand.marks].join(" ") }).catch(() => {});
}

export function attachHand(t: Table): void {
  const root = t.root;
  const hand = t.state.hand;
  root.addEventListener("keydown", (ev) => onKey(t, ev));
  root.addEventListener("focusin", (ev) => {
    const card = closest(ev, ".dht-card[aria-pressed]");
    if (card) rove(t, card);
  });
  // A board drawn anew: the marks again, and a throw made (or anything but a mark's own answer) clears them.
  t.moments.on("answer", (result, payload) => {
    if (payload.op === "act" && /^throw\b/.test(String(payload.action)) && !result.refusal) hand.marks = [];
    if (payload.op !== "act" && payload.op !== "sort" && payload.op !== "hint") hand.marks = [];
  });
  t.moments.on("board", () => {
    hand.dropped = null;
    applyMarks(t);
  });
  root.addEventListener("pointerdown", (ev) => {
    if (hand.dragging || !ev.isPrimary || (ev.pointerType === "mouse" && ev.button !== 0)) return;
    const card = closest(ev, ".dht-card[aria-pressed]");
    if (!card || !t.board.contains(card) || !throwTime(t)) return;
    const code = card.getAttribute("data-card") || "";
    const marked = hand.marks.includes(code);
    // The marked group goes in its marked order (the last marked lands on top), ending with the dragged card.
    const codes = marked ? [...hand.marks.filter((c) => c !== code), code] : [code];
    hand.dragging = { card, id: ev.pointerId, x0: ev.clientX, y0: ev.clientY, codes, started: false, over: false };
  });
  root.addEventListener("pointermove", (ev) => {
    const drag = hand.dragging;
    if (!drag || ev.pointerId !== drag.id) return;
    if (!drag.started) {
      if (Math.abs(ev.clientX - drag.x0) + Math.abs(ev.clientY - drag.y0) < DRAG_PX) return;
      if (!throwTime(t)) {
        hand.dragging = null;
        return;
      }
      drag.started = true;
      try {
        drag.card.setPointerCapture(ev.pointerId);
      } catch {
        /* the move events still come to the root */
      }
      lift(t, drag);
    }
    ev.preventDefault();
    follow(t, drag, ev.clientX, ev.clientY);
  });
  const end = (ev: PointerEvent) => {
    const drag = hand.dragging;
    if (!drag || ev.pointerId !== drag.id) return;
    if (!drag.started) {
      hand.dragging = null;
      return;
    }
    // The click that follows a drag is not a tap on the card.
    hand.draggedAt = performance.now();
    drop(t, drag, ev.type === "pointerup" && overPile(t, ev.clientX, ev.clientY) && throwTime(t));
  };
  root.addEventListener("pointerup", end);
  root.addEventListener("pointercancel", end);
  root.addEventListener("lostpointercapture", (ev) => {
    const drag = hand.dragging;
    // (Not the implicit capture of a touch, which moves from the finger's first target to the card.)
    if (drag?.started && ev.pointerId === drag.id && ev.target === drag.card) {
      // Released outside the page or taken over by the browser: put it back.
      setTimeout(() => {
        if (hand.dragging === drag) drop(t, drag, false);
      }, 0);
    }
  });
  root.addEventListener(
    "click",
    (ev) => {
      if (hand.draggedAt && performance.now() - hand.draggedAt < 500 && closest(ev, ".dht-card[aria-pressed]")) {
        hand.draggedAt = 0;
        ev.stopPropagation();
        ev.preventDefault();
      }
    },
    true,
  );
}
