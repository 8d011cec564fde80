"""The score pad's set-up corrected mid-match, and input never rewritten (issue 52), on the real built pages.

The review's case: in Nepali Games the dealer breaks ties, so a wrong first
dealer gives the wrong winner. On hands 9, 5, 3, 3 with Sita calling, Hari
wins when Ram dealt, Gita when Hari dealt. The first dealer corrected: every
deal settled again with the dealers that follow; undone: back as it was. A name
changed mid-match. A player joining (undone, then again), playing a deal, and
another leaving, through a reload and a shared link. A name over 24 characters, and a total typed that is not
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


def said(page: Any, text: str) -> None:
    page.wait_for_function("t => document.querySelector('[data-pad-status]').textContent.includes(t)", arg=text)


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

    # A player joins between deals, on Gita's left: at 0, the ledger still zero-sum; undone, then again.
    totals = f"{PAD} [data-pad-totals]"
    page.locator(f"{PAD} [data-pad-seats]").click()
    page.locator("#dhp-join-name").fill("Mina")
    page.locator("#dhp-join-left").select_option("3")
    page.locator(f"{PAD} [data-pad-seats-form] button[type=submit]").click()
    said(page, "Mina joins the table from deal 2, with a total of 0.")
    assert numbers(page, totals, "total") == {0: "-9", 1: "-25", 2: "37", 3: "-3", 4: "0"}
    assert page.locator(f"{PAD} [data-pad-entry] [data-hand='4']").count() == 1
    page.locator(f"{PAD} [data-pad-status] button").click()  # undo this change
    said(page, "taken back")
    assert len(numbers(page, totals, "total")) == 4
    page.locator(f"{PAD} [data-pad-seats]").click()
    page.locator("#dhp-join-name").fill("Mina")
    page.locator("#dhp-join-left").select_option("3")
    page.locator(f"{PAD} [data-pad-seats-form] button[type=submit]").click()
    said(page, "Mina joins")
    # deal 2, Sita deals and calls on 4, lowest: the newcomer pays her hand like the others
    page.locator(f"{PAD} [data-caller='1']").click()
    for seat, total in enumerate([9, 4, 12, 10, 6]):
        page.locator(f"{PAD} [data-hand='{seat}']").fill(str(total))
    page.locator(f"{PAD} .dhp-settle").click()
    page.wait_for_selector(f"{deal(2)}[open]")
    assert numbers(page, deal(2), "paid") == {0: "-9", 1: "37", 2: "-12", 3: "-10", 4: "-6"}
    assert sum(int(v) for v in numbers(page, totals, "total").values()) == 0

    # Ram leaves before deal 3: his total kept, no field for him, Hari deals; kept through a reload.
    page.locator(f"{PAD} [data-pad-seats]").click()
    page.locator("#dhp-leave-who").select_option("0")
    page.locator(f"{PAD} [data-pad-leave]").click()
    said(page, "Ram leaves the table before deal 3")
    page.reload()
    page.wait_for_selector(f"{PAD} [data-pad-entry] [data-caller]")
    # (the entry is drawn at once; the away marks come with the engine's answer, just after)
    page.wait_for_selector(f"{totals} [data-seat='0'] [data-away]")
    assert page.locator(f"{totals} [data-seat='0'] [data-away]").count() == 1
    assert numbers(page, totals, "total")[0] == "-18"
    assert page.locator(f"{PAD} [data-pad-entry] [data-hand='0']").count() == 0
    assert page.locator(f"{PAD} .dhp-entry__title").inner_text().startswith("Deal 3 · Hari deals")
    # ... and through a #pad= link opened on a device without a sheet
    link = page.evaluate("() => JSON.parse(localStorage.getItem('dhumbal-scorepad')).facts.link")
    page.evaluate("() => localStorage.clear()")
    page.goto(url(real_site, "en", "#pad=" + link))
    said(page, "The shared score sheet is open.")
    assert page.locator(f"{totals} [data-seat='0'] [data-away]").count() == 1
    assert page.locator(f"{PAD} [data-pad-entry] [data-hand='0']").count() == 0


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
