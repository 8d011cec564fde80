"""Paired branches: would changing one of the expert's decisions win it more deals?

A screen (``bench/expert_screen.py``) changes the expert everywhere at once;
this asks the narrower question that policy improvement rests on. Each
seeded deal is played out, and one of the decisions of the chosen kind that
seat 0 met in it is drawn (seeded, each as likely); from there the deal is
played on again with an alternative in place of the expert's move, every
later move by the same policies, on the same stock.
The alternative is:

- ``throw``: the expert's runner-up (the second of :func:`dhumbal.bots.expert.ranked_throws`);
- ``take``: the other source: the stock where the expert took a face-up card,
  the lightest face-up card it may take where it drew from the stock;
- ``call``: the other choice: playing on (:func:`dhumbal.bots.expert.best_move`)
  where the expert called, a call where it played on.

The figure is the mean, over the deals that reached such a decision, of the
alternative's credit less the expert's (:func:`dhumbal.lab.arena.credits`, seat
0), with its standard error and 95 % interval, and the share of deals whose
result the change turned. The same figure is split by the expert's margin
over its runner-up, in points (``throw``), or by seat 0's hand total
(``take``, ``call``): a split where the alternative wins would be a lever,
and a policy that no single changed decision improves is where one-step
improvement stops (the figures are in bench/RESEARCH.md).

    python -m bench.expert_branches --decision throw|take|call \\
        [--table dashain:expert,aggressive ...] [--deals 2000] [--seed 1]

Figures only: nothing here passes or fails a test.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from typing import NamedTuple

from bench.expert_screen import DEFAULT_TABLES, read_table
from dhumbal.bots import expert
from dhumbal.bots.botlevels import policy
from dhumbal.lab.arena import credits, read_bots
from dhumbal.lab.strength import table_profile
from dhumbal.play.action import Action
from dhumbal.play.deal import Deal
from dhumbal.play.playout import Policy

DECISIONS = ("throw", "take", "call")
#: Split bounds: the expert's margin over its runner-up in points (throws), seat 0's total (takes, calls).
MARGINS = (1, 2, 4, 8)
TOTALS = (5, 10, 15, 20, 30)


class Branch(NamedTuple):
    """One deal played on twice from one of seat 0's decisions."""

    deal: int
    move: Action  # the expert's
    alternative: Action
    split: int  # the bucket's lower bound (margin in points, or seat 0's total)
    kept: float  # seat 0's credit with the expert's move
    changed: float  # ... and with the alternative


def _bucket(value: float | Fraction, bounds: tuple[int, ...]) -> int:
    return max([0] + [b for b in bounds if value >= b])


def alternative(deal: Deal, move: Action, decision: str) -> tuple[Action, int] | None:
    """The alternative to the expert's ``move`` at a decision of ``decision``'s kind (with
    its split bucket), or ``None`` where the position is no such decision or has none."""
    p = deal.profile
    total = sum([p.values[c] for c in deal.hands[deal.turn]])
    if decision == "call":
        if deal.phase != "start" or not deal.can_call():
            return None
        other = expert.best_move(p, deal.public_view(deal.turn)) if move.kind == "call" else Action.call()
        return (other, _bucket(total, TOTALS)) if other != move else None
    if decision == "take":
        if move.kind != "take":
            return None
        takes = [a for a in deal.legal_actions() if a.kind == "take" and a.source != move.source]
        if not takes:
            return None
        other = min(takes, key=lambda a: [p.values[c] for c in a.cards])  # the lightest face-up card
        return other, _bucket(total, TOTALS)
    if move.kind != "throw" or deal.phase != ("throw" if p.draw_first else "start"):
        return None
    try:
        ranked = expert.ranked_throws(p, deal.public_view(deal.turn))
    except ValueError:  # a hand larger than any deal deals: the expert played it as the hard bot
        return None
    if len(ranked) < 2 or set(ranked[0][0]) != set(move.cards):
        return None  # one throw only, or the expert left the decision to the hard bot (a deal gone long)
    return expert.throw_action(p, ranked[1][0]), _bucket(ranked[1][1] - ranked[0][1], MARGINS)


def _finish(deal: Deal, policies: list[Policy]) -> float:
    while deal.phase != "over":
        deal.play(policies[deal.turn](deal))
    assert deal.outcome is not None
    return float(credits(deal.profile, deal.outcome)[0])


def branches(key: str, bots: str, lo: int, hi: int, seed: str, decision: str) -> list[Branch]:
    """The branch pairs of deals ``range(lo, hi)`` (deals that reach no such decision give none)."""
    levels = read_bots(bots)
    profile = table_profile(key, len(levels))
    policies = [policy(b) for b in levels]
    out: list[Branch] = []
    for i in range(lo, hi):
        deal = Deal.new(profile, f"{seed}/{i}", dealer=i % profile.players)
        spots: list[tuple[Deal, Action, Action, int]] = []  # each decision of the kind: where, the move, the other
        while deal.phase != "over":
            move = policies[deal.turn](deal)
            found = alternative(deal, move, decision) if deal.turn == 0 else None
            if found is not None:
                spots.append((deal.copy(), move, *found))
            deal.play(move)
        if spots:
            at, move, other, split = spots[random.Random(f"dhumbal/branches/{seed}/{i}").randrange(len(spots))]
            kept = _finish(deal, policies)  # the deal as played: the expert's move kept
            at.play(other)
            out.append(Branch(i, move, other, split, kept, _finish(at, policies)))
    return out


def _job(job: tuple[str, str, int, int, str, str]) -> list[Branch]:
    return branches(*job)


def _line(label: str, diffs: list[float]) -> str:
    n = len(diffs)
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)  # n > 1: the caller prints no fewer
    turned = sum(1 for d in diffs if d) / n
    return (f"    {label:<24}{n:>7}{mean:>+9.3f}{se:>7.3f}"
            f"{f'[{mean - 1.96 * se:+.3f}, {mean + 1.96 * se:+.3f}]':>19}{turned:>8.0%}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decision", required=True, choices=DECISIONS, help="the kind of decision changed")
    ap.add_argument("--table", action="append", default=[], metavar="PROFILE:BOTS", help="a table (the goal tables by default)")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    try:
        tables = [read_table(t) for t in (args.table or DEFAULT_TABLES)]
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.deals < 2 or args.workers < 1:
        print("error: give --deals of 2 or more and --workers of 1 or more", file=sys.stderr)
        return 2
    split = "margin (points)" if args.decision == "throw" else "seat 0's total"
    print(f"one {args.decision} of seat 0 per deal changed, deals 0..{args.deals - 1} (seed {args.seed}), paired: "
          f"the alternative's credit less the expert's")
    chunks = 10 * args.workers
    bounds = [args.deals * k // chunks for k in range(chunks + 1)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for key, bots in tables:
            t0 = time.perf_counter()
            jobs = [(key, bots, lo, hi, args.seed, args.decision) for lo, hi in zip(bounds, bounds[1:]) if hi > lo]
            pairs = [b for part in pool.map(_job, jobs) for b in part]
            print(f"  {key} {bots}  ({time.perf_counter() - t0:.0f} s)")
            if len(pairs) < 2:
                print("    too few deals reached such a decision")
                continue
            print(f"    {'':<24}{'deals':>7}{'diff':>9}{'se':>7}{'95 % of diff':>19}{'turned':>8}")
            print(_line("all", [b.changed - b.kept for b in pairs]))
            for bucket in sorted({b.split for b in pairs}):
                diffs = [b.changed - b.kept for b in pairs if b.split == bucket]
                if len(diffs) > 1:
                    print(_line(f"{split} {bucket}+", diffs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
