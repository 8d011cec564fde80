"""The score pad in the browser (issue 41), on the real built pages.

The pages are the site every suite shares, with the engine answering from this
test process (``stub-runtime.js`` served in place of ``runtime.js`` (browser/entries/runtime.ts), as
in the phone tests): the page side is what is checked here, the engine's own
settlement in tests/engine/test_engine_tally.py and test_engine_scoresheet.py,
and the real worker offline in tests/offline/test_offline_scorepad.py.

At 360 × 780 in English and Nepali and at 1366 × 900: a three-deal match typed
on the number pad (on a phone) or the keyboard, the first deal typed while the
engine is still starting and settled the moment it is ready; a caught caller,
a tie broken from the dealer's left, then deal 1 changed and everything after
it settled again, checked number by number; bad input refused in the engine's
words with the sheet unchanged; a reload keeping the sheet; the standings and
each player's figures at the end; no sideways scroll, every control 44 px, the
number pad at the bottom of the screen and never over the field being typed;
no serious axe violation. Then links (a shared sheet opened, a tampered one
refused with the reader's sheet unchanged) and the CSV export.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from dhumbal.matches.padlink import read_link
from dhumbal.table import web
from tests.axescan import axe_here
from tests.browserkit import LocalPages, WarmContexts, warm_opener, warm_pool
from tests.sitekit import stand_in
from tools.pagemodules import on_page

PHONE = {"viewport": {"width": 360, "height": 780}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}
PAD = "[data-dhumbal-scorepad]"
NAMES = {"en": ["Asha", "Bina", "Chandra"], "ne": ["आशा", "विकास", "चन्द्रा"]}
DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")

Opener = Callable[..., Any]


@pytest.fixture(scope="session")
def warm_pad(chromium: Any, real_site: Any) -> Iterator[WarmContexts]:
    yield from warm_pool(chromium, real_site.server.origin)


@pytest.fixture
def pad_page(chromium: Any, real_site: Any, warm_pad: WarmContexts) -> Iterator[Opener]:
    """Pages of the built site whose engine answers from this process (dhumbal.table.web.handle)."""
    real_site.require()
    origin = real_site.server.origin

    def setup(pages: LocalPages, hold: bool = False, **options: Any) -> tuple[Any, Any]:
        context, watch = pages.context(**options)
        stand_in(context, origin, "stub-runtime")
        context.expose_function("dhumbalHandle", web.handle)
        context.add_init_script("window.__stubDelay = 0;" + ("window.__stubHold = true;" if hold else ""))
        return context, watch

    opener = warm_opener(chromium, origin, warm_pad, setup)
    make = next(opener)

    def page(options: dict[str, Any], **settings: Any) -> Any:
        opened, _ = make(**options, **settings)
        opened.set_default_timeout(30_000)
        return opened

    yield page
    next(opener, None)


def url(real_site: Any, lang: str, tail: str = "") -> str:
    return str(real_site.server.url(("" if lang == "en" else lang + "/") + "scorepad/" + tail))


# -- reading the page -------------------------------------------------------------------------


def numbers(page: Any, scope: str, row: str) -> dict[int, str]:
    """A row of the sheet by seat: the engine's own value (``data-value``) of each cell."""
    cells = page.locator(f"{scope} [data-seat] [data-row='{row}']")
    return {int(c.evaluate("e => e.closest('[data-seat]').dataset.seat")): c.get_attribute("data-value")
            for c in cells.all()}


def shown(page: Any, scope: str, row: str) -> dict[int, str]:
    """A row of the sheet by seat, as printed."""
    cells = page.locator(f"{scope} [data-seat] [data-row='{row}']")
    return {int(c.evaluate("e => e.closest('[data-seat]').dataset.seat")): c.inner_text().strip() for c in cells.all()}


def deal(n: int) -> str:
    return f"{PAD} details.dhp-deal[data-deal='{n}']"


