/**
 * The score pad's kept state and shared links, read within bounds before
 * they are parsed: length, characters, nesting depth, and the shape of a
 * sheet (the engine checks every value again). A shared link (#pad=…) holds
 * the sheet as base64url UTF-8 JSON.
 */

import type { NextDeal, ScorepadResponse, Sheet } from "../protocol/messages";

export const STORE = "dhumbal-scorepad";
export const STORE_VERSION = 1;
const MAX_STORED = 400000; // characters of the kept state
export const MAX_LINK = 24000; // characters of a link's payload
const MAX_DEPTH = 6; // a sheet nests 4 deep (sheet, deals, deal, hands)

/** A change sent with the sheet: a deal added or edited, undone, the match ended or reopened. */
export type Change =
  | { kind: "add"; c: number | null; h: (number | null)[] }
  | { kind: "edit"; index: number; c: number | null; h: (number | null)[] }
  | { kind: "undo"; index: number }
  | { kind: "end" }
  | { kind: "reopen" };

/** The engine's last answer, kept beside the sheet so that a reload draws at once. */
export interface View {
  lang: string;
  parts: Record<string, string>;
  next: NextDeal | null;
  over: boolean;
  overByRules: boolean;
  names: string[];
  csv: string;
  deals: number;
}

export interface Draft {
  editing: number;
  caller: number | null | undefined;
  hands: string[];
}

export interface State {
  v: number;
  sheet: Sheet | null;
  setup: { profile: string; options: Record<string, string> } | null;
  view: View | null;
  pending: Change | null;
  draft: Draft | null;
}

export function emptyState(): State {
  return { v: STORE_VERSION, sheet: null, setup: null, view: null, pending: null, draft: null };
}

export function viewOf(res: ScorepadResponse): View {
  return {
    lang: res.lang,
    parts: { ...res.parts },
    next: res.next,
    over: res.over,
    overByRules: res.over_by_rules,
    names: res.names,
    csv: res.csv,
    deals: res.deals,
  };
}

/** How deeply arrays and objects nest in `text`, strings skipped, in one pass. */
function nesting(text: string): number {
  let depth = 0;
  let most = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 91 || c === 123) {
      depth++;
      if (depth > most) most = depth;
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
  return most;
}

export function boundedParse(text: unknown, maxChars: number): unknown {
  if (typeof text !== "string" || text.length > maxChars || nesting(text) > MAX_DEPTH) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** The shape of a sheet, checked before it is used at all. */
export function looksLikeSheet(s: unknown): s is Sheet {
  if (!isObject(s) || s.v !== 1 || typeof s.profile !== "string" || s.profile.length > 400) return false;
  const names = s.names;
  if (!Array.isArray(names) || names.length < 2 || names.length > 6) return false;
  if (!names.every((n) => typeof n === "string" && n.length <= 80)) return false;
  if (typeof s.dealer !== "number" || !Array.isArray(s.deals) || s.deals.length > 300) return false;
  return s.deals.every(
    (d: unknown) =>
      isObject(d) &&
      Array.isArray(d.h) &&
      d.h.length === names.length &&
      d.h.every((h: unknown) => h === null || typeof h === "number") &&
      (d.c === null || typeof d.c === "number"),
  );
}

export function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const byte of bytes) bin += String.fromCharCode(byte);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(text: string): string | null {
  if (text.length > MAX_LINK || !/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The kept state: null when there is none (or storage is refused); `bad` when it cannot be read. */
export function loadState(): { state: State | null; bad: boolean } {
  let text: string | null;
  try {
    text = window.localStorage.getItem(STORE);
  } catch {
    return { state: null, bad: false };
  }
  if (text === null) return { state: null, bad: false };
  const data = boundedParse(text, MAX_STORED);
  if (!isObject(data) || data.v !== STORE_VERSION || (data.sheet !== null && !looksLikeSheet(data.sheet))) {
    return { state: null, bad: true };
  }
  return { state: data as unknown as State, bad: false };
}

export function saveState(state: State): void {
  try {
    window.localStorage.setItem(STORE, JSON.stringify(state));
  } catch {
    /* private mode or full: the sheet lives as long as the page */
  }
}
