/**
 * The mini table on every page, before the reader's intent: what every
 * page's script does for the table while its code is not loaded (and what
 * routes to it once it is).
 *
 * It watches for intent and loads the table's code then (loader.ts): Play,
 * "Continue your game" or the board pressed; the pointer resting on the table
 * (not passing over it while the page scrolls); the focus in it (on the
 * loader's own buttons the engine loads, but nothing is dealt until they are
 * pressed); a shared #table= link; a "play" link near the top of a rules page
 * or a worked example's "Play from here"; the engine already loaded by an
 * earlier page of the visit. Never on scrolling alone, and, when the browser
 * asks to spare the line, only on a press.
 *
 * Meanwhile it shows what needs no code of the table's: the reader's display
 * preferences, "Continue your game" where a game is kept, the note for a
 * line to spare. And on every page (again after each of Material's instant
 * navigations, carrying a game the table held when the same page is drawn
 * again): the language menu takes the game along, Back and Forward between a
 * worked example and its table are the table's own steps, Material's "back to
 * top" button stays away while a table is on screen.
 */

import { frugal } from "../lib/connection";
import { closest } from "../lib/dom";
import { remove, write } from "../lib/storage";
import { cssEscape } from "../lib/text";
import { holdEngine, loadedRuntime, runtimeCode } from "../page/engine";
import { unfold } from "./later";
import { controller, loadedTableCode, type TableModule, tableCode } from "./loader";
import { offerResume } from "./offers";
import { applyPrefs, prefChanged, prefs, showPrefs } from "./prefs";
import { controllerOf, controllers$, forget } from "./registry";
import { CARRY_KEY, FULL_GAME_KEY, FULL_KEY, ownGames, tableHash, unplayedFullGame } from "./saved";
import type { Intent, Table } from "./table";

const REST_MS = 600; // the pointer resting on the table this long is intent
const DOCK_KEY = "play-";
/** Games carried by the tables of the page instant navigation left, by table id. */
let carriedGames: Record<string, string> = {};
/** Tables of the page instant navigation drew again that the reader had pressed, not dealt yet, by id. */
let pressedAgain = new Set<string>();
/** The page each table was drawn on (a table pressed carries its press only to the same page). */
const pageOf = new WeakMap<Element, string>();
/** The tables pressed (Play, Continue, a link) on this page, by id: their press outlives a redraw. */
const pressedOn = new Map<string, Element>();
let scrolledAt = -1e9;
let watcher: IntersectionObserver | null = null;
const bound = new WeakSet<Element>();

function roots(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>("[data-dhumbal-table]"));
}

function pageRoot(): HTMLElement | null {
  return document.querySelector<HTMLElement>("[data-dhumbal-table]");
}

/** The table's controller (its code loaded on the way), then `then` with it and the table's code. */
function withTable(root: HTMLElement, then: (t: Table, code: TableModule) => void): void {
  const carried = () => {
    const game = carriedGames[root.id || "dh-table"] || "";
    delete carriedGames[root.id || "dh-table"];
    return game;
  };
  holdEngine(
    Promise.all([controller(root, carried), tableCode()]).then(
      ([t, code]) => then(t, code),
      (err: unknown) => {
        console.error(err);
        root.setAttribute("data-state", "error");
      },
    ),
  );
}

/**
 * The engine starts loading as soon as its runtime module is here, beside the table's
 * code and styles rather than after them: the table's own intent then finds it on the
 * way (Play to first move, issue 49; DECISIONS.md).
 */
function startEngine(): void {
  runtimeCode().then(
    (runtime) => runtime.ensure().catch(() => {}), // (a failure is the table's to show, as it mounts)
    () => {}, // (no module: tableCode() reports it)
  );
}

/** Intent: the table's code, then the engine (not on a line to spare, without a press). */
function intent(root: HTMLElement, how: Intent): void {
  const here = controllerOf(root);
  if (here) {
    void here.intent(how);
    return;
  }
  const pressed = how === "play" || how === "position" || how === "profile" || how === "retry";
  if (!pressed && frugal() && loadedRuntime()?.status !== "ready") return;
  withTable(root, (t) => void t.intent(how));
  startEngine();
}

