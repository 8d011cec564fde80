// Compile the engine, and the part of the standard library it runs on, for
// Pyodide's own Python, at build time.
//
//   node bytecode.mjs < {"files": {"dhumbal/play/deal.py": "<source>", …},
//                        "wheel": "<base64 of the wheel>",
//                        "imports": ["dhumbal", "dhumbal.table.web"],
//                        "workload": ["<request JSON>", …]}
//   > {"python": "3.14.2", "cache_tag": "cpython-314",
//      "files": {"dhumbal/__pycache__/deal.cpython-314.pyc": "<base64>", …},
//      "stdlib": {"json/__init__.pyc": "<base64>", "gettext.pyc": …},
//      "more": ["argparse", "email.mime.text", …]}
//
// Run by sitegen/dhumbal_site/runtime/assets.py after the wheel is built. In the
// browser the worker's file system is new on every page load, and Pyodide's
// python_stdlib.zip holds sources only, so whatever Python imports there it
// compiles on every visit, its own start-up included (about 140 modules:
// most of the boot's time). This compiles it once:
//
// - "files": every engine module, as hash-based unchecked .pyc in
//   __pycache__ beside the sources (made from those very sources);
// - "stdlib": every standard-library module that the worker's Python loads:
//   Pyodide's start-up, unpacking "wheel" (pyodide.unpackArchive), importing
//   "imports" (from "files") and answering each "workload" request with
//   dhumbal.table.web.handle, as sourceless .pyc. The worker mounts
//   them as its standard library (loadPyodide's stdLibURL) in place of the
//   2.5 MB of sources;
// - "more": the standard library's other modules: an import of one of them
//   is still found (the worker fetches the whole standard library the first
//   time one is missing).
//
// Pyodide loads offline from node_modules.
import { loadPyodide } from "pyodide";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;

// Offline: under Node, Pyodide reads its files from node_modules; any fetch
// would be a request beyond the machine, so it fails loudly instead.
globalThis.fetch = async (resource) => {
  throw new Error(`no network here (asked for ${resource})`);
};
const pyodide = await loadPyodide({ stdout: (s) => console.error(s), stderr: (s) => console.error(s) });
const ns = pyodide.globals.get("dict")();
ns.set("request_json", input);
// First what the worker's Python loads, before this script imports anything
// of its own: the modules of Pyodide's start-up, then those that unpacking
// the wheel (as the worker does it), importing the engine and answering its
// requests add.
pyodide.runPython("import sys\nstartup = set(sys.modules)", { globals: ns });
const request = JSON.parse(input);
const sitePackages = pyodide.runPython("import sys; next(p for p in sys.path if p.endswith('/site-packages'))");
if (request.wheel) {
  // A Uint8Array: unpackArchive refuses Node's Buffer.
  const wheel = Buffer.from(request.wheel, "base64");
  pyodide.unpackArchive(new Uint8Array(wheel.buffer, wheel.byteOffset, wheel.byteLength), "wheel", { extractDir: sitePackages });
}
pyodide.runPython(
  `
import json, os
request = json.loads(request_json)
prefix = request.get("prefix") or "/lib/python%d.%d/site-packages" % sys.version_info[:2]
work = "/tmp/dhumbal-bytecode"
src = os.path.join(work, "src")
for rel, source in sorted(request["files"].items()):
    path = os.path.join(src, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(source)
sys.path.insert(0, src)  # a new path entry: no finder cache to invalidate
import importlib
for name in request.get("imports", []):
    importlib.import_module(name)
handle = sys.modules["dhumbal.table.web"].handle if "dhumbal.table.web" in sys.modules else None
for text in request.get("workload", []):
    answer = json.loads(handle(text))
    # A response that carries the game's link: restore it, as a shared link is.
    link = answer.get("hash") if isinstance(answer, dict) else None
    if isinstance(link, str) and link:
        handle(json.dumps({"op": "restore", "hash": link, "lang": "en"}))
loaded = set(sys.modules)
`,
  { globals: ns },
);
const output = pyodide.runPython(
  `
import base64, py_compile, zipfile

tag = sys.implementation.cache_tag
unchecked = py_compile.PycInvalidationMode.UNCHECKED_HASH


def compiled(path, dfile):
    cfile = os.path.join(work, "out.pyc")
    py_compile.compile(path, cfile=cfile, dfile=dfile, doraise=True, invalidation_mode=unchecked)
    with open(cfile, "rb") as fh:
        return base64.b64encode(fh.read()).decode("ascii")


files = {}
for rel in sorted(request["files"]):
    head, name = os.path.split(rel)
    target = os.path.join(head, "__pycache__", "%s.%s.pyc" % (os.path.splitext(name)[0], tag))
    files[target] = compiled(os.path.join(src, rel), os.path.join(prefix, rel))

# Every loaded module that the standard library's zip holds, by its entry
# there (a module "m" is m.py, a package "p" is p/__init__.py).
stdzip = next(p for p in sys.path if p.endswith(".zip"))
wanted = (startup | loaded)
stdlib = {}
more = []
with zipfile.ZipFile(stdzip) as z:
    for entry in sorted(z.namelist()):
        if not entry.endswith(".py"):
            continue
        module = entry[:-3].replace("/", ".")
        if module.endswith(".__init__"):
            module = module[: -len(".__init__")]
        if module not in wanted:
            more.append(module)
            continue
        path = os.path.join(work, "stdlib", entry)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(z.read(entry))
        stdlib[entry[:-3] + ".pyc"] = compiled(path, os.path.join(stdzip, entry))

json.dumps({"python": "%d.%d.%d" % sys.version_info[:3], "cache_tag": tag, "files": files, "stdlib": stdlib, "more": more})
`,
  { globals: ns },
);
ns.destroy();
process.stdout.write(output + "\n");
