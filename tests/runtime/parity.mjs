// Play the parity cases inside Pyodide under Node, offline.
//
//   node tests/runtime/parity.mjs WHEEL CASES_JSON_FILE
//
// Loads Pyodide from node_modules (no network: the engine needs no package
// of the Pyodide distribution), installs the engine wheel the way the
// browser worker does (pyodide.unpackArchive, no micropip), runs
// parity_cases.py (beside this file) and writes one JSON object to stdout:
// {"python": "3.14.x", "pyodide": "…", "engine": "<dhumbal/__init__.py path>",
//  "results": ["<transcript JSON>", …]}.
import { readFile } from "node:fs/promises";
import { loadPyodide } from "pyodide";

const [wheelPath, casesPath] = process.argv.slice(2);
if (!wheelPath || !casesPath) {
  console.error("usage: node parity.mjs WHEEL CASES_JSON_FILE");
  process.exit(2);
}

const [wheel, casesJson, source] = await Promise.all([
  readFile(wheelPath),
  readFile(casesPath, "utf8"),
  readFile(new URL("./parity_cases.py", import.meta.url), "utf8"),
]);

// Offline: under Node, Pyodide reads its files from node_modules; any fetch
// would be a request beyond the machine, so it fails loudly instead.
globalThis.fetch = async (resource) => {
  throw new Error(`no network here (asked for ${resource})`);
};
// Pyodide's own output goes to stderr so stdout carries only the result.
const pyodide = await loadPyodide({
  stdout: (line) => console.error(line),
  stderr: (line) => console.error(line),
});
// Under Node, unpackArchive wants a Uint8Array, not a Buffer.
// Into site-packages, as the worker does.
const sitePackages = pyodide.runPython("import os, sysconfig; os.path.normpath(sysconfig.get_path('purelib'))");
pyodide.unpackArchive(new Uint8Array(wheel.buffer, wheel.byteOffset, wheel.byteLength), "wheel", {
  extractDir: sitePackages,
});

const ns = pyodide.globals.get("dict")();
pyodide.runPython("import importlib; importlib.invalidate_caches()");
// As the worker does: the standard-library bytecode the wheel carries goes first.
pyodide.runPython(
  "import os, sys\n" +
    `_zip = os.path.join(${JSON.stringify(sitePackages)}, "dhumbal", "_pyodide_stdlib.zip")\n` +
    "if os.path.exists(_zip): sys.path.insert(0, _zip)",
);
pyodide.runPython(source, { globals: ns });
const run = ns.get("run");
const results = JSON.parse(run(casesJson));
const python = pyodide.runPython("import sys; '%d.%d.%d' % sys.version_info[:3]");
const engine = pyodide.runPython("import dhumbal; dhumbal.__file__");
run.destroy();
ns.destroy();

process.stdout.write(JSON.stringify({ python, pyodide: pyodide.version, engine, results }) + "\n");
