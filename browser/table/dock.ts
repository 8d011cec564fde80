/**
 * The dock under the hand: the live status line (its height kept, what it
 * says beyond scrolled, with a shade saying so), the controls (what each
 * button asks of the engine), the Throw control's verdict on the marked
 * cards and what they are worth, the notes under the controls, and sharing
 * the game's link. Owns the dock's slice of the state.
 */

import { closest } from "../lib/dom";
import { parseJSON, printed } from "../lib/text";
import { cards, toggle } from "./hand";
import { closeFull, openFull, small, undock } from "./place";
import { startFresh } from "./resume";
import { backToMatch } from "./review";
import type { Table } from "./table";

/** A box that keeps its height scrolls what it says beyond, reachable by keyboard, shaded at its foot. */
function more(box: Element | null): void {
  if (!box?.isConnected) return;
  const over = box.scrollHeight > box.clientHeight + 1;
  if (over) box.setAttribute("tabindex", "0");
  else box.removeAttribute("tabindex");
  if (over && box.scrollTop + box.clientHeight < box.scrollHeight - 1) box.setAttribute("data-more", "");
  else box.removeAttribute("data-more");
}

function statusMore(t: Table): void {
  more(t.status);
  more(t.board.querySelector(".dht-notes-area"));
}

/** The page keeps its own loader, live status line and share link: back into each new board's dock. */
function placeDock(t: Table): void {
  const slot = t.board.querySelector("[data-dht-slot]");
  if (!slot) return;
  // (before the Hint's "Why?" and its box, when the board has them)
  const why = slot.querySelector("[data-dht-why]");
  for (const el of [t.loader, t.status, t.state.dock.shareLink]) if (el) slot.insertBefore(el, why);
}

function markedTotal(t: Table): number {
  const marks = t.state.hand.marks;
  return cards(t)
    .filter((c) => marks.includes(c.getAttribute("data-card") || ""))
    .reduce((sum, c) => sum + (Number.parseInt(c.getAttribute("data-value") || "", 10) || 0), 0);
}

/** The Throw control says whether the marked cards may go now, and why not (the engine's verdicts came with the view). */
export function updateThrow(t: Table): void {
  const button = t.board.querySelector<HTMLElement>('[data-action="throw"]');
  const marks = t.state.hand.marks;
  showMarked(t);
  if (!button) return;
  const why = t.board.querySelector(".dht-why--throw");
  if (!marks.length) {
    button.textContent = button.getAttribute("data-label-none") || button.textContent;
    button.setAttribute("aria-disabled", "true");
    if (why) why.textContent = "";
    showNote(t, "");
    return;
  }
  const template = button.getAttribute("data-label-value") || "{value}";
  button.textContent = template.replace("{value}", t.digits(String(markedTotal(t))));
  const reason = verdict(t, button);
  // Without verdicts (a very large hand) the engine answers when Throw is pressed.
  if (reason) button.setAttribute("aria-disabled", "true");
  else button.removeAttribute("aria-disabled");
  if (why) why.textContent = reason || "";
  showNote(t, reason || "");
}

/**
 * One note at a time under the controls, at the top of their area (no note moves
 * another): why the marked cards may not go, else which marked card lands on top
 * (two or more marked), else why the card taken from the pile is barred, else why a
 * call is refused.
 */
function showNote(t: Table, reason: string): void {
  const area = t.board.querySelector<HTMLElement>(".dht-notes-area");
  if (!area) return;
  const why = area.querySelector<HTMLElement>(".dht-why--throw");
  const top = area.querySelector<HTMLElement>(".dht-hint");
  const barred = area.querySelector<HTMLElement>(".dht-note--barred");
  const call = area.querySelector<HTMLElement>(".dht-why--call");
  const chosen = (reason && why) || (t.state.hand.marks.length >= 2 && top) || barred || call;
  for (const note of [why, top, barred, call]) if (note) note.hidden = note !== chosen;
  area.scrollTop = 0;
  more(area);
}

