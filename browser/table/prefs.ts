/**
 * The reader's display preferences for the table, kept in this browser
 * (local storage): the pace of the bots' moves, four-colour suits, sound and
 * vibration. Read whole each time (another tab may have changed them). Every
 * page's script shows them in the table's form and keeps the reader's changes,
 * whether the table's code has come or not (they need no engine).
 */

import { isRecord, readJSON, write } from "../lib/storage";

const KEY = "dhumbal:table";

/**
 * Milliseconds between two of the bots' moves (a tap on the felt shows the next one at once).
 * Normal, the default, is 300 ms a move, each card still seen flying (about 210 ms):
 * a round of four players' moves plays back in about 2.1 s, of five in 2.7 s (it was
 * 450 ms, 3.6 s and 4.6 s measured on a phone; players asked for quicker bots, issue 51).
 */
export const PACE = { slow: 800, normal: 300, fast: 160, instant: 0 } as const;
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

const CONTROLS = "[data-dht-speed], [data-dht-4c], [data-dht-sound], [data-dht-vibrate]";

/** The display preferences as kept, in a table's form. */
export function showPrefs(root: Element): void {
  const p = prefs();
  const speed = root.querySelector<HTMLSelectElement>("[data-dht-speed]");
  if (speed) speed.value = p.speed;
  const checks: [string, boolean][] = [
    ["[data-dht-4c]", p.fourColour],
    ["[data-dht-sound]", p.sound],
    ["[data-dht-vibrate]", p.vibrate],
  ];
  for (const [selector, on] of checks) {
    const box = root.querySelector<HTMLInputElement>(selector);
    if (box) box.checked = on;
  }
}

/** A display preference changed in a table's form: kept; what it turned on, or null. */
export function prefChanged(el: Element): "sound" | "vibrate" | "" | null {
  if (!el.matches(CONTROLS)) return null;
  const input = el as HTMLInputElement;
  const p = prefs();
  if (input.matches("[data-dht-speed]")) {
    const value = input.value;
    if (isSpeed(value)) p.speed = value;
  } else if (input.matches("[data-dht-4c]")) p.fourColour = input.checked;
  else if (input.matches("[data-dht-sound]")) p.sound = input.checked;
  else p.vibrate = input.checked;
  savePrefs(p);
  if (!input.checked) return "";
  return input.matches("[data-dht-sound]") ? "sound" : input.matches("[data-dht-vibrate]") ? "vibrate" : "";
}