/** A table pressed before its code is here: it starts at once, as it will answer. */
function pressed(root: HTMLElement, then: (t: Table, code: TableModule) => void): void {
  pressedOn.set(root.id || "dh-table", root);
  if (root.getAttribute("data-state") === "static") root.setAttribute("data-state", "loading");
  startEngine();
  withTable(root, (t, code) => {
    if (root.getAttribute("data-state") === "loading" && !t.state.core.starting)
      root.setAttribute("data-state", "static");
    then(t, code);
  });
}

function bind(root: HTMLElement): void {
  if (bound.has(root)) return;
  bound.add(root);
  // The pointer resting on the table: not passing over it while the page scrolls.
  let rest: ReturnType<typeof setTimeout> | undefined;
  const resting = () => {
    if (performance.now() - scrolledAt < REST_MS) {
      rest = setTimeout(resting, REST_MS);
      return;
    }
    intent(root, "pointer");
  };
  const near = (ev: PointerEvent) => {
    if (controllerOf(root)?.state.core.starting || ev.pointerType === "touch") return;
    clearTimeout(rest);
    rest = setTimeout(resting, REST_MS);
  };
  root.addEventListener("pointerenter", near);
  root.addEventListener("pointermove", near);
  root.addEventListener("pointerleave", () => clearTimeout(rest));
  root.addEventListener("focusin", (ev) => {
    // (on the loader's buttons, Play or Continue, the focus waits for their press)
    if (ev.target === root) return;
    const loader = root.querySelector(".dht-loader");
    intent(root, loader?.contains(ev.target as Node) ? "preload" : "focus");
  });
  // Before the table's code is here, its presses are taken here (after, the code's own).
  root.addEventListener("click", (ev) => {
    // (the settings opened before the table's code: their form is put in place first)
    if (closest(ev, ".dht-settings > summary")) unfold(root);
    if (controllerOf(root)) return;
    if (closest(ev, "a[data-dht-play]")) {
      // Play is a link to the table's "play" address (for a press before any script);
      // Material's instant navigation must not see it.
      ev.preventDefault();
      ev.stopPropagation();
      pressed(root, (t, m) => m.pressPlay(t));
    } else if (closest(ev, "[data-dht-continue]")) {
      pressed(root, (t, m) => m.resume(t, false));
    } else if (closest(ev, ".dht-board")) {
      intent(root, "tap");
    }
  });
  // (the settings opened otherwise, as by the browser's find in page)
  root.addEventListener(
    "toggle",
    (ev) => {
      if ((ev.target as Element).matches?.(".dht-settings")) unfold(root);
    },
    true,
  );
  // The display preferences, kept as they change; turned on, the cue is given once now,
  // to hear (or feel) what it will be.
  root.addEventListener("change", (ev) => {
    const on = prefChanged(ev.target as Element);
    if (on) withTable(root, (_, m) => m.cue("turn", on));
  });
  // Play is a link that acts as a button: Space presses it too (Enter does by itself).
  root.addEventListener("keydown", (ev) => {
    const play = closest(ev, "a[data-dht-play]");
    if (ev.key !== " " || !play) return;
    ev.preventDefault();
    play.click();
  });
}

/**
 * Play (or a page's "play" link) pressed before the page's scripts ran: the control
 * is a link to "#<table id>-play", so the press left that address. It counts now:
 * the address is put back as it was and the table starts.
 */
function pressedEarly(root: HTMLElement): void {
  if (location.hash !== `#${root.id}-play`) return;
  leavePlayAddress();
  const cont = root.querySelector<HTMLElement>("[data-dht-continue]:not([hidden])");
  if (cont) {
    // the reader has a game in progress: the table offers it (focused), deals nothing
    if (matchMedia?.("(max-width: 44.9375em), (max-height: 32em)").matches) {
      pressed(root, (t, m) => {
        m.reveal(t);
        cont.focus({ preventScroll: true });
      });
    } else {
      root.scrollIntoView({ block: "start" });
      cont.focus({ preventScroll: true });
    }
    return;
  }
  pressed(root, (t, m) => {
    t.state.core.focusOnStart = true;
    void t.intent("play");
    if (m.small()) {
      m.reveal(t); // the full table, at once
      return;
    }
    // else the table scrolled into view, once the page has loaded (the browser and
    // Material set the page's scroll until then)
    const show = () => setTimeout(() => root.isConnected && m.reveal(t), 0);
    if (document.readyState === "complete") show();
    else window.addEventListener("load", show, { once: true });
  });
}

