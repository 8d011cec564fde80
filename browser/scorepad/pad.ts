/**
 * The score pad ([data-dhumbal-scorepad]): a match played with real cards,
 * every deal settled by the rules engine in the table's worker.
 *
 * The page carries the pad as the engine drew it at build time
 * (dhumbal/view/padview.py): the set-up form, the empty places of the sheet,
 * and every text shown (data-strings, from the catalogs). This module decides
 * no rule. It keeps what the table typed (sheet.ts: the rules, the names, the
 * first dealer, and per deal who called and each hand's total) in local
 * storage, builds the form for the next deal with its number pad (entry.ts),
 * and sends the whole sheet, with one change, to dhumbal.table.web (op
 * "scorepad"): the engine settles every deal from the start and sends back
 * the sheet drawn, who deals next and who plays, the CSV export, or the
 * reason it refuses the change (then nothing is kept and the entries stay
 * for mending). Until the engine is ready the pad takes input; a change waits
 * (kept, keep.ts) and is settled the moment the engine answers. A few facts
 * of the engine's last answer are kept too, so a reload shows the entry form
 * and the totals at once (quick.ts).
 *
 * This module holds the pad's state, its storage, its talk with the engine
 * and its drawing; what each press and key does is controls.ts, questions
 * and undo offers ask.ts, the set-up's correction fix.ts, players joining or
 * leaving seats.ts. Share, the CSV export and a shared link (#pad=…) are
 * links.ts. Nothing leaves the device except by Share.
 */

import type { Runtime } from "../entries/runtime";
import { frugal } from "../lib/connection";
import { element } from "../lib/dom";
import { localDigits } from "../lib/text";
import type { Request, ScorepadResponse, Sheet } from "../protocol/messages";
import { type AskPad, offerUndo } from "./ask";
import { onChange, onClick, onInput, onSubmit, settleDeal } from "./controls";
import { drawEntry, fillSetup, type PadForms } from "./entry";
import { Keeper } from "./keep";
import { padLink, readLink } from "./links";
import { quickTotals } from "./quick";
import { draftAfterJoin } from "./seats";
import {
  type Change,
  type Draft,
  emptyState,
  fingerprint,
  readDraft,
  STORE,
  type State,
  type View,
  viewOf,
} from "./sheet";
import { Typist } from "./typing";

function need<E extends Element>(root: Element, selector: string): E {
  const el = root.querySelector<E>(selector);
  if (!el) throw new Error(`the score pad has no ${selector}`);
  return el;
}

export class Pad implements PadForms, AskPad {
  readonly lang: string;
  private readonly digits: string;
  private readonly s: Record<string, string>;
  private readonly status: HTMLElement | null;
  readonly setupForm: HTMLFormElement;
  readonly match: HTMLElement;
  readonly entry: HTMLFormElement;
  readonly places: Record<string, HTMLElement>;
  readonly ask: HTMLElement;
  readonly linkAsk: HTMLElement;
  readonly linkBox: HTMLElement;
  state: State = emptyState();
  private busy = false;
  inflight: Change | null = null; // the change on its way to the engine
  private redraw = false; // the sheet is to be drawn again by the engine (another language, a new set-up)
  readonly typist = new Typist(this);
  private engineStarted = false;
  private readonly keeper = new Keeper();

