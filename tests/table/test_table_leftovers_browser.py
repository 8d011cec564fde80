"""Four things a phone reader meets at the table, in Chromium against the stand-in runtime
(this process's engine): a Nepali table writes its cards as printed (K♠, 10♥, never १०♥ or
बादशाह♠) and every other number in Devanagari digits (in the status line, the log, the hint
and the review), and a review's "Play from here" is a step of history that Back undoes, back
to the finished deal's review at the step that was on screen."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from dhumbal.core.cards import card_text, parse_card
from dhumbal.table import web
from tests.table.tabledriver import (
    BOARD,
    TABLE,
    answers,
    click,
    is_over,
    play_deal,
    start,
    status,
    table_hash,
    ui_move,
    wait_answer,
    wait_ready,
)
from tools.pagemodules import on_page, page_condition

Opener = Callable[..., tuple[Any, Any]]
PHONE = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True}
WIDE = {"viewport": {"width": 1366, "height": 900}}

#: A card as printed: how every language writes a card in running text.
PRINTED = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")
#: A card written the Nepali way, which the site's rule forbids (१०♥, बादशाह♠).
NEPALI_CARD = re.compile(r"[०-९]+[♠♥♦♣]|(?:एक्का|गुलाम|मिस्सी|बादशाह)[♠♥♦♣]")


def _latin(text: str) -> list[str]:
    """What a Nepali sentence must not show: a Latin digit outside a card's printed index, a
    joker's token, a card written the Nepali way."""
    return re.findall(r"Jk[12]|[0-9]", PRINTED.sub("", text)) + NEPALI_CARD.findall(text)


def test_a_nepali_deal_writes_its_cards_as_printed(stub_page: Opener, stub_site: Any) -> None:
    """Every status line of a whole Nepali deal, the hint at each turn's start (its "Why?" too), a refusal
    that names the marked cards, and the review: cards as printed, other numbers in Devanagari."""
    page, _ = stub_page(**PHONE)
    page.goto(stub_site.url("ne/"))
    start(page)
    seen: list[str] = []
    hint = page.locator(f'{BOARD} [data-op="hint"]')
    for _ in range(60):
        if is_over(page):
            break
        board = page.locator(BOARD)
        if board.get_attribute("data-your-turn") == "true" and board.get_attribute("data-phase") == "start" \
                and hint.count() and hint.get_attribute("aria-disabled") is None:
            click(page, hint)
            said = status(page)
            assert said.startswith("विज्ञ बोटको चाल"), said  # the expert's move is shown
            seen.append(said)
            why = page.locator(f"{BOARD} [data-dht-why]")
            if why.count():  # and the reasons and odds behind its "Why?"
                why.click()
                seen.extend(page.locator(f"{BOARD} .dht-whybox p").all_inner_texts())
            click(page, hint)  # hidden again
        ui_move(page)
        seen.append(status(page))
        seen.extend(page.locator(f"{BOARD} .dht-log li, {BOARD} .dht-why:not([hidden])").all_inner_texts())
    assert is_over(page)
    seen.append(status(page))
    assert any(PRINTED.search(s) for s in seen) and any(re.search("[०-९]", s) for s in seen), seen
    leaks = {s: _latin(s) for s in seen if _latin(s)}
    assert leaks == {}, leaks
    # the review: every step's moves, in Nepali
    before = answers(page)
    page.locator(f"{BOARD} .dht-review-btn").click()
    wait_answer(page, before)
    review = page.locator(f"{BOARD} .dht-review")
    review.wait_for()
    texts = review.evaluate("r => [...r.querySelectorAll('.dht-review__yours, .dht-review__expert')].map(p => p.textContent)")
    assert texts and {t: _latin(t) for t in texts if _latin(t)} == {}


def test_a_refusal_names_the_marked_cards_in_nepali(stub_page: Opener, stub_site: Any) -> None:
    """The Throw control's reason for cards that are no run names them as the engine writes them in Nepali."""
    page, _ = stub_page(**WIDE)
    page.goto(stub_site.url("ne/"))
    start(page)
    throw = page.locator(f'{BOARD} [data-action="throw"]')
    words = throw.get_attribute("data-words")
    cards = (throw.get_attribute("data-cards") or "").split()
    assert words and json.loads(words) == [card_text(parse_card(c)) for c in cards], words
    # the reason as the table shows it for a "not a run" refusal, filled with the marked cards
    shown = page.evaluate(on_page("""{
      const b = document.querySelector('#dh-table [data-action="throw"]');
      const t = site.controllerOf(document.querySelector('#dh-table'));
      const order = b.dataset.cards.split(' ');
      const saved = t.state.hand.marks;
      t.state.hand.marks = order.slice(0, 2);
      const fake = b.cloneNode();
      fake.setAttribute('data-verdicts', '1'.repeat(1 << order.length));
      fake.setAttribute('data-reasons', JSON.stringify(['', 'x {cards} y']));
      const text = table.verdict(t, fake);
      t.state.hand.marks = saved;
      return text;
    }"""))
    assert shown == "x " + " ".join(json.loads(words)[:2]) + " y" and not _latin(shown), shown


