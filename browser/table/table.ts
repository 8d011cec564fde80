/**
 * The mini table's controller: one per table on the page. It owns the
 * table's core state (state.ts: the game on the table, the requests to the
 * engine), sends requests to the engine's runtime, and puts the HTML and
 * the texts it answers with into the page; the parts of the table (a module
 * each, attached by `mountTable`) react to its moments (moments.ts).
 *
 * No rule of the game is decided here, and no reader-visible text is typed
 * here. The table is pre-rendered into the page by the engine's renderer
 * (dhumbal.view); the engine answers each request with the board drawn
 * again. What the page does itself: marking cards (the Throw control shows
 * the engine's verdict on them, sent with the view), showing the bots' moves
 * one at a time (the engine sends the picture after each move), and the
 * reader's display preferences.
 *
 * The code comes on the reader's intent (bootstrap.ts, in every page's
 * script, watches for it): Play or a press, the pointer resting on the
 * table, the focus in it, a shared #table= link, a "play" link or a worked
 * example's "Play from here"; never on scrolling alone.
 *
 * The address gets a #table= hash only once the reader has played at this
 * table (or opened it from such a link). Hashes this tab made are kept
 * (saved.ts), so Back, Forward and a language switch bring the reader's own
 * game back without announcing a shared one.
 */

import type { Runtime } from "../entries/runtime";
import { frugal } from "../lib/connection";
import { remove, write } from "../lib/storage";
import { cssEscape, localDigits, parseJSON } from "../lib/text";
import {
  type Answer,
  type BoardAnswer,
  type Difficulty,
  difficultyOf,
  namesOf,
  type TableRequest,
} from "../protocol/messages";
import { playBack } from "./felt";
import { Moments } from "./moments";
import { picture } from "./motion";
import { PACE, prefs } from "./prefs";
import { FULL_GAME_KEY, ownGames, rememberOwn, tableHash } from "./saved";
import { freshState, type TableState } from "./state";

export type State = "static" | "loading" | "ready" | "error";

/** What asked for the engine: a press starts it in any case; intent not on a line to spare. */
export type Intent =
  | "play"
  | "position"
  | "profile"
  | "retry"
  | "pointer"
  | "focus"
  | "link"
  | "ready"
  | "tap"
  | "preload";

const PRESSES: ReadonlySet<Intent> = new Set(["play", "position", "profile", "retry"]);

export class Table {
  readonly id: string;
  readonly lang: string;
  readonly path = location.pathname;
  readonly board: HTMLElement;
  readonly status: HTMLElement | null;
  readonly loader: HTMLElement | null;
  readonly settings: HTMLElement | null;
  readonly moments = new Moments();
  readonly state: TableState;
  private unsubscribe: (() => void) | null = null;
  private unprogress: (() => void) | null = null;

  constructor(
    readonly root: HTMLElement,
    carried: string,
    readonly runtime: Runtime,
  ) {
    this.id = root.id || "dh-table";
    this.lang = root.getAttribute("data-lang") || document.documentElement.lang || "en";
    const board = root.querySelector<HTMLElement>(".dht-board");
    if (!board) throw new Error(`the table #${this.id} has no board`);
    this.board = board;
    this.status = root.querySelector(".dht-status");
    this.loader = root.querySelector(".dht-loader");
    this.settings = root.querySelector(".dht-settings__body");
    this.state = freshState(carried);
  }

  /** The game on this table when the address may carry it. */
  gameAt(): string {
    const core = this.state.core;
    return core.played && core.lastHash && this.path === location.pathname ? core.lastHash : "";
  }

  /** The reader has played here: from now on the address carries the game. */
  markPlayed(): void {
    this.state.core.played = true;
  }

  note(selector: string, shown: boolean): void {
    const el = this.root.querySelector<HTMLElement>(selector);
    if (el) el.hidden = !shown;
  }

