/**
 * `eachPage(setup)`: run `setup` on this page and on every page Material's
 * instant navigation draws after it (its document$), or once where there is
 * no instant navigation. Every page module sets itself up through it; each
 * page also sends "dhumbal:page" on the window (head.ts keeps its history
 * bookkeeping by it).
 */

interface Subscribable {
  subscribe(next: () => void): unknown;
}

declare global {
  interface Window {
    /** Material's observable of the pages it draws (its bundle runs before the page's modules). */
    document$?: Subscribable;
  }
}

const setups: (() => void)[] = [];
let started = false;

function run(): void {
  for (const setup of setups) {
    try {
      setup();
    } catch (err) {
      console.error(err); // one part failing leaves the others working
    }
  }
  window.dispatchEvent(new Event("dhumbal:page"));
}

export function eachPage(setup: () => void): void {
  setups.push(setup);
  if (!started) {
    started = true;
    if (window.document$?.subscribe) window.document$.subscribe(run);
    else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
    else queueMicrotask(run);
  }
}
