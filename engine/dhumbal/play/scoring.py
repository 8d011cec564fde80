"""How a deal ends and what each seat scores: call resolution and settlement for each profile.

:func:`settle` turns the hand totals at the show (and who called, if
anyone) into an :class:`Outcome`: who won, who was caught, what each seat
is charged, pays or scores, by the profile's settlement (``collect``,
``pay-caller`` or ``cumulative``). :func:`outcome_messages` says it.

:func:`book` carries an outcome into a match: the running scores and who is
out. :func:`play_order` seats a match's players for a deal. A deal the
engine played (:meth:`dhumbal.matches.match.Match.finish_deal`) and a deal played
with real cards and entered as hand totals
(:meth:`dhumbal.matches.match.Match.book_elsewhere`, :mod:`dhumbal.matches.tally`) both go
through these three and nothing else, so the two can never settle apart.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..core.messages import Message
from ..core.profiles import DOUBLE_MARGIN, DOUBLE_PENALTY, Profile


@dataclass(frozen=True)
class Outcome:
    """How a deal ended and what each seat scores.

    ``hands``: hand totals at the show. ``took``: points charged this deal (a
    caught caller's penalty replaces the hand). ``paid``: the money-way
    settlement, summing to zero (all zero where the profile has no transfers).
    ``points``: what goes onto a cumulative score (cardrulesplus).
    """

    reason: Literal["call", "cap"]
    caller: int | None
    caught: bool
    winner: int | None
    hands: tuple[int, ...]
    took: tuple[int, ...]
    paid: tuple[int, ...]
    points: tuple[int, ...]
    penalty: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason, "caller": self.caller, "caught": self.caught,
            "winner": self.winner, "hands": list(self.hands), "took": list(self.took),
            "paid": list(self.paid), "points": list(self.points), "penalty": self.penalty,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Outcome:
        return cls(
            reason=d["reason"], caller=d["caller"], caught=bool(d["caught"]), winner=d["winner"],
            hands=tuple(d["hands"]), took=tuple(d["took"]), paid=tuple(d["paid"]),
            points=tuple(d["points"]), penalty=int(d.get("penalty", 0)),
        )


def call_is_caught(caller_total: int, lowest_other: int) -> bool:
    """Whether a call on ``caller_total`` is caught when the lowest other hand is ``lowest_other``.

    In every profile the caller must be strictly lowest: a tie goes against the
    caller (who wins the deal then is each profile's own tie order, in :func:`settle`).
    """
    return lowest_other <= caller_total


def settle(profile: Profile, hands: Sequence[int], dealer: int, caller: int | None) -> Outcome:
    """The outcome of a deal ending with hand totals ``hands``: a call by ``caller``, or the turn cap."""
    p = profile
    n = len(hands)
    totals = tuple(hands)
    if caller is None:
        order = [(dealer + i) % n for i in range(1, n + 1)]
        first = min(order, key=lambda s: totals[s])  # min keeps the first of equals
        took = tuple(0 if s == first else totals[s] for s in range(n))
        paid = tuple(sum(took) if s == first else -took[s] for s in range(n))
        return Outcome("cap", None, False, first, totals, took, paid, took)
    others = [s for s in range(n) if s != caller]
    low = min(totals[s] for s in others)
    winner: int | None
    caught = call_is_caught(totals[caller], low)
    if p.settlement == "collect":
        if caught:
            order = [(dealer + i) % n for i in range(1, n + 1) if (dealer + i) % n != caller]
            winner = min(order, key=lambda s: totals[s])
            took = tuple(p.penalty if s == caller else 0 if s == winner else totals[s] for s in range(n))
        else:
            winner = caller
            took = tuple(0 if s == caller else totals[s] for s in range(n))
        paid = tuple(sum(took) if s == winner else -took[s] for s in range(n))
        points = took
        penalty = p.penalty if caught else 0
    elif p.settlement == "pay-caller":
        if caught:
            order = [(caller + i) % n for i in range(1, n)]
            winner = min(order, key=lambda s: totals[s])
            owed = sum(totals[s] for s in range(n) if s != winner)
            paid = tuple(owed if s == winner else -owed if s == caller else 0 for s in range(n))
        else:
            winner = caller
            paid = tuple(sum(totals[s] for s in others) if s == caller else -totals[s] for s in range(n))
        took = tuple(max(0, -x) for x in paid)
        points = took
        penalty = 0
    else:  # cumulative
        winner = None if caught else caller
        if caught:
            penalty = p.penalty
            if p.double_penalty and totals[caller] - low > DOUBLE_MARGIN:
                penalty = DOUBLE_PENALTY
            points = tuple(penalty if s == caller else 0 for s in range(n))
        else:
            penalty = 0
            points = tuple(0 if s == caller else totals[s] for s in range(n))
        took = points
        paid = tuple(0 for _ in range(n))
    return Outcome("call", caller, caught, winner, totals, took, paid, points, penalty)


def outcome_messages(outcome: Outcome, turns: int) -> list[Message]:
    """What is announced when a deal ends with ``outcome`` after ``turns`` turns."""
    o = outcome
    if o.reason == "cap":
        return [Message("turn-cap", {"count": turns}), Message("deal-winner", {"seat": o.winner})]
    caller = o.caller
    assert caller is not None
    hands = o.hands
    n = len(hands)
    others = [s for s in range(n) if s != caller]
    low = min(hands[s] for s in others)
    events: list[Message] = []
    if not o.caught:
        events.append(Message("call-won", {"seat": caller, "total": hands[caller]}))
    else:
        catcher = o.winner if o.winner is not None else min(others, key=lambda s: (hands[s], (s - caller) % n))
        events.append(Message("caught", {"seat": caller, "catcher": catcher, "low": low, "total": hands[caller]}))
    if o.winner is not None:
        events.append(Message("deal-winner", {"seat": o.winner}))
    else:
        events.append(Message("no-deal-winner", {}))
    return events


def play_order(players: int, out: Collection[int], direction: str) -> list[int]:
    """The match seats still in play, in play order starting from the lowest seat:
    clockwise (0, 1, 2, …) or, for ``counterclockwise``, the lowest seat then the
    others backwards. A deal seats them in this order (deal seat ``i`` is
    ``play_order(…)[i]``), so the deal itself always plays "next = seat + 1"."""
    seats = [s for s in range(players) if s not in out]
    if direction == "counterclockwise" and seats:
        seats = [seats[0]] + seats[:0:-1]
    return seats


@dataclass(frozen=True)
class Booking:
    """A match after one more deal: every match seat's running score, every seat
    out (in the order they went out), and the seats this deal put out."""

    scores: tuple[int, ...]
    eliminated: tuple[int, ...]
    newly: tuple[int, ...]


def book(profile: Profile, outcome: Outcome, seating: Sequence[int], scores: Sequence[int],
         eliminated: Sequence[int]) -> Booking:
    """Add a deal's ``outcome`` (in deal seats; ``seating`` maps them to match seats) to
    the running ``scores``: points in the cumulative profile, the Paid row otherwise;
    then a player at or over the profile's elimination limit is out at once."""
    after = list(scores)
    row = outcome.points if profile.settlement == "cumulative" else outcome.paid
    for i, seat in enumerate(seating):
        after[seat] += row[i]
    out = list(eliminated)
    newly: list[int] = []
    limit = profile.elimination
    if limit is not None:
        for seat in seating:
            if seat not in out and after[seat] >= limit:
                out.append(seat)
                newly.append(seat)
    return Booking(tuple(after), tuple(out), tuple(newly))
