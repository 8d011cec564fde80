/**
 * The engine's runtime, once this page has it: the runtime module
 * (entries/runtime.ts) is imported with the table's code on the reader's
 * intent, or by the score pad. Its one owner is whoever imports it
 * (table/loader.ts, scorepad); the service worker's registration
 * (offline.ts) waits for the engine while it loads.
 */

import type { Runtime, Status } from "../entries/runtime";

let current: Runtime | null = null;
let coming: Promise<Runtime> | null = null;
const arrivals: ((runtime: Runtime) => void)[] = [];

/** The runtime module is being imported (or is here): `load` imports it, once. */
export function runtimeModule(load: () => Promise<{ runtime: Runtime }>): Promise<Runtime> {
  if (!coming) {
    coming = load().then((m) => {
      current = m.runtime;
      for (const arrived of arrivals.splice(0)) arrived(m.runtime);
      return m.runtime;
    });
    coming.catch(() => {
      coming = null;
    });
  }
  return coming;
}

export function loadedRuntime(): Runtime | null {
  return current;
}

/** Resolves with the first status of the runtime `accept` takes. */
function statusOf(runtime: Runtime, accept: (status: Status) => boolean): Promise<Status> {
  return new Promise<Status>((resolve) => {
    let done = false;
    let off: (() => void) | null = null;
    off = runtime.onStatus((status) => {
      if (done || !accept(status)) return;
      done = true;
      if (off) setTimeout(off, 0);
      resolve(status);
    });
    if (done) off();
  });
}

/** Resolves once no engine is loading here (at once when this page has none coming: reading loads none). */
export function engineIdle(): Promise<unknown> {
  const waiting = coming;
  if (!waiting) return Promise.resolve();
  return waiting.then(
    (runtime) => statusOf(runtime, (status) => status !== "loading"),
    () => null,
  );
}

/** Resolves once this page's engine is ready, whenever it comes (never, if it never does). */
export function engineReady(): Promise<unknown> {
  const here = current ? Promise.resolve(current) : new Promise<Runtime>((resolve) => arrivals.push(resolve));
  return here.then((runtime) => statusOf(runtime, (status) => status === "ready"));
}
