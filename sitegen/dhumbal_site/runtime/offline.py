"""The site on the reader's device: the service worker, the offline page, the
web app manifest and icons, and the static hosts' headers.

Run-time halves: ``sitegen/dhumbal_site/runtime/serviceworker.js`` (written to the
site root as ``sw.js``, after the build's facts) and
``browser/page/offline.ts`` (registers it, asks it to keep
the language being read, shows the "updated" notice and drives the offline
page).

What the build writes, after every language is built::

    sw.js                          the service worker: BUILD (below) + serviceworker.js
    <lang>/offline.html            "you are offline", one per language (offline.html template)
    <lang>/manifest.webmanifest    the web app manifest, one per language
    assets/icons/…                 the icons (icons.py)
    _headers                       Netlify's and Cloudflare Pages' response headers

``BUILD`` names every file the service worker keeps, with a revision (a hash
of its bytes, checked before a copy is kept and each time one is used): the
shell that every page needs (the site's scripts, styles, fonts, icons,
manifests and offline pages; every file under ``assets/`` is listed by
itself) and, per language, its pages, its search index, its puzzles and its
worked examples' later diagrams (its sitemap is in the shell); and
the engine's files with their integrity. Its ``id`` is a hash of all of them, of the
engine's cache name and of the service worker's own source, so any change
gives a new ``sw.js``, which the browser installs on the reader's next visit.

Under ``mkdocs serve`` no service worker is written and pages say so (their
``dhumbal:offline`` meta), so a page that finds one from an earlier build
removes it: live reload must show the page just built, not a kept one.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mkdocs.commands.build import get_context
from mkdocs.exceptions import PluginError

from dhumbal.core.i18n import N_, translator

from ..languages import Language, current_language, i18n_plugin, languages_of, with_base
from . import csp, icons

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

#: The service worker's source, and where the site serves it.
SERVICE_WORKER_SOURCE = Path(__file__).with_name("serviceworker.js")
SERVICE_WORKER = "sw.js"
#: The offline page's template (overrides/offline.html), written per language.
OFFLINE_TEMPLATE = "offline.html"
WEB_MANIFEST = "manifest.webmanifest"
HEADERS = "_headers"
#: The site's colour (the header's crimson, browser/styles/base.css).
THEME_COLOR = "#9b1c31"
BACKGROUND_COLOR = "#ffffff"

STRINGS = {
    "offline.title": N_("You are offline"),
    "offline.body": N_("This page is not saved on this device yet, so it cannot open without a connection."),
    "offline.saved": N_("These pages are saved on this device and open without a connection:"),
    "offline.none": N_("No page in this language is saved on this device yet."),
    "offline.table": N_("The card table plays without a connection too, once you have started it here with one."),
    "offline.retry": N_("Try again"),
    "updated.text": N_("This site has been updated. The pages you open from now on show the new version."),
    "updated.reload": N_("Show the new version"),
    "updated.close": N_("Close this notice"),
    # TRANSLATORS: the name under the site's icon on a phone's home screen.
    "app.name": N_("Dhumbal"),
    "app.description": N_("The rules of Dhumbal (Jhyap), the Nepali card game, and a card table to play against bots, also without a connection."),
}


def strings_for(lang: str) -> dict[str, str]:
    t = translator(lang)
    return {key: t.raw(msgid) for key, msgid in STRINGS.items()}


def revision(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


# -- what the service worker keeps -------------------------------------------------------

#: Never kept by the service worker: the engine (kept by the worker itself, in
#: its own cache, when the reader plays) but for its manifest (the list of its
#: files, read on intent: with the shell, so that a table starts offline),
#: source maps, the other builds' lunr languages, and the files for hosts.
_SKIP = re.compile(r"^assets/pyodide/|^assets/engine/(?!manifest\.json$)|\.map$|^assets/javascripts/lunr/|^_headers$|^sw\.js$")
#: Kept only once the reader has played (a page view loads nothing of the engine).
LATER = ("assets/dhumbal/worker.js",)
#: Pages kept with the shell, in every language, whatever the reader has read.
SHELL_PAGES = ("scorepad/",)


def _lunr_files(site: Path, languages: list[Language]) -> list[str]:
    """The lunr scripts Material's search worker loads for the built languages' indexes."""
    wanted = {"assets/javascripts/lunr/min/lunr.stemmer.support.min.js", "assets/javascripts/lunr/min/lunr.multi.min.js"}
    for lang in languages:
        index = site / lang.prefix / "search" / "search_index.json"
        try:
            codes = json.loads(index.read_text(encoding="utf-8"))["config"]["lang"]
        except (OSError, ValueError, KeyError, TypeError):
            codes = []
        wanted.update(f"assets/javascripts/lunr/min/lunr.{code}.min.js" for code in codes if code != "en")
    return sorted(p for p in wanted if (site / p).is_file())


#: A language's puzzles, under its root (see puzzles.py): fetched by its pages, kept with them.
PUZZLE_FILES = "puzzles/p/*.html"
#: A worked example's later diagrams in one language (content/walkthrough.py's LATER_NAME):
#: kept with that language's pages, not with every reader's shell (0.9 MB in four languages,
#: which the shell fetched while the reader's first Play loaded the engine: DECISIONS.md).
_BOARDS = re.compile(r"^assets/dhumbal/examples/[^/]+\.([A-Za-z-]+)\.[0-9a-f]{16}\.json$")


def _pages(site: Path, lang: Language, others: list[Language]) -> dict[str, str]:
    """A language's pages (by URL from the site root, ``rules/dashain/``), search index and puzzles."""
    root = site / lang.prefix
    skip = tuple(o.prefix for o in others if o.prefix and o is not lang)
    out: dict[str, str] = {}
    for page in sorted(root.rglob("index.html")):
        rel = page.relative_to(site).as_posix()
        if lang.default and rel.startswith(skip):
            continue
        out[rel[: -len("index.html")]] = revision(page)
    index = root / "search" / "search_index.json"
    if index.is_file():
        out[lang.prefix + "search/search_index.json"] = revision(index)
    # the language's puzzles, one file each, which its pages fetch (puzzles.py)
    for puzzle in sorted(root.glob(PUZZLE_FILES)):
        out[puzzle.relative_to(site).as_posix()] = revision(puzzle)
    return out


