"""Grading puzzle files: a file's answer held to the rule on two grades, and the second written into the file.

``python -m dhumbal puzzles grade FILE…`` grades each puzzle file as the
generator grades a position it mined (:mod:`dhumbal.lab.puzzlegen`, steps 3
and 4): the file's answer, held to the rule of :mod:`dhumbal.trainer.robust`
(every move played out against every opponent model, the reader's seat
played on by the expert) on a grade seeded ``a``, then again on one seeded
``b``; the second, which chose nothing, is written into the file's
``[puzzle.grade]`` with the levels that find the answer (a first grade far
past the rule, :func:`dhumbal.trainer.robust.needs_confirming`, is kept itself:
its choice is not near the edge where it biases a grade)
(:func:`dhumbal.worked.puzzles.find_solvers`), every other line left as it was.
A file whose answer fails is left untouched and reported with the model and
the move that beat it. A hand-written puzzle is graded so once; the site
reads the grade, as it reads a generated one's.

``make puzzles-check`` is the other half: :func:`dhumbal.worked.puzzles.recheck`
grades every kept puzzle again with a seed of its own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..trainer.robust import RobustGrade, feel_lead, needs_confirming
from ..worked.examples import ExampleError, read_text
from ..worked.puzzlegrades import grade_toml, with_grades
from ..worked.puzzles import find_solvers, grade_puzzle, load_text

__all__ = ["Graded", "grade_file"]


@dataclass(frozen=True)
class Graded:
    """What grading one file found."""

    path: Path
    passed: bool
    message: str
    cpu: float
    grade: RobustGrade | None = None


def grade_file(path: Path, *, write: bool = True, seeds: tuple[str, ...] = ("a", "b")) -> Graded:
    """Grade the puzzle at ``path`` once per seed of ``seeds`` (each named ``puzzle/<seed>/<id>``);
    when every grade passes and ``write``, put the last grade and the solvers into the file. (A
    file already held to the rule on a first grade of its own needs only the second: ``("b",)``.)"""
    started = time.process_time()
    text = read_text(path, str(path))
    puzzle = load_text(text, str(path), graded=False)
    if not seeds:
        raise ValueError("grade with at least one seed")
    graded: RobustGrade | None = None
    feel = feel_lead(puzzle.profile)
    for tag in seeds:
        seed = f"puzzle/{tag}/{puzzle.id}"
        graded = grade_puzzle(puzzle, seed=seed)
        if not graded.passed:
            return Graded(path, False, f"grade {tag}: {graded.reason}", time.process_time() - started, graded)
        if not needs_confirming(graded, feel):
            break
    assert graded is not None
    solvers = find_solvers(puzzle)
    updated = with_grades(text, grade_toml(graded, seed, solvers))
    try:
        load_text(updated, str(path))  # what is written reads back and holds
    except ExampleError as exc:  # pragma: no cover - a passed grade is a kept grade
        return Graded(path, False, str(exc), time.process_time() - started, graded)
    if write:
        path.write_text(updated, encoding="utf-8")
    return Graded(path, True, f"{graded.answer} ahead by at least {graded.least_lead():.2f} under every model; "
                              f"solved by {' '.join(solvers) or 'no level'}", time.process_time() - started, graded)
