"""Measured bot strength (:mod:`dhumbal.lab.strength`): the intervals, the figures file and its checks."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from dhumbal.bots.botlevels import policy
from dhumbal.lab import strength
from dhumbal.lab.arena import credits, play_table
from dhumbal.lab.strength import Strength, check_current, dump, fingerprint, lineups, load, measure, table_profile, wilson
from dhumbal.play.deal import Deal
from dhumbal.play.playout import play_out


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
    assert row.wins == arena.seats[0].credit == arena.seats[0].wins and row.deals == 12
    assert row.fingerprint == fingerprint("dashain", ("hard", "aggressive"), "1")
    assert row.fingerprint != fingerprint("dashain", ("medium", "aggressive"), "1")
    assert row.fingerprint != fingerprint("dashain", ("hard", "aggressive"), "2")


def test_a_change_of_the_bots_settings_changes_the_fingerprint_even_where_the_first_deals_play_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from dhumbal.bots import expert
    from dhumbal.core import profiles

    mixed, plain = ("expert", "aggressive"), ("hard", "aggressive")
    before = fingerprint("cardrulesplus", mixed, "1"), fingerprint("cardrulesplus", plain, "1")
    record = profiles.RECORDS["cardrulesplus"]
    # The race term is off without a call limit: a weight that is not used plays every deal alike...
    monkeypatch.setitem(profiles.RECORDS, "cardrulesplus", replace(record, tuning=replace(record.tuning, race=5)))
    assert fingerprint("cardrulesplus", mixed, "1") != before[0]  # ...yet the expert's figures are marked stale
    assert fingerprint("cardrulesplus", plain, "1") == before[1]  # and tables without the expert are not
    assert fingerprint("dashain", mixed, "1") == fingerprint("dashain", mixed, "1")
    monkeypatch.setattr(expert, "TIME_CAP", float("inf"))  # a clock, not a way of playing
    monkeypatch.setitem(profiles.RECORDS, "cardrulesplus", record)
    assert fingerprint("cardrulesplus", mixed, "1") == before[0]


def test_the_settings_text_is_the_same_in_every_interpreter() -> None:
    import subprocess
    import sys

    code = "from dhumbal.lab import strength; print(strength.tuning(('expert', 'hard'), 'dashain'))"
    texts = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env={"PYTHONHASHSEED": str(n), "PATH": ""}).stdout for n in (1, 2)}
    assert len(texts) == 1 and "dashain.tuning=BotTuning(risk=60, race=10)" in texts.pop()


def test_a_caught_call_with_no_named_winner_is_shared_by_the_seats_with_the_best_score() -> None:
    # cardrulesplus: a caught caller scores the penalty, everyone else 0 -- nobody is named the winner
    four = play_table(table_profile("cardrulesplus", 4), ["aggressive"] * 4, 40, seed="1")
    caught = sum(r.caught for r in four.seats)
    assert caught > 0 and sum(r.calls for r in four.seats) == 40  # the first seat on turn calls at once
    assert sum(r.wins for r in four.seats) == 40 - caught  # only an uncaught call names a winner
    assert sum(r.shared for r in four.seats) == caught  # a caught call is shared out whole ...
    assert all((3 * r.shared).denominator == 1 for r in four.seats)  # ... a third to each other seat
    assert sum(r.credit for r in four.seats) == 40
    assert sum(four.win_share(s) for s in range(4)) == pytest.approx(1.0)
    two = play_table(table_profile("cardrulesplus", 2), ["hard", "aggressive"], 40, seed="1")
    assert two.seats[0].shared == two.seats[1].caught > 0  # head to head, the other seat takes the whole deal
    assert two.seats[1].shared == two.seats[0].caught
    row = measure("cardrulesplus", ("aggressive",) * 4, 40)
    assert row.wins == four.seats[0].credit and row.share == pytest.approx(float(four.seats[0].credit) / 40)
    assert load(dump([row]), "f.json") == [row]  # a fraction of a win is written exactly and read back
    named = play_table(table_profile("dashain", 4), ["aggressive"] * 4, 40, seed="1")  # a caught call has a winner
    assert all(r.shared == 0 for r in named.seats) and sum(r.wins for r in named.seats) == 40


def test_one_deal_s_credits_add_up_to_the_table_s() -> None:
    # the paired screen (bench/expert_screen.py) credits deal by deal what play_table credits in total
    profile = table_profile("cardrulesplus", 4)
    bots = ["aggressive", "hard", "aggressive", "hard"]
    table = play_table(profile, bots, 40, seed="1")
    totals = [Fraction(0)] * 4
    for i in range(40):
        deal = Deal.new(profile, f"1/{i}", dealer=i % 4)
        play_out(deal, [policy(b) for b in bots])
        assert deal.outcome is not None
        each = credits(profile, deal.outcome)
        assert sum(each) == 1 and all(c >= 0 for c in each)
        totals = [t + c for t, c in zip(totals, each)]
    assert totals == [r.credit for r in table.seats] and any(t.denominator == 3 for t in totals)


def test_shared_wins_are_stored_exactly() -> None:
    row = Strength.from_json(_row(wins="22/3"))
    assert row.wins == Fraction(22, 3) and row.share == pytest.approx(22 / 30)
    assert row.to_json()["wins"] == "22/3" and Strength.from_json(_row(wins="8/2")).wins == 4
    assert wilson(Fraction(22, 3), 10) == pytest.approx(wilson(22 / 3, 10))


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
    (json.dumps({"format": 1, "rows": [_row(wins="34/3")]}), "f.json: row 1: 34/3 wins in 10 deals"),
    (json.dumps({"format": 1, "rows": [_row(wins="1e999999")]}), "f.json: row 1: .*fraction like"),
    (json.dumps({"format": 1, "rows": [_row(wins="7/0")]}), "f.json: row 1: .*fraction like"),
    (json.dumps({"format": 1, "rows": [_row(wins=4.5)]}), "f.json: row 1: .*fraction like"),
    (json.dumps({"format": 1, "rows": [_row(wins=True)]}), "f.json: row 1: .*fraction like"),
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


def test_simulate_reports_shared_wins() -> None:
    from io import StringIO

    from dhumbal import cli

    out = StringIO()
    args = ["simulate", "--profile", "cardrulesplus", "--bots", "aggressive,aggressive,aggressive,aggressive",
            "--deals", "24", "--json"]
    assert cli.main(args, out=out) == 0
    seats = json.loads(out.getvalue())["seats"]
    assert sum(s["shared_wins"] for s in seats) > 0
    assert sum(s["wins"] + s["shared_wins"] for s in seats) == pytest.approx(24, abs=1e-3)  # shares rounded to 4 places
    for s in seats:
        assert s["win_share"] == pytest.approx((s["wins"] + s["shared_wins"]) / 24, abs=1e-4)
    text = StringIO()
    assert cli.main(args[:-1], out=text) == 0
    assert "aggressive" in text.getvalue() and "wins  win share" in text.getvalue()


def test_stale_measures_again_only_the_tables_whose_bots_now_play_otherwise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "strength.json"
    rows = [Strength("dashain", lineup, 3, 1, "1", fingerprint("dashain", lineup, "1")) for lineup in lineups()]
    stale = rows[-1]
    rows[-1] = Strength(stale.profile, stale.lineup, 3, 1, "1", "0" * 16)  # measured by bots that played otherwise
    other = Strength("nepali-games", ("hard", "hard", "hard", "hard"), 3, 2, "1", "1" * 16)  # another profile: kept as is
    out.write_text(dump(rows + [other]), encoding="utf-8")
    measured: list[tuple[str, ...]] = []

    def fake(key: str, lineup: tuple[str, ...], deals: int, seed: str = "1") -> Strength:
        measured.append(lineup)
        return Strength(key, lineup, deals, 3, seed, fingerprint(key, lineup, seed))

    monkeypatch.setattr(strength, "measure", fake)
    assert strength.main(["--deals", "3", "--stale", "--out", str(out), "dashain"]) == 0
    assert measured == [stale.lineup]
    again = {(r.profile, r.lineup): r for r in load(out.read_text(encoding="utf-8"), "f")}
    assert again[("dashain", stale.lineup)].wins == 3 and again[("dashain", stale.lineup)].fingerprint == stale.fingerprint
    assert all(again[("dashain", r.lineup)] == r for r in rows[:-1])
    assert again[("nepali-games", other.lineup)] == other
    # for another number of deals, every table is measured again
    measured.clear()
    assert strength.main(["--deals", "4", "--stale", "--out", str(out), "dashain"]) == 0
    assert len(measured) == len(lineups())


def test_the_screen_s_ceiling_decides_on_the_other_hands_and_so_never_makes_a_caught_call() -> None:
    # bench/expert_screen.py --shown-hands: today's expert shown every other hand, a bound for the docstring's figures
    from bench import expert_screen as screen
    from dhumbal.play.action import Action
    weighed: list[float] = []
    calls = 0

    def seat0(deal: Deal) -> Action:
        decision = screen.shown_hands_decision(deal)
        if decision.caught is not None:
            weighed.append(decision.caught)
        return decision.action

    for key in ("nepali-games", "dashain", "cardrulesplus"):
        profile = table_profile(key, 4)
        for i in range(6):
            deal = Deal.new(profile, f"1/{i}", dealer=i % 4)
            play_out(deal, [seat0] + [policy("hard")] * 3, checked=True)  # every move legal
            assert deal.outcome is not None
            if deal.outcome.caller == 0:
                calls += 1
                assert not deal.outcome.caught, f"{key} 1/{i}"
    assert calls >= 3 and weighed and set(weighed) <= {0.0, 1.0}  # a call weighed on hands seen, not guessed


def test_the_branches_tool_plays_the_expert_s_move_against_one_legal_alternative_from_the_same_position() -> None:
    # bench/expert_branches.py: one decision of seat 0 per deal changed, both branches played out
    from bench import expert_branches as branches
    from dhumbal.bots import expert

    for key in ("dashain", "nepali-games", "cardrulesplus"):
        profile = table_profile(key, 4)
        seat0 = policy("expert")
        for decision in branches.DECISIONS:
            seen = 0
            for i in range(3):
                deal = Deal.new(profile, f"1/{i}", dealer=i % 4)
                while deal.phase != "over":
                    move = policy("expert" if deal.turn == 0 else "hard")(deal)
                    found = branches.alternative(deal, move, decision) if deal.turn == 0 else None
                    if found is not None:
                        other = found[0]
                        assert deal.is_legal(other) and other != move and move == seat0(deal)
                        if decision == "call":
                            assert {move.kind, other.kind} - {"call"} and "call" in {move.kind, other.kind}
                        elif decision == "take":
                            assert move.kind == other.kind == "take" and move.source != other.source
                        else:  # the expert's runner-up
                            ranked = expert.ranked_throws(profile, deal.public_view(0))
                            assert set(ranked[0][0]) == set(move.cards) and set(ranked[1][0]) == set(other.cards)
                        seen += 1
                    deal.play(move)
            assert seen >= 2, (key, decision)
        # the branch that keeps the expert's move is the deal as the table plays it
        pairs = branches.branches(key, "expert,hard,hard,hard", 0, 4, "1", "throw")
        assert len(pairs) >= 2
        for pair in pairs:
            deal = Deal.new(profile, f"1/{pair.deal}", dealer=pair.deal % 4)
            play_out(deal, [policy("expert")] + [policy("hard")] * 3)
            assert deal.outcome is not None and pair.kept == float(credits(profile, deal.outcome)[0])
            assert pair.move != pair.alternative and {pair.kept, pair.changed} <= {0.0, 1.0}
        assert branches.branches(key, "expert,hard,hard,hard", 0, 4, "1", "throw") == pairs  # seeded
