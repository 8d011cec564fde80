// The Dhumbal engine in a module Web Worker (started by dhumbal-runtime.js).
//
// Messages in:  {id, type: "init", base, limits}  base = URL of the site root;
//                                                 limits.stall in ms (see below)
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
//                                                 received, and expected (the
//                                                 manifest's download.fetched once
//                                                 known, else the sizes seen so far)
//
// "init" loads Pyodide from <base>assets/pyodide/ and, at the same time,
// fetches <base>assets/engine/manifest.json and the wheel it names; then it
// installs the wheel (pyodide.unpackArchive: no micropip, no request beyond
// the site) and imports the engine. "request" passes the payload as JSON text
// to Python's dhumbal.web.handle and returns the parsed JSON answer. No rule
// is decided here: this file only moves messages.
//
// Error codes: "blocked" (a file of the runtime could not be fetched, or its
// download stalled), "unsupported" (no WebAssembly here), "failed" (anything
// else), plus "not-ready" and "bad-message" for requests the worker cannot take.

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

// -- the download watchdog ---------------------------------------------------
//
// Pyodide swallows a failed WebAssembly instantiation (it logs a warning and
// never settles loadPyodide), a 404 on one of its files would leave it
// waiting too, and a download whose connection stalls never ends. So, while
// booting, every fetch is watched: an HTTP error or a failed streaming
// instantiation rejects the boot at once, and so does a stall: nothing
// happening for `stallMs` (no byte on any download, no step finished, and the
// worker not busy: running Python blocks this timer, and time blocked does
// not count). Module scripts (which Pyodide imports) are fetched here first,
// so that their bytes are watched too and the import finds them in the cache.
const TICK = 500; // ms between stall checks

function watchBoot(stallMs) {
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  failed.catch(() => {});
  const fetch0 = self.fetch;
  const stream0 = WebAssembly.instantiateStreaming;
  const inflight = new Set();
  let loaded = 0;
  let total = 0; // the sizes the responses announced so far
  let announced = -1; // what the manifest says the whole download is (-1: not read yet)
  let last = performance.now();
  let lastTick = last;
  let lastPost = 0;

  const report = (force) => {
    const now = performance.now();
    if (!force && now - lastPost < 100) return;
    lastPost = now;
    // Until the manifest has said how much there is, the total is unknown (0):
    // the sizes seen so far would make the first small file look like all of it.
    const whole = announced < 0 ? 0 : announced > 0 ? Math.max(announced, total) : total;
    self.postMessage({ type: "progress", loaded, total: whole, files: inflight.size });
  };
  const progress = () => {
    last = performance.now();
    report(false);
  };
  // Count a response's bytes on a copy of its body; the original goes to its reader untouched.
  const count = (name, response) => {
    const size = Number(response.headers.get("content-length"));
    if (size > 0) total += size;
    let reader;
    try {
      reader = response.clone().body.getReader();
    } catch (err) {
      inflight.delete(name);
      return;
    }
    const pump = () =>
      reader.read().then(({ done, value }) => {
        if (done) {
          inflight.delete(name);
          progress();
          return;
        }
        loaded += value.byteLength;
        progress();
        return pump();
      });
    pump().catch(() => inflight.delete(name));
  };

  self.fetch = async function (resource, options) {
    const name = String((resource && resource.url) || resource).split("?")[0].split("/").pop();
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
    count(name, response);
    return response;
  };
  if (stream0) {
    WebAssembly.instantiateStreaming = function (source, imports) {
      return stream0.call(WebAssembly, source, imports).catch((err) => {
        fail(err instanceof RuntimeError ? err : Object.assign(err, { wasm: true }));
        throw err;
      });
    };
  }
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - lastTick > TICK * 3) last = now; // the worker was busy, not stalled
    lastTick = now;
    if (now - last > stallMs) {
      const waiting = inflight.size ? `: no data from ${[...inflight].join(", ")}` : "";
      fail(new RuntimeError("blocked", `the engine's download stalled for ${Math.round((now - last) / 1000)} s${waiting}`));
    }
    report(true);
  }, TICK);
  const restore = () => {
    clearInterval(timer);
    self.fetch = fetch0;
    if (stream0) WebAssembly.instantiateStreaming = stream0;
  };
  const expect = (bytes) => {
    announced = bytes > 0 ? bytes : 0; // 0: the manifest does not say; the sizes seen are used
    report(true);
  };
  const done = () => {
    loaded = Math.max(loaded, announced, total);
    if (announced < 0) announced = 0;
    report(true);
  };
  return { failed, restore, step: progress, expect, done };
}

