"""Driving the mini table in a browser page, the way a reader does.

Only the rendered page is used: buttons, their ``aria-*`` and ``data-*``
attributes, and the URL hash. The policy is deliberately simple: call when
the Call button is allowed and the hand is 5 or less; take from the stock
when it is time to take; otherwise mark the highest card and throw it.
"""

from __future__ import annotations

from typing import Any

from tablekit import score_rows

TABLE = "#dh-table"
BOARD = "#dh-table .dht-play-area"


def answers(page: Any) -> int:
    return int(page.locator(TABLE).get_attribute("data-answers") or 0)


def wait_answer(page: Any, before: int) -> None:
    """Wait for the next answer, and for the bots' moves it brings to finish playing."""
    page.wait_for_function(
        "n => { const t = document.querySelector('#dh-table');"
        " return +(t.dataset.answers || 0) > n && !t.hasAttribute('data-busy'); }", arg=before
    )


def wait_ready(page: Any) -> None:
    page.wait_for_selector(f'{TABLE}[data-state="ready"][data-answers]')


def press_play(page: Any) -> None:
    """Click Play, unless the pointer reaching the table already started it and Play has gone."""
    play = page.locator(f"{TABLE} [data-dht-play]")
    if page.locator(TABLE).get_attribute("data-state") == "static" and play.is_visible():
        try:
            play.click(timeout=5000)
        except Exception:
            assert page.locator(TABLE).get_attribute("data-state") != "static"


def start(page: Any) -> None:
    """Press Play and wait for the live table."""
    press_play(page)
    wait_ready(page)


def click(page: Any, locator: Any) -> None:
    """Click and wait for the engine's answer. A control marked aria-disabled
    can still be clicked (the engine then says why it is not allowed), which
    Playwright only does when forced."""
    before = answers(page)
    locator.click(force=locator.get_attribute("aria-disabled") == "true")
    wait_answer(page, before)


def board_attr(page: Any, name: str) -> str | None:
    value = page.locator(BOARD).get_attribute(name)
    return None if value is None else str(value)


def is_over(page: Any) -> bool:
    return board_attr(page, "data-over") == "true"


def highest_card(page: Any) -> Any:
    cards = page.locator(f"{BOARD} .dht-card[aria-pressed]")
    values = [int(v) for v in cards.evaluate_all("els => els.map(e => e.dataset.value)")]
    return cards.nth(values.index(max(values)))


def tap(page: Any, locator: Any) -> None:
    """A touch on a control, waiting for the engine's answer."""
    before = answers(page)
    locator.tap(force=locator.get_attribute("aria-disabled") == "true")
    wait_answer(page, before)


def wants(page: Any) -> str:
    """What the reader's simple policy does now: "call", "take" or "throw"."""
    call = page.locator(f'{BOARD} [data-action="call"]')
    total = page.locator(f"{BOARD} .dht-hand__total")
    if call.count() and call.get_attribute("aria-disabled") is None and int(total.get_attribute("data-total")) <= 5:
        return "call"
    phase = board_attr(page, "data-phase")
    draw_first = board_attr(page, "data-profile-key") == "nepali-games"
    if (draw_first and phase == "start") or (not draw_first and phase == "take"):
        return "take"
    return "throw"


def ui_move(page: Any, *, touch: bool = False) -> str:
    """One reader action through the interface (by mouse, or by touch); returns which."""
    press = tap if touch else click
    move = wants(page)
    if move == "call":
        press(page, page.locator(f'{BOARD} [data-action="call"]'))
    elif move == "take":
        press(page, page.locator(f'{BOARD} [data-action="take stock"]'))
    else:
        card = highest_card(page)
        card.tap() if touch else card.click()
        assert card.get_attribute("aria-pressed") == "true"
        throw = page.locator(f'{BOARD} [data-action="throw"]')
        assert throw.get_attribute("aria-disabled") is None, "a single card is always a legal throw"
        press(page, throw)
    return move


def focused(page: Any, js: str) -> bool:
    return bool(page.evaluate(f"(() => {{ const a = document.activeElement; return !!a && ({js}); }})()"))


def tab_to(page: Any, js: str, limit: int = 60) -> None:
    """Press Tab until the focused element matches ``js`` (``a`` is the element)."""
    for _ in range(limit):
        if focused(page, js):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {js}")


def key_move(page: Any) -> str:
    """One reader action with the keyboard only; returns which."""
    move = wants(page)
    before = answers(page)
    if move == "call":
        tab_to(page, "a.dataset.action === 'call'")
        page.keyboard.press("Enter")
    elif move == "take":
        tab_to(page, "a.dataset.action === 'take stock'")
        page.keyboard.press("Enter")
    else:
        tab_to(page, "a.matches('.dht-card[aria-pressed]')")
        cards = page.locator(f"{BOARD} .dht-card[aria-pressed]")
        values = [int(v) for v in cards.evaluate_all("els => els.map(e => e.dataset.value)")]
        page.keyboard.press("Home")
        for _ in range(values.index(max(values))):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Space")
        assert focused(page, "a.getAttribute('aria-pressed') === 'true'")
        tab_to(page, "a.dataset.action === 'throw'")
        page.keyboard.press("Enter")
    wait_answer(page, before)
    return move


def play_deal(page: Any, limit: int = 800, *, how: str = "mouse") -> int:
    """Play until the deal is over ("mouse", "touch" or "keyboard"); returns the number of reader actions."""
    for n in range(limit):
        if is_over(page):
            return n
        if how == "keyboard":
            key_move(page)
        else:
            ui_move(page, touch=how == "touch")
    raise AssertionError("the deal did not end")


def shown_rows(page: Any) -> dict[str, list[tuple[str, str]]]:
    return score_rows(page.locator(BOARD).evaluate("el => el.outerHTML"))


def table_hash(page: Any) -> str:
    return str(page.evaluate("location.hash")).lstrip("#")


def status(page: Any) -> str:
    return str(page.locator(f"{TABLE} .dht-status").inner_text())


def no_horizontal_overflow(page: Any) -> bool:
    return bool(page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth"
        " && document.body.scrollWidth <= window.innerWidth"
    ))
