"""The browser runtime: Pyodide and the engine wheel, placed into the built site.

Every page's mini table plays with the same engine as the build, run by
Pyodide in a module Web Worker. This module is the build-time half of that;
the run-time half is ``docs/assets/javascripts/dhumbal-runtime.js`` (page
side, ``window.DhumbalRuntime``) and ``dhumbal-worker.mjs`` (the worker).

What the build writes (never committed)::

    assets/pyodide/pyodide.mjs          loadPyodide(), imported by the worker
    assets/pyodide/pyodide.asm.mjs      the Emscripten glue, imported by pyodide.mjs
    assets/pyodide/pyodide.asm.wasm     CPython compiled to WebAssembly (~9.6 MB)
    assets/pyodide/python_stdlib.zip    the standard library, mounted at start-up
    assets/pyodide/pyodide-lock.json    reduced: the real file's "info", no packages
    assets/engine/dhumbal-<v>-py3-none-any.whl
    assets/engine/manifest.json         {"wheel", "sha256", "version", "integrity", "pyodide",
                                         "download": {"total", "fetched"}} (bytes, for the
                                         table's note and progress bar)

Which Pyodide files, and why. ``loadPyodide({indexURL})`` fetches exactly
four files from ``indexURL``: it imports ``pyodide.asm.mjs``, streams
``pyodide.asm.wasm``, mounts ``python_stdlib.zip`` and reads
``pyodide-lock.json`` (the package index; it only checks its ABI version and
maps import names to packages). The worker itself imports ``pyodide.mjs``.
Nothing else of the npm package is needed: ``pyodide.js`` is the classic
script build, ``console*.html`` are demos, ``*.d.ts`` are types and the
source maps only serve a debugger. The lock file is written reduced to its
``info`` (the ABI version that Pyodide checks) with an empty package list:
the engine needs no package from the Pyodide distribution, the real index
(119 KB) would be downloaded for nothing, and with no packages listed an
``import`` of a missing module can never turn into a package download.

Why standard wheel tooling instead of ``pyodide build``. The engine is pure
Python with no dependency, so its wheel is ``py3-none-any`` and Pyodide
installs it as it is; ``pyodide build`` (pyodide-build) exists for packages
with C extensions, and it downloads an Emscripten toolchain and a
cross-build environment, which a site build must not need. So the wheel is
built with ``python -m build --wheel --no-isolation`` (setuptools, from the
project's own ``pyproject.toml``, in a staging copy of ``engine/dhumbal`` so
the source tree gets no ``build/lib`` or egg-info churn), after the gettext
catalogs are compiled into ``engine/dhumbal/locale/`` so the ``.mo`` files
ride inside the wheel. In the browser the worker fetches the wheel from the
site and unpacks it into site-packages with ``pyodide.unpackArchive(bytes,
"wheel")``: no micropip, no request beyond the site.

Bytecode. The worker's file system is new on every page load, and
Pyodide's ``python_stdlib.zip`` holds sources only, so whatever the engine
imports would be compiled on every visit (measured: about 0.4–1 s of a 5 s
boot, half of it for standard-library modules Pyodide does not load at
start: ``gettext``, ``html.entities``, ``decimal``, ``secrets``…). So after
building the wheel, ``bytecode.mjs`` runs Pyodide itself under Node
(offline) to compile (1) every engine module into
``dhumbal/__pycache__/*.cpython-314.pyc`` and (2) the standard-library
modules and packages that importing ``dhumbal.web`` newly loads into
``dhumbal/_pyodide_stdlib.zip`` (sourceless ``.pyc``; a package whole, so
its other modules stay importable), which the worker puts first on
``sys.path``. All are hash-based and unchecked, and listed in RECORD; the
engine's sources stay beside them for tracebacks. CPython ignores both (a
different cache tag; a zip on no path). The wheel grows from ~100 KB to
~350 KB, against a ~13 MB runtime; the engine import drops to ~0.1 s.

Caching. ``SOURCE_DATE_EPOCH`` and the zip dates are fixed, so the same
sources give the same wheel bytes and sha256. The wheel is cached under
``build/engine-wheel/<fingerprint>/``, the fingerprint being a hash of
``pyproject.toml``, every file under ``engine/dhumbal`` (compiled catalogs
included), ``bytecode.mjs`` and Pyodide's version: ``mkdocs serve``
rebuilds it (a few seconds) only when one of them changed. Parallel builds
(the tests) wait for each other on a lock instead of building twice.

How laziness works. A page only carries ``dhumbal-runtime.js`` (a few KB):
it defines ``window.DhumbalRuntime`` and starts nothing. The first
``DhumbalRuntime.ensure()`` (the table calls it on Play or clear intent:
the pointer resting on the table, focus in it, a "play" link or a shared
link; never on scrolling alone) creates the worker, which imports ``pyodide.mjs``, fetches the
manifest and the wheel while Pyodide boots, installs the wheel, imports
``dhumbal`` and ``dhumbal.web``, and answers ``ready``. A page view without
interaction downloads no WebAssembly.

How instant navigation keeps the engine. Material's instant navigation
replaces the page's content (``[data-md-component=container]`` and a few
header parts) and re-runs only the scripts inside that container.
``extra_javascript`` scripts are outside it, at the end of ``<body>``, so
``dhumbal-runtime.js`` runs once per full page load; it also guards itself
(``if (window.DhumbalRuntime) return``). The worker belongs to the window,
which instant navigation keeps, so the next page's table finds
``DhumbalRuntime.status === "ready"`` and plays at once. Switching language
is a full page load (each language's sitemap lists only its pages), and so
is a reload: those start again from ``idle``, from the HTTP cache.

Failure. If node_modules is missing the build fails here, naming
``make setup``. In the browser, a resource that cannot be fetched gives the
error code ``blocked``, a browser without module workers or WebAssembly
``unsupported``, anything else ``failed``; ``DhumbalRuntime.retry()`` starts
again with a fresh worker.
"""