  setState(state: State, code?: string | null): void {
    const root = this.root;
    root.setAttribute("data-state", state);
    const errors = Array.from(root.querySelectorAll<HTMLElement>("[data-error-code]"));
    if (state !== "error") {
      for (const error of errors) error.hidden = true;
      return;
    }
    let shown: HTMLElement | null = null;
    for (const error of errors) {
      const match = error.getAttribute("data-error-code") === code;
      error.hidden = !match;
      if (match) shown = error;
    }
    if (!shown) {
      shown = root.querySelector<HTMLElement>('[data-error-code="generic"]');
      if (shown) shown.hidden = false;
    }
    // Whether the engine failed to start, or stopped under a game on the table.
    let title: HTMLElement | null = null;
    for (const heading of root.querySelectorAll<HTMLElement>("[data-error-title]")) {
      const live = heading.getAttribute("data-error-title") === "live";
      heading.hidden = live !== this.state.core.live;
      if (!heading.hidden) title = heading;
    }
    this.say(`${title ? `${title.textContent} ` : ""}${shown?.textContent || ""}`, true);
  }

  /** What the live status line says (dock.ts keeps its height and what scrolls). */
  say(text: string, alert: boolean): void {
    if (!this.status) return;
    this.status.textContent = text || "";
    this.status.classList.toggle("dht-status--alert", alert);
    this.root.classList.toggle("dht-alerting", alert);
    this.status.scrollTop = 0;
    this.moments.emit("said");
  }

  /**
   * Start the engine (once) and then the session. A press ("play", "position",
   * "profile", "retry") starts it in any case; intent ("pointer", "focus", "link",
   * "ready", "tap") not when the browser asks to spare the line, unless the engine is
   * here already. "preload" (focus on the loader's buttons) loads the engine and deals nothing.
   */
  intent(how: Intent): Promise<unknown> {
    const core = this.state.core;
    if (how !== "preload") core.wanted = true;
    if (core.starting) return core.starting;
    const rt = this.runtime;
    if (!PRESSES.has(how) && frugal() && rt.status !== "ready") return Promise.resolve();
    if (!this.unsubscribe) {
      this.unsubscribe = rt.onStatus((status, error) => {
        if (!this.root.isConnected) {
          this.unsubscribe?.();
          return;
        }
        if (status === "error") this.setState("error", error);
        else if (status === "loading" && !core.live) this.setState("loading");
      });
    }
    if (!this.unprogress) {
      this.unprogress = rt.onProgress((loaded, total) => {
        if (this.root.isConnected) this.progress(loaded, total);
      });
    }
    if (!core.live && rt.status !== "ready") this.setState("loading");
    core.starting = rt
      .ensure()
      .then(() => this.begin())
      .catch((err: { code?: string } | null) => {
        core.starting = null;
        this.setState("error", err?.code || rt.error || "generic");
      });
    return core.starting;
  }

  /** The loader's progress bar and its words. */
  progress(loaded: number, total: number): void {
    const bar = this.root.querySelector<HTMLProgressElement>(".dht-progress__bar");
    const text = this.root.querySelector<HTMLElement>(".dht-progress__text");
    if (!bar || !text || !total) return;
    const percent = Math.max(0, Math.min(100, Math.floor((loaded * 100) / total)));
    bar.value = percent;
    text.textContent =
      percent >= 100
        ? text.getAttribute("data-starting") || ""
        : (text.getAttribute("data-template") || "{percent}").replace("{percent}", this.digits(String(percent)));
  }

  /** The table's own rules: the page's profile and bots, and an author's fixed deal. */
  defaults(): { profile: string; difficulty: Difficulty; seed?: string } {
    const r = this.root;
    const d: { profile: string; difficulty: Difficulty; seed?: string } = {
      profile: r.getAttribute("data-profile") || "nepali-games",
      difficulty: difficultyOf(r.getAttribute("data-difficulty")),
    };
    const seed = r.getAttribute("data-seed"); // only an author's fixed deal; else a fresh one
    if (seed) d.seed = seed;
    return d;
  }

