/**
 * The pad's questions and second thoughts: a question asked in place with its
 * two answers (remove a deal, start a new match), and after a change the table
 * may regret (the set-up corrected, a player joining or leaving) a button
 * beside what was said that sends the change taking it back. Nothing here is
 * settled: each answer is a change the engine settles (pad.ts `send`).
 */

import { element } from "../lib/dom";
import type { Change } from "./sheet";

/** What asking needs of the pad. */
export interface AskPad {
  t(key: string, params?: Record<string, string | number>): string;
  say(text: string, urgent?: boolean): void;
  send(change: Change | null): void;
  /** Start again from an empty pad (the reader's say). */
  startOver(): void;
}

/**
 * Ask `question` in `box`, placed after `place`; `then` is the change sent on yes,
 * or "new". `home` is where the box goes back to once answered.
 */
export function confirm(
  pad: AskPad,
  box: HTMLElement,
  home: HTMLElement,
  place: Element | null,
  question: string,
  yes: string,
  then: Change | "new",
): void {
  box.replaceChildren(element("p", {}, question));
  const row = element("p", { class: "dhp-row" });
  const ok = element("button", { type: "button", class: "md-button md-button--primary dhp-btn" }, yes);
  const no = element("button", { type: "button", class: "md-button dhp-btn" }, pad.t("no"));
  row.append(ok, no);
  box.appendChild(row);
  if (place && place !== box) place.parentNode?.insertBefore(box, place.nextSibling);
  box.hidden = false;
  const origin = document.activeElement as HTMLElement | null;
  const close = () => {
    box.hidden = true;
    box.replaceChildren();
    home.appendChild(box); // back to its place among the tools
  };
  ok.addEventListener("click", () => {
    close();
    if (then === "new") pad.startOver();
    else pad.send(then);
  });
  no.addEventListener("click", () => {
    close();
    if (origin?.focus && document.contains(origin)) origin.focus();
  });
  no.focus();
}

/** After a change: a button in `status`, beside what was said, that sends `back`. */
export function offerUndo(pad: AskPad, status: HTMLElement | null, label: string, back: Change): void {
  const button = element("button", { type: "button", class: "md-button dhp-btn" }, label);
  button.addEventListener("click", () => {
    pad.say("");
    pad.send(back);
  });
  status?.append(" ", button);
}
