"""The engine wheel for the browser, and the standard library it runs on.

What :func:`cached_wheel` gives the site build (see runtime.py for where
they are served and why):

* the engine wheel, built with standard tooling (``python -m build --wheel
  --no-isolation`` on a staging copy of ``engine/dhumbal`` less what the
  browser never runs, :data:`LEFT_OUT`, after the catalogs are compiled into
  the package), with Pyodide's bytecode of every module added beside the
  sources (``__pycache__/*.cpython-314.pyc``, listed in RECORD);
* ``python_stdlib.zip``: the standard library trimmed to what the worker's
  Python loads (Pyodide's own start-up, importing ``dhumbal`` and
  ``dhumbal.table.web``, answering the :data:`WORKLOAD` requests), as sourceless
  bytecode.

Both are compiled by Pyodide itself under Node (``bytecode.mjs``, offline).
The worker's file system is new on every page load and Pyodide's own
``python_stdlib.zip`` holds 2.5 MB of sources, so without this the worker
would download all of the standard library and compile about 150 modules
on every visit (DECISIONS.md has the figures); the trimmed zip is 1.5 MB.
A module outside it is still found: the worker fetches Pyodide's whole
standard library the first time an import misses (see browser/worker/python.ts).

``SOURCE_DATE_EPOCH`` and the zip dates are fixed, so the same sources give
the same bytes and hashes. Both files are cached under
``build/engine-wheel/<fingerprint>/``, the fingerprint being a hash of
``pyproject.toml``, every file of ``engine/dhumbal`` the wheel holds
(compiled catalogs included), ``bytecode.mjs``, the workload and Pyodide's version:
``mkdocs serve`` rebuilds them (a few seconds) only when one of them
changed. Parallel builds (the tests) wait for each other on a lock instead
of building twice.
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
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.plugins.dhumbal.runtime")

#: The npm package, relative to the repository root.
PYODIDE_PACKAGE = Path("node_modules/pyodide")
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
WORKER_IMPORTS = ("dhumbal", "dhumbal.table.web")
#: The trimmed standard library, beside the wheel.
STDLIB_NAME = "python_stdlib.zip"
#: Inside it: the names of the standard library's modules it leaves out
#: (an import of one of them makes the worker fetch the whole library).
MORE_LIST = "_dhumbal_more.txt"

#: What the browser never runs, left out of the wheel (paths in ``engine/dhumbal``):
#: the developer's tools, the command line, and the worked examples and puzzles,
#: which the build runs and the pages show. The worker's imports reach none of them
#: (tests/runtime/test_runtime_assets.py holds it); DECISIONS.md has the bytes saved.
LEFT_OUT = ("lab/", "cli/", "__main__.py", "worked/", "trainer/themes.py", "trainer/rating.py", "trainer/robust.py",
            "trainer/deciding.py")

_SKIP_DIRS = {"__pycache__"}
_SKIP_SUFFIXES = (".pyc", ".pyo", ".tmp")


def _workload() -> list[str]:
    """The requests bytecode.mjs answers to see which modules the table's
    requests load: every operation of dhumbal.table.web in every profile and
    in each kind of language, refusals and malformed requests included (a
    response carrying a link is restored too). The languages are code paths,
    not the site's list of languages: English (no catalog), French (a catalog
    and its typography), Dutch (a catalog) and Nepali (Devanagari digits and
    cards in words); any other language takes the path of one of these."""
    requests: list[Any] = [{"op": "ping"}]  # the engine's version: importlib.metadata
    for n, profile in enumerate(("nepali-games", "dashain", "cardrulesplus")):
        for lang in ("en", "fr", "nl", "ne"):
            requests.append({"op": "new", "profile": profile, "lang": lang, "seed": 11 + n, "difficulty": "expert"})
        requests += [
            {"op": "hint"}, {"op": "sort"}, {"op": "act", "action": "throw"}, {"op": "act", "action": "take stock"},
            {"op": "act", "action": "call"}, {"op": "state"}, {"op": "lang", "lang": "ne"}, {"op": "next-deal"},
            {"op": "new-match"}, {"op": "settings", "profile": profile, "lang": "fr"},
        ]
    requests += [{"op": "restore", "hash": "table=%%%", "lang": "nl"}, {"op": "position", "state": {}}, {"op": "nope"}, []]
    # the score pad: a sheet set up, a deal settled (its reasons, the standings, the CSV), a refusal, a bad sheet
    for profile in ("nepali-games(rounds=1)", "dashain", "cardrulesplus"):
        sheet = {"v": 1, "profile": profile, "names": ["A", "B", "C"], "dealer": 0, "deals": [], "end": False}
        requests += [
            {"op": "scorepad", "lang": "fr", "sheet": sheet, "setup": {"profile": profile.split("(")[0], "options": {}}},
            {"op": "scorepad", "lang": "ne", "sheet": sheet, "change": {"kind": "add", "c": 0, "h": [2, 9, 2]}},
            {"op": "scorepad", "lang": "en", "sheet": sheet, "change": {"kind": "add", "c": 1, "h": [2, 99, 2]}},
        ]
    requests += [{"op": "scorepad", "sheet": {"v": 1}}]
    texts = [json.dumps(r, ensure_ascii=False) for r in requests]
    return texts + ["{", "[" * 5000]


#: See :func:`_workload`.
WORKLOAD: tuple[str, ...] = tuple(_workload())


@dataclass(frozen=True)
class EngineWheel:
    """A built engine wheel (and, beside it, the trimmed standard library)."""

    path: Path
    version: str
    sha256: str
    #: The trimmed standard library (None for a wheel built without bytecode).
    stdlib: Path | None = None
    stdlib_sha256: str = ""

    @property
    def integrity(self) -> str:
        """The wheel's Subresource Integrity string (``fetch(…, {integrity})``)."""
        return integrity_of(self.sha256)

    @property
    def key(self) -> str:
        """A short hash naming this engine build (the wheel and its standard library)."""
        return hashlib.sha256(f"{self.sha256}:{self.stdlib_sha256}".encode()).hexdigest()[:16]


