/**
 * The messages between the page's runtime client (browser/runtime/) and the
 * engine's Web Worker (browser/worker/), defined once for both. These carry
 * the protocol's requests and answers (protocol/messages.ts) as payloads.
 *
 * Page to worker:
 *   init     start every download, boot Pyodide, import the engine (once)
 *   request  one JSON request for dhumbal.table.web.handle
 * Worker to page:
 *   reply     the answer to an init or a request, by its id
 *   status    "loading" | "ready" | "error" (after a fatal error: the engine died)
 *   alive     this worker holds the Web Lock named `lock` while it lives
 *   progress  bytes of the engine's files received and expected
 */

/** The build's runtime files, read from assets/engine/manifest.json on intent (runtime/manifest.ts). */
export interface RuntimeFiles {
  version?: string;
  pyodide?: string;
  pyodideDir: string;
  /** Pyodide's lock file, parsed (no packages: see sitegen/dhumbal_site/runtime/assets.py). */
  lock?: Record<string, unknown>;
  wheel: string;
  stdlib: string;
  fullStdlib: string;
  cache: string;
  integrity: Record<string, string>;
  bytes?: number;
}

/** The download watchdog's limits, in ms (see browser/worker/watch.ts). */
export interface BootLimits {
  stall: number;
  window: number;
  total: number;
}

export interface BootOptions {
  snapshot: boolean;
}

export type ErrorCode =
  | "blocked"
  | "unsupported"
  | "failed"
  | "timeout"
  | "not-ready"
  | "bad-message"
  | "missing"
  | "manifest";

export type ToWorker =
  | { id: number; type: "init"; base: string; runtime: RuntimeFiles | null; limits: BootLimits; options: BootOptions }
  | { id: number; type: "request"; payload: unknown };

export type Timings = Record<string, number | string | Record<string, string>>;

export interface BootInfo {
  version: string | null | undefined;
  pyodide: string;
  timings: Timings;
}

export type FromWorker =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { code: string; message: string } }
  | { type: "status"; status: "loading" | "ready" | "error" }
  | { type: "alive"; lock: string }
  | { type: "progress"; loaded: number; total: number; files: number };
