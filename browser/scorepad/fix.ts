/**
 * The set-up corrected mid-match (issue 52): a player's name, or who dealt
 * first. The form is drawn from the sheet in its box ([data-pad-fix-box]);
 * the engine checks the names and settles every deal again with the dealers
 * that follow (op "scorepad", change "setup"), or refuses with its reason and
 * the sheet unchanged. After a correction, "Undo this change" sends the set-up
 * as it was.
 */

import { element } from "../lib/dom";
import type { Sheet } from "../protocol/messages";
import type { Change } from "./sheet";

/** What the correction needs of the pad. */
export interface FixPad {
  readonly root: HTMLElement;
  t(key: string, params?: Record<string, string | number>): string;
  num(n: number | string): string;
  sheet(): Sheet | null;
  change(change: Change): void;
}

export function fixBox(pad: FixPad): HTMLElement | null {
  return pad.root.querySelector<HTMLElement>("[data-pad-fix-box]");
}

export function closeFix(pad: FixPad): void {
  const box = fixBox(pad);
  if (!box) return;
  box.hidden = true;
  box.replaceChildren();
}

/** Open the form: every name, and the first dealer, as the sheet has them. */
export function openFix(pad: FixPad): void {
  const box = fixBox(pad);
  const sheet = pad.sheet();
  if (!box || !sheet) return;
  const form = element("form", { class: "dhp-fix", novalidate: true });
  form.appendChild(element("h2", { class: "dhp-h", id: "dhp-fix-title" }, pad.t("fix_title")));
  form.setAttribute("aria-labelledby", "dhp-fix-title");
  form.appendChild(element("p", { class: "dhp-hint" }, pad.t("fix_note")));
  sheet.names.forEach((name, k) => {
    const id = `dhp-fix-name-${k}`;
    const row = element("div", { class: "dhp-field" });
    row.appendChild(element("label", { for: id }, pad.t("player_n", { number: pad.num(k + 1) })));
    const input = element("input", { id, type: "text", name: "name", autocomplete: "off" });
    input.value = name;
    row.appendChild(input);
    form.appendChild(row);
  });
  const row = element("div", { class: "dhp-field" });
  row.appendChild(element("label", { for: "dhp-fix-dealer" }, pad.t("first_dealer")));
  const select = element("select", { id: "dhp-fix-dealer", name: "dealer" });
  sheet.names.forEach((name, k) => {
    select.appendChild(element("option", { value: String(k) }, name));
  });
  select.selectedIndex = sheet.dealer;
  row.appendChild(select);
  form.appendChild(row);
  const buttons = element("p", { class: "dhp-row" });
  buttons.append(
    element("button", { type: "submit", class: "md-button md-button--primary dhp-btn" }, pad.t("fix_apply")),
    element("button", { type: "button", class: "md-button dhp-btn", "data-pad-fix-cancel": true }, pad.t("fix_keep")),
  );
  form.appendChild(buttons);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    ev.stopPropagation(); // not the pad's own forms
    const names = Array.from(form.querySelectorAll<HTMLInputElement>("input[name='name']")).map((i) => i.value);
    pad.change({ kind: "setup", names, dealer: select.selectedIndex });
    closeFix(pad);
    pad.root.querySelector<HTMLElement>("[data-pad-fix]")?.focus();
  });
  form.querySelector("[data-pad-fix-cancel]")?.addEventListener("click", () => {
    closeFix(pad);
    pad.root.querySelector<HTMLElement>("[data-pad-fix]")?.focus();
  });
  box.replaceChildren(form);
  box.hidden = false;
  form.querySelector<HTMLElement>("input")?.focus();
}
