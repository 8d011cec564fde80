"""Four things a phone reader meets at the table, in Chromium against the stand-in runtime
(this process's engine): a Nepali table names its cards in Nepali (no Latin index in the status
line, the hint or the review), and a review's "Play from here" is a step of history that Back
undoes, back to the finished deal's review at the step that was on screen."""

from __future__ import annotations

import re
from typing import Any, Callable

import pytest
from tabledriver import BOARD, TABLE, answers, click, is_over, play_deal, start, status, table_hash, ui_move, wait_answer

from dhumbal import web

Opener = Callable[..., tuple[Any, Any]]
PHONE = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True}
WIDE = {"viewport": {"width": 1366, "height": 900}}

#: A card as printed, with a Latin index: what a Nepali sentence must not show.
LATIN_CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|Jk[12]|[0-9]")


def _latin(text: str) -> list[str]:
    return LATIN_CARD.findall(text)


def test_a_nepali_deal_names_its_cards_in_nepali(stub_page: Opener, stub_site: Any) -> None:
    """Every status line of a whole Nepali deal, the hint at each turn's start, a refusal
    that names the marked cards, and the review: Devanagari digits and Nepali rank names."""
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
            click(page, hint)  # hidden again
        ui_move(page)
        seen.append(status(page))
        seen.extend(page.locator(f"{BOARD} .dht-log li, {BOARD} .dht-why:not([hidden])").all_inner_texts())
    assert is_over(page)
    seen.append(status(page))
    assert any(re.search("[०-९]+[♠♥♦♣]|(एक्का|गुलाम|मिस्सी|बादशाह)[♠♥♦♣]", s) for s in seen), seen
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
    assert words and not _latin(words), words
    # the reason as the table shows it for a "not a run" refusal, filled with the marked cards
    shown = page.evaluate("""() => {
      const b = document.querySelector('#dh-table [data-action="throw"]');
      const t = document.querySelector('#dh-table').__dhumbalTable;
      const order = b.dataset.cards.split(' ');
      const saved = t.marks;
      t.marks = order.slice(0, 2);
      const fake = b.cloneNode();
      fake.setAttribute('data-verdicts', '1'.repeat(1 << order.length));
      fake.setAttribute('data-reasons', JSON.stringify(['', 'x {cards} y']));
      const text = t.verdict(fake);
      t.marks = saved;
      return text;
    }""")
    assert shown.startswith("x ") and not _latin(shown[2:-2]), shown


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
    steps = web.REVIEWS["dh-table"][1]
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
        deal = web.SESSIONS["dh-table"].deal
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


def test_card_words_come_from_the_catalogs() -> None:
    from dhumbal.i18n import card_words, cards_in_words

    assert card_words("6♣", "ne") == "६♣"
    assert card_words("10♥", "ne") == "१०♥"
    assert card_words("K♠", "ne") == "बादशाह♠"
    assert card_words("A♦", "ne") == "एक्का♦"
    assert card_words("Jk1", "ne") == "जोकर"
    assert cards_in_words("बोट ३ले 9♥ 10♥ J♥ फाल्छन्; 8♦सँग", "ne") == "बोट ३ले ९♥ १०♥ गुलाम♥ फाल्छन्; ८♦सँग"
    for lang in ("en", "fr", "nl"):  # languages that read the printed index keep it
        assert cards_in_words("K♠ 10♥ Jk2", lang) == "K♠ 10♥ Jk2"
