"""What a caller hands ``make`` is data, never a command.

A value set on make's command line (``CODE``, ``PAGES``, ``PORT``,
``SOAK_ACTIONS``, ``PYTHON``) reaches a recipe only through its environment,
quoted, and is checked before use; the Makefile's own paths (``VENV``, ``PY``…)
cannot be set from the command line at all. Each hostile value below once ran
its ``touch`` (``make new-language CODE='x;touch …'`` printed the refusal for
``x``, ran the ``touch`` and exited 0). The recipes' prerequisites are taken as
done (``make -o``): nothing here installs, extracts or serves anything.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAKEFILE = ROOT / "Makefile"
STAMP = ".venv/.installed"

if shutil.which("make") is None:
    pytest.skip("make is not installed", allow_module_level=True)


def make(*args: str) -> subprocess.CompletedProcess[str]:
    """``make ARGS`` in a process group of its own: should a value slip through and start
    something that lasts (a server), the test fails and leaves nothing running."""
    # A make of its own, not a sub-make of the one running the tests (make check): none of
    # that make's flags or level carried over.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    with subprocess.Popen(["make", "--no-print-directory", *args], cwd=ROOT, stdout=subprocess.PIPE, env=env,
                          stderr=subprocess.PIPE, text=True, start_new_session=True) as child:
        try:
            out, err = child.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            pytest.fail(f"make {' '.join(args)} was still running after a minute")
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def recipe_problems(text: str) -> list[str]:
    """Every ``$(NAME)`` in a recipe line that is not one of the Makefile's own
    (``override``) variables: a value the caller sets, pasted into the shell's command."""
    own = set(re.findall(r"^override (\w+) :?=", text, flags=re.M))
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("\t"):
            continue
        line = line.replace("$(if $(FORCE),--force)", "")  # make's own test, pastes a constant
        for name in re.findall(r"\$\((\w+)\)", line):
            if name not in own:
                found.append(f"Makefile:{number}: $({name}) in a recipe (pass it as \"$${name}\")")
    return found


def test_no_recipe_pastes_a_callers_value_into_its_command() -> None:
    problems = recipe_problems(MAKEFILE.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


def test_the_recipe_check_can_fail() -> None:
    assert recipe_problems("override PY := x\nt:\n\t$(PY) -m y $(CODE)\n") == [
        'Makefile:3: $(CODE) in a recipe (pass it as "$$CODE")']


@pytest.mark.parametrize(("target", "assignment"), [
    ("new-language", "CODE=x;touch {pwned}"),
    ("new-language", "CODE=$(touch {pwned})"),
    ("serve", "PORT=8000;touch {pwned}"),
    ("serve", "PORT=80000"),
    ("soak", "SOAK_ACTIONS=10;touch {pwned}"),
    ("translated", "PAGES=xx/none.md;touch {pwned}"),
    ("translated", "PAGES=--docs {pwned} xx"),
])
def test_a_hostile_value_is_refused_and_runs_nothing(target: str, assignment: str, tmp_path: Path) -> None:
    pwned = tmp_path / "pwned"
    done = make("-o", "catalogs", "-o", "setup", "-o", STAMP, target, assignment.format(pwned=pwned))
    assert done.returncode == 2, done.stdout + done.stderr
    assert not pwned.exists(), "the value ran as a command"
    said = done.stdout + done.stderr
    assert "make: ***" in said and "Traceback" not in said, said
    assert any(word in said for word in ("usage:", "not", "no page")), said  # a sentence saying why


def test_the_makefiles_own_paths_cannot_be_set_from_the_command_line(tmp_path: Path) -> None:
    pwned = tmp_path / "pwned"
    done = make("-n", "-o", STAMP, "check", f"VENV=x;touch {pwned}", f"PY=y;touch {pwned}")
    assert done.returncode == 0, done.stderr
    assert ".venv/bin/mypy" in done.stdout and ".venv/bin/python -m pytest" in done.stdout
    assert "touch" not in done.stdout
