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
 * malformed, opens the first.
 */

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

  go(index: number): void {
    const focused = document.activeElement;
    const last = this.steps.length - 1;
    this.index = Math.max(0, Math.min(last, index));
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