  /**
   * A request to restore the game in a link (`own`: the reader's own game, no "shared
   * game" notice). A link longer than the engine reads (data-max-hash) is cut to one
   * character more: the engine refuses it as too long and deals afresh with its notice.
   */
  restoreRequest(hash: string, own = false): TableRequest {
    const max = Number.parseInt(this.root.getAttribute("data-max-hash") || "", 10) || 100000;
    const mine = own || ownGames().includes(hash);
    const text = hash.length > max ? hash.slice(0, max + 1) : hash;
    return { op: "restore", hash: text, fallback: this.defaults(), own: mine };
  }

  begin(): Promise<unknown> {
    const core = this.state.core;
    const hash = tableHash();
    let payload: TableRequest;
    if (core.pending) {
      payload = core.pending;
      core.pending = null;
    } else if (core.live) {
      return Promise.resolve();
    } else if (hash || core.carried) {
      // (the game carried here, or chosen with Continue, before a link the address still shows)
      payload = this.restoreRequest(core.carried || hash, this.state.resume.resumeAsked || core.unplayed);
      core.carried = "";
      core.played = !core.unplayed;
      core.unplayed = false;
    } else if (!core.wanted || (this.root.hasAttribute("data-resumable") && !this.state.resume.fresh)) {
      // The engine is here, and nothing is dealt: the reader is about to press a loader
      // button, or has a game in progress to continue or leave. A later press starts again.
      core.starting = null;
      if (this.root.getAttribute("data-state") === "loading") this.setState("static");
      return Promise.resolve();
    } else if (this.root.hasAttribute("data-position-state")) {
      payload = {
        op: "position",
        state: this.root.getAttribute("data-position-state") || "",
        names: namesOf(parseJSON(this.root.getAttribute("data-position-names"))),
        difficulty: difficultyOf(this.root.getAttribute("data-difficulty")),
      };
    } else {
      payload = { op: "new", ...this.defaults() };
    }
    return this.send(payload);
  }

  /** One request to the engine, after the ones before it; its answer shown. */
  send(payload: TableRequest): Promise<Answer> {
    const rt = this.runtime;
    payload.table = this.id;
    payload.lang = this.lang;
    this.state.felt.playing?.skip(); // a new request: the rest of the bots' moves at once
    const run = (): Promise<Answer> => {
      if (!this.root.isConnected) return Promise.reject(new Error("the table left the page"));
      return rt.request(payload).then(
        (result) => {
          if (!this.root.isConnected) return result;
          return Promise.resolve(this.show(result, payload)).then(() => result);
        },
        (err: { code?: string } | null) => {
          this.setState("error", err?.code || rt.error || "engine");
          throw err;
        },
      );
    };
    const next = this.state.core.queue.then(run, run);
    this.state.core.queue = next.catch(() => {});
    return next;
  }

  private show(result: Answer, payload: TableRequest): Promise<void> | null {
    // How many answers the table has shown: lets tests (and tools) wait for one.
    this.root.setAttribute("data-answers", String(++this.state.core.answers));
    if (!result || result.ok === false) {
      this.say(result?.error?.text || "", true);
      if (!this.state.core.live) this.setState("error", "engine");
      return null;
    }
    if (!("html" in result) || !("summary" in result)) {
      // a settings answer: the rules form drawn for the rules chosen
      if ("settings_html" in result) this.render(result as unknown as BoardAnswer, null, null, null, payload);
      return null;
    }
    const answer = result as BoardAnswer;
    this.moments.emit("answer", answer, payload);
    const pace = PACE[prefs().speed];
    const pb = answer.playback;
    // The cards' places before a move (or a sort), for them to move from there.
    const before = payload.op === "act" || payload.op === "sort" ? picture(this) : null;
    if (pb && pace > 0 && typeof answer.html === "string") {
      return playBack(this, answer, payload, pace, before).then(() => this.moments.emit("shown", answer, payload));
    }
    // All at once: the moves go to the log; the status line says what starts and ends them.
    const status = pb ? [pb.say, pb.end].filter(Boolean).join(" ") : answer.status;
    this.render(answer, answer.html, status, before, payload);
    this.moments.emit("shown", answer, payload);
    return null;
  }

