"""The project's puzzles: how many, of which profiles and themes, and that each still holds.

Every generated puzzle keeps the grade its generator measured. Here each one
is read, its kept grade checked against the margin it states, its themes and
rating found; and a sample of them is graded again with a seed none of them
was graded with, and must come out best by that margin again, found by the
same bot levels. The sample changes from day to day (``DHUMBAL_PUZZLE_SAMPLE``
fixes it); it takes a minute of CPU, so it runs with the whole suite (``make
test``), not the inner loop; ``make puzzles-check`` grades every one of them again.
"""

from __future__ import annotations

import datetime
import os
import random
from collections import Counter
from pathlib import Path

import pytest

from dhumbal.trainer.themes import THEMES
from dhumbal.worked.examples import ExampleError
from dhumbal.worked.puzzles import check, load_file, puzzle_files, puzzle_rating, puzzle_themes, recheck

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
#: How many generated puzzles a run grades again.
SAMPLE = 20


def generated() -> list:
    found = [load_file(path, name=path.relative_to(ROOT).as_posix()) for path in puzzle_files([PUZZLES])]
    return [p for p in found if p.generated is not None]


def test_there_are_enough_puzzles_in_every_profile_and_theme() -> None:
    files = puzzle_files([PUZZLES])
    assert len(files) >= 150
    mined = generated()
    by_profile = Counter(p.profile.key for p in mined)
    assert all(by_profile[k] >= 40 for k in ("nepali-games", "dashain", "cardrulesplus")), by_profile
    themes: Counter[str] = Counter()
    for p in mined:
        assert p.grade is not None
        themes.update(puzzle_themes(p, p.grade))
    assert sum(1 for k in THEMES if themes[k] >= 3) >= 8, themes


def test_every_generated_puzzle_holds_its_kept_grade_and_has_a_theme_and_a_rating() -> None:
    seen = set()
    for p in generated():
        assert p.grade is not None and p.solvers is not None
        check(p, p.grade)
        assert p.deal.is_legal(p.answer, p.seat)
        assert puzzle_themes(p, p.grade), p.path
        assert isinstance(puzzle_rating(p.grade, p.solvers), int)
        key = (p.profile.key, p.deal.phase, tuple(sorted(p.deal.hands[p.seat])), tuple(sorted(p.deal.offer_cards)))
        assert key not in seen, f"{p.path} repeats another puzzle's hand and offer"
        seen.add(key)


@pytest.mark.heavy  # twenty grades of a thousand deals each: a minute of CPU, in make test, not make check
def test_a_sample_of_generated_puzzles_is_best_by_its_margin_when_graded_again() -> None:
    seed = os.environ.get("DHUMBAL_PUZZLE_SAMPLE") or datetime.date.today().isoformat()
    puzzles = generated()
    sample = random.Random(seed).sample(puzzles, min(SAMPLE, len(puzzles)))
    for p in sample:
        try:
            recheck(p)
        except ExampleError as exc:
            raise AssertionError(f"{exc} (DHUMBAL_PUZZLE_SAMPLE={seed})") from None
