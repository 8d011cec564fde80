/**
 * The review of a finished deal: "Review your moves" asks the engine (op
 * "review") for the reader's moves beside the expert's choices; its
 * review_html (drawn and escaped by the engine, dhumbal/view/review.py) goes
 * into the summary, and this module shows one step at a time: the step
 * buttons, Previous and Next move between them, "Play from here" deals the
 * position before that move (op "position" with practice: one deal apart
 * from the reader's match, never kept as their game). Every figure and word
 * comes from the engine.
 *
 * "Play from here" is a step of the table's own history: the finished deal's
 * entry remembers the review step on screen (history.state.dhReview), the
 * practice gets an entry of its own (history.state.dhPracticeOf, the match's
 * link and step). Back brings the finished deal again and its review at that
 * step; Forward plays the position again. "Back to your match", at the
 * practice deal's end, is that Back (or, with no such entry behind, the same
 * match restored). Owns the review's slice of the state.
 */

import { closest } from "../lib/dom";
import { difficultyOf } from "../protocol/messages";
import { tableHash } from "./saved";
import type { Table } from "./table";

interface HistoryState {
  dhReview?: { hash: string; at: number };
  dhPracticeOf?: { hash: string; at: number };
  [key: string]: unknown;
}

function historyState(): HistoryState | null {
  const state: unknown = history.state;
  return state && typeof state === "object" ? (state as HistoryState) : null;
}

/** Show step n of the review (1-based), its button marked as the current one. */
function reviewStep(review: Element, n: number, focus: boolean): void {
  const panels = Array.from(review.querySelectorAll<HTMLElement>("[data-review-panel]"));
  if (!panels.length) return;
  const at = Math.max(1, Math.min(panels.length, n));
  review.setAttribute("data-review-at", String(at));
  panels.forEach((panel, i) => {
    panel.hidden = i !== at - 1;
  });
  const chips = Array.from(review.querySelectorAll<HTMLElement>("[data-review-step]"));
  chips.forEach((chip, j) => {
    if (j === at - 1) chip.setAttribute("aria-current", "step");
    else chip.removeAttribute("aria-current");
  });
  const chip = chips[at - 1];
  if (focus) chip?.focus({ preventScroll: true });
  chip?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
}

function isPractice(t: Table): boolean {
  return t.board.querySelector(".dht-play-area")?.getAttribute("data-practice") === "true";
}

/** "Play from here" leaves the finished deal in history: its entry keeps the link and the step; the position gets its own. */
function leaveReview(t: Table, at: number): void {
  const hash = t.state.core.lastHash;
  const r = t.state.review;
  // the match to go back to (a practice deal from a practice deal goes back to the same match)
  const from = r.practiceOf && isPractice(t) ? r.practiceOf : { hash, at };
  r.practiceOf = from;
  if (!hash || tableHash() !== hash) return; // the deal's link is not the address: no step to return to
  try {
    // both entries are the table's own steps: a full table open stays open between them (place.ts)
    const state: HistoryState = { ...historyState(), dhReview: { hash, at } };
    delete state.dhPracticeOf;
    history.replaceState(state, "");
    const next: HistoryState = { ...state, dhPracticeOf: from };
    delete next.dhReview;
    history.pushState(next, "", location.href);
  } catch {
    /* no history entry: the position is still played */
  }
}

/** "Back to your match": the step before the practice deal when it is right behind, else that match restored here. */
export function backToMatch(t: Table): void {
  const state = historyState();
  const r = t.state.review;
  const of = state?.dhPracticeOf || r.practiceOf;
  if (!of || typeof of.hash !== "string") return;
  if (state?.dhPracticeOf && state.dhPracticeOf.hash === of.hash) {
    try {
      history.back();
      return;
    } catch {
      /* restored below */
    }
  }
  r.practiceOf = null;
  r.againAt = of.at > 0 ? of.at : 0;
  void t.send(t.restoreRequest(of.hash, true)).catch(() => {});
}