def build_data(site: Path, languages: list[Language], engine_cache: str, pyodide_dir: str,
               engine_files: dict[str, str]) -> dict[str, Any]:
    """``BUILD``: what the service worker keeps and the caches it names; ``engine_files``, the
    engine's files (from the site root) with their integrity (``runtime.file_hashes``)."""
    shell: dict[str, str] = {}
    boards: dict[str, dict[str, str]] = {lang.code: {} for lang in languages}
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if path.is_file() and rel.startswith("assets/") and not _SKIP.search(rel) and rel not in LATER:
            board = _BOARDS.match(rel)
            (boards[board.group(1)] if board and board.group(1) in boards else shell)[rel] = revision(path)
    later = {rel: revision(site / rel) for rel in LATER}
    for rel in _lunr_files(site, languages):
        shell[rel] = revision(site / rel)
    offline: dict[str, str] = {}
    for lang in languages:
        # Every language's sitemap (a few KB): Material's instant navigation reads it.
        if (site / lang.prefix / "sitemap.xml").is_file():
            shell[lang.prefix + "sitemap.xml"] = revision(site / lang.prefix / "sitemap.xml")
        for name in (OFFLINE_TEMPLATE, WEB_MANIFEST):
            rel = lang.prefix + name
            if not (site / rel).is_file():
                raise PluginError(f"dhumbal: {rel} was not written: the offline page and manifest come before sw.js")
            shell[rel] = revision(site / rel)
        offline[lang.code] = lang.prefix + OFFLINE_TEMPLATE
    pages: dict[str, dict[str, Any]] = {
        lang.code: {"root": lang.prefix, "pages": {**_pages(site, lang, languages), **boards[lang.code]}}
        for lang in languages}
    for lang in languages:  # the score pad is for a table away from any connection: in the shell, every language
        for page in SHELL_PAGES:
            if lang.prefix + page in pages[lang.code]["pages"]:
                shell[lang.prefix + page] = pages[lang.code]["pages"][lang.prefix + page]
    data: dict[str, Any] = {
        "engine": engine_cache,
        "engineFiles": dict(sorted(engine_files.items())),
        "pyodide": pyodide_dir,
        "shell": shell,
        "later": later,
        "languages": pages,
        "offline": offline,
        "default": next(lang.code for lang in languages if lang.default),
    }
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode())
    digest.update(SERVICE_WORKER_SOURCE.read_bytes())
    data["id"] = digest.hexdigest()[:16]
    return data


def service_worker(data: dict[str, Any]) -> str:
    header = (
        "// The Dhumbal site's service worker, written by the site build\n"
        "// (sitegen/dhumbal_site/runtime/offline.py, source: sitegen/dhumbal_site/runtime/serviceworker.js).\n"
        f"const BUILD = {json.dumps(data, sort_keys=True, separators=(',', ':'))};\n"
    )
    return header + SERVICE_WORKER_SOURCE.read_text(encoding="utf-8")


# -- the web app manifest ------------------------------------------------------------------


