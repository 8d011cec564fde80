/**
 * Worked examples, one step at a time; the comparison's "differences only".
 *
 * Without this module every step of an example is shown, one under the
 * other, each with its diagram (the page is complete as built). This only
 * adds a step-through control: the example's control bar (built into the
 * page, hidden until now), then one step at a time. Previous / Next, the
 * arrow keys, Home and End move between steps while the focus is in the
 * example; "All steps" shows every step again. The counter reads the step's
 * own label ("Step 3 of 6") and is announced politely. A link to a step
 * (#example-ID-step-N) opens that step; any other address, however
 * malformed, opens the first. The diagrams after the first step are not in
 * the page: they come when the reader shows intent or moves on (boards.ts).
 */

/** How the later boards' module is had (entries/site.ts gives it: `import("./boards.js")`). */
type BoardsCode = () => Promise<{ fillBoards: (root: HTMLElement, slots: HTMLElement[]) => Promise<void> }>;
let boardsCode: BoardsCode = () => Promise.reject(new Error("no boards' module"));

export function useBoardsCode(load: BoardsCode): void {
  boardsCode = load;
}

/** The longest step id a link names; a longer or malformed address opens the first step. */
const MAX_STEP_ID = 200;

const steppers = new WeakMap<Element, StepThrough>();

/** The step a link names (#example-ID-step-N), or "" for any other address (a game, #%, #%E0%A4, a long one). */
function hashTarget(): string {
  const raw = String(location.hash || "").slice(1);
  if (!raw || raw.length > 3 * MAX_STEP_ID) return "";
  try {
    const id = decodeURIComponent(raw);
    return id.length <= MAX_STEP_ID ? id : "";
  } catch {
    return "";
  }
}

class StepThrough {
  readonly steps: HTMLElement[];
  index = 0;
  showAll = false;
  private readonly prev: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private readonly all: HTMLButtonElement;
  private readonly where: HTMLElement;
  /** The places of the diagrams after the first step, by step. */
  private readonly slots: (HTMLElement | null)[];
  /** The later boards, once asked for (forgotten if they could not be had, to try again). */
  private boards: Promise<void> | null = null;
  /** They could not be had: a pointer's or the focus's intent does not ask again, a move does. */
  private failedOnce = false;

  constructor(private readonly root: HTMLElement) {
    const bar = root.querySelector<HTMLElement>(".dh-stepper");
    const prev = bar?.querySelector<HTMLButtonElement>('[data-step-go="prev"]');
    const next = bar?.querySelector<HTMLButtonElement>('[data-step-go="next"]');
    const all = bar?.querySelector<HTMLButtonElement>('[data-step-go="all"]');
    const where = bar?.querySelector<HTMLElement>(".dh-stepper__where");
    if (!bar || !prev || !next || !all || !where) throw new Error("an example's step control is incomplete");
    this.prev = prev;
    this.next = next;
    this.all = all;
    this.where = where;
    this.steps = Array.from(root.querySelectorAll<HTMLElement>(".dh-steps > .dh-step"));
    this.slots = this.steps.map((step) => step.querySelector<HTMLElement>(":scope > .dh-diagram--later[data-board]"));
    const intent = () => {
      if (!this.failedOnce) this.askBoards();
    };
    bar.addEventListener("pointerover", intent, { passive: true });
    bar.addEventListener("focusin", intent);
    bar.addEventListener("click", (ev) => {
      const button = (ev.target as Element | null)?.closest?.<HTMLButtonElement>("[data-step-go]");
      if (!button || button.disabled) return;
      const go = button.getAttribute("data-step-go");
      if (go === "prev") this.go(this.index - 1);
      else if (go === "next") this.go(this.index + 1);
      else this.toggleAll();
    });
    root.addEventListener("keydown", (ev) => this.onKey(ev));
    // The first step is set while the bar is still hidden, so that its live counter
    // announces the reader's moves only, not the page load.
    this.go(this.fromHash());
    bar.hidden = false;
    root.setAttribute("data-stepper", "on");
  }

  private fromHash(): number {
    const id = hashTarget();
    const at = id ? this.steps.findIndex((step) => step.id === id) : -1;
    return Math.max(0, at);
  }

