/**
 * The first-run guide: three short steps (tap marks, drag throws, call before
 * you take or throw: the step that matches the turn order of the rules on the
 * table, data-turn-order) shown the first time the table goes live in this
 * browser. It comes with the focus (Play puts the reader on its "Got it", so
 * that Enter or Escape reach it first) and lies over the other players' seats,
 * in the room the felt has above the stock and the pile (placeGuide), never
 * over them: the status line's first move stays possible, and puts it away. "Got it", Escape (which puts the
 * guide away, not the table) or the first move put it away, and this browser
 * remembers it then (local storage); where storage is refused it is put away
 * for the page all the same. The engine drew its words (dhumbal/view/guide.py).
 */

import { readText, write } from "../lib/storage";
import type { Table } from "./table";

export const GUIDE_KEY = "dhumbal:guide";
let seenHere = false; // this page's memory, where the browser's storage is refused

function seen(): boolean {
  return seenHere || !!readText("localStorage", GUIDE_KEY);
}

function remember(): void {
  seenHere = true;
  write("localStorage", GUIDE_KEY, "seen");
}

function guideOf(t: Table): HTMLElement | null {
  return t.root.querySelector<HTMLElement>("[data-dht-guide]");
}

/** Whether the guide is on screen now. */
export function guideOpen(t: Table): boolean {
  const guide = guideOf(t);
  return !!guide && !guide.hidden;
}

/** The guide's third step for the rules on the table. */
function guideOrder(t: Table): void {
  const guide = guideOf(t);
  const area = t.board.querySelector(".dht-play-area");
  if (!guide || !area) return;
  const order = area.getAttribute("data-turn-order") || "draw-first";
  for (const step of guide.querySelectorAll<HTMLElement>(".dht-guide__call [data-turn-order]")) {
    step.hidden = step.getAttribute("data-turn-order") !== order;
  }
}

/**
 * The guide's box: over the felt, from its top down to the stock and the pile
 * (never over them, the hand or the controls), as wide as the felt.
 */
function placeGuide(t: Table): void {
  const guide = guideOf(t);
  const felt = t.board.querySelector(".dht-felt");
  const center = t.board.querySelector(".dht-center");
  const holder = guide?.offsetParent;
  if (!guide || guide.hidden || !felt || !center || !holder) return;
  const base = holder.getBoundingClientRect();
  const f = felt.getBoundingClientRect();
  const c = center.getBoundingClientRect();
  const inset = 6;
  const top = f.top - base.top + holder.scrollTop + inset;
  const set = (name: string, px: number) => guide.style.setProperty(name, `${Math.round(px)}px`);
  set("--dht-guide-top", top);
  set("--dht-guide-left", f.left - base.left + inset);
  set("--dht-guide-width", f.width - 2 * inset);
  set("--dht-guide-room", Math.max(80, c.top - f.top - 2 * inset));
}

export function putGuideAway(t: Table, focus: boolean): void {
  const guide = guideOf(t);
  if (!guide || guide.hidden) return;
  const inside = guide.contains(document.activeElement);
  guide.hidden = true;
  t.root.removeAttribute("data-guide");
  remember();
  if (focus || inside) t.refocus("");
}

export function attachGuide(t: Table): void {
  // The first live board: the guide, unless this browser has seen it; the focus goes
  // into it when Play carried the focus to the table.
  t.moments.on("board", () => {
    const guide = guideOf(t);
    if (!guide) return;
    guideOrder(t);
    if (t.state.guide.shown || seen()) return;
    t.state.guide.shown = true;
    guide.hidden = false;
    t.root.setAttribute("data-guide", "open");
    placeGuide(t);
    if (t.state.core.focusOnStart || t.root.contains(document.activeElement)) {
      queueMicrotask(() => guide.querySelector<HTMLElement>("[data-dht-guide-done]")?.focus({ preventScroll: true }));
    }
  });
  // The felt's room changes with the screen and the full table.
  t.moments.on("full", () => placeGuide(t));
  window.addEventListener("resize", () => placeGuide(t));
  // The reader's first move: they are under way.
  t.moments.on("shown", (result, payload) => {
    if (payload?.op === "act" && result.ok) putGuideAway(t, false);
  });
  t.root.addEventListener("click", (ev) => {
    if ((ev.target as Element | null)?.closest?.("[data-dht-guide-done]")) putGuideAway(t, true);
  });
  // Escape while the guide is open puts the guide away (and only that), wherever the focus is in the table.
  t.root.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || ev.defaultPrevented || !guideOpen(t)) return;
    if ((ev.target as Element | null)?.closest?.("dialog")) return;
    ev.preventDefault();
    putGuideAway(t, true);
  });
}
