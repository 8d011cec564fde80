"""The engine's benchmark: bot-vs-bot deals per CPU second, and bot moves per second.

``python -m dhumbal bench`` prints, for every profile with four medium bots,
deals per CPU second of this process (so other work on a shared machine
does not lower them), as the median of several interleaved rounds, beside
the rate of the lean reference loop for `dashain` (``bench/lean_dashain.py``
in a source checkout) and the ratio of the two. Bots play on the trusted
path (:mod:`dhumbal.play.playout`), as simulations do.

:func:`bot_moves` is the measure run both in CPython and in Pyodide
(``bench/pyodide_bench.py``): the same seeded deals, the same moves.
:func:`bot_timings` times each bot move as the table makes it (a decision,
then the checked path), for the browser runtime's benchmark
(``bench/runtime_bench.py``, in a Web Worker of its own beside CPython).

Figures only: nothing here passes or fails a test.
"""

from __future__ import annotations

import importlib.util
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TextIO

from ..bots.botlevels import Difficulty, choose, policy
from ..core.profiles import PROFILE_KEYS, Profile, find_profile
from ..play.deal import Deal
from ..play.playout import play_out

SEATS = 4
TARGET_DEALS = 5_000  # deals per CPU second, every profile
TARGET_LEAN_RATIO = 0.33  # of the lean loop's rate, dashain
LEAN_LOOP = Path("bench") / "lean_dashain.py"


@dataclass(frozen=True)
class Run:
    """One measured batch of deals."""

    deals: int
    actions: int  # moves played (each a bot decision and its application)
    turns: int
    cpu: float  # seconds of this process's CPU time

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.cpu

    @property
    def moves_per_second(self) -> float:
        return self.actions / self.cpu


def bench_profile(key: str) -> Profile:
    return find_profile(key).with_options(players=SEATS)


def play_deals(profile: Profile, deals: int, *, seed: int = 1, difficulty: Difficulty = "medium",
               clock: Callable[[], float] = time.process_time) -> Run:
    """Bots play ``deals`` seeded deals (seeds ``{seed}/{i}``, the dealer moving round)."""
    bots = [policy(difficulty)] * profile.players
    actions = turns = 0
    start = clock()
    for i in range(deals):
        deal = Deal.new(profile, f"{seed}/{i}", dealer=i % profile.players)
        play_out(deal, bots)
        actions += len(deal.history)
        turns += deal.turns
    return Run(deals, actions, turns, max(clock() - start, 1e-9))


