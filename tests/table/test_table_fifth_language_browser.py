"""A deal at the table in a fifth language, partly translated (tests/fifthlanguage.py):
the real runtime (Pyodide, the copy's engine wheel with its Hindi catalog) keeps
the table in Hindi from Play to the end of the deal. The engine used to accept
only the four languages it listed, and answered Play in English."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from dhumbal.table.session import PROMPT_DEAL_OVER, PROMPT_MATCH_OVER
from tests.browserkit import LocalPages, WarmContexts, warm_opener, warm_pool
from tests.fifthlanguage import CODE, MESSAGES, built
from tests.sitekit import Address, current_run
from tests.table.tabledriver import TABLE, author_seed, play_deal, prefer, start, status


@pytest.fixture(scope="module")
def fifth_site(shared_site: Any) -> Address:
    # ``shared_site``: the real site's build has filled the build caches the copy starts with
    site, _, _ = built()
    assert site.ok, site.log[-4000:]
    return current_run().address("fifth-language")


@pytest.fixture(scope="module")
def warm_fifth(chromium: Any, fifth_site: Address) -> Iterator[WarmContexts]:
    yield from warm_pool(chromium, fifth_site.origin)


@pytest.fixture
def fifth_page(chromium: Any, fifth_site: Address, warm_fifth: WarmContexts) -> Iterator[Callable[..., tuple[Any, Any]]]:
    def setup(pages: LocalPages, **options: Any) -> tuple[Any, Any]:
        context, watch = pages.context(**options)
        prefer(context, "instant")
        return context, watch

    yield from warm_opener(chromium, fifth_site.origin, warm_fifth, setup)


def test_a_fifth_language_table_plays_a_deal_in_its_language(fifth_site: Address, fifth_page: Callable[..., tuple[Any, Any]]) -> None:
    page, _ = fifth_page(fresh=True)
    page.goto(fifth_site.at(f"{CODE}/rules/nepali-games/"))
    table = page.locator(TABLE)
    assert table.get_attribute("data-lang") == CODE
    assert table.locator("[data-dht-play]").inner_text().strip() == MESSAGES["Play"]
    author_seed(page, "nepali-games")  # a short deal: the whole of it is played
    start(page)
    # the engine answers in Hindi: the language stays, and the prompt is the translator's
    # (after the deal's events, in English until they are translated too)
    assert table.get_attribute("data-lang") == CODE
    assert any(status(page).strip().endswith(prompt) for prompt in MESSAGES.values()), status(page)
    assert play_deal(page) > 0
    assert table.get_attribute("data-lang") == CODE
    assert status(page).strip().endswith((MESSAGES[PROMPT_DEAL_OVER], MESSAGES[PROMPT_MATCH_OVER])), status(page)
