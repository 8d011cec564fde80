/**
 * What the reader's presses and typing do on the score pad (pad.ts wires them):
 * the set-up sent as a new sheet, the deal typed sent to be settled, a deal
 * opened for a change, and every button of the pad (a caller, a key of the
 * number pad, the tools). Each ends in a change sent to the engine (pad.ts
 * `send`) or in the kept state drawn again; nothing here decides a rule.
 */

import { confirm } from "./ask";
import { chosenRules, fillSetup, morePlayers, nameRows } from "./entry";
import { playAgain } from "./evening";
import { openFix } from "./fix";
import { exportCsv, share } from "./links";
import type { Pad } from "./pad";
import { openSeats } from "./seats";
import { readDraft, STORE_VERSION } from "./sheet";

export function startMatch(pad: Pad): void {
  const rules = chosenRules(pad.setupForm);
  if (!rules) return;
  const rows = nameRows(pad.setupForm).filter((r) => !r.hidden);
  const names = rows.map((r) => r.querySelector("input")?.value || "");
  const empty = names.findIndex((n) => !n.trim());
  if (empty >= 0) {
    // a name still to write: said at once, not after the engine has started
    pad.say(pad.t("name_empty", { number: pad.num(empty + 1) }), true);
    rows[empty]?.querySelector("input")?.focus();
    return;
  }
  const dealer = +(pad.setupForm.querySelector<HTMLSelectElement>('select[name="dealer"]')?.value || 0) || 0;
  const draft = pad.state.draft; // a first deal typed before the engine refused the set-up is kept
  pad.state = {
    v: STORE_VERSION,
    sheet: { v: 1, profile: rules.key, names, dealer, deals: [], end: false },
    setup: { profile: rules.key, options: rules.options },
    view: null,
    pending: null,
    draft: draft && !draft.editing && draft.hands.length === names.length ? draft : null,
    evening: [],
  };
  pad.typist.field = 0;
  pad.save();
  pad.say("");
  pad.render();
  pad.entry.querySelector<HTMLElement>("[data-caller]")?.focus();
  pad.send(null);
}

export function onSubmit(pad: Pad, ev: SubmitEvent): void {
  ev.preventDefault();
  if (ev.target === pad.setupForm) startMatch(pad);
  else if (ev.target === pad.entry) settleDeal(pad);
}

/** Settle the deal typed (or the change of a deal). */
export function settleDeal(pad: Pad): void {
  const draft = pad.state.draft;
  const sheet = pad.state.sheet;
  // One change at a time: a second press while one is on its way is not a second deal.
  if (!draft || !sheet || pad.inflight || pad.state.pending) return;
  if (draft.editing && !readDraft(draft, sheet)) {
    pad.say(pad.t("deal_changed", { number: pad.num(draft.editing) }), true);
    pad.state.draft = null;
    pad.save();
    pad.render();
    return;
  }
  if (draft.caller === undefined) {
    pad.say(pad.t("no_caller"), true);
    pad.entry.querySelector<HTMLElement>("[data-caller]")?.focus();
    return;
  }
  const hands = sheet.names.map((_, i) => {
    if (!pad.typist.active.includes(i)) return null;
    const v = draft.hands[i];
    return v === "" || v === null || v === undefined ? null : +v;
  });
  pad.send(
    draft.editing
      ? { kind: "edit", index: draft.editing, c: draft.caller, h: hands }
      : { kind: "add", c: draft.caller, h: hands },
  );
}

export function onInput(pad: Pad, ev: Event): void {
  const target = ev.target as HTMLInputElement;
  if (target.hasAttribute?.("data-hand")) pad.typist.setHand(+(target.getAttribute("data-hand") || 0), target.value);
  else if (pad.setupForm.contains(target)) fillSetup(pad);
}

export function onChange(pad: Pad, ev: Event): void {
  const target = ev.target as HTMLInputElement;
  if (pad.setupForm.contains(target) && target.name === "profile") fillSetup(pad);
}

export function onClick(pad: Pad, ev: MouseEvent): void {
  const t = (ev.target as Element | null)?.closest?.<HTMLButtonElement>("button");
  if (!t || !pad.root.contains(t)) return;
  if (t.hasAttribute("data-key")) {
    pad.typist.press(t.getAttribute("data-key") || "");
    if (!pad.entry.classList.contains("dhp-entry--typing")) pad.typist.typing(true);
  } else if (t.hasAttribute("data-caller")) {
    const v = t.getAttribute("data-caller");
    if (pad.state.draft) pad.state.draft.caller = v === "none" ? null : +(v || 0);
    for (const b of pad.entry.querySelectorAll("[data-caller]"))
      b.setAttribute("aria-pressed", b === t ? "true" : "false");
    pad.save();
  } else if (t.hasAttribute("data-pad-add") || t.hasAttribute("data-pad-remove")) {
    morePlayers(pad, t.hasAttribute("data-pad-add"));
  } else if (t.hasAttribute("data-pad-edit")) {
    edit(pad, +(t.getAttribute("data-pad-edit") || 0));
  } else if (t.hasAttribute("data-pad-cancel")) {
    pad.state.draft = null;
    pad.save();
    pad.render();
    pad.entry.querySelector<HTMLElement>("[data-caller]")?.focus();
  } else if (t.hasAttribute("data-pad-undo")) {
    const index = +(t.getAttribute("data-pad-undo") || 0);
    confirm(
      pad,
      pad.ask,
      pad.match,
      t.parentElement,
      pad.t("confirm_undo", { number: pad.num(index) }),
      pad.t("yes_undo"),
      {
        kind: "undo",
        index,
      },
    );
  } else if (t.hasAttribute("data-pad-new")) {
    const question = pad.state.evening.length ? "confirm_new_evening" : "confirm_new";
    confirm(pad, pad.ask, pad.match, pad.ask, pad.t(question), pad.t("yes_new"), "new");
  } else if (t.hasAttribute("data-pad-again")) {
    playAgain(pad);
  } else if (t.hasAttribute("data-pad-fix")) {
    openFix(pad);
  } else if (t.hasAttribute("data-pad-seats")) {
    openSeats(pad);
  } else if (t.hasAttribute("data-pad-end")) {
    pad.send({ kind: "end" });
  } else if (t.hasAttribute("data-pad-reopen")) {
    pad.send({ kind: "reopen" });
  } else if (t.hasAttribute("data-pad-share")) {
    share(pad);
  } else if (t.hasAttribute("data-pad-csv")) {
    exportCsv(pad);
  }
}

export function edit(pad: Pad, number: number): void {
  const entry = pad.state.sheet?.deals[number - 1];
  if (!entry) return;
  pad.state.draft = {
    editing: number,
    caller: entry.c,
    hands: entry.h.map((h) => (h === null ? "" : String(h))),
    was: { c: entry.c, h: entry.h.slice() },
  };
  pad.typist.field = entry.h.findIndex((h) => h !== null);
  pad.save();
  pad.drawEntry();
  // the entry's top clear of the totals strip stuck to the top of the screen
  const strip = pad.places.strip;
  const top = strip ? (Number.parseFloat(getComputedStyle(strip).top) || 0) + strip.getBoundingClientRect().height : 0;
  pad.entry.style.scrollMarginTop = `${Math.ceil(top) + 8}px`;
  pad.entry.scrollIntoView({ block: "start" });
  (
    pad.entry.querySelector<HTMLElement>('[data-caller][aria-pressed="true"]') ||
    pad.entry.querySelector<HTMLElement>("[data-caller]")
  )?.focus({
    preventScroll: true,
  });
}
