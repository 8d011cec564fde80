"""What the site, runtime and table suites share: the real site built with
``mkdocs build --strict`` and served on 127.0.0.1, one headless Chromium,
and browser contexts that may reach nothing but the test server.

tests/conftest.py turns this into session fixtures (``shared_site``,
``shared_chromium``), so that a test process builds, serves and browses the
real site once whichever suites it runs; each suite's conftest wraps them in
the fixtures its tests use.

The real site is built in a subprocess, as ``make build`` does, with
``DHUMBAL_SITE_URL`` set to the address of the test server: Material's
instant navigation only follows links listed in the sitemap under that
address, and the site tests check the sitemap against it. Set
``DHUMBAL_TABLE_SITE`` to the directory of an already built site to skip the
build while working on the tests: it is served on the port its sitemap names
when that port is free (``mkdocs build`` alone names 127.0.0.1:8000), so that
instant navigation works; on any other port the tests that need the site's
own address fail.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITEGEN = ROOT / "sitegen"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PREBUILT_SITE = "DHUMBAL_TABLE_SITE"
BUILD_TIMEOUT = 900


# -- local web server -----------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    # Not left to the system's mime.types: module workers and WebAssembly
    # streaming compilation check these types.
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
        """The address of the site's root, with its slash."""
        return self.origin + "/"

    def at(self, path: str = "") -> str:
        """The address of a site path such as ``ne/rules/``."""
        return f"{self.origin}/{path.lstrip('/')}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def serve(directory: Path, port: int = 0) -> Server:
    """Serve ``directory`` on 127.0.0.1, on ``port`` or (0) any free one."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=httpd.serve_forever, name="test-site-server", daemon=True)
    thread.start()
    return Server(Path(directory), httpd, thread)


# -- the real site --------------------------------------------------------------


@dataclass
class BuiltSite:
    """The real site (docs/, mkdocs.yml) built and served, or what its build said."""

    directory: Path
    server: Server
    returncode: int
    log: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    @property
    def url(self) -> str:
        return self.server.url

    def require(self) -> None:
        """Fail the calling test (not error) if the build failed."""
        if not self.ok:
            pytest.fail(
                "the site did not build with mkdocs build --strict:\n" + self.log[-6000:],
                pytrace=False,
            )


def build(directory: Path, site_url: str) -> tuple[int, str]:
    """``mkdocs build --strict`` of the real site into ``directory``: return code and log."""
    env = dict(os.environ, DHUMBAL_SITE_URL=site_url, NO_MKDOCS_2_WARNING="1")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(directory)]
    try:
        result = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT
        )
    except subprocess.TimeoutExpired as timeout:
        output = timeout.output or ""
        log = output if isinstance(output, str) else output.decode(errors="replace")
        return -1, log + f"\n(the build took more than {BUILD_TIMEOUT} s and was stopped)"
    return result.returncode, result.stdout + result.stderr


def _built_for_port(directory: Path) -> int:
    """The 127.0.0.1 port a built site's sitemap names, or 0."""
    try:
        sitemap = (directory / "sitemap.xml").read_text(encoding="utf-8")
    except OSError:
        return 0
    found = re.search(r"<loc>\s*([^<\s]+)", sitemap)
    address = urlsplit(found.group(1)) if found else None
    if address is None or address.hostname != "127.0.0.1" or address.port is None:
        return 0
    return address.port


def build_and_serve(directory: Path) -> BuiltSite:
    """Build the real site into ``directory`` and serve it, or serve the
    directory that ``DHUMBAL_TABLE_SITE`` names (built before)."""
    prebuilt = os.environ.get(PREBUILT_SITE)
    if prebuilt:
        directory = Path(prebuilt).resolve()
        port = _built_for_port(directory)
        try:
            server = serve(directory, port)
        except OSError:  # the port is taken (another test process, a mkdocs serve)
            server = serve(directory)
        return BuiltSite(directory, server, 0, f"(not built: {PREBUILT_SITE}={prebuilt})\n")
    server = serve(directory)
    returncode, log = build(directory, server.url)
    return BuiltSite(directory, server, returncode, log)


# -- browser ----------------------------------------------------------------------


class Chromium:
    """The headless Debian Chromium of a test process, launched when first asked for."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    def get(self, *, required: bool = False) -> Any:
        """The browser; without Playwright or Chromium the calling test is
        skipped, or failed if the browser is ``required``."""
        if self._browser is None:
            problem = None
            try:
                from playwright.sync_api import sync_playwright
            except ImportError as error:
                problem = f"Playwright is not installed ({error})"
            else:
                if not Path(CHROMIUM).exists():
                    problem = f"{CHROMIUM} is not installed"
            if problem:
                if required:
                    pytest.fail(problem + " (the browser tests need Debian's chromium)", pytrace=False)
                pytest.skip(problem)
            if self._playwright is None:
                self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        return self._browser

    def close(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        if self._playwright is not None:
            self._playwright.stop()
            self._playwright = None


def is_local(url: str, origin: str) -> bool:
    return url == origin or url.startswith(origin + "/")


@dataclass
class PageWatch:
    """What the pages of one browser context did: requests to other hosts
    (refused), requests that reached the test server, failed responses of
    the server, script errors."""

    origin: str
    refused: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    requested: list[str] = field(default_factory=list)


class LocalPages:
    """Browser contexts whose every request to another host is aborted and
    recorded. ``passed`` are URL prefixes (``data:``) let through unrecorded.
    ``finish`` closes the contexts and fails the test if a request was
    refused, or (for pages opened with ``page``) a response of the server
    failed or a script threw."""

    def __init__(
        self,
        browser: Any,
        origin: str,
        *,
        watch: type[PageWatch] = PageWatch,
        passed: tuple[str, ...] = (),
    ) -> None:
        self.browser = browser
        self.origin = origin
        self.watch = watch
        self.passed = passed
        self.contexts: list[Any] = []
        self.watches: list[PageWatch] = []

    def context(self, **options: Any) -> tuple[Any, Any]:
        """A new context (``browser.new_context(**options)``) and its watch."""
        context = self.browser.new_context(**options)
        watch = self.watch(self.origin)

        def route(r: Any) -> None:
            url = r.request.url
            if is_local(url, self.origin):
                watch.requested.append(url)
                r.continue_()
            elif url.startswith(self.passed):
                r.continue_()
            else:
                watch.refused.append(url)
                r.abort()

        context.route("**/*", route)
        self.contexts.append(context)
        self.watches.append(watch)
        return context, watch

    @staticmethod
    def page(context: Any, watch: PageWatch, timeout: float | None = None) -> Any:
        """A new page of ``context`` whose failed responses and script errors go to ``watch``."""
        page = context.new_page()
        if timeout is not None:
            page.set_default_timeout(timeout)
        page.on("response", lambda r: watch.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.on("pageerror", lambda e: watch.errors.append(str(e)))
        return page

    def finish(self) -> None:
        for context in self.contexts:
            context.close()
        refused = sorted({u for w in self.watches for u in w.refused})
        failed = sorted({u for w in self.watches for u in w.failed})
        errors = [e for w in self.watches for e in w.errors]
        assert not refused, f"the browser tried to reach other hosts: {refused}"
        assert not failed, f"requests to the site failed: {failed}"
        assert not errors, f"scripts failed: {errors}"

