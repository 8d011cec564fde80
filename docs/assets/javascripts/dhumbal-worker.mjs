// The Dhumbal engine in a module Web Worker (started by dhumbal-runtime.js).
//
// Messages in:  {id, type: "init", base, runtime, limits, options}
//                 base     URL of the site root
//                 runtime  the page's <meta name="dhumbal:runtime"> (the build's
//                          files: see sitegen/dhumbal_site/runtime.py), or null
//                          to read assets/engine/manifest.json instead
//                 limits   {stall, window, total} in ms (see "the download watchdog")
//                 options  {snapshot}: keep and restore a memory snapshot
//               {id, type: "request", payload}    any JSON value
// Messages out: {id, ok: true, result} | {id, ok: false, error: {code, message}}
//               {type: "status", status}          "loading" | "ready" | "error"
//               {type: "alive", lock}             at start, once this worker holds
//                                                 the Web Lock named `lock` (its
//                                                 name): the page asks for the same
//                                                 lock, which it gets when this
//                                                 worker is gone, however it ended
//               {type: "progress", loaded, total, files}  while loading, at most
//                                                 every 100 ms and at least every
//                                                 second: bytes of the engine's files
//                                                 received (from the network or this
//                                                 device's cache) and expected
//
// "init" starts every download at once: Pyodide's module scripts and
// WebAssembly, the trimmed standard library and the engine wheel, each from
// the engine's cache on this device when an earlier visit kept it, else from
// the site (and then kept). Then it boots Pyodide on them, installs the wheel
// (pyodide.unpackArchive: no micropip, no request beyond the site) and
// imports the engine. "request" passes the payload as JSON text to Python's
// dhumbal.table.web.handle and returns the parsed JSON answer. No rule is decided
// here: this file only moves messages.
//
// The engine's cache (Cache Storage, shared with the service worker, sw.js)
// is named by the site's path, Pyodide's version and a hash of the engine's
// files, so a new build never reads an old build's files; the service worker
// deletes the caches its build does not name. Every file is checked against
// the build's hash ("integrity": see "integrity" below) before it is kept and
// each time a kept copy is used; a failed start leaves in the cache only the
// files that still match.
//
// Error codes: "blocked" (a file of the runtime could not be fetched, or its
// download stalled or became too slow to finish), "unsupported" (no
// WebAssembly here), "failed" (anything else), plus "not-ready" and
// "bad-message" for requests the worker cannot take.

// When this module started running, in ms since the worker was created.
const started = performance.now();

let pyodide = null;
let handle = null;
let booting = null;

class RuntimeError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function status(value) {
  self.postMessage({ type: "status", status: value });
}

function errorOf(err) {
  if (err instanceof RuntimeError) return { code: err.code, message: err.message };
  const message = String((err && err.message) || err);
  // A failed fetch or dynamic import is a TypeError; a Content Security
  // Policy that forbids WebAssembly is reported as a CompileError naming it.
  const blocked =
    (err instanceof TypeError && /fetch|import|network|load/i.test(message)) ||
    /Content Security Policy|CSP|unsafe-eval/i.test(message);
  return { code: blocked ? "blocked" : "failed", message };
}

function round(ms) {
  return Math.round(ms * 10) / 10;
}

// -- the download watchdog ---------------------------------------------------
//
// Pyodide swallows a failed WebAssembly instantiation (it logs a warning and
// never settles loadPyodide), a 404 on one of its files would leave it
// waiting too, and a download whose connection stalls never ends. So, while
// booting, every fetch is watched: an HTTP error or a failed streaming
// instantiation rejects the boot at once, and so does
//   a stall    nothing happening for `stall` ms (no byte on any download, no
//              step finished, and the worker not busy: running Python blocks
//              this timer, and time blocked does not count);
//   a trickle  bytes still coming, but so slowly that the rest would not
//              arrive in time: once the downloads have run for `window` ms,
//              the rate over the last `window` ms gives the time the bytes
//              left need, and loading may take `total` ms in all (10 minutes
//              by default: a slow 2G line still makes it, a line that
//              brings 64 bytes every few seconds is told so within seconds).
const TICK = 500; // ms between checks

