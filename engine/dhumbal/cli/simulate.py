"""``python -m dhumbal simulate``: bot deals and a summary, or a mixed table's win shares.

Bots play on the trusted path, as ``bench`` does; ``--check`` sends every
move through the rules' full check instead, and a move the rules refuse
(an engine bug) ends the command with :class:`SimulationError`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any, TextIO

from ..bots.botlevels import DIFFICULTIES, Difficulty, policy
from ..core.profiles import Profile
from ..play.deal import Deal, IllegalAction
from ..play.playout import play_out
from .common import UsageError, add_rules, deals, profile_from_args, whole


def add(sub: Any) -> None:
    sp = sub.add_parser("simulate", help="bot deals and a summary")
    add_rules(sp)
    sp.add_argument("--players", type=whole)
    sp.add_argument("--seed", type=whole, default=1)
    sp.add_argument("--difficulty", choices=DIFFICULTIES, default="medium")
    sp.add_argument("--deals", type=deals, default=1000)
    sp.add_argument("--bots", metavar="LEVEL,LEVEL,…",
                    help="a mixed table, one level per seat (e.g. expert,hard,hard,hard): "
                         "each seat's win share and average settlement; levels: easy, medium, hard, "
                         "expert, and aggressive (the champion agent of arXiv 2510.11736)")
    sp.add_argument("--check", action="store_true",
                    help="send every bot move through the rules' full check (slower); "
                         "by default bots play on the trusted path, as bench does")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=run)


class SimulationError(Exception):
    """``simulate --check`` found a bot move that the rules refuse (an engine bug)."""


def _simulate(profile: Profile, deals: int, seed: int, difficulty: Difficulty, *, checked: bool = False) -> dict[str, Any]:
    """Bots play ``deals`` seeded deals (seeds ``{seed}/{i}``, the dealer moving round), as
    ``bench`` does: on the trusted path (:func:`dhumbal.play.playout.play_out`), or with
    ``checked`` every move through ``Deal.apply`` (full check and messages). Both paths
    play the same moves, so they give the same figures; only the rates differ."""
    bot = policy(difficulty)
    moves = turns = calls = caught = caps = 0
    hand_at_call: list[int] = []
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i in range(deals):
        d = Deal.new(profile, f"{seed}/{i}", dealer=i % profile.players)
        try:
            o = play_out(d, bot, checked=checked)
        except IllegalAction as exc:  # only with checked: apply refused a bot's move, the deal unchanged
            raise SimulationError(
                f"deal {seed}/{i}, turn {d.turns}: the {difficulty} bot of seat {d.turn} made a move "
                f"the rules refuse ({exc})"
            ) from None
        moves += len(d.history)
        turns += d.turns
        if o.reason == "call":
            calls += 1
            caught += o.caught
            assert o.caller is not None
            hand_at_call.append(o.hands[o.caller])
        else:
            caps += 1
    elapsed = max(time.perf_counter() - start, 1e-9)
    cpu = max(time.process_time() - cpu_start, 1e-9)
    return {
        "checked": checked,
        "deals": deals,
        "moves": moves,
        "turns": turns,
        "mean_turns": turns / deals,
        "calls": calls,
        "caught_rate": caught / calls if calls else 0.0,
        "caps": caps,
        "mean_hand_at_call": statistics.fmean(hand_at_call) if hand_at_call else 0.0,
        "deals_per_second": deals / cpu,
        "deals_per_wall_second": deals / elapsed,
        "moves_per_second": moves / cpu,
        "mean_move_us": cpu / moves * 1e6 if moves else 0.0,
    }


#: What ``simulate --json`` prints that depends on the machine, not on the deals.
RATE_KEYS = ("deals_per_second", "deals_per_wall_second", "moves_per_second", "mean_move_us")


def run(args: argparse.Namespace, out: TextIO, inp: TextIO | None) -> int:
    if args.bots is not None:
        return _simulate_table(args, out)
    profile = profile_from_args(args)
    r = _simulate(profile, args.deals, args.seed, args.difficulty, checked=args.check)
    if args.json:
        out.write(json.dumps({"profile": profile.canonical(), "difficulty": args.difficulty, **r}, indent=2) + "\n")
        return 0
    path = "checked (every move through the rules' full check)" if r["checked"] else "trusted (bot moves played unchecked, as bench does)"
    out.write(f"profile            {profile.canonical()}\n")
    out.write(f"difficulty         {args.difficulty}\n")
    out.write(f"path               {path}\n")
    out.write(f"deals              {r['deals']}\n")
    out.write(f"turns              {r['turns']} (mean {r['mean_turns']:.1f} a deal)\n")
    out.write(f"calls              {r['calls']} (caught {r['caught_rate']:.1%})\n")
    out.write(f"turn caps          {r['caps']}\n")
    out.write(f"mean hand at call  {r['mean_hand_at_call']:.2f}\n")
    out.write(f"deals per second   {r['deals_per_second']:.0f} per CPU second ({r['deals_per_wall_second']:.0f} by the clock)\n")
    out.write(f"moves              {r['moves']} ({r['moves_per_second']:.0f} per CPU second, "
              f"{r['mean_move_us']:.1f} µs each: the bot's decision and its play)\n")
    return 0


def _simulate_table(args: argparse.Namespace, out: TextIO) -> int:
    """``simulate --bots LEVEL,LEVEL,…``: one level per seat; each seat's win share and settlement."""
    from ..lab.arena import play_table, read_bots

    if args.check:
        raise UsageError("--check checks tables of one level (--difficulty); a --bots table plays on the trusted path only")
    try:
        bots = read_bots(args.bots)
    except ValueError as exc:
        raise UsageError(f"--bots: {exc}") from None
    if args.players is not None and args.players != len(bots):
        raise UsageError(f"--players {args.players} and --bots name {len(bots)} seats; give one or the other")
    args.players = len(bots)
    profile = profile_from_args(args)
    result = play_table(profile, bots, args.deals, seed=args.seed)
    if args.json:
        out.write(json.dumps(result.to_json(), indent=2) + "\n")
        return 0
    better = "fewest points" if result.measure == "points" else "highest"
    out.write(f"profile     {result.profile}\n")
    out.write(f"deals       {result.deals} (seed {result.seed}; the dealer moves one seat each deal)\n")
    out.write(f"settlement  {result.measure} per deal ({better} is best)\n\n")
    out.write(f"{'seat':<6}{'bot':<12}{'wins':>7}{'win share':>11}{'settlement':>12}{'calls':>7}{'caught':>8}\n")
    best = set(result.best_seats())
    for s, r in enumerate(result.seats):
        mark = "  best" if s in best else ""
        wins = f"{round(float(r.credit), 1):g}"  # a deal no one is named to win is shared (dhumbal.lab.arena)
        out.write(f"{s:<6}{r.bot:<12}{wins:>7}{result.win_share(s):>11.1%}{result.mean_settlement(s):>12.2f}"
                  f"{r.calls:>7}{r.caught:>8}{mark}\n")
    return 0
