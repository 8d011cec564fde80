/**
 * The running totals at once on a reload, in any language (issue 52, L9): the
 * engine's HTML is never kept, so until the engine has started again (a few
 * seconds on a phone, more on a first visit in another language) the pad
 * draws the totals from the facts kept with the sheet (sheet.ts `Facts`):
 * each player's total as the engine wrote it in every language, and who deals
 * next. Nothing is computed here: the numbers and their writing are the
 * engine's; the words are the page's catalog texts. The engine's answer then
 * draws the full sheet over it.
 */

import { element } from "../lib/dom";
import type { Sheet } from "../protocol/messages";
import type { View } from "./sheet";

/** What the quick totals need of the pad. */
export interface QuickPad {
  readonly lang: string;
  t(key: string, params?: Record<string, string | number>): string;
  num(n: number | string): string;
}

function badge(pad: QuickPad): HTMLElement {
  return element("span", { class: "dhp-badge dhp-badge--dealer" }, pad.t("badge_dealer"));
}

/** The totals table and the strip of large totals, or null when the kept facts have none. */
export function quickTotals(
  pad: QuickPad,
  sheet: Sheet,
  view: View,
): { totals: HTMLElement; strip: HTMLElement } | null {
  const scores = view.scores;
  const shown = view.shown?.[pad.lang];
  if (!scores || !shown) return null;
  const dealer = view.next ? view.next.dealer : -1;
  const table = element("table", { class: "dhp-score dhp-totals", "data-quick": true });
  const caption = view.deals ? pad.t("totals_after", { number: pad.num(view.deals) }) : pad.t("totals_none");
  table.appendChild(element("caption", {}, caption));
  const head = element("tr");
  head.append(
    element("th", { scope: "col", class: "dhp-col-player" }, pad.t("player")),
    element("th", { scope: "col" }, pad.t("total")),
  );
  table.appendChild(element("thead")).appendChild(head);
  const body = table.appendChild(element("tbody"));
  const strip = element("ol", { class: "dhp-strip", "aria-hidden": "true" });
  sheet.names.forEach((name, seat) => {
    const row = element("tr", { class: "dhp-seat", "data-seat": String(seat) });
    const who = element("th", { scope: "row" });
    who.appendChild(element("span", { class: "dhp-name" }, name));
    if (seat === dealer) who.append(" ", badge(pad));
    const total = element("td", { "data-row": "total", "data-value": String(scores[seat]) }, shown[seat] || "");
    row.append(who, total);
    body.appendChild(row);
    if (!view.next?.active.includes(seat)) return; // the strip: the players in the next deal only
    const item = element("li", { "data-seat": String(seat) });
    item.appendChild(element("span", { class: "dhp-name" }, name));
    if (seat === dealer) item.append(" ", badge(pad));
    item.appendChild(
      element("b", { "data-row": "strip-total", "data-value": String(scores[seat]) }, shown[seat] || ""),
    );
    strip.appendChild(item);
  });
  return { totals: table, strip };
}
