"""A puzzle's kept grades: the ``[puzzle.grade]`` table of its file, read and written.

Every puzzle file carries the grade that keeps it (:mod:`dhumbal.trainer.robust`:
every move played out against each opponent model, the reader's seat played on
by the expert) and the bot levels whose own move is the answer, written by
the generator or by ``python -m dhumbal puzzles grade FILE…``; the site reads
them and grades nothing. The table::

    [puzzle.grade]
    seed = "…"                 # the seed the grade was made with
    profile = "nepali-games(players=3)"
    measure = "paid"           # or "points" (a cumulative score: fewer is better)
    reader = "expert"          # who played the reader's seat on
    solvers = ["naive", "hard"]

    [puzzle.grade.hard]        # one table per opponent model, each with every move
    samples = 400
    moves = [ { action = "throw 4♥", samples = 400, mean = 1.2, se = 0.4, diff = 0.0, … }, … ]

:func:`read_grades` checks every field by type and names the file's line of
a bad one; :func:`grade_toml` writes the table, and :func:`with_grades`
puts it in place of a file's old one, leaving every other line as it was.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..trainer.grading import MAX_GRADE_SAMPLES, Grade
from ..trainer.robust import OPPONENTS, READER, RobustGrade

__all__ = ["GRADE_KEYS", "KeptGrades", "SOLVER_LEVELS", "grade_toml", "read_grades", "with_grades"]

#: The levels whose own move may be a puzzle's answer: the naive rule (the aggressive reference
#: bot: call when allowed, else throw the heaviest group, take a face-up card worth 5 or less)
#: and the table's four bot levels.
SOLVER_LEVELS: Final = ("naive", "easy", "medium", "hard", "expert")
GRADE_KEYS: Final = frozenset({"seed", "profile", "measure", "reader", "solvers", *OPPONENTS})


@dataclass(frozen=True)
class KeptGrades:
    """What a puzzle's file keeps of its grade."""

    seed: str
    grades: dict[str, Grade]  # by opponent model, in the order of OPPONENTS
    solvers: tuple[str, ...]  # in the order of SOLVER_LEVELS

    @property
    def reference(self) -> Grade:
        """The grade against the expert's seats: the figures the page shows."""
        return self.grades["expert"]


def read_grades(raw: Any, canonical: str) -> KeptGrades:
    """The ``[puzzle.grade]`` table ``raw`` of a puzzle in the profile ``canonical``
    (``ValueError`` naming the key at fault)."""
    if not isinstance(raw, dict):
        raise ValueError("[puzzle.grade] must be a table")
    unknown = set(raw) - GRADE_KEYS
    if unknown:
        raise ValueError(f"[puzzle.grade]: unknown key {sorted(unknown)[0]!r}")
    seed = raw.get("seed")
    if not isinstance(seed, str) or not seed:
        raise ValueError("[puzzle.grade] needs the seed it was graded with, as text")
    if raw.get("profile") != canonical:
        raise ValueError(f"[puzzle.grade] is for {raw.get('profile')!r}, not {canonical}")
    if raw.get("measure") not in ("paid", "points"):
        raise ValueError("[puzzle.grade] measure must be \"paid\" or \"points\"")
    if raw.get("reader") != READER:
        raise ValueError(f"[puzzle.grade] reader must be {READER!r}")
    solvers = raw.get("solvers")
    if not isinstance(solvers, list) or not all(isinstance(s, str) and s in SOLVER_LEVELS for s in solvers) \
            or len(set(solvers)) != len(solvers):
        raise ValueError(f"[puzzle.grade] solvers must list levels, each at most once, from {', '.join(SOLVER_LEVELS)}")
    grades: dict[str, Grade] = {}
    for model in OPPONENTS:
        table = raw.get(model)
        if not isinstance(table, dict):
            raise ValueError(f"[puzzle.grade.{model}] is missing: a puzzle is graded against every opponent model")
        if set(table) != {"samples", "moves"}:
            raise ValueError(f"[puzzle.grade.{model}] needs exactly samples and moves")
        samples = table["samples"]
        if not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= MAX_GRADE_SAMPLES:
            raise ValueError(f"[puzzle.grade.{model}] samples must be a whole number from 1 to {MAX_GRADE_SAMPLES}")
        try:
            grade = Grade.from_json({"profile": canonical, "measure": raw["measure"], "samples": samples,
                                     "level": READER, "moves": table["moves"]})
        except ValueError as exc:
            raise ValueError(f"[puzzle.grade.{model}]: {exc}") from None
        if any(not 1 <= m.samples <= samples for m in grade.moves):
            raise ValueError(f"[puzzle.grade.{model}]: every move needs its samples, 1 to the grade's {samples}")
        grades[model] = grade
    return KeptGrades(seed, grades, tuple(s for s in SOLVER_LEVELS if s in solvers))


def _text(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _number(value: float) -> str:
    text = repr(round(value, 4))
    return "0.0" if text == "-0.0" else text


MOVE_FIELDS: Final = ("mean", "se", "diff", "diff_se", "won", "caught", "catch", "hand", "later")


def grade_toml(robust: RobustGrade, seed: str, solvers: tuple[str, ...]) -> str:
    """The ``[puzzle.grade]`` table of a passed ``robust`` grade made with ``seed``, and its solvers."""
    ref = robust.reference
    out = ["[puzzle.grade]", f"seed = {_text(seed)}", f"profile = {_text(ref.profile)}",
           f"measure = {_text(ref.measure)}", f"reader = {_text(READER)}",
           "solvers = [" + ", ".join(_text(s) for s in solvers) + "]"]
    for model in OPPONENTS:
        g = robust.grades[model]
        out += ["", f"[puzzle.grade.{model}]", f"samples = {g.samples}", "moves = ["]
        for m in g.moves:
            fields = [f"action = {_text(m.action.text())}", f"samples = {m.samples or g.samples}"]
            fields += [f"{k} = {_number(getattr(m, k))}" for k in MOVE_FIELDS]
            out.append("  { " + ", ".join(fields) + " },")
        out.append("]")
    return "\n".join(out) + "\n"


_HEADER: Final = re.compile(r"^\s*\[\s*([^\]]*?)\s*\]\s*(#.*)?$")


def with_grades(text: str, table: str) -> str:
    """``text`` (a puzzle file) with ``table`` (from :func:`grade_toml`) in place of its
    ``[puzzle.grade]`` tables, or after its last line when it has none; nothing else changes."""
    lines = text.splitlines()
    kept: list[str] = []
    skipping = False
    for line in lines:
        m = _HEADER.match(line)
        if m:
            name = m.group(1).replace(" ", "")
            skipping = name == "puzzle.grade" or name.startswith("puzzle.grade.")
        if not skipping:
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept) + "\n\n" + table


def grade_fields(grades: Mapping[str, Grade]) -> dict[str, Any]:
    """Each model's grade as JSON data (for reports)."""
    return {m: g.to_json() for m, g in grades.items()}
