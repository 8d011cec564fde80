"""The project's puzzles: a collection worth solving, each held to its kept grade, and a sample graded again.

Every puzzle keeps the grade that kept it (every move against every opponent
model, the reader's seat played on by the expert). Here each one is read and
its kept grade checked against the rule; the collection is held to its shape
(at least 150 puzzles and 8 themes, no two near-duplicates, at most 8 calls
on exactly the limit, a puzzle the naive rule solves rated Easy); and a
sample is graded again with a seed none of them was graded with, and must
still hold, found by the same levels. The sample changes from day to day
(``DHUMBAL_PUZZLE_SAMPLE`` fixes it); it takes minutes of CPU, so it runs
with the whole suite (``make test``), not the inner loop; ``make
puzzles-check`` grades every one of them again.
"""

from __future__ import annotations

import datetime
import os
import random
from collections import Counter
from pathlib import Path

import pytest

from dhumbal.lab.puzzleset import FAMILY_CAP, cluster_key, family
from dhumbal.trainer.rating import NAIVE, band
from dhumbal.trainer.robust import OPPONENTS, feel_lead
from dhumbal.trainer.themes import THEMES
from dhumbal.worked.examples import ExampleError
from dhumbal.worked.puzzles import Puzzle, check, load_file, puzzle_files, puzzle_rating, puzzle_themes, recheck

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
#: How many puzzles a run grades again: each is graded against every opponent model
#: (about 16 s of CPU a puzzle), and the sample changes daily; ``make puzzles-check``
#: grades them all.
SAMPLE = 3


def every() -> list[Puzzle]:
    return [load_file(path, name=path.relative_to(ROOT).as_posix()) for path in puzzle_files([PUZZLES])]


#: The collection's floor (issue 51).
ENOUGH = 150


def test_there_are_at_least_150_puzzles() -> None:
    assert len(puzzle_files([PUZZLES])) >= ENOUGH


def test_there_are_puzzles_in_every_profile_and_theme() -> None:
    puzzles = every()
    assert {p.profile.key for p in puzzles} == {"nepali-games", "dashain", "cardrulesplus"}
    themes: Counter[str] = Counter()
    for p in puzzles:
        assert p.grade is not None
        themes.update(puzzle_themes(p, p.grade))
    assert sum(1 for k in THEMES if themes[k] >= 3) >= 8, themes


def test_every_puzzle_holds_its_kept_grade_against_every_opponent_and_has_a_theme_and_a_rating() -> None:
    for p in every():
        assert p.grades is not None and p.solvers is not None and p.grade is not None, p.path
        assert list(p.grades) == list(OPPONENTS)
        check(p, p.grades)
        assert p.deal.is_legal(p.answer, p.seat)
        assert puzzle_themes(p, p.grade), p.path
        rated = puzzle_rating(p)
        if NAIVE in p.solvers:
            assert band(rated) == "easy", p.path
        # a lead a player can feel, under every model
        assert all(m.diff >= feel_lead(p.profile) for g in p.grades.values() for m in g.moves[1:]), p.path


def test_no_two_puzzles_are_near_duplicates_and_one_move_families_are_capped() -> None:
    seen: dict[object, str] = {}
    families: Counter[str] = Counter()
    for p in every():
        key = cluster_key(p.deal, p.answer)
        assert key not in seen, f"{p.path} repeats {seen[key]}: the same ranks, decision and answer"
        seen[key] = p.path
        kin = family(p.deal, p.answer)
        if kin is not None:
            families[kin] += 1
    assert all(families[k] <= cap for k, cap in FAMILY_CAP.items()), families


@pytest.mark.heavy  # a few full grades against every opponent model: minutes of CPU, in make test, not make check
def test_a_sample_of_puzzles_still_holds_when_graded_again() -> None:
    seed = os.environ.get("DHUMBAL_PUZZLE_SAMPLE") or datetime.date.today().isoformat()
    puzzles = every()
    sample = random.Random(seed).sample(puzzles, min(SAMPLE, len(puzzles)))
    for p in sample:
        try:
            recheck(p)
        except ExampleError as exc:
            raise AssertionError(f"{exc} (DHUMBAL_PUZZLE_SAMPLE={seed})") from None
