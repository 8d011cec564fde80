"""Measured bot strength (:mod:`dhumbal.strength`): the intervals, the figures file and its checks."""

from __future__ import annotations

import json

import pytest

from dhumbal.arena import play_table
from dhumbal.strength import Strength, check_current, dump, fingerprint, lineups, load, measure, table_profile, wilson


def test_wilson_intervals_hold_the_share_and_stay_between_0_and_1() -> None:
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)  # the textbook figures
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(10, 10)
    assert high == pytest.approx(1.0) and round(low, 4) == 0.7225
    for wins, deals in ((1, 3), (700, 1000), (1400, 2000)):
        low, high = wilson(wins, deals)
        assert 0 <= low < wins / deals < high <= 1
    assert wilson(1400, 2000)[1] - wilson(1400, 2000)[0] < wilson(70, 100)[1] - wilson(70, 100)[0]
    for bad in ((3, 2), (-1, 5), (0, 0)):
        with pytest.raises(ValueError, match="not a share"):
            wilson(*bad)


def test_the_tables_measured() -> None:
    assert lineups() == [
        ("easy", "hard", "hard", "hard"), ("medium", "hard", "hard", "hard"), ("hard", "hard", "hard", "hard"),
        ("expert", "hard", "hard", "hard"), ("expert", "aggressive"), ("expert", "aggressive", "aggressive", "aggressive"),
    ]


def test_a_measure_is_the_arena_s_seat_0_and_its_fingerprint_is_the_bots_play() -> None:
    row = measure("dashain", ("hard", "aggressive"), 12)
    arena = play_table(table_profile("dashain", 2), ["hard", "aggressive"], 12, seed="1")
    assert row.wins == arena.seats[0].wins and row.deals == 12
    assert row.fingerprint == fingerprint("dashain", ("hard", "aggressive"), "1")
    assert row.fingerprint != fingerprint("dashain", ("medium", "aggressive"), "1")
    assert row.fingerprint != fingerprint("dashain", ("hard", "aggressive"), "2")


def _row(**change: object) -> dict[str, object]:
    data: dict[str, object] = {"profile": "dashain", "lineup": ["hard", "aggressive"], "deals": 10, "wins": 4,
                               "seed": "1", "fingerprint": "0" * 16}
    data.update(change)
    return data


def test_a_figures_file_reads_back() -> None:
    rows = [Strength.from_json(_row()), Strength.from_json(_row(profile="nepali-games", lineup=["expert", "aggressive"]))]
    again = load(dump(rows), "f.json")
    assert sorted(again, key=lambda r: r.profile) == sorted(rows, key=lambda r: r.profile)


@pytest.mark.parametrize("text, message", [
    ("{", "f.json: not JSON"),
    ('{"format": 2, "rows": []}', 'f.json: expected {"format": 1'),
    ('[1, 2]', 'f.json: expected'),
    (json.dumps({"format": 1, "rows": [_row(lineup=["hard", "cheater"])]}), "f.json: row 1: .*unknown table: hard,cheater"),
    (json.dumps({"format": 1, "rows": [_row(), _row(wins=11)]}), "f.json: row 2: 11 wins in 10 deals"),
    (json.dumps({"format": 1, "rows": [_row(), _row(deals="many")]}), "f.json: row 2: .*misstates"),
    (json.dumps({"format": 1, "rows": [_row(profile="poker")]}), "f.json: row 1: .*poker"),
    (json.dumps({"format": 1, "rows": [{"profile": "dashain"}]}), "f.json: row 1: .*lacks"),
    (json.dumps({"format": 1, "rows": [_row(), _row()]}), "f.json: row 2: dashain hard,aggressive is measured twice"),
])
def test_a_bad_figures_file_is_refused_naming_the_place(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load(text, "f.json")


def test_figures_from_bots_that_played_otherwise_are_refused() -> None:
    good = Strength.from_json(_row(fingerprint=fingerprint("dashain", ("hard", "aggressive"), "1")))
    check_current([good], "f.json")
    stale = Strength.from_json(_row())
    with pytest.raises(ValueError, match=r"f.json: dashain hard,aggressive was measured with bots that played "
                                         r"differently .*make strength"):
        check_current([stale], "f.json")