def bot_moves(key: str, deals: int, *, seed: int = 1, clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Medium bots play ``deals`` deals of profile ``key``: moves and seconds (for CPython and Pyodide alike)."""
    run = play_deals(bench_profile(key), deals, seed=seed, clock=clock)
    return {"deals": run.deals, "moves": run.actions, "seconds": run.cpu, "moves_per_second": run.moves_per_second}


def bot_timings(profile: Profile, difficulty: Difficulty, moves: int, *, seed: int | str = 1,
                clock: Callable[[], float] = time.perf_counter) -> dict[str, object]:
    """``moves`` bot moves at ``difficulty`` on seeded deals of ``profile`` (seeds ``{seed}/{i}``,
    the dealer moving round), each timed as the table makes it: the level's decision, then the
    engine's checked path (:meth:`dhumbal.play.deal.Deal.apply`). Milliseconds."""
    if moves < 1:
        raise ValueError(f"moves must be at least 1, not {moves}")
    timings: list[float] = []
    deals = 0
    deal = Deal.new(profile, f"{seed}/{deals}")
    started = clock()
    while len(timings) < moves:
        if deal.is_over:
            deals += 1
            deal = Deal.new(profile, f"{seed}/{deals}", dealer=deals % deal.players)
        t0 = clock()
        deal.apply(choose(deal, difficulty))
        timings.append((clock() - t0) * 1000.0)
    total = (clock() - started) * 1000.0
    ordered = sorted(timings)
    return {
        "profile": profile.canonical(), "difficulty": difficulty, "moves": moves, "deals": deals + 1,
        "timings_ms": [round(x, 4) for x in timings], "total_ms": round(total, 3),
        "mean_ms": round(sum(timings) / moves, 4), "median_ms": round(ordered[moves // 2], 4),
        "max_ms": round(ordered[-1], 4),
    }


def load_lean_loop(path: Path | None) -> ModuleType | None:
    """The lean reference loop of a source checkout, if it is there."""
    if path is None:
        path = Path(__file__).resolve().parents[3] / LEAN_LOOP
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("lean_dashain", path)
    if spec is None or spec.loader is None:
        raise LeanLoopError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise LeanLoopError(f"{path}:{exc.lineno or '?'}: a syntax error in the lean loop ({exc.msg})") from None
    except Exception as exc:
        raise LeanLoopError(f"{path}: the lean loop failed to load ({type(exc).__name__}: {' '.join(str(exc).split())[:200]})") from None
    if not callable(getattr(module, "rate", None)):
        raise LeanLoopError(f"{path}: the lean loop has no rate(deals) function")
    return module


class LeanLoopError(Exception):
    """A lean reference loop that cannot be loaded: ``path[:line]: what``."""


def run(out: TextIO, *, deals: int, rounds: int, lean_path: Path | None = None) -> int:
    """Measure every profile and the lean loop in interleaved rounds; print medians and ratios."""
    profiles = {key: bench_profile(key) for key in PROFILE_KEYS}
    lean = load_lean_loop(lean_path)
    for p in profiles.values():  # warm up (imports, caches)
        play_deals(p, 50, seed=99)
    runs: dict[str, list[Run]] = {key: [] for key in profiles}
    lean_rates: list[float] = []
    ratios: list[float] = []
    for _ in range(rounds):
        for key, p in profiles.items():
            runs[key].append(play_deals(p, deals))
        if lean is not None:
            lean_rates.append(float(lean.rate(deals)))
            ratios.append(runs["dashain"][-1].deals_per_second / lean_rates[-1])
    out.write(f"{SEATS} seats, medium bots, {deals} deals a round, {rounds} interleaved rounds; "
              "rates per CPU second of one process, medians (lowest–highest)\n\n")
    out.write(f"{'':<16}{'deals/s':>9}{'range':>15}{'moves/s':>10}{'turns/deal':>12}   target\n")
    for key, rs in runs.items():
        rates = [r.deals_per_second for r in rs]
        mid = statistics.median(rates)
        moves = statistics.median(r.moves_per_second for r in rs)
        verdict = "met" if mid >= TARGET_DEALS else "missed"
        out.write(f"{key:<16}{mid:>9.0f}{_range(rates):>15}{moves:>10.0f}{rs[0].turns / rs[0].deals:>12.1f}"
                  f"   ≥ {TARGET_DEALS}: {verdict}\n")
    if lean is None:
        out.write("\nlean reference loop: not found (it lives in bench/ of a source checkout; give --lean PATH)\n")
        return 0
    mid = statistics.median(lean_rates)
    ratio = statistics.median(ratios)
    out.write(f"{'lean dashain':<16}{mid:>9.0f}{_range(lean_rates):>15}\n\n")
    verdict = "met" if ratio >= TARGET_LEAN_RATIO else "missed"
    out.write(f"dashain ÷ lean loop: {ratio:.2f} (median of each round's ratio, {_range(ratios, 2)}); "
              f"target ≥ {TARGET_LEAN_RATIO}: {verdict}\n")
    return 0


def _range(values: Sequence[float], digits: int = 0) -> str:
    return f"{min(values):.{digits}f}–{max(values):.{digits}f}"


# -- the expert and the call odds (bench/expert_bench.py, in CPython and in Pyodide) ------


def expert_decisions(key: str, deals: int, *, seed: int | str = 1, clock: Callable[[], float] = time.perf_counter) -> dict[str, object]:
    """One expert (seat 0) against three hard bots for ``deals`` deals of profile ``key``:
    each of its decisions timed, and how many the time cap cut short (the same function
    runs in CPython and in Pyodide)."""
    from ..bots import expert

    profile = bench_profile(key)
    hard = policy("hard")
    timings: list[float] = []
    capped = sampled = 0
    for i in range(deals):
        deal = Deal.new(profile, f"{seed}/{i}", dealer=i % profile.players)
        while not deal.is_over:
            if deal.turn == 0:
                t0 = clock()
                d = expert.decide(deal)
                timings.append(clock() - t0)
                capped += d.capped
                sampled += d.samples > 0
                deal.play(d.action)
            else:
                deal.play(hard(deal))
    return {"deals": deals, "decisions": len(timings), "sampled": sampled, "capped": capped, "timings": timings}


def odds_requests(key: str, requests: int, *, seed: int | str = 1, clock: Callable[[], float] = time.perf_counter) -> dict[str, object]:
    """The table's hint (:func:`dhumbal.bots.odds.seat_odds` at its default sizes) at ``requests``
    turn starts of seeded deals played by hard bots, each timed."""
    from ..bots.odds import seat_odds

    profile = bench_profile(key)
    hard = policy("hard")
    timings: list[float] = []
    i = 0
    while len(timings) < requests:
        deal = Deal.new(profile, f"{seed}/odds/{i}", dealer=i % profile.players)
        i += 1
        while not deal.is_over and len(timings) < requests:
            if deal.phase == "start" and deal.turns >= profile.players:
                t0 = clock()
                seat_odds(deal)
                timings.append(clock() - t0)
                for _ in range(profile.players * 2):  # move on a few turns before the next request
                    if deal.is_over:
                        break
                    deal.play(hard(deal))
                continue
            deal.play(hard(deal))
    return {"requests": requests, "timings": timings}