  /** The later boards asked for (once; again after a failure): each put in its place, or the failure said there. */
  private askBoards(): void {
    const slots = this.slots.filter((slot): slot is HTMLElement => !!slot);
    if (this.boards || !slots.some((slot) => !slot.hasAttribute("data-filled"))) return;
    // The place of a board not come yet keeps the height of the diagram on screen: nothing jumps.
    const shown = this.steps[this.index]?.querySelector<HTMLElement>(":scope > .dh-diagram");
    const height =
      shown && !this.root.style.getPropertyValue("--dh-board-h") ? shown.getBoundingClientRect().height : 0;
    if (height > 0) this.root.style.setProperty("--dh-board-h", `${Math.ceil(height)}px`);
    for (const slot of slots) if (!slot.hasAttribute("data-filled")) slot.setAttribute("aria-busy", "true");
    this.boards = boardsCode().then((m) => m.fillBoards(this.root, slots));
    this.boards.catch((err: unknown) => {
      this.boards = null;
      this.failedOnce = true;
      this.failed();
      console.error(err);
    });
  }

  private failed(): void {
    const text = this.root.querySelector(".dh-stepper")?.getAttribute("data-failed") || "";
    for (const slot of this.slots) {
      if (!slot || slot.hasAttribute("data-filled")) continue;
      slot.removeAttribute("aria-busy");
      let note = slot.querySelector<HTMLElement>(":scope > .dh-dlater__failed");
      if (!note) {
        note = document.createElement("p");
        note.className = "dh-dlater__failed";
        slot.prepend(note);
      }
      note.textContent = text;
    }
  }

  go(index: number): void {
    const focused = document.activeElement;
    const last = this.steps.length - 1;
    const wanted = Math.max(0, Math.min(last, index));
    if (this.showAll || this.slots[wanted]) this.askBoards();
    this.index = wanted;
    this.steps.forEach((step, i) => {
      step.hidden = !this.showAll && i !== this.index;
    });
    this.prev.disabled = this.showAll || this.index === 0;
    this.next.disabled = this.showAll || this.index === last;
    const label = this.steps[this.index]?.querySelector(".dh-step__label");
    this.where.textContent = this.showAll ? "" : label?.textContent || "";
    // A button just disabled (Next on the last step) loses the focus: the other one gets it.
    if ((focused === this.next || focused === this.prev) && (focused as HTMLButtonElement).disabled) {
      (focused === this.next ? this.prev : this.next).focus();
    }
  }

  private toggleAll(): void {
    this.showAll = !this.showAll;
    this.all.setAttribute("aria-pressed", this.showAll ? "true" : "false");
    this.root.setAttribute("data-stepper", this.showAll ? "all" : "on");
    this.go(this.index);
  }

  private onKey(ev: KeyboardEvent): void {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || this.showAll) return;
    const target = ev.target as HTMLElement;
    const tag = target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable) return;
    let index = this.index;
    if (ev.key === "ArrowRight") index += 1;
    else if (ev.key === "ArrowLeft") index -= 1;
    else if (ev.key === "Home") index = 0;
    else if (ev.key === "End") index = this.steps.length - 1;
    else return;
    ev.preventDefault();
    this.go(index);
  }
}

function setupExamples(): void {
  for (const root of document.querySelectorAll<HTMLElement>(".dh-example[data-steps]")) {
    if (steppers.has(root) || !root.querySelector(".dh-stepper")) continue;
    if (root.querySelectorAll(".dh-steps > .dh-step").length < 2) continue;
    // One example's failure leaves it complete (every step shown) and does not stop the others'.
    try {
      steppers.set(root, new StepThrough(root));
    } catch (err) {
      for (const step of root.querySelectorAll<HTMLElement>(".dh-steps > .dh-step")) step.hidden = false;
      console.error(err);
    }
  }
}

const switches = new WeakSet<Element>();

// "Differences only" works through CSS :has(); the class does the same where :has() is not supported.
function setupCompare(): void {
  for (const box of document.querySelectorAll<HTMLInputElement>("[data-dh-compare] [data-dh-differences-only]")) {
    if (switches.has(box)) continue;
    switches.add(box);
    const sync = () => box.closest("[data-dh-compare]")?.classList.toggle("dh-compare--differences", box.checked);
    box.addEventListener("change", sync);
    sync();
  }
}

export function setupContent(): void {
  setupExamples();
  setupCompare();
}
