// Compile the engine's modules to bytecode for Pyodide's own Python, at build time.
//
//   node bytecode.mjs < {"files": {"dhumbal/deal.py": "<source>", …}, "prefix": "/lib/python3.14/site-packages"}
//   > {"python": "3.14.2", "cache_tag": "cpython-314", "files": {"dhumbal/__pycache__/deal.cpython-314.pyc": "<base64>", …}}
//
// Run by sitegen/dhumbal_site/runtime.py after the wheel is built, so that
// the browser imports the engine without compiling it on every page load
// (in the worker's in-memory file system nothing is kept between visits).
// The .pyc files are hash-based and unchecked: they are made from the very
// sources shipped beside them, by the same interpreter the browser runs,
// and the import system uses them as they are. Pyodide loads offline from
// node_modules.
import { loadPyodide } from "pyodide";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const request = JSON.parse(input);

// Offline: under Node, Pyodide reads its files from node_modules; any fetch
// would be a request beyond the machine, so it fails loudly instead.
globalThis.fetch = async (resource) => {
  throw new Error(`no network here (asked for ${resource})`);
};
const pyodide = await loadPyodide({ stdout: (s) => console.error(s), stderr: (s) => console.error(s) });
const ns = pyodide.globals.get("dict")();
ns.set("request_json", JSON.stringify(request));
const output = pyodide.runPython(
  `
import base64, json, os, py_compile, sys

request = json.loads(request_json)
prefix = request.get("prefix") or "/lib/python%d.%d/site-packages" % sys.version_info[:2]
tag = sys.implementation.cache_tag
work = "/tmp/dhumbal-bytecode"
out = {}
for rel, source in sorted(request["files"].items()):
    path = os.path.join(work, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(source)
    head, name = os.path.split(rel)
    target = os.path.join(head, "__pycache__", "%s.%s.pyc" % (os.path.splitext(name)[0], tag))
    cfile = os.path.join(work, "out", target)
    py_compile.compile(
        path, cfile=cfile, dfile=os.path.join(prefix, rel), doraise=True,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    with open(cfile, "rb") as fh:
        out[target] = base64.b64encode(fh.read()).decode("ascii")
json.dumps({"python": "%d.%d.%d" % sys.version_info[:3], "cache_tag": tag, "files": out})
`,
  { globals: ns },
);
ns.destroy();
process.stdout.write(output + "\n");
