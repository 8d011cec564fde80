"""``python -m dhumbal bench``: deals per CPU second for each profile, beside a lean reference loop."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..worked.examples import shown_name
from .common import UsageError, deals


def add(sub: Any) -> None:
    sp = sub.add_parser("bench", help="deals per CPU second for each profile (4 seats, medium bots) and against a lean loop")
    sp.add_argument("--deals", type=deals, default=2000, help="deals per profile in each round")
    sp.add_argument("--rounds", type=int, default=5, help="interleaved rounds (the medians are printed)")
    sp.add_argument("--lean", help="the lean reference loop (default: bench/lean_dashain.py of the checkout)")
    sp.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO | None) -> int:
    """Bot-vs-bot deals per CPU second for each profile (4 seats, medium bots), and the
    ratio of `dashain` to the lean reference loop (see :mod:`dhumbal.lab.benchmark`)."""
    from pathlib import Path

    from ..lab import benchmark

    if args.deals < 1 or args.rounds < 1:
        raise UsageError("--deals and --rounds must be at least 1")
    if args.lean and not Path(args.lean).is_file():
        raise UsageError(f"no lean reference loop at {shown_name(args.lean)}")
    try:
        return benchmark.run(out, deals=args.deals, rounds=args.rounds, lean_path=Path(args.lean) if args.lean else None)
    except benchmark.LeanLoopError as exc:
        raise UsageError(str(exc)) from None
