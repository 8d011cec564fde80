// Bot moves per second inside Pyodide under Node, offline (bench/pyodide_bench.py runs it).
//
//   node bench/pyodide_bench.mjs WHEEL DEALS ROUNDS
//
// Installs the engine wheel the way the browser worker does (unpackArchive into
// site-packages, the wheel's standard-library bytecode first on sys.path), then
// runs dhumbal.benchmark.bot_moves for every profile, ROUNDS times (CPU time of
// the Node process), and writes
// one JSON object to stdout: {"python": …, "pyodide": …, "rounds": [{profile: figures}, …]}.
import { readFile } from "node:fs/promises";
import { loadPyodide } from "pyodide";

const [wheelPath, deals, rounds] = process.argv.slice(2);
if (!wheelPath || !deals || !rounds) {
  console.error("usage: node bench/pyodide_bench.mjs WHEEL DEALS ROUNDS");
  process.exit(2);
}
globalThis.fetch = async (resource) => {
  throw new Error(`no network here (asked for ${resource})`);
};
const wheel = await readFile(wheelPath);
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
// Timed by the Node process's CPU time (process.cpuUsage), as CPython's side is by
// its own: other work on a shared machine then lowers neither figure.
const result = pyodide.runPython(`
import json, sys
import js
from dhumbal.benchmark import bot_moves
from dhumbal.profiles import PROFILE_KEYS

def cpu():
    used = js.process.cpuUsage()
    return (used.user + used.system) / 1e6

for key in PROFILE_KEYS:
    bot_moves(key, 20, seed=99, clock=cpu)  # warm up
rounds = [{key: bot_moves(key, ${Number(deals)}, clock=cpu) for key in PROFILE_KEYS} for _ in range(${Number(rounds)})]
json.dumps({"python": "%d.%d.%d" % sys.version_info[:3], "rounds": rounds})
`);
const out = JSON.parse(result);
out.pyodide = pyodide.version;
process.stdout.write(JSON.stringify(out) + "\n");
