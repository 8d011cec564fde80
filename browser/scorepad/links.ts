/**
 * The score pad's sheet leaving the device, and coming in: Share (the
 * system's share sheet, else the clipboard, else the link shown to copy), the
 * CSV export (the engine's text), and a shared link (#pad=…). The engine
 * writes a sheet's link with its check value and reads every link
 * (dhumbal.matches.padlink): the page only bounds its length and alphabet.
 * A link that fails gets the engine's reason and leaves the reader's own sheet
 * as it was, and a link never replaces a sheet with deals without the
 * reader's say.
 */

import { element } from "../lib/dom";
import type { ScorepadResponse } from "../protocol/messages";
import type { Pad } from "./pad";
import { emptyState, fingerprint, LINK_SHAPE, MAX_LINK } from "./sheet";

/** The sheet's link, as the engine last wrote it for this sheet; "" before its first answer. */
export function padLink(pad: Pad): string {
  const view = pad.state.view;
  if (!view?.link || !pad.state.sheet || view.of !== fingerprint(pad.state.sheet)) return "";
  return `${window.location.href.split("#")[0]}#pad=${view.link}`;
}

export function share(pad: Pad): void {
  if (!pad.state.sheet) return;
  const link = padLink(pad);
  if (!link) {
    pad.say(pad.t("loading"));
    return;
  }
  const show = () => {
    pad.linkBox.hidden = false;
    const input = pad.linkBox.querySelector("input");
    if (!input) return;
    input.value = link;
    input.focus();
    input.select();
  };
  if (navigator.share) {
    navigator.share({ url: link }).catch(() => {});
    return;
  }
  if (navigator.clipboard?.writeText) {
    navigator.clipboard.writeText(link).then(() => {
      pad.say(pad.t("copied"));
      pad.linkBox.hidden = true;
    }, show);
    return;
  }
  show();
}

export function exportCsv(pad: Pad): void {
  const view = pad.state.view;
  if (!view?.csv) return;
  const blob = new Blob([`\ufeff${view.csv}`], { type: "text/csv;charset=utf-8" });
  const a = element("a", { href: URL.createObjectURL(blob), download: `${pad.t("file_name") || "dhumbal"}.csv` });
  document.body.appendChild(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(a.href);
    a.remove();
  }, 0);
}

export function readLink(pad: Pad, payload: string): void {
  // The link is read once: the address keeps no sheet after pad.
  try {
    history.replaceState(history.state, "", window.location.href.split("#")[0]);
  } catch {
    /* a page that cannot change its address still reads the link */
  }
  if (payload.length > MAX_LINK || !LINK_SHAPE.test(payload)) {
    pad.say(pad.t("link_bad"), true);
    if (pad.state.sheet) pad.startEngine(true);
    return;
  }
  pad.startEngine();
  pad.say(pad.t("loading"));
  pad.runtime.request({ op: "scorepad", lang: pad.lang, link: payload }).then(
    (res) => {
      if (!res?.ok) {
        pad.say(("error" in res && res.error?.text) || pad.t("link_bad"), true);
        return;
      }
      const own = pad.state.sheet;
      if (own?.deals.length && JSON.stringify(own) !== JSON.stringify(res.sheet)) ask(pad, res);
      else openShared(pad, res);
    },
    () => pad.showFailure(),
  );
}

/** The reader's own sheet has deals: open the shared one in its place only on their say. */
function ask(pad: Pad, res: ScorepadResponse): void {
  pad.say("");
  const box = pad.linkAsk;
  box.replaceChildren(element("p", {}, pad.t("link_ask")));
  const row = element("p", { class: "dhp-row" });
  const open = element("button", { type: "button", class: "md-button md-button--primary dhp-btn" }, pad.t("link_open"));
  const keep = element("button", { type: "button", class: "md-button dhp-btn" }, pad.t("link_keep"));
  row.append(open, keep);
  box.appendChild(row);
  box.hidden = false;
  open.addEventListener("click", () => {
    box.hidden = true;
    openShared(pad, res);
  });
  keep.addEventListener("click", () => {
    box.hidden = true;
  });
  keep.focus();
}

/** A shared sheet, read and settled by the engine, becomes the reader's own. */
function openShared(pad: Pad, res: ScorepadResponse): void {
  pad.state = emptyState();
  pad.answered(res, null);
  pad.say(pad.t("link_opened"));
}