def integrity_of(sha256: str) -> str:
    return "sha256-" + base64.b64encode(bytes.fromhex(sha256)).decode("ascii")


def file_integrity(path: Path) -> str:
    """The Subresource Integrity string (``sha256-…``) of the file at ``path``."""
    return integrity_of(_sha256(path))


def _engine_files(repo_root: Path) -> list[Path]:
    package = repo_root / "engine" / "dhumbal"
    if not (package / "__init__.py").is_file():
        raise PluginError(f"dhumbal: no engine package at {package}")
    files = []
    for dirpath, dirnames, filenames in os.walk(package):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if not name.endswith(_SKIP_SUFFIXES) and not path.relative_to(package).as_posix().startswith(LEFT_OUT):
                files.append(path)
    return files


def engine_fingerprint(repo_root: Path) -> str:
    """A hash of what makes the wheel: ``pyproject.toml``, ``engine/dhumbal/**`` less
    :data:`LEFT_OUT` (compiled catalogs included), the bytecode compiler, the workload and Pyodide's version."""
    h = hashlib.sha256()
    for path in [repo_root / "pyproject.toml", *_engine_files(repo_root)]:
        rel = path.relative_to(repo_root).as_posix()
        data = wheel_pyproject(path.read_text(encoding="utf-8")).encode() if rel == "pyproject.toml" else path.read_bytes()
        h.update(f"{rel}\0{len(data)}\0".encode())
        h.update(data)
    h.update(BYTECODE_SCRIPT.read_bytes())
    h.update(json.dumps([WORKER_IMPORTS, WORKLOAD]).encode())
    version = repo_root / PYODIDE_PACKAGE / "package.json"
    h.update(version.read_bytes() if version.is_file() else b"no pyodide")
    return h.hexdigest()


#: The tables of ``pyproject.toml`` that make the wheel (its metadata and its files).
_WHEEL_TABLES = ("build-system", "project", "tool.setuptools")


def wheel_pyproject(text: str) -> str:
    """``pyproject.toml`` as the wheel is built from it: the project's metadata and setuptools'
    settings only. The dev extra's pins, the command line's script and the tools' settings
    are the checkout's, never the browser's, so a tool's new pin leaves the wheel unchanged."""
    kept, keep = [], True
    for line in text.splitlines(keepends=True):
        header = line.strip()
        if header.startswith("[") and header.endswith("]"):
            name = header.strip("[]").strip()
            keep = name in _WHEEL_TABLES or name.startswith("tool.setuptools.")
        if keep:
            kept.append(line)
    return "".join(kept)


