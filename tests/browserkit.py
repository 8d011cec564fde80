"""The tests' browser: one headless Chromium per test process, launched when first
asked for, pages that reach nothing but the test servers, and warm browser
contexts lent to the tests that need the same settings (tests/conftest.py's
``shared_chromium`` and the suites' page openers stand on these).

A request to any other host fails the test that made it (``PageWatch.refused``),
and so does a page's console error or failed request (:func:`assert_clean`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tools import headless

#: The test browser: Debian's ``chromium-headless-shell`` (the same Chromium build as
#: the ``chromium`` package, without the browser around the pages: no window, tab
#: strip or WebUI pages), or Debian's ``chromium`` where the shell is not installed.
#: The pages run the same Blink and V8 either way; the shell spends less CPU around
#: them: the site and stub-table browser files, run back to back, 130 s of CPU with
#: ``chromium`` and 102 s with the shell. ``.ci/run`` installs both.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() else "/usr/bin/chromium"
#: The test browser's flags: the usual headless set (no sandbox, no GPU, no background
#: networking), and V8 kept to its baseline
#: WebAssembly compiler (``--liftoff-only``). Pyodide's 10 MB module is compiled
#: afresh in every new browser context (a context has no code cache), and the
#: optimising tier then recompiles its hot functions in the background: traced in
#: Chromium 156, 2.2 s of a first start's 2.6 s of background compiling. With
#: ``--liftoff-only`` a first start takes 1.2 s of CPU in place of 2.2 s, a start
#: from the kept snapshot 0.6 s in place of 0.9 s, and five table, offline and
#: runtime browser files 160 s in place of 220 s. (``--no-wasm-tier-up``, used
#: before, no longer stops that tier.) The engine runs the same code either way
#: (only slower per step, which no test measures); the runtime's speed is measured
#: in the browser's default tiers by ``make bench`` (bench/runtime_bench.py), not
#: here. JavaScript is kept to its first two tiers the same way (``--no-maglev
#: --no-turbofan``): a test page lives for seconds, and the optimising compilers'
#: work on its scripts (Material's, the table's, Playwright's own) is never paid
#: back; without them the browser tests take about 8 % less CPU (measured on the
#: site, table, runtime and review files).
#: No host but the test servers' (127.0.0.1) resolves: a request to another host
#: fails in the browser itself, and the test that made it sees it (``PageWatch.refused``).
#: The browser is launched by ``tools/headless.py``, which also turns off the UI that
#: headless ``chromium`` builds for every tab (about 1 s of CPU for each page a test
#: opens; the shell builds none).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--js-flags=--liftoff-only --no-maglev --no-turbofan", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]

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
                if not Path(CHROMIUM).exists():  # neither the shell nor chromium
                    problem = f"{CHROMIUM} is not installed"
            if problem:
                if required:
                    pytest.fail(problem + " (the browser tests need Debian's chromium-headless-shell or chromium)", pytrace=False)
                pytest.skip(problem)
            if self._playwright is None:
                self._playwright = sync_playwright().start()
            self._browser = headless.launch(self._playwright.chromium, CHROMIUM, CHROMIUM_ARGS)
        return self._browser

    def close(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        if self._playwright is not None:
            self._playwright.stop()
            self._playwright = None


#: The runtime's watchdog limits (stall, silence, request: seconds of wall clock
#: in the product) put out of reach. The tests that load the real runtime start
#: their contexts with this, so that a machine too loaded to answer within the
#: product's seconds cannot turn a test about something else into an error
#: state; the watchdog's own tests set the limit they test
#: (tests/table/test_table_watchdog_browser.py), and one test checks the defaults.
#: How long a browser wait may last before it fails the test (milliseconds): a
#: bound for a test that would hang, never a measure of speed.
PATIENCE_MS = 180_000

UNHURRIED_RUNTIME = (
    "window.DhumbalRuntimeLimits = Object.assign("
    "{stall: 3600000, silence: 3600000, request: 3600000, window: 3600000, total: 36000000}, window.DhumbalRuntimeLimits || {});"
)


#: What every test context starts with unless its test asks otherwise (``LocalPages.context``):
#:
#: - ``reduced_motion="reduce"``: the reader asks for no motion, so a card lands
#:   where it goes at once and a test's next press need not wait out its 300 ms
#:   flight (a whole deal is 12 to 40 of them). The tests of motion itself ask for
#:   it (``reduced_motion="no-preference"``): the glide, the bots' moves one at a
#:   time on their seats in both settings, one 40-turn phone flow, the layout
#:   shift while the table goes live.
#: - ``service_workers="block"``: no service worker is registered, so a new context
#:   does not precache its language's pages and the engine behind the test's back.
#:   The offline suite (tests/offline), which tests the service worker, allows it.
TEST_DEFAULTS: dict[str, Any] = {"reduced_motion": "reduce", "service_workers": "block"}


def stop_clock(page: Any) -> None:
    """Stop the page's clock: from now on its timers (and ``Date``, ``performance.now``)
    move only when the test moves them with ``page.clock.run_for(ms)``.

    ``page.clock.install()`` must have come before the page loaded. A test that
    says nothing happens in so many seconds without the reader's intent runs
    those seconds on this clock: at once, and whatever the machine's load.
    (Workers keep their own, real clock.)"""
    page.clock.pause_at(int(page.evaluate("Date.now()")) + 1)


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
    """Browser contexts whose every request to another host is recorded and
    fails, and whose pages start with the runtime's watchdog out of reach
    (``UNHURRIED_RUNTIME``, see ``context``). ``passed`` are URL prefixes
    (``data:``) let through unrecorded. ``finish`` closes the contexts and
    fails the test if a request was refused, or (for pages opened with
    ``page``) a response of the server failed or a script threw.

    Requests are *watched* (the context's request events), and the browser
    resolves no host but 127.0.0.1 (``CHROMIUM_ARGS``), so a request to
    another host fails there. With ``intercept``, every request is instead
    held and let through or aborted by this process (a route for ``**/*``),
    and ``requested`` lists only what reached the server past the service
    worker: the offline suite counts those. Interception costs: Playwright
    turns the context's HTTP cache off under a route, and every request makes
    a round trip through this process, so a page loaded again in the same
    context costs twice the CPU (measured on eight pages loaded twice each).
    """

    def __init__(
        self,
        browser: Any,
        origin: str,
        *,
        watch: type[PageWatch] = PageWatch,
        passed: tuple[str, ...] = (),
        intercept: bool = False,
    ) -> None:
        self.browser = browser
        self.origin = origin
        self.watch = watch
        self.passed = passed
        self.intercept = intercept
        self.contexts: list[Any] = []
        self.watches: list[PageWatch] = []

    def context(self, *, unhurried: bool = True, **options: Any) -> tuple[Any, Any]:
        """A new context (``browser.new_context(**options)``) and its watch.

        Unless ``unhurried`` is false, the context's pages start with the
        runtime's watchdog limits out of reach (``UNHURRIED_RUNTIME``): every
        page of the site has the mini table, and a machine loaded enough to
        keep Pyodide's download or start quiet for the product's seconds
        must not turn a test about something else into the table's error
        state. Only the watchdog's own tests set limits (after this script,
        so theirs win) or turn it off."""
        context = self.browser.new_context(**{**TEST_DEFAULTS, **options})
        # Playwright's waits fail after 30 s by default, which a loaded machine can
        # reach while a page starts Pyodide: the waits are for events, and this
        # bound only ends a test that would otherwise hang.
        context.set_default_timeout(PATIENCE_MS)
        if unhurried:
            context.add_init_script(UNHURRIED_RUNTIME)
        watch = self.watch(self.origin)

        def allowed(url: str) -> bool:
            """Record ``url`` (the server's, or another host's); whether it may go."""
            if is_local(url, self.origin):
                watch.requested.append(url)
            elif not url.startswith(self.passed):
                watch.refused.append(url)
                return False
            return True

        def route(r: Any) -> None:
            if allowed(r.request.url):
                r.continue_()
            else:
                r.abort()

        def seen(request: Any) -> None:
            allowed(request.url)

        if self.intercept:
            context.route("**/*", route)
        else:
            context.on("request", seen)
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
        assert_clean([u for w in self.watches for u in w.refused], [u for w in self.watches for u in w.failed],
                     [e for w in self.watches for e in w.errors])


def assert_clean(refused: list[str], failed: list[str], errors: list[str]) -> None:
    """Fail if the browser tried another host, a response of the server failed, or a script threw."""
    assert not refused, f"the browser tried to reach other hosts: {sorted(set(refused))}"
    assert not failed, f"requests to the site failed: {sorted(set(failed))}"
    assert not errors, f"scripts failed: {errors}"


class WarmContexts:
    """Browser contexts kept warm for the tests of one process, one per set of
    options (``key``), for tests that are not about a first visit.

    A fresh context starts with no HTTP cache and no engine on the device: its
    first page load costs about 3.5 s of CPU and the engine's start about 4.5 s
    (Pyodide booted and its memory snapshot made); in a warm context, about 2.7 s
    and 1.5 s (the snapshot the worker kept, restored), measured on a rules page.
    What a test leaves behind is cleared before the next test's page opens: its
    pages are closed, and the origin's local storage and IndexedDB are emptied
    (the table's stored settings and the game it would resume), while the HTTP
    cache and Cache Storage (the engine) stay. A test that changes its context
    (a route, an init script, going offline) or is about a first visit opens a
    fresh one instead. Each lease's watch is checked for its own test by
    ``Lease.finish``: no request to another host, no failed response, no script
    error while that test held the context."""

    def __init__(self, browser: Any, origin: str) -> None:
        self.pages = LocalPages(browser, origin)
        self.origin = origin
        self.pool: dict[str, tuple[Any, PageWatch]] = {}

    def lease(self, key: str, make: Callable[[LocalPages], tuple[Any, PageWatch]]) -> Lease:
        if key not in self.pool:
            self.pool[key] = make(self.pages)
        context, watch = self.pool[key]
        for old in list(context.pages):
            old.close()
        return Lease(context, watch, self.origin)

    def close(self) -> None:
        for context, _ in self.pool.values():
            context.close()
        self.pool.clear()


def warm_pool(browser: Any, origin: str) -> Iterator[WarmContexts]:
    """The body of a session fixture that keeps a process's warm contexts for ``origin``."""
    warm = WarmContexts(browser, origin)
    try:
        yield warm
    finally:
        warm.close()


class Lease:
    """A warm context lent to one test (``WarmContexts.lease``)."""

    def __init__(self, context: Any, watch: PageWatch, origin: str) -> None:
        self.context = context
        self.watch = watch
        self.marks = {name: len(getattr(watch, name)) for name in ("refused", "failed", "errors")}
        self.cleared = False
        self.origin = origin

    def page(self, timeout: float | None = None) -> Any:
        page = LocalPages.page(self.context, self.watch, timeout)
        if not self.cleared:
            cdp = self.context.new_cdp_session(page)
            cdp.send("Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": "local_storage,indexeddb"})
            cdp.detach()
            self.cleared = True
        return page

    def finish(self) -> None:
        for page in list(self.context.pages):
            page.close()
        assert_clean(*(getattr(self.watch, name)[n:] for name, n in self.marks.items()))


def warm_opener(chromium: Any, origin: str, warm: WarmContexts,
                setup: Callable[..., tuple[Any, PageWatch]]) -> Iterator[Callable[..., tuple[Any, PageWatch]]]:
    """A test's page opener: ``setup(pages, **settings)`` makes a context and its
    watch. Each call opens a page in a warm context of its own (sitekit.WarmContexts:
    the n-th call of a test, with the same settings, gets the n-th warm context),
    or with ``fresh=True`` in a new context, for a test about a first visit or one
    that changes its context (routes, init scripts, the page clock, permissions)."""
    pages = LocalPages(chromium, origin)
    leases = []
    calls: dict[str, int] = {}

    def make(fresh: bool = False, **settings: Any) -> tuple[Any, PageWatch]:
        if fresh:
            context, watch = setup(pages, **settings)
            return pages.page(context, watch), watch
        key = json.dumps(settings, sort_keys=True, default=str)
        calls[key] = calls.get(key, 0) + 1
        lease = warm.lease(f"{key}#{calls[key]}", lambda p: setup(p, **settings))
        leases.append(lease)
        return lease.page(), lease.watch

    yield make
    pages.finish()
    for lease in leases:
        lease.finish()
