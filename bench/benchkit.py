"""What the bench scripts share: percentiles, and running Python inside Pyodide under Node.

``in_pyodide`` installs the engine wheel the site ships the way the browser
worker does (``bench/pyodide_run.mjs``: offline, ``unpackArchive`` into
site-packages) and runs a snippet whose last expression is a JSON text.
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
if str(ROOT / "sitegen") not in sys.path:
    sys.path.insert(0, str(ROOT / "sitegen"))


def percentile(values: list[float], q: float) -> float:
    """The q-quantile of ``values`` by linear interpolation (NaN when empty)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def pyodide_missing() -> str | None:
    """Why Pyodide cannot run here, or None when it can."""
    if shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        return "Node.js and node_modules/pyodide are needed (make setup)"
    return None


def in_pyodide(code: str, *, timeout: float = 3600) -> dict[str, Any]:
    """Run ``code`` in Pyodide with the engine installed: {"python", "pyodide", "result"}.

    Raises RuntimeError with the tail of Node's output when the run fails.
    """
    why = pyodide_missing()
    if why is not None:
        raise RuntimeError(why)
    from dhumbal_site import runtime

    wheel = runtime.cached_wheel(ROOT).path
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, encoding="utf-8") as f:
        f.write(code)
        path = f.name
    try:
        done = subprocess.run([str(shutil.which("node")), str(ROOT / "bench" / "pyodide_run.mjs"), str(wheel), path],
                              cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=timeout, check=False)
    finally:
        os.unlink(path)
    if done.returncode != 0:
        raise RuntimeError("Pyodide run failed: " + done.stderr[-3000:])
    answer = json.loads(done.stdout)
    assert isinstance(answer, dict)
    return answer
