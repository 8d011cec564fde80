/**
 * The download watchdog of the engine's boot. Pyodide swallows a failed
 * WebAssembly instantiation (it logs a warning and never settles
 * loadPyodide), a 404 on one of its files would leave it waiting too, and a
 * download whose connection stalls never ends. So, while booting, every
 * fetch is watched: an HTTP error or a failed streaming instantiation
 * rejects the boot at once, and so does
 *   a stall    nothing happening for `stall` ms (no byte on any download, no step finished,
 *              and the worker not busy: running Python blocks this timer, and that time
 *              does not count);
 *   a trickle  bytes still coming, but so slowly that the rest would not arrive in time:
 *              once the downloads have run for `window` ms, the rate over the last `window`
 *              ms gives the time the bytes left need, and loading may take `total` ms in all.
 * It also counts every byte for the page's progress bar.
 */

import type { BootLimits, FromWorker } from "../protocol/worker";
import { WorkerFailure } from "./errors";

const TICK = 500; // ms between checks

declare const self: DedicatedWorkerGlobalScope;

type Fetch = typeof fetch;

export interface BootWatch {
  failed: Promise<never>;
  restore(): void;
  step(): void;
  done(): void;
  /** Count a response's bytes on a copy of its body; with `keep`, resolve to the bytes (null if unreadable). */
  count(name: string, response: Response, keep: boolean): Promise<Uint8Array<ArrayBuffer> | null>;
  discount(bytes: number): void;
  nameOf(resource: RequestInfo | URL): string;
  inflight: Set<string>;
  fetch(resource: RequestInfo | URL, options?: RequestInit, counted?: boolean): Promise<Response>;
  compiled: { start: number; end: number };
  downloaded(): number;
}

function post(message: FromWorker): void {
  self.postMessage(message);
}

export function joined(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

export function watchBoot(limits: BootLimits, expected: number): BootWatch {
  let fail: (err: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failed.catch(() => {});
  const fetch0: Fetch = self.fetch;
  const stream0 = WebAssembly.instantiateStreaming;
  const inflight = new Set<string>();
  const t0 = performance.now();
  let loaded = 0;
  let total = expected > 0 ? expected : 0;
  let last = t0;
  let lastTick = t0;
  let lastPost = 0;
  let finished = false; // every download is in
  let lastByte = t0;
  let samples: [number, number][] = [[t0, 0]]; // [time, loaded] since the worker was last busy

  const report = (force: boolean) => {
    const now = performance.now();
    if (!force && now - lastPost < 100) return;
    lastPost = now;
    post({ type: "progress", loaded: Math.min(loaded, total || loaded), total, files: inflight.size });
  };
  const progress = () => {
    last = performance.now();
    report(false);
  };
  const count = (name: string, response: Response, keep: boolean): Promise<Uint8Array<ArrayBuffer> | null> => {
    let reader: ReadableStreamDefaultReader<Uint8Array>;
    try {
      const body = response.clone().body;
      if (!body) throw new Error("no body");
      reader = body.getReader();
    } catch {
      inflight.delete(name);
      return Promise.resolve(null);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const pump = (): Promise<Uint8Array<ArrayBuffer> | null> =>
      reader.read().then(({ done, value }) => {
        if (done || !value) {
          inflight.delete(name);
          progress();
          return keep ? joined(chunks, size) : null;
        }
        loaded += value.byteLength;
        if (loaded > total) total = loaded;
        if (keep) {
          chunks.push(value);
          size += value.byteLength;
        }
        lastByte = performance.now();
        progress();
        return pump();
      });
    return pump().catch(() => {
      inflight.delete(name);
      return null;
    });
  };
  const discount = (bytes: number) => {
    loaded = Math.max(0, loaded - bytes);
  };
  const nameOf = (resource: RequestInfo | URL) =>
    String((resource as Request)?.url ?? resource)
      .split("?")[0]!
      .split("/")
      .pop() || "";

  // Every fetch of the boot (the engine's own and Pyodide's): watched and counted
  // (unless `counted` is false: the caller counts it, see integrity.obtain()).
  const watched = async (resource: RequestInfo | URL, options?: RequestInit, counted = true): Promise<Response> => {
    const name = nameOf(resource);
    inflight.add(name);
    progress();
    let response: Response;
    try {
      response = await fetch0.call(self, resource, options);
    } catch (err) {
      inflight.delete(name);
      fail(new WorkerFailure("blocked", `cannot fetch ${String(resource)}: ${(err as Error).message || err}`));
      throw err;
    }
    if (!response.ok) {
      inflight.delete(name);
      fail(new WorkerFailure("blocked", `cannot fetch ${String(resource)}: HTTP ${response.status}`));
      return response;
    }
    if (counted) void count(name, response, false);
    return response;
  };
  self.fetch = (resource: RequestInfo | URL, options?: RequestInit) => watched(resource, options);
  const compiled = { start: 0, end: 0 };
  if (stream0) {
    WebAssembly.instantiateStreaming = (source, imports) => {
      compiled.start = performance.now();
      return stream0.call(WebAssembly, source, imports).then(
        (result) => {
          compiled.end = performance.now();
          return result;
        },
        (err: unknown) => {
          fail(err instanceof WorkerFailure ? err : Object.assign(err as object, { wasm: true }));
          throw err;
        },
      );
    };
  }
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - lastTick > TICK * 3) {
      last = now; // the worker was busy, not stalled
      samples = [];
    }
    lastTick = now;
    if (!finished && inflight.size) {
      samples.push([now, loaded]);
      while (samples.length > 2 && now - samples[1]![0] >= limits.window) samples.shift();
    }
    const waiting = inflight.size ? `: no data from ${[...inflight].join(", ")}` : "";
    if (now - last > limits.stall) {
      fail(
        new WorkerFailure(
          "blocked",
          `the engine's download stalled for ${Math.round((now - last) / 1000)} s${waiting}`,
        ),
      );
    } else if (!finished && now - t0 > limits.total) {
      fail(new WorkerFailure("blocked", `the engine did not load within ${Math.round(limits.total / 1000)} s`));
    } else if (!finished && inflight.size && samples.length > 1 && now - samples[0]![0] >= limits.window) {
      const [since, before] = samples[0]!;
      const rate = (loaded - before) / ((now - since) / 1000); // bytes a second
      const left = Math.max(0, total - loaded);
      const needs = rate > 0 ? (left / rate) * 1000 : Number.POSITIVE_INFINITY;
      if (now - t0 + needs > limits.total) {
        fail(
          new WorkerFailure(
            "blocked",
            `the engine's download is too slow to finish: ${Math.round(rate)} bytes a second, ` +
              `${left} bytes left, ${Math.round(limits.total / 1000)} s allowed in all`,
          ),
        );
      }
    }
    report(true);
  }, TICK);
  const restore = () => {
    clearInterval(timer);
    self.fetch = fetch0;
    if (stream0) WebAssembly.instantiateStreaming = stream0;
  };
  const done = () => {
    finished = true;
    total = Math.max(loaded, total);
    loaded = total;
    report(true);
  };
  return {
    failed,
    restore,
    step: progress,
    done,
    count,
    discount,
    nameOf,
    inflight,
    fetch: watched,
    compiled,
    downloaded: () => lastByte,
  };
}
