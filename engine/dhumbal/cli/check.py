"""``python -m dhumbal check``: worked examples and puzzles run, every contradicted expectation named.

A file that cannot be checked is reported on one line and the next one is
checked; the exit status says whether any failed.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..worked.examples import ExampleError, example_files, load_text, read_text, shown_name
from .common import one_line


def add(sub: Any) -> None:
    sp = sub.add_parser("check", help="run example files and report every contradicted expectation")
    sp.add_argument("paths", nargs="+")
    sp.set_defaults(func=run)


def _check_puzzle(text: str, name: str) -> str:
    """Read and run a puzzle file, check its kept grade, and grade it again with a seed of its own
    (its solvers found again); what ``check`` says of it when its answer holds."""
    from ..worked import puzzles

    puzzle = puzzles.load_text(text, name)
    graded = puzzles.recheck(puzzle)
    return f"puzzle: {graded.answer} best under every opponent model, ahead by at least {graded.least_lead():.2f}"


def run(args: argparse.Namespace, out: TextIO, inp: TextIO | None) -> int:
    from ..worked.puzzles import is_puzzle

    files = example_files(args.paths)
    if not files:
        out.write("no example files found\n")
        return 2
    failed = 0
    for f in files:
        try:
            text = read_text(f, str(f))
            if is_puzzle(text):
                out.write(f"ok   {shown_name(f)} ({_check_puzzle(text, str(f))})\n")
                continue
            w = load_text(text, str(f))
        except ExampleError as exc:
            failed += 1
            out.write(f"FAIL {shown_name(str(exc))}\n")
            continue
        except (RecursionError, MemoryError, ValueError, TypeError, KeyError, IndexError) as exc:
            # Not a message the loader wrote: still one line, and the next file is checked.
            failed += 1
            out.write(f"FAIL {shown_name(f)}: cannot be checked ({type(exc).__name__}: {shown_name(one_line(exc))})\n")
            continue
        out.write(f"ok   {shown_name(f)} ({len(w.steps)} steps)\n")
    out.write(f"{len(files) - failed} passed, {failed} failed\n")
    return 1 if failed else 0
