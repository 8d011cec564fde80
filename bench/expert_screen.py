"""A paired screen of an expert variant against today's expert, on the same seeded deals.

A change to the expert moves its win share by a point or two; two unpaired
runs of 2,000 deals each differ by more than that from the deals alone
(about ±2 points at 95 %). Here every deal is played twice, once with
today's expert in seat 0 and once with the variant, everything else alike
(the same deal ``f"{seed}/{i}"``, dealer and opponents as in
:func:`dhumbal.lab.arena.play_table`), and the figure reported is the mean of
the per-deal differences in seat 0's credit (:func:`dhumbal.lab.arena.credits`)
with its standard error: most deals go the same way both times, so the
difference is measured far more tightly than either share. Screen a lever on
a few hundred deals; confirm one that helps on 2,000 (``--deals 2000``, the
figures the goals and the rules pages use); only then change the expert
and re-measure with ``make strength``.

A variant is today's expert with some of its whole-number settings changed
(``--set NAME=N`` for a setting of :mod:`dhumbal.bots.expert`, ``--set
RISK.PROFILE=N`` or ``RACE.PROFILE=N`` for the tuning in a profile's record,
:class:`dhumbal.core.profiles.BotTuning`), applied in the worker processes only. ``--shown-hands`` makes the variant
today's expert shown every other seat's hand (the stock still unknown): not
a player but a ceiling, the most that better beliefs about the hidden hands
could give (the figures are in bench/RESEARCH.md).

    python -m bench.expert_screen --set RISK.dashain=60 [--set SIZE=5] \\
        [--table dashain:expert,aggressive ...] [--deals 400] [--start 0] [--seed 1]
    python -m bench.expert_screen --shown-hands [--table ...] [--deals 2000]

Figures only: nothing here passes or fails a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from dhumbal.bots import expert
from dhumbal.bots.botlevels import policy
from dhumbal.core import profiles
from dhumbal.core.profiles import PROFILE_KEYS
from dhumbal.lab.arena import credits, read_bots
from dhumbal.lab.strength import table_profile
from dhumbal.play.action import Action
from dhumbal.play.deal import Deal
from dhumbal.play.playout import play_out

#: The goal tables of issue 23 (the expert in seat 0).
DEFAULT_TABLES = (
    "dashain:expert,aggressive",
    "dashain:expert,aggressive,aggressive,aggressive",
    "dashain:expert,hard,hard,hard",
    "nepali-games:expert,hard,hard,hard",
    "cardrulesplus:expert,hard,hard,hard",
)

Overrides = list[tuple[str, str | None, int]]


#: The per-profile settings (:class:`dhumbal.core.profiles.BotTuning`), by the name ``--set`` gives them.
TUNING = {"RISK": "risk", "RACE": "race"}


def read_set(text: str) -> tuple[str, str | None, int]:
    """``NAME=N``, or ``NAME.PROFILE=N`` for a profile's tuning, as a setting of the expert to
    change (``ValueError`` saying why not)."""
    name, sep, number = text.partition("=")
    if not sep:
        raise ValueError(f"{text!r}: expected NAME=N or NAME.PROFILE=N")
    name, _, key = name.strip().partition(".")
    try:
        value = int(number)
    except ValueError:
        raise ValueError(f"{text!r}: {number.strip()!r} is not a whole number") from None
    if name in TUNING:
        if key not in profiles.RECORDS:
            raise ValueError(f"{text!r}: {name} is set for one profile ({name}.PROFILE=N), not {key!r}")
        return name, key, value
    current = getattr(expert, name, None)
    if not name.isupper() or current is None or key:
        raise ValueError(f"{text!r}: the expert has no setting {text.partition('=')[0].strip()!r}")
    if isinstance(current, bool) or not isinstance(current, int):
        raise ValueError(f"{text!r}: {name} is not a whole-number setting")
    return name, None, value


def read_table(text: str) -> tuple[str, str]:
    key, sep, bots = text.partition(":")
    if not sep or key not in PROFILE_KEYS:
        raise ValueError(f"{text!r}: expected PROFILE:BOT,BOT,... with a profile among {', '.join(PROFILE_KEYS)}")
    levels = read_bots(bots)
    if levels[0] != "expert":
        raise ValueError(f"{text!r}: the expert sits in seat 0")
    table_profile(key, len(levels))  # the profile seats that many
    return key, bots


#: The expert's settings as imported: the worker processes are reused from job to job, so
#: every job starts from these (a variant's job must not leak into the next "today" job).
_ORIGINAL: dict[str, Any] = {name: value for name, value in vars(expert).items() if name.isupper()}
_ORIGINAL_RECORDS = dict(profiles.RECORDS)


def _apply(overrides: Overrides) -> None:
    for name, value in _ORIGINAL.items():
        setattr(expert, name, value)
    profiles.RECORDS.update(_ORIGINAL_RECORDS)
    for name, key, value in overrides:
        if key is None:
            setattr(expert, name, value)
        else:
            record = profiles.RECORDS[key]
            tuning = dataclasses.replace(record.tuning, **{TUNING[name]: value})
            profiles.RECORDS[key] = dataclasses.replace(record, tuning=tuning)


def shown_hands_decision(deal: Deal) -> expert.Decision:
    """Today's expert's decision for the seat on turn as if it saw every other hand:
    the others' cards become cards it knows them to hold, and only the stock stays unseen."""
    view = deal.public_view(deal.turn)
    held = {c for s, h in enumerate(deal.hands) if s != view.seat for c in h}
    known = tuple(k if s == view.seat else tuple(deal.hands[s]) for s, k in enumerate(view.known))
    unseen = tuple(c for c in view.unseen if c not in held)
    return expert.decide_view(deal.profile, dataclasses.replace(view, known=known, unseen=unseen))


