"""Numbers in the reader's language at the table: money with the locale's
decimal separator (and Devanagari digits in Nepali), and money typed the way
a reader of the language types it."""

from __future__ import annotations

import re

import pytest

from dhumbal.core.i18n import read_decimal, translator
from dhumbal.core.profiles import find_profile
from dhumbal.play.records import from_position
from dhumbal.table.web import handle_request
from dhumbal.view.scores import score_rows

#: Asha calls on 6 against 14, 9 and 21 (seed 002): she collects 44 points, 2.20 at 0.05 a point.
ASHA_CALLS = {"A": "A♠ 2♠ 3♥", "B": "5♣ 9♦", "C": "4♦ 5♦", "D": "10♣ J♥"}

# Money carries the sign of the points it pays, as the Paid row does: + received, − paid.
MONEY = {
    "en": ["+2.20", "−0.70", "−0.45", "−1.05"],
    "fr": ["+2,20", "−0,70", "−0,45", "−1,05"],
    "nl": ["+2,20", "−0,70", "−0,45", "−1,05"],
    "ne": ["+२.२०", "−०.७०", "−०.४५", "−१.०५"],
}


def _asha_outcome() -> tuple[object, object]:
    from dhumbal.core import cards as C
    from dhumbal.play.deal import Action

    profile = find_profile("dashain")
    deal = from_position(
        profile, hands=[C.parse_cards(h) for h in ASHA_CALLS.values()], pile=C.parse_cards("8♠"),
        stock_top=[], out_of_play=[], dealer=3, turn=0, offer=None, turns=8, seed="numbers", rest="stock",
    )
    deal.apply(Action("call"), seat=0)
    return deal.outcome, profile


@pytest.mark.parametrize("lang", sorted(MONEY))
def test_money_rows_use_the_readers_separator_and_digits(lang: str) -> None:
    outcome, profile = _asha_outcome()
    rows = {key: cells for key, _, cells in score_rows(outcome, profile, lang)}  # type: ignore[arg-type]
    assert [shown for _, shown in rows["money"]] == MONEY[lang]
    # the machine value stays the engine's own
    assert [value for value, _ in rows["money"]] == ["2.20", "-0.70", "-0.45", "-1.05"]


@pytest.mark.parametrize(("lang", "typed"), [("fr", "0,07"), ("fr", "0.07"), ("nl", "0,07"), ("nl", " 0.07 "),
                                              ("ne", "०.०७"), ("en", "0.07")])
def test_money_per_point_is_read_as_the_reader_types_it(lang: str, typed: str) -> None:
    reply = handle_request({"op": "new", "lang": lang, "profile": "dashain", "options": {"money": typed}, "seed": 5})
    assert reply["ok"], reply
    value = re.search(r'name="opt:money"[^>]*value="([^"]*)"', reply["settings_html"]).group(1)
    assert value == {"fr": "0,07", "nl": "0,07", "ne": "०.०७", "en": "0.07"}[lang]


@pytest.mark.parametrize("lang", ["fr", "nl", "ne", "en"])
def test_the_money_field_starts_in_the_readers_format(lang: str) -> None:
    reply = handle_request({"op": "settings", "lang": lang, "profile": "dashain"})
    value = re.search(r'name="opt:money"[^>]*value="([^"]*)"', reply["settings_html"]).group(1)
    assert value == {"fr": "0,05", "nl": "0,05", "ne": "०.०५", "en": "0.05"}[lang]


def test_a_comma_is_not_a_decimal_separator_in_english() -> None:
    # "0,05" would be ambiguous in English (1,000 is a thousand): refused, and the message shows the English form
    reply = handle_request({"op": "new", "lang": "en", "profile": "dashain", "options": {"money": "0,05"}})
    assert not reply["ok"] and "e.g. 0.05" in reply["error"]["text"]


def test_a_refused_amount_names_the_example_in_the_readers_format() -> None:
    reply = handle_request({"op": "new", "lang": "fr", "profile": "dashain", "options": {"money": "1,000.5"}})
    assert not reply["ok"]
    assert reply["error"]["text"] == translator("fr")(
        "{label}: {value} is not allowed here (allowed: {allowed}).",
        label=translator("fr").raw("Money per point"), value="1,000.5",
        allowed=translator("fr")("any amount, e.g. {amount}", amount="0,05"),
    )


@pytest.mark.parametrize(
    ("text", "lang", "read"),
    [("0,05", "fr", "0.05"), ("0.05", "fr", "0.05"), ("0,05", "en", "0,05"), ("१२,५", "nl", "12.5"),
     ("०.०५", "ne", "0.05"), ("1,0,5", "fr", "1,0,5"), ("1.000,5", "nl", "1.000,5")],
)
def test_read_decimal(text: str, lang: str, read: str) -> None:
    assert read_decimal(text, lang) == read
