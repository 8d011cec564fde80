"""Every module of the project's Python opens with a docstring of at most 40 lines.

A module docstring says what the module does and why it is shaped so; the
measurements behind it belong in bench/RESEARCH.md or DECISIONS.md, where they
do not grow the code. The count is the lines the docstring takes in the file,
its opening and closing quotes included.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Where the project's Python lives (the engine, the site glue, the tests, the bench, the tools).
FOLDERS = ("engine", "sitegen", "tests", "bench", "tools")
LIMIT = 40


def project_modules() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py")
                  if not any(part.startswith(".") or part.endswith(".egg-info") for part in p.relative_to(ROOT).parts))


def docstring_problem(source: str, limit: int = LIMIT) -> str | None:
    """What is wrong with a module's docstring, or None: missing, empty, or over ``limit`` lines."""
    body = ast.parse(source).body
    first = body[0] if body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
        return "no module docstring"
    if not first.value.value.strip():
        return "an empty module docstring"
    lines = (first.end_lineno or first.lineno) - first.lineno + 1
    return f"a module docstring of {lines} lines (at most {limit})" if lines > limit else None


def test_every_module_docstring_says_what_it_does_in_at_most_40_lines() -> None:
    modules = project_modules()
    assert len(modules) > 150 and ROOT / "engine" / "dhumbal" / "play" / "deal.py" in modules
    found = [f"{p.relative_to(ROOT)}: {problem}" for p in modules
             if (problem := docstring_problem(p.read_text(encoding="utf-8")))]
    assert not found, "\n".join(found)


def test_the_check_counts_every_line_of_the_docstring() -> None:
    def module(lines: int) -> str:  # a docstring taking ``lines`` lines of the file
        return '"""Summary.\n' + "more\n" * (lines - 2) + '"""\n\nimport os\n'

    assert docstring_problem(module(40)) is None
    assert docstring_problem(module(41)) == "a module docstring of 41 lines (at most 40)"
    assert docstring_problem("import os\n") == "no module docstring"
    assert docstring_problem('""" """\n') == "an empty module docstring"
