/**
 * The table's state: one object, one slice per part of the table, and each
 * slice written by its part's module only (the others may read it). A part
 * that needs another's field changed asks that part (a function it exports)
 * or reacts to one of the table's moments (moments.ts).
 */

import type { TableRequest } from "../protocol/messages";
import type { Playing } from "./felt";
import type { Dragging, DropBox } from "./hand";

/** table.ts: the game on the table and the requests to the engine. */
export interface CoreState {
  /** The engine has drawn the board: the table plays. */
  live: boolean;
  /** The engine's start and the first request, while under way. */
  starting: Promise<unknown> | null;
  /** How many answers the table has shown (on the root as data-answers, for tests and tools). */
  answers: number;
  /** The reader has played here: the address may carry the game. */
  played: boolean;
  /** The game carried here is the full table's, restored by a reload before any move: not played yet. */
  unplayed: boolean;
  /** A request waiting for the engine (a worked example's position, a fresh deal). */
  pending: TableRequest | null;
  /** The game this page's table held before instant navigation drew the same page again, or the one chosen with Continue. */
  carried: string;
  /** The link of the game on the table (the engine's last answer). */
  lastHash: string;
  /** The reader asked for a deal (begin() may deal once the engine is here). */
  wanted: boolean;
  /** The button pressed disappears once the table is live: carry the focus in. */
  focusOnStart: boolean;
  /** The keyboard was used last (a focused control is scrolled into view). */
  keyboard: boolean;
  queue: Promise<unknown>;
}

export interface FeltState {
  /** The bots' moves being shown. */
  playing: Playing | null;
}

export interface HandState {
  /** The marked cards' codes, in the order they were marked. */
  marks: string[];
  dragging: Dragging | null;
  /** Where a card thrown by dragging was let go (it flies on from there). */
  dropped: Record<string, DropBox> | null;
  draggedAt: number;
}

export interface DockState {
  /** A Hint is being worked out (presses meanwhile are one press). */
  hinting: boolean;
  /** The link shown to copy where there is no clipboard. */
  shareLink: HTMLInputElement | null;
  dockWatch: ResizeObserver | null;
  /** The Hint's reasons behind its line (the answer's), and whether "Why?" shows them (why.ts). */
  why: { line: string; reasons: string[]; open: boolean };
}

export interface SummaryState {
  logOpen: boolean;
  logOpenFull: boolean;
  /** The log whose toggle event is this script's, not the reader's. */
  logSet: Element | null;
  stripFolded: boolean;
  summaryShown: boolean;
}

export interface ReviewState {
  /** The review step to open again (Back to a finished deal, "Back to your match"). */
  againAt: number;
  /** The match a practice deal came from. */
  practiceOf: { hash: string; at: number } | null;
}

export interface ResumeState {
  /** The link of the engine's last answer, set as it arrives. */
  held: string;
  /** The game on the table is the reader's saved game (its moves save it). */
  owns: boolean;
  /** A fresh game was chosen over the saved one (it takes the place at its first move). */
  fresh: boolean;
  /** The reader asked to continue the saved game. */
  resumeAsked: boolean;
  asking: { yes: () => void; from: Element | null } | null;
}

export interface FullTable {
  y: number;
  x: number;
  inert: HTMLElement[];
  entry: boolean;
  focus: Element | null;
  mark: string;
}

export interface Docked {
  marker: Comment;
  example?: Element;
  button?: HTMLElement;
  hash?: string;
}

export interface PlaceState {
  /** The full table, while open. */
  full: FullTable | null;
  /** Beside a worked example, while docked there. */
  dock: Docked | null;
  lastDock: Docked | null;
  /** The Back that closes the full table is the table's own step. */
  leaving: boolean;
  toolsWatch: ResizeObserver | null;
}

export interface GuideState {
  shown: boolean;
}

export interface CueState {
  over: boolean;
}

export interface TableState {
  core: CoreState;
  felt: FeltState;
  hand: HandState;
  dock: DockState;
  summary: SummaryState;
  review: ReviewState;
  resume: ResumeState;
  place: PlaceState;
  guide: GuideState;
  cues: CueState;
}

export function freshState(carried: string): TableState {
  return {
    core: {
      live: false,
      starting: null,
      answers: 0,
      played: false,
      unplayed: false,
      pending: null,
      carried,
      lastHash: "",
      wanted: false,
      focusOnStart: false,
      keyboard: false,
      queue: Promise.resolve(),
    },
    felt: { playing: null },
    hand: { marks: [], dragging: null, dropped: null, draggedAt: 0 },
    dock: { hinting: false, shareLink: null, dockWatch: null, why: { line: "", reasons: [], open: false } },
    summary: { logOpen: true, logOpenFull: false, logSet: null, stripFolded: false, summaryShown: false },
    review: { againAt: 0, practiceOf: null },
    resume: { held: "", owns: false, fresh: false, resumeAsked: false, asking: null },
    place: { full: null, dock: null, lastDock: null, leaving: false, toolsWatch: null },
    guide: { shown: false },
    cues: { over: false },
  };
}
