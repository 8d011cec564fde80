"""Review of a finished deal: each of one seat's moves beside the expert's choice, and what it cost.

:func:`review_deal` replays a deal from its start through its history (every
action checked again by the engine) and, at each move of the reviewed seat,
asks the expert what it would have done from that seat's view alone
(:func:`dhumbal.bots.expert.decide`). Where the two differ (as moves: a throw is
its set of cards, a take its source and card, see :func:`move_key`), the
cost is measured as a puzzle's grade is (:func:`dhumbal.trainer.grading.grade_view`
with just the two moves): both are played out to the end of the deal on the
same :data:`REVIEW_SAMPLES` sampled deals by the hard bot, and the cost is
the mean difference in the profile's measure (settlement points, or points
on the score in `cardrulesplus`) with the standard error of that paired
difference. A cost may come out at or below zero: the playouts then found
the reader's move as good as the expert's, and the review says so.

A move is a **mistake** (:attr:`ReviewStep.mistake`, the one the review
marks) only when its cost is larger than its uncertainty: at least
:data:`MISTAKE_SE` standard errors and at least :data:`MISTAKE_POINTS`. A
move the expert would not have made but whose cost is within the noise
(throwing Q♥ rather than J♥ of the same worth) is as good as the expert's.

Deterministic like the grades: the same deal gives the same review on every
runtime.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..bots import expert
from ..play.action import Action
from ..play.deal import Deal
from ..play.records import state_to_json
from .grading import Grade, MoveKey, grade_view, move_key, moves

__all__ = ["MISTAKE_POINTS", "MISTAKE_SE", "REVIEW_SAMPLES", "ReviewError", "ReviewStep", "review_deal", "same_move"]

#: Sampled deals behind each cost (each of the two moves is played out on every one) ...
REVIEW_SAMPLES: Final = 100
#: ... unless the deal has many costed moves: then they share this many samples, down to
#: :data:`MIN_SAMPLES` each, so that a long deal's review stays a few seconds' work on a phone.
REVIEW_BUDGET: Final = 1_200
MIN_SAMPLES: Final = 30
#: The most moves of one seat a review weighs (a capped deal holds a few hundred).
MAX_REVIEWED: Final = 200
#: A move is marked as a mistake only when its cost is at least this many standard errors ...
MISTAKE_SE: Final = 2
#: ... and at least this many points.
MISTAKE_POINTS: Final = 0.5


class ReviewError(ValueError):
    """A deal that cannot be reviewed (its history does not replay from the start given)."""


@dataclass(frozen=True)
class ReviewStep:
    """One move of the reviewed seat: the position before it, the move, the expert's choice, the cost."""

    number: int  # 1, 2, … among the seat's moves
    before: Deal  # the position before the move (a copy; not to be changed)
    yours: Action
    expert: Action
    cost: float | None = None  # the measure the move gave up against the expert's (None: the same move)
    cost_se: float | None = None
    samples: int = 0
    grade: Grade | None = None  # the two moves played out (where they differ): the figures behind the cost

    @property
    def differs(self) -> bool:
        """Whether the expert would have made another move."""
        return self.cost is not None

    @property
    def mistake(self) -> bool:
        """Whether the move cost more than its uncertainty (see the module docstring)."""
        return (self.cost is not None and self.cost_se is not None and self.cost >= MISTAKE_POINTS
                and self.cost >= MISTAKE_SE * self.cost_se)

    def state(self) -> dict[str, object]:
        """The position before the move, as a table's ``position`` request takes it (Play from here)."""
        return state_to_json(self.before)


def _key(deal: Deal, action: Action) -> MoveKey:
    """Which move ``action`` is in ``deal``: a take of the pile's top card is the same move
    whether or not it names the card."""
    if action.kind == "take" and action.source == "pile" and not action.cards and deal.pile:
        return ("take", "pile", frozenset({deal.pile[-1]}))
    return move_key(action)


def same_move(deal: Deal, a: Action, b: Action) -> bool:
    """Whether ``a`` and ``b`` are the same move for the seat on turn of ``deal``."""
    return _key(deal, a) == _key(deal, b)


def review_deal(start: Deal, history: Sequence[tuple[int, Action]], seat: int, *,
                samples: int = REVIEW_SAMPLES, budget: int = REVIEW_BUDGET) -> list[ReviewStep]:
    """Every move of ``seat`` in the deal that ``history`` plays from ``start`` (a fresh copy is
    replayed; ``start`` is not changed), beside the expert's choice and, where they differ, its cost
    (from ``samples`` sampled deals each, fewer when the moves to cost would need more than
    ``budget`` in all, never fewer than :data:`MIN_SAMPLES`)."""
    steps = _steps(start, history, seat)
    differ = sum(1 for s in steps if not same_move(s.before, s.yours, s.expert))
    each = max(min(samples, MIN_SAMPLES), min(samples, budget // max(differ, 1)))
    return [s if same_move(s.before, s.yours, s.expert) else _costed(s, each) for s in steps]


def _steps(start: Deal, history: Sequence[tuple[int, Action]], seat: int) -> list[ReviewStep]:
    """The moves of ``seat`` with the expert's choice at each, not yet costed."""
    deal = start.copy()
    steps: list[ReviewStep] = []
    for index, (actor, action) in enumerate(history):
        if actor == seat and deal.turn == seat and not deal.is_over:
            if len(steps) >= MAX_REVIEWED:
                raise ReviewError(f"more than {MAX_REVIEWED} moves to review")
            before = deal.copy()
            choice = expert.decide(before).action
            steps.append(ReviewStep(len(steps) + 1, before, action, choice))
        try:
            deal.apply(action, seat=actor)
        except Exception as exc:  # an IllegalAction: the history is not this deal's
            raise ReviewError(f"action {index + 1} ({action}) does not replay: {exc}") from None
    return steps


def _costed(step: ReviewStep, samples: int) -> ReviewStep:
    """``step`` with the cost of the reader's move against the expert's, from playouts."""
    deal = step.before
    wanted = {_key(deal, step.yours), _key(deal, step.expert)}
    options = [a for a in moves(deal) if _key(deal, a) in wanted]
    if len(options) != 2:  # pragma: no cover - both are legal moves of this position
        raise ReviewError(f"move {step.number}: cannot weigh {step.yours} against {step.expert}")
    grade = grade_view(deal.profile, deal.public_view(step.before.turn), samples=samples, seed="review",
                       only=options)
    mine = next(m for m in grade.moves if _key(deal, m.action) == _key(deal, step.yours))
    if mine is grade.best:  # the reader's move played out better: the expert's is behind it
        other = grade.moves[1]
        cost, se = -other.diff, other.diff_se
    else:
        cost, se = mine.diff, mine.diff_se
    return ReviewStep(step.number, step.before, step.yours, step.expert, cost, se, samples, grade)
