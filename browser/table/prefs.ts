/**
 * The reader's display preferences for the table, kept in this browser
 * (local storage): the pace of the bots' moves, four-colour suits, sound and
 * vibration. Read whole each time (another tab may have changed them).
 */

import { isRecord, readJSON, write } from "../lib/storage";

const KEY = "dhumbal:table";

/** Milliseconds between two of the bots' moves (a tap on the felt shows the next one at once). */
export const PACE = { slow: 1000, normal: 450, fast: 200, instant: 0 } as const;
export type Speed = keyof typeof PACE;

export interface Prefs {
  speed: Speed;
  fourColour: boolean;
  sound: boolean;
  vibrate: boolean;
}

function isSpeed(value: unknown): value is Speed {
  return typeof value === "string" && Object.hasOwn(PACE, value);
}

export function prefs(): Prefs {
  const p = readJSON("localStorage", KEY);
  const kept = isRecord(p) ? p : {};
  return {
    ...kept,
    speed: isSpeed(kept.speed) ? kept.speed : "normal",
    fourColour: kept.fourColour === true,
    sound: kept.sound === true,
    vibrate: kept.vibrate === true,
  };
}

export function applyPrefs(p: Prefs): void {
  document.documentElement.classList.toggle("dh-4c", p.fourColour);
}

export function savePrefs(p: Prefs): void {
  write("localStorage", KEY, p);
  applyPrefs(p);
}
