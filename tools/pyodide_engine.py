"""Run Python inside Pyodide under Node, with the engine wheel installed: the
CPython side of ``tools/pyodide_engine.mjs``, for the bench.

``run(code)`` installs the engine wheel the site ships (the build's cached
wheel, ``dhumbal_site.runtime.assets.cached_wheel``, unless ``wheel`` names
another) the way the browser worker does, runs ``code``, whose last
expression must be a JSON text, and returns ``{"python", "pyodide",
"engine", "result"}``: Pyodide's Python version and its own, the path the
engine was imported from, and the decoded result.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
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


def run(code: str, *, wheel: Path | None = None, timeout: float = 3600) -> dict[str, Any]:
    """Run ``code`` in Pyodide with the engine installed; RuntimeError with Node's last words if it fails."""
    why = missing()
    if why is not None:
        raise RuntimeError(why)
    wheel = wheel or engine_wheel()
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, encoding="utf-8") as f:
        f.write(code)
        path = f.name
    try:
        done = subprocess.run([str(shutil.which("node")), str(SCRIPT), str(wheel), path], cwd=ROOT,
                              capture_output=True, text=True, encoding="utf-8", timeout=timeout, check=False)
    finally:
        os.unlink(path)
    if done.returncode != 0:
        raise RuntimeError("the Pyodide run failed: " + done.stderr[-4000:])
    answer = json.loads(done.stdout)
    assert isinstance(answer, dict)
    return answer