def web_manifest(lang: Language, site_prefix_depth: int) -> dict[str, Any]:
    """A language's web app manifest; its URLs are relative to where it is served
    (``<language root>/manifest.webmanifest``), so they hold under any sub-path."""
    up = "../" * site_prefix_depth
    s = strings_for(lang.code)
    icon = up + icons.DEST + "/"
    return {
        "id": "./",
        "name": s["app.name"],
        "short_name": s["app.name"],
        "description": s["app.description"],
        "lang": lang.code,
        "dir": "ltr",
        "start_url": "./",
        "scope": up or "./",
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "icons": [
            {"src": icon + name, "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for name, size, purpose in icons.MANIFEST_ICONS
        ] + [{"src": icon + icons.SVG, "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    }


# -- headers for static hosts -------------------------------------------------------------


def headers_file(manifest: dict[str, Any]) -> str:
    """``_headers`` (Netlify, Cloudflare Pages): the Content-Security-Policy on
    every file, long-lived caching for the files named by their contents, and
    none for the few that must be asked for again (the service worker, the
    engine's manifest)."""
    pyodide = f"/assets/pyodide/{manifest['pyodide']}/*"
    engine = "/assets/engine/" + manifest["wheel"].split("/")[0] + "/*"
    forever = "  Cache-Control: public, max-age=31536000, immutable\n"
    again = "  Cache-Control: no-cache\n"
    return (
        "# Response headers for Netlify and Cloudflare Pages, written by the site build\n"
        "# (sitegen/dhumbal_site/runtime/offline.py; the policy is sitegen/dhumbal_site/runtime/csp.py).\n"
        "/*\n"
        f"  Content-Security-Policy: {csp.HEADER_POLICY}\n"
        "  X-Content-Type-Options: nosniff\n"
        f"{pyodide}\n{forever}"
        f"{engine}\n{forever}"
        f"/{SERVICE_WORKER}\n{again}"
        f"/assets/engine/manifest.json\n{again}"
    )


# -- hooks -------------------------------------------------------------------------------


class OfflineSite:
    """What the plugin (plugin/plugin.py) calls, for every language pass and at the end of the build."""

    def __init__(self, repo_root: Path) -> None:
        self.repo_root = repo_root
        self.serving = False
        self.pages: dict[str, str] = {}

    def on_startup(self, command: str) -> None:
        self.serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> None:
        if not i18n_plugin(config).building:
            self.pages = {}
        lang = current_language(config)
        prefix = next(language.prefix for language in languages_of(config) if language.code == lang)
        config.theme.static_templates.add(OFFLINE_TEMPLATE)
        s = strings_for(lang)
        # The pages' <meta name="dhumbal:offline"> and <link rel="manifest"> (overrides/main.html).
        config.extra["dhumbal_offline"] = json.dumps({
            "sw": None if self.serving else SERVICE_WORKER,
            "updated": s["updated.text"], "reload": s["updated.reload"], "close": s["updated.close"],
        }, ensure_ascii=False, separators=(",", ":"))
        config.extra["dhumbal_manifest"] = prefix + WEB_MANIFEST
        config.extra["dhumbal_theme_color"] = THEME_COLOR
        config.extra["dhumbal_touch_icon"] = f"{icons.DEST}/{icons.TOUCH}"

    def on_template_context(self, context: dict[str, Any], template_name: str, config: MkDocsConfig) -> dict[str, Any]:
        if template_name != OFFLINE_TEMPLATE:
            return context
        # Served at any address (the page the reader asked for), so its links
        # are absolute, as the 404 page's are.
        base = urlsplit(config.site_url or "/").path or "/"
        fresh = get_context(context["nav"], context["pages"], config, base_url=base.rstrip("/") or "/")
        context.update({k: fresh[k] for k in ("base_url", "extra_css", "extra_javascript")})
        context["dhumbal_offline"] = strings_for(current_language(config))
        return context

    def on_post_template(self, output: str, template_name: str, config: MkDocsConfig) -> str:
        if template_name == OFFLINE_TEMPLATE:
            lang = current_language(config)
            root = next(a["link"] for a in config.extra["alternate"] if a["lang"] == lang)
            output = with_base(output, root, OFFLINE_TEMPLATE)
            self.pages[lang] = output
        return output

    def on_post_build(self, config: MkDocsConfig, manifest: dict[str, Any]) -> None:
        """Once every language is built (the outer build's end): write it all."""
        site = Path(config.site_dir)
        languages = languages_of(config)
        icons.write_icons(site, self.repo_root)
        for lang in languages:
            page = self.pages.get(lang.code)
            if page is None:
                raise PluginError(f"dhumbal: the offline page for '{lang.code}' was not built")
            (site / lang.prefix / OFFLINE_TEMPLATE).write_text(page, encoding="utf-8")
            depth = lang.prefix.count("/")
            text = json.dumps(web_manifest(lang, depth), ensure_ascii=False, indent=2) + "\n"
            (site / lang.prefix / WEB_MANIFEST).write_text(text, encoding="utf-8")
        (site / HEADERS).write_text(headers_file(manifest), encoding="utf-8")
        worker = site / SERVICE_WORKER
        if self.serving:
            worker.unlink(missing_ok=True)
            return
        from .assets import runtime_config

        runtime = runtime_config(manifest)
        data = build_data(site, languages, manifest["cache"], runtime["pyodideDir"], runtime["integrity"])
        worker.write_text(service_worker(data), encoding="utf-8")
