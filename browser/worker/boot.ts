/**
 * Booting the engine: every download at once (Pyodide's module scripts and
 * WebAssembly, the trimmed standard library, the engine wheel), each from the
 * engine's cache on this device when an earlier visit kept it, else from the
 * site; then Pyodide boots on them (from the memory snapshot an earlier
 * visit made, when there is one), the wheel is unpacked into site-packages
 * (no micropip, no request beyond the site) and the engine imported.
 */

import type { BootInfo, BootLimits, BootOptions, RuntimeFiles } from "../protocol/worker";
import { fetchManifest, MANIFEST_PATH, ManifestError } from "../runtime/manifest";
import { fromSnapshot, WorkerFailure } from "./errors";
import { cacheName, forget, hexOf, obtain, openCache, sweep } from "./integrity";
import { AFTER_RESTORE, FALLBACK_FINDER, importEngine, type Pyodide } from "./python";
import { watchBoot } from "./watch";

declare const self: DedicatedWorkerGlobalScope;

/** When this module started running, in ms since the worker was created. */
const started = performance.now();

export interface Engine {
  pyodide: Pyodide;
  handle: ((request: string) => string) | null;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** The build's files as the site has them now (assets/engine/manifest.json): after the files
 * the page named could not be had (a newer build), or when a page of an older build named none. */
async function fromManifest(base: string): Promise<RuntimeFiles> {
  try {
    return await fetchManifest(base);
  } catch (err) {
    if (err instanceof ManifestError) throw new WorkerFailure("manifest", err.message);
    throw new WorkerFailure("blocked", `cannot fetch ${MANIFEST_PATH}: ${String((err as Error)?.message ?? err)}`);
  }
}

/** Whether the page named the build's files with their hashes (a page of an older build may not). */
function complete(runtime: RuntimeFiles | null): runtime is RuntimeFiles {
  return !!(runtime && typeof runtime.cache === "string" && runtime.integrity && typeof runtime.integrity === "object");
}

interface LoadPyodideConfig {
  indexURL: string;
  lockFileContents?: Record<string, unknown> | undefined;
  stdLibURL: string;
  packages: string[];
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  _loadSnapshot?: Uint8Array;
  _makeSnapshot?: boolean;
}

type LoadPyodide = (config: LoadPyodideConfig) => Promise<Pyodide>;

async function loadEngine(
  base: string,
  runtime: RuntimeFiles,
  limits: BootLimits,
  options: BootOptions,
): Promise<{ engine: Engine; info: BootInfo }> {
  const t0 = performance.now();
  const at = (path: string) => new URL(path, base).href;
  const indexURL = at(runtime.pyodideDir);
  const cache = await openCache(cacheName(base, runtime));
  const watch = watchBoot(limits, runtime.bytes || 0);
  const sources: Record<string, string> = {};
  const snapshotURL = new URL("snapshot.bin", at(runtime.wheel)).href;
  try {
    // Every download starts now, side by side.
    const get = (path: string) => obtain(cache, watch, at(path), runtime.integrity[path], sources);
    const files = {
      mjs: get(`${runtime.pyodideDir}pyodide.mjs`),
      asm: get(`${runtime.pyodideDir}pyodide.asm.mjs`),
      wasm: get(`${runtime.pyodideDir}pyodide.asm.wasm`),
      stdlib: get(runtime.stdlib),
      wheel: get(runtime.wheel),
    };
    for (const p of Object.values(files)) p.catch(() => {});
    const wheelBytes = files.wheel.then((r) => r.arrayBuffer());
    wheelBytes.catch(() => {});
    // A file that cannot be had (or does not match the build) ends the start at once.
    const missing = Promise.all(Object.values(files)).then(() => new Promise<never>(() => {}));
    missing.catch(() => {});
    // The memory snapshot an earlier visit kept, if any (made on this device: no hash from
    // the build; one that will not restore is forgotten, see boot()).
    const snapshotBytes: Promise<ArrayBuffer | null> =
      options.snapshot && cache
        ? cache.match(snapshotURL).then(
            (r) => (r ? r.arrayBuffer() : null),
            () => null,
          )
        : Promise.resolve(null);
    // Pyodide asks for its WebAssembly and standard library itself: it gets the responses above.
    const handed = new Map<string, Promise<Response>>([
      [`${indexURL}pyodide.asm.wasm`, files.wasm],
      [at(runtime.stdlib), files.stdlib],
    ]);
    self.fetch = (resource: RequestInfo | URL, init?: RequestInit) => {
      const key = String((resource as Request)?.url ?? resource);
      const response = handed.get(key);
      if (response) {
        handed.delete(key);
        return response;
      }
      return watch.fetch(resource, init);
    };
    let restored = false;
    const boot = (async () => {
      // The module scripts are imported once their bytes are here (the import then
      // comes from the service worker's cache, or the HTTP cache).
      await Promise.all([files.mjs, files.asm].map((p) => p.then((r) => r.arrayBuffer())));
      const { loadPyodide } = (await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)) as {
        loadPyodide: LoadPyodide;
      };
      watch.step();
      const kept = await snapshotBytes;
      const config: LoadPyodideConfig = {
        indexURL,
        lockFileContents: runtime.lock || undefined,
        stdLibURL: at(runtime.stdlib),
        packages: [],
        stdout: () => {},
        stderr: (line) => console.warn(line),
      };
      if (kept) {
        restored = true;
        config._loadSnapshot = new Uint8Array(kept);
      } else if (options.snapshot) {
        config._makeSnapshot = true;
      }
      return loadPyodide(config);
    })();
    let py: Pyodide;
    try {
      py = await Promise.race([boot, watch.failed, missing]);
    } catch (err) {
      throw restored ? fromSnapshot(err, snapshotURL) : err;
    }
    watch.step();
    const t1 = performance.now();
    const bytes = await Promise.race([wheelBytes, watch.failed]);
    watch.done();
    const t2 = performance.now();
    if (!restored) {
      py.runPython(FALLBACK_FINDER);
      py.runPython(`_DhumbalFullStdlib.url = ${JSON.stringify(at(runtime.fullStdlib))}`);
      py.runPython(`_DhumbalFullStdlib.sha256 = ${JSON.stringify(hexOf(runtime.integrity[runtime.fullStdlib] || ""))}`);
    }
    // Into site-packages, as an installer would (the default is the cwd).
    const sitePackages = String(py.runPython("import sys; next(p for p in sys.path if p.endswith('/site-packages'))"));
    py.unpackArchive(new Uint8Array(bytes), "wheel", { extractDir: sitePackages });
    const t3 = performance.now();
    if (restored) {
      try {
        py.runPython(AFTER_RESTORE);
      } catch (err) {
        throw fromSnapshot(err, snapshotURL);
      }
    } else {
      importEngine(py, sitePackages);
    }
    const handle = py.runPython("_dhumbal_web.handle if _dhumbal_web is not None else None") as
      | ((text: string) => string)
      | null;
    if (!handle && restored) throw fromSnapshot(new Error("the snapshot holds no engine"), snapshotURL);
    const engine: Engine = { pyodide: py, handle };
    const t4 = performance.now();
    let snapshot = restored ? "restored" : "off";
    if (options.snapshot && !restored && cache) {
      // Taken before any request has changed Python's state; kept once whole.
      const t5 = performance.now();
      try {
        const image = py.makeMemorySnapshot();
        snapshot = `made in ${round(performance.now() - t5)} ms (${image.length} bytes)`;
        cache
          .put(
            snapshotURL,
            new Response(image as BlobPart, { headers: { "content-type": "application/octet-stream" } }),
          )
          .catch(() => {});
      } catch (err) {
        snapshot = `not made: ${(err as Error).message || err}`;
      }
    }
    // Milliseconds of each step, for the benchmark (bench/runtime_bench.py).
    const timings = {
      start: round(started),
      downloads: round(watch.downloaded() - t0),
      wasm: round(watch.compiled.end - watch.compiled.start),
      pyodide: round(t1 - t0),
      wheel: round(t2 - t1),
      install: round(t3 - t2),
      import: round(t4 - t3),
      snapshot,
      sources,
    };
    return { engine, info: { version: runtime.version, pyodide: py.version, timings } };
  } finally {
    watch.restore();
  }
}

