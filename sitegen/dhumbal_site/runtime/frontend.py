"""The page side's bundles: the TypeScript and CSS in ``browser/``, built by esbuild.

Every page kind gets what it needs and nothing more (ARCHITECTURE.md, "The
page side"): the build writes into ``assets/dhumbal/``

    head.js          classic script in <head>: Material's inline scripts, Back and Forward
    site.js          every page, before intent (a module; chunk-*.js are shared code)
    site.css         every page: the site's look, cards, content, the table before Play, and
                     of Material's palette.css what this site's palette uses (see below)
    table.js, .css   the table, loaded on the reader's intent (Play, a press, focus...)
    runtime.js       the engine's runtime client (the worker's page side), loaded with it
    worker.js        the engine's Web Worker
    puzzles.js, .css the Puzzles page and the home page's daily puzzle
    scorepad.js, .css  the score pad
    boards.js        a worked example's later diagrams, fetched on intent or "Next"
    examples/<id>.json each worked example's positions, for its "Play from here"
    examples/<id>.<lang>.<hash>.json  its steps' diagrams after the first, fetched on "Next"

Scripts are ES modules, minified, one file each (no chunks: a page before
intent fetches site.js alone). What several of them share with state of its
own lives in one of them and the others import it by its file name, left to
the browser (``./site.js``, ``./runtime.js``, ``./table.js``...: esbuild keeps
those imports external), so each is one module instance; the tests replace
``runtime.js`` with a stand-in. Stateless helpers (browser/lib/) are copied
into each bundle that uses them. Before esbuild
runs, the page-worker messages are written as TypeScript from the engine's
definitions (tsprotocol.py).

Of Material's ``palette.css`` (every named colour, 2.2 KB gzipped) only what the
site's own palette uses leads site.css (:func:`palette_rules`, its place in the
cascade); the pages link no palette.css (overrides/main.html).

The bundles are built once per build (``on_config``, not again for the other
languages' nested builds) into ``build/frontend/<hash of their sources>/``
(made in a folder of its own and renamed into place, so builds at once never
meet; a folder already there is reused) and handed to MkDocs as the site's
files (``on_files``), so ``mkdocs serve`` serves them and the service worker
keeps them with the shell. ``make serve`` watches ``browser/``
(serve.py). They are built output: never committed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from ..languages import languages_of
from . import tsprotocol

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

SOURCE = "browser"
#: Where the bundles are served, from the site root.
DEST = "assets/dhumbal"
ESBUILD = Path("node_modules/.bin/esbuild")
#: The ES module bundles (browser/entries/<name>.ts).
MODULES = ("site", "table", "runtime", "puzzles", "scorepad", "boards")
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


def _run_into(repo_root: Path, out: Path) -> None:
    tool = str(esbuild(repo_root))
    common = ["--bundle", "--minify", f"--target={TARGET}", "--charset=utf8", "--legal-comments=none", "--log-level=warning"]
    external = [f"--external:./{name}.js" for name in MODULES]
    _run([tool, *(f"{SOURCE}/entries/{name}.ts" for name in MODULES), *common, "--format=esm",
          f"--outdir={out}", "--entry-names=[name]", *external], repo_root)
    _run([tool, WORKER, *common, "--format=esm", f"--outfile={out / 'worker.js'}"], repo_root)
    _run([tool, HEAD, *common, "--format=iife", f"--outfile={out / 'head.js'}"], repo_root)
    _run([tool, *(f"{SOURCE}/styles/{name}.css" for name in STYLES), *common, f"--outdir={out}",
          "--entry-names=[name]", "--external:*.woff2"], repo_root)
    _with_palette(out)


def material_palette() -> Path:
    """Material's palette.css (named by its hash) in the installed theme."""
    spec = importlib.util.find_spec("material")
    theme = Path(spec.origin).parent if spec and spec.origin else Path("material")
    found = sorted((theme / "templates" / "assets" / "stylesheets").glob("palette.*.min.css"))
    if len(found) != 1:
        raise PluginError(f"dhumbal: Material's palette.css was not found once in the installed theme: {found}")
    return found[0]


def _blocks(text: str) -> list[tuple[str, str]]:
    """The top-level rules of minified CSS, each as (prelude, body)."""
    out: list[tuple[str, str]] = []
    at = 0
    while (brace := text.find("{", at)) >= 0:
        depth, end = 1, brace + 1
        while depth:
            if end >= len(text):
                raise PluginError("dhumbal: Material's palette.css has an unclosed block")
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        out.append((text[at:brace].strip(), text[brace + 1:end - 1]))
        at = end
    return out