/**
 * What the marked cards are worth, on the line above the hand: the same number as
 * Throw (seed 001's promise). With nothing marked its place is kept, unseen, with
 * the words it had, so the line never moves.
 */
function showMarked(t: Table): void {
  const chip = t.board.querySelector<HTMLElement>(".dht-hand__marked");
  if (!chip) return;
  const marked = t.state.hand.marks.length > 0;
  chip.hidden = !marked;
  if (marked) {
    chip.textContent = (chip.getAttribute("data-template") || "{value}").replace(
      "{value}",
      t.digits(String(markedTotal(t))),
    );
  }
}

/** "" when the engine allows the marked cards now, its reason when not, null if unknown. */
export function verdict(t: Table, button: HTMLElement): string | null {
  const order = (button.getAttribute("data-cards") || "").split(" ");
  const verdicts = button.getAttribute("data-verdicts");
  const reasons = parseJSON(button.getAttribute("data-reasons"));
  if (!verdicts || !Array.isArray(reasons)) return null;
  let mask = 0;
  for (const code of t.state.hand.marks) {
    const at = order.indexOf(code);
    if (at < 0) return null;
    mask |= 1 << at;
  }
  const digit = verdicts.charAt(mask - 1);
  const k = Number.parseInt(digit, 36);
  if (!digit || Number.isNaN(k)) return null;
  const text = k ? String(reasons[k] || "") : "";
  // the marked cards as the engine writes them in this language (data-words), else as printed
  const words = parseJSON(button.getAttribute("data-words"));
  const list = Array.isArray(words) ? words : [];
  return text.replace(
    "{cards}",
    t.state.hand.marks
      .map((code) => {
        const w: unknown = list[order.indexOf(code)];
        return typeof w === "string" ? w : printed(code);
      })
      .join(" "),
  );
}

/** Play, or New game beside "Continue your game" (which asks first: resume.ts). */
export function pressPlay(t: Table): void {
  startFresh(t, () => {
    t.state.core.focusOnStart = true; // the button disappears: carry focus to the table
    if (small()) openFull(t);
    void t.intent("play");
  });
}

function retry(t: Table, fresh: boolean): void {
  const core = t.state.core;
  core.starting = null;
  core.focusOnStart = true;
  // A fresh engine has no session: the game comes back from the address.
  core.live = false;
  if (fresh) {
    // Out of the error state whatever caused it, the page's link included: the link
    // goes, and a fresh game is dealt with the table's settings.
    core.carried = "";
    core.pending = { op: "new", ...t.defaults() };
    if (location.hash.indexOf("#table=") === 0) {
      try {
        history.replaceState(history.state, "", location.pathname + location.search);
      } catch {
        /* a sandboxed page may refuse: the request below still deals afresh */
      }
    }
  }
  t.setState("loading");
  void t.runtime.retry().then(
    () => t.intent("retry"),
    () => t.intent("retry"),
  );
}

