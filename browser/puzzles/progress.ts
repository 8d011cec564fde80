/**
 * The reader's puzzle progress, kept on this device: "dhumbal-puzzles"
 * ({id: {t: tried, s: solved, f: right at the first try}}) and
 * "dhumbal-puzzle-stats" ({run, best: the first tries right in a row and the
 * longest such run; day, days: the last day the daily puzzle was solved and
 * how many days in a row}). Puzzle ids come from the page and the address: the
 * kept records are read into maps, so an id such as "__proto__" or
 * "toString" is only ever a key.
 */

import { isRecord, readRecord, write } from "../lib/storage";
import { fill, LATIN } from "../lib/text";

const STORE = "dhumbal-puzzles";
const STATS = "dhumbal-puzzle-stats";
const DAY = 86400000;

export interface Entry {
  t?: number;
  s?: number;
  f?: number;
}

interface Stats {
  run?: number;
  best?: number;
  day?: number;
  days?: number;
}

/** Whole days since 1970-01-01, UTC: the daily puzzle's day. */
export function today(): number {
  return Math.floor(Date.now() / DAY);
}

/** Day d shows entry d mod n of the order the build wrote: every reader sees the same one that day. */
export function dailyId(order: string | null): string {
  const ids = (order || "").split(" ").filter(Boolean);
  return ids.length ? ids[today() % ids.length] || "" : "";
}

/** The kept record of every puzzle tried, by id. */
export function entries(): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const [id, entry] of Object.entries(readRecord("localStorage", STORE))) {
    if (isRecord(entry)) out.set(id, entry as Entry);
  }
  return out;
}

function keepEntries(data: Map<string, Entry>): void {
  write("localStorage", STORE, Object.fromEntries(data));
}

function stats(): Stats {
  const s = readRecord("localStorage", STATS);
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const out: Stats = {};
  for (const key of ["run", "best", "day", "days"] as const) {
    const value = num(s[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const listeners: ((announce: boolean) => void)[] = [];

export function onProgress(fn: (announce: boolean) => void): void {
  listeners.push(fn);
}

export function clearListeners(): void {
  listeners.length = 0;
}

/** A move made on a puzzle: tried, solved, right at the first try; the streaks. */
export function record(id: string, best: boolean, daily: boolean): void {
  const data = entries();
  const entry: Entry = { ...(data.get(id) || {}) };
  const first = !entry.t;
  entry.t = 1;
  if (best) entry.s = 1;
  if (first) entry.f = best ? 1 : 0;
  data.set(id, entry);
  keepEntries(data);
  const s = stats();
  if (first) {
    s.run = best ? (s.run || 0) + 1 : 0;
    s.best = Math.max(s.best || 0, s.run);
  }
  if (daily && best && s.day !== today()) {
    s.days = s.day === today() - 1 ? (s.days || 0) + 1 : 1;
    s.day = today();
  }
  write("localStorage", STATS, s);
  for (const fn of listeners) fn(true);
}

/** The progress line, the streaks and each theme's success rate (on the Puzzles page). */
export class Progress {
  private readonly digits: string;

  constructor(
    private readonly box: HTMLElement,
    private readonly list: { id: string; themes: string[] }[],
  ) {
    this.digits = box.getAttribute("data-digits") || LATIN;
    box.querySelector(".dh-puzzles__forget")?.addEventListener("click", () => {
      const data = entries();
      for (const e of this.list) data.delete(e.id);
      keepEntries(data);
      write("localStorage", STATS, {});
      for (const fn of listeners) fn(true);
      // the button goes (nothing is left to forget): the keyboard's place moves to the line that says so
      const count = box.querySelector<HTMLElement>(".dh-puzzles__count");
      if (count) {
        count.setAttribute("tabindex", "-1");
        count.focus();
      }
    });
  }

  update(announce: boolean): void {
    const data = entries();
    const s = stats();
    const digits = this.digits;
    let solved = 0;
    let tried = 0;
    const themes = new Map<string, { tried: number; right: number }>();
    for (const e of this.list) {
      const entry = data.get(e.id);
      if (!entry?.t) continue;
      tried += 1;
      if (entry.s) solved += 1;
      for (const theme of e.themes) {
        const th = themes.get(theme) || { tried: 0, right: 0 };
        themes.set(theme, th);
        th.tried += 1;
        if (entry.f) th.right += 1;
      }
    }
    const count = this.box.querySelector<HTMLElement>(".dh-puzzles__count");
    if (count) {
      // Announced after a move (the region is polite); set quietly on load.
      if (!announce) count.setAttribute("aria-live", "off");
      count.textContent = fill(count.getAttribute("data-template"), { solved, tried, total: this.list.length }, digits);
      if (!announce) setTimeout(() => count.setAttribute("aria-live", "polite"), 0);
    }
    const streak = this.box.querySelector<HTMLElement>(".dh-puzzles__streak");
    if (streak) {
      const days = s.day === today() || s.day === today() - 1 ? s.days || 0 : 0;
      let text = fill(streak.getAttribute("data-template"), { streak: s.run || 0, best: s.best || 0 }, digits);
      if (days) text += ` ${fill(streak.getAttribute("data-daily-template"), { days }, digits)}`;
      streak.textContent = text;
      streak.hidden = !tried;
    }
    const table = this.box.querySelector<HTMLElement>(".dh-puzzles__themes");
    if (table) {
      const percent = this.box.getAttribute("data-percent") || "{n}%";
      let any = false;
      for (const row of table.querySelectorAll<HTMLElement>("tr[data-theme]")) {
        const th = themes.get(row.getAttribute("data-theme") || "");
        row.hidden = !th;
        if (!th) continue;
        any = true;
        const cell = row.querySelector("td");
        if (cell) {
          cell.textContent = fill(
            cell.getAttribute("data-template"),
            {
              right: th.right,
              tried: th.tried,
              percent: fill(percent, { n: Math.round((100 * th.right) / th.tried) }, digits),
            },
            digits,
          );
        }
      }
      table.hidden = !any;
    }
    const forget = this.box.querySelector<HTMLElement>(".dh-puzzles__forget");
    if (forget) forget.hidden = !tried && !s.run && !s.best && !s.days; // nothing to forget yet
    this.box.setAttribute("data-solved", String(solved));
    this.box.setAttribute("data-tried", String(tried));
    this.box.hidden = false;
  }
}
