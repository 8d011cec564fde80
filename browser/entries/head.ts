/**
 * The classic script of every page's <head> (and of the points where Material
 * wrote inline scripts): Material's small inline page scripts, as a file, so
 * that the site's Content-Security-Policy can forbid inline script (see
 * sitegen/dhumbal_site/csp.py), and Back and Forward that only move the mini
 * table. Material 9.8.2 writes its scripts into every page
 * (partials/javascripts/base.html, palette.html and content.html); the theme
 * overrides of those partials load this file instead, with data-part naming
 * the piece to run where the inline script stood. The code is Material's own;
 * keep it in step with the pinned mkdocs-material version.
 *
 * History: a worked example's "Play from here" docks the table beside the
 * example with a history entry, the full table on a phone has one (Back
 * closes it), and the table's own link (#table=…) or the score pad's
 * (#pad=…) changes within a page. Those steps are the page's, and Material's
 * instant navigation must not see them: on the first history step within a
 * page it fetches the page again and replaces it, table and game included.
 * This script is loaded before Material's bundle, so its popstate listener
 * runs first (a window calls its listeners in the order they were added); it
 * asks the page's modules whether the step was theirs (a cancelable
 * "dhumbal:popstate" event, answered synchronously by browser/table/history.ts)
 * and stops the event then.
 */

interface MdStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

interface MdWindow extends Window {
  __md_scope?: URL;
  __md_hash?: (text: string) => number;
  __md_get?: (key: string, storage?: MdStore, scope?: URL) => unknown;
  __md_set?: (key: string, value: unknown, storage?: MdStore, scope?: URL) => void;
}

interface Palette {
  color?: Record<string, string | null>;
}

(() => {
  const w = window as MdWindow;
  const script = document.currentScript;
  const part = script?.getAttribute("data-part");

  // partials/javascripts/base.html (in <head>): the storage helpers the bundle and
  // the palette script use, scoped to the site root. Where the reader refused the
  // site storage, or a value is not JSON, nothing is read (the defaults hold) and
  // nothing is written, where Material's own helpers throw.
  function base(): void {
    w.__md_scope = new URL(script?.getAttribute("data-scope") || ".", location.href);
    w.__md_hash = (text) => Array.from(text).reduce((hash, ch) => (hash << 5) - hash + ch.charCodeAt(0), 0);
    w.__md_get = (key, storage, scope) => {
      try {
        const s = storage || localStorage;
        return JSON.parse(s.getItem(`${(scope || w.__md_scope)?.pathname}.${key}`) as string) as unknown;
      } catch {
        return null; /* storage refused, or not JSON */
      }
    };
    w.__md_set = (key, value, storage, scope) => {
      try {
        const s = storage || localStorage;
        s.setItem(`${(scope || w.__md_scope)?.pathname}.${key}`, JSON.stringify(value));
      } catch {
        /* storage full or refused */
      }
    };
    history$();
  }

  // partials/javascripts/palette.html (after the header): the reader's colour scheme, before the page is painted.
  function palette(): void {
    const saved = w.__md_get?.("__palette") as Palette | null;
    if (!saved?.color) return;
    if (saved.color.media === "(prefers-color-scheme)") {
      const light = matchMedia("(prefers-color-scheme: light)").matches;
      const input = document.querySelector(
        light
          ? "[data-md-color-media='(prefers-color-scheme: light)']"
          : "[data-md-color-media='(prefers-color-scheme: dark)']",
      );
      if (!input) return;
      saved.color.media = input.getAttribute("data-md-color-media");
      saved.color.scheme = input.getAttribute("data-md-color-scheme");
      saved.color.primary = input.getAttribute("data-md-color-primary");
      saved.color.accent = input.getAttribute("data-md-color-accent");
    }
    for (const [key, value] of Object.entries(saved.color)) {
      if (value !== null) document.body.setAttribute(`data-md-color-${key}`, value);
    }
  }

  // partials/javascripts/content.html with content.tabs.link: the content tabs whose labels the reader chose last.
  function tabs(): void {
    const chosen = w.__md_get?.("__tabs");
    if (!Array.isArray(chosen)) return;
    for (const set of document.querySelectorAll(".tabbed-set")) {
      const labels = set.querySelector(".tabbed-labels")?.getElementsByTagName("label") ?? [];
      search: for (const label of chosen) {
        for (const el of Array.from(labels)) {
          if (el.innerText.trim() === label) {
            const input = document.getElementById(el.htmlFor) as HTMLInputElement | null;
            if (input) input.checked = true;
            break search;
          }
        }
      }
    }
  }

  // partials/javascripts/content.html (after the content; run again by instant navigation):
  // open the content tab a link's #hash names.
  function content(): void {
    const target = document.getElementById(location.hash.slice(1)) as HTMLInputElement | null;
    if (target?.name) target.checked = target.name.indexOf("__tabbed_") === 0;
  }

  // Back and Forward that are the page's own steps (see the top of this file).
  function history$(): void {
    const PREFIXES = ["#table=", "#pad="];
    const linked = (hash: string) => PREFIXES.some((prefix) => hash.indexOf(prefix) === 0);
    const page = (loc: Location) => loc.origin + loc.pathname + loc.search;
    let last = { page: page(location), hash: location.hash };
    window.addEventListener("popstate", (ev) => {
      const now = { page: page(location), hash: location.hash };
      const tableLink = now.page === last.page && (linked(now.hash) || linked(last.hash));
      last = now;
      const asked = new Event("dhumbal:popstate", { cancelable: true });
      const own = !window.dispatchEvent(asked);
      if (own || tableLink) ev.stopImmediatePropagation();
    });
    // `last` follows the page's own address changes (instant navigation, the table
    // writing its link): Back to the previous page is that page's step, which Material
    // must see, even when its address holds a game.
    const sync = () => {
      last = { page: page(location), hash: location.hash };
    };
    window.addEventListener("hashchange", sync);
    window.addEventListener("dhumbal:page", sync);
  }

  if (part === "base") base();
  else if (part === "palette") palette();
  else if (part === "tabs") tabs();
  else if (part === "content") content();
})();
