// Run Python in Pyodide under Node, offline, set up as the browser's worker
// sets it up: the trimmed standard library as Pyodide's (stdLibURL), the
// engine wheel unpacked into site-packages, dhumbal and dhumbal.table.web imported.
//
//   node tests/offline/pyodide_check.mjs WHEEL STDLIB LOCK_JSON CODE_FILE [restores]
//
// Without `restores`, CODE_FILE (Python whose last expression is a JSON text)
// runs once and this prints {"results": [<its JSON>]}. With `restores` = n, the
// worker's memory snapshot is taken right after the import, then restored n
// times into fresh interpreters (each one reseeded from the platform's
// entropy, as the worker does), and CODE_FILE runs in each:
// {"results": [...], "snapshot": <bytes>}. Any import outside the trimmed
// library fails here: there is no fallback to the whole library.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { loadPyodide } from "pyodide";

const [wheelPath, stdlibPath, lockPath, codePath, restoresArg] = process.argv.slice(2);
if (!codePath) {
  console.error("usage: node pyodide_check.mjs WHEEL STDLIB LOCK_JSON CODE_FILE [restores]");
  process.exit(2);
}
globalThis.fetch = async (resource) => {
  throw new Error(`no network here (asked for ${resource})`);
};
const [wheel, lock, code] = await Promise.all([readFile(wheelPath), readFile(lockPath, "utf8"), readFile(codePath, "utf8")]);
const restores = Number(restoresArg || 0);
const quiet = { stdout: (line) => console.error(line), stderr: (line) => console.error(line) };
const base = { ...quiet, stdLibURL: stdlibPath, lockFileContents: JSON.parse(lock), packages: [] };

function install(py) {
  const site = py.runPython("import sys; next(p for p in sys.path if p.endswith('/site-packages'))");
  py.unpackArchive(new Uint8Array(wheel.buffer, wheel.byteOffset, wheel.byteLength), "wheel", { extractDir: site });
  return site;
}

const first = await loadPyodide({ ...base, _makeSnapshot: restores > 0 });
// With FULL_STDLIB set: the worker's fallback for modules outside the trimmed
// library (its FALLBACK_FINDER, read from browser/worker/python.ts), asking for
// Pyodide's whole library with a synchronous XMLHttpRequest as in the
// worker; here the "request" reads FULL_STDLIB, and __requests counts them.
// With FULL_STDLIB_CUT too, the first answer is the library cut short (the
// fallback checks it against the build's hash, as the worker sets it) and
// __again counts the requests that asked past the HTTP cache.
if (process.env.FULL_STDLIB) {
  const worker = await readFile(new URL("../../browser/worker/python.ts", import.meta.url), "utf8");
  const finder = worker.split("export const FALLBACK_FINDER = `")[1].split("`;")[0];
  const full = await readFile(process.env.FULL_STDLIB);
  let cut = !!process.env.FULL_STDLIB_CUT;
  globalThis.__requests = 0;
  globalThis.__again = 0;
  globalThis.XMLHttpRequest = class {
    open(method, url, async) {
      if (async !== false) throw new Error("the fallback must ask synchronously");
      this.url = url;
    }
    setRequestHeader(name, value) {
      if (name.toLowerCase() === "cache-control" && value === "no-cache") globalThis.__again += 1;
    }
    send() {
      globalThis.__requests += 1;
      this.status = 200;
      const length = cut ? full.byteLength >> 1 : full.byteLength;
      cut = false;
      this.response = full.buffer.slice(full.byteOffset, full.byteOffset + length);
    }
  };
  first.runPython(finder);
  first.runPython("_DhumbalFullStdlib.url = 'the-whole-library.zip'");
  first.runPython(`_DhumbalFullStdlib.sha256 = ${JSON.stringify(createHash("sha256").update(full).digest("hex"))}`);
}
const site = install(first);
first.runPython(
  `import importlib, sys\n_f = sys.path_importer_cache.get(${JSON.stringify(site)})\n` +
    "if _f is not None: _f.invalidate_caches()\nimport dhumbal, dhumbal.table.web",
);
const results = [];
let size = 0;
if (!restores) {
  results.push(JSON.parse(first.runPython(code)));
} else {
  const snapshot = first.makeMemorySnapshot();
  size = snapshot.length;
  for (let i = 0; i < restores; i++) {
    const py = await loadPyodide({ ...base, _loadSnapshot: snapshot });
    install(py);
    py.runPython("import os, random\nrandom.seed()");
    results.push(JSON.parse(py.runPython(code)));
  }
}
process.stdout.write(JSON.stringify({ results, snapshot: size }) + "\n");
