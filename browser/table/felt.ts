/**
 * The felt: the bots' moves played back one at a time on the acting seat
 * (the engine drew the felt after each move), at the reader's pace. A tap
 * anywhere on the felt shows the next move at once; "Show all moves now" or
 * a new request shows the rest at once. The reader's own move is in the
 * address before the bots' moves start, so a reload in the middle of them
 * loses nothing.
 */

import { closest } from "../lib/dom";
import type { BoardAnswer, TableRequest } from "../protocol/messages";
import { animate, type Picture, picture, settle } from "./motion";
import { appendLog } from "./summary";
import type { Table } from "./table";

export interface Playing {
  skip(): void;
  next(): void;
}

/**
 * The bots' moves, one at a time: the board before them, then the felt after each
 * move, then the answer's board. `before`: the board's picture before the reader's move.
 */
export function playBack(
  t: Table,
  result: BoardAnswer,
  payload: TableRequest,
  pace: number,
  before: Picture | null,
): Promise<void> {
  const pb = result.playback;
  if (!pb) return Promise.resolve();
  const root = t.root;
  const hadFocus = t.board.contains(document.activeElement);
  const key = t.focusKey();
  // The reader's move is kept in the address now (the bots' answers follow from it).
  const first: Partial<BoardAnswer> = { hash: result.hash };
  if (result.settings_html !== undefined) first.settings_html = result.settings_html;
  t.render(first, pb.html, pb.say, before, payload);
  if (hadFocus) t.board.focus({ preventScroll: true });
  root.setAttribute("data-busy", "true");
  return new Promise((resolve) => {
    let i = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      t.state.felt.playing = null;
      root.removeAttribute("data-busy");
      if (!root.isConnected) {
        resolve();
        return;
      }
      settle(t);
      const focused = t.board.contains(document.activeElement) || document.activeElement === t.board;
      delete result.settings_html;
      t.render(result, result.html, pb.end, null, null);
      if (focused || hadFocus) t.refocus(key || "");
      resolve();
    };
    const step = () => {
      if (done) return;
      clearTimeout(timer);
      const frame = pb.frames[i++];
      if (!root.isConnected || !frame) {
        finish();
        return;
      }
      const felt = t.board.querySelector(".dht-felt");
      if (felt) {
        settle(t); // the previous move's cards land first
        const seen = picture(t);
        const box = document.createElement("div");
        box.innerHTML = frame.felt;
        const next = box.firstElementChild;
        if (next) {
          felt.replaceWith(next);
          animate(seen, next, Math.min(320, pace * 0.7));
        }
      }
      t.say(frame.say, false);
      appendLog(t, frame.log || []);
      timer = setTimeout(step, pace);
    };
    t.state.felt.playing = { skip: finish, next: step };
    timer = setTimeout(step, pace);
  });
}

export function attachFelt(t: Table): void {
  // A tap (or click) anywhere on the felt while the bots play: their next move now.
  t.root.addEventListener("click", (ev) => {
    const playing = t.state.felt.playing;
    const felt = closest(ev, ".dht-felt");
    if (!playing || !felt || !t.board.contains(felt)) return;
    ev.preventDefault();
    playing.next();
  });
}
