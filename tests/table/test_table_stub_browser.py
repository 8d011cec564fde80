"""The table script in Chromium, against a stand-in runtime.

``stub-runtime.js`` has DhumbalRuntime's interface but answers from this
test process's ``dhumbal.web.handle``, so these tests check the page side
(events, marks, keyboard, hash, data-state, focus, layout, accessibility)
quickly and independently of Pyodide.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
from tabledriver import (
    BOARD,
    TABLE,
    answers,
    click,
    highest_card,
    no_horizontal_overflow,
    play_deal,
    press_play,
    shown_rows,
    start,
    status,
    table_hash,
    ui_move,
    wait_answer,
    wait_ready,
)
from tablekit import LANGS, expected_rows, reference_replay

from dhumbal import session, share, web
from dhumbal.deal import IllegalAction
from dhumbal.i18n import number, translator

pytestmark = pytest.mark.xdist_group("browser")

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
Opener = Callable[..., tuple[Any, Any]]


def open_page(stub_page: Opener, stub_site: Any, path: str, **options: Any) -> Any:
    page, _ = stub_page(**options)
    page.goto(stub_site.url(path))
    return page


def test_a_page_view_without_intent_loads_nothing(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/")
    page.wait_for_timeout(400)
    assert page.locator(TABLE).get_attribute("data-state") == "static"
    assert page.evaluate("DhumbalRuntime.calls.ensure") == 0
    # the table is drawn, its controls inert
    assert page.locator(f"{BOARD} .dht-cards .dht-card").count() == 5
    assert page.locator(f"{BOARD} button:not([disabled])").count() == 0
    # scrolling by itself is not intent until the table comes into view
    page.mouse.wheel(0, 10)
    page.wait_for_timeout(200)
    assert page.evaluate("DhumbalRuntime.calls.ensure") == 0
    # pointing at the table is
    page.locator(TABLE).hover()
    wait_ready(page)
    assert page.evaluate("DhumbalRuntime.calls.ensure") >= 1


def test_scrolling_the_table_into_view_starts_it(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "fr/")
    assert page.evaluate("DhumbalRuntime.calls.ensure") == 0
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    wait_ready(page)


@pytest.mark.parametrize("lang", LANGS)
def test_a_deal_played_through_the_interface_scores_as_the_engine_settles(
    stub_page: Opener, stub_site: Any, lang: str
) -> None:
    page = open_page(stub_page, stub_site, f"{lang}/")
    start(page)
    played = play_deal(page)
    assert played > 0
    h = table_hash(page)
    ref = reference_replay(h)
    assert len(ref.outcomes) == 1
    shown = shown_rows(page)
    expected = expected_rows(ref.match, ref.outcomes[0])
    for key, values in expected.items():
        assert [v for v, _ in shown[key]] == [str(v) for v in values], key
    for key in ("hand", "took", "points"):
        for value, text in shown.get(key, []):
            assert text == number(int(value), lang)
    # every hand is shown, and the status says the deal is over, in the page language
    assert page.locator(f"{BOARD} .dht-seat__hand").count() == ref.deal.players
    assert translator(lang)(session.PROMPT_DEAL_OVER) in status(page) or translator(lang)(session.PROMPT_MATCH_OVER) in status(page)
    # the next deal
    nxt = page.locator(f'{BOARD} [data-op="next-deal"]')
    if nxt.count():
        click(page, nxt)
        assert page.locator(BOARD).get_attribute("data-over") in ("false", "true")
        assert share.decode_hash(table_hash(page))["n"] == 2


def test_one_turn_by_keyboard_only(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/")
    for _ in range(5):
        page.keyboard.press("Tab")
        if page.evaluate("document.querySelector('#dh-table').contains(document.activeElement)"):
            break
    # keyboard focus in the table is intent: the engine starts, and focus,
    # which was on Play, is carried into the live table
    wait_ready(page)
    focused = page.evaluate("document.activeElement.dataset.key || ''")
    assert focused == "take-stock", focused
    before = answers(page)
    page.keyboard.press("Enter")
    wait_answer(page, before)
    # after the take, focus is on the hand: mark with Space, walk with the arrows
    assert page.evaluate("document.activeElement.matches('.dht-card[aria-pressed]')")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    marked = page.evaluate("document.activeElement.dataset.card")
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    label = page.locator(f'{BOARD} [data-action="throw"]').inner_text()
    assert label.startswith("Throw marked cards, worth ")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action === 'throw'"):
            break
    before = answers(page)
    page.keyboard.press("Enter")
    wait_answer(page, before)
    assert page.locator(f'{BOARD} [data-card="{marked}"]').count() == 0
    moves = share.decode_hash(table_hash(page))["m"][0].split(",")
    assert moves == ["s", "t" + marked]
    # focus stays in the table, on a control that can be used now
    assert page.evaluate("document.querySelector('#dh-table .dht-board').contains(document.activeElement)")


def test_focus_is_visible(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/")
    start(page)
    card = page.locator(f"{BOARD} .dht-card[aria-pressed]").first
    card.focus()
    page.keyboard.press("ArrowRight")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle + ' ' + getComputedStyle(document.activeElement).outlineWidth")
    assert outline.startswith("solid") and not outline.endswith(" 0px"), outline


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_refused_action_shows_the_engines_reason(stub_page: Opener, stub_site: Any, lang: str) -> None:
    page = open_page(stub_page, stub_site, f"{lang}/")
    start(page)
    throw = page.locator(f'{BOARD} [data-action="throw"]')
    assert throw.get_attribute("aria-disabled") == "true"  # draw first: the throw waits
    highest_card(page).click()
    click(page, throw)
    reason = IllegalAction("must-take-first").text(lang)
    assert status(page) == reason
    assert "dht-status--alert" in (page.locator(f"{TABLE} .dht-status").get_attribute("class") or "")
    # nothing changed and the mark is kept
    assert share.decode_hash(table_hash(page))["m"] == [""]
    assert page.locator(f'{BOARD} .dht-card[aria-pressed="true"]').count() == 1


def test_a_shared_url_restores_the_same_position(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "nl/")
    start(page)
    for _ in range(3):
        ui_move(page)
    url = page.url
    assert "#table=" in url
    hand = page.locator(f"{BOARD} .dht-cards").inner_html()
    log = page.locator(f"{BOARD} .dht-log").inner_text()
    other = open_page(stub_page, stub_site, url.split(stub_site.origin)[1])
    wait_ready(other)  # a shared game link is intent: it opens by itself
    assert other.locator(f"{BOARD} .dht-cards").inner_html() == hand
    assert other.locator(f"{BOARD} .dht-log").inner_text() == log
    assert translator("nl")(web.NOTICE_RESTORED) in status(other)
    assert table_hash(other) == table_hash(page)
    # and a reload of the page shows it again
    other.reload()
    wait_ready(other)
    assert other.locator(f"{BOARD} .dht-cards").inner_html() == hand
    assert table_hash(other) == table_hash(page)


def test_a_tampered_link_gives_a_message_and_a_fresh_deal(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "fr/#table=eyJ2IjoxLCJwIjoicG9rZXIifQ")
    wait_ready(page)
    assert translator("fr")(web.NOTICE_BAD_HASH) in status(page)
    assert page.locator(f"{BOARD} .dht-card[aria-pressed]").count() == 5
    assert page.locator(BOARD).get_attribute("data-profile-key") == "dashain"
    assert share.decode_hash(table_hash(page))["p"] == "dashain"


@pytest.mark.parametrize("code", ["blocked", "unsupported", "failed", "something-else"])
def test_an_engine_error_is_explained_and_retry_recovers(stub_page: Opener, stub_site: Any, code: str) -> None:
    page = open_page(stub_page, stub_site, "ne/", fail=code)
    press_play(page)
    page.wait_for_selector(f'{TABLE}[data-state="error"]')
    shown = code if code != "something-else" else "generic"
    message = page.locator(f'{TABLE} [data-error-code="{shown}"]')
    assert message.is_visible()
    from dhumbal.view import ERRORS

    assert message.inner_text() == translator("ne")(ERRORS[shown])
    assert translator("ne")(ERRORS[shown]) in status(page)
    assert page.locator(f"{TABLE} .dht-card").first.is_visible()  # the page and table stay readable
    retry = page.locator(f"{TABLE} [data-dht-retry]")
    assert retry.is_visible()
    retry.click()
    wait_ready(page)
    assert not message.is_visible()


def test_after_the_engine_dies_retry_brings_the_game_back(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/")
    start(page)
    ui_move(page)
    ui_move(page)
    before = table_hash(page)
    hand = page.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all("els => els.map(e => e.dataset.card)")
    page.evaluate("DhumbalRuntime.__die('failed')")
    page.wait_for_selector(f'{TABLE}[data-state="error"]')
    web.SESSIONS.pop("dh-table", None)  # a new engine knows nothing of the game
    page.locator(f"{TABLE} [data-dht-retry]").click()
    wait_ready(page)
    page.wait_for_function("+document.querySelector('#dh-table').dataset.answers >= 4")
    assert table_hash(page) == before
    assert page.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all("els => els.map(e => e.dataset.card)") == hand
    assert "dh-table" in web.SESSIONS


def test_play_from_an_example_loads_its_position(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/example/")
    page.locator(".dh-play-from").click()
    wait_ready(page)
    page.wait_for_function("document.querySelectorAll('#dh-table .dht-card[aria-pressed]').length === 5")
    cards = page.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert cards == ["KS", "KH", "AD", "AC", "AH"]
    assert "You play A." in status(page)
    assert page.evaluate("document.activeElement.closest('#dh-table') !== null")
    # the example plays on as in the walkthrough
    click(page, page.locator(f'{BOARD} [data-action="take stock"]'))
    for code in ("KS", "KH"):
        page.locator(f'{BOARD} [data-card="{code}"]').click()
    click(page, page.locator(f'{BOARD} [data-action="throw"]'))
    assert page.locator(f"{BOARD} .dht-hand__total").get_attribute("data-total") == "5"
    # and the link restores it, position included
    data = share.decode_hash(table_hash(page))
    assert data["x"]["hands"][0] == "KSKHADACAH" and data["m"] == ["s,tKSKH"]


def test_settings_change_the_rules_and_start_a_new_match(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/")
    start(page)
    page.locator(f"{TABLE} .dht-settings summary").click()
    before = answers(page)
    page.select_option(f"{TABLE} [data-dht-profile]", "dashain")
    wait_answer(page, before)
    assert page.locator(f'{TABLE} [name="opt:first-round-call"]').count() == 1
    page.select_option(f'{TABLE} [name="opt:players"]', "3")
    page.select_option(f'{TABLE} [name="difficulty"]', "hard")
    before = answers(page)
    page.locator(f'{TABLE} .dht-settings button[type="submit"]').click()
    wait_answer(page, before)
    assert page.locator(BOARD).get_attribute("data-profile-key") == "dashain"
    assert page.locator(f"{BOARD} .dht-seat").count() == 3
    data = share.decode_hash(table_hash(page))
    assert data["p"] == "dashain(players=3)" and data["d"] == "hard"
    # a value the engine does not allow is refused in words, and the game is kept
    page.fill(f'{TABLE} [name="opt:money"]', "-1")
    before = answers(page)
    page.locator(f'{TABLE} .dht-settings button[type="submit"]').click()
    wait_answer(page, before)
    assert "-1" in status(page) and share.decode_hash(table_hash(page))["p"] == "dashain(players=3)"


def _axe(page: Any) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document.querySelector('#dh-table'))")
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_no_serious_violation_in_any_state(stub_page: Opener, stub_site: Any, lang: str) -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not installed (make setup)")
    page = open_page(stub_page, stub_site, f"{lang}/")
    assert _axe(page) == []  # static
    start(page)
    assert _axe(page) == []  # live
    page.locator(f"{TABLE} .dht-settings summary").click()
    play_deal(page)
    assert _axe(page) == []  # scores shown, settings open


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_table_fits_a_360_px_screen(stub_page: Opener, stub_site: Any, lang: str) -> None:
    page = open_page(stub_page, stub_site, f"{lang}/", viewport={"width": 360, "height": 740})
    assert no_horizontal_overflow(page)
    start(page)
    assert no_horizontal_overflow(page)
    page.locator(f"{TABLE} .dht-settings summary").click()
    assert no_horizontal_overflow(page)
    play_deal(page)
    assert no_horizontal_overflow(page)
    box = page.locator(TABLE).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
