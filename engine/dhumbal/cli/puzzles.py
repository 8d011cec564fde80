"""``python -m dhumbal puzzles``: generate (puzzles found in bot-played deals, written to a folder), grade
(puzzle files held to the rule, their grades written) and thin (near-duplicates and capped families dropped)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..worked.examples import ExampleError, example_files, read_text, shown_name
from .common import UsageError, add_rules, profile_from_args, whole


def add(sub: Any) -> None:
    sp = sub.add_parser("puzzles", help="find puzzles in bot-played deals, grade puzzle files, thin the collection")
    puzzle_sub = sp.add_subparsers(dest="puzzles_command", required=True)
    gen = puzzle_sub.add_parser("generate", help="mine positions with one clearly best move into puzzle files")
    add_rules(gen)
    gen.add_argument("--players", type=whole)
    gen.add_argument("--count", type=whole, required=True, help="how many puzzles to keep")
    gen.add_argument("--seed", type=whole, required=True, help="the run's seed: the same seed gives the same puzzles")
    gen.add_argument("--out", default="puzzles", help="the folder of puzzle files (default: puzzles)")
    gen.set_defaults(func=run)
    grd = puzzle_sub.add_parser("grade", help="hold puzzle files to the rule (every move against every opponent "
                                              "model) and write each passing file's grade into it")
    grd.add_argument("paths", nargs="+")
    grd.add_argument("--dry-run", action="store_true", help="grade and report, write nothing")
    grd.set_defaults(func=grade_files)
    thn = puzzle_sub.add_parser("thin", help="keep one puzzle of each near-duplicate cluster and at most 8 calls on "
                                             "exactly the limit (the clearest ones), and count what the set covers")
    thn.add_argument("folder")
    thn.add_argument("--dry-run", action="store_true", help="report, remove nothing")
    thn.set_defaults(func=thin_folder)


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


def grade_files(args: argparse.Namespace, out: TextIO, inp: TextIO | None) -> int:
    """``puzzles grade``: hold puzzle files to the rule and write their grades (:mod:`dhumbal.lab.puzzlegrade`)."""
    from ..lab.puzzlegrade import grade_file
    from ..worked.puzzles import is_puzzle

    files = example_files(args.paths)
    if not files:
        raise UsageError("no puzzle files found")
    failed = 0
    for f in files:
        try:
            if not is_puzzle(read_text(f, str(f))):
                raise ExampleError(str(f), None, "not a puzzle: it has no [puzzle] table")
            done = grade_file(f, write=not args.dry_run)
        except ExampleError as exc:
            failed += 1
            out.write(f"FAIL {shown_name(str(exc))}\n")
            continue
        failed += not done.passed
        out.write(f"{'ok  ' if done.passed else 'FAIL'} {shown_name(f)}: {done.message} ({done.cpu:.0f} s of CPU)\n")
    out.write(f"{len(files) - failed} graded, {failed} failed\n")
    return 1 if failed else 0


def thin_folder(args: argparse.Namespace, out: TextIO, inp: TextIO | None) -> int:
    """``puzzles thin``: one puzzle per near-duplicate cluster, capped families (:mod:`dhumbal.lab.puzzleset`)."""
    from collections import Counter
    from pathlib import Path

    from ..lab.puzzleset import summary, thin
    from ..worked.puzzles import load_file

    folder = Path(args.folder)
    if not folder.is_dir():
        raise UsageError(f"{shown_name(args.folder)} is not a folder")
    files = example_files([folder])
    try:
        puzzles = [load_file(f) for f in files]
    except ExampleError as exc:
        out.write(f"FAIL {shown_name(str(exc))}\n")
        return 1
    done = thin(puzzles)
    for p, why in done.dropped:
        out.write(f"drop {shown_name(p.path)}: {why}\n")
        if not args.dry_run:
            Path(p.path).unlink()
    out.write(f"{len(done.kept)} kept, {len(done.dropped)} dropped\n")

    def line(counts: Counter[str]) -> str:
        return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    for name, counts in summary(done.kept).items():
        out.write(f"{name}: {line(counts) or 'none'}\n")
    return 0
