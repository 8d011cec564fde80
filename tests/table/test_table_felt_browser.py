"""The table in Chromium against a stand-in runtime (tests/table/test_table_stub_browser.py
says how): the bots' moves shown one at a time on their seats, the reader's controls
waiting meanwhile, the pace the reader chose, and the felt's look (suit colours, the
opponents' backs, a phone's screen).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from dhumbal.play import share
from dhumbal.play.deal import IllegalAction
from tests.table.tabledriver import (
    BOARD,
    TABLE,
    answers,
    click,
    highest_card,
    start,
    status,
    stop_clock,
    table_hash,
    ui_move,
    wait_answer,
)
from tests.table.tablekit import reader_moves, reference_replay
from tests.table.test_table_stub_browser import Opener, in_viewport, open_page
from tools.pagemodules import on_page

_WATCH_FELT = """() => {
    const root = document.querySelector('#dh-table');
    window.__felts = []; window.__busySeen = false;
    const look = () => {
        if (!root.hasAttribute('data-busy')) return;
        window.__busySeen = true;
        const felt = root.querySelector('.dht-felt').outerHTML;
        if (window.__felts[window.__felts.length - 1] !== felt) window.__felts.push(felt);
    };
    new MutationObserver(look).observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def _felt_states_while_busy(page: Any) -> tuple[list[str], bool]:
    """Felt pictures seen while the table was busy with the bots' moves (and whether it was),
    once the moves are over (``_WATCH_FELT`` must have been installed before they began)."""
    page.wait_for_function("() => window.__busySeen && !document.querySelector('#dh-table').hasAttribute('data-busy')")
    felts, busy = page.evaluate("[window.__felts, window.__busySeen]")
    return list(felts), bool(busy)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_bots_moves_show_one_at_a_time_on_their_seats(stub_page: Opener, stub_site: Any, motion: str) -> None:
    page = open_page(stub_page, stub_site, "en/", speed="fast", viewport={"width": 360, "height": 780},
                     reduced_motion=motion)
    start(page)
    click(page, page.locator(f'{BOARD} [data-action="take stock"]'))
    highest_card(page).click()
    log_before = page.locator(f"{BOARD} .dht-log__list > li").count()
    page.evaluate(_WATCH_FELT)
    page.locator(f'{BOARD} [data-action="throw"]').click()
    states, busy = _felt_states_while_busy(page)
    assert busy, "the table never said it was busy"
    assert len(states) >= 3, len(states)  # the reader's throw, then at least two bot moves, one by one
    moved = [re.findall(r'dht-seat--moved" data-seat="(\d)"', s) for s in states[1:]]
    assert all(len(m) == 1 for m in moved), moved
    # with reduced motion nothing moves, but the moves still come one at a time
    bubble = page.evaluate("""() => { const el = document.createElement('div');
        el.className = 'dht-bubble'; document.querySelector('#dh-table .dht-seat').appendChild(el);
        const name = getComputedStyle(el).animationName; el.remove(); return name; }""")
    assert (bubble == "none") == (motion == "reduce"), bubble
    # afterwards: the reader's turn, every move in the log, the controls back
    wait_answer(page, 0)
    assert page.locator(BOARD).get_attribute("data-your-turn") == "true"
    share.decode_hash(table_hash(page))  # a link the engine reads back
    ref = reference_replay(table_hash(page))
    bot_moves = sum(1 for seat, _ in ref.deal.history if seat != 0)
    assert page.locator(f"{BOARD} .dht-log__list > li").count() >= log_before + bot_moves - 1
    assert reader_moves(table_hash(page))[0].startswith("s,t")


def test_while_moves_play_the_readers_controls_wait(stub_page: Opener, stub_site: Any) -> None:
    page, _ = stub_page(fresh=True, speed="slow")
    page.clock.install()
    page.goto(stub_site.url("en/"))
    start(page)
    click(page, page.locator(f'{BOARD} [data-action="take stock"]'))
    highest_card(page).click()
    stop_clock(page)  # the bots' moves wait for the page's clock: they cannot end under the test
    page.locator(f'{BOARD} [data-action="throw"]').click()
    page.wait_for_selector('#dh-table[data-busy="true"]')
    requests = page.evaluate(on_page('runtime.calls.request'))
    page.locator(f"{BOARD} .dht-felt").click(position={"x": 10, "y": 10})
    assert page.evaluate(on_page('runtime.calls.request')) == requests
    assert page.locator(f"{BOARD} [data-action]").count() == 0  # not the reader's turn: nothing to press
    # "show all moves now" ends the wait at once
    page.locator(f"{TABLE} [data-dht-skip]").click()
    page.wait_for_function("() => !document.querySelector('#dh-table').hasAttribute('data-busy')")
    assert page.locator(BOARD).get_attribute("data-your-turn") == "true"


def test_the_pace_is_the_readers_choice_and_is_kept(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "nl/", speed="normal")
    page.locator(f"{TABLE} .dht-settings summary").click()
    page.select_option(f"{TABLE} [data-dht-speed]", "instant")
    page.check(f"{TABLE} [data-dht-4c]")
    assert page.evaluate("document.documentElement.classList.contains('dh-4c')")
    page.reload()
    assert page.evaluate("JSON.parse(localStorage.getItem('dhumbal:table')).speed") == "instant"
    assert page.evaluate("document.documentElement.classList.contains('dh-4c')")
    # (the form comes when the settings are opened: before the table's code, it waited inert)
    assert page.locator(f"{TABLE} [data-dht-speed]").count() == 0
    page.locator(f"{TABLE} .dht-settings summary").click()
    assert page.locator(f"{TABLE} [data-dht-speed]").input_value() == "instant"
    assert page.locator(f"{TABLE} [data-dht-4c]").is_checked()
    start(page)
    before = answers(page)
    ui_move(page)
    assert answers(page) > before and page.locator(TABLE).get_attribute("data-busy") is None


def test_four_colour_suits_paint_diamonds_blue_and_clubs_green(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/")
    start(page)
    colour = "el => getComputedStyle(el).color"
    diamonds = page.locator(f"{TABLE} .dhc--d").first
    clubs = page.locator(f"{TABLE} .dhc--c").first
    red = diamonds.evaluate(colour) if diamonds.count() else None
    page.locator(f"{TABLE} .dht-settings summary").click()
    page.check(f"{TABLE} [data-dht-4c]")
    if diamonds.count():
        assert diamonds.evaluate(colour) == "rgb(21, 80, 168)" != red
    if clubs.count():
        assert clubs.evaluate(colour) == "rgb(27, 115, 48)"


def test_opponents_show_one_back_per_card(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "fr/")
    start(page)
    for _ in range(3):
        seats = page.locator(f"{BOARD} .dht-seats > .dht-seat")
        assert seats.count() >= 1
        for i in range(seats.count()):
            seat = seats.nth(i)
            assert seat.locator(".dhc--back").count() == int(seat.get_attribute("data-count") or -1)
        ui_move(page)


def test_on_a_phone_the_status_hand_and_controls_are_seen_together(stub_page: Opener, stub_site: Any) -> None:
    page = open_page(stub_page, stub_site, "en/", viewport={"width": 360, "height": 780})
    start(page)
    page.locator(TABLE).evaluate("el => el.scrollIntoView({block: 'start', behavior: 'instant'})")
    for selector in (f"{TABLE} .dht-status", f"{BOARD} .dht-cards", f'{BOARD} [data-action="throw"]'):
        assert in_viewport(page, selector), selector
    # a refusal shows where the reader looks: on screen, next to the hand and the controls
    highest_card(page).click()
    click(page, page.locator(f'{BOARD} [data-action="throw"]'))
    assert status(page) == IllegalAction("must-take-first").text("en")
    box = page.locator(f"{TABLE} .dht-status").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 780
    assert in_viewport(page, f"{BOARD} .dht-cards")
