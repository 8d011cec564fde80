"""The table as a new reader meets it on a phone and a desktop (issue 49's defects).

Each test holds one defect found by trying the table as a new user would, at
360 x 780 by touch and at 1366 x 900 (../shared/reviews/phone-5.md):

- Escape while the first-run guide is open puts the guide away (remembered),
  not the whole table; Play puts the reader into the guide;
- on a desktop the guide does not lie over the stock or the pile: the first
  move the status line asks for can be made there, and puts the guide away;
- a Hint at the start of a turn is said whole on a phone's full table: its
  line in the status line, its reasons and odds behind "Why?", not cut behind
  a shade;
- a table restored by a reload is full screen again when it was;
- the line above the hand says what the marked cards are worth, the same
  number as Throw, in the full table too, and nothing on it moves;
- "Keep my game", asked before a new game over the saved one, continues it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.table.tabledriver import BOARD, DESKTOP, PHONE, TABLE, press, start, status, table_hash, ui_move, wait_ready

Opener = Callable[..., Any]
GUIDE = f"{TABLE} [data-dht-guide]"
ASK = f"{TABLE} dialog.dht-ask"


def url(real_site: Any, path: str) -> str:
    return str(real_site.server.url(path))


def play(page: Any, touch: bool) -> None:
    button = page.locator(f"{TABLE} [data-dht-play]")
    button.scroll_into_view_if_needed()
    button.tap() if touch else button.click()
    wait_ready(page)


def overlaps(page: Any, a: str, b: str) -> bool:
    return bool(page.evaluate("""([a, b]) => {
      const r = document.querySelector(a).getBoundingClientRect();
      return [...document.querySelectorAll(b)].some((el) => { const s = el.getBoundingClientRect();
        return s.width && s.left < r.right && s.right > r.left && s.top < r.bottom && s.bottom > r.top; });
    }""", [a, b]))


# -- the first-run guide ------------------------------------------------------------------------


def test_escape_puts_the_guide_away_not_the_table_and_play_puts_the_reader_in_it(
        phone_page: Opener, real_site: Any) -> None:
    page = phone_page(PHONE, fresh=True, guide=True)
    page.goto(url(real_site, "rules/nepali-games/"))
    play(page, touch=True)
    guide = page.locator(GUIDE)
    assert guide.is_visible()
    # Play carried the reader into the guide: its Got it has the focus
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('[data-dht-guide-done]')")
    page.keyboard.press("Escape")
    assert guide.is_hidden()
    # the full table stays open, and the guide is remembered
    assert page.evaluate("document.querySelector('#dh-table').classList.contains('dh-table--full')")
    assert page.evaluate("localStorage.getItem('dhumbal:guide')") == "seen"
    page.reload()
    if page.locator(TABLE).get_attribute("data-state") == "static":
        play(page, touch=True)
    wait_ready(page)
    assert guide.is_hidden()


def test_on_a_desktop_the_guide_leaves_the_stock_and_the_pile_free_for_the_first_move(
        phone_page: Opener, real_site: Any) -> None:
    page = phone_page(DESKTOP, fresh=True, guide=True)
    page.goto(url(real_site, "rules/nepali-games/"))
    play(page, touch=False)
    assert page.locator(GUIDE).is_visible()
    # nothing the first move needs is under it: the stock, the pile, the hand, the controls
    for covered in (f"{BOARD} .dht-stack", f"{BOARD} .dht-pile", f"{BOARD} .dht-me .dht-card",
                    f"{BOARD} .dht-actions .dht-btn"):
        assert not overlaps(page, GUIDE, covered), covered
    # the move the status line asks for is made where it is, and puts the guide away
    assert "stock" in status(page)
    press(page, f'{BOARD} [data-action="take stock"]')
    assert page.locator(GUIDE).is_hidden()


# -- the status line -----------------------------------------------------------------------------


#: A phone 915 px tall (its status line has five lines, the 780 px one's three: see table-place.css).
TALL_PHONE = {**PHONE, "viewport": {"width": 412, "height": 915}}


@pytest.mark.parametrize(("screen", "lang"), [(TALL_PHONE, "en"), (PHONE, "fr")], ids=["tall-en", "phone-fr"])
def test_a_hint_is_said_whole_in_the_full_table_of_a_phone(
        phone_page: Opener, real_site: Any, screen: dict[str, Any], lang: str) -> None:
    """Issue 49 D5: the hint's line whole in the status line, the reasons and odds behind it whole behind
    "Why?" (they were cut behind a shade: a hint with its odds, about 370 characters, needed eight lines)."""
    page = phone_page(screen)
    page.goto(url(real_site, ("" if lang == "en" else f"{lang}/") + "rules/nepali-games/"))
    # (a deal whose hint's line is among the longest: take from the stock, then most likely throw a pair)
    page.locator(TABLE).evaluate("(t) => t.setAttribute('data-seed', 'fit0')")
    play(page, touch=True)
    press(page, f"{BOARD} [data-op=hint]", touch=True)
    said = page.evaluate("(() => { const s = document.querySelector('#dh-table .dht-status');"
                         " return {text: s.textContent, fits: s.scrollHeight <= s.clientHeight + 1}; })()")
    assert said["text"] and said["fits"], f"the status line cuts the hint: {said['text']}"
    page.locator(f"{BOARD} [data-dht-why]").tap()
    why = page.evaluate("""(() => { const b = document.querySelector('#dh-table .dht-whybox');
      const r = b.getBoundingClientRect();
      return {text: b.textContent, fits: b.scrollHeight <= b.clientHeight + 1,
              seen: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth}; })()""")
    assert len(said["text"] + why["text"]) > 100, why  # the hint and its reasons: a long one
    assert why["fits"] and why["seen"], f"the reasons are cut: {why}"


# -- the full table through a reload --------------------------------------------------------------


@pytest.mark.parametrize("moved", [True, False], ids=["after-a-move", "before-any-move"])
def test_a_table_restored_by_a_reload_is_full_screen_again(phone_page: Opener, real_site: Any, moved: bool) -> None:
    """D9: after a move (the game in the address) and before any (the deal Play dealt, kept
    for the full table only: still not in the address, nor saved, until the reader moves)."""
    page = phone_page(PHONE, fresh=True)
    page.goto(url(real_site, "rules/dashain/"))
    play(page, touch=True)
    full = "document.querySelector('#dh-table').classList.contains('dh-table--full')"
    assert page.evaluate(full)
    if moved:
        ui_move(page, touch=True)
    kept = table_hash(page)
    assert bool(kept) == moved
    hand = page.locator(f"{BOARD} .dht-me .dht-cards").get_attribute("data-count"), page.locator(
        f"{BOARD} .dht-me .dht-card").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
    page.reload()
    wait_ready(page)
    assert table_hash(page) == kept
    assert page.evaluate(full), "the restored table is inline, not full screen"
    assert (page.locator(f"{BOARD} .dht-me .dht-cards").get_attribute("data-count"), page.locator(
        f"{BOARD} .dht-me .dht-card").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")) == hand
    if not moved:
        # the same deal, not played yet: nothing saved, nothing in the address, until a move
        assert page.evaluate("localStorage.getItem('dhumbal:last-game')") is None
        ui_move(page, touch=True)
        kept = table_hash(page)
        assert kept
    # and Back still closes it, the game in the address
    page.go_back()
    page.wait_for_function(f"() => !({full})")
    assert table_hash(page) == kept


# -- what the marked cards are worth --------------------------------------------------------------


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_line_above_the_hand_says_what_the_marked_cards_are_worth_and_stays_still(
        phone_page: Opener, real_site: Any, screen: dict[str, Any]) -> None:
    touch = bool(screen.get("has_touch"))
    page = phone_page(screen)
    page.goto(url(real_site, "rules/dashain/"))  # throw first: the reader marks cards at once
    play(page, touch=touch)
    if not page.evaluate("document.querySelector('#dh-table').classList.contains('dh-table--full')"):
        page.locator(f"{TABLE} [data-dht-full]").click()
    line = page.locator(f"{BOARD} .dht-hand__label")
    hand = page.locator(f"{BOARD} .dht-me .dht-cards")
    before = (line.bounding_box(), hand.bounding_box())
    card = page.locator(f"{BOARD} .dht-card[aria-pressed]").first
    card.tap() if touch else card.click()
    marked = page.locator(f"{BOARD} .dht-hand__marked")
    assert marked.is_visible()
    value = card.get_attribute("data-value")
    throw = page.locator(f'{BOARD} [data-action="throw"]').inner_text()
    assert value and value in marked.inner_text() and value in throw
    assert (line.bounding_box(), hand.bounding_box()) == before, "the line or the hand moved"


# -- Keep my game ---------------------------------------------------------------------------------


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_keep_my_game_continues_the_saved_game(stub_page: Opener, stub_site: Any, screen: dict[str, Any]) -> None:
    touch = bool(screen.get("has_touch"))
    page, _ = stub_page(**screen)
    page.goto(stub_site.url("en/"))
    start(page)
    for _ in range(2):
        ui_move(page)
    kept = table_hash(page)
    hand = page.locator(f"{BOARD} .dht-cards").inner_html()
    other = page.context.new_page()
    other.goto(stub_site.url("en/"))
    new_game = other.locator(f"{TABLE} [data-dht-play]")
    new_game.tap() if touch else new_game.click()
    other.locator(ASK).wait_for(state="visible")
    keep = other.locator(f'{ASK} [data-dht-ask="keep"]')
    keep.tap() if touch else keep.click()
    other.locator(ASK).wait_for(state="hidden")
    wait_ready(other)
    assert table_hash(other) == kept
    assert other.locator(f"{BOARD} .dht-cards").inner_html() == hand
