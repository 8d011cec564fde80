"""Every module is imported by its package path: nothing edits ``sys.path``.

The engine, the site glue, the tests, the tools and the bench are packages
installed in the venv (or reached from the project's root, as ``tests`` and
``tools`` are); an edit of ``sys.path`` made a module importable only from
where it ran, and left ``# noqa: E402`` behind it (issue 50 counted 37 edits).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EDIT = re.compile(r"\bsys\.path\s*(?:\.\s*(?:insert|append|extend|remove)\b|\[[^\]]*\]\s*=|[+]?=)")
PLACES = ("engine", "sitegen", "tests", "tools", "bench")


def path_edits(text: str) -> list[int]:
    """The lines of ``text`` that change ``sys.path`` or silence E402 for it."""
    return [n for n, line in enumerate(text.splitlines(), 1) if EDIT.search(line) or "noqa: E402" in line]


def test_the_pattern_finds_each_kind_of_edit() -> None:
    found = path_edits("import sys\nsys.path.insert(0, 'x')\nsys.path.append('y')\nsys.path[:0] = ['z']\n"
                       "sys.path = []\nimport a  # noqa: E402\nfinder(path=[*sys.path])\n")
    assert found == [2, 3, 4, 5, 6]


def test_no_module_edits_sys_path() -> None:
    me = Path(__file__).resolve()
    problems = [f"{path.relative_to(ROOT)}:{line}"
                for place in PLACES for path in sorted((ROOT / place).rglob("*.py"))
                if path.resolve() != me and "node_modules" not in path.parts
                for line in path_edits(path.read_text(encoding="utf-8"))]
    assert not problems, "imports by package path, not sys.path edits: " + ", ".join(problems)