/** A table just drawn with its page: what it offers, and what it starts. */
function arrive(root: HTMLElement): void {
  bind(root);
  pageOf.set(root, location.pathname);
  showPrefs(root);
  offerResume(root);
  if (frugal()) root.querySelector<HTMLElement>(".dht-frugal")?.removeAttribute("hidden");
  const hash = tableHash();
  // A reload of the page whose full table held a game the reader had not moved in yet:
  // that game again (the full table opens again as the table mounts: place.ts).
  const carried = carriedGames[root.id || "dh-table"];
  const unplayed = hash || carried ? "" : unplayedFullGame();
  if (hash || carried || unplayed) {
    // A shared game comes into view; the reader's own game (Back, Forward) only when it
    // was carried to another language.
    let show = !carried && !unplayed && !ownGames().includes(hash);
    try {
      if (sessionStorage.getItem(CARRY_KEY) === hash && hash) {
        show = true;
        sessionStorage.removeItem(CARRY_KEY);
      }
    } catch {
      /* storage refused */
    }
    withTable(root, (t, m) => {
      if (unplayed && !t.state.core.carried) {
        t.state.core.carried = unplayed;
        t.state.core.unplayed = true;
      }
      if (show) m.reveal(t);
      void t.intent("link");
    });
  } else if (pressedAgain.has(root.id || "dh-table")) {
    // Play was pressed on this page and Material's instant navigation drew it again before
    // the deal came (it may, on an early press's history step): the press still counts.
    withTable(root, (t) => void t.intent("play"));
  } else if (loadedRuntime()?.status === "ready") {
    withTable(root, (t) => void t.intent("ready")); // the engine is here already: no new download
  }
  pressedEarly(root);
}

let firstPage = true;

