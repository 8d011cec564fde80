/**
 * The table's place on the page: brought into view (a shared link, a "play"
 * link), moved beside a worked example by "Play from here" (Back or Close
 * puts it home again), and the full table: on a phone (a narrow screen, or a
 * short one held sideways) Play, a "play" link, "Play from here" and
 * "Continue your game" open the table over the whole screen, and "Full
 * table" does so on any screen. The full table is the same element, fixed
 * over the page (which stays as it was, out of reach of the keyboard and of
 * screen readers meanwhile); it has its own history entry, so the phone's
 * Back closes it, as do Close and Escape; the address keeps the game. A
 * reload restores it: this tab keeps which page's table was full (session
 * storage, FULL_KEY: Material rewrites history entries' state with the page's
 * scroll), and a reload of that page opens its table full again, with its
 * game: the address's, or before the reader's first move the one kept
 * beside FULL_KEY (FULL_GAME_KEY; bootstrap.ts restores it). Owns the
 * place's slice of the state.
 */

import { frugal } from "../lib/connection";
import { readText, remove, write } from "../lib/storage";
import { parseJSON } from "../lib/text";
import { difficultyOf, namesOf, type TableRequest } from "../protocol/messages";
import { guideOpen } from "./guide";
import { startFresh } from "./resume";
import { FULL_GAME_KEY, FULL_KEY } from "./saved";
import type { Table } from "./table";

export const DOCK_KEY = "play-";

const SMALL = "(max-width: 44.9375em), (max-height: 32em)";

/** A phone's screen (narrow, or short when held sideways): the table opens full. */
export function small(): boolean {
  return !!window.matchMedia?.(SMALL).matches;
}

interface HistoryState {
  dhFull?: string;
  dhReview?: unknown;
  dhPracticeOf?: unknown;
  [key: string]: unknown;
}

function historyState(): HistoryState | null {
  const state: unknown = history.state;
  return state && typeof state === "object" ? (state as HistoryState) : null;
}

/** Bring the table into view and give it the focus; on a phone, the full table. */
export function reveal(t: Table): void {
  if (small()) {
    openFull(t);
    return;
  }
  t.root.scrollIntoView({ block: "start" });
  t.root.focus({ preventScroll: true });
}

