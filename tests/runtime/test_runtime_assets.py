"""Build-time half of the runtime: the engine wheel, the trimmed standard library,
their cache, the Pyodide files."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import modulefinder
import shutil
import sys
import zipfile
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from dhumbal_site.runtime import assets as runtime
from dhumbal_site.runtime import enginewheel

ROOT = Path(__file__).resolve().parents[2]


def _copy_project(dest: Path) -> Path:
    """A throwaway repository with the real pyproject.toml and engine package
    (a snapshot: the live tree may change while the tests run)."""
    shutil.copy2(ROOT / "pyproject.toml", dest / "pyproject.toml")
    shutil.copytree(ROOT / "engine" / "dhumbal", dest / "engine" / "dhumbal", ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    return dest


@pytest.fixture(scope="module")
def wheel() -> runtime.EngineWheel:
    """The wheel the site build ships for these sources: the build's own cached
    wheel (built once per change of the engine, by whichever comes first: the
    site build or this), which test_wheel_is_reproducible builds again."""
    runtime.compile_catalogs(ROOT)
    return runtime.cached_wheel(ROOT)


def worker_modules() -> set[str]:
    """The engine's modules the worker's imports reach (``dhumbal``, ``dhumbal.table.web`` and
    everything they import, at any depth, lazily or not), as ``dhumbal/…py`` paths."""
    finder = modulefinder.ModuleFinder(path=[str(ROOT / "engine"), *sys.path])
    for name in enginewheel.WORKER_IMPORTS:
        finder.import_hook(name)
    files = {Path(m.__file__) for n, m in finder.modules.items() if n.split(".")[0] == "dhumbal" and m.__file__}
    return {f.relative_to(ROOT / "engine").as_posix() for f in files}


def test_wheel_holds_what_the_worker_imports_and_nothing_else(wheel: runtime.EngineWheel) -> None:
    assert wheel.path.name == f"dhumbal-{wheel.version}-py3-none-any.whl"
    names = set(zipfile.ZipFile(wheel.path).namelist())
    package = ROOT / "engine" / "dhumbal"
    sources = {p.relative_to(package.parent).as_posix() for p in package.rglob("*.py")}
    shipped = {n for n in names if n.endswith(".py")}
    needed = worker_modules()
    assert "dhumbal/table/web.py" in needed and "dhumbal/lab/puzzlegen.py" not in needed
    assert shipped == needed, (f"missing from the wheel: {sorted(needed - shipped)}; "
                               f"in the wheel, never imported by the worker: {sorted(shipped - needed)} (enginewheel.LEFT_OUT)")
    assert sources - shipped and all(s.removeprefix("dhumbal/").startswith(enginewheel.LEFT_OUT) for s in sources - shipped)
    for mo in package.glob("locale/*/LC_MESSAGES/*.mo"):
        assert mo.relative_to(package.parent).as_posix() in names
    assert "dhumbal/py.typed" in names
    assert any(n.endswith(".dist-info/METADATA") for n in names)


def test_wheel_carries_pyodide_bytecode_for_every_module_and_records_it(wheel: runtime.EngineWheel) -> None:
    with zipfile.ZipFile(wheel.path) as zf:
        names = zf.namelist()
        record_name = next(n for n in names if n.endswith(".dist-info/RECORD"))
        record = {row[0]: row for row in csv.reader(io.StringIO(zf.read(record_name).decode())) if row}
        modules = [n for n in names if n.endswith(".py")]
        pycs = [n for n in names if n.endswith(".pyc")]
        # Only Pyodide's interpreter (CPython 3.14), one per module, nothing of the build machine's.
        assert sorted(pycs) == sorted(
            n.rsplit("/", 1)[0] + "/__pycache__/" + n.rsplit("/", 1)[1][:-3] + ".cpython-314.pyc" for n in modules
        )
        for name in names:
            assert name in record, f"{name} is not in RECORD"
            if name != record_name:
                data = zf.read(name)
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                assert record[name][1:] == [f"sha256={digest}", str(len(data))], name
        # Hash-based and unchecked (flags = 0b01): used as they are, whatever the file dates.
        for name in pycs:
            assert int.from_bytes(zf.read(name)[4:8], "little") == 0b01, name
        assert names[-1] == record_name


def test_wheel_is_cached_until_the_engine_changes(wheel: runtime.EngineWheel, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("the wheel was rebuilt although nothing changed")

    monkeypatch.setattr(runtime, "build_wheel", no_build)
    again = runtime.cached_wheel(ROOT)
    assert again == wheel


def test_fingerprint_follows_engine_files_and_catalogs(tmp_path: Path) -> None:
    repo = _copy_project(tmp_path)
    before = runtime.engine_fingerprint(repo)
    assert runtime.engine_fingerprint(repo) == before
    (repo / "engine" / "dhumbal" / "__pycache__").mkdir(exist_ok=True)
    (repo / "engine" / "dhumbal" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"ignored")
    assert runtime.engine_fingerprint(repo) == before
    mo = repo / "engine" / "dhumbal" / "locale" / "zz" / "LC_MESSAGES" / "dhumbal.mo"
    mo.parent.mkdir(parents=True)
    mo.write_bytes(b"catalog")
    after_catalog = runtime.engine_fingerprint(repo)
    assert after_catalog != before
    with (repo / "engine" / "dhumbal" / "bots" / "heuristic.py").open("a", encoding="utf-8") as fh:
        fh.write("\n# changed\n")
    assert runtime.engine_fingerprint(repo) not in (before, after_catalog)


def test_a_dev_tool_s_pin_or_setting_leaves_the_wheel_as_it_was(tmp_path: Path) -> None:
    """The wheel is built from the project's metadata and setuptools' settings only: the dev
    extra, the command line's script and the tools' tables (ruff, mypy, pytest) stay out of
    it, so a tool's new pin changes neither the browser's download nor its cache key."""
    repo = _copy_project(tmp_path)
    before = runtime.engine_fingerprint(repo)
    text = (repo / "pyproject.toml").read_text(encoding="utf-8")
    staged = enginewheel.wheel_pyproject(text)
    assert "[project]" in staged and "[tool.setuptools.packages.find]" in staged
    for gone in ("[project.optional-dependencies]", "[project.scripts]", "[tool.mypy]", "[tool.pytest", "pytest=="):
        assert gone in text and gone not in staged, gone
    pinned = text.replace('dev = [\n', 'dev = [\n    "some-linter==9.9",\n', 1)
    (repo / "pyproject.toml").write_text(pinned + "\n[tool.somelinter]\nline-length = 1\n", encoding="utf-8")
    assert runtime.engine_fingerprint(repo) == before
    (repo / "pyproject.toml").write_text(text.replace('version = "0.1.0"', 'version = "0.1.1"'), encoding="utf-8")
    assert runtime.engine_fingerprint(repo) != before


def test_the_wheel_carries_no_dev_pin_and_no_script(wheel: runtime.EngineWheel) -> None:
    with zipfile.ZipFile(wheel.path) as zf:
        metadata = zf.read(f"dhumbal-{wheel.version}.dist-info/METADATA").decode()
        names = zf.namelist()
    assert "Requires-Dist" not in metadata and "Provides-Extra" not in metadata
    assert not any(n.endswith("entry_points.txt") for n in names)


@pytest.mark.heavy  # builds the wheel twice: the full suite
def test_wheel_is_reproducible(wheel: runtime.EngineWheel, tmp_path: Path) -> None:
    # built again, in another directory and another process than the cached one
    again = runtime.build_wheel(ROOT, tmp_path)
    assert again.sha256 == wheel.sha256


def test_manifest_names_the_wheel_and_stdlib_with_their_hashes(wheel: runtime.EngineWheel, tmp_path: Path) -> None:
    (tmp_path / "assets" / "engine" / "0123456789abcdef").mkdir(parents=True)  # an older build's folder
    manifest_path = runtime.write_engine(tmp_path, wheel, "314.0.7")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    served = tmp_path / "assets" / "engine" / manifest["wheel"]
    data = served.read_bytes()
    assert manifest["sha256"] == hashlib.sha256(data).hexdigest()
    assert manifest["integrity"] == "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()
    stdlib = (tmp_path / "assets" / "engine" / manifest["stdlib"]).read_bytes()
    assert manifest["stdlib_integrity"] == "sha256-" + base64.b64encode(hashlib.sha256(stdlib).digest()).decode()
    assert manifest["version"] == wheel.version
    assert manifest["pyodide"] == "314.0.7"
    # Named by their contents: one folder per engine build, the cache named by it and Pyodide's version.
    key = manifest["wheel"].split("/")[0]
    assert manifest["stdlib"] == f"{key}/python_stdlib.zip" and key == wheel.key
    assert manifest["cache"] == f"engine-314.0.7-{key}"
    assert sorted(p.name for p in (tmp_path / "assets" / "engine").iterdir()) == sorted([key, "manifest.json"])


def test_the_runtime_names_every_engine_file_with_its_sha256(wheel: runtime.EngineWheel, tmp_path: Path) -> None:
    """The worker and the service worker check every file they keep or use against these
    (issue 44): Pyodide's four files, the wheel and the trimmed library, by path from the
    site root, each with the Subresource Integrity string of its bytes as served."""
    runtime.write_pyodide(tmp_path, ROOT)
    hashes = runtime.pyodide_integrity(ROOT)
    manifest = json.loads(runtime.write_engine(tmp_path, wheel, runtime.pyodide_version(ROOT), pyodide_files=hashes)
                          .read_text(encoding="utf-8"))
    assert manifest["pyodide_integrity"] == hashes
    config = runtime.runtime_config(manifest)
    pyodide = config["pyodideDir"]
    assert sorted(config["integrity"]) == sorted([*(pyodide + name for name in runtime.PYODIDE_FILES), config["wheel"], config["stdlib"]])
    for path, sri in config["integrity"].items():
        digest = hashlib.sha256((tmp_path / path).read_bytes()).digest()
        assert sri == "sha256-" + base64.b64encode(digest).decode(), path
    # a manifest without Pyodide's hashes names no file unchecked: the build stops
    with pytest.raises(PluginError, match="hashes"):
        runtime.runtime_config({**manifest, "pyodide_integrity": {}})


def test_pyodide_core_files_are_copied_and_the_lock_file_reduced(tmp_path: Path) -> None:
    runtime.write_pyodide(tmp_path, ROOT)
    dest = tmp_path / runtime.pyodide_dest(runtime.pyodide_version(ROOT))
    assert [p.name for p in (tmp_path / "assets" / "pyodide").iterdir()] == [dest.name]
    assert sorted(p.name for p in dest.iterdir()) == sorted([*runtime.PYODIDE_FILES, "pyodide-lock.json"])
    for name in runtime.PYODIDE_FILES:
        assert (dest / name).read_bytes() == (ROOT / "node_modules" / "pyodide" / name).read_bytes()
    lock = json.loads((dest / "pyodide-lock.json").read_text(encoding="utf-8"))
    real = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert lock == {"info": real["info"], "packages": {}}
    # A second build with nothing changed leaves the copies alone.
    wasm = dest / "pyodide.asm.wasm"
    stamp = wasm.stat().st_mtime_ns
    runtime.write_pyodide(tmp_path, ROOT)
    assert wasm.stat().st_mtime_ns == stamp


def test_missing_node_modules_fails_the_build_naming_make_setup(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match="make setup"):
        runtime.pyodide_sources(tmp_path)
    with pytest.raises(PluginError, match="make setup"):
        runtime.write_pyodide(tmp_path / "site", tmp_path)


def test_the_trimmed_stdlib_holds_the_bytecode_the_worker_loads(wheel: runtime.EngineWheel) -> None:
    assert wheel.stdlib is not None
    names = zipfile.ZipFile(wheel.stdlib).namelist()
    modules = {n[:-4].replace("/", ".").removesuffix(".__init__") for n in names if n.endswith(".pyc")}
    # Sourceless bytecode only, and the list of the modules left out.
    assert sorted(set(names) - {n for n in names if n.endswith(".pyc")}) == [enginewheel.MORE_LIST]
    # Pyodide's start-up, unpacking a wheel (the zip's codec), the engine's imports and its requests.
    for module in ("encodings.utf_8", "_pyodide._base", "pyodide", "asyncio", "encodings.cp437", "zipfile",
                   "gettext", "json.decoder", "html", "decimal", "secrets", "importlib.metadata"):
        assert module in modules, module
    # Nothing the worker does not load.
    for module in ("tkinter", "unittest", "sqlite3", "argparse", "tomllib", "email.mime.text", "xml.dom"):
        assert module not in modules, module
    more = set(zipfile.ZipFile(wheel.stdlib).read(enginewheel.MORE_LIST).decode().split())
    full = {n[:-3].replace("/", ".").removesuffix(".__init__")
            for n in zipfile.ZipFile(ROOT / "node_modules" / "pyodide" / "python_stdlib.zip").namelist() if n.endswith(".py")}
    assert modules | more == full and not modules & more
    # Hash-based and unchecked, as the engine's own.
    with zipfile.ZipFile(wheel.stdlib) as zf:
        for name in names[:20]:
            if name.endswith(".pyc"):
                assert int.from_bytes(zf.read(name)[4:8], "little") == 0b01, name