def shown_hands(deal: Deal) -> Action:
    """:func:`shown_hands_decision` as a policy (a ceiling for screens, never a player)."""
    return shown_hands_decision(deal).action


def _credits(job: tuple[str, str, int, int, str, Overrides, bool]) -> list[float]:
    """Seat 0's credit in each deal of ``range(lo, hi)``, the variant's settings applied."""
    key, bots, lo, hi, seed, overrides, shown = job
    _apply(overrides)
    levels = read_bots(bots)
    profile = table_profile(key, len(levels))
    policies = [policy(b) for b in levels]
    if shown:
        policies[0] = shown_hands
    out: list[float] = []
    for i in range(lo, hi):
        deal = Deal.new(profile, f"{seed}/{i}", dealer=i % profile.players)
        play_out(deal, policies)
        assert deal.outcome is not None
        out.append(float(credits(profile, deal.outcome)[0]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", default=[], metavar="NAME[.KEY]=N", help="a setting of the variant")
    ap.add_argument("--shown-hands", action="store_true", help="the variant sees every other hand (a ceiling)")
    ap.add_argument("--table", action="append", default=[], metavar="PROFILE:BOTS", help="a table (the goal tables by default)")
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--start", type=int, default=0, help="the first deal's number (to extend an earlier screen)")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    try:
        overrides: Overrides = [read_set(s) for s in args.set]
        tables = [read_table(t) for t in (args.table or DEFAULT_TABLES)]
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not (overrides or args.shown_hands) or args.deals < 2 or args.start < 0 or args.workers < 1:
        print("error: give at least one --set (or --shown-hands), --deals of 2 or more, --start of 0 or more, "
              "--workers of 1 or more", file=sys.stderr)
        return 2
    variant = " ".join(args.set + (["--shown-hands"] if args.shown_hands else []))
    print(f"variant {variant} against today's expert, deals {args.start}..{args.start + args.deals - 1} "
          f"(seed {args.seed}), paired")
    print(f"  {'profile':<15}{'table':<38}{'today':>7}{'variant':>9}{'diff':>8}{'se':>7}{'95 % of diff':>19}")
    bounds = [args.start + args.deals * k // args.workers for k in range(args.workers + 1)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for key, bots in tables:
            t0 = time.perf_counter()
            runs: dict[str, list[float]] = {}
            for name, over, shown in (("today", [], False), ("variant", overrides, args.shown_hands)):
                jobs: list[Any] = [(key, bots, lo, hi, args.seed, over, shown) for lo, hi in zip(bounds, bounds[1:])]
                runs[name] = [x for part in pool.map(_credits, jobs) for x in part]
            n = args.deals
            diffs = [v - t for v, t in zip(runs["variant"], runs["today"])]
            mean = sum(diffs) / n
            se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
            print(f"  {key:<15}{bots:<38}{sum(runs['today']) / n:>7.3f}{sum(runs['variant']) / n:>9.3f}"
                  f"{mean:>+8.3f}{se:>7.3f}{f'[{mean - 1.96 * se:+.3f}, {mean + 1.96 * se:+.3f}]':>19}"
                  f"  ({time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