from __future__ import annotations

import base64
import contextlib
import csv
import hashlib
import io
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from mkdocs.exceptions import PluginError

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

log = logging.getLogger("mkdocs.plugins.dhumbal.runtime")

#: The npm package, relative to the repository root.
PYODIDE_PACKAGE = Path("node_modules/pyodide")
#: The files ``loadPyodide`` (and the worker) fetch, copied as they are.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
#: Written reduced (see the module docstring).
PYODIDE_LOCK = "pyodide-lock.json"
#: Where the built site serves them, relative to the site root.
PYODIDE_DEST = "assets/pyodide"
ENGINE_DEST = "assets/engine"
MANIFEST = "manifest.json"
#: Wheel cache, relative to the repository root.
WHEEL_CACHE = Path("build/engine-wheel")
#: How many cached wheels to keep.
CACHE_KEEP = 4
#: 1980-01-01, the earliest date a zip file can hold: reproducible wheels.
SOURCE_DATE_EPOCH = "315532800"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
#: The Node script that compiles the engine to Pyodide's bytecode.
BYTECODE_SCRIPT = Path(__file__).with_name("bytecode.mjs")
#: What the worker imports at start (bytecode.mjs imports the same to see
#: which standard-library modules they need).
WORKER_IMPORTS = ("dhumbal", "dhumbal.web")
#: Inside the wheel: those standard-library modules' bytecode, for the worker's sys.path.
STDLIB_ZIP = "dhumbal/_pyodide_stdlib.zip"

_SKIP_DIRS = {"__pycache__"}
_SKIP_SUFFIXES = (".pyc", ".pyo", ".tmp")


@dataclass(frozen=True)
class EngineWheel:
    """A built engine wheel and what the manifest says about it."""

    path: Path
    version: str
    sha256: str

    @property
    def integrity(self) -> str:
        """The wheel's Subresource Integrity string (``fetch(…, {integrity})``)."""
        digest = bytes.fromhex(self.sha256)
        return "sha256-" + base64.b64encode(digest).decode("ascii")

    def manifest(self, pyodide_version: str, download: dict[str, int] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "wheel": self.path.name,
            "sha256": self.sha256,
            "version": self.version,
            "integrity": self.integrity,
            "pyodide": pyodide_version,
        }
        if download is not None:
            out["download"] = download
        return out


# -- Pyodide ----------------------------------------------------------------------


def pyodide_sources(repo_root: Path) -> dict[str, Path]:
    """The Pyodide core files to copy, or a build error telling how to get them."""
    directory = repo_root / PYODIDE_PACKAGE
    paths = {name: directory / name for name in (*PYODIDE_FILES, PYODIDE_LOCK, "package.json")}
    missing = [name for name, path in paths.items() if not path.is_file()]
    if missing:
        raise PluginError(
            f"dhumbal: the Pyodide runtime is missing from {PYODIDE_PACKAGE} "
            f"({', '.join(missing)}): run make setup to install the npm packages"
        )
    return paths


