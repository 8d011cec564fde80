"""An evening at the score pad (issue 52): who pays whom at a match's end, then the same players play again.

A Nepali Games match of three to its end: the fewest payments are shown
(two, in points); "Play again" starts a match with the same players and rules,
the deal passing on; the evening's totals add the matches up by name, and
stay through a reload; "New match" asks first, naming the evening.
"""

from __future__ import annotations

import json
from typing import Any

from tests.table.test_scorepad_browser import DESKTOP, PAD, Opener, Pad, deal, numbers, pad_page, url, warm_pad

__all__ = ["pad_page", "warm_pad"]  # the fixtures, shared with test_scorepad_browser.py


def test_who_pays_whom_then_play_again_with_the_evening_added_up(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(DESKTOP)
    page.goto(url(real_site, "en"))
    pad = Pad(page, "en", False)
    pad.set_up()
    for n, (caller, hands) in enumerate([(1, [7, 4, 4]), (0, [3, 9, 12]), (None, [6, 6, 15])], start=1):
        pad.type_deal(caller, hands)
        pad.settle(n)
    totals = numbers(page, f"{PAD} [data-pad-totals]", "total")
    assert totals == {0: "35", 1: "-40", 2: "5"}
    pays = page.locator(f"{PAD} .dhp-pays tr[data-payer]")
    assert pays.count() == 2  # Bina owes 40: 35 to Asha, 5 to Chandra
    assert sorted(int(v) for v in page.locator(f"{PAD} .dhp-pays [data-row='pay']").evaluate_all(
        "cells => cells.map(c => c.dataset.value)")) == [5, 35]
    page.locator(f"{PAD} [data-pad-again]").click()
    page.wait_for_function("() => document.querySelector('[data-pad-status]').textContent.includes('same players')")
    assert page.locator(f"{PAD} .dhp-entry__title").inner_text().startswith("Deal 1 · Asha deals")
    assert page.locator(deal(1)).count() == 0
    pad.type_deal(1, [7, 4, 4])
    pad.settle(1)
    evening = f"{PAD} [data-pad-evening]"
    page.wait_for_selector(f"{evening} table")
    assert numbers_by_name(page, evening) == {"Asha": ("2", "28"), "Bina": ("2", "-65"), "Chandra": ("2", "37")}
    page.reload()
    page.wait_for_selector(f"{evening} table")
    assert numbers_by_name(page, evening) == {"Asha": ("2", "28"), "Bina": ("2", "-65"), "Chandra": ("2", "37")}
    assert len(json.loads(page.evaluate("localStorage.getItem('dhumbal-scorepad')"))["evening"]) == 1
    page.locator(f"{PAD} [data-pad-new]").click()
    assert "earlier matches" in page.locator(f"{PAD} [data-pad-ask]").inner_text()


def numbers_by_name(page: Any, scope: str) -> dict[str, tuple[str, str]]:
    rows = page.locator(f"{scope} tbody tr").all()
    return {r.locator(".dhp-name").inner_text(): (r.locator("[data-row='evening-matches']").get_attribute("data-value"),
                                                    r.locator("[data-row='evening-total']").get_attribute("data-value"))
            for r in rows}
