/**
 * One puzzle: fetched from its file (drawn and graded by the engine when the
 * site was built, sitegen/dhumbal_site/puzzles.py: one answer panel per legal
 * move, named by the move: data-answer="throw KS KH", "take stock", "call"),
 * then played as at the table: mark cards and press Throw, tap the stock or a
 * face-up card, press Call; that move's panel is shown and the progress kept.
 * Whether marked cards may be thrown, and why not, is the engine's verdict on
 * every set of the hand's cards (data-verdicts, data-reasons, as on the
 * table's Throw button). It never loads the engine: "Play from here" is the
 * table's own button, which starts the engine only when pressed.
 */

import { reducedMotion } from "../lib/dom";
import { parseJSON, printed } from "../lib/text";
import { type Entry, entries, record } from "./progress";

/**
 * Its "Solved" or "Tried" mark, made only for a puzzle the reader has met: the
 * words come once from the list's (or the puzzle's) data-solved / data-tried,
 * so 165 entries carry no hidden marks (two elements each, a Lighthouse cost).
 */
export function mark(el: Element, entry: Entry | undefined): void {
  const host = el.querySelector("[data-status-host]") ?? el;
  const state = entry?.s ? "solved" : entry?.t ? "tried" : "";
  const words = host.closest("[data-solved]")?.getAttribute(`data-${state}`);
  let shown = host.querySelector<HTMLElement>(":scope > .dh-puzzle__status");
  if (!state || !words) {
    if (shown?.previousSibling?.nodeType === Node.TEXT_NODE) shown.previousSibling.remove();
    shown?.remove();
    return;
  }
  if (!shown) {
    shown = document.createElement("span");
    host.append(" ", shown);
  }
  shown.className = state === "tried" ? "dh-puzzle__status dh-puzzle__status--tried" : "dh-puzzle__status";
  shown.setAttribute("data-status", state);
  shown.textContent = words;
}

export class Puzzle {
  readonly id: string;
  private readonly hand: HTMLButtonElement[];
  private readonly throwButton: HTMLElement | null;
  private readonly why: HTMLElement | null;
  private readonly answer: HTMLElement | null;
  private answered = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly daily: boolean,
  ) {
    this.id = root.getAttribute("data-dhumbal-puzzle") || "";
    this.hand = Array.from(root.querySelectorAll<HTMLButtonElement>(".dh-pz-hand button[data-card]"));
    this.throwButton = root.querySelector(".dh-pz-throw");
    this.why = root.querySelector(".dh-pz-why:not(.dh-pz-why--call)");
    this.answer = root.querySelector(".dh-pz-answer");
    // Today's puzzle says so where its number was (the number means nothing to a visitor).
    const number = daily ? root.querySelector<HTMLElement>(".dh-puzzle__number[data-today]") : null;
    if (number) number.textContent = number.getAttribute("data-today") || number.textContent;
    root.addEventListener("click", (ev) => this.onClick(ev));
    root.addEventListener("keydown", (ev) => this.onKey(ev));
    this.show();
  }

  private onClick(ev: MouseEvent): void {
    const target = ev.target as Element | null;
    if (!target?.closest) return;
    const card = target.closest<HTMLButtonElement>(".dh-pz-hand button[data-card]");
    if (card) {
      if (!this.answered) this.toggle(card);
      return;
    }
    if (target.closest(".dh-pz-throw")) {
      if (!this.answered) this.throwMarked();
      return;
    }
    const move = target.closest<HTMLElement>(".dh-pz-move");
    if (move) {
      if (this.answered) return;
      if (move.getAttribute("aria-disabled") === "true" || !move.getAttribute("data-move")) {
        const why = move.getAttribute("aria-describedby");
        this.say((why && document.getElementById(why)?.textContent) || "");
        return;
      }
      this.choose(move.getAttribute("data-move") || "", move);
      return;
    }
    if (target.closest(".dh-pz-again")) this.reset();
  }

  /** The hand is one stop for Tab; the arrow keys move between its cards. */
  private onKey(ev: KeyboardEvent): void {
    const card = (ev.target as Element | null)?.closest?.<HTMLButtonElement>(".dh-pz-hand button[data-card]");
    if (!card || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const i = this.hand.indexOf(card);
    let next = -1;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") next = Math.min(this.hand.length - 1, i + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") next = Math.max(0, i - 1);
    else if (ev.key === "Home") next = 0;
    else if (ev.key === "End") next = this.hand.length - 1;
    else return;
    ev.preventDefault();
    this.focusCard(next);
  }

  private focusCard(i: number): void {
    this.hand.forEach((card, k) => {
      card.tabIndex = k === i ? 0 : -1;
    });
    this.hand[i]?.focus();
  }

  private toggle(card: HTMLButtonElement): void {
    const on = card.getAttribute("aria-pressed") !== "true";
    card.setAttribute("aria-pressed", on ? "true" : "false");
    card.classList.toggle("dhc--sel", on);
    this.focusCard(this.hand.indexOf(card));
    this.say(this.verdict());
  }

  private marked(): HTMLButtonElement[] {
    return this.hand.filter((b) => b.getAttribute("aria-pressed") === "true");
  }

  /** The engine's verdict on the marked cards: "" when they may be thrown, else why not. */
  private verdict(): string {
    const button = this.throwButton;
    const marked = this.marked();
    if (!button || !marked.length) return "";
    const codes = (button.getAttribute("data-cards") || "").split(" ");
    let mask = 0;
    for (const b of marked) {
      const i = codes.indexOf(b.getAttribute("data-card") || "");
      if (i >= 0) mask |= 1 << i;
    }
    const digit = (button.getAttribute("data-verdicts") || "").charAt(mask - 1);
    if (!digit || digit === "0") return "";
    const reasons = parseJSON(button.getAttribute("data-reasons") || "[]");
    const reason: unknown = Array.isArray(reasons) ? reasons[Number.parseInt(digit, 36)] : "";
    return String(reason || "")
      .split("{cards}")
      .join(marked.map((b) => printed(b.getAttribute("data-card") || "")).join(" "));
  }

  private throwMarked(): void {
    const marked = this.marked();
    if (!marked.length) {
      this.say(this.throwButton?.getAttribute("data-none") || "");
      return;
    }
    const why = this.verdict();
    if (why) {
      this.say(why);
      return;
    }
    this.choose(`throw ${marked.map((b) => b.getAttribute("data-card")).join(" ")}`, this.throwButton);
  }

  private say(text: string): void {
    if (this.why) this.why.textContent = text || "";
  }

  /** The reader's move: its answer shown where the eyes are, and the progress kept. */
  private choose(code: string, control: Element | null): void {
    if (!this.answer) return;
    let found: HTMLElement | null = null;
    for (const panel of this.answer.querySelectorAll<HTMLElement>("[data-answer]")) {
      const mine = panel.getAttribute("data-answer") === code;
      panel.hidden = !mine;
      if (mine) found = panel;
    }
    this.say("");
    if (!found) return;
    for (const more of this.answer.querySelectorAll<HTMLElement>("[data-why]")) {
      more.hidden = more.getAttribute("data-why") !== code;
    }
    this.answered = true;
    this.root.setAttribute("data-answered", code);
    control?.classList.add("dh-pz-chosen");
    const best = found.classList.contains("dh-pz-verdict--best");
    this.root.setAttribute("data-result", best ? "best" : "other");
    this.answer.hidden = false;
    this.answer.focus({ preventScroll: true });
    this.reveal(this.answer);
    record(this.id, best, this.daily);
    this.root.dispatchEvent(new CustomEvent("dhumbal:answered", { bubbles: true, detail: { id: this.id, best } }));
  }

  /** The verdict, the reader's move and its buttons in view at once, below the page's sticky
   * header (the answer's scroll-margin): on a phone the reasons that follow may take a scroll. */
  private reveal(answer: HTMLElement): void {
    const top = answer.getBoundingClientRect().top;
    const actions = answer.querySelector(".dh-pz-answer__actions");
    const bottom = actions ? actions.getBoundingClientRect().bottom : top;
    const header = document.querySelector(".md-header");
    const below = header ? header.getBoundingClientRect().bottom : 0;
    if (top >= below && bottom <= window.innerHeight) return;
    answer.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
  }

  private reset(): void {
    this.answered = false;
    this.root.removeAttribute("data-answered");
    this.root.removeAttribute("data-result");
    if (this.answer) this.answer.hidden = true;
    for (const chosen of this.root.querySelectorAll(".dh-pz-chosen")) chosen.classList.remove("dh-pz-chosen");
    for (const b of this.hand) {
      b.setAttribute("aria-pressed", "false");
      b.classList.remove("dhc--sel");
    }
    this.say("");
    if (this.hand.length) this.focusCard(0);
    else this.root.querySelector<HTMLElement>(".dh-pz-move:not([aria-disabled])")?.focus();
  }

  show(): void {
    mark(this.root, entries().get(this.id));
  }
}