def pyodide_version(repo_root: Path) -> str:
    data = json.loads((repo_root / PYODIDE_PACKAGE / "package.json").read_text(encoding="utf-8"))
    return str(data["version"])


def reduced_lock(lock_path: Path) -> str:
    """Pyodide's lock file with its ``info`` (ABI version) and no packages."""
    try:
        data = json.loads(lock_path.read_text(encoding="utf-8"))
        info = data["info"]
        info["abi_version"]  # noqa: B018 - Pyodide checks it: it must be there
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise PluginError(f"dhumbal: cannot read {lock_path}: {error}") from error
    return json.dumps({"info": info, "packages": {}}, sort_keys=True) + "\n"


def _copy_if_changed(source: Path, dest: Path) -> None:
    try:
        stat, have = source.stat(), dest.stat()
        if stat.st_size == have.st_size and stat.st_mtime_ns == have.st_mtime_ns:
            return
    except FileNotFoundError:
        pass
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".tmp")
    shutil.copy2(source, tmp)
    os.replace(tmp, dest)


def write_pyodide(site_dir: Path, repo_root: Path) -> list[Path]:
    """Copy Pyodide's core files into ``site_dir/assets/pyodide/``."""
    sources = pyodide_sources(repo_root)
    dest = site_dir / PYODIDE_DEST
    written = []
    for name in PYODIDE_FILES:
        _copy_if_changed(sources[name], dest / name)
        written.append(dest / name)
    lock = dest / PYODIDE_LOCK
    lock.write_text(reduced_lock(sources[PYODIDE_LOCK]), encoding="utf-8")
    written.append(lock)
    return written


# -- the engine wheel ---------------------------------------------------------------


def _engine_files(repo_root: Path) -> list[Path]:
    package = repo_root / "engine" / "dhumbal"
    if not (package / "__init__.py").is_file():
        raise PluginError(f"dhumbal: no engine package at {package}")
    files = []
    for dirpath, dirnames, filenames in os.walk(package):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
        for name in sorted(filenames):
            if not name.endswith(_SKIP_SUFFIXES):
                files.append(Path(dirpath) / name)
    return files


def engine_fingerprint(repo_root: Path) -> str:
    """A hash of what makes the wheel: ``pyproject.toml``, ``engine/dhumbal/**``
    (compiled catalogs included), the bytecode compiler and Pyodide's version."""
    h = hashlib.sha256()
    for path in [repo_root / "pyproject.toml", *_engine_files(repo_root)]:
        rel = path.relative_to(repo_root).as_posix()
        data = path.read_bytes()
        h.update(f"{rel}\0{len(data)}\0".encode())
        h.update(data)
    h.update(BYTECODE_SCRIPT.read_bytes())
    version = repo_root / PYODIDE_PACKAGE / "package.json"
    h.update(version.read_bytes() if version.is_file() else b"no pyodide")
    return h.hexdigest()


