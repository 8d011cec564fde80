"""ARCHITECTURE.md cannot go stale: it names every module, in layers the imports keep.

The engine's stack is read from the document's "The engine" section (``### N.``
layers, each naming its package as ```pkg```, one ``- [`module`](path)`` line a
module) and held to the real import graph (tests/engine/test_engine_imports.py):
every engine module named once, at its own file, inside its layer's package, and
no import reaching a later layer. Every module of the site glue
and every script of the page side is named too, and every relative link of the
project's guides leads to a file that exists.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.engine.test_engine_imports import import_graph

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "ARCHITECTURE.md"
GUIDES = ("README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "DECISIONS.md", "bench/RESEARCH.md")

LAYER = re.compile(r"^### (\d+)\. (?:`(\w+)`)?")
MODULE = re.compile(r"^- \[`([\w.]+)`\]\(([^)]+)\)")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)|\ssrc=\"([^\"#]+)\"")


def _engine_graph() -> dict[str, set[str]]:
    return import_graph(ROOT / "engine", "dhumbal")


def stack(text: str) -> tuple[dict[str, int], dict[str, str], dict[str, str]]:
    """The engine section's layers: each module's layer number, its link, and
    the package its layer names (none for the command line's top layer)."""
    section = text.split("\n## The engine", 1)[1].split("\n## ", 1)[0]
    layers: dict[str, int] = {}
    links: dict[str, str] = {}
    packages: dict[str, str] = {}
    layer, package = 0, ""
    for line in section.splitlines():
        if m := LAYER.match(line):
            assert int(m.group(1)) == layer + 1, f"layers out of order at: {line}"
            layer, package = layer + 1, m.group(2) or ""
        elif m := MODULE.match(line):
            name = "dhumbal" if m.group(1) == "dhumbal" else f"dhumbal.{m.group(1)}"
            assert layer, f"a module before the first layer: {line}"
            assert name not in layers, f"{name} named twice"
            layers[name], links[name] = layer, m.group(2)
            if package:
                packages[name] = package
    return layers, links, packages


def stack_problems(text: str, graph: dict[str, set[str]]) -> list[str]:
    layers, links, packages = stack(text)
    found = [f"not in ARCHITECTURE.md: {name}" for name in sorted(set(graph) - set(layers))]
    for name, package in sorted(packages.items()):
        inside = name == f"dhumbal.{package}" or name.startswith(f"dhumbal.{package}.")
        if name != "dhumbal" and not inside:
            found.append(f"{name} is listed under the {package} layer but lives outside dhumbal.{package}")
    found += [f"named but not a module: {name}" for name in sorted(set(layers) - set(graph))]
    for name, link in sorted(links.items()):
        if name in graph:
            parts = name.split(".")[1:]
            file = "engine/dhumbal/" + ("/".join(parts) if parts else "")
            if link not in (f"{file}.py", f"{file.rstrip('/')}/__init__.py"):
                found.append(f"{name} links to {link}")
    for name, targets in sorted(graph.items()):
        for target in sorted(targets):
            if name in layers and target in layers and layers[target] > layers[name]:
                found.append(f"{name} (layer {layers[name]}) imports {target} (layer {layers[target]})")
    return found


def test_the_stack_names_every_engine_module_in_an_order_the_imports_keep() -> None:
    problems = stack_problems(ARCHITECTURE.read_text(encoding="utf-8"), _engine_graph())
    assert not problems, "ARCHITECTURE.md's engine stack is stale:\n" + "\n".join(problems)


def test_the_stack_check_can_fail() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    graph = _engine_graph()
    # a module dropped, a module moved above one that imports it, a new module
    assert "not in ARCHITECTURE.md: dhumbal.play.groups" in stack_problems(
        re.sub(r"^- \[`play.groups`\].*\n", "", text, flags=re.M), graph)
    moved = text.replace("- [`core.cards`](engine/dhumbal/core/cards.py)", "- [`dhumbal_site_dummy`](x)").replace(
        "### 10. The command line\n", "### 10. The command line\n- [`core.cards`](engine/dhumbal/core/cards.py): moved\n")
    assert "dhumbal.play.deal (layer 2) imports dhumbal.core.cards (layer 10)" in stack_problems(moved, graph)
    # a module listed under a layer whose package it is not in
    astray = text.replace("- [`play.share`]", "- [`play.shared`]").replace(
        "### 1. `core`: the pieces\n", "### 1. `core`: the pieces\n- [`play.share`](engine/dhumbal/play/share.py): astray\n")
    assert "dhumbal.play.share is listed under the core layer but lives outside dhumbal.core" in stack_problems(
        astray, graph)
    assert "not in ARCHITECTURE.md: dhumbal.newthing" in stack_problems(text, {**graph, "dhumbal.newthing": set()})


def test_every_module_of_the_site_glue_and_every_page_script_is_named() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    wanted = sorted(ROOT.glob("sitegen/**/*.py")) + sorted(
        p for p in ROOT.glob("browser/**/*.ts") if not p.name.endswith(".generated.ts"))
    missing = [str(p.relative_to(ROOT)) for p in wanted if f"]({p.relative_to(ROOT).as_posix()})" not in text]
    assert not missing, "not linked from ARCHITECTURE.md:\n" + "\n".join(missing)


def test_every_relative_link_of_the_guides_leads_to_a_file() -> None:
    broken = []
    for guide in GUIDES:
        path = ROOT / guide
        for target in (a or b for a, b in LINK.findall(path.read_text(encoding="utf-8"))):
            if "://" not in target and not target.startswith("mailto:") and not (path.parent / target).exists():
                broken.append(f"{guide}: {target}")
    assert not broken, "links to nothing:\n" + "\n".join(broken)
