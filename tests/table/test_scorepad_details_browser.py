"""Small things a table met at the score pad (issue 52, L2 and L11), on the real built pages.

While a deal is being changed, Material's "Back to top" pill never lies over
the entry's Cancel (it is not drawn at all then); the undo question's safe
answer, focused, is not filled with the alarm colour.
"""

from __future__ import annotations

from typing import Any

from tests.table.test_scorepad_browser import PAD, PHONE, Opener, Pad, deal, pad_page, url, warm_pad

__all__ = ["pad_page", "warm_pad"]  # the fixtures, shared with test_scorepad_browser.py


def two_deals(page: Any, real_site: Any) -> Pad:
    page.goto(url(real_site, "en"))
    pad = Pad(page, "en", True)
    pad.set_up()
    for n, (caller, hands) in enumerate([(1, [7, 4, 4]), (0, [3, 9, 12])], start=1):
        pad.type_deal(caller, hands)
        pad.settle(n)
    return pad


def test_back_to_top_is_not_drawn_over_cancel_while_a_deal_is_changed(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(PHONE)
    pad = two_deals(page, real_site)
    pad.press(f"{deal(1)} summary")
    pad.press(f"{deal(1)} [data-pad-edit='1']")
    page.wait_for_selector(f"{PAD} .dhp-editing")
    page.evaluate("document.querySelector('.md-top')?.removeAttribute('hidden')")  # as Material shows it on a scroll up
    assert page.evaluate("getComputedStyle(document.querySelector('.md-top')).display") == "none"
    hit = page.evaluate("""() => {
      const b = document.querySelector('[data-pad-cancel]').getBoundingClientRect();
      const el = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      return !!el && !!el.closest('[data-pad-cancel]');
    }""")
    assert hit
    pad.press(f"{PAD} [data-pad-cancel]")
    page.wait_for_function("() => !document.querySelector('.dhp-editing')")
    assert page.evaluate("getComputedStyle(document.querySelector('.md-top')).display") != "none"


def test_the_safe_answer_is_not_drawn_in_the_alarm_colour(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(PHONE)
    two_deals(page, real_site)
    page.locator(f"{deal(2)} [data-pad-undo='2']").click()
    keep = page.locator(f"{PAD} [data-pad-ask] button").last
    page.wait_for_function("() => document.activeElement?.closest('[data-pad-ask]')")
    assert keep.evaluate("b => b === document.activeElement")
    assert keep.evaluate("b => getComputedStyle(b).backgroundColor") in ("rgba(0, 0, 0, 0)", "transparent")
    remove = page.locator(f"{PAD} [data-pad-ask] button").first
    assert remove.evaluate("b => getComputedStyle(b).backgroundColor") not in ("rgba(0, 0, 0, 0)", "transparent")
