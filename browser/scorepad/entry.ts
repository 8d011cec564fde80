/**
 * The score pad's forms: the set-up (rules, names, first dealer) and the
 * entry of the next deal (who called, each hand's total, with a number pad
 * that types into the hand field chosen). Drawn from the pad's state and
 * the engine's last answer; every word from the page (data-strings).
 */

import { element } from "../lib/dom";
import type { Sheet } from "../protocol/messages";
import type { Draft, View } from "./sheet";

/** What the entry form needs of the pad. */
export interface PadForms {
  readonly root: HTMLElement;
  readonly entry: HTMLFormElement;
  readonly setupForm: HTMLFormElement;
  t(key: string, params?: Record<string, string | number>): string;
  num(n: number | string): string;
  say(text: string, urgent?: boolean): void;
  sheet(): Sheet | null;
  draft(): Draft | null;
  setDraft(draft: Draft): void;
}

export interface NextDeal {
  number: number;
  title?: string;
  editing?: boolean;
  waiting?: boolean;
  active: number[];
  nobody: boolean;
  cap?: number | null;
}

function optionsBox(pad: PadForms): Element | null {
  const sheet = pad.sheet();
  const key = sheet ? sheet.profile.split("(")[0] || "" : "";
  for (const box of pad.root.querySelectorAll("[data-pad-options]")) {
    if (box.getAttribute("data-pad-options") === key) return box;
  }
  return null;
}

function turnCap(pad: PadForms): boolean {
  return !!optionsBox(pad)?.getAttribute("data-turn-cap");
}

function capCount(pad: PadForms): number | null {
  const box = optionsBox(pad);
  return box ? +(box.getAttribute("data-turn-cap") || 0) || null : null;
}

/** The next deal as the engine said it comes (or, before its first answer, the set-up's first dealer). */
export function nextDeal(pad: PadForms, view: View | null): NextDeal | null {
  const sheet = pad.sheet();
  if (!sheet) return null;
  const draft = pad.draft();
  if (draft?.editing) {
    const entry = sheet.deals[draft.editing - 1];
    const title = pad.root.querySelector(`[data-deal="${draft.editing}"] .dhp-deal__title`);
    return {
      number: draft.editing,
      editing: true,
      title: title ? title.textContent || "" : pad.t("deal_plain", { number: pad.num(draft.editing) }),
      active: (entry?.h || []).map((h, i) => (h === null ? -1 : i)).filter((i) => i >= 0),
      nobody: view ? !!(view.next ? view.next.nobody : turnCap(pad)) : turnCap(pad),
      cap: view?.next ? view.next.cap : capCount(pad),
    };
  }
  if (view) {
    if (!view.next) return null;
    return {
      number: view.next.number,
      title: pad.t("deal_title", { number: pad.num(view.next.number), name: sheet.names[view.next.dealer] || "" }),
      active: view.next.active,
      nobody: view.next.nobody,
      cap: view.next.cap,
    };
  }
  // who plays next is the engine's to say once a deal is played or a player has joined or left
  if (sheet.deals.length || sheet.moves?.length)
    return { number: sheet.deals.length + 1, waiting: true, active: [], nobody: false };
  return {
    number: 1,
    title: pad.t("deal_title", { number: pad.num(1), name: sheet.names[sheet.dealer] || "" }),
    active: sheet.names.map((_, i) => i),
    nobody: turnCap(pad),
    cap: capCount(pad),
  };
}

/** The entry form of the next deal; the active seats, or null when no deal comes. */
export function drawEntry(pad: PadForms, view: View | null): number[] | null {
  const form = pad.entry;
  form.replaceChildren();
  const next = nextDeal(pad, view);
  form.hidden = !next;
  const sheet = pad.sheet();
  if (!next || !sheet) return null;
  let draft = pad.draft();
  if (!draft || (draft.editing || 0) !== (next.editing ? next.number : 0)) {
    draft = { editing: 0, caller: undefined, hands: sheet.names.map(() => "") };
  }
  pad.setDraft(draft);
  const d = draft;
  form.setAttribute("aria-labelledby", "dhp-entry-title");
  form.appendChild(
    element(
      "h2",
      { class: "dhp-h dhp-entry__title", id: "dhp-entry-title" },
      next.title || pad.t("deal_plain", { number: pad.num(next.number) }),
    ),
  );
  if (next.editing) {
    const note = element("p", { class: "dhp-editing" }, `${pad.t("editing", { number: pad.num(next.number) })} `);
    note.appendChild(
      element("button", { type: "button", class: "md-button dhp-btn", "data-pad-cancel": true }, pad.t("cancel")),
    );
    form.appendChild(note);
  }
  if (next.waiting) {
    form.appendChild(element("p", { class: "dhp-hint" }, pad.t("loading")));
    return [];
  }
  const callers = element("fieldset", { class: "dhp-callers" });
  callers.appendChild(element("legend", {}, pad.t("who_called")));
  for (const seat of next.active) {
    callers.appendChild(
      element(
        "button",
        {
          type: "button",
          class: "dhp-caller",
          "data-caller": String(seat),
          "aria-pressed": d.caller === seat ? "true" : "false",
        },
        sheet.names[seat] || "",
      ),
    );
  }
  if (next.nobody) {
    callers.appendChild(
      element(
        "button",
        {
          type: "button",
          class: "dhp-caller dhp-caller--nobody",
          "data-caller": "none",
          "aria-pressed": d.caller === null ? "true" : "false",
        },
        pad.t("nobody", { count: pad.num(next.cap ?? "") }),
      ),
    );
  }
  form.appendChild(callers);
  const hands = element("fieldset", { class: "dhp-hands" });
  hands.appendChild(element("legend", {}, pad.t("hands")));
  for (const seat of next.active) {
    const row = element("div", { class: "dhp-hand", "data-seat": String(seat) });
    const id = `dhp-hand-${seat}`;
    const name = sheet.names[seat] || "";
    row.appendChild(element("label", { for: id, class: "dhp-hand__name" }, name));
    const input = element("input", {
      id,
      type: "text",
      inputmode: "none",
      autocomplete: "off",
      "data-hand": String(seat),
      "aria-label": pad.t("hand_of", { name }),
      class: "dhp-hand__total",
    });
    const value = d.hands[seat];
    input.value = value === null || value === undefined ? "" : pad.num(value);
    row.appendChild(input);
    hands.appendChild(row);
  }
  form.appendChild(hands);
  const keypad = element("div", { class: "dhp-keypad", role: "group", "aria-label": pad.t("keypad") });
  for (const k of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "back", "0", "next"]) {
    const label = k === "back" ? "⌫" : k === "next" ? "→" : pad.num(k);
    const attrs: Record<string, string> = { type: "button", class: "dhp-key", "data-key": k };
    if (k === "back") attrs["aria-label"] = pad.t("backspace");
    if (k === "next") attrs["aria-label"] = pad.t("next_field");
    keypad.appendChild(element("button", attrs, label));
  }
  keypad.appendChild(
    element(
      "button",
      { type: "submit", class: "md-button md-button--primary dhp-settle" },
      pad.t(next.editing ? "settle_again" : "settle", { number: pad.num(next.number) }),
    ),
  );
  form.appendChild(keypad);
  return next.active.slice();
}

