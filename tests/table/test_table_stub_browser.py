"""The table script in Chromium, against a stand-in runtime.

``stub-runtime.js`` has the runtime client's interface (browser/runtime/client.ts) but answers from this
test process's ``dhumbal.table.web.handle``, so these tests check the page side
(events, marks, keyboard, hash, data-state, focus, layout, accessibility)
quickly and independently of Pyodide.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dhumbal.core.i18n import number, translator
from dhumbal.play import share
from dhumbal.play.deal import IllegalAction
from dhumbal.table import session, web
from tests.axescan import axe_here
from tests.table.tabledriver import (
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
    stop_clock,
    tab_to,
    table_hash,
    ui_move,
    wait_answer,
    wait_ready,
)
from tests.table.tablekit import LANGS, expected_rows, reader_moves, reference_replay
from tools.pagemodules import on_page, page_condition

Opener = Callable[..., tuple[Any, Any]]


def open_page(stub_page: Opener, stub_site: Any, path: str, **options: Any) -> Any:
    page, _ = stub_page(**options)
    page.goto(stub_site.url(path))
    return page


def test_a_page_view_without_intent_loads_nothing(stub_page: Opener, stub_site: Any) -> None:
    page, _ = stub_page(fresh=True)
    page.clock.install()
    page.goto(stub_site.url("en/"))
    stop_clock(page)
    page.clock.run_for(60_000)  # a minute of reading, on the page's own clock
    assert page.locator(TABLE).get_attribute("data-state") == "static"
    assert page.evaluate(on_page('runtime.calls.ensure')) == 0
    # the table is drawn, its controls inert
    assert page.locator(f"{BOARD} .dht-cards .dht-card").count() == 5
    assert page.locator(f"{BOARD} :is([data-action], [data-op], .dht-card):not([disabled])").count() == 0
    # the pointer resting on the table is intent
    page.locator(TABLE).hover()
    page.clock.run_for(1000)
    # (the table's code comes on that intent, over the network: then the engine starts)
    page.wait_for_function(page_condition("runtime.calls.ensure >= 1"))
    page.clock.run_for(1000)
    wait_ready(page)
    assert page.evaluate(on_page('runtime.calls.ensure')) >= 1


def test_scrolling_the_table_into_view_does_not_start_it(stub_page: Opener, stub_site: Any) -> None:
    page, _ = stub_page(fresh=True)
    page.clock.install()
    page.goto(stub_site.url("fr/"))
    stop_clock(page)
    page.mouse.move(5, 5)
    page.mouse.wheel(0, 40_000)
    page.wait_for_function("() => scrollY > 0")
    page.clock.run_for(300)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.clock.run_for(10_000)  # ten seconds with the table in view, on the page's clock
    assert page.locator(TABLE).is_visible()
    assert page.evaluate(on_page('runtime.calls.ensure')) == 0
    assert page.locator(TABLE).get_attribute("data-state") == "static"
    # the words say what happens: Play deals, and downloads the engine the first time
    note = page.locator(f"{TABLE} .dht-when--static").inner_text()
    from dhumbal.view.loader import STATIC_NOTE

    assert note.startswith(translator("fr").raw(STATIC_NOTE).split("{")[0])


def test_with_save_data_only_play_loads_the_engine(stub_page: Opener, stub_site: Any) -> None:
    page, _ = stub_page(fresh=True, save_data=True)
    page.clock.install()
    page.goto(stub_site.url("en/#" + share.encode_hash({"v": 1, "p": "nepali-games", "s": 3, "d": "easy", "n": 1, "m": [""]})))
    stop_clock(page)
    page.locator(TABLE).hover()
    page.locator(TABLE).focus()
    page.clock.run_for(10_000)  # pointer and focus on the table for ten seconds of the page's clock
    assert page.evaluate(on_page('runtime.calls.ensure')) == 0
    assert page.locator(f"{TABLE} .dht-frugal").is_visible()
    press_play(page)
    page.clock.run_for(1000)
    wait_ready(page)
    assert translator("en")(web.NOTICE_RESTORED) in status(page)

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
    # keyboard focus on Play is intent: the engine starts, and nothing is dealt
    # under the focus, which stays on Play until it is pressed
    page.wait_for_function(page_condition("runtime.status === 'ready'"
                                   " && document.querySelector('#dh-table').dataset.state === 'static'"))
    assert page.evaluate("document.activeElement.matches('#dh-table [data-dht-play]')")
    assert answers(page) == 0
    page.keyboard.press("Enter")
    wait_ready(page)
    # then focus is carried into the live table
    key = page.evaluate("document.activeElement.dataset.key || ''")
    assert key == "take-stock", key
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
    assert label.startswith("Throw, worth ")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action === 'throw'"):
            break
    before = answers(page)
    page.keyboard.press("Enter")
    wait_answer(page, before)
    assert page.locator(f'{BOARD} [data-card="{marked}"]').count() == 0
    moves = reader_moves(table_hash(page))[0].split(",")
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
    assert reader_moves(table_hash(page)) == [""]
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
    from dhumbal.view.loader import ERRORS

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
    page.evaluate(on_page("runtime.__die('failed')"))
    page.wait_for_selector(f'{TABLE}[data-state="error"]')
    web.close_tables("dh-table")  # a new engine knows nothing of the game
    page.locator(f"{TABLE} [data-dht-retry]").click()
    wait_ready(page)
    page.wait_for_function("() => +document.querySelector('#dh-table').dataset.answers >= 4")
    assert table_hash(page) == before
    assert page.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all("els => els.map(e => e.dataset.card)") == hand
    assert web.table("dh-table").session is not None


def in_viewport(page: Any, selector: str) -> bool:
    return bool(page.evaluate(
        """s => { const r = document.querySelector(s).getBoundingClientRect();
                  return r.bottom > 0 && r.top < innerHeight && r.height > 0; }""", selector))


@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, {"width": 360, "height": 780}])
def test_play_from_an_example_opens_beside_it_and_back_returns(stub_page: Opener, stub_site: Any,
                                                                 viewport: dict[str, int]) -> None:
    page = open_page(stub_page, stub_site, "en/example/", viewport=viewport)
    page.locator(".dh-play-from").click()
    wait_ready(page)
    page.wait_for_function("() => document.querySelectorAll('#dh-table .dht-card[aria-pressed]').length === 5")
    # the table sits right after the example, in view, and the page's own place is empty
    assert page.evaluate("document.querySelector('.dh-example').nextElementSibling.id") == "dh-table"
    assert in_viewport(page, TABLE)
    assert page.locator(f"{TABLE} [data-dht-close]").is_visible()
    cards = page.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert cards == ["KS", "KH", "AD", "AC", "AH"]
    assert "You play A." in status(page)
    click(page, page.locator(f'{BOARD} [data-action="take stock"]'))
    phone = viewport["width"] < 720
    # on a phone the table fills the screen: Back closes that first, beside the example still
    assert page.evaluate("document.querySelector('#dh-table').classList.contains('dh-table--full')") is phone
    if phone:
        page.go_back()
        page.wait_for_function("() => !document.querySelector('#dh-table').classList.contains('dh-table--full')")
        assert page.evaluate("document.querySelector('.dh-example').nextElementSibling.id") == "dh-table"
    # Back: the table goes home, the reader is at the example again
    page.go_back()
    page.wait_for_function("() => !document.querySelector('#dh-table').classList.contains('dh-table--docked')")
    assert page.evaluate("document.querySelector('.dh-example').nextElementSibling.id") != "dh-table"
    assert in_viewport(page, ".dh-example") and not in_viewport(page, TABLE)
    assert page.evaluate("document.activeElement.matches('.dh-play-from')")
    # again, and Close returns as well
    page.locator(".dh-play-from").click()
    page.wait_for_function("() => document.querySelector('#dh-table').classList.contains('dh-table--docked')")
    wait_ready(page)
    if phone:  # Close: the full table first, then the table beside the example
        page.locator(f"{TABLE} [data-dht-close]").click()
        page.wait_for_function("() => !document.querySelector('#dh-table').classList.contains('dh-table--full')")
    page.locator(f"{TABLE} [data-dht-close]").click()
    page.wait_for_function("() => !document.querySelector('#dh-table').classList.contains('dh-table--docked')")
    assert in_viewport(page, ".dh-example")


def test_play_from_an_example_loads_its_position(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/example/")
    page.locator(".dh-play-from").click()
    wait_ready(page)
    page.wait_for_function("() => document.querySelectorAll('#dh-table .dht-card[aria-pressed]').length === 5")
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
    assert data["x"]["hands"][0] == "KSKHADACAH" and reader_moves(table_hash(page)) == ["s,tKSKH"]


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


@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_no_serious_violation_in_any_state(stub_page: Opener, stub_site: Any, lang: str) -> None:
    page = open_page(stub_page, stub_site, f"{lang}/")
    assert axe_here(page, TABLE) == []  # static
    start(page)
    assert axe_here(page, TABLE) == []  # live
    page.locator(f"{TABLE} .dht-settings summary").click()
    play_deal(page)
    assert axe_here(page, TABLE) == []  # scores shown, settings open


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_fits_a_360_px_screen(stub_page: Opener, stub_site: Any, lang: str) -> None:
    page = open_page(stub_page, stub_site, f"{lang}/", viewport={"width": 360, "height": 740})
    assert no_horizontal_overflow(page)
    start(page)
    assert no_horizontal_overflow(page)
    # the settings (open over the full table on a phone), then closed again
    page.locator(f"{TABLE} .dht-settings summary").click()
    assert no_horizontal_overflow(page)
    page.locator(f"{TABLE} .dht-settings summary").click()
    play_deal(page)
    assert no_horizontal_overflow(page)
    box = page.locator(TABLE).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360


VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 360, "height": 780}}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("how", ["pointer", "keyboard"])
def test_a_whole_deal_by_pointer_or_keyboard(stub_page: Opener, stub_site: Any, lang: str, size: str, how: str) -> None:
    touch = size == "phone"  # on the phone the pointer is a finger
    page, _ = stub_page(viewport=VIEWPORTS[size], has_touch=touch, is_mobile=touch)
    page.goto(stub_site.url(f"{lang}/"))
    if how == "keyboard":
        # focus reaches Play and stays there (the engine loads meanwhile); Enter
        # starts the table, and focus goes on into the live table
        tab_to(page, "a.matches('#dh-table [data-dht-play]')")
        page.keyboard.press("Enter")
        wait_ready(page)
        page.wait_for_function("() => document.activeElement.closest('#dh-table .dht-board .dht-play-area')")
    else:
        start(page)
    played = play_deal(page, how="keyboard" if how == "keyboard" else ("touch" if touch else "mouse"))
    assert played > 0
    ref = reference_replay(table_hash(page))
    shown = shown_rows(page)
    for key, values in expected_rows(ref.match, ref.outcomes[0]).items():
        assert [v for v, _ in shown[key]] == [str(v) for v in values], key
    assert no_horizontal_overflow(page)


# Installed before the reader's throw: every change of the felt while the table
# is busy with the bots' moves, seen by a MutationObserver (its callback runs
# after each change's task, so no picture is missed however slow the machine).
def test_marked_cards_are_judged_before_throw_is_pressed(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/")
    start(page)
    click(page, page.locator(f'{BOARD} [data-action="take stock"]'))
    cards = page.locator(f"{BOARD} .dht-card[aria-pressed]")
    codes = cards.evaluate_all("els => els.map(e => e.dataset.card)")
    ranks = [c[:-1] for c in codes]
    a, b = next((i, j) for i in range(len(codes)) for j in range(len(codes)) if ranks[i] != ranks[j])
    throw = page.locator(f'{BOARD} [data-action="throw"]')
    why = page.locator(f"{BOARD} .dht-why--throw")
    cards.nth(a).click()
    assert throw.get_attribute("aria-disabled") is None and not why.is_visible()
    cards.nth(b).click()
    assert throw.get_attribute("aria-disabled") == "true"
    assert why.inner_text() == IllegalAction("mixed-ranks").text("en")
    # and pressing it anyway gets the same words from the engine, nothing changed
    click(page, throw)
    assert status(page) == IllegalAction("mixed-ranks").text("en")
    cards.nth(b).click()
    assert throw.get_attribute("aria-disabled") is None


def test_the_address_gets_a_game_only_once_the_reader_plays(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/")
    start(page)
    assert table_hash(page) == ""
    ui_move(page)
    assert table_hash(page).startswith("table=")


def test_a_shared_link_brings_the_table_into_view_and_focus(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "nl/")
    start(page)
    ui_move(page)
    link = page.url
    other, _ = stub_page(viewport={"width": 360, "height": 780})
    other.goto(link)
    wait_ready(other)
    assert in_viewport(other, TABLE)
    assert other.evaluate("document.querySelector('#dh-table').contains(document.activeElement)")
    assert translator("nl")(web.NOTICE_RESTORED) in status(other)


def test_the_readers_own_game_comes_back_without_a_notice(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/")
    start(page)
    ui_move(page)
    ui_move(page)
    own = table_hash(page)
    page.goto(stub_site.url("fr/"))
    page.go_back()
    page.wait_for_function("() => location.hash.length > 7")
    wait_ready(page)
    assert table_hash(page) == own
    assert translator("en")(web.NOTICE_RESTORED) not in status(page)


def test_share_copies_the_games_link(stub_page: Opener, stub_site: Any) -> None:
    page, _ = stub_page(fresh=True)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=stub_site.origin)
    page.goto(stub_site.url("ne/"))
    start(page)
    ui_move(page)
    page.locator(f"{TABLE} [data-dht-share]").click()
    page.wait_for_function("() => document.querySelector('#dh-table .dht-status').textContent.length > 0")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.url and "#table=" in copied
    assert status(page) == translator("ne")("The link to this game is copied: paste it to share the game.")
