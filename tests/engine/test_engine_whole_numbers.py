"""Bots decide with whole numbers only, so no Python version can decide differently.

Python 3.12 made ``sum()`` of floats compensated (3.11 adds them one by one),
so a bot that compared sums of floats could choose another move on another
version, and a shared link made in CPython 3.11 replayed differently in the
browser (Pyodide, Python 3.14). The modules that decide a bot's move hold no
float literal and no true division, except where a figure is only reported
(named below); ``tests/runtime/test_python_versions.py`` and the Pyodide
parity test check the outcome on real interpreters.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "dhumbal"

#: module -> the names (functions, methods, module constants) where a float may appear:
#: each only reports a figure or bounds the clock, and no decision reads it.
REPORTS: dict[str, set[str]] = {
    "bots/botlevels.py": set(),
    "bots/heuristic.py": set(),
    "bots/expert.py": {"TIME_CAP", "caught_chance"},
    "bots/sampler.py": set(),
}


def _floats(tree: ast.Module) -> list[tuple[int, str, str]]:
    """``(line, what, where)`` for each float literal and true division, ``where`` the enclosing definition."""
    found: list[tuple[int, str, str]] = []

    def visit(node: ast.AST, where: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            where = node.name
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and where == "":
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            where = ",".join(t.id for t in targets if isinstance(t, ast.Name))
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            found.append((node.lineno, f"float {node.value!r}", where))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            found.append((node.lineno, "true division", where))
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Div):
            found.append((node.lineno, "true division", where))
        for child in ast.iter_child_nodes(node):
            visit(child, where)

    visit(tree, "")
    return found


@pytest.mark.parametrize("module", sorted(REPORTS))
def test_decision_modules_use_whole_numbers(module: str) -> None:
    tree = ast.parse((ENGINE / module).read_text(encoding="utf-8"))
    bad = [f"{module}:{line}: {what} in {where or 'module level'}"
           for line, what, where in _floats(tree) if where not in REPORTS[module]]
    assert not bad, "floats where a bot decides:\n" + "\n".join(bad)


def test_the_check_finds_a_float_sum() -> None:
    tree = ast.parse("def value(hand):\n    return sum([0.8 * c for c in hand]) / len(hand)\n")
    assert [(what, where) for _, what, where in _floats(tree)] == [("true division", "value"), ("float 0.8", "value")]