export function attachReview(t: Table): void {
  const r = t.state.review;
  // The review's answer: on the summary, at the first step where the expert chose
  // otherwise (else the first), the focus on its title.
  t.moments.on("shown", (result, payload) => {
    if (payload?.op !== "review" || typeof result.review_html !== "string") return;
    const summary = t.board.querySelector(".dht-summary");
    if (!summary) return;
    summary.querySelector(".dht-review")?.remove();
    const holder = document.createElement("div");
    holder.innerHTML = result.review_html;
    const review = holder.firstElementChild;
    if (!review) return;
    const button = summary.querySelector(".dht-review-btn");
    if (button) button.after(review);
    else summary.appendChild(review);
    const first = review.querySelector(".dht-review__chip--differs") || review.querySelector("[data-review-step]");
    const at = r.againAt || (first ? Number.parseInt(first.getAttribute("data-review-step") || "1", 10) : 1);
    r.againAt = 0;
    reviewStep(review, at, false);
    const title = review.querySelector<HTMLElement>(".dht-review__title");
    if (title) {
      title.focus({ preventScroll: true });
      title.scrollIntoView({ block: "nearest" });
    }
  });
  // Back to a finished deal left by "Play from here": its review again, at the step it showed.
  t.moments.on("shown", (result, payload) => {
    if (payload?.op !== "restore" || !result.summary?.is_over) return;
    const state = historyState();
    let step = state && typeof state.dhReview === "object" && state.dhReview ? state.dhReview : null;
    if (r.againAt > 0) step = { hash: result.hash, at: r.againAt }; // "Back to your match"
    if (!step || step.hash !== result.hash || !(step.at > 0)) return;
    const button = t.board.querySelector(".dht-review-btn");
    if (!button) return;
    r.againAt = step.at;
    button.setAttribute("aria-busy", "true");
    t.send({ op: "review" }).then(null, () => {
      r.againAt = 0;
    });
  });
  // At the end of a practice deal, "Back to your match" only where a match is known.
  t.moments.on("board", () => {
    const button = t.board.querySelector<HTMLElement>("[data-dht-match]");
    if (button) button.hidden = !(historyState()?.dhPracticeOf || r.practiceOf);
  });
  t.root.addEventListener("click", (ev) => {
    const target = closest(ev, "button");
    const review = target?.closest(".dht-review");
    if (!target || !review || !t.root.contains(review)) return;
    const at = Number.parseInt(review.getAttribute("data-review-at") || "", 10) || 1;
    if (target.hasAttribute("data-review-step")) {
      reviewStep(review, Number.parseInt(target.getAttribute("data-review-step") || "", 10), false);
    } else if (target.hasAttribute("data-review-go")) {
      if (target.getAttribute("aria-disabled") === "true") return;
      reviewStep(review, at + Number.parseInt(target.getAttribute("data-review-go") || "0", 10), true);
    } else if (target.hasAttribute("data-review-play")) {
      if (!t.state.core.live || t.state.felt.playing) return;
      t.markPlayed();
      leaveReview(t, at);
      t.send({
        op: "position",
        state: target.getAttribute("data-state-json") || "",
        names: null,
        practice: true,
        difficulty: difficultyOf(target.getAttribute("data-difficulty")),
      }).then(
        () =>
          (
            t.board.querySelector<HTMLElement>(".dht-card[aria-pressed]") ||
            t.board.querySelector<HTMLElement>("[data-action]")
          )?.focus({ preventScroll: true }),
        () => {},
      );
    }
  });
  // Left and right arrows move between the step buttons, as in a toolbar.
  t.root.addEventListener("keydown", (ev) => {
    if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
    const chip = closest(ev, "[data-review-step]");
    const review = chip?.closest(".dht-review");
    if (!chip || !review) return;
    ev.preventDefault();
    reviewStep(
      review,
      Number.parseInt(chip.getAttribute("data-review-step") || "", 10) + (ev.key === "ArrowRight" ? 1 : -1),
      true,
    );
  });
  // While the review is worked out (a few seconds on a phone), its button says so.
  t.root.addEventListener(
    "click",
    (ev) => {
      const button = closest(ev, ".dht-review-btn");
      if (button && t.state.core.live && !t.state.felt.playing) button.setAttribute("aria-busy", "true");
    },
    true,
  );
}
