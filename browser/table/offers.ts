/**
 * "Continue your game", offered wherever the reader's saved game is not the
 * game on the table: on the table's loader, beside New game (both drawn by
 * the engine's renderer), while the table waits for Play; and near the top of
 * a rules page, before "Play these rules" (drawn by the site's build). Shown
 * before the table's code is loaded (every page's script), and again by the
 * table after each answer.
 */

import { savedGame, tableHash } from "./saved";

/** What an offer needs to know of a table's game (nothing yet, before its code is here). */
export interface TableGame {
  live: boolean;
  carried: string;
  /** The link of the engine's last answer: the game on the table now. */
  held: string;
}

const IDLE: TableGame = { live: false, carried: "", held: "" };

export function offerResume(root: HTMLElement, game: TableGame = IDLE): void {
  const button = root.querySelector<HTMLElement>("[data-dht-continue]");
  const play = root.querySelector<HTMLElement>("[data-dht-play]");
  const saved =
    !game.live && !tableHash() && !game.carried && !root.hasAttribute("data-position-state") ? savedGame() : null;
  if (button) button.hidden = !saved;
  if (play) {
    if (!play.hasAttribute("data-label-play")) play.setAttribute("data-label-play", play.textContent || "");
    const label = saved ? play.getAttribute("data-label-new") : play.getAttribute("data-label-play");
    if (label) play.textContent = label;
    // Continue is the primary choice; New game a quieter one beside it.
    play.classList.toggle("dht-btn--primary", !saved);
  }
  root.toggleAttribute("data-resumable", !!saved);
  // The page's top offers it whenever it is not the game on the table.
  const top = document.querySelector<HTMLElement>("[data-dh-play-continue]");
  if (!top) return;
  const kept = savedGame();
  const elsewhere = !!kept && kept.hash !== game.held && !root.hasAttribute("data-position-state");
  top.hidden = !elsewhere;
  document.querySelector("[data-dh-play-profile]")?.classList.toggle("md-button--primary", !elsewhere);
}
