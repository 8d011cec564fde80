/**
 * The Puzzles page's trainer (filters, one puzzle at a time, Previous and
 * Next, a link to each puzzle) and the daily puzzle on another page (the home
 * page). Which puzzles match a filter is read from the list the build wrote
 * (data-profile, data-themes, data-band).
 *
 * The address: #puzzle-ID shows that puzzle, #puzzles-PROFILE chooses that
 * profile, a table docked beside a puzzle (#play-puzzle-ID) shows that puzzle.
 * The address is the reader's (or anyone's) text: it is decoded within a
 * bound and without throwing (a malformed escape such as #puzzle-%E0%A4 is no
 * puzzle), never put into a selector (the profile is found among the form's
 * options by value), and ids are looked up in maps, so "__proto__" or
 * "toString" are just ids no puzzle has.
 */

import { reducedMotion } from "../lib/dom";
import { fill, LATIN, localDigits } from "../lib/text";
import { dailyId, type Entry, entries, onProgress } from "./progress";
import { clearStage, loadInto, mark, type Puzzle, type Token } from "./puzzle";

/** The longest fragment read (a puzzle id is far shorter). */
const MAX_FRAGMENT = 300;

interface Item {
  id: string;
  li: HTMLElement;
  profile: string;
  band: string;
  themes: string[];
}

interface Choices {
  profile: string;
  theme: string;
  band: string;
  unsolved: boolean;
}

/** The address's fragment, decoded; "" when it is too long or not a valid escape. */
export function fragment(): string {
  const raw = location.hash.replace(/^#/, "");
  if (!raw || raw.length > MAX_FRAGMENT) return "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return "";
  }
}

function field<E extends Element>(form: HTMLFormElement, name: string): E | null {
  return form.elements.namedItem(name) as E | null;
}

export class Trainer {
  readonly items: Item[];
  private readonly byId = new Map<string, Item>();
  private readonly src: string;
  private readonly digits: string;
  private readonly form: HTMLFormElement;
  private readonly stage: HTMLElement;
  private readonly found: HTMLElement;
  private readonly where: HTMLElement;
  private readonly prev: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private readonly link: HTMLAnchorElement;
  private readonly daily: string;
  private shown: Item[] = [];
  private current: { id: string; puzzle: Puzzle | null } | null = null;
  private token: Token | null = null;
  readonly onHash = () => this.fromAddress(true);

  constructor(private readonly root: HTMLElement) {
    const need = <E extends Element>(selector: string) => {
      const el = root.querySelector<E>(selector);
      if (!el) throw new Error(`the trainer has no ${selector}`);
      return el;
    };
    this.src = root.getAttribute("data-src") || "p/";
    this.digits = root.getAttribute("data-digits") || LATIN;
    this.form = need<HTMLFormElement>(".dh-trainer__filters");
    this.stage = need<HTMLElement>(".dh-trainer__stage");
    this.found = need<HTMLElement>(".dh-trainer__found");
    this.where = need<HTMLElement>(".dh-trainer__where");
    this.prev = need<HTMLButtonElement>(".dh-trainer__prev");
    this.next = need<HTMLButtonElement>(".dh-trainer__next");
    this.link = need<HTMLAnchorElement>(".dh-trainer__link");
    this.items = Array.from(root.querySelectorAll<HTMLElement>("[data-puzzle-entry]")).map((li) => {
      const item: Item = {
        id: li.getAttribute("data-puzzle-entry") || "",
        li,
        profile: li.getAttribute("data-profile") || "",
        band: li.getAttribute("data-band") || "",
        themes: (li.getAttribute("data-themes") || "").split(" ").filter(Boolean),
      };
      this.byId.set(item.id, item);
      return item;
    });
    this.daily = dailyId(root.getAttribute("data-daily"));
    const dailyButton = root.querySelector<HTMLElement>(".dh-trainer__daily");
    if (dailyButton) {
      dailyButton.setAttribute("data-dhumbal-daily", this.daily);
      dailyButton.addEventListener("click", () => void this.open(this.daily, true, true));
    }
    this.form.addEventListener("change", () => this.filter(true));
    this.form.addEventListener("submit", (ev) => ev.preventDefault());
    this.next.addEventListener("click", () => this.step(1));
    this.prev.addEventListener("click", () => this.step(-1));
    root.addEventListener("click", (ev) => {
      const a = (ev.target as Element | null)?.closest?.("[data-puzzle-entry] a");
      if (!a) return;
      ev.preventDefault();
      ev.stopPropagation(); // not Material's instant navigation: the puzzle comes into the stage
      void this.open(a.closest("[data-puzzle-entry]")?.getAttribute("data-puzzle-entry") || "", true, true);
    });
    root.addEventListener("dhumbal:answered", () => this.next.classList.add("dh-trainer__next--ready"));
    window.addEventListener("hashchange", this.onHash);
    onProgress(() => this.marks());
  }

