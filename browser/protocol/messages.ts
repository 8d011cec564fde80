/**
 * The page-worker protocol: what the page asks of `dhumbal.table.web.handle`
 * and what it answers, key for key as the engine writes them.
 *
 * The engine defines the messages once, in Python
 * (`engine/dhumbal/table/messages.py`: TypedDicts, snake_case keys, and
 * `RESPONSES`, the answer type of each op); `sitegen/dhumbal_site/tsprotocol.py`
 * writes them as TypeScript into `messages.generated.ts`, which this module
 * re-exports once the engine has it. Until then the types below, in the same
 * shape, stand in: a page module imports them from here only, so the
 * generated ones drop in without a change elsewhere, and a renamed field
 * fails the type check.
 */

/** The engine's refusal of a move, in the page's language. */
export interface Refusal {
  code: string;
  text: string;
}

export interface Summary {
  profile: string;
  difficulty: string;
  seed: number | string;
  deal: number;
  phase: string | null;
  turn: number | null;
  seat: number | null;
  your_turn: boolean;
  is_over: boolean;
  match_over: boolean;
  practice: boolean;
  transcript: unknown;
}

export interface Frame {
  seat: number;
  say: string;
  log: string[];
  felt: string;
}

/** The bots' moves one at a time: the board before them, each move's felt, what is said. */
export interface Playback {
  html: string;
  say: string;
  frames: Frame[];
  end: string;
}

/** An answer that draws the board (new, new-match, position, restore, lang, act, next-deal, sort, hint, review, state). */
export interface BoardAnswer {
  ok: true;
  op: string;
  table: string;
  lang: string;
  html: string;
  status: string;
  prompt: string;
  events: string[];
  notice: string | null;
  refusal: Refusal | null;
  hash: string;
  summary: Summary;
  settings_html?: string | null;
  playback?: Playback;
  review_html?: string;
  restored?: boolean;
}

export interface SettingsAnswer {
  ok: true;
  op: "settings";
  table: string;
  lang: string;
  settings_html: string;
}

export interface Pong {
  ok: true;
  pong: true;
  version: string;
  protocol: number;
}

export interface ErrorAnswer {
  ok: false;
  error: { code: string; text: string };
  lang: string;
}

/** A score pad's sheet as the page keeps and sends it (the engine checks every value again). */
export interface PadSheet {
  v: 1;
  profile: string;
  names: string[];
  dealer: number;
  deals: { c: number | null; h: (number | null)[] }[];
  end?: boolean;
}

export interface PadNext {
  number: number;
  dealer: number;
  active: number[];
  nobody: boolean;
  cap: number | null;
}

export interface PadRefusal {
  code: string;
  text: string;
  deal: number | null;
  seat: number | null;
}

export interface PadAnswer {
  ok: true;
  op: "scorepad";
  lang: string;
  sheet: PadSheet;
  parts: Record<string, string>;
  next: PadNext | null;
  deals: number;
  over: boolean;
  overByRules: boolean;
  names: string[];
  csv: string;
  said: string;
  refusal: PadRefusal | null;
}

/** The answer type of each op. */
export interface Responses {
  ping: Pong;
  new: BoardAnswer;
  "new-match": BoardAnswer;
  position: BoardAnswer;
  restore: BoardAnswer;
  settings: SettingsAnswer;
  scorepad: PadAnswer;
  lang: BoardAnswer;
  act: BoardAnswer;
  "next-deal": BoardAnswer;
  sort: BoardAnswer;
  hint: BoardAnswer;
  review: BoardAnswer;
  state: BoardAnswer;
}

export type Op = keyof Responses;

/** What a request of `op` gets back: its answer, or the engine's error. */
export type Answer<O extends Op = Op> = Responses[O] | ErrorAnswer;

/** A request: its op and fields (the engine reads and bounds each, dhumbal.table.protocol). */
export interface Request {
  op: Op;
  table?: string;
  lang?: string;
  [field: string]: unknown;
}
