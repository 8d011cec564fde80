/**
 * The site on this device: the service worker (sw.js, written by
 * sitegen/dhumbal_site/offline.py from serviceworker.js).
 *
 * Once the page has loaded, this registers the service worker at the site
 * root and asks it to keep every page of the language being read (unless the
 * browser asks to save data: then only the pages read are kept). While the
 * table's engine is loading, the reader waits for it: the service worker, and
 * its downloads, come once the engine is ready (or has failed). When a new
 * build of the site takes over while a page is open (its controllerchange, or
 * the new service worker's "updated" message), a quiet notice says so, with a
 * button that shows the new version; until the page is reloaded, links load
 * whole pages (the new build's), not Material's instant navigation. On the
 * offline page, "Try again" loads the address again and the list shows the
 * pages this device keeps.
 *
 * `offline.status`: "idle" | "unsupported" | "off" | "registering" | "keeping" |
 * "ready" | "error" (also on <html data-dh-offline>); `offline.ready` settles
 * once the language is kept (or the service worker cannot be used);
 * `offline.build` is the id of the build that controls the page, once known.
 * It runs once per full page load (instant navigation keeps the window).
 */

import { saveData } from "../lib/connection";
import { parseJSON } from "../lib/text";
import { engineIdle, engineReady } from "./engine";

type OfflineStatus = "idle" | "unsupported" | "off" | "registering" | "keeping" | "ready" | "error";

interface Config {
  sw?: string;
  updated?: string;
  reload?: string;
  close?: string;
}

interface Answer {
  ok?: boolean;
  build?: string;
}

let settle: (status: OfflineStatus) => void = () => {};

export const offline = {
  status: "idle" as OfflineStatus,
  build: null as string | null,
  ready: new Promise<OfflineStatus>((resolve) => {
    settle = resolve;
  }),
};

// Chromium stops the old worker before a newer one takes over, and a message to the
// old one in that moment can leave the new one waiting for minutes: a newer build
// waiting to take over is asked again every NUDGE_MS, and nothing asked of the old one.
const NUDGE_MS = 2000;
const NOTICE_MS = 15000;

function setStatus(status: OfflineStatus): void {
  offline.status = status;
  document.documentElement.setAttribute("data-dh-offline", status);
  if (status !== "registering" && status !== "keeping") settle(status);
}

function ask(worker: ServiceWorker, message: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event: MessageEvent<Answer>) => resolve(event.data || {});
    try {
      worker.postMessage(message, [channel.port2]);
    } catch (err) {
      reject(err);
    }
  });
}

/** The worker to ask: the active one, once no newer build is on its way. */
function current(registration: ServiceWorkerRegistration): Promise<ServiceWorker> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setInterval> | null = null;
    const check = () => {
      const newer = registration.installing || registration.waiting;
      if (!newer && registration.active) {
        if (timer) clearInterval(timer);
        resolve(registration.active);
        return;
      }
      if (newer && newer.state === "installed") newer.postMessage({ type: "take-over" });
      if (!timer) timer = setInterval(check, NUDGE_MS);
    };
    check();
  });
}

const idleEngine = engineIdle;

function register(container: ServiceWorkerContainer, config: Config, base: string): void {
  setStatus("registering");
  idleEngine()
    .then(() => container.register(new URL(config.sw || "", base).href, { scope: base, updateViaCache: "none" }))
    .then(
      (registration) =>
        new Promise<ServiceWorkerRegistration>((resolve, reject) => {
          // Active at once, or once installed; an install that fails (a file of the site
          // that does not match its build) leaves the worker redundant.
          const installing = registration.installing || registration.waiting;
          installing?.addEventListener("statechange", () => {
            if (installing.state === "redundant" && !registration.active) reject(new Error("install failed"));
          });
          void container.ready.then(resolve);
        }),
    )
    .then((registration) => {
      setStatus("keeping");
      return idleEngine()
        .then(() => current(registration))
        .then((active) => {
          const lang = document.documentElement.getAttribute("lang") || "en";
          return ask(active, { type: "keep", lang, saveData: saveData() });
        });
    })
    .then((answer) => {
      offline.build = answer.build || null;
      setStatus(answer.ok ? "ready" : "error");
      keepEngine(container);
    })
    .catch(() => setStatus("error"));
}

// Once the table has started here, the service worker keeps its worker script too (the
// worker itself keeps the engine's files), for the next visit offline.
function keepEngine(container: ServiceWorkerContainer): void {
  engineReady()
    .then(() => container.ready.then(current).then((active) => ask(active, { type: "engine" })))
    .catch(() => {});
}

function unregister(container: ServiceWorkerContainer, base: string): void {
  // Under `mkdocs serve` (no service worker): a page kept by an earlier build must not be shown.
  container
    .getRegistrations()
    .then((registrations) => {
      for (const registration of registrations) if (registration.scope === base) void registration.unregister();
    })
    .then(
      () => setStatus("off"),
      () => setStatus("off"),
    );
}

