"""Fixtures of the offline tests: the service worker, the engine's cache on
the device, the offline page, the start-up and the publishing recipe.

The real site is the one every suite shares (``shared_site``); a test that
needs another build or a server of its own (a new build replacing an old
one, a download that trickles, the site under a sub-path) uses
``site_server`` (offlinekit.SiteServer), which serves a directory that the
test may switch, at an optional sub-path, and logs what reached it.

Every browser context starts clean (Playwright's contexts share no storage:
no service worker, no Cache Storage, no HTTP cache), so a service worker of
one test can never serve another test's pages, and a test that serves a
different build never meets an older build's engine files: the engine's
cache is named by the hash of its files (see browser/worker/boot.ts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browserkit import Chromium, LocalPages
from tests.offline.offlinekit import Seen, SiteServer, quiet_table
from tests.sitekit import BuiltSite

HERE = Path(__file__).resolve().parent



@pytest.fixture
def site_server() -> Iterator[Callable[..., SiteServer]]:
    servers: list[SiteServer] = []

    def make(directory: Path, prefix: str = "/") -> SiteServer:
        server = SiteServer(directory, prefix)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def real(shared_site: BuiltSite) -> BuiltSite:
    shared_site.require()
    return shared_site


@pytest.fixture(scope="session")
def browser(shared_chromium: Chromium) -> Any:
    return shared_chromium.get(required=True)


@pytest.fixture
def contexts(browser: Any) -> Iterator[Callable[..., tuple[Any, Seen]]]:
    """Fresh browser contexts for an origin, service workers allowed, whose
    every request to another host is refused and fails the test."""
    made: list[LocalPages] = []

    def make(origin: str, **options: Any) -> tuple[Any, Seen]:
        pages = LocalPages(browser, origin, watch=Seen, passed=("data:", "blob:"), intercept=True)
        made.append(pages)
        context, seen = pages.context(**{"service_workers": "allow", **options})
        quiet_table(context)
        return context, seen

    yield make
    for pages in made:
        for context in pages.contexts:
            context.close()
        refused = sorted({u for w in pages.watches for u in w.refused})
        assert not refused, f"the browser tried to reach other hosts: {refused}"


