"""The engine's imports go one way: no module imports, at any depth, a module that imports it.

Every ``import`` in the engine's sources counts: at module level, inside a
function (a lazy import is still a dependency, it only runs later) and under
``TYPE_CHECKING``. A circle makes the order of imports matter and hides
which module stands on which; the stack is meant to read from the bottom
up (cards, i18n, profiles, deal and groups, then match, bots, expert, then
the view and examples, then session, protocol, web and cli).
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
PACKAGE = "dhumbal"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def engine_modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root``, by dotted name (packages by their ``__init__``)."""
    return {module_name(p, root): p for p in sorted((root / package).rglob("*.py"))}


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The engine modules that ``name`` (at ``path``) imports anywhere in its source."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()

    def add(target: str) -> None:
        # "from pkg import name" imports the module pkg.name when there is one, else pkg itself
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                add(f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in modules else origin)
    return found


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    modules = engine_modules(root, package)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle (as a path back to its start) per group of modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    out = []
    for group in groups:
        start = min(group)
        path, seen = [start], {start}
        while True:  # walk inside the group until a module comes round again
            nxt = min(w for w in graph[path[-1]] if w in group)
            if nxt in seen:
                out.append(path[path.index(nxt):] + [nxt])
                break
            path.append(nxt)
            seen.add(nxt)
    return out


def test_the_engine_has_no_import_circle() -> None:
    graph = import_graph(ENGINE, PACKAGE)
    found = circles(graph)
    assert not found, "import circles in the engine:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_walk_sees_every_kind_of_import() -> None:
    graph = import_graph(ENGINE, PACKAGE)
    assert len(graph) > 30 and "dhumbal.play.deal" in graph and "dhumbal.view.table" in graph
    assert "dhumbal.core.cards" in graph["dhumbal.play.deal"]  # from . import cards as C
    assert "dhumbal.play.deal" in graph["dhumbal.view.felt"]  # from ..deal import ...
    assert "dhumbal.view.felt" in graph["dhumbal.view.table"]  # from .felt import ...
    assert "dhumbal.bots.expert" in graph["dhumbal.lab.benchmark"]  # inside a function
    assert "dhumbal.bots.levels" in graph["dhumbal.view.hint"]  # inside a function, two dots up


def test_a_circle_is_found_and_named(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import x\n")
    (pkg / "b.py").write_text("def f():\n    from .sub import c\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .. import a\n")
    (pkg / "d.py").write_text("import pkg.a\nfrom pkg.sub import c\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.d"] == {"pkg.a", "pkg.sub.c"}
    assert circles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"]]
    (pkg / "sub" / "c.py").write_text("import json\n")
    assert circles(import_graph(tmp_path, "pkg")) == []
