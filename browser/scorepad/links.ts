/**
 * The score pad's sheet leaving the device, and coming in: Share (the
 * system's share sheet, else the clipboard, else the link shown to copy), the
 * CSV export (the engine's text), and a shared link (#pad=…). A link is read
 * within bounds before it is parsed (sheet.ts), and the engine reads it again;
 * a link that fails either gets a notice and leaves the reader's own sheet as
 * it was, and a link never replaces a sheet with deals without the reader's
 * say.
 */

import { element } from "../lib/dom";
import type { Sheet } from "../protocol/messages";
import type { Pad } from "./pad";
import { boundedParse, emptyState, fromBase64Url, looksLikeSheet, MAX_LINK, toBase64Url } from "./sheet";

export function padLink(pad: Pad): string {
  return `${window.location.href.split("#")[0]}#pad=${toBase64Url(JSON.stringify(pad.state.sheet))}`;
}

export function share(pad: Pad): void {
  if (!pad.state.sheet) return;
  const link = padLink(pad);
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
  const text = fromBase64Url(payload);
  const sheet = text === null ? null : boundedParse(text, MAX_LINK);
  if (!looksLikeSheet(sheet)) {
    pad.say(pad.t("link_bad"), true);
    if (pad.state.sheet) pad.startEngine(true);
    return;
  }
  const own = pad.state.sheet;
  if (own?.deals.length && JSON.stringify(own) !== JSON.stringify(sheet)) {
    const box = pad.linkAsk;
    box.replaceChildren(element("p", {}, pad.t("link_ask")));
    const row = element("p", { class: "dhp-row" });
    const open = element(
      "button",
      { type: "button", class: "md-button md-button--primary dhp-btn" },
      pad.t("link_open"),
    );
    const keep = element("button", { type: "button", class: "md-button dhp-btn" }, pad.t("link_keep"));
    row.append(open, keep);
    box.appendChild(row);
    box.hidden = false;
    open.addEventListener("click", () => {
      box.hidden = true;
      openShared(pad, sheet);
    });
    keep.addEventListener("click", () => {
      box.hidden = true;
      pad.startEngine(true);
    });
    keep.focus();
    return;
  }
  openShared(pad, sheet);
}

/** A shared sheet becomes the reader's own only once the engine has read and settled it. */
function openShared(pad: Pad, sheet: Sheet): void {
  pad.startEngine();
  pad.say(pad.t("loading"));
  pad.runtime.request({ op: "scorepad", lang: pad.lang, sheet }).then(
    (res) => {
      if (!res?.ok) {
        pad.say(pad.t("link_bad"), true);
        return;
      }
      pad.state = emptyState();
      pad.answered(res, null);
      pad.say(pad.t("link_opened"));
    },
    () => pad.showFailure(),
  );
}