/** `again`: the entry this table's full view made before a reload, taken again (no new entry). */
export function openFull(t: Table, again?: string): void {
  const place = t.state.place;
  if (place.full) return;
  const root = t.root;
  const full = {
    y: window.scrollY,
    x: window.scrollX,
    inert: [] as HTMLElement[],
    entry: false,
    focus: document.activeElement,
    mark: again || `f${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
  };
  place.full = full;
  // Everything else on the page is out of reach while the table fills the screen.
  for (let el: HTMLElement | null = root; el?.parentElement && el !== document.body; el = el.parentElement) {
    for (const s of Array.from(el.parentElement.children) as HTMLElement[]) {
      if (s !== el && !s.inert && s.tagName !== "SCRIPT" && s.tagName !== "STYLE") {
        s.inert = true;
        full.inert.push(s);
      }
    }
  }
  write("sessionStorage", FULL_KEY, location.pathname);
  // (a game not played yet is not in the address: kept for a reload, see saved.ts)
  const core = t.state.core;
  if (core.lastHash && !core.played) write("sessionStorage", FULL_GAME_KEY, core.lastHash);
  else remove("sessionStorage", FULL_GAME_KEY);
  root.classList.add("dh-table--full");
  root.setAttribute("role", "dialog");
  root.setAttribute("aria-modal", "true");
  document.documentElement.classList.add("dh-full-table");
  // Its own history entry (the same address): Back closes the full table. The entry,
  // and those the table adds while it is open (a review's "Play from here"), carry its
  // mark: a step of history to an entry without it leaves the full table.
  if (again) {
    full.entry = true;
  } else {
    try {
      const state: HistoryState = { ...historyState(), dhFull: full.mark };
      delete state.dhReview; // (the entry below keeps the review's step)
      delete state.dhPracticeOf;
      history.pushState(state, "", location.href);
      full.entry = true;
    } catch {
      /* Close and Escape still close it */
    }
  }
  root.scrollTop = 0;
  root.focus({ preventScroll: true });
  measureTools(t);
  t.moments.emit("full", true);
}

/**
 * The widths of Share and Close, which the settings' heading line leaves free, and of
 * that heading line, after which the log's button comes when the table is held
 * sideways: they depend on the language's words.
 */
function measureTools(t: Table): void {
  const root = t.root;
  const tools = root.querySelector(".dht-tools");
  const settings = root.querySelector(".dht-settings > summary");
  if (!tools) return;
  const set = () => {
    root.style.setProperty("--dht-tools-w", `${Math.ceil(tools.getBoundingClientRect().width)}px`);
    const label = settings?.querySelector(".dht-settings__label");
    if (label) {
      root.style.setProperty(
        "--dht-settings-w",
        `${Math.ceil(label.getBoundingClientRect().right - root.getBoundingClientRect().left)}px`,
      );
    }
  };
  set();
  const place = t.state.place;
  if (!place.toolsWatch && typeof ResizeObserver !== "undefined") {
    place.toolsWatch = new ResizeObserver(set);
    place.toolsWatch.observe(tools);
    if (settings) place.toolsWatch.observe(settings);
  }
}

/** `fromHistory`: the reader went Back (the entry is gone already). */
export function closeFull(t: Table, fromHistory: boolean): void {
  const place = t.state.place;
  const full = place.full;
  if (!full) return;
  place.full = null;
  remove("sessionStorage", FULL_KEY);
  remove("sessionStorage", FULL_GAME_KEY);
  const root = t.root;
  for (const el of full.inert) el.inert = false;
  root.classList.remove("dh-table--full");
  root.removeAttribute("role");
  root.removeAttribute("aria-modal");
  document.documentElement.classList.remove("dh-full-table");
  window.scrollTo(full.x, full.y);
  if (full.entry && !fromHistory) {
    place.leaving = true; // the Back below is the table's own step
    try {
      history.back();
    } catch {
      place.leaving = false;
    }
  } else if (fromHistory) {
    keepAddress(t);
  }
  const back = root.querySelector<HTMLElement>("[data-dht-full]");
  const before = full.focus as HTMLElement | null;
  if (before?.isConnected && !root.contains(before)) before.focus({ preventScroll: true });
  else if (back?.offsetParent) back.focus({ preventScroll: true });
  else root.focus({ preventScroll: true });
  t.moments.emit("full", false);
}

/** The step that closed the full table went back to an entry made before the game's last move: the address takes the game again. */
function keepAddress(t: Table): void {
  const core = t.state.core;
  if (!core.played || !core.lastHash || t.path !== location.pathname) return;
  if (location.hash === `#${core.lastHash}`) return;
  try {
    history.replaceState(history.state, "", `${location.pathname}${location.search}#${core.lastHash}`);
  } catch {
    /* the table still holds the game */
  }
}

/** A step of history while the full table is open, or the step its Close made: true when it was the table's own. */
export function fullHistory(t: Table): boolean {
  const place = t.state.place;
  if (place.leaving) {
    place.leaving = false;
    keepAddress(t);
    return true;
  }
  if (place.full && historyState()?.dhFull === place.full.mark) {
    return true; // a step between the table's own entries (a review's "Play from here"): it stays open
  }
  if (place.full) {
    closeFull(t, true);
    return true;
  }
  return false;
}

/**
 * "Play these rules": the table, set to the page's rules, started. Over the reader's
 * game in progress, a fresh game is asked first.
 */
export function openRules(t: Table): void {
  if (t.state.place.dock) undock(t, false, true);
  const wanted = t.root.getAttribute("data-profile") || "";
  const current = t.board.querySelector(".dht-play-area")?.getAttribute("data-profile-key") || "";
  if (t.state.core.live && !(wanted && current && wanted.split("(")[0] !== current)) {
    reveal(t); // these rules are on the table already: the game goes on
    return;
  }
  startFresh(t, () => {
    reveal(t);
    t.state.core.focusOnStart = true;
    if (t.state.core.live) void t.send({ op: "new", ...t.defaults() }).catch(() => {});
    else void t.intent("profile");
  });
}

/** Which panel of a worked example is on screen: the one its step control shows, else the first. */
function panelOnScreen(example: Element): number {
  if (example.getAttribute("data-stepper") !== "on") return 0;
  const steps = Array.from(example.querySelectorAll<HTMLElement>(".dh-steps > .dh-step"));
  return Math.max(
    0,
    steps.findIndex((step) => !step.hidden),
  );
}

const positions = new Map<string, Promise<unknown[]>>();

/** A worked example's positions, one per panel (the build writes them beside the page code). */
function examplePositions(id: string): Promise<unknown[]> {
  let got = positions.get(id);
  if (!got) {
    got = fetch(new URL(`examples/${encodeURIComponent(id)}.json`, import.meta.url)).then(async (r) => {
      if (!r.ok) throw new Error(`no positions for ${id}: HTTP ${r.status}`);
      const data = (await r.json()) as { states?: unknown };
      return Array.isArray(data.states) ? data.states : [];
    });
    positions.set(id, got);
    got.catch(() => positions.delete(id));
  }
  return got;
}

/**
 * The position "Play from here" starts from, as the engine's "position" request takes
 * it: a puzzle's own (its button carries it), else the worked example's at the step on
 * screen (a step that ends the deal has none: the one before counts).
 */
function positionOf(button: HTMLElement, example: Element): Promise<string | null> {
  const given = button.getAttribute("data-state-json");
  if (given) return Promise.resolve(given);
  const id = button.getAttribute("data-example") || "";
  const names = parseJSON(button.getAttribute("data-names"));
  return examplePositions(id).then((states) => {
    for (let i = Math.min(panelOnScreen(example), states.length - 1); i >= 0; i--) {
      if (states[i]) return JSON.stringify({ state: states[i], names });
    }
    return null;
  });
}

/** "Play from here" on a worked example: its position, on the table moved right beside it; Back or Close puts it back. */
export function playFrom(t: Table, button: HTMLElement, fromAddress: boolean): void {
  const example = button.parentElement?.closest(".dh-example, [data-example]") || button.parentElement;
  if (!example) return;
  dockAt(t, example, button, !fromAddress);
  if (!fromAddress && small()) openFull(t);
  t.markPlayed();
  const core = t.state.core;
  const waits = fromAddress && frugal();
  if (!core.live && !waits) t.runtime.ensure().catch(() => {}); // the engine loads while the position comes
  const afterwards = () =>
    (
      t.board.querySelector<HTMLElement>(".dht-card[aria-pressed]") ||
      t.board.querySelector<HTMLElement>("[data-action]")
    )?.focus({
      preventScroll: true,
    });
  positionOf(button, example).then(
    (state) => {
      if (!state) return;
      const payload: TableRequest = {
        op: "position",
        state,
        names: namesOf(parseJSON(button.getAttribute("data-names"))),
        difficulty: difficultyOf(t.root.getAttribute("data-difficulty")),
      };
      // A puzzle's button asks for the cards its seat cannot see dealt anew on each press.
      if (button.getAttribute("data-redeal") === "true") payload.redeal = true;
      if (core.live) {
        t.send(payload).then(afterwards, () => {});
        return;
      }
      core.pending = payload;
      const started = waits ? Promise.resolve() : t.intent("position");
      Promise.resolve(started)
        .then(() => (core.pending && core.live ? t.begin() : null)) // the engine started with another request first
        .then(afterwards, () => {});
    },
    () => t.setState("error", "blocked"),
  );
}

export function dockAt(t: Table, example: Element, button: HTMLElement, push: boolean): void {
  const root = t.root;
  const place = t.state.place;
  if (!place.dock) {
    const marker = document.createComment("dhumbal table");
    root.parentNode?.insertBefore(marker, root);
    place.dock = { marker };
  }
  const dock = place.dock;
  const id = button.getAttribute("data-example") || example.id || "";
  dock.example = example;
  dock.button = button;
  example.parentNode?.insertBefore(root, example.nextSibling);
  root.classList.add("dh-table--docked");
  root.setAttribute("data-docked", id);
  if (push) {
    dock.hash = `#${DOCK_KEY}${id}`;
    try {
      history.pushState(history.state, "", location.pathname + location.search + dock.hash);
    } catch {
      /* no history entry: Close still returns */
    }
  } else {
    dock.hash = location.hash;
  }
  // The table under the example, the example's end still in sight above it when the
  // table is not taller than the screen.
  const tall = root.getBoundingClientRect().height > innerHeight * 0.85;
  root.scrollIntoView({ block: tall ? "start" : "end" });
}

/** Back to its own place at the end of the page; the reader back at the example. */
export function undock(t: Table, fromHistory: boolean, quiet = false): void {
  const place = t.state.place;
  const dock = place.dock;
  if (!dock) return;
  const ours = location.hash === dock.hash;
  place.dock = null;
  const root = t.root;
  if (dock.marker.parentNode) {
    dock.marker.parentNode.insertBefore(root, dock.marker);
    dock.marker.remove();
  }
  root.classList.remove("dh-table--docked");
  root.removeAttribute("data-docked");
  place.lastDock = dock;
  if (quiet) return;
  const button = dock.button;
  if (button?.isConnected) {
    button.focus({ preventScroll: true });
    // Back restores where the reader was; if nothing did, the example's button comes into view.
    requestAnimationFrame(() => {
      const r = button.getBoundingClientRect();
      if (r.bottom < 0 || r.top > innerHeight) button.scrollIntoView({ block: "center" });
    });
  }
  if (!fromHistory && ours) {
    try {
      history.back(); // leave the entry "Play from here" made; popstate finds the table home
    } catch {
      /* nothing to go back to */
    }
  }
}

/** Back and Forward between "Play from here" and the example are the table's own: true when this step was. */
export function ownHistory(t: Table): boolean {
  const place = t.state.place;
  if (fullHistory(t)) return true;
  if (place.dock && location.hash !== place.dock.hash) {
    undock(t, true);
    return true;
  }
  const last = place.lastDock;
  if (!place.dock && last?.example && last.button && location.hash === last.hash && last.example.isConnected) {
    dockAt(t, last.example, last.button, false); // Forward: beside the example again
    return true;
  }
  return false;
}

export function attachPlace(t: Table): void {
  t.root.addEventListener("keydown", (ev) => {
    // (Escape in the question before a new game closes the question only; with the
    // guide open, the guide goes first: guide.ts)
    const target = ev.target as Element | null;
    if (
      ev.key === "Escape" &&
      t.state.place.full &&
      !ev.defaultPrevented &&
      !target?.closest?.("dialog") &&
      !guideOpen(t)
    ) {
      ev.preventDefault();
      closeFull(t, false);
    }
  });
  // A table restored by a reload of the page whose full table was open opens full again
  // (the reload keeps the history entry the full table made: Back still closes it).
  const navigation = performance.getEntriesByType?.("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (navigation?.type === "reload" && readText("sessionStorage", FULL_KEY) === location.pathname) {
    openFull(t, `f${Date.now().toString(36)}`);
  }
}