// -- the set-up form ---------------------------------------------------------------------

function profileBox(form: HTMLFormElement): Element | null {
  const checked = form.querySelector<HTMLInputElement>('input[name="profile"]:checked');
  const key = checked ? checked.value : "nepali-games";
  for (const box of form.querySelectorAll("[data-pad-options]"))
    if (box.getAttribute("data-pad-options") === key) return box;
  return null;
}

export function nameRows(form: HTMLFormElement): HTMLElement[] {
  return Array.from(form.querySelectorAll<HTMLElement>(".dhp-name"));
}

export function players(form: HTMLFormElement): number {
  return nameRows(form).filter((r) => !r.hidden).length;
}

/** The set-up form as the chosen rules allow: their options, as many names as they seat, the first dealer's choices. */
export function fillSetup(pad: PadForms): void {
  const form = pad.setupForm;
  const box = profileBox(form);
  for (const other of form.querySelectorAll<HTMLElement>("[data-pad-options]")) other.hidden = other !== box;
  const low = +(box?.getAttribute("data-players-low") || 0) || 2;
  const high = +(box?.getAttribute("data-players-high") || 0) || 6;
  const rows = nameRows(form);
  // names the chosen rules do not seat are set aside, not dropped, and said; rules that
  // seat them again bring them back (issue 52)
  const aside = +(form.getAttribute("data-set-aside") || 0);
  const wanted = Math.max(players(form), Math.min(aside, high));
  const shown = Math.max(low, Math.min(high, wanted));
  if (wanted > high) {
    form.setAttribute("data-set-aside", String(wanted));
    pad.say(pad.t("setup_hidden", { count: pad.num(high) }), true);
  } else if (aside && aside <= high) {
    form.removeAttribute("data-set-aside");
  }
  rows.forEach((r, k) => {
    r.hidden = k >= shown;
  });
  const add = form.querySelector<HTMLElement>("[data-pad-add]");
  const remove = form.querySelector<HTMLElement>("[data-pad-remove]");
  if (add) add.hidden = shown >= high;
  if (remove) remove.hidden = shown <= low;
  const select = form.querySelector<HTMLSelectElement>('select[name="dealer"]');
  if (!select) return;
  const chosen = select.selectedIndex >= 0 ? select.selectedIndex : 0;
  select.replaceChildren();
  rows.slice(0, shown).forEach((r, k) => {
    const name = r.querySelector("input")?.value.trim();
    select.appendChild(element("option", { value: String(k) }, name || pad.t("player_n", { number: pad.num(k + 1) })));
  });
  select.selectedIndex = Math.min(chosen, shown - 1);
}

/** The house rules changed from the profile's own (the rest is the profile as written), and its key. */
export function chosenRules(form: HTMLFormElement): { key: string; options: Record<string, string> } | null {
  const box = profileBox(form);
  if (!box) return null;
  const options: Record<string, string> = {};
  for (const c of box.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[name^='opt:']")) {
    const standard =
      c instanceof HTMLSelectElement
        ? (Array.from(c.options).find((o) => o.defaultSelected) || c.options[0])?.value
        : (c as HTMLInputElement).defaultValue;
    if (c.value !== standard) options[c.name.slice(4)] = c.value;
  }
  return { key: box.getAttribute("data-pad-options") || "", options };
}

/** The set-up form's "Add a player" (`add`) or "Remove the last player". */
export function morePlayers(pad: PadForms, add: boolean): void {
  const form = pad.setupForm;
  form.removeAttribute("data-set-aside"); // the reader chose the number of players
  const rows = nameRows(form);
  const n = players(form) + (add ? 1 : -1);
  rows.forEach((r, k) => {
    r.hidden = k >= n;
  });
  fillSetup(pad);
  if (add) rows[n - 1]?.querySelector("input")?.focus();
  else
    (
      form.querySelector<HTMLElement>("[data-pad-remove]:not([hidden])") ||
      form.querySelector<HTMLElement>("[data-pad-add]")
    )?.focus();
}
