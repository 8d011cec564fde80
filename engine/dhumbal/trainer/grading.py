"""Grading every move of a position: what each is worth to the seat on turn, from what it has seen.

The puzzles ("What would you do?") are graded here, at build time, and so is
any position a caller hands in. :func:`grade_view` takes a profile and the
seat's :class:`dhumbal.play.deal.SeatView` (nothing else: it never peeks) and
returns a :class:`Grade`: every distinct move the seat may make now, each
with its expected settlement and the standard error of that figure.

**How.** The hidden cards are dealt anew by :mod:`dhumbal.bots.sampler`
(uniformly among the deals consistent with the view). On each sampled deal
every move is played, then the deal is played out to its end by a strong
policy for every seat (:data:`LEVEL`, the hard bot), and the seat's result is
read in the profile's measure (:func:`dhumbal.bots.odds.measure_of`: the
money-way settlement, higher is better, or the points added to a cumulative
score, lower is better). All moves are played on the *same* sampled deals,
so the difference between two moves is measured with far less noise than
either figure alone: :attr:`MoveGrade.diff_se` is the standard error of
that paired difference, which is what says whether the best move is
clearly best (:meth:`Grade.is_clear`).

**A move** is what a reader chooses at the table: a call, a take (the stock,
or a face-up card) or a throw of a set of cards. Where the throw's order
matters to the rules (in draw-first profiles its last card becomes the pile
top) a throw is graded as the hard bot orders it, heaviest card last, so
that one set of cards is one move; :func:`move_key` says which move an
action is.

**Why the hard bot plays the deals out.** A grade needs thousands of whole
deals per position (every move on every sample); the hard bot plays a deal
in about a millisecond, the expert a single decision in several. The hard
bot is the strongest of the fast policies and plays every seat the same
way, so what differs between two moves' figures is the move.

**Deterministic.** The samples come from a random source seeded with a text
naming the view (:func:`dhumbal.bots.sampler.view_key`) and ``seed``; the bots
are deterministic and every sum runs in a fixed order. The same position,
engine and sample count give the same figures, on CPython and on Pyodide.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..bots.botlevels import Difficulty, policy
from ..bots.odds import Measure, measure_of
from ..bots.sampler import Sampler
from ..core import cards as C
from ..core.profiles import Profile
from ..play.action import Action, parse_action
from ..play.deal import Deal, SeatView, call_is_caught
from ..play.playout import play_out

__all__ = [
    "GRADE_SAMPLES", "LEVEL", "MAX_GRADE_SAMPLES", "Grade", "GradeError", "MoveGrade", "grade", "grade_view",
    "move_key", "moves",
]

#: Sampled deals behind a grade (each move is played out on every one of them).
GRADE_SAMPLES: Final = 400
#: The most samples one grade may ask for.
MAX_GRADE_SAMPLES: Final = 100_000
#: The policy that plays every seat from the move to the end of the deal.
LEVEL: Final[Difficulty] = "hard"
#: How many standard errors of the paired difference the best move must lead the
#: next one by to count as clearly best.
CLEAR_MARGIN: Final = 4.0

MoveKey = tuple[str, str, frozenset[C.Card]]


class GradeError(ValueError):
    """A position that cannot be graded (over, or not the seat's turn)."""


def move_key(action: Action) -> MoveKey:
    """Which move ``action`` is: its kind, its source and its cards as a set (a throw's order aside)."""
    return (action.kind, action.source, frozenset(action.cards))


def _ordered(profile: Profile, action: Action) -> Action:
    """The graded form of a throw: in draw-first profiles, heaviest card last (as the hard bot throws)."""
    if action.kind != "throw" or len(action.cards) < 2 or not profile.draw_first:
        return action
    values = profile.values
    return Action.throw(*sorted(action.cards, key=lambda c: (values[c], -c)))


def moves(deal: Deal) -> list[Action]:
    """The distinct moves of the seat on turn, in the order of ``legal_actions()``: one per
    :func:`move_key`, a throw in its graded order."""
    out: list[Action] = []
    seen: set[MoveKey] = set()
    for a in deal.legal_actions():
        key = move_key(a)
        if key not in seen:
            seen.add(key)
            out.append(_ordered(deal.profile, a))
    return out


@dataclass(frozen=True)
class MoveGrade:
    """One move's figures: its mean result for the seat (in the grade's measure), the
    standard error of that mean, and its difference from the best move with the
    standard error of that paired difference (both 0 for the best move itself)."""

    action: Action
    mean: float
    se: float
    diff: float
    diff_se: float
    won: float = 0.0  # the share of the sampled deals the seat won after this move
    caught: float = 0.0  # ... in which the seat called and was caught
    catch: float = 0.0  # ... in which another seat called and was caught by a hand no heavier than the seat's
    hand: float = 0.0  # the seat's mean hand total when the deal ended
    samples: int = 0  # the deals this move was played out on, where it differs from the grade's (0: the grade's)
    later: float = 0.0  # the share of those deals in which the seat reached another turn of its own

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": self.action.text(), "mean": round(self.mean, 4), "se": round(self.se, 4),
            "diff": round(self.diff, 4), "diff_se": round(self.diff_se, 4), "won": round(self.won, 4),
            "caught": round(self.caught, 4), "catch": round(self.catch, 4), "hand": round(self.hand, 4),
        }
        if self.samples:
            out["samples"] = self.samples
            out["later"] = round(self.later, 4)
        return out


