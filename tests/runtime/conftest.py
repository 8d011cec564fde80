"""Fixtures of the runtime tests: the built site served on 127.0.0.1 and a
headless Chromium that may reach nothing else.

The site is built once per test process with ``mkdocs build --strict`` (as
``make build`` does), with ``DHUMBAL_SITE_URL`` set to the test server's
address, since Material's instant navigation only follows links listed in
the sitemap under that address. The browser tests are marked
``xdist_group("browser")``: with ``pytest -n 2 --dist loadgroup`` they share
one build and one browser.
"""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITEGEN = ROOT / "sitegen"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

for path in (SITEGEN, Path(__file__).resolve().parent):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
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
    thread = threading.Thread(target=httpd.serve_forever, name="runtime-site", daemon=True)
    thread.start()
    return Server(directory, httpd, thread)


@dataclass
class Site:
    directory: Path
    server: Server

    @property
    def url(self) -> str:
        return self.server.url


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The real site, built with ``mkdocs build --strict`` and served."""
    directory = tmp_path_factory.mktemp("runtime-site")
    server = start_server(directory)
    env = dict(os.environ, DHUMBAL_SITE_URL=server.url, NO_MKDOCS_2_WARNING="1")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(directory)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    try:
        if result.returncode != 0:
            pytest.fail("the site did not build:\n" + (result.stdout + result.stderr)[-6000:], pytrace=False)
        yield Site(directory, server)
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser(built_site: Site) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is not installed (the browser tests need Debian's chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Traffic:
    """Every URL the page (and its workers) requested, in order, and what was refused."""

    origin: str
    urls: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def paths(self, since: int = 0) -> list[str]:
        return [u[len(self.origin):].split("?")[0] for u in self.urls[since:] if u.startswith(self.origin)]

    def wasm(self, since: int = 0) -> list[str]:
        return [p for p in self.paths(since) if p.endswith(".wasm")]


@pytest.fixture
def open_page(browser: Any, built_site: Site) -> Iterator[Callable[..., tuple[Any, Traffic]]]:
    """A fresh browser context and page that may only reach the test server.

    Requests to any other host are aborted and fail the test. ``block`` is a
    list of URL globs to abort (to simulate a blocked or offline runtime).
    """
    contexts: list[Any] = []
    records: list[Traffic] = []

    def make(*, block: tuple[str, ...] = (), init_script: str | None = None, **options: Any) -> tuple[Any, Traffic]:
        context = browser.new_context(**options)
        traffic = Traffic(built_site.server.origin)

        def route(route: Any) -> None:
            url = route.request.url
            if url.startswith(traffic.origin + "/") or url.startswith("data:") or url.startswith("blob:"):
                route.continue_()
            else:
                traffic.refused.append(url)
                route.abort()

        context.route("**/*", route)
        for pattern in block:
            context.route(pattern, lambda route: route.abort("blockedbyclient"))
        # Worker requests go through the context too: record everything.
        context.on("request", lambda request: traffic.urls.append(request.url))
        if init_script:
            context.add_init_script(init_script)
        contexts.append(context)
        records.append(traffic)
        return context.new_page(), traffic

    yield make
    for context in contexts:
        context.close()
    refused = sorted({url for record in records for url in record.refused})
    assert not refused, f"the browser tried to reach other hosts: {refused}"