def status(page: Any) -> str:
    return str(page.locator(f"{PAD} [data-pad-status]").inner_text())


def layout_problems(page: Any) -> list[str]:
    """Sideways scroll, controls under 44 px, the number pad off the screen's bottom or over the field typed."""
    return list(page.evaluate("""() => {
      const out = [];
      const width = document.documentElement.clientWidth;
      if (document.scrollingElement.scrollWidth > width + 1) out.push('sideways scroll: ' + document.scrollingElement.scrollWidth);
      for (const el of document.querySelectorAll('[data-dhumbal-scorepad] button, [data-dhumbal-scorepad] input, [data-dhumbal-scorepad] select, [data-dhumbal-scorepad] summary')) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || el.closest('[hidden]')) continue;
        if (el.type === 'radio') continue;  // the radio's label, a full row, is the target
        if (r.width < 44 - 0.5 || r.height < 44 - 0.5) out.push(`${el.tagName} ${el.className || el.id} ${r.width}x${r.height}`);
        if (r.right > width + 1) out.push(`${el.tagName} ${el.className} beyond the screen: ${r.right}`);
      }
      const pad = document.querySelector('.dhp-keypad');
      const typed = document.querySelector('.dhp-hand__total--on');
      if (pad && typed && document.activeElement === typed) {
        const p = pad.getBoundingClientRect(), t = typed.getBoundingClientRect();
        if (t.bottom > p.top + 0.5 && t.top < p.bottom) out.push('the number pad lies over the field typed');
      }
      return out;
    }"""))


# -- driving the pad ---------------------------------------------------------------------------


def names(pad: Pad, given: list[str]) -> None:
    """The players' names in the set-up form: as many rows as names (the form shows the profile's usual four)."""
    p = pad.page
    while p.locator(f"#dhp-name-{len(given)}").is_visible():
        pad.press(f"{PAD} [data-pad-remove]")
    for i, name in enumerate(given):
        if not p.locator(f"#dhp-name-{i}").is_visible():
            pad.press(f"{PAD} [data-pad-add]")
        p.locator(f"#dhp-name-{i}").fill(name)


class Pad:
    def __init__(self, page: Any, lang: str, touch: bool) -> None:
        self.page, self.lang, self.touch = page, lang, touch
        self.names = NAMES[lang]

    def press(self, selector: str) -> None:
        loc = self.page.locator(selector).first
        if self.touch:
            loc.tap()
        else:
            loc.click()

    def set_up(self) -> None:
        p = self.page
        p.locator(f"{PAD} #dhp-profile-nepali-games").check()
        names(self, self.names)
        assert p.locator("#dhp-dealer option").all_inner_texts() == self.names
        p.locator("#dhp-dealer").select_option("0")
        self.press(f"{PAD} .dhp-setup button[type=submit]")
        p.wait_for_selector(f"{PAD} [data-pad-entry] [data-caller]")

    def type_deal(self, caller: int | None, hands: list[int]) -> None:
        p = self.page
        self.press(f"{PAD} [data-caller='{'none' if caller is None else caller}']")
        for seat, total in enumerate(hands):
            field = f"{PAD} [data-hand='{seat}']"
            if self.touch:
                self.press(field)
                for _ in range(3):
                    self.press(f"{PAD} [data-key='back']")
                for digit in str(total):
                    self.press(f"{PAD} [data-key='{digit}']")
                problems = layout_problems(p)
                assert not problems, problems
            else:
                p.locator(field).click()
                p.keyboard.press("Control+A")
                p.keyboard.type(str(total) if self.lang != "ne" else str(total).translate(DEVANAGARI))
            expect = str(total) if self.lang != "ne" else str(total).translate(DEVANAGARI)
            assert p.locator(field).input_value() == expect

    def settle(self, number: int) -> None:
        self.press(f"{PAD} .dhp-settle")
        self.page.wait_for_selector(f"{deal(number)}[open]")


