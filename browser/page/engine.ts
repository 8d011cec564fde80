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
let importer: (() => Promise<{ runtime: Runtime }>) | null = null;
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

/** How the runtime module is imported (entries/site.ts gives it: `import("./runtime.js")`). */
export function useRuntimeCode(load: () => Promise<{ runtime: Runtime }>): void {
  importer = load;
}

/** The runtime module, imported once (it is the table's own `./runtime.js`: one instance). */
export function runtimeCode(): Promise<Runtime> {
  if (coming || !importer) return coming || Promise.reject(new Error("no runtime module to import"));
  return runtimeModule(importer);
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

const holds = new Set<Promise<unknown>>();

/**
 * A step that may start the engine (the table's code coming for a press, then its
 * intent): engineIdle() waits for it to be taken before it looks at the engine, so
 * that the engine's status is not read as "idle" between its module's arrival and
 * the table's ensure() (the service worker then registered and fetched the site's
 * files beside the engine's download, on a press before the page's load event).
 */
export function holdEngine<T>(step: Promise<T>): Promise<T> {
  const held: Promise<unknown> = step.then(
    () => holds.delete(held),
    () => holds.delete(held),
  );
  holds.add(held);
  return step;
}

/** Resolves once no engine is loading here (at once when this page has none coming: reading loads none). */
export function engineIdle(): Promise<unknown> {
  if (holds.size) return Promise.all([...holds]).then(engineIdle);
  const waiting = coming;
  if (!waiting) return Promise.resolve();
  return waiting.then(
    (runtime) =>
      statusOf(runtime, (status) => status !== "loading").then(() => (holds.size ? engineIdle() : undefined)),
    () => null,
  );
}

/** Resolves once this page's engine is ready, whenever it comes (never, if it never does). */
export function engineReady(): Promise<unknown> {
  const here = current ? Promise.resolve(current) : new Promise<Runtime>((resolve) => arrivals.push(resolve));
  return here.then((runtime) => statusOf(runtime, (status) => status === "ready"));
}
