"""The page side's bundles: the TypeScript and CSS in ``browser/``, built by esbuild.

Every page kind gets what it needs and nothing more (ARCHITECTURE.md, "The
page side"): the build writes into ``assets/dhumbal/``

    head.js          classic script in <head>: Material's inline scripts, Back and Forward
    site.js          every page, before intent (a module; chunk-*.js are shared code)
    site.css         every page: the site's look, cards, content, the table before Play
    table.js, .css   the table, loaded on the reader's intent (Play, a press, focus...)
    runtime.js       the engine's runtime client (the worker's page side), loaded with it
    worker.js        the engine's Web Worker
    puzzles.js, .css the Puzzles page and the home page's daily puzzle
    scorepad.js, .css  the score pad
    examples/<id>.json each worked example's positions, for its "Play from here"

Scripts are ES modules, minified, one file each (no chunks: a page before
intent fetches site.js alone). What several of them share with state of its
own lives in one of them and the others import it by its file name, left to
the browser (``./site.js``, ``./runtime.js``, ``./table.js``...: esbuild keeps
those imports external), so each is one module instance; the tests replace
``runtime.js`` with a stand-in. Stateless helpers (browser/lib/) are copied
into each bundle that uses them. Before esbuild
runs, the page-worker messages are written as TypeScript from the engine's
definitions (tsprotocol.py).

The bundles are built once per build (``on_config``, not again for the other
languages' nested builds) into ``build/frontend/`` and handed to MkDocs as
the site's files (``on_files``), so ``mkdocs serve`` serves them and the
service worker keeps them with the shell. ``make serve`` watches ``browser/``
(serve.py). They are built output: never committed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from . import tsprotocol

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

SOURCE = "browser"
#: Where the bundles are served, from the site root.
DEST = "assets/dhumbal"
ESBUILD = Path("node_modules/.bin/esbuild")
#: The ES module bundles (browser/entries/<name>.ts).
MODULES = ("site", "table", "runtime", "puzzles", "scorepad")
#: The engine's Web Worker: one file, no chunks (a worker shares no module with the page).
WORKER = "browser/worker/worker.ts"
#: The classic script of <head> (it must run before Material's bundle).
HEAD = "browser/entries/head.ts"
#: One style sheet per page kind (browser/styles/<name>.css), and the table's, on intent.
STYLES = ("site", "table", "puzzles", "scorepad")
TARGET = "es2022,chrome100,firefox100,safari15.4"


def esbuild(repo_root: Path) -> Path:
    tool = repo_root / ESBUILD
    if not tool.is_file():
        raise PluginError(f"dhumbal: esbuild is missing ({ESBUILD}): run make setup to install the npm packages")
    return tool


def _run(args: list[str], repo_root: Path) -> None:
    done = subprocess.run(args, cwd=repo_root, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise PluginError("dhumbal: the page code does not build (esbuild):\n" + (done.stderr or done.stdout).strip())


def build(repo_root: Path, out: Path) -> list[Path]:
    """Build every bundle into ``out`` (emptied first); the files written, from ``out``."""
    tool = str(esbuild(repo_root))
    tsprotocol.write(repo_root)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    common = ["--bundle", "--minify", f"--target={TARGET}", "--charset=utf8", "--legal-comments=none", "--log-level=warning"]
    external = [f"--external:./{name}.js" for name in MODULES]
    _run([tool, *(f"{SOURCE}/entries/{name}.ts" for name in MODULES), *common, "--format=esm",
          f"--outdir={out}", "--entry-names=[name]", *external], repo_root)
    _run([tool, WORKER, *common, "--format=esm", f"--outfile={out / 'worker.js'}"], repo_root)
    _run([tool, HEAD, *common, "--format=iife", f"--outfile={out / 'head.js'}"], repo_root)
    _run([tool, *(f"{SOURCE}/styles/{name}.css" for name in STYLES), *common, f"--outdir={out}",
          "--entry-names=[name]", "--external:*.woff2"], repo_root)
    return sorted(path.relative_to(out) for path in out.rglob("*") if path.is_file())


def write_examples(out: Path) -> list[Path]:
    """Each worked example's positions for "Play from here" (walkthrough.play_states), as
    ``examples/<id>.json``: fetched when the reader presses it, so no page carries them."""
    from ..content.walkthrough import CACHE, play_states

    folder = out / "examples"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for example_id in CACHE.all_ids():
        path = folder / f"{example_id}.json"
        text = json.dumps({"states": play_states(CACHE.get(example_id))}, ensure_ascii=False, separators=(",", ":"))
        path.write_text(text, encoding="utf-8")
        written.append(path.relative_to(out))
    return written


class Frontend:
    """Builds the bundles once per build and adds them to every language's files."""

    def __init__(self, repo_root: Path) -> None:
        self.repo_root = repo_root
        self.out = repo_root / "build" / "frontend"
        self.written: list[Path] = []

    def on_config(self, config: MkDocsConfig, nested: bool) -> None:
        if not nested or not self.written:
            self.written = build(self.repo_root, self.out) + write_examples(self.out)

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        for rel in self.written:
            uri = f"{DEST}/{rel.as_posix()}"
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(self.out / rel)))
        return files
