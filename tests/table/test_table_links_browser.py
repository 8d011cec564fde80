"""The table's error state always offers "New game", which leaves the page's link (issue 21, item 2).

A link that fails (or a runtime that fails while a link is on the page) used
to leave only Retry, which failed the same way, and so did a reload. "New
game" drops the ``#table=`` link and deals a fresh game with the table's
settings, in the page's language. Run against the stand-in runtime
(``stub-runtime.js``), which answers from this process's ``dhumbal.table.web``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dhumbal.core.i18n import translator
from dhumbal.table import web
from dhumbal.view.loader import FRESH_GAME
from tests.table.tabledriver import BOARD, TABLE, table_hash, wait_ready

Opener = Callable[..., tuple[Any, Any]]


def a_link() -> str:
    r = web.handle_request({"op": "new", "table": "maker", "profile": "cardrulesplus", "seed": 5, "lang": "en"})
    deal = web.table("maker").playing().deal
    assert deal is not None
    r = web.handle_request({"op": "act", "table": "maker", "action": deal.legal_actions()[-1].text(), "lang": "en"})
    assert r["ok"] and r["hash"].startswith("table=3.")
    return str(r["hash"])


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_new_game_in_the_error_state_leaves_the_link_and_deals_afresh(stub_page: Opener, stub_site: Any, lang: str) -> None:
    link = a_link()
    page, _ = stub_page(fail="failed")
    page.goto(stub_site.url(f"{lang}/#{link}"))
    page.wait_for_selector(f'{TABLE}[data-state="error"]')
    fresh = page.locator(f"{TABLE} [data-dht-fresh]")
    retry = page.locator(f"{TABLE} [data-dht-retry]")
    assert retry.is_visible() and fresh.is_visible()
    assert fresh.inner_text() == translator(lang)(FRESH_GAME)
    box = fresh.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44  # a target a thumb can hit
    fresh.click()
    wait_ready(page)
    assert not table_hash(page).startswith("table=")  # the link is gone from the address
    assert page.locator(f"{BOARD} .dht-card[aria-pressed]").count() == 5
    # a fresh game of the table's own settings, not the link's cardrulesplus game
    assert page.locator(BOARD).get_attribute("data-profile-key") == "nepali-games"
    assert not fresh.is_visible()


def test_new_game_is_hidden_until_the_table_is_in_error(stub_page: Opener, stub_site: Any) -> None:
    page, _ = stub_page()
    page.goto(stub_site.url("en/"))
    fresh = page.locator(f"{TABLE} [data-dht-fresh]")
    assert fresh.count() == 1 and not fresh.is_visible()