def palette_rules(css: str) -> str:
    """The rules of Material's palette.css that can apply to this site: every rule but those
    for a named primary or accent colour other than ``custom`` (at-rules kept around what
    stays in them, empty ones dropped)."""
    out = []
    for prelude, body in _blocks(css):
        if prelude.startswith("@"):
            inner = palette_rules(body) if "{" in body else body
            if inner:
                out.append(f"{prelude}{{{inner}}}")
            continue
        colours = re.findall(r"data-md-color-(?:primary|accent)=([\w-]+)", prelude)
        if not colours or "custom" in colours:
            out.append(f"{prelude}{{{body}}}")
    return "".join(out)


def _with_palette(out: Path) -> None:
    site = out / "site.css"
    site.write_text(palette_rules(material_palette().read_text(encoding="utf-8")) + site.read_text(encoding="utf-8"),
                    encoding="utf-8")


def sources_hash(repo_root: Path) -> str:
    """What the bundles are made of: every file under browser/ (the generated types
    included), the esbuild version, Material's palette.css and this module."""
    digest = hashlib.sha256()
    files = sorted(p for p in (repo_root / SOURCE).rglob("*") if p.is_file())
    for path in [*files, repo_root / "node_modules" / "esbuild" / "package.json", material_palette(), Path(__file__)]:
        digest.update(path.as_posix().encode())
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()[:16]


def _atomic(folder: Path, fill: Callable[[Path], None]) -> None:
    """``folder`` made by ``fill`` in a folder of its own first, then renamed into place:
    builds running at once (the tests' small sites) never see it half made."""
    if folder.is_dir():
        return
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    try:
        fill(work)
        try:
            work.rename(folder)
        except OSError:
            if not folder.is_dir():  # (another build put the same files there first)
                raise
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


def build(repo_root: Path, out: Path) -> dict[str, Path]:
    """The bundles, in ``out/<hash of their sources>/`` (built unless there already): each
    file by its name in the site's folder for them (``head.js``)."""
    tsprotocol.write(repo_root)
    folder = out / sources_hash(repo_root)
    _atomic(folder, lambda work: _run_into(repo_root, work))
    return {path.relative_to(folder).as_posix(): path for path in sorted(folder.rglob("*")) if path.is_file()}


def write_examples(out: Path, langs: list[str]) -> Path:
    """Each worked example's positions for "Play from here" (walkthrough.play_states), as
    ``<id>.json``, and in each language of ``langs`` the diagrams of its steps after the
    first (walkthrough.later_boards), in ``out/examples-<hash of them>/`` (returned):
    fetched when the reader presses "Play from here" or moves on, so no page carries them."""
    from ..content.walkthrough import CACHE, play_states

    texts = {f"{example_id}.json": json.dumps({"states": play_states(CACHE.get(example_id))}, ensure_ascii=False,
                                              separators=(",", ":"))
             for example_id in CACHE.all_ids()}
    texts.update(CACHE.later_boards(example_id, lang) for example_id in CACHE.all_ids() for lang in langs)
    folder = out / ("examples-" + hashlib.sha256(json.dumps(texts, sort_keys=True).encode()).hexdigest()[:16])

    def fill(work: Path) -> None:
        for name, text in texts.items():
            (work / name).write_text(text, encoding="utf-8")

    _atomic(folder, fill)
    return folder


class Frontend:
    """Builds the bundles once per build and adds them to every language's files."""

    def __init__(self, repo_root: Path) -> None:
        self.repo_root = repo_root
        self.out = repo_root / "build" / "frontend"
        #: The site's files (from the site root) and where each is built.
        self.files: dict[str, Path] = {}

    def on_config(self, config: MkDocsConfig, nested: bool) -> None:
        # The sheet whose link overrides/main.html takes out of Material's (see the docstring).
        config.extra["dhumbal_palette_css"] = "assets/stylesheets/" + material_palette().name
        if nested and self.files:
            return
        self.files = {f"{DEST}/{name}": path for name, path in build(self.repo_root, self.out).items()}
        examples = write_examples(self.out, [lang.code for lang in languages_of(config)])
        self.files.update({f"{DEST}/examples/{path.name}": path for path in sorted(examples.glob("*.json"))})

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        for uri, path in self.files.items():
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(path)))
        return files
