"""The ``dhumbal`` MkDocs plugin: every build event handed to the part that does it.

Thin glue, as Material's own plugins are: an entry point
(``sitegen/pyproject.toml``), a typed configuration (config.py), and one
method per event that calls the parts and decides nothing itself:

* :class:`~dhumbal_site.plugin.build.SiteBuild`, the pages, made afresh for
  every build and reused by its nested language passes;
* :class:`~dhumbal_site.runtime.assets.RuntimeAssets`, the engine and Pyodide;
* :class:`~dhumbal_site.content.table.PageTables`, each page's mini table;
* :class:`~dhumbal_site.runtime.offline.OfflineSite`, the device's copy;
* :class:`~dhumbal_site.runtime.frontend.Frontend`, the page code and styles (esbuild);
* :class:`~dhumbal_site.plugin.serve.Serving`, ``mkdocs serve`` only.

mkdocs-static-i18n builds English, then each other language from English's
``on_post_build``, with this same plugin object. Priorities place the events
around the i18n plugin's (-100 or 50): the configuration and files are
adjusted after it has chosen the language, markers are expanded before it
translates admonition titles, and the per-language search indexes, sitemaps
and the service worker are written after it has built every language. Having
``on_startup``, the object lives for a whole ``mkdocs serve``, across rebuilds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority

from .. import ROOT
from ..content.puzzles import PUZZLE_SET
from ..content.table import PageTables
from ..content.walkthrough import CACHE as EXAMPLES
from ..languages import i18n_plugin
from ..runtime.assets import RuntimeAssets
from ..runtime.frontend import Frontend
from ..runtime.offline import OfflineSite
from .build import SiteBuild
from .config import DhumbalConfig
from .serve import Serving

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page
    from mkdocs.utils.templates import TemplateContext


def _data(context: TemplateContext) -> dict[str, Any]:
    """A template's context as the parts fill it: keys of their own beside MkDocs' (``dhumbal``…)."""
    return cast("dict[str, Any]", context)


def _context(data: dict[str, Any]) -> TemplateContext:
    return cast("TemplateContext", data)


class DhumbalPlugin(BasePlugin[DhumbalConfig]):  # type: ignore[no-untyped-call]  # MkDocs' Config.__init_subclass__ is untyped
    """The site's build glue (``plugins: - dhumbal`` in ``mkdocs.yml``, listed last)."""

    def __init__(self) -> None:
        self.build: SiteBuild | None = None
        self.runtime = RuntimeAssets(repo_root=ROOT)
        self.tables = PageTables(repo_root=ROOT)
        self.offline = OfflineSite(repo_root=ROOT)
        self.frontend = Frontend(repo_root=ROOT)
        self.serving = Serving(repo_root=ROOT)

    def current(self) -> SiteBuild:
        if self.build is None:
            raise PluginError("dhumbal: a page event before on_config")
        return self.build

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.offline.on_startup(command)
        self.serving.on_startup(command)

    def on_serve(self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        return self.serving.on_serve(server, config)  # type: ignore[no-any-return]

    @event_priority(-110)
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        outer = not i18n_plugin(config).building
        if outer:
            self.serving.on_build()
        # The catalogs first: the engine keeps the first catalog it reads for a
        # language (none, on a fresh checkout) for the rest of the process.
        self.runtime.on_config(config)
        if outer:
            # Every worked example and puzzle run and checked before any page is
            # written: a file the engine contradicts stops the build with nothing
            # half-built, and `mkdocs serve` reads edited files again on every rebuild.
            EXAMPLES.validate_all()
            PUZZLE_SET.validate_all()
        if outer or self.build is None:
            self.build = SiteBuild(config, ROOT, self.config)
        config = self.build.on_config(config)
        self.offline.on_config(config)
        self.frontend.on_config(config, RuntimeAssets.nested(config))
        return config

    @event_priority(-110)
    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        return self.frontend.on_files(self.current().on_files(files, config), config)

    @event_priority(60)
    def on_page_markdown(self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        return self.current().on_page_markdown(markdown, page, config, files)

    def on_page_content(self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        return self.current().on_page_content(html, page, config, files)

    # After the search plugin (priority 0) has indexed the page: the page's
    # generated blocks replace their search text here (see build.py).
    @event_priority(-50)
    def on_page_context(self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig,
                        nav: Navigation) -> TemplateContext:
        data = self.current().on_page_context(_data(context), page, config, nav)
        self.tables.download_bytes = self.runtime.download_bytes()
        return _context(self.tables.on_page_context(data, page, config))

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        output = self.current().on_post_page(output, page, config)
        return self.tables.on_post_page(output, page, config)

    def on_template_context(self, context: TemplateContext, /, *, template_name: str,
                            config: MkDocsConfig) -> TemplateContext:
        data = self.current().on_template_context(_data(context), template_name, config)
        return _context(self.offline.on_template_context(data, template_name, config))

    def on_post_template(self, output_content: str, /, *, template_name: str, config: MkDocsConfig) -> str:
        output_content = self.current().on_post_template(output_content, template_name, config)
        return self.offline.on_post_template(output_content, template_name, config)

    @event_priority(-200)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if i18n_plugin(config).building:
            return  # a nested language build: the outer build finishes
        self.current().finish(config)
        self.runtime.on_post_build(config)
        self.serving.on_post_build(config)
        # Last: the service worker lists every file the build wrote.
        if self.runtime.manifest is not None:
            self.offline.on_post_build(config, self.runtime.manifest)
