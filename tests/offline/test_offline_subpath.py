"""The site built for a sub-path and served from it (a project site such as
``https://example.org/dhumbal/``), as the GitHub Pages workflow builds it.

One strict build with ``DHUMBAL_SITE_URL=http://127.0.0.1:PORT/dhumbal/``,
served under ``/dhumbal/`` only; then, in one browser context: a deal at
the table, instant navigation keeping the engine, the service worker
registered for ``/dhumbal/`` and its caches named by it, the second visit
from the device, a kept page and the offline page with the network off, and
the web app manifest's addresses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dhumbal.core.i18n import translator
from dhumbal_site.runtime import offline
from tests.offline.offlinekit import TABLE, SiteServer, engine_kept, kept, start_table, timings
from tests.sitekit import build_real as build
from tests.table.tabledriver import play_deal, wait_ready
from tools.pagemodules import on_page

PREFIX = "/dhumbal/"


@pytest.fixture(scope="module")
def subpath_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteServer]:
    directory = tmp_path_factory.mktemp("subpath-site")
    server = SiteServer(directory, PREFIX)
    try:
        code, log = build(directory, server.url(""))
        if code != 0:
            pytest.fail("the site did not build for a sub-path:\n" + log[-6000:], pytrace=False)
        yield server
    finally:
        server.stop()


def test_the_site_under_a_sub_path_plays_navigates_and_works_offline(subpath_site: SiteServer,
                                                                     contexts: Callable[..., Any]) -> None:
    server = subpath_site
    site = Path(server.directory)
    assert f"<loc>{server.url('')}</loc>" in (site / "sitemap.xml").read_text(encoding="utf-8")
    context, seen = contexts(server.origin)
    page = context.new_page()
    page.set_default_timeout(240_000)
    page.goto(server.url("rules/dashain/"))
    assert page.evaluate(on_page('runtime.base')) == server.url("")
    assert kept(page) == "ready"
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)") == server.url("")
    start_table(page)
    assert play_deal(page) > 0

    # Instant navigation keeps the window and its engine.
    page.evaluate("() => { window.__sameWindow = true; }")
    page.locator(".md-sidebar--primary a.md-nav__link[href*='rules/cardrulesplus']").first.click()
    # The deal played above is the reader's saved match: the new page's table offers
    # to continue it and deals nothing over it (issue 44).
    page.wait_for_selector(f'{TABLE}[data-profile="cardrulesplus"] [data-dht-continue]')
    assert page.locator(TABLE).get_attribute("data-state") == "static"
    assert page.evaluate("window.__sameWindow") is True, "instant navigation did not happen"
    engine_kept(page)
    names = page.evaluate("caches.keys()")
    assert names and all(n.startswith(f"dhumbal:{PREFIX}:") for n in names), names

    # The web app manifest: the language's start page, the whole site as its scope.
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    manifest = page.evaluate("(href) => fetch(href).then(r => r.json().then(m => [r.url, m]))", href)
    assert manifest[1]["start_url"] == "./" and manifest[0] == server.url("manifest.webmanifest")
    page.close()

    # The second visit: the table from the device.
    mark = len(seen.requested)
    page = context.new_page()
    page.goto(server.url("glossary/"))
    page.locator(f"{TABLE} [data-dht-continue]").click()  # the saved match, from the device's engine
    wait_ready(page)
    assert timings(page)["snapshot"] == "restored"
    assert not [p for p in seen.paths(mark) if p.startswith(f"{PREFIX}assets/pyodide/") or p.startswith(f"{PREFIX}assets/engine/")]
    page.close()

    # Offline: a kept page and its table; a language never read gets its offline page.
    context.set_offline(True)
    try:
        page = context.new_page()
        page.goto(server.url("examples/"))
        page.locator(f"{TABLE} [data-dht-continue]").click()
        wait_ready(page)
        page.goto(server.url("nl/compare/"))
        assert page.locator("h1").first.inner_text() == translator("nl")(offline.STRINGS["offline.title"])
        assert page.evaluate("location.pathname") == f"{PREFIX}nl/compare/"
        # Its links lead into the sub-path, whatever address it was shown at.
        assert page.locator(".md-header__button.md-logo").get_attribute("href") == server.url("nl/")
        styles = page.locator('link[rel="stylesheet"]').evaluate_all("els => els.map(e => e.href)")
        assert styles and all(s.startswith(server.url("assets/")) for s in styles), styles
        assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") != "static"
    finally:
        context.set_offline(False)