// -- fetching a puzzle into a stage -------------------------------------------------------

const fetched = new Map<string, Promise<string>>();

function fetchPuzzle(url: string): Promise<string> {
  let text = fetched.get(url);
  if (!text) {
    text = fetch(url, { credentials: "same-origin" }).then((r) => {
      if (!r.ok) throw new Error(String(r.status));
      return r.text();
    });
    fetched.set(url, text);
    text.catch(() => fetched.delete(url));
  }
  return text;
}

let release: (stage: Element) => void = () => {};

/** What is done with the stage before a puzzle replaces it (a table docked there goes home: entries/puzzles.ts). */
export function useRelease(fn: (stage: Element) => void): void {
  release = fn;
}

function releaseTable(stage: Element): void {
  release(stage);
}

export interface Token {
  cancelled: boolean;
}

/** Show puzzle `id` in `stage`; resolves with its Puzzle (null if it could not be loaded). */
export function loadInto(
  stage: HTMLElement,
  src: string,
  id: string,
  daily: boolean,
  token: Token | null,
): Promise<Puzzle | null> {
  stage.setAttribute("aria-busy", "true");
  stage.setAttribute("data-state", "loading");
  return fetchPuzzle(`${src}${encodeURIComponent(id)}.html`).then(
    (html) => {
      if (token?.cancelled) return null;
      releaseTable(stage);
      stage.innerHTML = html;
      stage.removeAttribute("aria-busy");
      stage.setAttribute("data-state", "shown");
      const root = stage.querySelector<HTMLElement>("[data-dhumbal-puzzle]");
      return root ? new Puzzle(root, daily) : null;
    },
    () => {
      if (token?.cancelled) return null;
      releaseTable(stage);
      stage.removeAttribute("aria-busy");
      stage.setAttribute("data-state", "failed");
      const p = document.createElement("p");
      p.className = "dh-trainer__failed";
      p.textContent = stage.getAttribute("data-failed") || "";
      stage.replaceChildren(p);
      return null;
    },
  );
}

export function clearStage(stage: HTMLElement): void {
  releaseTable(stage);
  stage.replaceChildren();
}
