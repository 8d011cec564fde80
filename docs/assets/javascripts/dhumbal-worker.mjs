// The Dhumbal engine in a module Web Worker (started by dhumbal-runtime.js).
//
// Messages in:  {id, type: "init", base}        base = URL of the site root
//               {id, type: "request", payload}  any JSON value
// Messages out: {id, ok: true, result} | {id, ok: false, error: {code, message}}
//               {type: "status", status}        "loading" | "ready" | "error"
//               {type: "progress", loaded, total}  bytes of the files fetched
//                                               while booting (total from the
//                                               manifest's download.fetched)
//
// "init" loads Pyodide from <base>assets/pyodide/ and, at the same time,
// fetches <base>assets/engine/manifest.json and the wheel it names; then it
// installs the wheel (pyodide.unpackArchive: no micropip, no request beyond
// the site) and imports the engine. "request" passes the payload as JSON text
// to Python's dhumbal.web.handle and returns the parsed JSON answer. No rule
// is decided here: this file only moves messages.
//
// Error codes: "blocked" (a file of the runtime could not be fetched),
// "unsupported" (no WebAssembly here), "failed" (anything else), plus
// "not-ready" and "bad-message" for requests the worker cannot take.

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

// Download progress: the bytes of every file fetched while booting, as they
// arrive, against the total the manifest announces (download.fetched).
const download = { loaded: 0, total: 0, posted: 0 };

function report(force) {
  const now = performance.now();
  if (!force && now - download.posted < 100) return;
  download.posted = now;
  self.postMessage({ type: "progress", loaded: download.loaded, total: download.total });
}

function counted(response) {
  if (!response.body || typeof TransformStream !== "function") return response;
  const count = new TransformStream({
    transform(chunk, controller) {
      download.loaded += chunk.byteLength;
      report(false);
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(count), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

// Pyodide swallows a failed WebAssembly instantiation (it logs a warning and
// never settles loadPyodide), and a 404 on one of its files would leave it
// waiting too. So, while booting, every fetch and every streaming
// instantiation is watched: the first failure rejects the boot at once.
function watchBoot() {
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  const fetch0 = self.fetch;
  const stream0 = WebAssembly.instantiateStreaming;
  self.fetch = async function (resource, options) {
    let response;
    try {
      response = await fetch0.call(self, resource, options);
    } catch (err) {
      fail(new RuntimeError("blocked", `cannot fetch ${resource}: ${err.message || err}`));
      throw err;
    }
    if (!response.ok) {
      fail(new RuntimeError("blocked", `cannot fetch ${resource}: HTTP ${response.status}`));
      return response;
    }
    return counted(response);
  };
  if (stream0) {
    WebAssembly.instantiateStreaming = function (source, imports) {
      return stream0.call(WebAssembly, source, imports).catch((err) => {
        fail(err instanceof RuntimeError ? err : Object.assign(err, { wasm: true }));
        throw err;
      });
    };
  }
  const restore = () => {
    self.fetch = fetch0;
    if (stream0) WebAssembly.instantiateStreaming = stream0;
  };
  failed.catch(() => {});
  return { failed, restore };
}

async function fetchOk(url, options) {
  const response = await fetch(url, options);
  if (!response.ok) throw new RuntimeError("blocked", `cannot fetch ${url}: HTTP ${response.status}`);
  return response;
}

async function loadEngine(base) {
  if (typeof WebAssembly !== "object") {
    throw new RuntimeError("unsupported", "WebAssembly is not available");
  }
  const indexURL = new URL("assets/pyodide/", base).href;
  const engineURL = new URL("assets/engine/", base);
  const watch = watchBoot();
  try {
    const t0 = performance.now();
    // The wheel downloads while Pyodide boots.
    const manifest = fetchOk(new URL("manifest.json", engineURL), { cache: "no-cache" })
      .then((r) => r.json())
      .then((m) => {
        download.total = (m.download && +m.download.fetched) || 0;
        report(true);
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
    const boot = (async () => {
      const { loadPyodide } = await import(indexURL + "pyodide.mjs");
      return loadPyodide({ indexURL, packages: [], stdout: () => {}, stderr: (line) => console.warn(line) });
    })();
    const py = await Promise.race([boot, watch.failed]);
    const t1 = performance.now();
    const bytes = await Promise.race([wheel, watch.failed]);
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
    download.loaded = Math.max(download.loaded, download.total);
    report(true);
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

function init(base) {
  if (!booting) {
    status("loading");
    booting = loadEngine(base).then(
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
      result = await init(String(message.base || self.location.href));
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