function onClick(t: Table, ev: MouseEvent): void {
  const core = t.state.core;
  const target = closest(ev, "button, a[data-dht-play]");
  if (!target || !t.root.contains(target)) {
    if (!core.live && !core.starting && closest(ev, ".dht-board")) void t.intent("tap");
    return;
  }
  if (target.hasAttribute("data-dht-play")) {
    // Play is a link to the table's "play" address, which is for a press before the
    // page's script runs; Material's instant navigation must not see it either.
    ev.preventDefault();
    ev.stopPropagation();
    pressPlay(t);
    return;
  }
  if (target.hasAttribute("data-dht-full")) {
    if (t.state.place.full) closeFull(t, false);
    else openFull(t);
    return;
  }
  if (target.hasAttribute("data-dht-retry") || target.hasAttribute("data-dht-fresh")) {
    retry(t, target.hasAttribute("data-dht-fresh"));
    return;
  }
  if (target.hasAttribute("data-dht-skip")) {
    t.state.felt.playing?.skip();
    return;
  }
  if (target.hasAttribute("data-dht-share")) {
    share(t);
    return;
  }
  if (target.hasAttribute("data-dht-close")) {
    if (t.state.place.full) closeFull(t, false);
    else undock(t, false);
    return;
  }
  if (target.hasAttribute("data-dht-match")) {
    backToMatch(t); // the end of a practice deal (review.ts)
    return;
  }
  if ((target as HTMLButtonElement).disabled || !core.live || t.state.felt.playing) return;
  if (target.matches(".dht-card[aria-pressed]")) {
    toggle(t, target);
    return;
  }
  let action = target.getAttribute("data-action");
  if (action) {
    if (action === "throw") action = ["throw", ...t.state.hand.marks].join(" ");
    t.markPlayed();
    void t.send({ op: "act", action }).catch(() => {});
    return;
  }
  const op = target.getAttribute("data-op");
  if (op === "hint") {
    // The odds take a moment to count: presses meanwhile are one press, not a queue of work.
    const dock = t.state.dock;
    if (dock.hinting) return;
    dock.hinting = true;
    target.setAttribute("aria-busy", "true");
    const done = () => {
      dock.hinting = false;
    };
    t.send({ op: "hint" }).then(done, done);
    return;
  }
  if (op === "new-match") {
    // a fresh match: asked first over a game in progress (resume.ts)
    startFresh(t, () => {
      t.markPlayed();
      void t.send({ op: "new-match" }).catch(() => {});
    });
    return;
  }
  if (op === "next-deal" || op === "review" || op === "sort") {
    if (op !== "sort") t.markPlayed(); // sorting is not a move
    void t.send({ op }).catch(() => {});
  }
}

function share(t: Table): void {
  const hash = t.state.core.lastHash;
  if (!hash) return;
  const dock = t.state.dock;
  const button = t.root.querySelector("[data-dht-share]");
  const url = `${location.origin}${location.pathname}${location.search}#${hash}`;
  const shown = () => {
    // No clipboard here: the link, selected, for the reader to copy.
    if (!dock.shareLink) {
      const input = document.createElement("input");
      input.type = "text";
      input.readOnly = true;
      input.className = "dht-sharelink";
      dock.shareLink = input;
      placeDock(t);
    }
    dock.shareLink.setAttribute("aria-label", button?.getAttribute("data-shown") || "");
    dock.shareLink.value = url;
    t.say(button?.getAttribute("data-shown") || "", false);
    dock.shareLink.focus();
    dock.shareLink.select();
  };
  const copied = () => {
    t.say(button?.getAttribute("data-copied") || "", false);
    if (navigator.share)
      navigator.share({ title: button?.getAttribute("data-title") || document.title, url }).catch(() => {});
  };
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(url).then(copied, shown);
  else shown();
}

export function attachDock(t: Table): void {
  const root = t.root;
  root.addEventListener("click", (ev) => onClick(t, ev));
  root.addEventListener(
    "scroll",
    (ev) => {
      const target = ev.target as Element;
      if (target === t.status || target.matches?.(".dht-notes-area")) more(target);
    },
    { capture: true, passive: true },
  );
  // A finger (or mouse) or the keyboard, used last: a control pressed by finger shows
  // no focus ring when the table gives it the focus again.
  root.addEventListener("pointerdown", () => root.classList.add("dht-by-pointer"), true);
  root.addEventListener("keydown", () => root.classList.remove("dht-by-pointer"), true);
  t.moments.on("said", () => statusMore(t));
  t.moments.on("board", () => {
    placeDock(t);
    statusMore(t); // the same words in the new board's dock, and its notes
    // The dock's height, for the hand that stays on screen just above it while the
    // dock sticks to the bottom of the screen.
    const dockEl = t.board.querySelector(".dht-dock");
    if (!dockEl || typeof ResizeObserver === "undefined") return;
    const dock = t.state.dock;
    dock.dockWatch ??= new ResizeObserver((entries) => {
      const last = entries[entries.length - 1];
      if (last) root.style.setProperty("--dht-dock-h", `${Math.ceil(last.target.getBoundingClientRect().height)}px`);
    });
    dock.dockWatch.disconnect();
    dock.dockWatch.observe(dockEl);
  });
}