def _stage(repo_root: Path, staging: Path) -> None:
    """A minimal project tree: pyproject.toml (:func:`wheel_pyproject`), a README stub and engine/dhumbal."""
    (staging / "pyproject.toml").write_text(
        wheel_pyproject((repo_root / "pyproject.toml").read_text(encoding="utf-8")), encoding="utf-8")
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
    stdlib = directory / STDLIB_NAME
    if not stdlib.is_file():
        return EngineWheel(path=path, version=path.name.split("-")[1], sha256=_sha256(path))
    return EngineWheel(path=path, version=path.name.split("-")[1], sha256=_sha256(path),
                       stdlib=stdlib, stdlib_sha256=_sha256(stdlib))


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def compile_bytecode(sources: dict[str, str], repo_root: Path, wheel: bytes = b"") -> tuple[dict[str, bytes], dict[str, bytes]]:
    """Compile with Pyodide itself under Node (offline, from node_modules):
    ``({"dhumbal/__pycache__/x.cpython-314.pyc": bytes}, {"gettext.pyc": bytes, …})``,
    the engine's modules and the trimmed standard library (the modules the
    worker's Python loads, and :data:`MORE_LIST`, the names of the others)."""
    node = shutil.which("node")
    if node is None:
        raise PluginError("dhumbal: Node.js is needed to compile the engine for Pyodide: install it, then run make setup")
    if not (repo_root / PYODIDE_PACKAGE / "pyodide.mjs").is_file():
        raise PluginError(f"dhumbal: the Pyodide runtime is missing from {PYODIDE_PACKAGE}: run make setup")
    request = {"files": sources, "wheel": base64.b64encode(wheel).decode("ascii"),
               "imports": list(WORKER_IMPORTS), "workload": list(WORKLOAD)}
    result = subprocess.run(
        [node, str(BYTECODE_SCRIPT)], input=json.dumps(request), cwd=repo_root,
        capture_output=True, text=True, encoding="utf-8", timeout=600,
    )
    if result.returncode != 0:
        raise PluginError("dhumbal: compiling the engine for Pyodide failed:\n" + result.stderr[-3000:])
    answer = json.loads(result.stdout)

    def decoded(files: dict[str, str]) -> dict[str, bytes]:
        return {name: base64.b64decode(data) for name, data in files.items()}

    stdlib = decoded(answer["stdlib"])
    stdlib[MORE_LIST] = ("\n".join(answer["more"]) + "\n").encode("ascii")
    return decoded(answer["files"]), stdlib


def _zip_bytes(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for name, data in sorted(files.items()):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            out.writestr(info, data)
    return buffer.getvalue()


def add_bytecode(wheel: Path, repo_root: Path) -> bytes:
    """Add Pyodide's bytecode of every engine module to ``wheel`` (and to its
    RECORD); return the trimmed standard library (a zip of sourceless ``.pyc``).

    Other interpreters ignore the engine's bytecode (a different cache tag)."""
    with zipfile.ZipFile(wheel) as zf:
        entries = [(info, zf.read(info)) for info in zf.infolist()]
    sources = {info.filename: data.decode("utf-8") for info, data in entries if info.filename.endswith(".py")}
    compiled, stdlib = compile_bytecode(sources, repo_root, wheel.read_bytes())
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
    return _zip_bytes(stdlib)


def build_wheel(repo_root: Path, out_dir: Path, *, bytecode: bool = True) -> EngineWheel:
    """Build the engine wheel into ``out_dir`` (no cache): ``python -m build
    --wheel``, then (``bytecode``) add Pyodide's compiled modules and write the
    trimmed standard library beside it."""
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
        stdlib = add_bytecode(built.path, repo_root) if bytecode else None
        shutil.copy2(built.path, out_dir / built.path.name)
        if stdlib is not None:
            (out_dir / STDLIB_NAME).write_bytes(stdlib)
    found = _wheel_in(out_dir)
    assert found is not None
    return found


def cached_wheel(repo_root: Path, cache_root: Path | None = None) -> EngineWheel:
    """The engine wheel (and trimmed standard library) for the current sources,
    built only when they changed."""
    cache_root = cache_root or repo_root / WHEEL_CACHE
    fingerprint = engine_fingerprint(repo_root)[:20]
    directory = cache_root / fingerprint
    found = _wheel_in(directory) if directory.is_dir() else None
    if found is not None and found.stdlib is not None:
        return found
    with build_lock(cache_root / ".lock"):
        if _wheel_in(directory) is None:  # not built meanwhile by another build
            # Build beside the cache and rename into place: an interrupted
            # build leaves no half-written wheel behind.
            scratch = Path(tempfile.mkdtemp(prefix=f".{fingerprint}-", dir=cache_root))
            try:
                build_wheel(repo_root, scratch)
                shutil.rmtree(directory, ignore_errors=True)
                os.replace(scratch, directory)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            _prune(cache_root, keep=directory)
    wheel = _wheel_in(directory)
    if wheel is None or wheel.stdlib is None:
        raise PluginError(f"dhumbal: the engine wheel cache {directory} is broken: delete it")
    log.info("dhumbal: built the engine wheel %s", wheel.path.name)
    return wheel


def _prune(cache_root: Path, keep: Path) -> None:
    entries = [p for p in cache_root.iterdir() if p.is_dir() and not p.name.startswith(".")]
    entries.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[CACHE_KEEP:]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def build_lock(path: Path) -> Iterator[None]:
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
