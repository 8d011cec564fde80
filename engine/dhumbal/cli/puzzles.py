"""``python -m dhumbal puzzles generate``: puzzles found in bot-played deals, written to a folder."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..worked.examples import shown_name
from .common import UsageError, add_rules, profile_from_args, whole


def add(sub: Any) -> None:
    sp = sub.add_parser("puzzles", help="find puzzles in bot-played deals")
    puzzle_sub = sp.add_subparsers(dest="puzzles_command", required=True)
    gen = puzzle_sub.add_parser("generate", help="mine positions with one clearly best move into puzzle files")
    add_rules(gen)
    gen.add_argument("--players", type=whole)
    gen.add_argument("--count", type=whole, required=True, help="how many puzzles to keep")
    gen.add_argument("--seed", type=whole, required=True, help="the run's seed: the same seed gives the same puzzles")
    gen.add_argument("--out", default="puzzles", help="the folder of puzzle files (default: puzzles)")
    gen.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO | None) -> int:
    """``puzzles generate``: mine puzzles from bot-played deals into a folder (see :mod:`dhumbal.lab.puzzlegen`)."""
    from pathlib import Path

    from ..lab.puzzlegen import Miner

    if args.count < 1:
        raise UsageError("--count must be at least 1")
    folder = Path(args.out)
    if not folder.is_dir():
        raise UsageError(f"--out: {shown_name(args.out)} is not a folder")
    profile = profile_from_args(args)
    miner = Miner(profile, args.seed, folder, log=out)
    kept = miner.run(args.count)
    return 0 if len(kept) == args.count else 1
