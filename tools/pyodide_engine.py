"""Run Python inside Pyodide under Node, with the engine wheel installed: the
CPython side of ``tools/pyodide_engine.mjs``, for the bench.

``run(code)`` installs the engine wheel the site ships (the build's cached
wheel, ``dhumbal_site.runtime.assets.cached_wheel``, unless ``wheel`` names
another) the way the browser worker does, runs ``code``, whose last
expression must be a JSON text, and returns ``{"python", "pyodide",
"engine", "result"}``: Pyodide's Python version and its own, the path the
engine was imported from, and the decoded result.

The wheel holds only what the browser runs; the bench also measures the
developer's tools (``dhumbal.lab``) in Pyodide, so :func:`developer_modules`
adds the engine's other modules beside it, from the checkout.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(__file__).with_suffix(".mjs")


def missing() -> str | None:
    """Why Pyodide cannot run here, or None when it can."""
    if shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        return "Node.js and node_modules/pyodide are needed (make setup)"
    return None


def engine_wheel() -> Path:
    """The engine wheel the site build ships for the current sources: the
    catalogs compiled into it, built once and then cached (the same cache)."""
    from dhumbal_site.runtime import assets as runtime

    runtime.compile_catalogs(ROOT)
    return runtime.cached_wheel(ROOT).path


def developer_modules(wheel: Path) -> bytes:
    """The engine's modules the browser's wheel leaves out (the developer's tools, the command
    line), from ``engine/dhumbal``, as a zip with the wheel's paths, to unpack beside it."""
    with zipfile.ZipFile(wheel) as zf:
        shipped = set(zf.namelist())
    engine = ROOT / "engine"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in sorted((engine / "dhumbal").rglob("*.py")):
            name = path.relative_to(engine).as_posix()
            if name not in shipped:
                zf.write(path, name)
    return out.getvalue()


def run(code: str, *, wheel: Path | None = None, timeout: float = 3600) -> dict[str, Any]:
    """Run ``code`` in Pyodide with the engine installed (and :func:`developer_modules` beside it);
    RuntimeError with Node's last words if it fails."""
    why = missing()
    if why is not None:
        raise RuntimeError(why)
    wheel = wheel or engine_wheel()
    with tempfile.TemporaryDirectory(prefix="dhumbal-pyodide-") as tmp:
        path = Path(tmp) / "code.py"
        path.write_text(code, encoding="utf-8")
        extra = Path(tmp) / "developer.zip"
        extra.write_bytes(developer_modules(wheel))
        done = subprocess.run([str(shutil.which("node")), str(SCRIPT), str(wheel), str(path), str(extra)], cwd=ROOT,
                              capture_output=True, text=True, encoding="utf-8", timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError("the Pyodide run failed: " + done.stderr[-4000:])
    answer = json.loads(done.stdout)
    assert isinstance(answer, dict)
    return answer
