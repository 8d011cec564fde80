"""Fixtures of the site tests: the real site built once per test process,
small sites built from temporary docs trees, a local web server and a
headless Chromium that may talk to nothing but that server.

The real site is built with ``mkdocs build --strict`` in a subprocess, as
``make build`` does, with ``DHUMBAL_SITE_URL`` set to the address of the test
server (instant navigation needs the sitemap URLs to match it). Temporary
trees are built in this process so that tests can register marker handlers
and replace ``dhumbal.i18n.card_name`` with ``monkeypatch``.

Tests that share the real site are marked ``xdist_group("real-site")`` and
the in-process tree builds ``xdist_group("site-tree")``: under ``--dist
loadgroup`` (pyproject's addopts; tests/conftest.py makes it work with
pytest 9.2) each group runs in one worker, so the real site is built, served
and browsed once. Every test is also correct when a group is split across
workers (each worker then builds and serves its own copy).

The site's own strings and the cards' names come from the compiled
catalogs, which a fresh checkout lacks until a build compiles them, and the
engine keeps the first catalog it reads for a language for the rest of the
process: ``compiled_catalogs`` compiles them before any site test runs.
"""

from __future__ import annotations

import functools
import http.server
import logging
import os
import shutil
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sitecheck import fake_card_name

ROOT = Path(__file__).resolve().parents[2]
SITEGEN = ROOT / "sitegen"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

if str(SITEGEN) not in sys.path:
    sys.path.insert(0, str(SITEGEN))


# -- local web server -----------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@dataclass
class Server:
    """A static file server on 127.0.0.1 in a thread."""

    directory: Path
    httpd: http.server.ThreadingHTTPServer
    thread: threading.Thread

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return self.origin + "/"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def start_server(directory: Path) -> Server:
    handler = functools.partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, name="site-server", daemon=True)
    thread.start()
    return Server(directory, httpd, thread)


# -- the real site --------------------------------------------------------------


@dataclass
class BuiltSite:
    """The result of building the real site."""

    directory: Path
    server: Server
    returncode: int
    log: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def require(self) -> None:
        """Fail the calling test (not error) if the build failed."""
        if not self.ok:
            pytest.fail(
                "the site did not build with mkdocs build --strict:\n" + self.log[-6000:],
                pytrace=False,
            )


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs() -> None:
    """Compile the catalogs once, and drop what the engine read before (none, or stale)."""
    from dhumbal import i18n
    from dhumbal_site.runtime import compile_catalogs

    compile_catalogs(ROOT)
    i18n.translations.cache_clear()
    i18n.translator.cache_clear()


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    """The real site (docs/, mkdocs.yml), built once per test process, and served."""
    directory = tmp_path_factory.mktemp("real-site")
    server = start_server(directory)
    env = dict(os.environ, DHUMBAL_SITE_URL=server.url, NO_MKDOCS_2_WARNING="1")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(directory)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    try:
        yield BuiltSite(directory, server, result.returncode, result.stdout + result.stderr)
    finally:
        server.stop()


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
    ) -> TreeSite:
        """``pages`` maps docs paths (``en/index.md``) to Markdown."""
        import yaml
        from mkdocs.commands.build import build
        from mkdocs.config import load_config

        self.count += 1
        root = self.tmp_path / f"tree{self.count}"
        docs = root / "docs"
        shutil.copytree(ROOT / "docs" / "assets", docs / "assets")
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
            "hooks": [str(SITEGEN / "hooks.py")],
            "nav": nav,
        }
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


@pytest.fixture
def tree(tmp_path: Path) -> TreeBuilder:
    return TreeBuilder(tmp_path)


@pytest.fixture(scope="module")
def module_tree(tmp_path_factory: pytest.TempPathFactory) -> TreeBuilder:
    """A builder for sites that several tests of a module look at."""
    return TreeBuilder(tmp_path_factory.mktemp("tree"))


@pytest.fixture
def card_names(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, str], str]:
    """Card names from a stand-in for dhumbal.i18n.card_name, in the site glue only."""
    from dhumbal_site import build

    monkeypatch.setattr(build, "engine_card_name", lambda: fake_card_name)
    return fake_card_name


@pytest.fixture
def handlers(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, Callable[..., str]], None]:
    """Register marker handlers for one test."""
    from dhumbal_site import registry

    def register(name: str, handler: Callable[..., str]) -> None:
        monkeypatch.setitem(registry.HANDLERS, name, handler)

    return register


# -- browser ----------------------------------------------------------------------


@dataclass
class Requests:
    """What went wrong in a browser page: requests to other hosts (refused),
    failed responses of the test server, script errors."""

    allowed_origin: str
    refused: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture(scope="session")
def browser(site: BuiltSite) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page_factory(browser: Any, site: BuiltSite) -> Iterator[Callable[..., tuple[Any, Requests]]]:
    """New browser pages that may only reach the test server.

    Every request to another host is aborted and recorded; the test fails if
    there was any, or if a request to the server failed, or a script threw.
    """
    contexts: list[Any] = []
    records: list[Requests] = []

    def make(**options: Any) -> tuple[Any, Requests]:
        context = browser.new_context(**options)
        requests = Requests(site.server.origin)

        def route(route: Any) -> None:
            url = route.request.url
            if url.startswith(site.server.origin + "/") or url == site.server.origin:
                route.continue_()
            else:
                requests.refused.append(url)
                route.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.on(
            "response",
            lambda response: requests.failed.append(f"{response.status} {response.url}")
            if response.status >= 400
            else None,
        )
        page.on("pageerror", lambda error: requests.errors.append(str(error)))
        contexts.append(context)
        records.append(requests)
        return page, requests

    yield make
    for context in contexts:
        context.close()
    refused = sorted({url for record in records for url in record.refused})
    failed = sorted({url for record in records for url in record.failed})
    errors = [error for record in records for error in record.errors]
    assert not refused, f"the browser tried to reach other hosts: {refused}"
    assert not failed, f"requests to the site failed: {failed}"
    assert not errors, f"scripts failed: {errors}"
