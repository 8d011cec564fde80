"""Fixtures of the mini-table tests: a headless Chromium that may reach only
127.0.0.1, a small "stub" site whose runtime forwards requests to this
process's ``dhumbal.web.handle``, and the real built site with the real
runtime (Pyodide in a Web Worker).

The stub site is fast and checks the table script on its own: each page is
the pre-rendered table (``dhumbal.web.prerender``) with the real stylesheet
and script, and a stand-in ``window.DhumbalRuntime`` (``stub-runtime.js``)
whose ``request`` calls ``dhumbal.web.handle`` through Playwright's
``expose_function``.

The real site is built once per test process with ``mkdocs build --strict``
into a temporary directory served on 127.0.0.1 (``DHUMBAL_SITE_URL`` set to
it, for instant navigation). Set ``DHUMBAL_TABLE_SITE`` to the directory of
an already built site to skip the build while working on the tests.

Browser tests are marked ``xdist_group("browser")`` so that with
``pytest -n 2 --dist loadgroup`` they share one worker, one build and one
browser.
"""

from __future__ import annotations

import functools
import html
import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
STUB_PAGES = {
    # language: (profile of the rules page, seed)
    "en": ("nepali-games", 101),
    "fr": ("dashain", 102),
    "nl": ("cardrulesplus", 103),
    "ne": ("nepali-games", 104),
}

if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
    }

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@dataclass
class Server:
    directory: Path
    httpd: http.server.ThreadingHTTPServer
    thread: threading.Thread

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def url(self, path: str = "") -> str:
        return f"{self.origin}/{path.lstrip('/')}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def serve(directory: Path) -> Server:
    handler = functools.partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, name="table-server", daemon=True)
    thread.start()
    return Server(directory, httpd, thread)


# -- the browser ----------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Watch:
    """What a page did that it should not: other hosts, failed requests, script errors."""

    origin: str
    refused: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    requested: list[str] = field(default_factory=list)


def _open(browser: Any, origin: str, contexts: list[Any], watches: list[Watch], **options: Any) -> tuple[Any, Watch]:
    context = browser.new_context(**options)
    watch = Watch(origin)

    def route(r: Any) -> None:
        url = r.request.url
        if url == origin or url.startswith(origin + "/"):
            watch.requested.append(url)
            r.continue_()
        else:
            watch.refused.append(url)
            r.abort()

    context.route("**/*", route)
    contexts.append(context)
    watches.append(watch)
    return context, watch


def _finish(contexts: list[Any], watches: list[Watch]) -> None:
    for context in contexts:
        context.close()
    refused = sorted({u for w in watches for u in w.refused})
    failed = sorted({u for w in watches for u in w.failed})
    errors = [e for w in watches for e in w.errors]
    assert not refused, f"the browser tried to reach other hosts: {refused}"
    assert not failed, f"requests to the site failed: {failed}"
    assert not errors, f"scripts failed: {errors}"


def _page(context: Any, watch: Watch) -> Any:
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("response", lambda r: watch.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("pageerror", lambda e: watch.errors.append(str(e)))
    return page


# -- the stub site ------------------------------------------------------------------

STUB_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/assets/stylesheets/dhumbal-table.css">
</head>
<body>
<main class="md-typeset">
<h1>{title}</h1>
<p>{text}</p>
{extra}
{table}
</main>
<script src="/stub-runtime.js"></script>
<script src="/assets/javascripts/dhumbal-table.js"></script>
</body>
</html>
"""


@pytest.fixture(scope="session")
def stub_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Pages ``/<lang>/`` (a rules page each) and ``/en/example/`` (with a play-from button)."""
    from dhumbal import web
    from dhumbal.examples import load_file
    from dhumbal.profiles import find_profile

    directory = tmp_path_factory.mktemp("stub-site")
    assets = directory / "assets"
    for sub, name in (("stylesheets", "dhumbal-table.css"), ("javascripts", "dhumbal-table.js")):
        (assets / sub).mkdir(parents=True, exist_ok=True)
        (assets / sub / name).write_bytes((ROOT / "docs" / "assets" / sub / name).read_bytes())
    (directory / "stub-runtime.js").write_bytes((HERE / "stub-runtime.js").read_bytes())
    filler = "</p><p>".join(["Rules text. " * 40] * 30)  # the table starts below the fold
    for lang, (profile, seed) in STUB_PAGES.items():
        table = web.prerender(lang=lang, profile=find_profile(profile), seed=seed, attrs={"data-seed": str(seed)})
        page = STUB_PAGE.format(lang=lang, title=f"{profile} ({lang})", text=filler, extra="", table=table)
        (directory / lang).mkdir()
        (directory / lang / "index.html").write_text(page, encoding="utf-8")
    walk = load_file(ROOT / "examples" / "k-pair-discard.toml")
    button = (
        '<p><button type="button" class="dh-play-from" data-example="k-pair-discard" '
        f'data-state-json="{html.escape(json.dumps(walk.start_state, ensure_ascii=False))}" '
        f'data-names="{html.escape(json.dumps(walk.names))}">Play from here</button></p>'
    )
    table = web.prerender(lang="en", profile=find_profile("nepali-games"), seed=7, attrs={"data-seed": "7"})
    page = STUB_PAGE.format(lang="en", title="Examples", text="Examples.", extra=button, table=table)
    (directory / "en" / "example").mkdir()
    (directory / "en" / "example" / "index.html").write_text(page, encoding="utf-8")
    server = serve(directory)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def stub_page(chromium: Any, stub_site: Server) -> Iterator[Callable[..., tuple[Any, Watch]]]:
    """Pages of the stub site whose runtime answers from this process's dhumbal.web."""
    from dhumbal import web

    contexts: list[Any] = []
    watches: list[Watch] = []

    def make(fail: str | None = None, **options: Any) -> tuple[Any, Watch]:
        context, watch = _open(chromium, stub_site.origin, contexts, watches, **options)
        context.expose_function("dhumbalHandle", web.handle)
        if fail:
            context.add_init_script(f"window.__stubFail = {json.dumps(fail)};")
        return _page(context, watch), watch

    yield make
    _finish(contexts, watches)


# -- the real site ------------------------------------------------------------------


@dataclass
class RealSite:
    server: Server
    returncode: int
    log: str

    def require(self) -> None:
        if self.returncode != 0:
            pytest.fail("the site did not build with mkdocs build --strict:\n" + self.log[-6000:], pytrace=False)


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealSite]:
    prebuilt = os.environ.get("DHUMBAL_TABLE_SITE")
    if prebuilt:
        server = serve(Path(prebuilt))
        try:
            yield RealSite(server, 0, "")
        finally:
            server.stop()
        return
    directory = tmp_path_factory.mktemp("table-site")
    server = serve(directory)
    env = dict(os.environ, DHUMBAL_SITE_URL=server.origin + "/", NO_MKDOCS_2_WARNING="1")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(directory)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    try:
        yield RealSite(server, result.returncode, result.stdout + result.stderr)
    finally:
        server.stop()


@pytest.fixture
def site_page(chromium: Any, real_site: RealSite) -> Iterator[Callable[..., tuple[Any, Watch]]]:
    """Pages of the real built site, with the real runtime."""
    real_site.require()
    contexts: list[Any] = []
    watches: list[Watch] = []

    def make(**options: Any) -> tuple[Any, Watch]:
        context, watch = _open(chromium, real_site.server.origin, contexts, watches, **options)
        page = _page(context, watch)
        page.set_default_timeout(90_000)
        return page, watch

    yield make
    _finish(contexts, watches)
