"""A puzzle's rating (dhumbal.trainer.rating): what it takes to solve it, then how narrow its lead is.

A puzzle the naive rule solves is Easy whatever the bots do (the review found
"call on exactly the limit" rated 1400 to 1700 only because the medium and
hard bots call under the limit by design); above it, more bot levels
missing the answer rate higher, and a narrow lead a little higher.
"""

from __future__ import annotations

import pytest

from dhumbal.bots.botlevels import DIFFICULTIES
from dhumbal.trainer.rating import (
    BANDS,
    BASE,
    CLEAR_RATIO,
    CLOSE,
    CLOSE_EASY,
    NAIVE,
    PER_MISS,
    THINKING,
    band,
    rating,
)


def test_a_puzzle_the_naive_rule_solves_is_easy_whatever_the_bots_do() -> None:
    for solvers in ([NAIVE], [NAIVE, "expert"], [NAIVE, *DIFFICULTIES]):
        for lead in (1.0, 1.3, 2.0, 10.0):
            assert band(rating(solvers, lead)) == "easy", (solvers, lead)
    assert rating([NAIVE], CLEAR_RATIO) == BASE
    assert rating([NAIVE], 1.0) == BASE + CLOSE_EASY
    # the "call on exactly the limit" case: the medium and hard bots miss it, the naive rule does not
    assert band(rating([NAIVE, "easy", "expert"], 2.0)) == "easy"


def test_without_the_naive_rule_each_level_that_misses_adds_the_same() -> None:
    found = list(DIFFICULTIES)
    values = []
    while True:
        values.append(rating(found, 20.0))
        if not found:
            break
        found.pop()
    assert values == [THINKING + PER_MISS * k for k in range(len(DIFFICULTIES) + 1)]
    assert band(values[0]) == "medium"  # every bot finds it, the naive rule does not: it takes some thought
    # which level misses does not matter, only how many
    assert rating(["easy", "medium", "hard"], 20.0) == rating(["medium", "hard", "expert"], 20.0)


def test_a_narrow_lead_rates_higher_but_never_by_a_whole_miss() -> None:
    leads = [1.0, 1.5, 2.0, 3.0, CLEAR_RATIO]
    values = [rating(["easy", "hard"], lead) for lead in leads]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert values[0] - values[-1] == CLOSE < PER_MISS
    assert rating([], 1.0) == THINKING + PER_MISS * len(DIFFICULTIES) + CLOSE
    assert isinstance(rating(["easy"], 2.7), int)


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown level 'grandmaster'"):
        rating(["easy", "grandmaster"], 2.0)


def test_the_bands_cover_every_rating_in_order() -> None:
    lows = [low for _, low in BANDS]
    assert lows == sorted(lows) and lows[0] == 0
    assert band(BASE) == band(BASE + CLOSE_EASY) == "easy"
    assert band(THINKING) == band(THINKING + PER_MISS + CLOSE) == "medium"
    assert band(THINKING + 2 * PER_MISS) == "hard"
    for name, low in BANDS:
        assert band(low) == name
