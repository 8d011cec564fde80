/**
 * The reader's game in progress on this device (saved.ts keeps it): saved by
 * the reader's own moves, offered again ("Continue your game"), and asked
 * about before a fresh game takes its place.
 *
 * The saved game changes only by the reader's own moves in it. A move saves
 * the game on the table when that game is the saved one (continued, or
 * carried to another page or language), when the reader chose a fresh game
 * over it (New game, "Play these rules", a new match: each asks first, and
 * the saved game stays until the first move in the new one), or when there
 * is no game in progress to replace. So restoring someone's link, a damaged
 * link and its fresh deal, a worked example, a review's practice deal (never
 * kept) or a game dealt because the pointer rested on the table leave it as
 * it was. A move is saved when its answer arrives, with whether it ended the
 * match: a finished match is dropped then and there, never offered.
 *
 * The question before a fresh game (the engine drew it: dialog.dht-ask):
 * "Keep my game" continues the saved game on the table, "Start a new game"
 * starts the fresh one, Escape closes the question and changes nothing.
 * Owns the resume slice of the state.
 */

import { closest } from "../lib/dom";
import type { BoardAnswer } from "../protocol/messages";
import { offerResume } from "./offers";
import { openFull, reveal, small, undock } from "./place";
import { keepGame, keptLine, MAX_SAVED, type SavedGame, savedGame } from "./saved";
import type { Table } from "./table";

const MOVES: ReadonlySet<string> = new Set(["act", "next-deal", "sort"]);

/** The saved game, unless it is the game on this table now. */
export function savedElsewhere(t: Table): SavedGame | null {
  const game = savedGame();
  return game && game.hash !== t.state.resume.held ? game : null;
}

function save(result: BoardAnswer): void {
  if (result.hash.length > MAX_SAVED) return;
  const s = result.summary;
  keepGame({
    hash: result.hash,
    page: location.pathname,
    at: Date.now(),
    profile: s.profile,
    deal: s.deal,
    over: false,
  });
}

function keep(game: null): void {
  keepGame(game);
}

/** That game, restored on this table (from the page's top, `revealing`: the table comes into view). */
export function resume(t: Table, revealing: boolean): void {
  const game = savedGame();
  const r = t.state.resume;
  const core = t.state.core;
  if (!game) {
    offer(t);
    return;
  }
  if (t.state.place.dock) undock(t, false, true);
  r.resumeAsked = true;
  t.markPlayed();
  core.focusOnStart = true;
  if (revealing) reveal(t);
  else if (small()) openFull(t);
  if (core.live) {
    void t.send(t.restoreRequest(game.hash, true)).catch(() => {});
    return;
  }
  core.carried = game.hash;
  void t.intent("play");
}

/**
 * Start a fresh game with `start`, asking first when the reader has a game in
 * progress on this device (on this table or not): the fresh game takes its place
 * at its first move.
 */
export function startFresh(t: Table, start: () => void): void {
  if (!savedGame()) {
    start();
    return;
  }
  ask(t, () => {
    t.state.resume.fresh = true;
    start();
  });
}

function ask(t: Table, yes: () => void): void {
  const dialog = t.root.querySelector<HTMLDialogElement>("dialog.dht-ask");
  if (!dialog || typeof dialog.showModal !== "function") {
    yes(); // no dialogs in this browser: New game was pressed, and does what it says
    return;
  }
  t.state.resume.asking = { yes, from: document.activeElement };
  if (!dialog.open) dialog.showModal();
  dialog.querySelector<HTMLElement>('[data-dht-ask="keep"]')?.focus();
}

/** The question answered: a fresh game (`yes`), the saved game continued ("keep"), or nothing (Escape). */
function answerAsk(t: Table, yes: boolean, keep = false): void {
  const r = t.state.resume;
  const dialog = t.root.querySelector<HTMLDialogElement>("dialog.dht-ask");
  const asking = r.asking;
  r.asking = null;
  if (dialog?.open) dialog.close();
  if (!asking) return;
  if (yes) {
    asking.yes();
    return;
  }
  // "Keep my game": the saved game goes on, here and now, unless it is the game on the table already.
  if (keep && savedElsewhere(t)) {
    resume(t, false);
    return;
  }
  const from = asking.from as HTMLElement | null;
  if (from?.isConnected && from !== document.body && from.getClientRects().length) from.focus({ preventScroll: true });
}

/** The offers as this table's game stands. */
export function offer(t: Table): void {
  const core = t.state.core;
  offerResume(t.root, { live: core.live, carried: core.carried, held: t.state.resume.held });
}

export function attachResume(t: Table): void {
  const r = t.state.resume;
  offer(t);
  t.moments.on("answer", (result, payload) => {
    const op = payload.op;
    const summary = result.summary;
    if (!summary || typeof result.hash !== "string") return;
    r.held = result.hash;
    const game = savedGame();
    if (op === "restore" || op === "new" || op === "new-match" || op === "position") {
      // A game comes onto the table: is it the reader's saved game?
      const resumed = r.resumeAsked;
      r.resumeAsked = false;
      if (summary.practice) r.owns = false;
      else if (op === "restore") {
        r.owns = resumed || game?.hash === result.hash || (payload.own === true && keptLine().includes(result.hash));
      } else {
        r.owns = r.fresh; // chosen over the saved game; else it claims the place only if it is free
      }
      r.fresh = false;
      if (resumed && result.restored === false)
        keep(null); // a damaged saved game never comes back
      else if (resumed && game && result.hash !== game.hash && !summary.match_over) save(result);
      if (r.owns && summary.match_over) keep(null); // (an old finished match, continued)
      return;
    }
    if (!MOVES.has(op) || result.refusal) return;
    if (!r.owns) {
      // Not the saved game: a move claims the place only when no game is in progress
      // there (a practice deal never does), and sorting is not a move.
      if (summary.practice || op === "sort" || game) return;
      r.owns = true;
    }
    if (summary.match_over) keep(null);
    else save(result);
  });
  t.moments.on("shown", () => offer(t));
  t.root.addEventListener("click", (ev) => {
    const target = closest(ev, "[data-dht-continue], [data-dht-ask]");
    if (!target || !t.root.contains(target)) return;
    ev.stopPropagation();
    if (target.hasAttribute("data-dht-continue")) resume(t, false);
    else answerAsk(t, target.getAttribute("data-dht-ask") === "new", target.getAttribute("data-dht-ask") === "keep");
  });
  // Escape closes the question: nothing changes, the saved game stays offered.
  t.root.querySelector("dialog.dht-ask")?.addEventListener("cancel", (ev) => {
    ev.preventDefault();
    answerAsk(t, false);
  });
}