@dataclass(frozen=True)
class Grade:
    """Every move of a position graded, best first (see the module docstring)."""

    profile: str  # canonical
    measure: Measure
    samples: int
    level: str
    moves: tuple[MoveGrade, ...]
    call_caught: float | None = None  # the share of the samples in which a call now would be caught (at a turn's start)

    @property
    def best(self) -> MoveGrade:
        return self.moves[0]

    def of(self, action: Action) -> MoveGrade | None:
        """The grade of the move ``action`` is (by :func:`move_key`), or None if it is not a move here."""
        key = move_key(action)
        return next((m for m in self.moves if move_key(m.action) == key), None)

    def margin(self) -> float:
        """How many standard errors of the paired difference the best move leads the next by
        (infinite with one move)."""
        if len(self.moves) < 2:
            return math.inf
        return min((m.diff / m.diff_se) if m.diff_se > 0 else (math.inf if m.diff > 0 else 0.0) for m in self.moves[1:])

    def is_clear(self, margin: float = CLEAR_MARGIN) -> bool:
        """Whether the best move leads every other by at least ``margin`` standard errors."""
        return self.margin() >= margin

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile, "measure": self.measure, "samples": self.samples, "level": self.level,
            "moves": [m.to_json() for m in self.moves],
            "call_caught": None if self.call_caught is None else round(self.call_caught, 4),
        }

    @classmethod
    def from_json(cls, data: Any) -> Grade:
        """Read back what :meth:`to_json` wrote (``ValueError`` if it is not such data)."""
        try:
            measure = data["measure"]
            if measure not in ("paid", "points"):
                raise ValueError(f"unknown measure {measure!r}")
            grade = cls(
                profile=str(data["profile"]), measure=measure, samples=int(data["samples"]), level=str(data["level"]),
                moves=tuple(
                    MoveGrade(parse_action(str(m["action"])), float(m["mean"]), float(m["se"]), float(m["diff"]),
                              float(m["diff_se"]), float(m["won"]), float(m["caught"]), float(m["catch"]),
                              float(m["hand"]), int(m.get("samples", 0)), float(m.get("later", 0.0)))
                    for m in data["moves"]
                ),
                call_caught=None if data.get("call_caught") is None else float(data["call_caught"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not grade data: {exc}") from None
        if not grade.moves:
            raise ValueError("not grade data: no moves")
        return grade


def _gain(measure: Measure, figure: float) -> float:
    """``figure`` turned so that more is better."""
    return figure if measure == "paid" else -figure


def grade_view(
    profile: Profile, view: SeatView, *, samples: int = GRADE_SAMPLES, seed: int | str = 0, level: Difficulty = LEVEL,
    only: Sequence[Action] | None = None,
) -> Grade:
    """Every move of the seat on turn graded from that seat's ``view`` alone (see the module docstring).

    ``only``: grade just these moves (by :func:`move_key`; a review weighs two), each on the same
    sampled deals as it would be among all the moves.
    """
    if view.phase == "over":
        raise GradeError("the deal is over: there is no move to grade")
    if view.seat != view.turn:
        raise GradeError(f"seat {view.seat} is not on turn (seat {view.turn} is)")
    if not 1 <= samples <= MAX_GRADE_SAMPLES:
        raise GradeError(f"give 1 to {MAX_GRADE_SAMPLES} samples, not {samples}")
    sampler = Sampler(profile, view)
    ref = sampler.deal_from(sampler.pool)
    options = moves(ref)
    if only is not None:
        wanted = {move_key(a) for a in only}
        options = [a for a in options if move_key(a) in wanted]
        if not options:
            raise GradeError("none of the moves asked for is legal here")
    if not options:  # pragma: no cover - a valid live position always has a legal move
        raise GradeError("the seat on turn has no legal move")
    measure = measure_of(profile)
    seat = view.seat
    bot = policy(level)
    cumulative = profile.settlement == "cumulative"
    rng = sampler.rng(seed, "grade")
    results: list[list[float]] = [[] for _ in options]
    counts = [[0, 0, 0, 0] for _ in options]  # won, caught, catch, the hand's points at the end
    at_start = view.phase == "start"
    caught_now = 0
    for k in range(samples):
        base = sampler.sample(rng, f"{seed}/{k}")
        if at_start:
            caught_now += call_is_caught(base.total(seat), min(base.total(s) for s in range(base.players) if s != seat))
        for i, move in enumerate(options):
            deal = base.copy()
            deal.play(move)
            end = deal.outcome if deal.phase == "over" else play_out(deal, bot)
            assert end is not None
            results[i].append(float(end.points[seat] if cumulative else end.paid[seat]))
            tally = counts[i]
            if end.winner == seat:
                tally[0] += 1
            if end.caller == seat and end.caught:
                tally[1] += 1
            elif end.caught and end.caller is not None and end.hands[seat] <= end.hands[end.caller]:
                tally[2] += 1
            tally[3] += end.hands[seat]
    means = [math.fsum(r) / samples for r in results]
    order = sorted(range(len(options)), key=lambda i: (-_gain(measure, means[i]), i))
    top = order[0]
    graded = []
    for i in order:
        diffs = [_gain(measure, a - b) for a, b in zip(results[top], results[i])]
        graded.append(MoveGrade(
            action=options[i], mean=means[i], se=_se(results[i]),
            diff=math.fsum(diffs) / samples, diff_se=_se(diffs),
            won=counts[i][0] / samples, caught=counts[i][1] / samples, catch=counts[i][2] / samples,
            hand=counts[i][3] / samples,
        ))
    return Grade(profile.canonical(), measure, samples, level, tuple(graded),
                 caught_now / samples if at_start else None)


def grade(deal: Deal, **kwargs: Any) -> Grade:
    """:func:`grade_view` for the seat on turn of a live ``deal`` (it reads that seat's view only)."""
    return grade_view(deal.profile, deal.public_view(deal.turn), **kwargs)


def _se(values: Sequence[float]) -> float:
    """The standard error of the mean of ``values`` (0 for fewer than two)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return math.sqrt(var / n)