@pytest.mark.parametrize(("lang", "options"), [("en", PHONE), ("ne", PHONE), ("en", DESKTOP)],
                         ids=["en-360x780", "ne-360x780", "en-1366x900"])
def test_a_three_deal_match_number_by_number(pad_page: Opener, real_site: Any, lang: str, options: dict[str, Any]) -> None:
    page = pad_page(options, hold=True)
    page.goto(url(real_site, lang))
    touch = bool(options.get("has_touch"))
    pad = Pad(page, lang, touch)
    assert page.locator(PAD).count() == 1
    assert not layout_problems(page)
    assert not axe_here(page, PAD)
    pad.set_up()

    # Deal 1, typed while the engine is still starting: it waits, then is settled the moment it is ready.
    pad.type_deal(1, [7, 4, 4])
    pad.press(f"{PAD} .dhp-settle")
    page.wait_for_function("() => document.querySelector('[data-pad-status]').textContent.length > 0")
    assert page.locator(deal(1)).count() == 0
    assert page.evaluate(on_page('runtime.status')) == "loading"
    page.evaluate(on_page('runtime.__release()'))
    page.wait_for_selector(f"{deal(1)}[open]")
    d1 = deal(1)
    assert numbers(page, d1, "hand") == {0: "7", 1: "4", 2: "4"}
    assert numbers(page, d1, "took") == {0: "7", 1: "25", 2: "0"}
    assert numbers(page, d1, "paid") == {0: "-7", 1: "-25", 2: "32"}
    if lang == "ne":
        assert shown(page, d1, "paid") == {0: "−७", 1: "−२५", 2: "+३२"}
        assert "बाजी १ ·" in page.locator(f"{d1} summary").inner_text()
    else:
        assert page.locator(f"{d1} li[data-seat='1']").inner_text().startswith(
            "Bina: caught: 4 against 4 — a tie goes against the caller; takes the penalty, 25, in place of the hand")
        assert "Bina is caught: Chandra also holds 4, and a tie goes against the caller." in page.locator(f"{d1} .dhp-said").inner_text()
    assert numbers(page, f"{PAD} [data-pad-totals]", "total") == {0: "-7", 1: "-25", 2: "32"}

    # Bad input: a call over the limit, then a total no hand can hold: the engine's words, the sheet unchanged.
    title = page.locator(f"{PAD} .dhp-entry__title").inner_text()
    assert title.startswith("Deal 2 · Bina deals" if lang == "en" else "बाजी २ · विकासले बाँड्छन्")
    pad.type_deal(0, [9, 9, 12])
    pad.press(f"{PAD} .dhp-settle")
    page.wait_for_function("() => document.querySelector('[data-pad-status]').getAttribute('role') === 'alert'")
    said = status(page)
    assert ("Asha called on 9, but a call needs a hand of 5 or less" in said) if lang == "en" else ("आशाले ९मा कल गरे" in said)
    assert page.locator(deal(2)).count() == 0
    assert numbers(page, f"{PAD} [data-pad-totals]", "total") == {0: "-7", 1: "-25", 2: "32"}
    assert page.locator(f"{PAD} [data-hand='1']").input_value() == ("9" if lang != "ne" else "९")
    pad.type_deal(0, [3, 9, 99])
    pad.press(f"{PAD} .dhp-settle")
    page.wait_for_function("(text) => document.querySelector('[data-pad-status]').textContent !== text", arg=said)
    assert ("Chandra: no hand here can hold 99; the most is 50, with 5 cards." in status(page)) if lang == "en" else "९९" in status(page)
    assert page.locator(deal(2)).count() == 0

    # Deal 2, Bina deals: Asha calls on 3 and wins.
    pad.type_deal(0, [3, 9, 12])
    pad.settle(2)
    assert numbers(page, deal(2), "paid") == {0: "21", 1: "-9", 2: "-12"}
    assert numbers(page, f"{PAD} [data-pad-totals]", "total") == {0: "14", 1: "-34", 2: "20"}

    # A reload keeps the sheet, and the pad carries on where it was.
    page.reload()
    # the next deal's form from the device before the engine answers anything (no HTML is kept: issue 52)
    page.wait_for_selector(f"{PAD} [data-pad-entry] [data-hand='2']")
    assert page.locator(f"{PAD} .dhp-entry__title").inner_text().startswith("Deal 3 · Chandra deals" if lang == "en" else "बाजी ३ · चन्द्राले")
    # ... and the totals, as the engine wrote them, in this language and in one never read (issue 52, L9)
    assert numbers(page, f"{PAD} [data-pad-totals]", "total") == {0: "14", 1: "-34", 2: "20"}
    assert numbers(page, f"{PAD} [data-pad-strip]", "strip-total") == {0: "14", 1: "-34", 2: "20"}
    if lang == "ne":
        assert shown(page, f"{PAD} [data-pad-totals]", "total") == {0: "+१४", 1: "−३४", 2: "+२०"}
        page.goto(url(real_site, "fr"))  # the engine held again: the French page draws the kept totals at once
        page.wait_for_selector(f"{PAD} [data-pad-totals] [data-row='total']")
        assert shown(page, f"{PAD} [data-pad-totals]", "total") == {0: "+14", 1: "−34", 2: "+20"}
        assert page.locator(f"{PAD} [data-pad-totals] caption").inner_text() == "Totaux après la donne 2"
        assert page.locator(f"{PAD}[data-busy='true']").count() == 1
        assert not axe_here(page, PAD)  # the Settle button waiting keeps its contrast
        page.goto(url(real_site, lang))
        page.wait_for_selector(f"{PAD} [data-pad-entry] [data-hand='2']")
    page.evaluate(on_page('runtime.__release()'))  # (the page's engine is held starting again)
    page.wait_for_selector(f"{deal(2)}[open]")
    assert numbers(page, f"{PAD} [data-pad-totals]", "total") == {0: "14", 1: "-34", 2: "20"}
    assert page.locator(f"{PAD} .dhp-entry__title").inner_text().startswith("Deal 3 · Chandra deals" if lang == "en" else "बाजी ३ · चन्द्राले")

    # Deal 3, Chandra deals: nobody calls within the turn cap; Asha and Bina tie on 6, Asha first from the dealer's left.
    pad.type_deal(None, [6, 6, 15])
    pad.settle(3)
    assert numbers(page, deal(3), "took") == {0: "0", 1: "6", 2: "15"}
    assert numbers(page, deal(3), "paid") == {0: "21", 1: "-6", 2: "-15"}
    if lang == "en":
        assert "but Asha comes first counting from the dealer's left" in page.locator(f"{deal(3)} li[data-seat='1']").inner_text()
    totals = f"{PAD} [data-pad-totals]"
    assert numbers(page, totals, "total") == {0: "35", 1: "-40", 2: "5"}
    assert numbers(page, totals, "place") == {0: "1", 2: "2", 1: "3"}
    assert page.locator(f"{PAD} [data-pad-entry]").is_hidden()
    assert not layout_problems(page)
    assert not axe_here(page, PAD)

    # Change deal 1: Bina held 3, not 4; her call wins, and deals 2 and 3 are settled again.
    pad.press(f"{deal(1)} summary") if not page.locator(f"{deal(1)}[open]").count() else None
    pad.press(f"{deal(1)} [data-pad-edit='1']")
    page.wait_for_selector(f"{PAD} .dhp-editing")
    assert page.locator(f"{PAD} [data-caller='1']").get_attribute("aria-pressed") == "true"
    field = f"{PAD} [data-hand='1']"
    if touch:
        pad.press(field)
        pad.press(f"{PAD} [data-key='back']")
        pad.press(f"{PAD} [data-key='3']")
    else:
        page.locator(field).click()
        page.keyboard.press("End")
        page.keyboard.press("Backspace")
        page.keyboard.type("3" if lang != "ne" else "३")
    pad.press(f"{PAD} .dhp-settle")
    page.wait_for_function("() => !document.querySelector('.dhp-editing')")
    assert numbers(page, deal(1), "paid") == {0: "-7", 1: "11", 2: "-4"}
    assert numbers(page, deal(2), "paid") == {0: "21", 1: "-9", 2: "-12"}
    assert numbers(page, totals, "total") == {0: "35", 1: "-4", 2: "-31"}
    assert numbers(page, totals, "place") == {0: "1", 1: "2", 2: "3"}
    stats = f"{PAD} .dhp-stats"
    assert numbers(page, stats, "won") == {0: "2", 1: "1", 2: "0"}
    assert numbers(page, stats, "calls") == {0: "1", 1: "1", 2: "0"}
    assert numbers(page, stats, "caught") == {0: "0", 1: "0", 2: "0"}
    assert numbers(page, stats, "average") == {0: "5.3", 1: "6.0", 2: "10.3"}
    if lang == "ne":
        assert shown(page, stats, "average") == {0: "५.३", 1: "६.०", 2: "१०.३"}
    assert not layout_problems(page)
    assert not axe_here(page, PAD)


