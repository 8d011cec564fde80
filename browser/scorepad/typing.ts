/**
 * Typing a deal's hand totals into the entry form (entry.ts draws it): the
 * field chosen, the number pad that types into it (sticking to the bottom of
 * the screen, the field clear above it), Enter and → to the next player.
 * A total is what was typed, never rewritten: text that is not a whole number
 * of at most three digits (the page's digits or Latin ones) is refused with a
 * message, and the field keeps the total it had.
 */

import type { Draft } from "./sheet";

export const MAX_DIGITS = 3;

/** What typing needs of the pad. */
export interface TypingPad {
  readonly entry: HTMLFormElement;
  draft(): Draft | null;
  t(key: string, params?: Record<string, string | number>): string;
  num(n: number | string): string;
  say(text: string, urgent?: boolean): void;
  save(): void;
  settleDeal(): void;
}

export class Typist {
  field = 0; // the hand field the number pad types into
  active: number[] = []; // the seats of the deal typed

  constructor(private readonly pad: TypingPad) {}

  /** The entry form was drawn again, for `active` seats. */
  drawn(active: number[]): void {
    this.active = active;
    if (!active.includes(this.field)) this.field = active[0] ?? 0;
    this.markField();
  }

  /** Typing a hand: the number pad sticks to the bottom of the screen, the field clear above it. */
  typing(on: boolean): void {
    const form = this.pad.entry;
    form.classList.toggle("dhp-entry--typing", on);
    const keypad = form.querySelector(".dhp-keypad");
    if (!on || !keypad) return;
    form.style.setProperty("--dhp-keypad", `${keypad.getBoundingClientRect().height}px`);
    form.querySelector(`[data-hand="${this.field}"]`)?.scrollIntoView({ block: "nearest" });
  }

  markField(): void {
    for (const input of this.pad.entry.querySelectorAll("[data-hand]")) {
      input.classList.toggle("dhp-hand__total--on", +(input.getAttribute("data-hand") || -1) === this.field);
    }
  }

  focusHand(seat: number): void {
    const input = this.pad.entry.querySelector<HTMLElement>(`[data-hand="${seat}"]`);
    if (!input) return;
    this.field = seat;
    this.markField();
    input.focus();
  }

  /** A hand's total as typed (the page's digits or Latin ones): kept when it is one, else refused and said. */
  setHand(seat: number, text: string): void {
    const draft = this.pad.draft();
    if (!draft) return;
    const latin = String(text).replace(/[०-९]/g, (d) => String(d.charCodeAt(0) - 0x0966));
    const input = this.pad.entry.querySelector<HTMLInputElement>(`[data-hand="${seat}"]`);
    const whole = new RegExp(`^[0-9]{0,${MAX_DIGITS}}$`);
    if (whole.test(latin)) {
      draft.hands[seat] = latin === "" ? "" : String(+latin);
    } else {
      this.pad.say(this.pad.t("hand_bad", { text: text.slice(0, 12), max: this.pad.num(10 ** MAX_DIGITS - 1) }), true);
    }
    if (input) {
      const value = draft.hands[seat] || "";
      const shown = value === "" ? "" : this.pad.num(value);
      if (input.value !== shown) input.value = shown;
    }
    this.pad.save();
  }

  press(key: string): void {
    const draft = this.pad.draft();
    if (!draft) return;
    if (key === "next") {
      this.moveField(1);
      return;
    }
    let now = String(draft.hands[this.field] ?? "");
    if (key === "back") now = now.slice(0, -1);
    else if (now.length < MAX_DIGITS) now = now === "0" ? key : now + key;
    this.setHand(this.field, now);
  }

  moveField(step: number): void {
    const active = this.active;
    const i = active.indexOf(this.field);
    if (i < 0 || !active.length) return;
    const next = active[(i + step + active.length) % active.length] ?? this.field;
    const input = this.pad.entry.querySelector<HTMLElement>(`[data-hand="${next}"]`);
    this.field = next;
    this.markField();
    if (input && (document.activeElement as Element | null)?.hasAttribute?.("data-hand")) input.focus();
    this.typing(true);
  }

  onFocus(ev: FocusEvent): void {
    const t = ev.target as Element;
    if (t.hasAttribute?.("data-hand")) {
      this.field = +(t.getAttribute("data-hand") || 0);
      this.markField();
      this.typing(true);
    } else if (!t.closest?.(".dhp-keypad")) {
      this.typing(false);
    }
  }

  onKey(ev: KeyboardEvent): void {
    const t = ev.target as Element;
    if (!t.hasAttribute?.("data-hand") || ev.key !== "Enter") return;
    ev.preventDefault();
    if (this.active.indexOf(this.field) === this.active.length - 1) this.pad.settleDeal();
    else this.moveField(1);
  }
}