def _stage(repo_root: Path, staging: Path) -> None:
    """A minimal project tree: pyproject.toml, a README stub and engine/dhumbal."""
    shutil.copy2(repo_root / "pyproject.toml", staging / "pyproject.toml")
    (staging / "README.md").write_text(
        "Rules engine for Dhumbal (Jhyap), the Nepali hand-reduction card game.\n", encoding="utf-8"
    )
    package = repo_root / "engine" / "dhumbal"
    for path in _engine_files(repo_root):
        target = staging / "engine" / "dhumbal" / path.relative_to(package)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _wheel_in(directory: Path) -> EngineWheel | None:
    wheels = sorted(directory.glob("dhumbal-*-py3-none-any.whl"))
    if len(wheels) != 1:
        return None
    path = wheels[0]
    return EngineWheel(path=path, version=path.name.split("-")[1], sha256=_sha256(path))


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def compile_bytecode(sources: dict[str, str], repo_root: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """Compile with Pyodide itself under Node (offline, from node_modules):
    ``({"dhumbal/__pycache__/x.cpython-314.pyc": bytes}, {"gettext.pyc": bytes, …})``,
    the engine's modules and the standard-library modules importing it loads."""
    node = shutil.which("node")
    if node is None:
        raise PluginError("dhumbal: Node.js is needed to compile the engine for Pyodide: install it, then run make setup")
    pyodide_sources(repo_root)
    result = subprocess.run(
        [node, str(BYTECODE_SCRIPT)],
        input=json.dumps({"files": sources, "imports": list(WORKER_IMPORTS)}), cwd=repo_root,
        capture_output=True, text=True, encoding="utf-8", timeout=600,
    )
    if result.returncode != 0:
        raise PluginError("dhumbal: compiling the engine for Pyodide failed:\n" + result.stderr[-3000:])
    answer = json.loads(result.stdout)

    def decoded(files: dict[str, str]) -> dict[str, bytes]:
        return {name: base64.b64decode(data) for name, data in files.items()}

    return decoded(answer["files"]), decoded(answer["stdlib"])


def _zip_bytes(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as out:
        for name, data in sorted(files.items()):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            out.writestr(info, data)
    return buffer.getvalue()


def add_bytecode(wheel: Path, repo_root: Path) -> None:
    """Add Pyodide's bytecode to ``wheel`` (and to its RECORD): a ``.pyc`` of
    every engine module, and ``STDLIB_ZIP`` with the standard-library modules
    the engine imports beyond Pyodide's start-up set.

    The browser's file system is new on every page load, and Pyodide's
    standard library comes as sources, so without them all of that would be
    compiled on every visit. Other interpreters ignore both (a different
    cache tag; a zip on no path)."""
    with zipfile.ZipFile(wheel) as zf:
        entries = [(info, zf.read(info)) for info in zf.infolist()]
    sources = {info.filename: data.decode("utf-8") for info, data in entries if info.filename.endswith(".py")}
    compiled, stdlib = compile_bytecode(sources, repo_root)
    if stdlib:
        compiled[STDLIB_ZIP] = _zip_bytes(stdlib)
    record_name = next(info.filename for info, _ in entries if info.filename.endswith(".dist-info/RECORD"))
    record = next(data for info, data in entries if info.filename == record_name)
    rows = [row for row in csv.reader(io.StringIO(record.decode("utf-8"))) if row]
    rows = [row for row in rows if row[0] != record_name]
    rows += [[name, _record_hash(data), str(len(data))] for name, data in sorted(compiled.items())]
    rows.append([record_name, "", ""])
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    package = [(i, d) for i, d in entries if ".dist-info/" not in i.filename]
    meta = [(i, d) for i, d in entries if ".dist-info/" in i.filename and i.filename != record_name]
    tmp = wheel.with_name(wheel.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as out:

        def put(name: str, data: bytes) -> None:
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            out.writestr(info, data)

        for info, data in package:
            put(info.filename, data)
        for name, data in sorted(compiled.items()):
            put(name, data)
        for info, data in meta:
            put(info.filename, data)
        put(record_name, text.getvalue().encode("utf-8"))
    os.replace(tmp, wheel)


def build_wheel(repo_root: Path, out_dir: Path, *, bytecode: bool = True) -> EngineWheel:
    """Build the engine wheel into ``out_dir`` (no cache): ``python -m build
    --wheel``, then (``bytecode``) add Pyodide's compiled modules."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="dhumbal-wheel-") as tmp:
        staging = Path(tmp) / "src"
        staging.mkdir()
        _stage(repo_root, staging)
        dist = Path(tmp) / "dist"
        env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, PYTHONDONTWRITEBYTECODE="1")
        command = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(staging)]
        result = subprocess.run(command, cwd=tmp, env=env, capture_output=True, text=True)
        built = _wheel_in(dist)
        if result.returncode != 0 or built is None:
            output = (result.stdout + result.stderr).strip().splitlines()
            raise PluginError(
                "dhumbal: building the engine wheel failed (python -m build --wheel "
                "--no-isolation; are the dev dependencies installed? run make setup):\n"
                + "\n".join(output[-25:])
            )
        if bytecode:
            add_bytecode(built.path, repo_root)
        target = out_dir / built.path.name
        shutil.copy2(built.path, target)
    return EngineWheel(path=target, version=built.version, sha256=_sha256(target))


def cached_wheel(repo_root: Path, cache_root: Path | None = None) -> EngineWheel:
    """The engine wheel for the current sources, built only when they changed."""
    cache_root = cache_root or repo_root / WHEEL_CACHE
    fingerprint = engine_fingerprint(repo_root)[:20]
    directory = cache_root / fingerprint
    found = _wheel_in(directory) if directory.is_dir() else None
    if found is not None:
        return found
    with _build_lock(cache_root / ".lock"):
        if _wheel_in(directory) is None:  # not built meanwhile by another build
            # Build beside the cache and rename into place: an interrupted
            # build leaves no half-written wheel behind.
            scratch = Path(tempfile.mkdtemp(prefix=f".{fingerprint}-", dir=cache_root))
            try:
                build_wheel(repo_root, scratch)
                os.replace(scratch, directory)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            _prune(cache_root, keep=directory)
    wheel = _wheel_in(directory)
    if wheel is None:
        raise PluginError(f"dhumbal: the engine wheel cache {directory} is broken: delete it")
    log.info("dhumbal: built the engine wheel %s", wheel.path.name)
    return wheel


def _prune(cache_root: Path, keep: Path) -> None:
    entries = [p for p in cache_root.iterdir() if p.is_dir() and not p.name.startswith(".")]
    entries.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[CACHE_KEEP:]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)


#: The files the worker reads with fetch() (so it can count their bytes as
#: they arrive): all of them, since the watchdog fetches pyodide.mjs and
#: pyodide.asm.mjs itself before they are imported from the cache.
FETCHED_FILES = PYODIDE_FILES


def download_sizes(repo_root: Path, wheel: EngineWheel) -> dict[str, int]:
    """What Play downloads the first time, in bytes as stored (before any HTTP compression):
    ``total`` (every file of the runtime) and ``fetched`` (the part the worker fetches and
    can count, for its progress bar)."""
    sources = pyodide_sources(repo_root)
    lock = len(reduced_lock(sources[PYODIDE_LOCK]).encode("utf-8"))
    wheel_size = wheel.path.stat().st_size
    sizes = {name: sources[name].stat().st_size for name in PYODIDE_FILES}
    fetched = sum(sizes[name] for name in FETCHED_FILES) + lock + wheel_size
    return {"total": sum(sizes.values()) + lock + wheel_size, "fetched": fetched}


def write_engine(site_dir: Path, wheel: EngineWheel, pyodide: str,
                 download: dict[str, int] | None = None) -> Path:
    """Put the wheel and ``manifest.json`` into ``site_dir/assets/engine/``."""
    dest = site_dir / ENGINE_DEST
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob("dhumbal-*.whl"):
        if old.name != wheel.path.name:
            old.unlink()
    _copy_if_changed(wheel.path, dest / wheel.path.name)
    manifest = dest / MANIFEST
    manifest.write_text(json.dumps(wheel.manifest(pyodide, download), indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return manifest


@contextlib.contextmanager
def _build_lock(path: Path) -> Iterator[None]:
    """One build at a time past this point (tests build the site in parallel)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def compile_catalogs(repo_root: Path) -> None:
    """Compile ``locales/*/LC_MESSAGES/*.po`` into the engine package (before hashing it)."""
    from . import catalogs

    try:
        with _build_lock(repo_root / "build" / ".catalogs.lock"):
            catalogs.compile_catalogs()
    except catalogs.CatalogError as error:
        raise PluginError(f"dhumbal: a catalog cannot be compiled:\n{error}") from error


# -- hooks --------------------------------------------------------------------------


class RuntimeAssets:
    """What ``sitegen/hooks.py`` calls: prepare in ``on_config``, write in ``on_post_build``.

    mkdocs-static-i18n runs one nested build per extra language; the runtime
    is built once, by the outer build, and served from the site root only.
    """

    def __init__(self, repo_root: Path) -> None:
        self.repo_root = repo_root
        self.wheel: EngineWheel | None = None

    @staticmethod
    def nested(config: MkDocsConfig) -> bool:
        """Whether this is one of mkdocs-static-i18n's nested builds (a language other than the default)."""
        plugin = config.plugins.get("i18n")
        return bool(getattr(plugin, "building", False))

    def on_config(self, config: MkDocsConfig) -> None:
        if self.nested(config):
            return
        pyodide_sources(self.repo_root)  # fail fast without node_modules
        compile_catalogs(self.repo_root)
        self.wheel = cached_wheel(self.repo_root)

    def on_post_build(self, config: MkDocsConfig) -> None:
        if self.nested(config):
            return
        if self.wheel is None:
            raise PluginError("dhumbal: runtime assets: on_post_build before on_config")
        site_dir = Path(config.site_dir)
        write_pyodide(site_dir, self.repo_root)
        write_engine(site_dir, self.wheel, pyodide_version(self.repo_root),
                     download_sizes(self.repo_root, self.wheel))

    def download_bytes(self) -> int:
        """What Play downloads the first time (0 before the wheel is built)."""
        if self.wheel is None:
            return 0
        return download_sizes(self.repo_root, self.wheel)["total"]


def manifest_of(site_dir: Path) -> dict[str, Any]:
    """The built site's engine manifest (for tests and benchmarks)."""
    data: dict[str, Any] = json.loads((site_dir / ENGINE_DEST / MANIFEST).read_text(encoding="utf-8"))
    return data