@pytest.mark.parametrize("screen", [PHONE, WIDE], ids=["phone", "wide"])
def test_back_from_play_from_here_returns_to_the_review(stub_page: Opener, stub_site: Any,
                                                         screen: dict[str, Any]) -> None:
    page, _ = stub_page(**screen)
    page.goto(stub_site.url("en/"))
    start(page)
    play_deal(page)
    finished = table_hash(page)
    before = answers(page)
    page.locator(f"{BOARD} .dht-review-btn").click()
    wait_answer(page, before)
    review = page.locator(f"{BOARD} .dht-review")
    review.wait_for()
    steps = web.table("dh-table").review.steps
    assert len(steps) >= 3
    page.locator(f"{BOARD} [data-review-step='3']").click()
    full = page.evaluate("document.documentElement.classList.contains('dh-full-table')")
    before = answers(page)
    page.locator(f"{BOARD} [data-review-panel='3'] [data-review-play]").click()
    wait_answer(page, before)
    assert not is_over(page)
    played = table_hash(page)
    assert played != finished
    want = steps[2].before

    def hand() -> list[int]:
        deal = web.table("dh-table").playing().deal
        assert deal is not None
        return sorted(deal.hands[deal.turn])

    assert hand() == sorted(want.hands[want.turn])
    # Back: the finished deal again, its review open at the step played from
    page.go_back()
    page.wait_for_selector(f"{BOARD} .dht-review[data-review-at='3']")
    assert is_over(page)
    assert table_hash(page) == finished
    assert page.locator(f"{BOARD} [data-review-step='3']").get_attribute("aria-current") == "step"
    # a full table stays open: Back went between the table's own steps
    assert page.evaluate("document.documentElement.classList.contains('dh-full-table')") == full
    # Forward: the position again
    page.go_forward()
    page.wait_for_function("() => document.querySelector('#dh-table .dht-play-area').dataset.over === 'false'")
    assert table_hash(page) == played
    assert hand() == sorted(want.hands[want.turn])
    assert page.evaluate("document.documentElement.classList.contains('dh-full-table')") == full
    assert page.locator(f"{TABLE} .dht-review").count() == 0


def test_cards_in_running_text_are_written_as_printed_in_every_language() -> None:
    from dhumbal.core.i18n import card_words, cards_in_words

    for lang in ("en", "fr", "nl", "ne"):
        assert [card_words(c, lang) for c in ("6♣", "10♥", "K♠", "A♦")] == ["6♣", "10♥", "K♠", "A♦"]
    assert cards_in_words("बोट ३ले 9♥ 10♥ J♥ फाल्छन्; 8♦सँग", "ne") == "बोट ३ले 9♥ 10♥ J♥ फाल्छन्; 8♦सँग"
    # a joker by its name in the page's language, never its token
    assert card_words("Jk1", "ne") == "जोकर" and card_words("Jk2", "en") == "Joker"
    assert cards_in_words("Vous prenez Jk1 sur la défausse.", "fr") == "Vous prenez Joker sur la défausse."
    assert cards_in_words("Jij: Jk2 van de aflegstapel pakken.", "nl") == "Jij: Joker van de aflegstapel pakken."


# -- with the real site: the first page load, and the "updated" notice -------------------------------

#: The page's script (which sets the table up), held back by a route so that the reader's press comes first.
TABLE_SCRIPTS = "**/assets/dhumbal/site.js"


def _hold_table_scripts(page: Any) -> list[Any]:
    held: list[Any] = []
    page.route(TABLE_SCRIPTS, lambda route: held.append(route))
    return held


def _release(page: Any, held: list[Any]) -> None:
    assert held, "the table's scripts were never asked for"
    for route in held:
        route.continue_()
    page.unroute(TABLE_SCRIPTS)


