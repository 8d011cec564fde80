"""MkDocs hooks of the Dhumbal site (listed under ``hooks:`` in mkdocs.yml).

Only glue: each event goes to :class:`dhumbal_site.plugin.build.SiteHooks`, which
keeps its state on an object made afresh for every build. Priorities place
the events around mkdocs-static-i18n's (which run at -100 or 50): the site's
configuration and files are adjusted after the plugin has chosen the
language, markers are expanded before it translates admonition titles, and
the per-language search indexes and sitemaps are written after it has built
every language.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

from dhumbal_site.content.table import PageTables
from dhumbal_site.plugin.build import SiteHooks
from dhumbal_site.plugin.serve import Serving
from dhumbal_site.runtime.assets import RuntimeAssets
from dhumbal_site.runtime.offline import OfflineSite

_SITEGEN = Path(__file__).resolve().parent

_hooks = SiteHooks(repo_root=_SITEGEN.parent)
# Pyodide and the engine wheel for the browser (see dhumbal_site/runtime/assets.py).
_runtime = RuntimeAssets(repo_root=_SITEGEN.parent)
# Each page's mini table, pre-rendered by the engine (see dhumbal_site/content/table.py).
_tables = PageTables(repo_root=_SITEGEN.parent)
# The service worker, offline pages, web app manifest, icons and _headers (see dhumbal_site/runtime/offline.py).
_offline = OfflineSite(repo_root=_SITEGEN.parent)
# `mkdocs serve` only: live reload under the site's policy, catalogs watched (see dhumbal_site/plugin/serve.py).
_serving = Serving(repo_root=_SITEGEN.parent)


def on_startup(command: str, dirty: bool) -> None:
    _offline.on_startup(command)
    _serving.on_startup(command)


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    return _serving.on_serve(server, config)


@event_priority(-110)
def on_config(config: Any) -> Any:
    # Compile the catalogs before anything reads them: the engine keeps the
    # first catalog it reads for a language (none, on a fresh checkout) for
    # the rest of the process, and the site's strings and the cards' names
    # come from the catalogs.
    _runtime.on_config(config)
    # Run every worked example now, before any page is written: a file the
    # engine contradicts stops the build with nothing half-built, and
    # `mkdocs serve` re-reads edited examples on every rebuild. Once per
    # build: the nested builds of the other languages reuse the runs.
    from dhumbal_site.content.puzzles import PUZZLE_SET
    from dhumbal_site.content.walkthrough import CACHE

    if not RuntimeAssets.nested(config):
        CACHE.validate_all()
        # The puzzles likewise: read, graded (or their grades read back) and checked.
        PUZZLE_SET.validate_all()
    config = _hooks.on_config(config)
    _offline.on_config(config)
    return config


@event_priority(-110)
def on_files(files: Any, config: Any) -> Any:
    return _hooks.current().on_files(files, config)


@event_priority(60)
def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return _hooks.current().on_page_markdown(markdown, page, config, files)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return _hooks.current().on_page_content(html, page, config, files)


# After the search plugin (priority 0) has indexed the page: the page's
# generated blocks replace their search text here (see dhumbal_site/plugin/build.py).
@event_priority(-50)
def on_page_context(context: Any, page: Any, config: Any, nav: Any) -> Any:
    context = _hooks.current().on_page_context(context, page, config, nav)
    _tables.download_bytes = _runtime.download_bytes()
    return _tables.on_page_context(context, page, config)


def on_post_page(output: str, page: Any, config: Any) -> str:
    output = _hooks.current().on_post_page(output, page, config)
    return _tables.on_post_page(output, page, config)


def on_template_context(context: Any, template_name: str, config: Any) -> Any:
    context = _hooks.current().on_template_context(context, template_name, config)
    return _offline.on_template_context(context, template_name, config)


def on_post_template(output_content: str, template_name: str, config: Any) -> str:
    output_content = _hooks.current().on_post_template(output_content, template_name, config)
    return _offline.on_post_template(output_content, template_name, config)


@event_priority(-200)
def on_post_build(config: Any) -> None:
    _hooks.on_post_build(config)
    _runtime.on_post_build(config)
    if not RuntimeAssets.nested(config):
        _serving.on_post_build(config)
    # Last: the service worker lists every file the build wrote.
    if not RuntimeAssets.nested(config) and _runtime.manifest is not None:
        _offline.on_post_build(config, _runtime.manifest)