// -- the "updated" notice -------------------------------------------------------------

let notice: HTMLElement | null = null;

function fullLoads(event: MouseEvent): void {
  // After an update, a link within the site loads the whole page.
  const link = (event.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
  if (!link || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || (url.pathname === location.pathname && url.hash)) return;
  event.stopPropagation(); // Material's instant navigation never sees it; the browser follows the link
}

function measure(): void {
  if (notice && !notice.hidden) {
    document.documentElement.style.setProperty("--dh-updated-height", `${notice.offsetHeight}px`);
  }
}

function hideUpdated(): void {
  if (!notice) return;
  notice.hidden = true;
  document.documentElement.classList.remove("dh-updated-on");
  document.documentElement.style.removeProperty("--dh-updated-height");
  window.removeEventListener("resize", measure);
}

function showUpdated(config: Config): void {
  document.addEventListener("click", fullLoads, true);
  if (notice || !config.updated) return;
  const box = document.createElement("div");
  notice = box;
  box.className = "dh-updated";
  box.setAttribute("role", "status");
  const text = document.createElement("p");
  text.className = "dh-updated__text";
  text.textContent = config.updated;
  const reload = document.createElement("button");
  reload.type = "button";
  reload.className = "dh-updated__reload";
  reload.textContent = config.reload || "";
  reload.addEventListener("click", () => location.reload());
  const close = document.createElement("button");
  close.type = "button";
  close.className = "dh-updated__close";
  close.setAttribute("aria-label", config.close || "");
  close.textContent = "\u00d7";
  close.addEventListener("click", hideUpdated);
  box.append(text, reload, close);
  document.body.appendChild(box);
  // At the bottom of the screen, above the safe area: never over the page's title or
  // header. While a table is on screen it waits, hidden by the stylesheet; the page
  // ends above it (html.dh-updated-on pads the body by its height).
  document.documentElement.classList.add("dh-updated-on");
  measure();
  window.addEventListener("resize", measure);
  // Quiet: it goes by itself after NOTICE_MS on screen (not counting the time it waits,
  // or the reader points at it or is on its buttons).
  let shown = 0;
  const clock = setInterval(() => {
    if (box.hidden) {
      clearInterval(clock);
      return;
    }
    if (!box.offsetParent || box.matches(":hover, :focus-within")) return;
    shown += 1000;
    if (shown >= NOTICE_MS) {
      clearInterval(clock);
      hideUpdated();
    }
  }, 1000);
}

// -- the offline page -------------------------------------------------------------------

function offlinePage(): void {
  const root = document.querySelector("[data-dh-offline]");
  if (!root) return;
  root.querySelector("[data-dh-offline-retry]")?.addEventListener("click", () => location.reload());
  if (!window.caches) return;
  const items = Array.from(root.querySelectorAll<HTMLElement>("[data-dh-offline-pages] li"));
  void Promise.all(
    items.map((item) => {
      const href = item.querySelector("a")?.getAttribute("href") || "";
      return caches.match(new URL(href, location.href).href).then(
        (kept) => {
          item.hidden = !kept;
          return !!kept;
        },
        () => false,
      );
    }),
  ).then((kept) => {
    const any = kept.some(Boolean);
    const saved = root.querySelector<HTMLElement>("[data-dh-offline-saved]");
    const none = root.querySelector<HTMLElement>("[data-dh-offline-none]");
    if (saved) saved.hidden = !any;
    if (none) none.hidden = any;
  });
}

/** Start: once per full page load; `base` is the site root. */
export function startOffline(base: string): void {
  const meta = document.querySelector('meta[name="dhumbal:offline"]');
  const parsed = parseJSON(meta?.getAttribute("content") || "{}");
  const config: Config = parsed && typeof parsed === "object" ? (parsed as Config) : {};
  offlinePage();
  const container = navigator.serviceWorker;
  if (!container || !window.caches || !window.isSecureContext) {
    setStatus("unsupported");
    return;
  }
  let hadController = !!container.controller;
  container.addEventListener("controllerchange", () => {
    // The first service worker taking over a page is no news; a later one is a new build.
    if (hadController) showUpdated(config);
    hadController = true;
  });
  // A new build that took over tells the page (sw.js): the page may have been loading
  // when it did, too early to see the controllerchange.
  container.addEventListener("message", (event: MessageEvent<{ type?: string }>) => {
    if (event.data?.type === "updated") showUpdated(config);
  });
  container.startMessages();
  const begin = () => (config.sw ? register(container, config, base) : unregister(container, base));
  if (document.readyState === "complete") begin();
  else window.addEventListener("load", begin, { once: true });
}