  private choices(): Choices {
    const f = this.form;
    return {
      profile: field<HTMLSelectElement>(f, "profile")?.value || "",
      theme: field<HTMLSelectElement>(f, "theme")?.value || "",
      band: field<HTMLSelectElement>(f, "band")?.value || "",
      unsolved: !!field<HTMLInputElement>(f, "unsolved")?.checked,
    };
  }

  private matches(e: Item, c: Choices, data: Map<string, Entry>): boolean {
    if (c.profile && e.profile !== c.profile) return false;
    if (c.theme && !e.themes.includes(c.theme)) return false;
    if (c.band && e.band !== c.band) return false;
    if (c.unsolved && data.get(e.id)?.s && e.id !== this.current?.id) return false;
    return true;
  }

  /** Apply the filters to the list; `move`: show another puzzle if the one shown no longer matches. */
  filter(move: boolean): void {
    const c = this.choices();
    const data = entries();
    this.shown = this.items.filter((e) => {
      const ok = this.matches(e, c, data);
      e.li.hidden = !ok;
      return ok;
    });
    const n = this.shown.length;
    const found = this.found;
    const tpl =
      n === 0
        ? found.getAttribute("data-none")
        : n === 1
          ? found.getAttribute("data-template-one")
          : found.getAttribute("data-template");
    found.textContent = fill(tpl, { count: n }, this.digits);
    const count = this.root.querySelector(".dh-trainer__shown");
    if (count) count.textContent = `(${localDigits(String(n), this.digits)})`;
    const shownNow = this.current ? this.byId.get(this.current.id) : undefined;
    if (move && (!shownNow || !this.shown.includes(shownNow))) {
      const first = this.firstUnsolved(0);
      if (first) void this.open(first.id, false, true);
      else this.clear();
    }
    this.navState();
  }

  private clear(): void {
    if (this.token) this.token.cancelled = true;
    clearStage(this.stage);
    this.current = null;
    this.link.hidden = true;
  }

  private firstUnsolved(from: number): Item | null {
    const data = entries();
    const n = this.shown.length;
    for (let k = 0; k < n; k++) {
      const e = this.shown[(from + k) % n];
      if (e && !data.get(e.id)?.s) return e;
    }
    return this.shown[from % n] || null;
  }

  private index(): number {
    const item = this.current ? this.byId.get(this.current.id) : undefined;
    return item ? this.shown.indexOf(item) : -1;
  }

  /** Next: the next puzzle not solved yet, in the list's order (from the start again at its end); Previous: the one before. */
  private step(dir: number): void {
    const n = this.shown.length;
    if (!n) return;
    const i = this.index();
    const target = dir > 0 ? this.firstUnsolved(i + 1) : this.shown[(i - 1 + n) % n];
    if (target) void this.open(target.id, true, true);
  }

