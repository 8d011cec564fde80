/**
 * The reader's game in progress on this device: kept in local storage as the
 * link that restores it (#table=), with the page, the time, the rules and the
 * deal; and this tab's own games (session storage), so that Back, Forward and
 * a language switch bring the reader's game back without announcing it as a
 * shared one. Read before intent (the "Continue your game" offers) and by the
 * table (table/resume.ts, the only writer of the saved game).
 */

import { isRecord, readJSON, readList, readText, remove, write } from "../lib/storage";

export const HASH_KEY = "table=";
export const SAVED_KEY = "dhumbal:last-game";
const OWN_KEY = "dhumbal:own-games";
const LINE_KEY = "dhumbal:kept-line";
export const CARRY_KEY = "dhumbal:carried";
/** This tab's full table: the page whose table is open over the screen (place.ts; a reload of that page opens it again). */
export const FULL_KEY = "dhumbal:full-table";
/**
 * The link of the game on that full table while the reader has not moved yet (it is
 * not in the address then): a reload brings the same deal back, full screen, still
 * not played (not saved, not in the address) until the reader moves.
 */
export const FULL_GAME_KEY = "dhumbal:full-game";
/** A link longer than this is not kept (the engine reads less). */
export const MAX_SAVED = 20000;

export interface SavedGame {
  hash: string;
  page: string;
  at: number;
  profile: string;
  deal: number;
  over: false;
}

/** The game link in the address (`table=…`), or "". */
export function tableHash(): string {
  const h = location.hash.replace(/^#/, "");
  return h.indexOf(HASH_KEY) === 0 ? h : "";
}

/** The saved game, or null (none, damaged, too long, or a finished match). */
export function savedGame(): SavedGame | null {
  const game = readJSON("localStorage", SAVED_KEY);
  if (!isRecord(game) || typeof game.hash !== "string" || game.hash.indexOf(HASH_KEY) !== 0) return null;
  if (game.hash.length > MAX_SAVED || game.over === true) return null;
  return game as unknown as SavedGame;
}

export function keepGame(game: SavedGame | null): void {
  if (game) {
    write("localStorage", SAVED_KEY, game);
    rememberLine(game.hash);
  } else {
    remove("localStorage", SAVED_KEY);
  }
}

/** After a reload of the page whose full table held a game not played yet: its link, else "". */
export function unplayedFullGame(): string {
  const navigation = performance.getEntriesByType?.("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (navigation?.type !== "reload" || readText("sessionStorage", FULL_KEY) !== location.pathname) return "";
  const game = readText("sessionStorage", FULL_GAME_KEY) || "";
  return game.indexOf(HASH_KEY) === 0 && game.length <= MAX_SAVED ? game : "";
}

/** The games this tab made (links), newest last. */
export function ownGames(): string[] {
  return readList("sessionStorage", OWN_KEY);
}

export function rememberOwn(hash: string): void {
  if (!hash) return;
  const list = ownGames().filter((h) => h !== hash);
  list.push(hash);
  write("sessionStorage", OWN_KEY, list.slice(-40));
}

/** This tab's saved positions: Back within the saved game is still the game. */
export function keptLine(): string[] {
  return readList("sessionStorage", LINE_KEY);
}

function rememberLine(hash: string): void {
  const list = keptLine().filter((h) => h !== hash);
  list.push(hash);
  write("sessionStorage", LINE_KEY, list.slice(-200));
}
