"""Fixtures of the runtime tests: the built site served on 127.0.0.1 and a
headless Chromium that may reach nothing else.

The site is the real site every suite shares (``shared_site`` in
tests/conftest.py): built once per run with ``mkdocs build --strict`` (as
``make build`` does), with ``DHUMBAL_SITE_URL`` set to the address of the
run's server for it, since Material's instant navigation only follows links
listed in the sitemap under that address.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.browserkit import Chromium, LocalPages, PageWatch
from tests.sitekit import BuiltSite


@pytest.fixture(scope="session")
def built_site(shared_site: BuiltSite) -> BuiltSite:
    """The real site, built with ``mkdocs build --strict`` and served (``url``, ``directory``)."""
    shared_site.require()
    return shared_site


@pytest.fixture(scope="session")
def browser(built_site: BuiltSite, shared_chromium: Chromium) -> Any:
    return shared_chromium.get(required=True)


@dataclass
class Traffic(PageWatch):
    """Every URL of the server the page (and its workers) requested, in order
    (``requested``: browserkit.LocalPages records them), and what was refused."""

    def paths(self, since: int = 0) -> list[str]:
        return [u[len(self.origin):].split("?")[0] for u in self.requested[since:]]

    def wasm(self, since: int = 0) -> list[str]:
        return [p for p in self.paths(since) if p.endswith(".wasm")]


@pytest.fixture
def open_page(browser: Any, built_site: BuiltSite) -> Iterator[Callable[..., tuple[Any, Traffic]]]:
    """A fresh browser context and page that may only reach the test server.

    Requests to any other host are aborted and fail the test. ``block`` is a
    list of URL globs to abort (to simulate a blocked or offline runtime).
    """
    pages = LocalPages(browser, built_site.server.origin, watch=Traffic, passed=("data:", "blob:"))

    def make(*, block: tuple[str, ...] = (), init_script: str | None = None, **options: Any) -> tuple[Any, Traffic]:
        # the watchdog's limits out of reach (browserkit.LocalPages): a loaded machine cannot make an error state here
        context, traffic = pages.context(**options)
        for pattern in block:
            context.route(pattern, lambda route: route.abort("blockedbyclient"))
        if init_script:
            context.add_init_script(init_script)
        return context.new_page(), traffic

    yield make
    # Pages come from context.new_page(), not pages.page(): only refused requests fail the test.
    pages.finish()
