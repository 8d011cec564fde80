"""Fixtures of the site tests: the real site, small sites built from
temporary docs trees, and a headless Chromium that may talk to nothing but
the test server.

The real site is the one every suite shares (``shared_site`` in
tests/conftest.py: built once per run with ``mkdocs build --strict`` in a
subprocess, ``DHUMBAL_SITE_URL`` set to its server's address, see
tests/sitekit.py). Temporary trees are built in this process so that tests
can register marker handlers and replace ``dhumbal.core.i18n.card_name`` with
``monkeypatch``.

The site's own strings and the cards' names come from the compiled
catalogs, which a fresh checkout lacks until a build compiles them, and the
engine keeps the first catalog it reads for a language for the rest of the
process: ``compiled_catalogs`` compiles them before any site test runs.
"""

from __future__ import annotations

import logging
import textwrap
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.browserkit import Chromium, PageWatch, WarmContexts, warm_opener, warm_pool
from tests.site.sitecheck import fake_card_name
from tests.sitekit import ROOT, TEST_REPOSITORY, BuiltSite

# -- the real site --------------------------------------------------------------


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs() -> None:
    """Compile the catalogs once, and drop what the engine read before (none, or stale)."""
    from dhumbal.core import i18n
    from dhumbal_site.runtime.assets import compile_catalogs

    compile_catalogs(ROOT)
    i18n.translations.cache_clear()
    i18n.translator.cache_clear()


@pytest.fixture(scope="session")
def real_site(shared_site: BuiltSite) -> BuiltSite:
    """The real site (docs/, mkdocs.yml), built once per run, and served."""
    return shared_site


@pytest.fixture(scope="session")
def site(real_site: BuiltSite) -> BuiltSite:
    """The real site, which must have built."""
    real_site.require()
    return real_site


# -- temporary docs trees -------------------------------------------------------


@dataclass
class TreeSite:
    """A site built from a temporary docs tree with the real hooks and theme."""

    root: Path
    directory: Path

    def html(self, path: str) -> str:
        """The built HTML of a site path such as ``fr/page/``."""
        return (self.directory / path / "index.html").read_text(encoding="utf-8")


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class TreeBuilder:
    """Build small sites from page dictionaries, in this process."""

    tmp_path: Path
    count: int = 0
    records: list[logging.LogRecord] = field(default_factory=list)

    def build(
        self,
        pages: Mapping[str, str],
        *,
        nav: list[Any] | None = None,
        strict: bool = True,
        repo_url: str | None = TEST_REPOSITORY,
        plugin: Mapping[str, Any] | None = None,
    ) -> TreeSite:
        """``pages`` maps docs paths (``en/index.md``) to Markdown; ``repo_url`` None builds
        with no repository address (as a checkout with no remote); ``plugin`` sets the
        dhumbal plugin's options (the others of mkdocs.yml's plugins kept as they are)."""
        import yaml
        from mkdocs.commands.build import build
        from mkdocs.config import load_config

        self.count += 1
        root = self.tmp_path / f"tree{self.count}"
        docs = root / "docs"
        docs.mkdir(parents=True)  # (the page code comes from browser/, built by the hooks)
        for path, text in pages.items():
            target = docs / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        if nav is None:
            english = sorted(p[3:] for p in pages if p.startswith("en/"))
            nav = [p for p in english if p != "index.md"]
            nav.insert(0, {"Home": "index.md"})
        config = {
            "INHERIT": str(ROOT / "mkdocs.yml"),
            "docs_dir": "docs",
            "site_dir": "site",
            "site_url": "http://127.0.0.1:8000/",
            "theme": {"custom_dir": str(ROOT / "overrides")},
            "nav": nav,
        }
        if plugin is not None:
            config["plugins"] = [{"dhumbal": dict(plugin)} if _plugin_name(p) == "dhumbal" else p
                                 for p in _site_plugins()]
        if repo_url is not None:
            # each page's edit and report links (a reserved documentation domain, not a host)
            config["repo_url"] = repo_url
        (root / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
        collector = _Collector()
        logger = logging.getLogger("mkdocs")
        logger.addHandler(collector)
        try:
            build(load_config(str(root / "mkdocs.yml"), strict=strict))
        finally:
            logger.removeHandler(collector)
            self.records.extend(collector.records)
        return TreeSite(root, root / "site")

    def errors(self) -> str:
        """What the builds logged at warning level or above."""
        return "\n".join(r.getMessage() for r in self.records if r.levelno >= logging.WARNING)


def _plugin_name(entry: Any) -> str:
    return entry if isinstance(entry, str) else next(iter(entry))


def _site_plugins() -> list[Any]:
    """mkdocs.yml's plugins as it lists them (a child configuration replaces the whole list)."""
    from mkdocs.utils.yaml import yaml_load

    with (ROOT / "mkdocs.yml").open("rb") as fh:
        plugins: list[Any] = yaml_load(fh)["plugins"]
    return plugins


@pytest.fixture
def tree(tmp_path: Path) -> TreeBuilder:
    return TreeBuilder(tmp_path)


@pytest.fixture(scope="module")
def module_tree(tmp_path_factory: pytest.TempPathFactory) -> TreeBuilder:
    """A builder for sites that several tests of a module look at."""
    return TreeBuilder(tmp_path_factory.mktemp("tree"))


@pytest.fixture
def card_names(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, str], str]:
    """Card names from a stand-in for dhumbal.core.i18n.card_name, in the site glue only."""
    from dhumbal_site.plugin import build

    monkeypatch.setattr(build, "engine_card_name", lambda: fake_card_name)
    return fake_card_name


@pytest.fixture
def handlers(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, Callable[..., str]], None]:
    """Register marker handlers for one test."""
    from dhumbal_site.content import registry

    def register(name: str, handler: Callable[..., str]) -> None:
        monkeypatch.setitem(registry.HANDLERS, name, handler)

    return register


# -- browser ----------------------------------------------------------------------


# What went wrong in a browser page: requests to other hosts (refused),
# failed responses of the test server, script errors.
Requests = PageWatch


@pytest.fixture(scope="session")
def browser(site: BuiltSite, shared_chromium: Chromium) -> Any:
    return shared_chromium.get()


@pytest.fixture(scope="session")
def warm_site(browser: Any, site: BuiltSite) -> Iterator[WarmContexts]:
    yield from warm_pool(browser, site.server.origin)


@pytest.fixture
def page_factory(browser: Any, site: BuiltSite, warm_site: WarmContexts) -> Iterator[Callable[..., tuple[Any, Requests]]]:
    """Browser pages that may only reach the test server: ``page_factory(**options)``
    opens one in a warm context kept for those options (browserkit.warm_opener: its HTTP
    cache kept, the site's local storage and IndexedDB emptied), and
    ``page_factory(fresh=True, **options)`` in a new context, for a test about a first
    visit or one that changes its context or page (a route, an init script).

    Every request to another host fails in the browser and is recorded; the test fails if
    there was any, or if a request to the server failed, or a script threw.
    """
    yield from warm_opener(browser, site.server.origin, warm_site, lambda pages, **options: pages.context(**options))
