/**
 * The page's handle on the Dhumbal engine, which runs under Pyodide in a
 * module Web Worker (browser/worker/). Nothing loads until `ensure()` is
 * first called (the table calls it on the reader's intent), so reading a
 * page downloads no WebAssembly. One runtime, with its worker and loaded
 * engine, serves every page of a visit: the module is evaluated once per
 * full page load, and Material's instant navigation keeps the window.
 *
 *   status     "idle" | "loading" | "ready" | "error"
 *   error      the last error's code ("blocked" | "unsupported" | "failed" | "timeout"), or null
 *   ensure()   start the worker and load the engine (idempotent; rejects while in error: retry())
 *   request(payload[, {timeout}])  ensure(), then one JSON request to dhumbal.table.web.handle;
 *              rejects with a RuntimeFailure carrying .code ("timeout" after limits.request ms)
 *   onStatus(cb), onProgress(cb)   called now and on every change; each returns its unsubscribe
 *   retry()    after an error: a fresh worker, loading again
 *   version, timings   once ready: the engine's version and the worker's load steps (bench)
 *   progress   while loading: {loaded, total} bytes of the engine's files
 *   limits     the watchdog's limits (watchdog.ts); a page may set window.DhumbalRuntimeLimits first
 *   options    {snapshot}: keep a memory snapshot for the next visit (window.DhumbalRuntimeOptions)
 *   config     the build's runtime files, read from assets/engine/manifest.json when
 *              loading starts (manifest.ts); null before
 *
 * The manifest is fetched beside the worker's script, and the worker told to
 * start only once it is read: a missing or malformed one is the error
 * "manifest" (a network failure "blocked") with nothing downloaded or started.
 * The watchdog turns every way the engine can stop into the error state,
 * which the table shows with Retry. No rule and no reader-visible text lives
 * here: the table shows the engine's HTML, and for an error only gets the code.
 */

import type { Answer, Op, Request } from "../protocol/messages";
import type { BootInfo, FromWorker, RuntimeFiles, Timings, ToWorker } from "../protocol/worker";
import { fetchManifest, ManifestError } from "./manifest";
import { type Limits, Watchdog } from "./watchdog";

export type Status = "idle" | "loading" | "ready" | "error";

/** A failure with the code the table shows (its message is for the console). */
export class RuntimeFailure extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message || code);
  }
}

export interface Runtime {
  readonly status: Status;
  readonly error: string | null;
  readonly version: string | null;
  readonly timings: Timings | null;
  readonly progress: { loaded: number; total: number };
  readonly limits: Limits;
  readonly options: { snapshot: boolean };
  readonly config: RuntimeFiles | null;
  readonly base: string;
  ensure(): Promise<void>;
  request<O extends Op>(payload: Request & { op: O }, options?: { timeout?: number }): Promise<Answer<O>>;
  onStatus(callback: (status: Status, error: string | null) => void): () => void;
  onProgress(callback: (loaded: number, total: number) => void): () => void;
  retry(): Promise<void>;
}

declare global {
  interface Window {
    /** Limits a page (or a test) sets before the runtime starts: see watchdog.ts. */
    DhumbalRuntimeLimits?: Partial<Limits>;
    /** {snapshot: false} turns the memory snapshot off. */
    DhumbalRuntimeOptions?: { snapshot?: boolean };
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: RuntimeFailure) => void;
  timer: ReturnType<typeof setTimeout> | null;
}

function messageOf(err: unknown): string {
  return String((err as { message?: unknown } | null)?.message ?? err);
}

class EngineRuntime implements Runtime {
  status: Status = "idle";
  error: string | null = null;
  version: string | null = null;
  timings: Timings | null = null;
  progress = { loaded: 0, total: 0 };
  readonly options = { snapshot: window.DhumbalRuntimeOptions?.snapshot !== false };
  config: RuntimeFiles | null = null;
  readonly watchdog: Watchdog;
  private worker: Worker | null = null;
  private loading: Promise<void> | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners: ((status: Status, error: string | null) => void)[] = [];
  private readonly watchers: ((loaded: number, total: number) => void)[] = [];

  constructor(
    readonly base: string,
    private readonly workerURL: string,
  ) {
    this.watchdog = new Watchdog(window.DhumbalRuntimeLimits, {
      silent: (quiet) =>
        this.broken(
          "failed",
          `the engine's worker gave no sign of life for ${Math.round(quiet / 1000)} s while loading`,
        ),
      gone: () => this.broken("failed", "the engine's worker stopped"),
    });
  }

  get limits(): Limits {
    return this.watchdog.limits;
  }

