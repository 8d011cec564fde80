"""The trainer at the table in Chromium, against the stand-in runtime (this process's engine):
the Hint shows the expert's move in one line, "Why?" beside it the reasons behind it, and leaves
the address alone, at the start of a turn and after its first move; a finished deal's Review marks the reader's mistakes, steps by pointer and
keyboard, and plays from any step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dhumbal.table import web
from dhumbal.view.suggest import suggest
from tests.axescan import axe_here
from tests.table.tabledriver import BOARD, TABLE, answers, click, play_deal, start, status, table_hash, tap, ui_move, wait_answer

Opener = Callable[..., tuple[Any, Any]]
PHONE = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True}


def _session() -> web.Session:
    return web.table("dh-table").playing()


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_hint_shows_the_expert_s_move_and_leaves_the_address_alone(stub_page: Opener, stub_site: Any,
                                                                      lang: str) -> None:
    page, _ = stub_page()
    page.goto(stub_site.url(f"{lang}/"))
    start(page)
    hint = page.locator(f'{BOARD} [data-op="hint"]')
    click(page, page.locator(f'{BOARD} [data-action="take stock"]'))  # a move first, so the address holds a game
    while page.locator(f'{BOARD}[data-your-turn="true"][data-phase="start"]').count() == 0:
        page.locator(f"{BOARD} .dht-card[aria-pressed]").first.click()  # marked here, not sent
        click(page, page.locator(f'{BOARD} [data-action="throw"]'))
    address = table_hash(page)
    deal = _session().deal
    assert deal is not None
    expected = suggest(deal.profile, deal.public_view(deal.turn), lang)
    click(page, hint)
    assert status(page) == expected.line, (status(page), expected)
    assert table_hash(page) == address
    assert hint.get_attribute("aria-pressed") == "true"
    # "Why?" beside the line, a finger wide, by keyboard: the reasons behind it, the engine's, in the
    # page's language; Escape puts them away (not the table), pressed again they come back
    why, box = page.locator(f"{BOARD} [data-dht-why]"), page.locator(f"{BOARD} .dht-whybox")
    size = why.bounding_box()
    assert size is not None and size["width"] >= 44 and size["height"] >= 44 and box.is_hidden()
    why.focus()
    page.keyboard.press("Enter")
    assert box.is_visible() and why.get_attribute("aria-expanded") == "true"
    assert box.locator("p").all_inner_texts() == list(expected.why) and expected.why
    assert status(page) == expected.line  # the line stays as it was
    page.keyboard.press("Escape")
    assert box.is_hidden() and why.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.matches('[data-dht-why]')")
    why.click()  # (no request: the reasons came with the Hint's answer)
    assert box.is_visible()
    if lang == "ne":
        assert axe_here(page, TABLE) == []
    click(page, hint)  # the Hint put away: its Why with it
    assert page.locator(f"{BOARD} [data-dht-why]").count() == 0 and expected.line not in status(page)


@pytest.mark.parametrize("lang", ["en", "fr"])  # nepali-games draws first, dashain throws first
def test_after_the_turn_s_first_move_the_hint_says_how_to_finish_it(stub_page: Opener, stub_site: Any,
                                                                    lang: str) -> None:
    page, _ = stub_page(**PHONE)
    page.goto(stub_site.url(f"{lang}/"))
    start(page)
    mid = '[data-your-turn="true"][data-phase="throw"], [data-your-turn="true"][data-phase="take"]'
    board = page.locator(BOARD)
    while not board.evaluate("(b, sel) => sel.split(', ').some(s => b.matches(s))", mid):
        ui_move(page, touch=True)
    deal = _session().deal
    assert deal is not None
    hint = page.locator(f'{BOARD} [data-op="hint"]')
    assert hint.get_attribute("aria-pressed") == "false" and hint.get_attribute("aria-disabled") is None
    cards = page.locator(f"{BOARD} .dht-card[aria-pressed]")
    if deal.phase == "throw":  # a card marked before asking stays marked
        cards.first.tap()
        assert cards.first.get_attribute("aria-pressed") == "true"
    address = table_hash(page)
    expected = suggest(deal.profile, deal.public_view(deal.turn), lang)
    tap(page, hint)
    assert status(page) == expected.line
    assert hint.get_attribute("aria-pressed") == "true" and table_hash(page) == address
    assert expected.action.kind == ("throw" if deal.phase == "throw" else "take")
    if deal.phase == "throw":
        assert cards.first.get_attribute("aria-pressed") == "true"
    tap(page, hint)  # pressed again: hidden, and the turn goes on
    assert hint.get_attribute("aria-pressed") == "false" and expected.line not in status(page)
    if deal.phase == "throw":
        cards.first.tap()  # unmarked: the reader's policy marks its own card
    ui_move(page, touch=True)
    assert table_hash(page) != address  # the turn finished by the reader's own move


def test_review_marks_the_moves_that_were_mistakes(stub_page: Opener, stub_site: Any) -> None:
    page, _ = stub_page(**PHONE)
    page.goto(stub_site.url("en/"))
    start(page)
    moves = play_deal(page, how="touch")
    address = table_hash(page)
    review = page.locator(f"{BOARD} .dht-review-btn")
    assert review.is_visible()
    box = review.bounding_box()
    assert box is not None and box["height"] >= 44
    before = answers(page)
    review.tap()
    wait_answer(page, before)
    page.wait_for_selector(f"{BOARD} .dht-review")
    assert table_hash(page) == address  # reviewing is not a move
    steps = web.table("dh-table").review.steps
    assert len(steps) == moves
    chips = page.locator(f"{BOARD} [data-review-step]")
    assert chips.count() == len(steps)
    marked = [int(n) for n in page.locator(f"{BOARD} .dht-review__chip--differs").evaluate_all(
        "els => els.map(e => e.dataset.reviewStep)")]
    assert marked == [s.number for s in steps if s.mistake]
    # one step shown at a time: the first mistake
    shown = page.locator(f"{BOARD} [data-review-panel]:not([hidden])")
    assert shown.count() == 1
    first = marked[0] if marked else 1
    assert shown.get_attribute("data-review-panel") == str(first)
    assert page.evaluate("document.activeElement.classList.contains('dht-review__title')")
    for i in range(chips.count()):
        b = chips.nth(i).bounding_box()
        assert b is not None and b["width"] >= 44 and b["height"] >= 44
    # a step chosen by touch
    chips.nth(len(steps) - 1).tap()
    assert shown.get_attribute("data-review-panel") == str(len(steps))
    assert chips.nth(len(steps) - 1).get_attribute("aria-current") == "step"
    text = shown.inner_text()
    if steps[-1].differs:
        assert "Estimated cost" in text or "as well as the expert" in text or "not a mistake" in text
    else:
        assert "same move" in text
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert axe_here(page, TABLE) == []  # no serious accessibility violation with the review open


def test_review_by_keyboard_and_play_from_a_step(stub_page: Opener, stub_site: Any) -> None:
    page, _ = stub_page()
    page.goto(stub_site.url("en/"))
    start(page)
    play_deal(page, how="keyboard")
    review = page.locator(f"{BOARD} .dht-review-btn")
    review.focus()
    before = answers(page)
    page.keyboard.press("Enter")
    wait_answer(page, before)
    page.wait_for_selector(f"{BOARD} .dht-review")
    steps = web.table("dh-table").review.steps
    chips = page.locator(f"{BOARD} [data-review-step]")
    chips.first.focus()
    page.keyboard.press("Enter")
    shown = page.locator(f"{BOARD} [data-review-panel]:not([hidden])")
    assert shown.get_attribute("data-review-panel") == "1"
    page.keyboard.press("ArrowRight")
    assert shown.get_attribute("data-review-panel") == "2"
    assert page.evaluate("document.activeElement.dataset.reviewStep") == "2"
    nxt = shown.locator("[data-review-go='1']")
    nxt.focus()
    page.keyboard.press("Enter")
    assert shown.get_attribute("data-review-panel") == "3"
    # Play from here: the position before move 3, on the table, the reader on turn
    play = shown.locator("[data-review-play]")
    play.focus()
    before = answers(page)
    page.keyboard.press("Enter")
    wait_answer(page, before)
    assert page.locator(f'{BOARD}[data-over="false"][data-your-turn="true"]').count() == 1
    deal = _session().deal
    assert deal is not None
    want = steps[2].before
    assert sorted(deal.hands[deal.turn]) == sorted(want.hands[want.turn])
    assert page.locator(f"{TABLE} .dht-review").count() == 0


# -- with the real runtime: the review worked out by the engine in the worker (Pyodide) -----------


def test_the_review_is_worked_out_in_the_worker(site_page: Opener, real_site: Any) -> None:
    page, _ = site_page()
    page.goto(real_site.server.url("rules/dashain/"))
    start(page)
    hint = page.locator(f'{BOARD} [data-op="hint"]')
    if hint.count() and hint.get_attribute("aria-disabled") is None and not hint.is_disabled():
        click(page, hint)
        assert "The expert's move: " in status(page)
    moves = play_deal(page)
    before = answers(page)
    page.locator(f"{BOARD} .dht-review-btn").click()
    wait_answer(page, before)
    page.wait_for_selector(f"{BOARD} .dht-review")
    chips = page.locator(f"{BOARD} [data-review-step]")
    assert chips.count() == moves
    summary = page.locator(f"{BOARD} .dht-review__summary").inner_text()
    mistakes = page.locator(f"{BOARD} .dht-review__chip--differs").count()
    if moves == 1:
        assert summary.startswith("Your only move")
    else:
        assert (f"{mistakes} of your {moves} moves cost you points" in summary) if mistakes else (
            summary.startswith(f"None of your {moves} moves was a mistake"))
    assert page.locator(f"{BOARD} [data-review-panel]:not([hidden])").count() == 1
