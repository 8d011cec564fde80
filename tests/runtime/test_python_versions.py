"""The engine plays alike on every CPython it supports, not only beside Pyodide.

The parity cases (seeded bot deals in every profile, a long match with many
expert decisions, and shared links of expert tables) are played here and in
every other CPython 3.12 or later found on the machine (``python3.1N`` on the
PATH, pyenv's versions, or the paths in ``DHUMBAL_PYTHONS``, separated like
PATH), from the same engine source; the results must be byte-identical. Python
3.12 changed ``sum()`` of floats to compensated summation: a bot that added
floats with it decided differently there than in 3.11 (an expert table's link
made in 3.11 diverged in Pyodide, Python 3.14, at its 16th deal).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.runtime.test_parity import _first_difference, cpython_parity

pytestmark = pytest.mark.heavy  # starts Node or other Pythons: not in make check

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
THIS = "%d.%d.%d" % sys.version_info[:3]


def _version(python: str) -> str | None:
    try:
        done = subprocess.run([python, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = done.stdout.strip()
    return text if done.returncode == 0 and text.count(".") == 2 else None


def other_pythons() -> dict[str, str]:
    """``{version: interpreter}`` for each CPython 3.12 or later on the machine other than this one."""
    candidates = [p for p in os.environ.get("DHUMBAL_PYTHONS", "").split(os.pathsep) if p]
    candidates += [found for m in range(12, 20) if (found := shutil.which(f"python3.{m}"))]
    pyenv = shutil.which("pyenv")
    if pyenv:
        listed = subprocess.run([pyenv, "versions", "--bare"], capture_output=True, text=True, timeout=60)
        for name in listed.stdout.split():
            if name.startswith("3.") and name.split(".")[1].isdigit() and int(name.split(".")[1]) >= 12:
                prefix = subprocess.run([pyenv, "prefix", name], capture_output=True, text=True, timeout=60)
                if prefix.returncode == 0 and prefix.stdout.strip():
                    candidates.append(str(Path(prefix.stdout.strip()) / "bin" / "python3"))
    out: dict[str, str] = {}
    for python in candidates:
        version = _version(python)
        if version and version != THIS and tuple(map(int, version.split(".")[:2])) >= (3, 12):
            out.setdefault(version, python)
    return out


def test_parity_cases_play_alike_in_every_other_cpython_on_the_machine(tmp_path: Path) -> None:
    pythons = other_pythons()
    if not pythons:
        pytest.skip("no CPython 3.12 or later besides this one here (set DHUMBAL_PYTHONS to point at one)")
    cases, expected = cpython_parity()
    assert any("match" in c for c in cases) and any("hash" in c for c in cases)
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps(cases), encoding="utf-8")
    code = ("import sys, parity_cases; "
            "sys.stdout.write(parity_cases.run(open(sys.argv[1], encoding='utf-8').read()))")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "engine"), str(HERE)]), PYTHONHASHSEED="7")
    for version, python in sorted(pythons.items()):
        done = subprocess.run([python, "-c", code, str(cases_file)], capture_output=True, text=True,
                              encoding="utf-8", env=env, cwd=tmp_path, timeout=1200)
        assert done.returncode == 0, f"Python {version}: {done.stderr[-3000:]}"
        got = json.loads(done.stdout)
        differing = [
            f"{case.get('match') or case['profile']} {case['options']} seed {case['seed']}: {_first_difference(a, b)}"
            for case, a, b in zip(cases, expected, got)
            if a != b
        ]
        assert len(got) == len(expected)
        assert not differing, f"Python {THIS} and {version} differ:\n" + "\n".join(differing)