def test_a_caught_caller_is_eliminated_as_it_happens_and_the_dealer_passes_them_by(pad_page: Opener, real_site: Any) -> None:
    page = pad_page({**PHONE, "color_scheme": "dark"})  # the marks' colours in the dark scheme too
    page.goto(url(real_site, "en"))
    pad = Pad(page, "en", True)
    page.locator(f"{PAD} #dhp-profile-cardrulesplus").check()
    names(pad, ["A", "B", "C"])
    assert page.locator(f"{PAD} [data-pad-options='cardrulesplus']").is_visible()
    pad.press(f"{PAD} .dhp-setup button[type=submit]")
    page.wait_for_selector(f"{PAD} [data-pad-entry] [data-caller]")
    assert page.locator(f"{PAD} [data-caller='none']").count() == 0  # no turn cap in this profile
    for n, hands in enumerate(([2, 50, 30], [2, 50, 30]), start=1):
        pad.type_deal(0, hands)
        pad.settle(n)
    # B reaches 100 in deal 2: out at once, marked, and deal 3 has no field for B
    assert page.locator(f"{deal(2)} tr[data-seat='1'] .dhp-badge--out").count() == 1
    assert page.locator(f"{PAD} [data-hand='1']").count() == 0
    assert "reaches 100 and is out of the match" in page.locator(f"{deal(2)} li[data-seat='1']").inner_text()
    assert page.locator(f"{PAD} .dhp-entry__title").inner_text() == "Deal 3 · C deals"
    assert page.evaluate("document.body.dataset.mdColorScheme") == "slate"
    assert not layout_problems(page)
    assert not axe_here(page, PAD)


