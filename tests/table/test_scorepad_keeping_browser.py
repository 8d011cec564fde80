"""The score pad keeps what a table typed (issue 52, part 0), on the real built pages.

Each test here failed on the pad before issue 52: a long match wiped on the next
load (the engine's HTML and CSV were kept, and a kept value over 400,000
characters was read as damaged, then an empty pad saved over it); Undo while a
deal was open for changing (the pad stopped on every load); undoing deal 2
while deal 3 was being changed (the change then wrote over what had been deal
4); tampered parts of the kept state (the pad stopped); two tabs (the stale one
saved over a deal the other had settled); an error answer (the whole sheet
reset). The engine answers from this test process, as in test_scorepad_browser.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from dhumbal.table import web
from tests.table.test_scorepad_browser import DESKTOP, PAD, PHONE, Opener, Pad, deal, numbers, pad_page, status, url, warm_pad

__all__ = ["pad_page", "warm_pad"]  # the fixtures, shared with test_scorepad_browser.py

KEY = "dhumbal-scorepad"
NE_NAMES = ["आशा", "विकास", "चन्द्रा", "दीपा", "इन्दिरा", "गीता"]


def long_sheet(deals: int) -> dict[str, Any]:
    """A Dashain match of six, `deals` deals long: each caller wins on 2."""
    return {"v": 1, "profile": "dashain", "names": NE_NAMES, "dealer": 0, "end": False,
            "deals": [{"c": k % 6, "h": [2 if i == k % 6 else 10 + (i * 7 + k) % 30 for i in range(6)]}
                      for k in range(deals)]}


def kept(page: Any) -> Any:
    return json.loads(page.evaluate(f"localStorage.getItem('{KEY}')"))


def keep(page: Any, value: Any) -> None:
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, value if isinstance(value, str) else json.dumps(value)])


def three_deals(page: Any, real_site: Any, count: int = 3) -> Pad:
    """A Nepali Games match of three players, `count` of its three deals typed."""
    page.goto(url(real_site, "en"))
    pad = Pad(page, "en", False)
    pad.set_up()
    for n, (caller, hands) in enumerate([(1, [7, 4, 4]), (0, [3, 9, 12]), (None, [6, 6, 15])][:count], start=1):
        pad.type_deal(caller, hands)
        pad.settle(n)
    return pad


@pytest.mark.parametrize("lang", ["ne", "en"])
def test_300_deals_of_six_survive_a_reload_and_no_html_is_kept(pad_page: Opener, real_site: Any, lang: str) -> None:
    page = pad_page(PHONE)
    page.goto(url(real_site, lang))
    keep(page, {"v": 1, "sheet": long_sheet(299), "setup": None, "view": None, "pending": None, "draft": None})
    page.reload()
    page.wait_for_selector(f"{deal(299)}")
    pad = Pad(page, lang, False)
    pad.type_deal(0, [2, 30, 30, 30, 30, 30])
    pad.settle(300)
    text = page.evaluate(f"localStorage.getItem('{KEY}')")
    assert "<" not in text and "csv" not in text and len(text) < 40_000, len(text)
    assert len(kept(page)["sheet"]["deals"]) == 300
    page.reload()
    page.wait_for_selector(f"{deal(300)}")
    assert len(kept(page)["sheet"]["deals"]) == 300
    assert page.locator(f"{PAD} [data-pad-status]").get_attribute("role") != "alert"


def test_an_old_kept_state_over_400000_characters_is_read(pad_page: Opener, real_site: Any) -> None:
    """A sheet kept by the pad before issue 52 (format 1, with the engine's whole answer) is taken up, not wiped."""
    page = pad_page(DESKTOP)
    page.goto(url(real_site, "ne"))
    sheet = long_sheet(150)
    res = json.loads(web.handle(json.dumps({"op": "scorepad", "lang": "ne", "sheet": sheet})))
    view = {"lang": "ne", "parts": res["parts"], "next": res["next"], "over": False, "overByRules": False,
            "names": NE_NAMES, "csv": res["csv"], "deals": 150}
    old = json.dumps({"v": 1, "sheet": sheet, "setup": None, "view": view, "pending": None, "draft": None})
    assert len(old) > 400_000
    keep(page, old)
    page.reload()
    page.wait_for_selector(f"{deal(150)}")
    assert kept(page)["sheet"] == sheet
    assert "<" not in page.evaluate(f"localStorage.getItem('{KEY}')")


def test_undo_of_the_deal_being_changed_and_of_one_before_it(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(DESKTOP)
    three_deals(page, real_site)
    before = kept(page)["sheet"]["deals"]
    # Deal 3 open for changing, then deal 3 removed: the change is gone, the next deal's form is there.
    page.locator(f"{deal(3)} [data-pad-edit='3']").click()
    page.wait_for_selector(f"{PAD} .dhp-editing")
    page.locator(f"{deal(3)} [data-pad-undo='3']").click()
    page.locator(f"{PAD} [data-pad-ask] button").first.click()
    page.wait_for_function("() => !document.querySelector('[data-deal=\"3\"]')")
    assert page.locator(f"{PAD} .dhp-editing").count() == 0
    assert page.locator(f"{PAD} .dhp-entry__title").inner_text().startswith("Deal 3 ·")
    page.reload()
    page.wait_for_selector(f"{PAD} [data-pad-entry] [data-caller]")
    assert kept(page)["sheet"]["deals"] == before[:2]
    assert kept(page)["draft"] is None or kept(page)["draft"]["editing"] == 0
    # Deal 2 changed while deal 1 is removed: the change follows its deal, now deal 1, and no other is written over.
    page.locator(f"{deal(2)} summary").click() if not page.locator(f"{deal(2)}[open]").count() else None
    page.locator(f"{deal(2)} [data-pad-edit='2']").click()
    page.wait_for_selector(f"{PAD} .dhp-editing")
    page.locator(f"{PAD} [data-hand='1']").fill("8")
    page.locator(f"{deal(1)} summary").click() if not page.locator(f"{deal(1)}[open]").count() else None
    page.locator(f"{deal(1)} [data-pad-undo='1']").click()
    page.locator(f"{PAD} [data-pad-ask] button").first.click()
    page.wait_for_function("() => !document.querySelector('[data-deal=\"2\"]')")
    assert "1" in page.locator(f"{PAD} .dhp-editing").inner_text()
    page.locator(f"{PAD} .dhp-settle").click()
    page.wait_for_function("() => !document.querySelector('.dhp-editing')")
    assert kept(page)["sheet"]["deals"] == [{"c": 0, "h": [3, 8, 12]}]


TAMPERED = [
    {"draft": {"editing": 9, "caller": 0, "hands": ["1", "2", "3"]}},
    {"draft": {"editing": 1, "caller": 0, "hands": ["1", "2", "3"]}},  # a change with no deal it began on
    {"draft": {"editing": 0, "caller": 7, "hands": ["1"]}},
    {"draft": {"editing": 0, "caller": 0, "hands": [1, 2, {"x": 1}]}},
    {"draft": "x"},
    {"pending": {"kind": "edit", "index": 40, "c": 0, "h": [1, 2, 3]}},
    {"pending": {"kind": "drop"}},
    {"facts": {"of": "x", "next": None, "over": True, "overByRules": True, "deals": 3}},
    {"view": {"lang": "en", "parts": {"head": "<img src=x onerror=alert(1)>"}, "next": {"number": -1}}},
    {"setup": {"profile": 5}},
]


def test_tampered_parts_are_dropped_alone_and_the_pad_goes_on(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(DESKTOP)
    three_deals(page, real_site, 2)
    good = kept(page)
    for bad in TAMPERED:
        keep(page, {**good, **bad})
        page.reload()
        page.wait_for_selector(f"{deal(2)}")
        assert page.locator(f"{PAD} [data-pad-entry] [data-caller]").count() > 0, bad
        assert page.locator(f"{PAD} img").count() == 0
        assert kept(page)["sheet"]["deals"] == good["sheet"]["deals"], bad
        if "view" not in bad and "facts" not in bad:
            assert "could not be read" in status(page), bad


def test_an_unreadable_sheet_is_set_aside_not_written_over(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(DESKTOP)
    page.goto(url(real_site, "en"))
    keep(page, '{"v": 1, "sheet": {"v": 1, "names": 3}}')
    page.reload()
    page.wait_for_function("() => document.querySelector('[data-pad-status]').textContent.includes('set aside')")
    assert page.evaluate("localStorage.getItem('dhumbal-scorepad-damaged')") == '{"v": 1, "sheet": {"v": 1, "names": 3}}'


def test_an_error_answer_keeps_the_sheet(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(DESKTOP)
    page.goto(url(real_site, "en"))
    refused = {"v": 1, "profile": "nepali-games", "names": ["A", "B"], "dealer": 0, "deals": [{"c": 0, "h": [40, 3]}],
               "end": False}  # well formed, but the engine settles no call over the limit
    keep(page, {"v": 2, "sheet": refused, "setup": None, "pending": None, "draft": None, "facts": None})
    page.reload()
    page.wait_for_function("() => document.querySelector('[data-pad-status]').textContent.includes('kept as it was')")
    assert kept(page)["sheet"] == refused


def test_two_tabs_stay_in_step_and_no_deal_is_lost(pad_page: Opener, real_site: Any) -> None:
    a = pad_page(DESKTOP)
    pad = three_deals(a, real_site, 2)
    b = a.context.new_page()
    b.goto(url(real_site, "en"))
    b.wait_for_selector(f"{deal(2)}")
    b.locator(f"{PAD} [data-caller='0']").click()
    # Tab A settles deal 3; tab B, stale, then types: deal 3 stays, and B shows it.
    pad.type_deal(None, [6, 6, 15])
    pad.settle(3)
    assert len(kept(a)["sheet"]["deals"]) == 3
    b.evaluate("document.querySelector('[data-hand=\"0\"]')?.dispatchEvent(new Event('input', {bubbles: true}))")
    b.wait_for_selector(f"{deal(3)}")
    assert len(kept(a)["sheet"]["deals"]) == 3
    # (B took up A's change as it was sent, and settled it too: one deal 3, said either way)
    assert "another tab" in status(b) or "Deal 3 is settled" in status(b)
    assert numbers(a, f"{PAD} [data-pad-totals]", "total") == numbers(b, f"{PAD} [data-pad-totals]", "total")
    # Tab B removes deal 3: A takes that up too.
    b.locator(f"{deal(3)} [data-pad-undo='3']").click()
    b.locator(f"{PAD} [data-pad-ask] button").first.click()
    a.wait_for_function("() => !document.querySelector('[data-deal=\"3\"]')")
    assert len(kept(b)["sheet"]["deals"]) == 2
    assert a.locator(f"{PAD} [data-pad-entry] [data-caller]").count() > 0
    # Tab C, whose engine never starts, settles deal 3 and is closed before any answer: the change
    # was kept the moment it was sent, and B, still open, takes it up and settles it (keep.ts).
    c = a.context.new_page()
    c.add_init_script("window.__stubHold = true;")
    c.goto(url(real_site, "en"))
    c.wait_for_selector(f"{PAD} [data-pad-entry] [data-hand='2']")
    held = Pad(c, "en", False)
    held.type_deal(None, [6, 6, 15])
    held.press(f"{PAD} .dhp-settle")
    c.wait_for_selector(f"{PAD}[data-busy='true']")  # sent, its engine held: never answered here
    c.close()
    b.wait_for_selector(f"{deal(3)}", timeout=30_000)
    assert len(kept(b)["sheet"]["deals"]) == 3 and kept(b)["pending"] is None
    a.wait_for_selector(f"{deal(3)}")
    assert numbers(a, deal(3), "paid") == {0: "21", 1: "-6", 2: "-15"}