  private navState(): void {
    const n = this.shown.length;
    const i = this.index();
    this.prev.disabled = n < 2 || i < 0;
    this.next.disabled = n === 0 || (n === 1 && i === 0);
    this.where.textContent =
      i >= 0 ? fill(this.where.getAttribute("data-template"), { index: i + 1, count: n }, this.digits) : "";
  }

  /**
   * Show puzzle `id`: its file fetched into the stage, its address in the bar
   * (`remember`), the trainer scrolled to (`scroll`) and its title focused (`focus`).
   */
  open(id: string, focus: boolean, remember: boolean, scroll = false): Promise<void> {
    const entry = this.byId.get(id);
    if (!entry) return Promise.resolve();
    if (!this.shown.includes(entry)) {
      this.form.reset(); // a puzzle the filters hide: every puzzle again
      this.filter(false);
    }
    if (this.token) this.token.cancelled = true;
    const token: Token = { cancelled: false };
    this.token = token;
    const current = { id, puzzle: null as Puzzle | null };
    this.current = current;
    this.next.classList.remove("dh-trainer__next--ready");
    for (const item of this.items) item.li.removeAttribute("aria-current");
    entry.li.setAttribute("aria-current", "true");
    this.navState();
    if (remember) {
      try {
        history.replaceState(history.state, "", `${location.pathname}${location.search}#puzzle-${id}`);
      } catch {
        /* the address stays; the puzzle is shown all the same */
      }
    }
    this.link.href = `#puzzle-${id}`;
    this.link.hidden = false;
    return loadInto(this.stage, this.src, id, id === this.daily, token).then((puzzle) => {
      if (token.cancelled) return;
      current.puzzle = puzzle;
      if (!puzzle) return;
      if (focus) this.stage.querySelector<HTMLElement>(".dh-puzzle__title")?.focus({ preventScroll: true });
      if (focus || scroll) this.root.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
    });
  }

  /** The address's puzzle or profile, if it names one; true when it did. */
  fromAddress(focus: boolean): boolean {
    const h = fragment();
    let m = /^(?:play-)?puzzle-(.+)$/.exec(h);
    const id = m?.[1];
    if (id && this.byId.has(id)) {
      if (this.current?.id !== id) void this.open(id, focus, false, true);
      return true;
    }
    m = /^puzzles-(.+)$/.exec(h);
    const profile = m?.[1];
    const select = field<HTMLSelectElement>(this.form, "profile");
    if (profile && select && Array.from(select.options).some((o) => o.value === profile)) {
      select.value = profile;
      this.filter(true);
      if (focus) this.root.scrollIntoView({ block: "start" });
      return true;
    }
    return false;
  }

  marks(): void {
    const data = entries();
    for (const e of this.items) mark(e.li, data.get(e.id));
    this.current?.puzzle?.show();
  }

  start(): void {
    this.filter(false);
    this.marks();
    if (this.fromAddress(false)) return;
    // No address: today's puzzle if it is not solved yet, else the first not solved.
    const daily = this.byId.get(this.daily);
    if (daily && !entries().get(daily.id)?.s) void this.open(daily.id, false, false);
    else {
      const first = this.firstUnsolved(0);
      if (first) void this.open(first.id, false, false);
    }
  }

  stop(): void {
    window.removeEventListener("hashchange", this.onHash);
  }
}

/** The daily puzzle on another page (the home page). */
export function daily(root: HTMLElement): void {
  const id = dailyId(root.getAttribute("data-daily"));
  root.setAttribute("data-dhumbal-daily", id);
  const link = root.querySelector<HTMLAnchorElement>(".dh-daily__link");
  if (link && id) link.href = `${root.getAttribute("data-page") || ""}#puzzle-${id}`;
  const stage = root.querySelector<HTMLElement>(".dh-trainer__stage");
  if (id && stage) void loadInto(stage, root.getAttribute("data-src") || "", id, true, null);
}
