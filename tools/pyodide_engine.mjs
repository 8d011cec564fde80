// The engine inside Pyodide under Node, offline: the one loader that the
// bench (bench/benchkit.py) uses.
//
// Pyodide comes from node_modules (the npm package `pyodide`); any fetch
// fails loudly, since under Node a fetch would be a request beyond the
// machine. The engine wheel is installed the way the browser worker
// installs it (browser/worker/boot.ts): unpacked into
// site-packages with pyodide.unpackArchive (no micropip), and the
// standard-library bytecode the wheel carries put first on sys.path.
//
// As a module:
//
//   import { loadEngine } from "./tools/pyodide_engine.mjs";
//   const pyodide = await loadEngine("dhumbal-….whl");   // `import dhumbal` works
//
// As a command (what tools/pyodide_engine.py runs):
//
//   node tools/pyodide_engine.mjs WHEEL CODE_FILE [EXTRA_ZIP]
//
// runs CODE_FILE, Python whose last expression is a JSON text (after
// unpacking EXTRA_ZIP, the engine's modules the wheel leaves out, beside the
// wheel: see pyodide_engine.py), and writes one
// line to stdout: {"python": "3.14.x", "pyodide": "…", "engine": "<path of
// dhumbal/__init__.py>", "result": <that JSON>}. Pyodide's own output goes
// to stderr, so stdout carries only the answer.
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { loadPyodide } from "pyodide";

/** Pyodide from node_modules, with fetch refused and its output on stderr. */
export async function loadOffline() {
  globalThis.fetch = async (resource) => {
    throw new Error(`no network here (asked for ${resource})`);
  };
  return loadPyodide({
    stdout: (line) => console.error(line),
    stderr: (line) => console.error(line),
  });
}

/** Install the wheel's bytes into Pyodide's site-packages, as the worker does; returns that directory. */
export function installWheel(pyodide, bytes) {
  const sitePackages = pyodide.runPython("import os, sysconfig; os.path.normpath(sysconfig.get_path('purelib'))");
  // Under Node, unpackArchive wants a Uint8Array, not a Buffer.
  pyodide.unpackArchive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), "wheel", {
    extractDir: sitePackages,
  });
  pyodide.runPython(
    "import importlib, os, sys\n" +
      "importlib.invalidate_caches()\n" +
      `_zip = os.path.join(${JSON.stringify(sitePackages)}, "dhumbal", "_pyodide_stdlib.zip")\n` +
      "if os.path.exists(_zip): sys.path.insert(0, _zip)\n" +
      "del _zip",
  );
  return sitePackages;
}

/** Pyodide with the engine wheel at ``wheelPath`` installed, and the zip at ``extraPath`` (if any) beside it. */
export async function loadEngine(wheelPath, extraPath) {
  const [wheel, extra, pyodide] = await Promise.all([
    readFile(wheelPath),
    extraPath ? readFile(extraPath) : null,
    loadOffline(),
  ]);
  const sitePackages = installWheel(pyodide, wheel);
  if (extra) {
    pyodide.unpackArchive(new Uint8Array(extra.buffer, extra.byteOffset, extra.byteLength), "zip", {
      extractDir: sitePackages,
    });
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
  }
  return pyodide;
}

async function main(argv) {
  const [wheelPath, codePath, extraPath] = argv;
  if (!wheelPath || !codePath) {
    console.error("usage: node tools/pyodide_engine.mjs WHEEL CODE_FILE [EXTRA_ZIP]");
    process.exit(2);
  }
  const [pyodide, code] = await Promise.all([loadEngine(wheelPath, extraPath), readFile(codePath, "utf8")]);
  const result = pyodide.runPython(code);
  const python = pyodide.runPython("import sys; '%d.%d.%d' % sys.version_info[:3]");
  const engine = pyodide.runPython("import dhumbal; dhumbal.__file__");
  process.stdout.write(JSON.stringify({ python, pyodide: pyodide.version, engine, result: JSON.parse(result) }) + "\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
