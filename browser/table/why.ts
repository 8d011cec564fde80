/**
 * The Hint's "Why?": the reasons and figures behind the Hint's one short line
 * (how often the plan is the throw, what the move gains, the call's odds), one
 * press away. The engine works them out from the reader's view alone and sends
 * them with the answer (`hint.why`, in the reader's language); the board it
 * draws has the "Why?" button and an empty box beside the status line while
 * the Hint shows. This part fills the box with the answer's sentences (as
 * text) and opens and closes it: the button, or Escape while it is open; the
 * box lies over the felt with its foot just above the reader's hand, so the
 * hand and the dock stay in view while it is read. It
 * stays open for the same Hint through another board (a sort) and closes with
 * a new Hint or none. Owns the dock's `why` slice of the state.
 */

import { closest } from "../lib/dom";
import type { BoardAnswer } from "../protocol/messages";
import type { Table } from "./table";

function show(t: Table): void {
  const why = t.state.dock.why;
  const button = t.board.querySelector<HTMLElement>("[data-dht-why]");
  const box = t.board.querySelector<HTMLElement>(".dht-whybox");
  if (!button || !box) return;
  if (box.childElementCount !== why.reasons.length) {
    box.replaceChildren(
      ...why.reasons.map((text) => {
        const p = document.createElement("p");
        p.textContent = text;
        return p;
      }),
    );
  }
  box.hidden = !why.open;
  button.setAttribute("aria-expanded", why.open ? "true" : "false");
  if (why.open) lift(t, box);
}

/** The box lies over the felt, its foot just above the reader's hand: the hand stays in view. */
function lift(t: Table, box: HTMLElement): void {
  const head = box.parentElement;
  const hand = t.board.querySelector<HTMLElement>(".dht-hand");
  const felt = t.board.querySelector<HTMLElement>(".dht-felt");
  if (!head || !hand || !felt) return;
  const handTop = hand.getBoundingClientRect().top;
  const gap = 6;
  const room = handTop - Math.max(felt.getBoundingClientRect().top, 0) - 2 * gap;
  box.style.setProperty("--dht-why-lift", `${Math.max(0, head.getBoundingClientRect().top - handTop) + gap}px`);
  box.style.setProperty("--dht-why-room", `${Math.max(96, Math.floor(room))}px`);
}

function heard(t: Table, answer: BoardAnswer): void {
  const why = t.state.dock.why;
  const hint = answer.hint;
  if (!hint || hint.line !== why.line) why.open = false;
  why.line = hint ? hint.line : "";
  why.reasons = hint ? hint.why : [];
}

export function attachWhy(t: Table): void {
  t.moments.on("answer", (answer) => heard(t, answer));
  t.moments.on("board", () => show(t));
  window.addEventListener("resize", () => {
    if (t.state.dock.why.open) show(t);
  });
  t.root.addEventListener("click", (ev) => {
    if (!closest(ev, "[data-dht-why]")) return;
    const why = t.state.dock.why;
    why.open = !why.open && why.reasons.length > 0;
    show(t);
  });
  // Escape puts the box away first (not the full table: place.ts leaves a handled key alone).
  t.root.addEventListener(
    "keydown",
    (ev) => {
      const why = t.state.dock.why;
      if (ev.key !== "Escape" || !why.open || ev.defaultPrevented) return;
      ev.preventDefault();
      why.open = false;
      show(t);
      t.board.querySelector<HTMLElement>("[data-dht-why]")?.focus({ preventScroll: true });
    },
    true,
  );
}
