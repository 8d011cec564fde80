"""A puzzle's rating (dhumbal.trainer.rating): more levels missing the best move rate higher, a narrow lead a little higher."""

from __future__ import annotations

import pytest

from dhumbal.bots.botlevels import DIFFICULTIES
from dhumbal.trainer.rating import BANDS, BASE, CLOSE, PER_MISS, band, rating


def test_every_level_finding_it_with_a_clear_lead_is_the_base() -> None:
    assert rating(DIFFICULTIES, 8.0) == rating(DIFFICULTIES, 30.0) == BASE


def test_each_level_that_misses_adds_the_same() -> None:
    found = list(DIFFICULTIES)
    values = []
    while True:
        values.append(rating(found, 20.0))
        if not found:
            break
        found.pop()
    assert values == [BASE + PER_MISS * k for k in range(len(DIFFICULTIES) + 1)]
    # which level misses does not matter, only how many
    assert rating(["easy", "medium", "hard"], 20.0) == rating(["medium", "hard", "expert"], 20.0)


def test_a_narrow_lead_rates_higher_but_never_by_a_whole_miss() -> None:
    leads = [1.0, 1.5, 2.0, 4.0, 8.0]
    values = [rating(["easy", "hard"], lead) for lead in leads]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert values[0] - values[-1] == CLOSE < PER_MISS
    assert rating([], 1.0) == BASE + PER_MISS * len(DIFFICULTIES) + CLOSE
    assert isinstance(rating(["easy"], 2.7), int)


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        rating(["easy", "grandmaster"], 2.0)


def test_the_bands_cover_every_rating_in_order() -> None:
    lows = [low for _, low in BANDS]
    assert lows == sorted(lows) and lows[0] == 0
    assert band(BASE) == "easy"
    assert band(BASE + PER_MISS) == "medium"
    assert band(BASE + 3 * PER_MISS) == "hard"
    for name, low in BANDS:
        assert band(low) == name