async function fetchOk(url, options) {
  const response = await fetch(url, options);
  if (!response.ok) throw new RuntimeError("blocked", `cannot fetch ${url}: HTTP ${response.status}`);
  return response;
}

async function loadEngine(base, limits) {
  if (typeof WebAssembly !== "object") {
    throw new RuntimeError("unsupported", "WebAssembly is not available");
  }
  const indexURL = new URL("assets/pyodide/", base).href;
  const engineURL = new URL("assets/engine/", base);
  const watch = watchBoot(Number(limits && limits.stall) > 0 ? Number(limits.stall) : 8000);
  try {
    const t0 = performance.now();
    // The wheel downloads while Pyodide boots.
    const manifest = fetchOk(new URL("manifest.json", engineURL), { cache: "no-cache" })
      .then((r) => r.json())
      .then((m) => {
        watch.expect((m.download && +m.download.fetched) || 0);
        return m;
      });
    const wheel = manifest
      .then((m) => {
        const url = new URL(m.wheel, engineURL);
        url.searchParams.set("v", String(m.sha256).slice(0, 16));
        return fetchOk(url, m.integrity ? { integrity: m.integrity } : {});
      })
      .then((response) => response.arrayBuffer());
    wheel.catch(() => {});
    // Pyodide's two module scripts, fetched (and watched) before they are imported.
    const scripts = ["pyodide.mjs", "pyodide.asm.mjs"].map((name) =>
      fetchOk(indexURL + name).then((r) => r.arrayBuffer()),
    );
    scripts.forEach((p) => p.catch(() => {}));
    const boot = (async () => {
      await Promise.all(scripts);
      const { loadPyodide } = await import(indexURL + "pyodide.mjs");
      watch.step();
      return loadPyodide({ indexURL, packages: [], stdout: () => {}, stderr: (line) => console.warn(line) });
    })();
    const py = await Promise.race([boot, watch.failed]);
    watch.step();
    const t1 = performance.now();
    const bytes = await Promise.race([wheel, watch.failed]);
    watch.step();
    const t2 = performance.now();
    // Into site-packages, as an installer would (the default is the cwd).
    const sitePackages = py.runPython("import sys; next(p for p in sys.path if p.endswith('/site-packages'))");
    py.unpackArchive(new Uint8Array(bytes), "wheel", { extractDir: sitePackages });
    const t3 = performance.now();
    py.runPython(
      [
        "import importlib, importlib.util, os, sys",
        // site-packages changed: forget its cached listing (only that one;
        // importlib.invalidate_caches() would also import importlib.metadata).
        `_site = ${JSON.stringify(sitePackages)}`,
        "_finder = sys.path_importer_cache.get(_site)",
        "if _finder is not None: _finder.invalidate_caches()",
        // The bytecode of the standard-library modules the engine needs
        // (Pyodide ships them as sources): see sitegen/dhumbal_site/runtime.py.
        "_zip = os.path.join(_site, 'dhumbal', '_pyodide_stdlib.zip')",
        "if os.path.exists(_zip): sys.path.insert(0, _zip)",
        "import dhumbal",
        // dhumbal.web (the table's request handler) is imported now, so the
        // first request is fast; a build without it still boots.
        "_dhumbal_web = importlib.import_module('dhumbal.web') if importlib.util.find_spec('dhumbal.web') else None",
      ].join("\n"),
    );
    handle = py.runPython("_dhumbal_web.handle if _dhumbal_web is not None else None");
    pyodide = py;
    const t4 = performance.now();
    const { version } = await manifest;
    watch.done();
    // Milliseconds of each step, for the benchmark (bench/runtime_bench.py).
    const timings = {
      start: round(started),
      pyodide: round(t1 - t0),
      wheel: round(t2 - t1),
      install: round(t3 - t2),
      import: round(t4 - t3),
    };
    return { version, pyodide: py.version, timings };
  } finally {
    watch.restore();
  }
}

function round(ms) {
  return Math.round(ms * 10) / 10;
}

function init(base, limits) {
  if (!booting) {
    status("loading");
    booting = loadEngine(base, limits).then(
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
  if (!handle) throw new RuntimeError("failed", "this build of the engine has no dhumbal.web");
  const text = handle(JSON.stringify(payload));
  return JSON.parse(text);
}

async function onMessage(event) {
  const message = event.data || {};
  const { id } = message;
  try {
    let result;
    if (message.type === "init") {
      result = await init(String(message.base || self.location.href), message.limits);
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

