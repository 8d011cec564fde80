"""The browser runtime: Pyodide and the engine, placed into the built site.

Every page's mini table plays with the same engine as the build, run by
Pyodide in a module Web Worker. This module is the build-time half; the
run-time half is ``browser/runtime/client.ts`` (the page's runtime
module, loaded on intent, which starts nothing until the table asks) and
``browser/worker/`` (the worker). The wheel and the standard library it
runs on are built by enginewheel.py; offline.py keeps them on the device.

What the build writes (never committed)::

    assets/pyodide/<version>/pyodide.mjs        loadPyodide(), imported by the worker
    assets/pyodide/<version>/pyodide.asm.mjs    the Emscripten glue, imported by pyodide.mjs
    assets/pyodide/<version>/pyodide.asm.wasm   CPython compiled to WebAssembly (~9.6 MB)
    assets/pyodide/<version>/python_stdlib.zip  Pyodide's whole standard library (sources),
                                                fetched only if an import misses the trimmed one
    assets/pyodide/<version>/pyodide-lock.json  reduced: the real file's "info", no packages
    assets/engine/<key>/dhumbal-<v>-py3-none-any.whl      the engine, with its bytecode
    assets/engine/<key>/python_stdlib.zip       the trimmed standard library (bytecode)
    assets/engine/manifest.json                 what the build made (see EngineManifest)

Every file under ``assets/pyodide/<version>/`` and ``assets/engine/<key>/``
is named by what it holds (``key`` hashes the wheel and the trimmed library),
so a host may cache them for ever (offline.py's ``_headers`` says so). No
page names them: on the reader's intent the page's runtime reads
``manifest.json`` (``browser/runtime/manifest.ts``, which checks its shape),
beside the worker's script, and hands the worker every file with its SHA-256,
so the worker starts every download at once. The service worker keeps the
manifest with the site's shell, so a table starts offline too.

Only these Pyodide files are copied: the worker passes the reduced lock
itself (the ABI version Pyodide checks, no packages, so an ``import`` of a
missing module never becomes a package download) and points ``stdLibURL``
at the trimmed library; the rest of the npm package (the classic script,
demos, types, source maps) serves no page. A build without node_modules
fails here, naming ``make setup``. ARCHITECTURE.md says how the page, the
worker and instant navigation share one engine.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import PluginError

from .enginewheel import (  # noqa: F401 - the wheel's API, used through this module
    PYODIDE_PACKAGE,
    STDLIB_NAME,
    WORKER_IMPORTS,
    WORKLOAD,
    EngineWheel,
    build_lock,
    build_wheel,
    cached_wheel,
    engine_fingerprint,
    file_integrity,
    integrity_of,
)

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

#: The files of the npm package copied as they are.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
#: Written reduced (see the module docstring).
PYODIDE_LOCK = "pyodide-lock.json"
#: Where the built site serves them, relative to the site root (+ ``/<version>``).
PYODIDE_DEST = "assets/pyodide"
ENGINE_DEST = "assets/engine"
MANIFEST = "manifest.json"
#: The Pyodide files the worker fetches and counts (Pyodide's own standard
#: library only when an import misses the trimmed one).
FETCHED_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")


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


def pyodide_dest(version: str) -> str:
    """Where the site serves Pyodide ``version``, relative to the site root."""
    return f"{PYODIDE_DEST}/{version}"


def pyodide_integrity(repo_root: Path) -> dict[str, str]:
    """Each Pyodide file the site serves, by name, with its Subresource Integrity string:
    the worker and the service worker check every copy they keep or use against it."""
    sources = pyodide_sources(repo_root)
    return {name: file_integrity(sources[name]) for name in PYODIDE_FILES}


def lock_data(lock_path: Path) -> dict[str, Any]:
    """Pyodide's lock file with its ``info`` (ABI version) and no packages."""
    try:
        data = json.loads(lock_path.read_text(encoding="utf-8"))
        info = data["info"]
        info["abi_version"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise PluginError(f"dhumbal: cannot read {lock_path}: {error}") from error
    return {"info": info, "packages": {}}


def reduced_lock(lock_path: Path) -> str:
    return json.dumps(lock_data(lock_path), sort_keys=True) + "\n"


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
    """Copy Pyodide's core files into ``site_dir/assets/pyodide/<version>/``
    (and remove other versions' folders)."""
    sources = pyodide_sources(repo_root)
    version = pyodide_version(repo_root)
    dest = site_dir / pyodide_dest(version)
    written = []
    for name in PYODIDE_FILES:
        _copy_if_changed(sources[name], dest / name)
        written.append(dest / name)
    lock = dest / PYODIDE_LOCK
    lock.write_text(reduced_lock(sources[PYODIDE_LOCK]), encoding="utf-8")
    written.append(lock)
    for other in (site_dir / PYODIDE_DEST).iterdir():
        if other.is_dir() and other.name != version:
            shutil.rmtree(other)
        elif other.is_file():
            other.unlink()  # a file of the layout before versioned folders
    return written


# -- the engine -----------------------------------------------------------------------


def download_sizes(repo_root: Path, wheel: EngineWheel) -> dict[str, int]:
    """What Play downloads the first time, in bytes as stored (before any HTTP compression):
    ``total`` (every file of the runtime) and ``fetched`` (the part the worker fetches and
    counts, for its progress bar: all of it)."""
    sources = pyodide_sources(repo_root)
    stdlib = wheel.stdlib if wheel.stdlib is not None else sources["python_stdlib.zip"]
    size = sum(sources[name].stat().st_size for name in FETCHED_FILES) + wheel.path.stat().st_size + stdlib.stat().st_size
    return {"total": size, "fetched": size}


def engine_manifest(wheel: EngineWheel, pyodide: str, lock: dict[str, Any],
                    download: dict[str, int] | None = None,
                    pyodide_files: dict[str, str] | None = None) -> dict[str, Any]:
    """``assets/engine/manifest.json``: paths relative to ``assets/engine/``; ``pyodide_files``,
    Pyodide's files by name with their integrity (:func:`pyodide_integrity`)."""
    out: dict[str, Any] = {
        "wheel": f"{wheel.key}/{wheel.path.name}",
        "sha256": wheel.sha256,
        "version": wheel.version,
        "integrity": wheel.integrity,
        "pyodide": pyodide,
        "stdlib": f"{wheel.key}/{STDLIB_NAME}" if wheel.stdlib is not None else None,
        "stdlib_integrity": integrity_of(wheel.stdlib_sha256) if wheel.stdlib is not None else None,
        "cache": cache_name(pyodide, wheel),
        "lock": lock,
        "pyodide_integrity": dict(pyodide_files or {}),
    }
    if download is not None:
        out["download"] = download
    return out


def cache_name(pyodide: str, wheel: EngineWheel) -> str:
    """The browser cache of this engine, named by Pyodide's version and the engine's files
    (the worker and the service worker put the site's scope in front)."""
    return f"engine-{pyodide}-{wheel.key}"


def file_hashes(manifest: dict[str, Any]) -> dict[str, str]:
    """Every file of the engine the worker or the service worker may keep, by its path from
    the site root, with its Subresource Integrity string: nothing is kept or used unchecked."""
    pyodide_dir = pyodide_dest(manifest["pyodide"]) + "/"
    known = manifest.get("pyodide_integrity") or {}
    if sorted(known) != sorted(PYODIDE_FILES):
        raise PluginError("dhumbal: the engine's manifest lacks the hashes of Pyodide's files")
    out = {pyodide_dir + name: sri for name, sri in known.items()}
    out[f"{ENGINE_DEST}/{manifest['wheel']}"] = manifest["integrity"]
    if manifest["stdlib"]:
        out[f"{ENGINE_DEST}/{manifest['stdlib']}"] = manifest["stdlib_integrity"]
    return dict(sorted(out.items()))


def runtime_config(manifest: dict[str, Any]) -> dict[str, Any]:
    """What the worker needs, with paths from the site root, as ``browser/runtime/manifest.ts``
    reads it from the manifest (the service worker's ``BUILD.engineFiles`` is its ``integrity``)."""
    pyodide_dir = pyodide_dest(manifest["pyodide"]) + "/"
    stdlib = manifest["stdlib"]
    return {
        "version": manifest["version"],
        "pyodide": manifest["pyodide"],
        "pyodideDir": pyodide_dir,
        "lock": manifest["lock"],
        "wheel": f"{ENGINE_DEST}/{manifest['wheel']}",
        "stdlib": f"{ENGINE_DEST}/{stdlib}" if stdlib else pyodide_dir + "python_stdlib.zip",
        "fullStdlib": pyodide_dir + "python_stdlib.zip",
        "cache": manifest["cache"],
        "integrity": file_hashes(manifest),
        "bytes": (manifest.get("download") or {}).get("fetched", 0),
    }


def write_engine(site_dir: Path, wheel: EngineWheel, pyodide: str,
                 download: dict[str, int] | None = None, lock: dict[str, Any] | None = None,
                 pyodide_files: dict[str, str] | None = None) -> Path:
    """Put the wheel, the trimmed standard library and ``manifest.json`` into
    ``site_dir/assets/engine/`` (and remove other engine builds' folders)."""
    dest = site_dir / ENGINE_DEST
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.iterdir():
        if old.is_dir() and old.name != wheel.key:
            shutil.rmtree(old)
        elif old.is_file() and old.name != MANIFEST:
            old.unlink()  # a file of the layout before the engine's folders
    _copy_if_changed(wheel.path, dest / wheel.key / wheel.path.name)
    if wheel.stdlib is not None:
        _copy_if_changed(wheel.stdlib, dest / wheel.key / STDLIB_NAME)
    manifest = dest / MANIFEST
    data = engine_manifest(wheel, pyodide, lock if lock is not None else {"info": {}, "packages": {}}, download, pyodide_files)
    manifest.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return manifest


def compile_catalogs(repo_root: Path) -> None:
    """Compile ``locales/*/LC_MESSAGES/*.po`` into the engine package (before hashing it)."""
    from ..translation import catalogs
    from ..translation.pofile import CatalogError

    try:
        with build_lock(repo_root / "build" / ".catalogs.lock"):
            catalogs.compile_catalogs()
    except CatalogError as error:
        raise PluginError(f"dhumbal: a catalog cannot be compiled:\n{error}") from error


# -- hooks --------------------------------------------------------------------------


class RuntimeAssets:
    """What the plugin (plugin/plugin.py) calls: prepare in ``on_config``, write in ``on_post_build``.

    mkdocs-static-i18n runs one nested build per extra language; the runtime
    is built once, by the outer build, and served from the site root only.
    """

    def __init__(self, repo_root: Path) -> None:
        self.repo_root = repo_root
        self.wheel: EngineWheel | None = None
        self.manifest: dict[str, Any] | None = None

    @staticmethod
    def nested(config: MkDocsConfig) -> bool:
        """Whether this is one of mkdocs-static-i18n's nested builds (a language other than the default)."""
        plugin = config.plugins.get("i18n")
        return bool(getattr(plugin, "building", False))

    def on_config(self, config: MkDocsConfig) -> None:
        if not self.nested(config):
            sources = pyodide_sources(self.repo_root)  # fail fast without node_modules
            compile_catalogs(self.repo_root)
            self.wheel = cached_wheel(self.repo_root)
            self.manifest = engine_manifest(
                self.wheel, pyodide_version(self.repo_root), lock_data(sources[PYODIDE_LOCK]),
                download_sizes(self.repo_root, self.wheel), pyodide_integrity(self.repo_root),
            )
        if self.manifest is None:
            raise PluginError("dhumbal: runtime assets: a language build started before the site's")

    def on_post_build(self, config: MkDocsConfig) -> None:
        if self.nested(config):
            return
        if self.wheel is None or self.manifest is None:
            raise PluginError("dhumbal: runtime assets: on_post_build before on_config")
        site_dir = Path(config.site_dir)
        write_pyodide(site_dir, self.repo_root)
        write_engine(site_dir, self.wheel, self.manifest["pyodide"], self.manifest["download"], self.manifest["lock"],
                     self.manifest["pyodide_integrity"])

    def download_bytes(self) -> int:
        """What Play downloads the first time (0 before the wheel is built)."""
        if self.manifest is None:
            return 0
        return int(self.manifest["download"]["total"])


def manifest_of(site_dir: Path) -> dict[str, Any]:
    """The built site's engine manifest (for tests and benchmarks)."""
    data: dict[str, Any] = json.loads((site_dir / ENGINE_DEST / MANIFEST).read_text(encoding="utf-8"))
    return data