  constructor(
    readonly root: HTMLElement,
    readonly runtime: Runtime,
  ) {
    this.lang = root.getAttribute("data-lang") || "en";
    this.digits = root.getAttribute("data-digits") || "0123456789";
    let strings: unknown = {};
    try {
      strings = JSON.parse(root.getAttribute("data-strings") || "{}");
    } catch {
      strings = {};
    }
    this.s = strings && typeof strings === "object" ? (strings as Record<string, string>) : {};
    this.status = root.querySelector("[data-pad-status]");
    this.setupForm = need(root, "[data-pad-setup]");
    this.match = need(root, "[data-pad-match]");
    this.entry = need(root, "[data-pad-entry]");
    this.places = {
      head: need(root, "[data-pad-head]"),
      totals: need(root, "[data-pad-totals]"),
      latest: need(root, "[data-pad-latest]"),
      end: need(root, "[data-pad-end-parts]"),
      earlier: need(root, "[data-pad-earlier]"),
      evening: need(root, "[data-pad-evening]"),
      strip: need(root, "[data-pad-strip]"),
    };
    this.ask = need(root, "[data-pad-ask]");
    this.linkAsk = need(root, "[data-pad-link-ask]");
    this.linkBox = need(root, "[data-pad-link]");
    root.addEventListener("click", (ev) => onClick(this, ev));
    root.addEventListener("submit", (ev) => onSubmit(this, ev));
    root.addEventListener("input", (ev) => onInput(this, ev));
    root.addEventListener("change", (ev) => onChange(this, ev));
    root.addEventListener("keydown", (ev) => this.typist.onKey(ev));
    root.addEventListener("focusin", (ev) => this.typist.onFocus(ev));
    // Using the pad is intent enough: the engine starts while the names are typed (on a
    // line the browser asks to spare, only when there is a deal to settle).
    root.addEventListener("pointerdown", () => this.startEngine(true));
    root.addEventListener("focusin", () => this.startEngine(true));
    // A link pasted into this page's address: read as on arrival.
    // Another tab or window of this site changed the kept sheet: this one takes it up.
    window.addEventListener("storage", (ev) => {
      if (!document.contains(root) || (ev.key !== STORE && ev.key !== null)) return;
      if (this.sync()) this.adopted(null);
    });
    window.addEventListener("hashchange", () => {
      if (!document.contains(root)) return;
      const hash = window.location.hash || "";
      if (hash.indexOf("#pad=") === 0) readLink(this, hash.slice(5));
    });
    this.init();
  }

  t(key: string, params?: Record<string, string | number>): string {
    let text = this.s[key] || "";
    for (const [k, v] of Object.entries(params || {})) text = text.split(`{${k}}`).join(String(v));
    return text;
  }

  num(n: number | string): string {
    return localDigits(String(n), this.digits);
  }

  sheet(): Sheet | null {
    return this.state.sheet;
  }

  draft(): Draft | null {
    return this.state.draft;
  }

  setDraft(draft: Draft): void {
    this.state.draft = draft;
  }

  say(text: string, urgent = false): void {
    if (!this.status) return;
    this.status.setAttribute("role", urgent ? "alert" : "status");
    this.status.textContent = text || "";
    this.status.hidden = !text;
  }

  /** Keep the state; another tab's newer sheet is taken up first, never written over. */
  save(): void {
    if (this.sync()) queueMicrotask(() => this.adopted(null));
    if (!this.keeper.save(this.state)) this.say(this.t("store_full"), true);
  }

  /** Take up the sheet another tab kept (keep.ts); true when there was one. */
  private sync(): boolean {
    const theirs = this.keeper.theirs(this.state);
    if (theirs) this.state = theirs;
    return !!theirs;
  }

  /** After another tab's sheet is taken up: drawn again, and said; `lost` the deal that was not settled here. */
  private adopted(lost: number | null): void {
    this.render();
    this.say(lost === null ? this.t("other_tab") : this.t("other_tab_lost", { number: this.num(lost) }), true);
    if (this.state.sheet) {
      this.redraw = true;
      this.flush();
    }
  }

  private init(): void {
    // never an empty pad over a sheet that could not be read: it is set aside first
    const kept = this.keeper.load();
    if (kept.state) this.state = kept.state;
    fillSetup(this);
    this.render();
    if (kept.bad) this.say(this.t(this.keeper.frozen ? "store_frozen" : "store_bad"), true);
    else if (kept.dropped.length) this.say(this.t("store_part"), true);
    if (kept.dropped.length) this.save();
    const hash = window.location.hash || "";
    if (hash.indexOf("#pad=") === 0) {
      readLink(this, hash.slice(5));
    } else if (this.state.sheet) {
      this.startEngine(true);
      const view = this.state.view;
      if (this.state.pending) this.flush();
      else if (!view || view.lang !== this.lang) this.send(null);
    }
  }

  // -- the engine -----------------------------------------------------------------------

  /** As the table does: a browser that asks to save data, or a 2G/3G line, waits for a press. */
  startEngine(early = false): void {
    if (this.engineStarted || (early && frugal())) return;
    this.engineStarted = true;
    this.runtime.onStatus((status) => {
      if (status === "error" && (this.busy || this.state.pending)) this.showFailure();
    });
    this.runtime.ensure().catch(() => {});
  }

