/**
 * The summary of a deal's end and the log of the deal. The strip of scores
 * keeps the reader's folded or unfolded choice through the answers of the
 * same deal; the dock's Details opens the details of the scores (over the
 * whole board in the full table) and their Close or Escape shuts them, as
 * the review's Close does the review. The log keeps the reader's open or
 * closed choice and its newest line in sight; the bots' moves are added to
 * it as they are shown. Owns the summary's slice of the state.
 */

import { closest, reducedMotion } from "../lib/dom";
import type { Table } from "./table";

/** The log is open on the page unless the reader closed it; in the full table (over the felt), closed unless opened. */
function keepLog(t: Table): void {
  const log = t.board.querySelector<HTMLDetailsElement>(".dht-log");
  if (!log) return;
  const s = t.state.summary;
  const open = t.state.place.full ? s.logOpenFull : s.logOpen;
  if (log.open !== open) {
    s.logSet = log; // its toggle event is this script's, not the reader's
    log.open = open;
  }
  logToEnd(t);
}

/** The newest line in sight, at the next frame (no layout forced in between). */
function logToEnd(t: Table): void {
  const list = t.board.querySelector(".dht-log__list");
  if (list) requestAnimationFrame(() => (list.scrollTop = 1e9));
}

export function appendLog(t: Table, lines: string[]): void {
  const list = t.board.querySelector(".dht-log__list");
  if (!list) return;
  for (const line of lines) {
    const li = document.createElement("li");
    li.textContent = line;
    list.appendChild(li);
  }
  logToEnd(t);
}

/** The details of the scores, opened (the focus on their title) or shut (back on Details). */
function showDetails(t: Table, open: boolean): void {
  const panel = t.board.querySelector<HTMLElement>(".dht-details");
  const button = t.board.querySelector<HTMLElement>("[data-dht-details]");
  if (!panel) return;
  if (open) t.board.querySelector(".dht-summary > .dht-review")?.remove(); // one of the two over the board at a time
  panel.hidden = !open;
  button?.setAttribute("aria-expanded", open ? "true" : "false");
  if (open) {
    const title = panel.querySelector<HTMLElement>(".dht-panel__title");
    if (title) {
      title.focus({ preventScroll: true });
      if (!t.state.place.full) panel.scrollIntoView({ block: "nearest" });
    }
  } else {
    button?.focus({ preventScroll: true });
  }
}

function closeReview(t: Table): void {
  t.board.querySelector(".dht-summary > .dht-review")?.remove();
  t.board.querySelector<HTMLElement>(".dht-review-btn")?.focus({ preventScroll: true });
}

/**
 * A deal that has just ended: its summary comes into sight on the page (the full
 * table shows it over the felt). The page moves no more than it must: the summary's
 * foot just above the dock, its head never under the site's header, so the felt and
 * the hand stay in sight as far as the screen allows.
 */
function bringSummary(t: Table, over: boolean, was: boolean, op: string): void {
  const dock = t.board.querySelector(".dht-dock");
  const header = document.querySelector(".md-header");
  const top = (header ? header.getBoundingClientRect().bottom : 0) + 8;
  const bottom = innerHeight - (dock ? dock.getBoundingClientRect().height : 0) - 8;
  let by = 0;
  if (over && !was && op === "act") {
    const summary = t.board.querySelector(".dht-summary");
    if (!summary) return;
    const r = summary.getBoundingClientRect();
    by = r.bottom > bottom ? Math.min(r.bottom - bottom, r.top - top) : r.top < top ? r.top - top : 0;
    // A summary too tall to show whole beside the hand: the hand stays in sight, under
    // the header, as long as every seat's line of the deal's scores still is.
    const hand = t.board.querySelector(".dht-me");
    const seats = summary.querySelectorAll("tr.dht-score__seat");
    const lastSeat = seats[seats.length - 1];
    if (by > 0 && hand && lastSeat) {
      const keep = Math.max(0, hand.getBoundingClientRect().top - top);
      if (keep < by && lastSeat.getBoundingClientRect().bottom - keep <= bottom) by = keep;
    }
  } else if (!over && was) {
    // The next deal: the board comes back down, as far as keeps the hand above the dock.
    const me = t.board.querySelector(".dht-me");
    if (!me) return;
    const m = me.getBoundingClientRect();
    if (m.top >= top && m.bottom <= bottom) return;
    window.scrollBy({ top: Math.max(t.board.getBoundingClientRect().top - top, m.bottom - bottom), behavior: "auto" });
    return;
  }
  if (Math.abs(by) < 1) return;
  window.scrollBy({ top: by, behavior: reducedMotion() ? "auto" : "smooth" });
}

export function attachSummary(t: Table): void {
  const root = t.root;
  const s = t.state.summary;
  root.addEventListener(
    "toggle",
    (ev) => {
      const target = ev.target as HTMLDetailsElement;
      if (target.matches?.(".dht-log")) {
        if (target === s.logSet) s.logSet = null;
        else if (t.state.place.full) s.logOpenFull = target.open;
        else s.logOpen = target.open;
      } else if (target.matches?.("[data-dht-fold]")) {
        s.stripFolded = !target.open;
      }
    },
    true,
  );
  t.moments.on("full", () => keepLog(t));
  t.moments.on("board", () => {
    keepLog(t);
    // The strip as the reader left it while the deal's end is shown (the next deal's is unfolded).
    const fold = t.board.querySelector<HTMLDetailsElement>("[data-dht-fold]");
    if (!fold) s.stripFolded = false;
    else if (s.stripFolded) fold.open = false;
  });
  root.addEventListener("click", (ev) => {
    const target = closest(ev, "button");
    if (!target || !t.board.contains(target)) return;
    if (target.hasAttribute("data-dht-details")) showDetails(t, target.getAttribute("aria-expanded") !== "true");
    else if (target.hasAttribute("data-dht-panel-close")) showDetails(t, false);
    else if (target.hasAttribute("data-dht-review-close")) closeReview(t);
  });
  // Escape shuts what lies over the board first (before it closes the full table).
  root.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || ev.defaultPrevented) return;
    const details = t.board.querySelector(".dht-details:not([hidden])");
    const review = t.board.querySelector(".dht-summary > .dht-review");
    if (review) closeReview(t);
    else if (details) showDetails(t, false);
    else return;
    ev.preventDefault();
  });
  t.moments.on("shown", (result, payload) => {
    const over = !!result.summary?.is_over;
    const was = s.summaryShown;
    s.summaryShown = over;
    if (t.state.place.full || !payload) return;
    bringSummary(t, over, was, payload.op);
  });
}
