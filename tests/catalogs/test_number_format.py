"""One number formatter (dhumbal.core.i18n.number) with each language's rules: the
decimal sign, the thousands sign, the digits and a real minus sign; every
message fills its numbers with it."""

from __future__ import annotations

import pytest

from dhumbal.core.i18n import count_text, format_text, number, read_decimal

NNBSP = "\u202f"


@pytest.mark.parametrize(("value", "lang", "kwargs", "shown"), [
    ("0.05", "en", {}, "0.05"),
    ("0.05", "fr", {}, "0,05"),
    ("0.05", "nl", {}, "0,05"),
    ("0.05", "ne", {}, "०.०५"),
    (-2.2, "fr", {"decimals": 2}, "−2,20"),
    (2.2, "nl", {"decimals": 2, "signed": True}, "+2,20"),
    ("-0.0", "en", {}, "0.0"),
    (20000, "en", {}, "20,000"),
    (20000, "fr", {}, f"20{NNBSP}000"),
    (20000, "nl", {}, "20.000"),
    (20000, "ne", {}, "२०,०००"),
    (100000, "ne", {}, "१,००,०००"),
    (1234567, "fr", {}, f"1{NNBSP}234{NNBSP}567"),
    (999, "fr", {}, "999"),
    (-12, "en", {}, "−12"),
    (38, "en", {"signed": True}, "+38"),
    (0, "en", {"signed": True}, "0"),
    ("11/12/13", "ne", {}, "११/१२/१३"),
    ("<1", "fr", {}, "<1"),
    ("-1.5", "fr", {"signed": True}, "−1,5"),
])
def test_each_language_writes_numbers_its_own_way(value: object, lang: str, kwargs: dict[str, object], shown: str) -> None:
    assert number(value, lang, **kwargs) == shown  # type: ignore[arg-type]


def test_counts_and_messages_use_the_same_formatter() -> None:
    assert count_text(20000, "fr") == number(20000, "fr")
    assert format_text("{n} deals, {x} a point", {"n": 20000, "x": 0.05}, "nl") == "20.000 deals, 0,05 a point"
    assert format_text("{n}", {"n": 1500}, "ne") == "१,५००"


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "ne"])
def test_a_formatted_decimal_reads_back(lang: str) -> None:
    assert read_decimal(number("0.05", lang), lang) == "0.05"
