"""The site glue's parts import one way, as ARCHITECTURE.md draws them.

``dhumbal_site`` (``sitegen/``) stands in five levels: the shared base (the
package itself, ``languages``, ``strings``), then the translation tools, the
page content, the runtime and offline files, and the MkDocs plugin. A module
imports only modules of its own level or of the levels before it, at any
depth, lazy imports and ``TYPE_CHECKING`` ones included (the imports read as
tests/engine/test_engine_imports.py reads the engine's), and no two modules
import each other. A module that belongs to no part fails, naming it: a new
module goes into the part whose job it does.
"""

from __future__ import annotations

from pathlib import Path

from tests.engine.test_engine_imports import circles, import_graph

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "dhumbal_site"
#: The levels, from the bottom: the shared base, then each part's subpackage.
BASE = frozenset({PACKAGE, f"{PACKAGE}.languages", f"{PACKAGE}.strings"})
PARTS = ("translation", "content", "runtime", "plugin")


def glue_graph() -> dict[str, set[str]]:
    return import_graph(ROOT / "sitegen", PACKAGE)


def level(name: str) -> int | None:
    """0 for the shared base, 1 to 4 for the parts in order; None outside every part."""
    if name in BASE:
        return 0
    part = name.split(".")[1] if name.count(".") >= 1 else ""
    return PARTS.index(part) + 1 if part in PARTS else None


def order_problems(graph: dict[str, set[str]]) -> list[str]:
    found = [f"{name} belongs to no part of the site glue: move it into dhumbal_site.{'|'.join(PARTS)}"
             for name in sorted(graph) if level(name) is None]
    for name, targets in sorted(graph.items()):
        here = level(name)
        for target in sorted(targets):
            there = level(target)
            if here is not None and there is not None and there > here:
                found.append(f"{name} imports {target}, a later part ({PARTS[there - 1]})")
    return found


def test_the_site_glue_imports_one_way_from_the_base_to_the_plugin() -> None:
    graph = glue_graph()
    assert len(graph) > 40 and f"{PACKAGE}.plugin.plugin" in graph
    assert not circles(graph), circles(graph)
    problems = order_problems(graph)
    assert not problems, "\n".join(problems)


def test_the_order_check_can_fail() -> None:
    graph = glue_graph()
    upward = {**graph, f"{PACKAGE}.translation.catalogs": graph[f"{PACKAGE}.translation.catalogs"] | {
        f"{PACKAGE}.content.render"}}
    assert (f"{PACKAGE}.translation.catalogs imports {PACKAGE}.content.render, a later part (content)"
            in order_problems(upward))
    stray = {**graph, f"{PACKAGE}.frontend": set()}
    assert order_problems(stray) == [
        f"{PACKAGE}.frontend belongs to no part of the site glue: move it into dhumbal_site.translation|content|runtime|plugin"]


def test_architecture_names_the_parts_in_their_order() -> None:
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("### The site glue, package by package", 1)[1].split("\n## ", 1)[0]
    places = [section.index(f"(sitegen/dhumbal_site/{part}/__init__.py)") for part in PARTS]
    assert places == sorted(places)