function watchBoot(limits, expected) {
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  failed.catch(() => {});
  const fetch0 = self.fetch;
  const stream0 = WebAssembly.instantiateStreaming;
  const inflight = new Set();
  const t0 = performance.now();
  let loaded = 0;
  let total = expected > 0 ? expected : 0;
  let last = t0;
  let lastTick = t0;
  let lastPost = 0;
  let finished = false; // every download is in
  let lastByte = t0; // when the last byte arrived
  let samples = [[t0, 0]]; // [time, loaded] since the worker was last busy

  const report = (force) => {
    const now = performance.now();
    if (!force && now - lastPost < 100) return;
    lastPost = now;
    self.postMessage({ type: "progress", loaded: Math.min(loaded, total || loaded), total, files: inflight.size });
  };
  const progress = () => {
    last = performance.now();
    report(false);
  };
  // Count a response's bytes on a copy of its body; the original goes to its reader
  // untouched. With `keep`, the promise it returns gives the bytes (null if the
  // body could not be read).
  const count = (name, response, keep) => {
    let reader;
    try {
      reader = response.clone().body.getReader();
    } catch (err) {
      inflight.delete(name);
      return Promise.resolve(null);
    }
    const chunks = [];
    let size = 0;
    const pump = () =>
      reader.read().then(({ done, value }) => {
        if (done) {
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
  // Bytes counted for a file that is then refused (it did not match the build): not progress.
  const discount = (bytes) => {
    loaded = Math.max(0, loaded - bytes);
  };
  const nameOf = (resource) => String((resource && resource.url) || resource).split("?")[0].split("/").pop();

  // Every fetch of the boot (the engine's own and Pyodide's): watched and counted
  // (unless `counted` is false: the caller counts it, see obtain()).
  const watched = async function (resource, options, counted = true) {
    const name = nameOf(resource);
    inflight.add(name);
    progress();
    let response;
    try {
      response = await fetch0.call(self, resource, options);
    } catch (err) {
      inflight.delete(name);
      fail(new RuntimeError("blocked", `cannot fetch ${resource}: ${err.message || err}`));
      throw err;
    }
    if (!response.ok) {
      inflight.delete(name);
      fail(new RuntimeError("blocked", `cannot fetch ${resource}: HTTP ${response.status}`));
      return response;
    }
    if (counted) count(name, response);
    return response;
  };
  self.fetch = (resource, options) => watched(resource, options);
  const compiled = { start: 0, end: 0 };
  if (stream0) {
    WebAssembly.instantiateStreaming = function (source, imports) {
      compiled.start = performance.now();
      return stream0.call(WebAssembly, source, imports).then(
        (result) => {
          compiled.end = performance.now();
          return result;
        },
        (err) => {
          fail(err instanceof RuntimeError ? err : Object.assign(err, { wasm: true }));
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
      while (samples.length > 2 && now - samples[1][0] >= limits.window) samples.shift();
    }
    const waiting = inflight.size ? `: no data from ${[...inflight].join(", ")}` : "";
    if (now - last > limits.stall) {
      fail(new RuntimeError("blocked", `the engine's download stalled for ${Math.round((now - last) / 1000)} s${waiting}`));
    } else if (!finished && now - t0 > limits.total) {
      fail(new RuntimeError("blocked", `the engine did not load within ${Math.round(limits.total / 1000)} s`));
    } else if (!finished && inflight.size && samples.length > 1 && now - samples[0][0] >= limits.window) {
      const [since, before] = samples[0];
      const rate = (loaded - before) / ((now - since) / 1000); // bytes a second
      const left = Math.max(0, total - loaded);
      const needs = rate > 0 ? (left / rate) * 1000 : Infinity;
      if (now - t0 + needs > limits.total) {
        fail(new RuntimeError("blocked",
          `the engine's download is too slow to finish: ${Math.round(rate)} bytes a second, ` +
          `${left} bytes left, ${Math.round(limits.total / 1000)} s allowed in all`));
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
  return { failed, restore, step: progress, done, count, discount, nameOf, inflight, fetch: watched, compiled, downloaded: () => lastByte };
}

function joined(chunks, size) {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

// -- the engine's files: this device's cache first, else the site ---------------------

async function openCache(name) {
  try {
    return self.caches ? await self.caches.open(name) : null;
  } catch (err) {
    return null; // no Cache Storage here (private mode, storage refused): the network only
  }
}

// -- integrity -------------------------------------------------------------------
//
// The build gives every file of the engine with its SHA-256 (a Subresource
// Integrity string, "sha256-<base64>": runtime.integrity, by path from the
// site root). A download that is cut short yet looks complete, or a page put
// in a file's place (a filtering proxy's "blocked" page, answered 200), must
// never be kept: kept, it would break the table on this device for good, since
// every later start would read it. So a file is read whole and its hash
// compared before it is kept, and a kept copy is compared again each time it
// is used (hashing all 12.5 MB takes tens of milliseconds). A kept copy that
// fails is deleted and downloaded again; a download that fails is asked for
// once more past the HTTP cache (which may hold the same bad answer); a
// second failure is the "blocked" error, and nothing was kept.

async function sriOf(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let text = "";
  for (const byte of digest) text += String.fromCharCode(byte);
  return "sha256-" + btoa(text);
}

// A file of the boot as a Response whose bytes match `integrity`: from `cache`
// when it holds a copy that matches (counted as it is read, like a download),
// else fetched and, once whole and matching, kept there.
async function obtain(cache, watch, url, integrity, sources) {
  const name = watch.nameOf(url);
  if (!integrity) throw new RuntimeError("failed", `the build gives no hash for ${name}`);
  const matches = async (response) => {
    const bytes = await watch.count(name, response, true);
    if (bytes && (await sriOf(bytes)) === integrity) return true;
    if (bytes) watch.discount(bytes.byteLength);
    return false;
  };
  if (cache) {
    const hit = await cache.match(url).catch(() => null);
    if (hit) {
      watch.inflight.add(name);
      if (await matches(hit)) {
        sources[name] = "cache";
        return hit;
      }
      await cache.delete(url).catch(() => {});
    }
  }
  for (const mode of ["default", "reload"]) {
    const response = await watch.fetch(url, { cache: mode }, false);
    if (!response.ok) throw new RuntimeError("blocked", `cannot fetch ${url}: HTTP ${response.status}`);
    if (await matches(response)) {
      sources[name] = "network";
      if (cache) cache.put(url, response.clone()).catch(() => {});
      return response;
    }
  }
  throw new RuntimeError("blocked", `${name} does not match this build: the download was cut short or replaced`);
}

// After a failed start: the engine's cache keeps only the files that still match
// the build, and no memory snapshot (a file of this device: the start may have
// failed on it), so that Retry starts from files known good or from the site.
async function sweep(base, runtime) {
  const name = cacheName(base, runtime);
  if (!self.caches || !(await self.caches.has(name))) return;
  const cache = await self.caches.open(name);
  const root = new URL(base).href;
  for (const request of await cache.keys()) {
    const path = request.url.startsWith(root) ? request.url.slice(root.length) : null;
    const integrity = path !== null && runtime.integrity[path];
    const kept = integrity ? await cache.match(request) : null;
    if (!kept || (await sriOf(await kept.arrayBuffer())) !== integrity) await cache.delete(request);
  }
}

async function fetchOk(url, options) {
  const response = await fetch(url, options);
  if (!response.ok) throw new RuntimeError("blocked", `cannot fetch ${url}: HTTP ${response.status}`);
  return response;
}

// The build's files from assets/engine/manifest.json (when the page named none,
// or named files the site no longer has: a page older than the site).
async function fromManifest(base) {
  const url = new URL("assets/engine/manifest.json", base);
  const m = await (await fetchOk(url, { cache: "no-store" })).json();
  const pyodideDir = `assets/pyodide/${m.pyodide}/`;
  const integrity = {};
  for (const [name, sri] of Object.entries(m.pyodide_integrity || {})) integrity[pyodideDir + name] = sri;
  integrity["assets/engine/" + m.wheel] = m.integrity;
  if (m.stdlib) integrity["assets/engine/" + m.stdlib] = m.stdlib_integrity;
  return {
    version: m.version,
    pyodide: m.pyodide,
    pyodideDir,
    lock: m.lock,
    wheel: "assets/engine/" + m.wheel,
    wheelIntegrity: m.integrity,
    stdlib: m.stdlib ? "assets/engine/" + m.stdlib : pyodideDir + "python_stdlib.zip",
    stdlibIntegrity: m.stdlib_integrity,
    fullStdlib: pyodideDir + "python_stdlib.zip",
    cache: m.cache,
    integrity,
    bytes: (m.download && +m.download.fetched) || 0,
  };
}

// Whether the page named the build's files with their hashes (a page of an older
// build may not: then the site's manifest names them).
function complete(runtime) {
  return !!(runtime && typeof runtime.cache === "string" && runtime.integrity && typeof runtime.integrity === "object");
}

function cacheName(base, runtime) {
  return `dhumbal:${new URL(base).pathname}:${runtime.cache}`;
}

// A module outside the trimmed standard library: the first time an import
// of a module that Pyodide's whole standard library has misses, that library
// is fetched (a synchronous request: this is a worker; checked against the
// build's hash, and asked for once more past the HTTP cache if it fails) and
// put behind the trimmed one, and the import tried again. The names it has are listed in the
// trimmed zip (_dhumbal_more.txt), so an optional import that no library has
// (try: import _foo / except ImportError) costs no download.
const FALLBACK_FINDER = `
import sys
from importlib.machinery import PathFinder

class _DhumbalFullStdlib:
    url = None
    sha256 = None
    path = "/lib/python_full_stdlib.zip"
    names = None
    mounted = False

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if cls.names is None:
            import zipfile
            try:
                with zipfile.ZipFile(next(p for p in sys.path if p.endswith(".zip"))) as z:
                    cls.names = frozenset(z.read("_dhumbal_more.txt").decode().split())
            except Exception:
                cls.names = frozenset()
        if name not in cls.names:
            return None
        if not cls.mounted:
            data = cls.download(False) or cls.download(True)
            if data is None:
                return None
            with open(cls.path, "wb") as fh:
                fh.write(data)
            cls.mounted = True
            sys.path.append(cls.path)
        parent = name.rpartition(".")[0]
        if not parent:
            return PathFinder.find_spec(name, [cls.path], target)
        package = sys.modules.get(parent)
        if package is None or not hasattr(package, "__path__"):
            return None
        where = cls.path + "/" + parent.replace(".", "/")
        if where not in package.__path__:
            package.__path__.append(where)
        return PathFinder.find_spec(name, [where], target)

    @classmethod
    def download(cls, again):
        import _sha2  # built into the interpreter: no import from a library
        from js import XMLHttpRequest, Uint8Array
        request = XMLHttpRequest.new()
        request.open("GET", cls.url, False)
        request.responseType = "arraybuffer"
        if again:
            request.setRequestHeader("Cache-Control", "no-cache")
        request.send(None)
        if request.status != 200:
            return None
        data = Uint8Array.new(request.response).to_bytes()
        return data if _sha2.sha256(data).hexdigest() == cls.sha256 else None

sys.meta_path.append(_DhumbalFullStdlib)
`;

// The Python that makes the engine importable and imports it. `site` is
// site-packages, where the wheel was unpacked.
function importEngine(py, site) {
  py.runPython(
    [
      "import importlib, importlib.util, sys",
      // site-packages changed: forget its cached listing (only that one;
      // importlib.invalidate_caches() would also import importlib.metadata).
      `_finder = sys.path_importer_cache.get(${JSON.stringify(site)})`,
      "if _finder is not None: _finder.invalidate_caches()",
      "import dhumbal",
      // dhumbal.table.web (the table's request handler) is imported now, so the
      // first request is fast; a build without it still boots.
      "_dhumbal_web = importlib.import_module('dhumbal.table.web') if importlib.util.find_spec('dhumbal.table.web') else None",
    ].join("\n"),
  );
}

// After a memory snapshot is restored, Python's state is the one the snapshot
// took on another visit: its random generator would deal every visitor the
// same cards. Reseed it from the browser's entropy (os.urandom is
// crypto.getRandomValues), and check that the entropy source answers.
const AFTER_RESTORE = `
import os, random
if len(set(os.urandom(16))) < 2:
    raise RuntimeError("no entropy after restoring the snapshot")
random.seed()
`;

function hexOf(integrity) {
  return [...atob(String(integrity).slice("sha256-".length))].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
}

async function loadEngine(base, runtime, limits, options) {
  const t0 = performance.now();
  const at = (path) => new URL(path, base).href;
  const indexURL = at(runtime.pyodideDir);
  const cache = await openCache(cacheName(base, runtime));
  const watch = watchBoot(limits, runtime.bytes);
  const sources = {};
  const snapshotURL = new URL("snapshot.bin", at(runtime.wheel)).href;
  try {
    // Every download starts now, side by side.
    const get = (path) => obtain(cache, watch, at(path), runtime.integrity[path], sources);
    const files = {
      mjs: get(runtime.pyodideDir + "pyodide.mjs"),
      asm: get(runtime.pyodideDir + "pyodide.asm.mjs"),
      wasm: get(runtime.pyodideDir + "pyodide.asm.wasm"),
      stdlib: get(runtime.stdlib),
      wheel: get(runtime.wheel),
    };
    for (const p of Object.values(files)) p.catch(() => {});
    const wheelBytes = files.wheel.then((r) => r.arrayBuffer());
    wheelBytes.catch(() => {});
    // A file that cannot be had (or does not match the build) ends the start at once.
    const missing = Promise.all(Object.values(files)).then(() => new Promise(() => {}));
    missing.catch(() => {});
    // The memory snapshot an earlier visit kept, if any (see DECISIONS.md).
    // It is made on this device, so the build names no hash for it: one that will not
    // restore is forgotten and the engine loaded afresh (see boot()), and a failed
    // start forgets it (see sweep()). It is kept at once, before the reader can close
    // the page (hashing its 30 MB first took a third of a second).
    const snapshotBytes = options.snapshot && cache
      ? cache.match(snapshotURL).then((r) => (r ? r.arrayBuffer() : null), () => null)
      : Promise.resolve(null);
    // Pyodide asks for its WebAssembly and standard library itself: it gets the responses above.
    const handed = new Map([
      [indexURL + "pyodide.asm.wasm", files.wasm],
      [at(runtime.stdlib), files.stdlib],
    ]);
    self.fetch = function (resource, init) {
      const key = String((resource && resource.url) || resource);
      if (handed.has(key)) {
        const response = handed.get(key);
        handed.delete(key);
        return response;
      }
      return watch.fetch(resource, init);
    };
    let restored = false;
    const boot = (async () => {
      // The module scripts are imported once their bytes are here (the import
      // then comes from the service worker's cache, or the HTTP cache).
      await Promise.all([files.mjs, files.asm].map((p) => p.then((r) => r.arrayBuffer())));
      const { loadPyodide } = await import(indexURL + "pyodide.mjs");
      watch.step();
      const kept = await snapshotBytes;
      const config = {
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
    let py;
    try {
      py = await Promise.race([boot, watch.failed, missing]);
    } catch (err) {
      if (restored) err.snapshot = snapshotURL;
      throw err;
    }
    watch.step();
    const t1 = performance.now();
    const bytes = await Promise.race([wheelBytes, watch.failed]);
    watch.done();
    const t2 = performance.now();
    if (!restored) {
      py.runPython(FALLBACK_FINDER);
      py.runPython(`_DhumbalFullStdlib.url = ${JSON.stringify(at(runtime.fullStdlib))}`);
      py.runPython(`_DhumbalFullStdlib.sha256 = ${JSON.stringify(hexOf(runtime.integrity[runtime.fullStdlib]))}`);
    }
    // Into site-packages, as an installer would (the default is the cwd).
    const sitePackages = py.runPython("import sys; next(p for p in sys.path if p.endswith('/site-packages'))");
    py.unpackArchive(new Uint8Array(bytes), "wheel", { extractDir: sitePackages });
    const t3 = performance.now();
    if (restored) {
      try {
        py.runPython(AFTER_RESTORE);
      } catch (err) {
        err.snapshot = snapshotURL;
        throw err;
      }
    } else {
      importEngine(py, sitePackages);
    }
    handle = py.runPython("_dhumbal_web.handle if _dhumbal_web is not None else None");
    if (!handle && restored) throw Object.assign(new Error("the snapshot holds no engine"), { snapshot: snapshotURL });
    pyodide = py;
    const t4 = performance.now();
    let snapshot = restored ? "restored" : "off";
    if (options.snapshot && !restored && cache) {
      // Taken before any request has changed Python's state; kept once whole.
      const t5 = performance.now();
      try {
        const image = py.makeMemorySnapshot();
        snapshot = `made in ${round(performance.now() - t5)} ms (${image.length} bytes)`;
        cache.put(snapshotURL, new Response(image, { headers: { "content-type": "application/octet-stream" } })).catch(() => {});
      } catch (err) {
        snapshot = `not made: ${err.message || err}`;
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
    return { version: runtime.version, pyodide: py.version, timings };
  } finally {
    watch.restore();
  }
}

async function forget(url) {
  try {
    for (const name of await self.caches.keys()) await (await self.caches.open(name)).delete(url);
  } catch (err) {
    /* nothing kept: nothing to forget */
  }
}

// After a failed load from the files the page named: the files the site has
// now, if they differ (the page is older than the site), else null.
async function newerThan(base, runtime) {
  try {
    const fresh = await fromManifest(base);
    return fresh.cache !== runtime.cache ? fresh : null;
  } catch (err) {
    return null;
  }
}

// Load the engine from the files the page named (else the site's manifest), and
// again once without the snapshot if that would not restore, or from the site's
// newer build if the page is older than the site (then the older build's cache
// goes: this worker has just made it again, and no service worker names it).
// A start that fails leaves the engine's cache holding only files that match.
async function boot(base, given, limits, options) {
  if (typeof WebAssembly !== "object") {
    throw new RuntimeError("unsupported", "WebAssembly is not available");
  }
  let runtime = complete(given) ? given : null;
  try {
    if (!runtime) runtime = await fromManifest(base);
    try {
      return await loadEngine(base, runtime, limits, options);
    } catch (err) {
      if (pyodide) throw err;
      // A snapshot that would not restore is forgotten, and the engine loaded afresh.
      if (err && err.snapshot) {
        await forget(err.snapshot);
        return await loadEngine(base, runtime, limits, { snapshot: false });
      }
      // A page older than the site (a new build was published since it was
      // loaded): load the build the site has now.
      const fresh = runtime === given ? await newerThan(base, runtime) : null;
      if (!fresh) throw err;
      const stale = runtime;
      runtime = fresh;
      if (self.caches) await self.caches.delete(cacheName(base, stale)).catch(() => {});
      return await loadEngine(base, fresh, limits, options);
    }
  } catch (err) {
    if (runtime && !pyodide) await sweep(base, runtime).catch(() => {});
    throw err;
  }
}

function init(base, runtime, limits, options) {
  if (!booting) {
    status("loading");
    const checked = {
      stall: Number(limits && limits.stall) > 0 ? Number(limits.stall) : 8000,
      window: Number(limits && limits.window) > 0 ? Number(limits.window) : 20000,
      total: Number(limits && limits.total) > 0 ? Number(limits.total) : 600000,
    };
    const opts = { snapshot: !(options && options.snapshot === false) };
    booting = boot(base, runtime, checked, opts).then(
      (info) => {
        status("ready");
        return info;
      },
      (err) => {
        booting = null; // a later init may try again
        status("error");
        throw err;
      },
    );
  }
  return booting;
}

function request(payload) {
  if (!pyodide) throw new RuntimeError("not-ready", "the engine is not loaded yet");
  if (!handle) throw new RuntimeError("failed", "this build of the engine has no dhumbal.table.web");
  const text = handle(JSON.stringify(payload));
  return JSON.parse(text);
}

async function onMessage(event) {
  const message = event.data || {};
  const { id } = message;
  try {
    let result;
    if (message.type === "init") {
      result = await init(String(message.base || self.location.href), message.runtime || null, message.limits, message.options);
    } else if (message.type === "request") {
      result = request(message.payload);
    } else {
      throw new RuntimeError("bad-message", `unknown message type ${JSON.stringify(message.type)}`);
    }
    self.postMessage({ id, ok: true, result });
  } catch (err) {
    self.postMessage({ id, ok: false, error: errorOf(err) });
    // After a fatal error Pyodide cannot run anything more: say so, and the
    // page replaces this worker on retry().
    if (pyodide && /fatal error/i.test(String(err && err.message))) {
      pyodide = null;
      status("error");
    }
  }
}

self.onmessage = onMessage;

// -- liveness -------------------------------------------------------------------
//
// This worker holds a Web Lock named after it for as long as it lives; the
// page asks for the same lock and so learns at once when the worker is gone
// (terminated, crashed, closed), busy or not. Where Web Locks are missing,
// the page's timeouts stand in (see dhumbal-runtime.js).
if (self.navigator && navigator.locks && self.name) {
  navigator.locks
    .request(self.name, () => {
      self.postMessage({ type: "alive", lock: self.name });
      return new Promise(() => {}); // held until the worker ends
    })
    .catch(() => {});
}