  showFailure(): void {
    this.say(this.t("failed"), true);
    const retry = element("button", { type: "button", class: "md-button dhp-btn" }, this.t("retry"));
    retry.addEventListener("click", () => {
      this.say("");
      this.runtime.retry().catch(() => {});
      this.busy = false;
      this.flush();
    });
    this.status?.append(" ", retry);
  }

  /** Send the sheet with `change` (or none, to draw it again); one request at a time. */
  send(change: Change | null): void {
    this.state.pending = change ? change : this.state.pending;
    if (!change && !this.state.pending) this.redraw = true;
    this.save();
    this.flush();
  }

  private flush(): void {
    const rt = this.runtime;
    if (this.busy || !this.state.sheet) return;
    const change = this.state.pending;
    if (!change && !this.redraw) return;
    this.redraw = false;
    this.busy = true;
    this.inflight = change;
    this.startEngine();
    if (rt.status !== "ready" && (change || !this.status?.textContent)) {
      // (a sheet drawn again does not hide what is being said: a part dropped, another tab)
      const deal = change && (change.kind === "add" || change.kind === "edit" || change.kind === "undo");
      this.say(deal ? this.t("waiting", { number: this.num(this.changeNumber(change)) }) : this.t("loading"));
    }
    this.markBusy(true);
    const req: Request = { op: "scorepad", lang: this.lang, sheet: this.state.sheet };
    if (this.state.setup) req.setup = this.state.setup;
    if (change) req.change = change;
    if (this.state.evening.length) req.evening = this.state.evening;
    const sent = JSON.stringify(this.state.sheet);
    rt.request(req as Request & { op: "scorepad" }).then(
      (res) => {
        this.busy = false;
        this.inflight = null;
        this.markBusy(false);
        this.answered(res, change, sent);
        this.flush();
      },
      () => {
        this.busy = false;
        this.inflight = null;
        this.markBusy(false);
        this.showFailure();
      },
    );
  }

  /** Send `change` with the sheet (the set-up's correction, fix.ts). */
  change(change: Change): void {
    this.send(change);
  }

  private changeNumber(change: Change): number {
    if (change.kind === "edit" || change.kind === "undo") return change.index;
    return this.state.sheet ? this.state.sheet.deals.length + 1 : 1;
  }

  private markBusy(busy: boolean): void {
    this.root.setAttribute("data-busy", busy ? "true" : "false");
  }

