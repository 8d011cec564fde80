// Compile the engine for Pyodide's own Python, at build time.
//
//   node bytecode.mjs < {"files": {"dhumbal/deal.py": "<source>", …}, "imports": ["dhumbal", "dhumbal.web"]}
//   > {"python": "3.14.2", "cache_tag": "cpython-314",
//      "files": {"dhumbal/__pycache__/deal.cpython-314.pyc": "<base64>", …},
//      "stdlib": {"gettext.pyc": "<base64>", "html/__init__.pyc": …}}
//
// Run by sitegen/dhumbal_site/runtime.py after the wheel is built. In the
// browser the worker's file system is new on every page load, so whatever
// Python compiles there it compiles on every visit; this compiles it once:
//
// - "files": every engine module, as hash-based unchecked .pyc in
//   __pycache__ beside the sources (made from those very sources);
// - "stdlib": the standard-library modules that importing "imports" loads
//   beyond what Pyodide loads at start (Pyodide's python_stdlib.zip holds
//   sources only), as sourceless .pyc for a zip that the worker puts first
//   on sys.path. A package is taken whole, so that a later import of one of
//   its other modules still finds it.
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
const output = pyodide.runPython(
  `
import base64, importlib, json, os, py_compile, sys, zipfile

request = json.loads(request_json)
prefix = request.get("prefix") or "/lib/python%d.%d/site-packages" % sys.version_info[:2]
tag = sys.implementation.cache_tag
work = "/tmp/dhumbal-bytecode"
src = os.path.join(work, "src")
unchecked = py_compile.PycInvalidationMode.UNCHECKED_HASH


def compiled(path, dfile):
    cfile = os.path.join(work, "out.pyc")
    py_compile.compile(path, cfile=cfile, dfile=dfile, doraise=True, invalidation_mode=unchecked)
    with open(cfile, "rb") as fh:
        return base64.b64encode(fh.read()).decode("ascii")


files = {}
for rel, source in sorted(request["files"].items()):
    path = os.path.join(src, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(source)
    head, name = os.path.split(rel)
    target = os.path.join(head, "__pycache__", "%s.%s.pyc" % (os.path.splitext(name)[0], tag))
    files[target] = compiled(path, os.path.join(prefix, rel))

# Import the engine as the worker does and see which stdlib modules it loads.
stdzip = next(p for p in sys.path if p.endswith(".zip"))
before = set(sys.modules)
sys.path.insert(0, src)  # a new path entry: no finder cache to invalidate
for name in request.get("imports", []):
    if importlib.util.find_spec(name) is not None:
        importlib.import_module(name)
# Top-level modules and packages loaded now (not submodules of packages
# Pyodide had already loaded: those are found through the package's path).
new_tops = {m.split(".")[0] for m in set(sys.modules) - before} - {m.split(".")[0] for m in before}
stdlib = {}
with zipfile.ZipFile(stdzip) as z:
    for entry in sorted(z.namelist()):
        top = entry.split("/")[0]
        module = top[:-3] if top.endswith(".py") else top
        if not entry.endswith(".py") or module not in new_tops:
            continue
        path = os.path.join(work, "stdlib", entry)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(z.read(entry))
        stdlib[entry[:-3] + ".pyc"] = compiled(path, os.path.join(stdzip, entry))

json.dumps({"python": "%d.%d.%d" % sys.version_info[:3], "cache_tag": tag, "files": files, "stdlib": stdlib})
`,
  { globals: ns },
);
ns.destroy();
process.stdout.write(output + "\n");
