"""A puzzle's answer in words: the best move, the fact it turns on, and what it is worth, for every move the reader may make.

What the Puzzles page shows once the reader has moved (or asked to see the
answer), in the reader's language, from the puzzle's kept grades only:

- the best move;
- the reader's own move: the best one, or how much worse it leaves them;
- why: the fact the position turns on (:mod:`dhumbal.trainer.deciding`), a fact
  about the move itself (:func:`dhumbal.trainer.advice.move_fact`: what a throw
  sheds and keeps, what a card taken is worth), and the lead in figures a
  player reads: a whole number of points, the least the answer gained over the
  other move under any of the opponent models, "at least 3 points better
  off on average", never a standard error;
- a note on how the figures were found.

A lead is the least over every model because the page says it held "against
every kind of opponent tried"; the rule of :mod:`dhumbal.trainer.robust` makes
it at least the profile's felt lead, so it is never "0 points".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from ..bots.levels import percent
from ..core.i18n import N_, NP_, count_text, number, translator
from ..play.action import Action
from ..trainer.advice import OUTCOME_CATCH, OUTCOME_CAUGHT, TELLING, move_fact, move_text
from ..trainer.deciding import deciding_facts
from ..trainer.grading import Grade, MoveGrade, move_key
from .puzzles import Puzzle

__all__ = ["BEST", "answer_lines", "least_lead"]

BEST: Final = N_("Best: {move}.")
YOURS_BEST: Final = N_("Your move, {move}, is the best one.")
YOURS_PAID: Final = NP_(
    "Your move, {move}, leaves you at least {behind} point worse off on average than the best, whatever kind of opponent you face.",
    "Your move, {move}, leaves you at least {behind} points worse off on average than the best, whatever kind of opponent you face.",
)
YOURS_POINTS: Final = NP_(
    "Your move, {move}, adds at least {behind} point more to your score on average than the best, whatever kind of opponent you face.",
    "Your move, {move}, adds at least {behind} points more to your score on average than the best, whatever kind of opponent you face.",
)
LEAD_PAID: Final = NP_(
    "Against every kind of opponent tried, {best} leaves you at least {lead} point better off on average than {other}.",
    "Against every kind of opponent tried, {best} leaves you at least {lead} points better off on average than {other}.",
)
LEAD_POINTS: Final = NP_(
    "Against every kind of opponent tried, {best} adds at least {lead} point fewer to your score on average than {other}.",
    "Against every kind of opponent tried, {best} adds at least {lead} points fewer to your score on average than {other}.",
)
NOTE: Final = NP_(
    "Each move was played out to the end on at least {count} deal that fits what you have seen, against four kinds of opponent: strong, cautious, calling whenever they may, and the aggressive reference bot.",
    "Each move was played out to the end on at least {count} deals that fit what you have seen, against four kinds of opponent: strong, cautious, calling whenever they may, and the aggressive reference bot.",
)

def least_lead(puzzle: Puzzle, action: Action) -> float:
    """The least the answer gained over ``action`` under any opponent model (0 for the answer itself)."""
    assert puzzle.grades is not None
    key = move_key(action)
    leads = [m.diff for g in puzzle.grades.values() for m in g.moves if move_key(m.action) == key]
    return min(leads) if leads else 0.0


def _whole(value: float) -> int:
    """A lead said as "at least" a whole number of points."""
    return max(0, math.floor(value + 1e-9))


def _other(grade: Grade, chosen: Action | None) -> MoveGrade | None:
    """The move the answer is compared with: the reader's own, else the next best."""
    mine = grade.of(chosen) if chosen is not None else None
    if mine is None or move_key(mine.action) == move_key(grade.best.action):
        return grade.moves[1] if len(grade.moves) > 1 else None
    return mine


def answer_lines(puzzle: Puzzle, chosen: Action | None, lang: str, names: Sequence[str]) -> dict[str, Any]:
    """The answer panel for the reader's move ``chosen`` (None: the reader only asked to see it):
    ``best`` (said once, with no move), ``yours``, ``why`` (sentences) and ``note``."""
    grade = puzzle.grade
    assert grade is not None and puzzle.grades is not None
    t = translator(lang)
    profile = puzzle.profile
    view = puzzle.view()
    paid = grade.measure == "paid"
    best = grade.best
    out: dict[str, Any] = {"best": None, "yours": None}
    if chosen is None:
        out["best"] = t(BEST, move=move_text(profile, view, best.action, lang))
    else:
        mine = grade.of(chosen)
        if mine is None:
            raise ValueError(f"{chosen} is not a move of this position")
        move = move_text(profile, view, mine.action, lang)
        if move_key(mine.action) == move_key(best.action):
            out["yours"] = t(YOURS_BEST, move=move)
        else:
            behind = _whole(least_lead(puzzle, mine.action))
            out["yours"] = t.plural(*(YOURS_PAID if paid else YOURS_POINTS), behind, move=move,
                                    behind=number(str(behind), lang))
    why = deciding_facts(profile, view, grade, names, lang)
    other = _other(grade, chosen)
    if best.action.kind == "take" and best.action.source == "stock" and other is not None \
            and other.action.kind == "take":
        why.append(move_fact(profile, view, other.action, lang, best=False))  # what the face-up card would do
    if best.action.kind != "call":
        why.append(move_fact(profile, view, best.action, lang, best=True))
    if other is not None:
        names_ = {"best": move_text(profile, view, best.action, lang),
                  "other": move_text(profile, view, other.action, lang),
                  "won": percent(best.won, lang), "won_other": percent(other.won, lang)}
        if other.action.kind == "call" and other.caught >= TELLING:
            why.append(t(OUTCOME_CAUGHT, caught=percent(other.caught, lang), **names_))
        elif best.catch >= TELLING and best.catch > other.catch:
            why.append(t(OUTCOME_CATCH, catch=percent(best.catch, lang), **names_))
        lead = _whole(least_lead(puzzle, other.action))
        why.append(t.plural(*(LEAD_PAID if paid else LEAD_POINTS), lead, best=names_["best"], other=names_["other"],
                            lead=number(str(lead), lang)))
    least = min(m.samples or g.samples for g in puzzle.grades.values() for m in g.moves)
    out["why"] = why
    out["note"] = t.plural(*NOTE, least, count=count_text(least, lang))
    return out
