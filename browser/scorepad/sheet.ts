/**
 * The score pad's kept state: what the table typed, and nothing the engine
 * can draw again. Kept under one key of local storage (STORE): the sheet
 * (rules, names, first dealer, per deal the caller and each hand's total),
 * the set-up of a sheet the engine has not read yet, the change waiting for
 * the engine, the deal being typed (the draft), and a few facts of the
 * engine's last answer (`facts`: the next deal, whether the match is over,
 * each player's total as every language writes it), so that a reload shows
 * the entry form and the totals at once in any language (quick.ts), the
 * engine still starting. The sheet drawn (HTML) and
 * the CSV are never kept: the engine draws them again on load. 300 deals of
 * six players take about 12,000 characters in any language.
 *
 * Every kept part is checked on load (bounds first, then shape): a bad part
 * is dropped alone and named (`dropped`), never the sheet; a sheet that
 * cannot be read is kept aside under DAMAGED, untouched, before anything is
 * written over it (`aside`). Older kept states (format 1, with the engine's
 * HTML) are read: their sheet is kept, the rest drawn again.
 */

import type { NextDeal, ScorepadResponse, Sheet } from "../protocol/messages";

export const STORE = "dhumbal-scorepad";
export const DAMAGED = "dhumbal-scorepad-damaged";
export const STORE_VERSION = 2;
const MAX_STORED = 6_000_000; // characters read back: more than a browser keeps under one origin
export const MAX_LINK = 24000; // characters of a link's payload, as the engine bounds it
/** A link payload's alphabet: base64url, and the dots of its mark and check value. */
export const LINK_SHAPE = /^[A-Za-z0-9_.-]*$/;
const OWN_LINK = /^2\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]*$/;
const MAX_DEPTH = 6; // a kept state nests 6 deep (state, evening, sheet, deals, deal, hands)
export const MAX_DEALS = 300;

/** A change sent with the sheet: a deal added or edited, undone, the match ended or reopened, the
 * set-up corrected, a player joining or leaving before the next deal, or the last of those taken back. */
export type Change =
  | { kind: "add"; c: number | null; h: (number | null)[] }
  | { kind: "edit"; index: number; c: number | null; h: (number | null)[] }
  | { kind: "undo"; index: number }
  | { kind: "end" }
  | { kind: "reopen" }
  | { kind: "setup"; names: string[]; dealer: number }
  | { kind: "join"; name: string; seat: number }
  | { kind: "leave"; seat: number }
  | { kind: "unmove" };

/** What the engine last said of the sheet that does not need drawing: kept, for `of` (the sheet's fingerprint). */
export interface Facts {
  of: string;
  /** The sheet's shared link payload, as the engine wrote it ("" when not known). */
  link: string;
  next: NextDeal | null;
  over: boolean;
  overByRules: boolean;
  deals: number;
  /** Each player's running total, and as each language writes it (drawn at once on a reload: quick.ts). */
  scores: number[] | null;
  shown: Record<string, string[]> | null;
}

/** The engine's last answer in this page's language: its HTML and CSV live only as long as the page. */
export interface View extends Facts {
  lang: string;
  parts: Record<string, string>;
  csv: string;
}

/** The deal being typed: a new one (`editing` 0) or deal `editing` as it was (`was`) when the change began. */
export interface Draft {
  editing: number;
  caller: number | null | undefined;
  hands: string[];
  was?: { c: number | null; h: (number | null)[] };
}

export interface State {
  v: number;
  sheet: Sheet | null;
  setup: { profile: string; options: Record<string, string> } | null;
  view: View | null;
  pending: Change | null;
  draft: Draft | null;
  /** The evening's earlier matches, played again with the same players (oldest first, at most MAX_EVENING). */
  evening: Sheet[];
}

export const MAX_EVENING = 12;

export function emptyState(): State {
  return { v: STORE_VERSION, sheet: null, setup: null, view: null, pending: null, draft: null, evening: [] };
}