function setup(): void {
  applyPrefs(prefs());
  // A page drawn by instant navigation: no full table of an earlier page comes back on a reload.
  if (!firstPage) {
    remove("sessionStorage", FULL_KEY);
    remove("sessionStorage", FULL_GAME_KEY);
  }
  firstPage = false;
  // A full table left behind by a page change no longer holds the page.
  if (!document.querySelector(".dh-table--full")) document.documentElement.classList.remove("dh-full-table");
  for (const t of controllers$()) {
    if (t.root.isConnected) continue;
    const game = t.gameAt();
    if (game) carriedGames[t.id] = game;
    else if (t.state.core.wanted && !t.state.core.live && pageOf.get(t.root) === location.pathname)
      pressedAgain.add(t.id);
    forget(t);
  }
  // A pressed table of this page drawn again, controller or not: the loop above has carried
  // every game with a move in it; any other is pressed again on the redrawn table (dealt
  // afresh if it was live with no move yet), also one whose code came after the press but
  // before the press reached it. (The loop above has forgotten the controllers by now.)
  for (const [id, old] of pressedOn) {
    if (old.isConnected) continue;
    pressedOn.delete(id);
    if (!carriedGames[id] && pageOf.get(old) === location.pathname) pressedAgain.add(id);
  }
  const all = roots();
  for (const root of all) if (!bound.has(root)) arrive(root);
  carriedGames = {};
  pressedAgain = new Set();
  // Material's "back to top" button stays away while a table is on screen.
  watcher?.disconnect();
  if ("IntersectionObserver" in window && all.length) {
    watcher = new IntersectionObserver((entries) => {
      document.documentElement.classList.toggle(
        "dh-table-in-view",
        entries.some((e) => e.isIntersecting),
      );
    });
    for (const root of all) watcher.observe(root);
  }
  // An address made by "Play from here" opens that example's table again.
  const h = location.hash.replace(/^#/, "");
  const root = pageRoot();
  if (h.indexOf(DOCK_KEY) === 0 && root) {
    const button = document.querySelector<HTMLElement>(
      `.dh-play-from[data-example="${cssEscape(h.slice(DOCK_KEY.length))}"]`,
    );
    if (button) withTable(root, (t, m) => !t.state.place.dock && m.playFrom(t, button, true));
  }
}

function onDocumentClick(ev: MouseEvent): void {
  const root = pageRoot();
  if (root && !bound.has(root)) setup(); // instant navigation drew the page before telling its scripts
  const from = closest(ev, ".dh-play-from");
  if (from && root) {
    ev.preventDefault();
    pressed(root, (t, m) => m.playFrom(t, from, false));
    return;
  }
  if (closest(ev, "[data-dh-play-continue]") && root) {
    // "Continue your game" near the top: the reader's game on the table (and out of Material's sight)
    ev.preventDefault();
    ev.stopPropagation();
    pressed(root, (t, m) => m.resume(t, true));
    return;
  }
  if (closest(ev, "[data-dh-play-profile]") && root) {
    // The link jumps to the table by itself without a script; here the table is
    // scrolled to, set and started instead, and Material must not see the click (on a
    // first same-page link it fetches the page again and replaces the table).
    ev.preventDefault();
    ev.stopPropagation();
    pressed(root, (t, m) => m.openRules(t));
    return;
  }
  // The language menu takes the reader's game along to the other language.
  const lang = closest<HTMLAnchorElement>(ev, "a.md-select__link[hreflang]");
  const hash = tableHash();
  if (lang && hash) {
    lang.href = `${lang.href.split("#")[0]}#${hash}`;
    write("sessionStorage", CARRY_KEY, hash);
  }
}

/** The address as it was before an early press on Play took the reader to "#<table id>-play". */
function leavePlayAddress(): void {
  try {
    history.replaceState(history.state, "", location.pathname + location.search);
  } catch {
    /* the table still starts */
  }
}

function onHashChange(): void {
  // A press on Play while the page loaded that the browser applied only after the page's
  // script had looked (a tap's navigation can come late): it counts as the early press,
  // or, if the table is starting already, only the address is put back.
  const early = roots().find((r) => location.hash === `#${r.id}-play`);
  if (early) {
    const core = controllerOf(early)?.state.core;
    if (core && (core.live || core.starting)) leavePlayAddress();
    else pressedEarly(early);
    return;
  }
  const hash = tableHash();
  if (!hash) return;
  const root = roots().find((r) => controllerOf(r)?.state.core.lastHash !== hash);
  if (!root) return;
  withTable(root, (t) => {
    if (hash === t.state.core.lastHash) return;
    t.markPlayed();
    if (t.state.core.live) void t.send(t.restoreRequest(hash)).catch(() => {});
    else void t.intent("link");
  });
}

/** head.ts asks, for each step of history, whether it was the table's own (then Material must not see it). */
function onPopState(ev: Event): void {
  const t = controllerOf(pageRoot());
  if (!t) return;
  // The table's code is here once a controller is.
  if (loadedTableCode()?.ownHistory(t)) ev.preventDefault();
}

/** Whether the page's script has set this table up (it listens for the reader's intent). */
export function tableSetUp(root: Element | null): boolean {
  return !!root && bound.has(root);
}

export function setupTables(): void {
  setup();
}

export function startTables(): void {
  window.addEventListener("scroll", () => (scrolledAt = performance.now()), { passive: true });
  document.addEventListener("click", onDocumentClick, true);
  window.addEventListener("hashchange", onHashChange);
  window.addEventListener("dhumbal:popstate", onPopState);
  window.addEventListener("storage", (ev) => {
    if (ev.key === "dhumbal:last-game" || ev.key === null) {
      for (const root of roots()) {
        const t = controllerOf(root);
        const code = loadedTableCode();
        if (t && code) code.offer(t);
        else offerResume(root);
      }
    }
  });
}