/** After a failed load from the files the page named: the files the site has now, if they differ. */
async function newerThan(base: string, runtime: RuntimeFiles): Promise<RuntimeFiles | null> {
  try {
    const fresh = await fromManifest(base);
    return fresh.cache !== runtime.cache ? fresh : null;
  } catch {
    return null;
  }
}

/**
 * Load the engine from the files the page named (else the site's manifest); again once
 * without the snapshot if that would not restore; from the site's newer build if the
 * page is older than the site (the older build's cache then goes). A start that fails
 * leaves the engine's cache holding only files that match.
 */
export async function boot(
  base: string,
  given: RuntimeFiles | null,
  limits: BootLimits,
  options: BootOptions,
): Promise<{ engine: Engine; info: BootInfo }> {
  if (typeof WebAssembly !== "object") throw new WorkerFailure("unsupported", "WebAssembly is not available");
  let runtime: RuntimeFiles | null = complete(given) ? given : null;
  let booted = false;
  try {
    if (!runtime) runtime = await fromManifest(base);
    try {
      const out = await loadEngine(base, runtime, limits, options);
      booted = true;
      return out;
    } catch (err) {
      const snapshot = (err as WorkerFailure | null)?.snapshot;
      if (snapshot) {
        await forget(snapshot);
        const out = await loadEngine(base, runtime, limits, { snapshot: false });
        booted = true;
        return out;
      }
      // A page older than the site (a new build was published since it was loaded).
      const fresh = runtime === given ? await newerThan(base, runtime) : null;
      if (!fresh) throw err;
      const stale = runtime;
      runtime = fresh;
      if (self.caches) await self.caches.delete(cacheName(base, stale)).catch(() => false);
      const out = await loadEngine(base, fresh, limits, options);
      booted = true;
      return out;
    }
  } catch (err) {
    if (runtime && !booted) await sweep(base, runtime).catch(() => {});
    throw err;
  }
}
