// Run a Python snippet inside Pyodide under Node, offline, with the engine wheel
// installed the way the browser worker installs it, and print its result.
//
//   node bench/pyodide_run.mjs WHEEL CODE_FILE
//
// CODE_FILE is Python whose last expression is a JSON text; this script writes
// {"python": …, "pyodide": …, "result": <that JSON>} to stdout. Used by
// bench/benchkit.py (bot moves, the expert's decisions and the call odds in Pyodide).
import { readFile } from "node:fs/promises";
import { loadPyodide } from "pyodide";

const [wheelPath, codePath] = process.argv.slice(2);
if (!wheelPath || !codePath) {
  console.error("usage: node bench/pyodide_run.mjs WHEEL CODE_FILE");
  process.exit(2);
}
globalThis.fetch = async (resource) => {
  throw new Error(`no network here (asked for ${resource})`);
};
const [wheel, code] = await Promise.all([readFile(wheelPath), readFile(codePath, "utf8")]);
const pyodide = await loadPyodide({
  stdout: (line) => console.error(line),
  stderr: (line) => console.error(line),
});
const sitePackages = pyodide.runPython("import os, sysconfig; os.path.normpath(sysconfig.get_path('purelib'))");
pyodide.unpackArchive(new Uint8Array(wheel.buffer, wheel.byteOffset, wheel.byteLength), "wheel", {
  extractDir: sitePackages,
});
pyodide.runPython(
  "import importlib, os, sys\n" +
    "importlib.invalidate_caches()\n" +
    `_zip = os.path.join(${JSON.stringify(sitePackages)}, "dhumbal", "_pyodide_stdlib.zip")\n` +
    "if os.path.exists(_zip): sys.path.insert(0, _zip)",
);
const result = pyodide.runPython(code);
const python = pyodide.runPython("import sys; '%d.%d.%d' % sys.version_info[:3]");
process.stdout.write(JSON.stringify({ python, pyodide: pyodide.version, result: JSON.parse(result) }) + "\n");