  /** Put an answer's board on the page; `status` is what the live region says. */
  render(
    result: Partial<BoardAnswer>,
    html: string | null,
    status: string | null,
    before: import("./motion").Picture | null,
    payload: TableRequest | null,
  ): void {
    const core = this.state.core;
    if (typeof html === "string") {
      const inLoader = !!this.loader?.contains(document.activeElement);
      const key = this.focusKey();
      this.board.innerHTML = html;
      core.live = true;
      this.setState("ready");
      this.moments.emit("board", before, payload);
      if (key !== null) {
        this.refocus(key);
      } else if (core.focusOnStart) {
        this.refocus(""); // the loader hides once the table is live: carry focus in
      } else if (inLoader) {
        // dealt without a press (the pointer resting on the table): the focus leaves
        // the loader, which hides, for the board, not for a control
        this.board.focus({ preventScroll: true });
      }
      core.focusOnStart = false;
    }
    if (typeof result.settings_html === "string" && this.settings) {
      const active = document.activeElement;
      const focusedId = active && this.settings.contains(active) ? active.id : null;
      this.settings.innerHTML = result.settings_html;
      if (focusedId) document.getElementById(focusedId)?.focus();
      delete result.settings_html; // (drawn once: the playback's last board does not draw it again)
    }
    if (typeof status === "string") this.say(status, !!result.refusal);
    if (typeof result.hash === "string" && result.hash) this.keepHash(result.hash);
  }

  private keepHash(hash: string): void {
    const core = this.state.core;
    core.lastHash = hash;
    if (!core.played) {
      // (the full table's game, for a reload before the reader's first move: place.ts)
      if (this.state.place.full) write("sessionStorage", FULL_GAME_KEY, hash);
      return;
    }
    remove("sessionStorage", FULL_GAME_KEY);
    rememberOwn(hash);
    this.moments.emit("hash", hash);
    if (tableHash() === hash) return;
    try {
      history.replaceState(history.state, "", `${location.pathname}${location.search}#${hash}`);
    } catch {
      /* a sandboxed page may refuse: the table still works */
    }
  }

  /** The focused control's key (data-key) while the focus is on the board: "" for one without. */
  focusKey(): string | null {
    const el = document.activeElement;
    if (!el || !this.board.contains(el)) return null;
    return el.closest("[data-key]")?.getAttribute("data-key") ?? "";
  }

  focus(el: HTMLElement): void {
    el.focus({ preventScroll: true });
    if (this.state.core.keyboard) el.scrollIntoView?.({ block: "nearest" });
  }

  refocus(key: string): void {
    const board = this.board;
    let el = key ? board.querySelector<HTMLElement>(`[data-key="${cssEscape(key)}"]`) : null;
    if (!el || (el as HTMLButtonElement).disabled || el.getAttribute("aria-disabled") === "true") {
      // The control is gone or no longer usable: what comes next, the hand when it is
      // time to throw, else the first control allowed.
      const throwing = board.querySelector('[data-action="throw"]:not(.dht-throw--later)');
      const card =
        board.querySelector<HTMLElement>('.dht-card[aria-pressed][tabindex="0"]') ||
        board.querySelector<HTMLElement>(".dht-card[aria-pressed]");
      el =
        (throwing && card) ||
        board.querySelector<HTMLElement>("[data-action]:not([aria-disabled]):not([disabled])") ||
        board.querySelector<HTMLElement>("[data-dht-match]:not([hidden]):not([disabled])") ||
        board.querySelector<HTMLElement>("[data-op]:not([disabled])") ||
        el;
    }
    if (el) this.focus(el);
  }

  /** Latin digits written in the table's language's digits. */
  digits(text: string): string {
    return localDigits(text, this.root.getAttribute("data-digits") || undefined);
  }
}