def _link(sheet: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(sheet).encode()).decode().rstrip("=")


def test_shared_links_open_with_the_readers_say_and_a_tampered_one_changes_nothing(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(DESKTOP)
    page.goto(url(real_site, "en"))
    pad = Pad(page, "en", False)
    pad.set_up()
    pad.type_deal(1, [7, 4, 4])
    pad.settle(1)
    own = page.evaluate("localStorage.getItem('dhumbal-scorepad')")
    over_limit = {"v": 1, "profile": "nepali-games", "names": ["A", "B"], "dealer": 0,
                  "deals": [{"c": 0, "h": [40, 3]}], "end": False}  # well formed, but a call over the limit
    for bad in ("!!!", _link({"v": 1, "names": "x"}), "W" * 30000, _link(over_limit),
                base64.urlsafe_b64encode(("[" * 5000 + "]" * 5000).encode()).decode()):
        page.evaluate("document.querySelector('[data-pad-status]').textContent = ''")
        # pasted into the address of the page itself: Material must not draw the page again for it
        page.evaluate("document.querySelector('[data-dhumbal-scorepad]').__same = true")
        page.goto(url(real_site, "en", "#pad=" + bad))
        page.wait_for_function("() => document.querySelector('[data-pad-status]').textContent.includes('damaged')")
        assert "#pad=" not in page.url
        assert page.evaluate("localStorage.getItem('dhumbal-scorepad')") == own
        assert page.evaluate("document.querySelector('[data-dhumbal-scorepad]').__same") is True
        assert numbers(page, f"{PAD} [data-pad-totals]", "total") == {0: "-7", 1: "-25", 2: "32"}
    shared = {"v": 1, "profile": "dashain", "names": ["Dipa", "Hari"], "dealer": 1,
              "deals": [{"c": 0, "h": [6, 14]}], "end": False}
    page.goto(url(real_site, "en", "#pad=" + _link(shared)))
    page.wait_for_selector(f"{PAD} [data-pad-link-ask]:not([hidden])")
    page.locator(f"{PAD} [data-pad-link-ask] button").last.click()  # keep mine
    assert page.evaluate("localStorage.getItem('dhumbal-scorepad')") == own
    page.goto(url(real_site, "en", "#pad=" + _link(shared)))
    page.wait_for_selector(f"{PAD} [data-pad-link-ask]:not([hidden])")
    page.locator(f"{PAD} [data-pad-link-ask] button").first.click()  # open the shared sheet
    page.wait_for_function("() => document.querySelector('[data-pad-status]').textContent.includes('shared score sheet is open')")
    assert numbers(page, deal(1), "paid") == {0: "14", 1: "-14"}
    assert numbers(page, deal(1), "money") == {0: "0.70", 1: "-0.70"}
    # and the reader's own link gives the same sheet back
    link = page.evaluate(on_page("scorepad.padOf(document.querySelector('[data-dhumbal-scorepad]')).link()"))
    assert read_link(link.split("#pad=")[1]) == {**shared, "profile": "dashain"}
    # a link with its check value, one character changed: refused, and said why (issue 52)
    changed = link.split("#pad=")[1]
    changed = changed[:-1] + ("A" if changed[-1] != "A" else "B")
    mine = page.evaluate("localStorage.getItem('dhumbal-scorepad')")
    page.goto(url(real_site, "en", "#pad=" + changed))
    page.wait_for_function("() => document.querySelector('[data-pad-status]').textContent.includes('check value')")
    assert page.evaluate("localStorage.getItem('dhumbal-scorepad')") == mine


def test_the_csv_export_and_a_new_match_with_the_readers_say(pad_page: Opener, real_site: Any) -> None:
    page = pad_page(DESKTOP)
    page.goto(url(real_site, "fr"))
    pad = Pad(page, "en", False)
    pad.set_up()
    pad.type_deal(1, [7, 4, 4])
    pad.settle(1)
    with page.expect_download() as download:
        page.locator(f"{PAD} [data-pad-csv]").click()
    path = download.value.path()
    text = open(path, encoding="utf-8-sig").read()
    lines = text.strip().splitlines()
    # semicolons in French, as its spreadsheets expect (issue 52)
    assert lines[0].startswith("Donne;Donneur;Joueur;A annoncé;Main;Points comptés;Paiement;Total")
    assert lines[2].startswith("1;Asha;Bina;oui;4;25;-25;-25")
    assert download.value.suggested_filename == "dhumbal-carnet.csv"
    page.locator(f"{PAD} [data-pad-new]").click()
    page.locator(f"{PAD} [data-pad-ask] button").last.click()  # keep it
    assert page.locator(deal(1)).count() == 1
    page.locator(f"{PAD} [data-pad-new]").click()
    page.locator(f"{PAD} [data-pad-ask] button").first.click()  # delete the sheet
    page.wait_for_selector(f"{PAD} [data-pad-setup]:not([hidden])")
    assert json.loads(page.evaluate("localStorage.getItem('dhumbal-scorepad')"))["sheet"] is None