  onStatus(callback: (status: Status, error: string | null) => void): () => void {
    this.listeners.push(callback);
    callback(this.status, this.error);
    return () => {
      const i = this.listeners.indexOf(callback);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  onProgress(callback: (loaded: number, total: number) => void): () => void {
    this.watchers.push(callback);
    callback(this.progress.loaded, this.progress.total);
    return () => {
      const i = this.watchers.indexOf(callback);
      if (i >= 0) this.watchers.splice(i, 1);
    };
  }

  ensure(): Promise<void> {
    if (!this.loading) this.start();
    return this.loading as Promise<void>;
  }

  request<O extends Op>(payload: Request & { op: O }, options?: { timeout?: number }): Promise<Answer<O>> {
    const timeout = options?.timeout !== undefined ? options.timeout : this.limits.request;
    return this.ensure().then(() => this.send({ type: "request", payload }, timeout) as Promise<Answer<O>>);
  }

  retry(): Promise<void> {
    if (this.status !== "error") return this.ensure();
    this.watchdog.unwatch();
    this.worker?.terminate();
    this.worker = null;
    this.loading = null;
    return this.ensure();
  }

  private setStatus(status: Status, code?: string): void {
    this.error = status === "error" ? code || "failed" : null;
    if (this.status === status) return;
    this.status = status;
    for (const listener of this.listeners.slice()) {
      try {
        listener(status, this.error);
      } catch (err) {
        setTimeout(() => {
          throw err;
        });
      }
    }
  }

  private progressed(loaded: number, total: number): void {
    this.progress = { loaded, total };
    for (const watcher of this.watchers.slice()) watcher(loaded, total);
  }

  private send(
    message: { type: "init"; [key: string]: unknown } | { type: "request"; payload: unknown },
    timeout: number,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const entry: Pending = { resolve, reject, timer: null };
      this.pending.set(id, entry);
      try {
        this.worker?.postMessage({ id, ...message } as ToWorker);
      } catch (err) {
        this.pending.delete(id);
        reject(new RuntimeFailure("failed", messageOf(err)));
        return;
      }
      if (timeout > 0) {
        entry.timer = setTimeout(() => {
          if (this.pending.has(id))
            this.broken("timeout", `the engine did not answer within ${Math.round(timeout / 1000)} s`);
        }, timeout);
      }
    });
  }

  private settle(id: number): Pending | null {
    const entry = this.pending.get(id);
    if (!entry) return null;
    this.pending.delete(id);
    if (entry.timer) clearTimeout(entry.timer);
    return entry;
  }

  private rejectAll(err: RuntimeFailure): void {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(err);
  }

  private onMessage(message: FromWorker): void {
    this.watchdog.sign("type" in message && message.type === "alive" ? message.lock : null);
    if ("type" in message) {
      if (message.type === "progress") this.progressed(+message.loaded || 0, +message.total || 0);
      // The init answer settles loading; later, "error" means the engine died.
      else if (message.type === "status" && message.status === "error" && this.status === "ready") {
        this.broken("failed", "the engine stopped");
      }
      return;
    }
    const entry = this.settle(message.id);
    if (!entry) return;
    if (message.ok) entry.resolve(message.result);
    else entry.reject(new RuntimeFailure(message.error.code || "failed", message.error.message));
  }

  /** The worker cannot go on: drop it, fail what waits, report the code. */
  private broken(code: string, message: string): RuntimeFailure {
    const err = new RuntimeFailure(code, message);
    this.watchdog.unwatch();
    this.worker?.terminate();
    this.worker = null;
    this.rejectAll(err);
    this.loading = Promise.reject(err);
    this.loading.catch(() => {});
    this.setStatus("error", code);
    return err;
  }

  private start(): void {
    const unsupported = "this browser cannot run module workers with WebAssembly";
    if (typeof Worker !== "function" || typeof WebAssembly !== "object") {
      this.broken("unsupported", unsupported);
      return;
    }
    this.setStatus("loading");
    // A browser that supports module workers reads the "type" option; one that
    // does not would start a classic worker, which cannot load ours.
    let moduleType = false;
    const options = {
      // A name of its own: the worker holds a Web Lock of that name while it lives.
      name: `dhumbal-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`,
      get type(): WorkerType {
        moduleType = true;
        return "module";
      },
    };
    let worker: Worker;
    try {
      worker = new Worker(this.workerURL, options);
    } catch (err) {
      this.broken("blocked", messageOf(err));
      return;
    }
    if (!moduleType) {
      this.broken("unsupported", unsupported);
      return;
    }
    this.worker = worker;
    this.watchdog.watch(worker, () => this.status === "loading" && this.worker === worker);
    worker.onmessage = (event: MessageEvent<FromWorker>) => this.onMessage(event.data || ({} as FromWorker));
    worker.onerror = (event) => {
      // The worker script could not be loaded, or crashed.
      event.preventDefault?.();
      if (this.worker === worker)
        this.broken(this.status === "ready" ? "failed" : "blocked", event.message || "worker error");
    };
    worker.onmessageerror = () => {
      if (this.worker === worker) this.broken("failed", "a message could not be read");
    };
    const { stall, window, total } = this.limits;
    const init = fetchManifest(this.base, this.limits.silence).then(
      (files) => {
        if (this.worker !== worker) throw new RuntimeFailure("failed", "superseded");
        this.config = files;
        return this.send(
          { type: "init", base: this.base, runtime: files, limits: { stall, window, total }, options: this.options },
          0,
        );
      },
      (err: unknown) => {
        throw err instanceof ManifestError
          ? new RuntimeFailure("manifest", err.message)
          : new RuntimeFailure("blocked", `the engine's manifest could not be fetched: ${messageOf(err)}`);
      },
    );
    this.loading = init.then(
      (result) => {
        if (this.worker !== worker) throw new RuntimeFailure("failed", "superseded");
        const info = result as BootInfo | null;
        this.version = info?.version || null;
        this.timings = info?.timings || null;
        this.watchdog.loaded();
        this.setStatus("ready");
      },
      (err: RuntimeFailure) => {
        if (this.worker === worker) throw this.broken(err.code || "failed", err.message);
        throw err;
      },
    );
    this.loading.catch(() => {});
  }
}

/** The runtime of this page: the site root is two folders above this module (assets/dhumbal/). */
export function createRuntime(moduleURL: string): Runtime {
  const base = new URL("../../", moduleURL).href;
  return new EngineRuntime(base, new URL("worker.js", moduleURL).href);
}