@pytest.mark.parametrize(("screen", "control"), [
    (PHONE, f"{TABLE} [data-dht-play]"),
    (WIDE, f"{TABLE} [data-dht-play]"),
    (PHONE, ".dh-play-profile"),
], ids=["phone-play", "wide-play", "phone-play-link"])
def test_play_pressed_before_the_scripts_run_still_counts(site_page: Opener, real_site: Any,
                                                          screen: dict[str, Any], control: str) -> None:
    page, _ = site_page(fresh=True, **screen)
    held = _hold_table_scripts(page)
    page.goto(real_site.server.url("rules/dashain/"), wait_until="commit")
    page.wait_for_selector(control)
    page.wait_for_function("() => document.querySelectorAll('script[src*=\"/dhumbal/site.js\"]').length > 0")
    # nothing listens to the press yet: the page's script has not arrived
    loaded = "() => performance.getEntriesByType('resource').some((e) => e.name.includes('/dhumbal/site.js'))"
    assert not page.evaluate(loaded)
    if screen is PHONE:
        page.locator(control).tap()
    else:
        page.locator(control).click()
    assert not page.evaluate(loaded)
    _release(page, held)
    wait_ready(page)
    # the address is put back (a tap's navigation may land after the script looked: hashchange then)
    page.wait_for_function("() => !location.hash.endsWith('-play')")
    assert page.evaluate("location.hash").startswith(("", "#table="))
    if screen is PHONE:  # as a press once the scripts run: the full table on a phone
        assert page.evaluate("document.querySelector('#dh-table').classList.contains('dh-table--full')")
    else:  # the table in view
        top = page.evaluate("document.querySelector('#dh-table').getBoundingClientRect().top")
        assert 0 <= top < screen["viewport"]["height"] / 2, top


def test_without_a_press_the_table_waits(site_page: Opener, real_site: Any) -> None:
    """The same page loaded without a press: the table stays as it was drawn (nothing starts by itself)."""
    page, _ = site_page(fresh=True, **PHONE)
    page.goto(real_site.server.url("rules/dashain/"))
    page.wait_for_function(page_condition("site.tableSetUp(document.querySelector('#dh-table'))"))
    assert page.locator(TABLE).get_attribute("data-state") == "static"


def _updated(page: Any) -> Any:
    """The "updated" notice, as a new build taking over the open page makes it (the service
    worker's controllerchange, after the first one that took the page)."""
    page.wait_for_function(page_condition("['ready', 'keeping'].includes(site.offline.status)"))
    notice = page.locator(".dh-updated")
    for _ in range(3):
        if notice.count():
            break
        page.evaluate("navigator.serviceWorker.dispatchEvent(new Event('controllerchange'))")
    assert notice.count() == 1
    return notice


def _overlap(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    assert a is not None and b is not None
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


@pytest.mark.parametrize("lang", ["en", "ne"])
@pytest.mark.parametrize("screen", [PHONE, WIDE], ids=["phone", "wide"])
def test_the_updated_notice_covers_neither_title_nor_header_nor_the_table(
        site_page: Opener, real_site: Any, screen: dict[str, Any], lang: str) -> None:
    page, _ = site_page(fresh=True, service_workers="allow", **screen)  # the notice is the service worker's
    page.goto(real_site.server.url(("" if lang == "en" else "ne/") + "rules/dashain/"))
    notice = _updated(page)
    notice.wait_for(state="visible")
    assert notice.get_attribute("role") == "status"
    box = notice.bounding_box()
    for covered in (".md-header", "article h1", ".dh-play-profile"):
        assert not _overlap(box, page.locator(covered).first.bounding_box()), covered
    view = page.viewport_size
    assert box is not None and view is not None and box["y"] + box["height"] <= view["height"]
    assert box["y"] > view["height"] / 2  # at the bottom of the screen
    for button in (".dh-updated__reload", ".dh-updated__close"):
        b = page.locator(button).bounding_box()
        assert b is not None and b["width"] >= 44 and b["height"] >= 44, button
    # while the table is on screen, its hand and controls are not covered: the notice waits
    page.evaluate("window.scrollTo(0, 0)")
    page.locator(TABLE).scroll_into_view_if_needed()
    page.wait_for_function("() => document.documentElement.classList.contains('dh-table-in-view')")
    assert not notice.is_visible()
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function("() => !document.documentElement.classList.contains('dh-table-in-view')")
    assert notice.is_visible()
    # dismissed by the reader
    page.locator(".dh-updated__close").click()
    assert not notice.is_visible()
    assert not page.evaluate("document.documentElement.classList.contains('dh-updated-on')")


def test_the_updated_notice_stays_off_the_full_table(site_page: Opener, real_site: Any) -> None:
    page, _ = site_page(fresh=True, service_workers="allow", **PHONE)  # the notice is the service worker's
    page.goto(real_site.server.url("ne/rules/dashain/"))
    notice = _updated(page)
    notice.wait_for(state="visible")
    page.locator(".dh-play-profile").tap()
    wait_ready(page)
    assert page.evaluate("document.documentElement.classList.contains('dh-full-table')")
    assert not notice.is_visible()
