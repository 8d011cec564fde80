"""The score pad's set-up corrected mid-match, and input never rewritten (issue 52), on the real built pages.

The review's case: in Nepali Games the dealer breaks ties, so a wrong first
dealer gives the wrong winner. On hands 9, 5, 3, 3 with Sita calling, Hari
wins when Ram dealt, Gita when Hari dealt. The first dealer corrected: every
deal settled again with the dealers that follow; undone: back as it was. A name
changed mid-match. A name over 24 characters, and a total typed that is not
one (5.5, -5, 12345), get a message and are never cut or rewritten.
"""

from __future__ import annotations

from typing import Any

from tests.table.test_scorepad_browser import (
    DESKTOP,
    PAD,
    PHONE,
    Opener,
    Pad,
    deal,
    names,
    numbers,
    pad_page,
    status,
    url,
    warm_pad,
)

__all__ = ["pad_page", "warm_pad"]  # the fixtures, shared with test_scorepad_browser.py

NAMES = ["Ram", "Sita", "Hari", "Gita"]


def four_players(page: Any, real_site: Any, touch: bool = False) -> Pad:
    page.goto(url(real_site, "en"))
    pad = Pad(page, "en", touch)
    pad.names = NAMES
    page.locator(f"{PAD} #dhp-profile-nepali-games").check()
    names(pad, NAMES)
    page.locator("#dhp-dealer").select_option("0")
    pad.press(f"{PAD} .dhp-setup button[type=submit]")
    page.wait_for_selector(f"{PAD} [data-pad-entry] [data-caller]")
    return pad


def test_the_first_dealer_corrected_settles_every_deal_again_and_can_be_undone(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(DESKTOP)
    pad = four_players(page, real_site)
    pad.type_deal(1, [9, 5, 3, 3])
    pad.settle(1)
    assert numbers(page, deal(1), "paid") == {0: "-9", 1: "-25", 2: "37", 3: "-3"}  # Hari first from Ram's left
    page.locator(f"{PAD} [data-pad-fix]").click()
    page.locator("#dhp-fix-dealer").select_option("2")
    page.locator(f"{PAD} [data-pad-fix-box] button[type=submit]").click()
    page.wait_for_function("() => document.querySelector('[data-pad-status]').textContent.includes('first dealer are changed')")
    assert numbers(page, deal(1), "paid") == {0: "-9", 1: "-25", 2: "-3", 3: "37"}  # now Gita, from Hari's left
    assert page.locator(f"{PAD} .dhp-entry__title").inner_text().startswith("Deal 2 · Gita deals")
    page.locator(f"{PAD} [data-pad-status] button").click()  # undo this change
    page.wait_for_function("() => document.querySelector('[data-pad-entry] .dhp-entry__title')?.textContent.startsWith('Deal 2 · Sita deals')")
    assert numbers(page, deal(1), "paid") == {0: "-9", 1: "-25", 2: "37", 3: "-3"}


def test_a_name_changed_mid_match_and_a_bad_one_refused(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(PHONE)
    pad = four_players(page, real_site, touch=True)
    pad.type_deal(1, [9, 5, 3, 3])
    pad.settle(1)
    pad.press(f"{PAD} [data-pad-fix]")
    page.locator("#dhp-fix-name-1").fill("Gita")  # two players of one name: refused, the sheet unchanged
    pad.press(f"{PAD} [data-pad-fix-box] button[type=submit]")
    page.wait_for_function("() => document.querySelector('[data-pad-status]').textContent.includes('Two players are called')")
    assert page.locator(f"{deal(1)} [data-seat='1'] .dhp-name").first.inner_text() == "Sita"
    pad.press(f"{PAD} [data-pad-fix]")
    page.locator("#dhp-fix-name-1").fill("Sitaram")
    pad.press(f"{PAD} [data-pad-fix-box] button[type=submit]")
    page.wait_for_function("() => document.querySelector('[data-pad-status]').textContent.includes('first dealer are changed')")
    assert "Sitaram" in page.locator(f"{PAD} [data-pad-totals]").inner_text()
    assert numbers(page, deal(1), "paid") == {0: "-9", 1: "-25", 2: "37", 3: "-3"}


def test_a_long_name_and_a_total_that_is_not_one_get_a_message(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(DESKTOP)
    page.goto(url(real_site, "en"))
    pad = Pad(page, "en", False)
    long = "Shree Krishna Prasad Bhattarai"
    names(pad, ["Asha", long])
    pad.press(f"{PAD} .dhp-setup button[type=submit]")
    page.wait_for_function("() => document.querySelector('[data-pad-status]').textContent.includes('longer than 24')")
    assert page.locator("#dhp-name-1").input_value() == long  # never cut
    page.locator("#dhp-name-1").fill("Shree Krishna")
    pad.press(f"{PAD} .dhp-setup button[type=submit]")
    page.wait_for_selector(f"{PAD} [data-pad-entry] [data-caller]")
    field = page.locator(f"{PAD} [data-hand='0']")
    field.fill("7")
    for typed in ("5.5", "-5", "12345"):
        field.fill(typed)
        assert field.input_value() == "7", typed
        assert "is not a hand total" in status(page), typed


def test_six_names_then_rules_for_five_say_the_sixth_is_set_aside(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(PHONE)
    page.goto(url(real_site, "en"))
    pad = Pad(page, "en", True)
    names(pad, ["A", "B", "C", "D", "E", "F"])
    page.locator(f"{PAD} #dhp-profile-cardrulesplus").check()
    assert page.locator("#dhp-name-5").is_hidden()
    assert "at most 5 players" in status(page)
    page.locator(f"{PAD} #dhp-profile-nepali-games").check()
    assert page.locator("#dhp-name-5").is_visible() and page.locator("#dhp-name-5").input_value() == "F"