/** A short fingerprint of a sheet (FNV-1a of its JSON): which sheet kept facts belong to. */
export function fingerprint(sheet: Sheet | null): string {
  const text = JSON.stringify(sheet);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${text.length.toString(36)}.${h.toString(36)}`;
}

export function viewOf(res: ScorepadResponse): View {
  return {
    of: fingerprint(res.sheet),
    link: res.link,
    lang: res.lang,
    parts: { ...res.parts },
    next: res.next,
    over: res.over,
    overByRules: res.over_by_rules,
    csv: res.csv,
    deals: res.deals,
    scores: res.scores.slice(),
    shown: { ...res.shown },
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

export function boundedParse(text: unknown, maxChars: number, maxDepth = MAX_DEPTH): unknown {
  if (typeof text !== "string" || text.length > maxChars || nesting(text) > maxDepth) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

function whole(v: unknown, low: number, high: number): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= low && v <= high;
}

/** A deal's caller and totals, for `players` players. */
function looksLikeDeal(d: unknown, players: number): d is { c: number | null; h: (number | null)[] } {
  return (
    isObject(d) &&
    Array.isArray(d.h) &&
    d.h.length === players &&
    d.h.every((h: unknown) => h === null || whole(h, 0, 999)) &&
    (d.c === null || whole(d.c, 0, players - 1))
  );
}

export const MAX_MOVES = 60;

/** Players joining or leaving (before deal `d`, seat `s`, joins `j`), as the engine bounds them. */
function looksLikeMoves(m: unknown, players: number, deals: number): boolean {
  return (
    Array.isArray(m) &&
    m.length <= MAX_MOVES &&
    m.every(
      (x: unknown) =>
        isObject(x) &&
        Object.keys(x).length === 3 &&
        whole(x.d, 1, deals + 1) &&
        whole(x.s, 0, players - 1) &&
        typeof x.j === "boolean",
    )
  );
}

/** The shape of a sheet, checked before it is used at all (the engine checks every value again). */
export function looksLikeSheet(s: unknown): s is Sheet {
  if (!isObject(s) || s.v !== 1 || typeof s.profile !== "string" || s.profile.length > 400) return false;
  const names = s.names;
  if (!Array.isArray(names) || names.length < 2 || names.length > 6) return false;
  if (!names.every((n) => typeof n === "string" && n.length <= 80)) return false;
  if (!whole(s.dealer, 0, names.length - 1) || !Array.isArray(s.deals) || s.deals.length > MAX_DEALS) return false;
  if (s.end !== undefined && typeof s.end !== "boolean") return false;
  if (s.moves !== undefined && !looksLikeMoves(s.moves, names.length, s.deals.length)) return false;
  return s.deals.every((d: unknown) => looksLikeDeal(d, names.length));
}

function looksLikeNext(n: unknown, players: number): n is NextDeal {
  return (
    isObject(n) &&
    whole(n.number, 1, MAX_DEALS + 1) &&
    whole(n.dealer, 0, players - 1) &&
    Array.isArray(n.active) &&
    n.active.length <= players &&
    n.active.every((a) => whole(a, 0, players - 1)) &&
    typeof n.nobody === "boolean" &&
    (n.cap === null || whole(n.cap, 1, 100000))
  );
}

/** Kept facts, when they are sound and belong to `sheet`. */
export function readFacts(f: unknown, sheet: Sheet): Facts | null {
  if (!isObject(f) || f.of !== fingerprint(sheet)) return null;
  if (typeof f.over !== "boolean" || typeof f.overByRules !== "boolean") return null;
  if (f.deals !== sheet.deals.length) return null;
  const next = f.next;
  if (next !== null && !(looksLikeNext(next, sheet.names.length) && next.number === sheet.deals.length + 1))
    return null;
  const link = typeof f.link === "string" && f.link.length <= MAX_LINK && OWN_LINK.test(f.link) ? f.link : "";
  const n = sheet.names.length;
  const scores =
    Array.isArray(f.scores) && f.scores.length === n && f.scores.every((v) => whole(v, -MAX_SCORE, MAX_SCORE))
      ? (f.scores.slice() as number[])
      : null;
  return {
    of: f.of,
    link,
    next,
    over: f.over,
    overByRules: f.overByRules,
    deals: f.deals,
    scores,
    shown: readShown(f.shown, n),
  };
}

const MAX_SCORE = 10_000_000;
/** A total as a language writes it: digits (Latin or Devanagari), a sign, a group mark. */
const SHOWN = /^[+\-\u2212]?[0-9\u0966-\u096f.,\u202f\u00a0 ]{1,16}$/;

/** Kept totals as each language writes them, when sound: a few languages, one total per player. */
function readShown(v: unknown, players: number): Record<string, string[]> | null {
  if (!isObject(v)) return null;
  const entries = Object.entries(v);
  if (entries.length > 12) return null;
  const out: Record<string, string[]> = {};
  for (const [lang, totals] of entries) {
    if (!/^[a-z]{2,3}$/.test(lang) || !Array.isArray(totals) || totals.length !== players) return null;
    if (!totals.every((t) => typeof t === "string" && SHOWN.test(t))) return null;
    out[lang] = totals.slice() as string[];
  }
  return out;
}

/** A draft that fits `sheet`: a deal to change that is there, a caller and totals for its players. */
export function readDraft(d: unknown, sheet: Sheet | null): Draft | null {
  if (!isObject(d) || !sheet) return null;
  const n = sheet.names.length;
  if (!whole(d.editing, 0, sheet.deals.length)) return null;
  if (!(d.caller === undefined || d.caller === null || whole(d.caller, 0, n - 1))) return null;
  if (!Array.isArray(d.hands) || d.hands.length !== n) return null;
  if (!d.hands.every((h) => typeof h === "string" && /^[0-9]{0,3}$/.test(h))) return null;
  const draft: Draft = { editing: d.editing, caller: d.caller as Draft["caller"], hands: d.hands.slice() as string[] };
  if (d.editing) {
    const deal = sheet.deals[d.editing - 1];
    // a change begun on a deal that is no longer what it was is not a change of this deal
    if (!deal || !looksLikeDeal(d.was, n) || JSON.stringify(d.was) !== JSON.stringify({ c: deal.c, h: deal.h }))
      return null;
    draft.was = { c: deal.c, h: deal.h.slice() };
  }
  return draft;
}

/** A change waiting for the engine, when it is one the pad sends for this sheet. */
export function readChange(c: unknown, sheet: Sheet | null): Change | null {
  if (!isObject(c) || !sheet) return null;
  const n = sheet.names.length;
  const hands = (h: unknown): h is (number | null)[] =>
    Array.isArray(h) && h.length === n && h.every((x) => x === null || whole(x, 0, 999));
  const caller = (v: unknown): v is number | null => v === null || whole(v, 0, n - 1);
  if (c.kind === "add" && caller(c.c) && hands(c.h)) return { kind: "add", c: c.c, h: c.h };
  if (c.kind === "edit" && whole(c.index, 1, sheet.deals.length) && caller(c.c) && hands(c.h))
    return { kind: "edit", index: c.index, c: c.c, h: c.h };
  if (c.kind === "undo" && whole(c.index, 1, sheet.deals.length)) return { kind: "undo", index: c.index };
  if (c.kind === "end" || c.kind === "reopen") return { kind: c.kind };
  if (
    c.kind === "setup" &&
    Array.isArray(c.names) &&
    c.names.length === n &&
    c.names.every((x) => typeof x === "string" && x.length <= 200) &&
    whole(c.dealer, 0, n - 1)
  )
    return { kind: "setup", names: c.names as string[], dealer: c.dealer };
  if (c.kind === "join" && typeof c.name === "string" && c.name.length <= 200 && whole(c.seat, 0, n))
    return { kind: "join", name: c.name, seat: c.seat };
  if (c.kind === "leave" && whole(c.seat, 0, n - 1)) return { kind: "leave", seat: c.seat };
  if (c.kind === "unmove") return { kind: "unmove" };
  return null;
}

function readSetup(s: unknown): State["setup"] | null {
  if (!isObject(s) || typeof s.profile !== "string" || s.profile.length > 400 || !isObject(s.options)) return null;
  const entries = Object.entries(s.options);
  if (entries.length > 40 || !entries.every(([k, v]) => k.length <= 40 && typeof v === "string" && v.length <= 40))
    return null;
  return { profile: s.profile, options: s.options as Record<string, string> };
}

/** What loading found: the state (null: none kept, or it could not be read), and what was wrong. */
export interface Loaded {
  state: State | null;
  /** The kept sheet could not be read at all (it is set aside, see `aside`). */
  bad: boolean;
  /** Parts dropped alone (the deal being typed, the change waiting), the sheet kept. */
  dropped: string[];
}

/** Read a kept state from its text (see the module docstring). */
export function readState(text: string | null): Loaded {
  if (text === null) return { state: null, bad: false, dropped: [] };
  const data = boundedParse(text, MAX_STORED);
  if (!isObject(data) || (data.v !== 1 && data.v !== STORE_VERSION)) return { state: null, bad: true, dropped: [] };
  if (data.sheet !== null && data.sheet !== undefined && !looksLikeSheet(data.sheet))
    return { state: null, bad: true, dropped: [] };
  const state = emptyState();
  const sheet = (data.sheet ?? null) as Sheet | null;
  const dropped: string[] = [];
  state.sheet = sheet;
  if (data.setup !== null && data.setup !== undefined) {
    state.setup = readSetup(data.setup);
    if (!state.setup) dropped.push("setup"); // the rules' house options of a sheet with no deal yet: the sheet stays
  }
  if (data.evening !== undefined) {
    const evening = Array.isArray(data.evening) ? data.evening.slice(-MAX_EVENING) : [];
    state.evening = evening.filter((e) => looksLikeSheet(e)) as Sheet[];
    if (!Array.isArray(data.evening) || state.evening.length !== evening.length) dropped.push("evening");
  }
  if (data.pending !== null && data.pending !== undefined) {
    state.pending = readChange(data.pending, state.sheet);
    if (!state.pending) dropped.push("pending");
  }
  if (data.draft !== null && data.draft !== undefined) {
    state.draft = readDraft(data.draft, state.sheet);
    if (!state.draft) dropped.push("draft");
  }
  if (state.sheet && data.v === STORE_VERSION) {
    const facts = readFacts(data.facts, state.sheet);
    if (facts) state.view = { ...facts, lang: "", parts: {}, csv: "" };
  }
  return { state, bad: false, dropped };
}

/** The kept text, or null (none, or storage refused). */
export function keptText(): string | null {
  try {
    return window.localStorage.getItem(STORE);
  } catch {
    return null;
  }
}

/** The kept state: read and checked (see `readState`). */
export function loadState(): Loaded & { text: string | null } {
  const text = keptText();
  return { ...readState(text), text };
}

/** Set an unreadable kept value aside, untouched; false when it could not be (nothing may be written over it then). */
export function setAside(text: string): boolean {
  try {
    const there = window.localStorage.getItem(DAMAGED);
    if (there !== null && there !== text) return false; // one damaged value is kept: never a second over it
    window.localStorage.setItem(DAMAGED, text);
    return true;
  } catch {
    return false;
  }
}

/** The text kept for `state`: no HTML, no CSV. */
export function stateText(state: State): string {
  const view = state.view;
  const facts =
    view && state.sheet && view.of === fingerprint(state.sheet)
      ? {
          of: view.of,
          link: view.link,
          next: view.next,
          over: view.over,
          overByRules: view.overByRules,
          deals: view.deals,
          scores: view.scores,
          shown: view.shown,
        }
      : null;
  return JSON.stringify({
    v: STORE_VERSION,
    sheet: state.sheet,
    setup: state.setup,
    pending: state.pending,
    draft: state.draft,
    evening: state.evening,
    facts,
  });
}

/** Keep `text`; false when the browser refused it (private mode, or full). */
export function saveText(text: string): boolean {
  try {
    window.localStorage.setItem(STORE, text);
    return true;
  } catch {
    return false;
  }
}