  /**
   * The engine's answer to `change` on the sheet `sent` (its JSON; undefined for a shared
   * sheet opened). An error answer changes nothing kept: the sheet stays as it was, and
   * what was typed stays for mending. A sheet changed meanwhile in another tab is not
   * written over: it is taken up, and the change here is said not to be settled.
   */
  answered(
    res: ScorepadResponse | { ok: false; error?: { text: string } } | null,
    change: Change | null,
    sent?: string,
  ): void {
    if (sent !== undefined) {
      this.sync();
      const now = JSON.stringify(this.state.sheet);
      if (now !== sent && !(res?.ok && now === JSON.stringify(res.sheet))) {
        const typed = change && (change.kind === "add" || change.kind === "edit");
        this.adopted(typed ? this.changeNumber(change) : null);
        return;
      }
    }
    if (!res?.ok) {
      const text = res && "error" in res && res.error ? res.error.text : "";
      this.state.pending = null;
      if (this.state.setup) {
        // The set-up the reader typed: back to the form (the names are still in it), with the engine's reason.
        this.state.sheet = null;
        this.state.setup = null;
        this.save();
        this.render();
        this.say(text, true);
        return;
      }
      // A kept sheet the engine does not read (an older or newer engine): kept as it is, and said.
      this.save();
      this.render();
      this.say((text ? `${text} ` : "") + this.t("sheet_kept"), true);
      return;
    }
    const before = this.state.sheet;
    this.state.setup = null;
    this.state.sheet = res.sheet;
    this.state.view = viewOf(res);
    if (this.state.pending === change) this.state.pending = null;
    if (res.refusal) {
      this.save();
      this.render();
      this.say(res.refusal.text, true);
      if (typeof res.refusal.seat === "number") this.typist.focusHand(res.refusal.seat);
      return;
    }
    const added = change && (change.kind === "add" || change.kind === "edit");
    const draft = this.state.draft;
    if (added) this.state.draft = null;
    else if (change?.kind === "join" && before && res.sheet.names.length > before.names.length)
      this.state.draft = draftAfterJoin(draft, change.seat);
    else if (change?.kind === "undo" && draft?.editing) {
      // the deal being changed was removed, or moved up one place
      if (draft.editing === change.index) this.state.draft = null;
      else if (draft.editing > change.index) draft.editing -= 1;
    }
    this.state.draft = readDraft(this.state.draft, this.state.sheet);
    this.save();
    this.render();
    // a sheet drawn again leaves what was said standing, but for the engine's loading
    if (change) this.say(res.said || "");
    if (change?.kind === "setup" && before)
      offerUndo(this, this.status, this.t("fix_undo"), {
        kind: "setup",
        names: before.names.slice(),
        dealer: before.dealer,
      });
    else if (change?.kind === "join" || change?.kind === "leave")
      offerUndo(this, this.status, this.t("seats_undo"), { kind: "unmove" });
    else if (this.status?.textContent === this.t("loading")) this.say("");
    if (added) {
      let shown = this.places.latest?.querySelector<HTMLElement>("summary") || null;
      if (change.kind === "edit") {
        const deal = this.root.querySelector<HTMLDetailsElement>(`[data-deal="${change.index}"]`);
        if (deal) {
          deal.open = true;
          shown = deal.querySelector("summary");
        }
      }
      shown?.focus();
    }
  }

  // -- drawing ----------------------------------------------------------------------------

  /** The engine's last answer when it belongs to this sheet (its HTML only in this page's language). */
  view(): View | null {
    const view = this.state.view;
    return view && this.state.sheet && view.of === fingerprint(this.state.sheet) ? view : null;
  }

  render(): void {
    const sheet = this.state.sheet;
    this.setupForm.hidden = !!sheet;
    this.match.hidden = !sheet;
    if (!sheet) {
      for (const place of Object.values(this.places)) place.replaceChildren();
      this.entry.replaceChildren();
      return;
    }
    this.state.draft = readDraft(this.state.draft, sheet);
    const view = this.view();
    // only the engine's answer of this visit is drawn: no HTML is ever read from storage
    const parts = view && view.lang === this.lang ? view.parts : {};
    for (const [key, place] of Object.entries(this.places)) place.innerHTML = parts[key] || "";
    // the engine not heard yet on this visit: the totals kept with the sheet, at once
    const quick = view && view.lang !== this.lang ? quickTotals(this, sheet, view) : null;
    if (quick) {
      this.places.totals?.replaceChildren(quick.totals);
      this.places.strip?.replaceChildren(quick.strip);
    }
    const tool = (selector: string) => this.match.querySelector<HTMLElement>(selector);
    const end = tool("[data-pad-end]");
    const reopen = tool("[data-pad-reopen]");
    const csv = tool("[data-pad-csv]");
    if (end) end.hidden = !!view?.over || !view;
    if (reopen) reopen.hidden = !(view?.over && !view.overByRules);
    if (csv) csv.hidden = !view?.deals || !view.csv;
    const again = tool("[data-pad-again]");
    if (again) again.hidden = !view?.over;
    const seats = tool("[data-pad-seats]");
    if (seats) seats.hidden = !!view?.over; // between deals only
    this.drawEntry();
  }

  drawEntry(): void {
    this.typist.drawn(drawEntry(this, this.view()) || []);
  }

  /** Settle the deal typed (or the change of a deal): controls.ts. */
  settleDeal(): void {
    settleDeal(this);
  }

  /** Start again from an empty pad, on the reader's say (a new match asked and answered). */
  startOver(): void {
    this.keeper.frozen = false; // the reader's say: a sheet that could not be read may now be written over
    this.state = emptyState();
    this.save();
    this.render();
    this.say("");
    this.setupForm.querySelector<HTMLElement>("input[name='name']")?.focus();
  }

  link(): string {
    return padLink(this);
  }
}
