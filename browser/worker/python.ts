/**
 * The Python the worker runs around the engine: a finder that fetches
 * Pyodide's whole standard library the first time an import needs a module
 * the trimmed one lacks, the engine's import, and the reseeding after a
 * memory snapshot is restored.
 */

export interface Pyodide {
  version: string;
  runPython(code: string): unknown;
  unpackArchive(buffer: Uint8Array, format: string, options: { extractDir: string }): void;
  makeMemorySnapshot(): Uint8Array;
}

/**
 * A module outside the trimmed standard library: the first import of a module
 * that Pyodide's whole library has fetches that library (a synchronous request:
 * this is a worker; checked against the build's hash, and asked for once more
 * past the HTTP cache if it fails), puts it behind the trimmed one and tries
 * again. The names it has are listed in the trimmed zip (_dhumbal_more.txt), so
 * an optional import no library has costs no download.
 */
export const FALLBACK_FINDER = `
import sys
from importlib.machinery import PathFinder

class _DhumbalFullStdlib:
    url = None
    sha256 = None
    path = "/lib/python_full_stdlib.zip"
    names = None
    mounted = False

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if cls.names is None:
            import zipfile
            try:
                with zipfile.ZipFile(next(p for p in sys.path if p.endswith(".zip"))) as z:
                    cls.names = frozenset(z.read("_dhumbal_more.txt").decode().split())
            except Exception:
                cls.names = frozenset()
        if name not in cls.names:
            return None
        if not cls.mounted:
            data = cls.download(False) or cls.download(True)
            if data is None:
                return None
            with open(cls.path, "wb") as fh:
                fh.write(data)
            cls.mounted = True
            sys.path.append(cls.path)
        parent = name.rpartition(".")[0]
        if not parent:
            return PathFinder.find_spec(name, [cls.path], target)
        package = sys.modules.get(parent)
        if package is None or not hasattr(package, "__path__"):
            return None
        where = cls.path + "/" + parent.replace(".", "/")
        if where not in package.__path__:
            package.__path__.append(where)
        return PathFinder.find_spec(name, [where], target)

    @classmethod
    def download(cls, again):
        import _sha2  # built into the interpreter: no import from a library
        from js import XMLHttpRequest, Uint8Array
        request = XMLHttpRequest.new()
        request.open("GET", cls.url, False)
        request.responseType = "arraybuffer"
        if again:
            request.setRequestHeader("Cache-Control", "no-cache")
        request.send(None)
        if request.status != 200:
            return None
        data = Uint8Array.new(request.response).to_bytes()
        return data if _sha2.sha256(data).hexdigest() == cls.sha256 else None

sys.meta_path.append(_DhumbalFullStdlib)
`;

/** Make the engine importable (the wheel was unpacked into `site`) and import it. */
export function importEngine(py: Pyodide, site: string): void {
  py.runPython(
    [
      "import importlib, importlib.util, sys",
      // site-packages changed: forget its cached listing (only that one;
      // importlib.invalidate_caches() would also import importlib.metadata).
      `_finder = sys.path_importer_cache.get(${JSON.stringify(site)})`,
      "if _finder is not None: _finder.invalidate_caches()",
      "import dhumbal",
      // dhumbal.table.web (the table's request handler) is imported now, so the
      // first request is fast; a build without it still boots.
      "_dhumbal_web = importlib.import_module('dhumbal.table.web') if importlib.util.find_spec('dhumbal.table.web') else None",
    ].join("\n"),
  );
}

/**
 * After a memory snapshot is restored, Python's state is the one the snapshot
 * took on another visit: its random generator would deal every visitor the
 * same cards. Reseed it from the browser's entropy, and check that it answers.
 */
export const AFTER_RESTORE = `
import os, random
if len(set(os.urandom(16))) < 2:
    raise RuntimeError("no entropy after restoring the snapshot")
random.seed()
`;
