/**
 * A player joins or leaves the table between deals (issue 52): the form,
 * drawn in the set-up correction's box ([data-pad-fix-box]), asks only. The
 * engine decides (op "scorepad", change "join" or "leave": whether the rules
 * let a newcomer in, at what score, who deals next) and settles every deal
 * again, or refuses with its reason and the sheet unchanged. A newcomer sits
 * on the left of the player chosen (the players after move one seat up); the
 * name of one who left brings them back to their seat. After the change,
 * "Undo this change" sends "unmove". A deal being typed keeps its totals
 * through a newcomer's seat (`draftAfterJoin`).
 */

import { element } from "../lib/dom";
import type { Sheet } from "../protocol/messages";
import type { Change, Draft, View } from "./sheet";

/** What the form needs of the pad. */
export interface SeatsPad {
  readonly root: HTMLElement;
  t(key: string, params?: Record<string, string | number>): string;
  sheet(): Sheet | null;
  view(): View | null;
  change(change: Change): void;
}

function closeSeats(pad: SeatsPad, box: HTMLElement): void {
  box.hidden = true;
  box.replaceChildren();
  pad.root.querySelector<HTMLElement>("[data-pad-seats]")?.focus();
}

function field(label: string, control: HTMLElement): HTMLElement {
  const row = element("div", { class: "dhp-field" });
  row.append(element("label", { for: control.id }, label), control);
  return row;
}

function choice(id: string, sheet: Sheet, seats: number[]): HTMLSelectElement {
  const select = element("select", { id });
  for (const seat of seats) select.appendChild(element("option", { value: String(seat) }, sheet.names[seat] || ""));
  return select;
}

/** Open the form: a name to join and whose left they sit on, or who leaves. */
export function openSeats(pad: SeatsPad): void {
  const box = pad.root.querySelector<HTMLElement>("[data-pad-fix-box]");
  const sheet = pad.sheet();
  if (!box || !sheet) return;
  // the players at the table, as the engine last said (all of them before it has)
  const seats = pad.view()?.next?.active || sheet.names.map((_, i) => i);
  const form = element("form", { class: "dhp-fix", novalidate: true, "data-pad-seats-form": true });
  form.appendChild(element("h2", { class: "dhp-h", id: "dhp-seats-title" }, pad.t("seats_title")));
  form.setAttribute("aria-labelledby", "dhp-seats-title");
  form.appendChild(element("p", { class: "dhp-hint" }, pad.t("seats_note")));
  const name = element("input", { id: "dhp-join-name", type: "text", name: "join", autocomplete: "off" });
  const leftOf = choice("dhp-join-left", sheet, seats);
  leftOf.selectedIndex = seats.length - 1;
  const join = element(
    "button",
    { type: "submit", class: "md-button md-button--primary dhp-btn" },
    pad.t("join_apply"),
  );
  const joinRow = element("p", { class: "dhp-row" });
  joinRow.append(join);
  form.append(field(pad.t("join_name"), name), field(pad.t("join_left_of"), leftOf), joinRow);
  const who = choice("dhp-leave-who", sheet, seats);
  const leave = element(
    "button",
    { type: "button", class: "md-button dhp-btn", "data-pad-leave": true },
    pad.t("leave_apply"),
  );
  const close = element("button", { type: "button", class: "md-button dhp-btn" }, pad.t("seats_keep"));
  const leaveRow = element("p", { class: "dhp-row" });
  leaveRow.append(leave, close);
  form.append(field(pad.t("leave_who"), who), leaveRow);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    ev.stopPropagation(); // not the pad's own forms
    pad.change({ kind: "join", name: name.value, seat: +leftOf.value + 1 });
    closeSeats(pad, box);
  });
  leave.addEventListener("click", () => {
    pad.change({ kind: "leave", seat: +who.value });
    closeSeats(pad, box);
  });
  close.addEventListener("click", () => closeSeats(pad, box));
  box.replaceChildren(form);
  box.hidden = false;
  name.focus();
}

/** The deal being typed after a newcomer's seat `seat` came in: its totals and caller in their places. */
export function draftAfterJoin(draft: Draft | null, seat: number): Draft | null {
  if (!draft || draft.editing) return draft; // a change of an earlier deal: its deal now has another shape
  const hands = draft.hands.slice();
  hands.splice(seat, 0, "");
  const caller = typeof draft.caller === "number" && draft.caller >= seat ? draft.caller + 1 : draft.caller;
  return { ...draft, hands, caller };
}
