"""The lean reference loop of the benchmark plays the same game as the engine.

``bench/lean_dashain.py`` is the yardstick for the engine's speed (``make
bench``); it is only a fair one if it does the same work. Deal for deal, from
the same seeds, it must end where the engine with four medium bots ends: the
same number of turns, the same caller, the same payments.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from dhumbal.bots.botlevels import play_deal
from dhumbal.lab.benchmark import bench_profile, load_lean_loop
from dhumbal.play.deal import Deal

LEAN = Path(__file__).resolve().parents[2] / "bench" / "lean_dashain.py"


@pytest.fixture(scope="module")
def lean() -> ModuleType:
    module = load_lean_loop(LEAN)
    assert module is not None, f"{LEAN} is missing"
    return module


def test_the_lean_loop_ends_every_deal_as_the_engine_does(lean: ModuleType) -> None:
    p = bench_profile("dashain")
    for i in range(400):
        d = Deal.new(p, f"1/{i}", dealer=i % 4)
        play_deal(d, "medium")
        assert d.outcome is not None
        assert lean.play_deal(f"1/{i}", i % 4) == (d.turns, d.outcome.caller, list(d.outcome.paid)), f"deal 1/{i}"


def test_the_lean_loop_reaches_the_late_game_rules_too(lean: ModuleType) -> None:
    # the bots' closing play (past 120 turns) is part of the policy; under limit 1
    # calls are rare, so deals run long and the lean loop must follow them there
    lean.LIMIT, lean.CALL_AT = 1, 0
    try:
        p = bench_profile("dashain").with_options(limit=1)
        long = 0
        for i in range(40):
            d = Deal.new(p, f"1/{i}", dealer=i % 4)
            play_deal(d, "medium")
            assert d.outcome is not None
            long += d.turns > 120
            assert lean.play_deal(f"1/{i}", i % 4) == (d.turns, d.outcome.caller, list(d.outcome.paid)), f"deal 1/{i}"
        assert long > 0
    finally:
        lean.LIMIT, lean.CALL_AT = 10, 9


def test_the_benchmark_finds_the_lean_loop_in_a_checkout() -> None:
    assert load_lean_loop(None) is not None
    assert load_lean_loop(LEAN.with_name("missing.py")) is None
    assert importlib.util.find_spec("dhumbal.lab.benchmark") is not None


def test_bot_timings_time_each_move_the_table_makes() -> None:
    from dhumbal.lab.benchmark import bot_timings

    r = bot_timings(bench_profile("dashain"), "hard", 300, seed=3)
    timings = r["timings_ms"]
    assert isinstance(timings, list) and len(timings) == 300 == r["moves"] and all(t >= 0 for t in timings)
    assert r["max_ms"] == max(timings) and r["profile"] == "dashain" and r["difficulty"] == "hard"
    # 300 moves run over several seeded deals, the same ones every time
    assert isinstance(r["deals"], int) and r["deals"] > 1
    assert bot_timings(bench_profile("dashain"), "hard", 300, seed=3)["deals"] == r["deals"]
    with pytest.raises(ValueError):
        bot_timings(bench_profile("dashain"), "hard", 0)
