"""What the bench scripts share: percentiles, and running Python inside Pyodide under Node.

``in_pyodide`` installs the engine wheel the site ships the way the browser
worker does and runs a snippet whose last expression is a JSON text, through
the loader the tests use too (``tools/pyodide_engine.py`` and ``.mjs``:
offline, ``unpackArchive`` into site-packages).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tools import pyodide_engine

ROOT = Path(__file__).resolve().parents[1]



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
    return pyodide_engine.missing()


def in_pyodide(code: str, *, timeout: float = 3600) -> dict[str, Any]:
    """Run ``code`` in Pyodide with the engine installed: {"python", "pyodide", "engine", "result"}.

    Raises RuntimeError with the tail of Node's output when the run fails.
    """
    return pyodide_engine.run(code, timeout=timeout)
