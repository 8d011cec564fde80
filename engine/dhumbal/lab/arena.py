"""Mixed tables: bots of different levels over seeded deals, and how each seat fared.

``python -m dhumbal simulate --bots expert,hard,hard,hard`` and the expert's
figures in ``make bench`` both come from :func:`play_table`. Each deal is
``Deal.new(profile, f"{seed}/{i}")`` with the dealer moving one seat every
deal, so every seat sits at every distance from the dealer equally often,
and the same seed gives the same deals to any line-up of bots.

A seat **wins** a deal when the outcome names it the deal's winner (the
uncaught caller, the lowest hand that catches a caller, or the lowest hand at
the turn cap). In `cardrulesplus` a caught call names no winner: the caller
scores the penalty and every other seat 0, so those seats tie for the deal's
best score and **share** its win equally (each of three gets a third; head to
head, the other seat gets all of it). ``wins`` counts the named wins only;
:meth:`SeatRecord.credit` adds the shares, so the credits of a table sum to
the deals played and a seat no better than the others earns one in ``n``. Its
**settlement** is what the profile books for the deal: the money-way
``paid`` figure (higher is better; the table sums to 0), or, in a cumulative
profile, the ``points`` added to its score (lower is better).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..bots.botlevels import BOTS, Bot, policy
from ..bots.odds import Measure, measure_of
from ..core.profiles import Profile
from ..play.deal import Action, Deal
from ..play.playout import play_out
from ..play.scoring import Outcome


@dataclass
class SeatRecord:
    """One seat's results over a run."""

    bot: str
    wins: int = 0  # deals the outcome named this seat the winner of
    shared: Fraction = Fraction(0)  # its shares of deals with no named winner (a caught call in cardrulesplus)
    settlement: int = 0  # summed over the deals
    calls: int = 0
    caught: int = 0
    decisions: list[float] = field(default_factory=list, repr=False)  # seconds, when timed

    @property
    def credit(self) -> Fraction:
        """Deals won, a shared deal counting as this seat's share of it."""
        return self.wins + self.shared


@dataclass
class TableResult:
    profile: str
    deals: int
    seed: int | str
    measure: Measure
    seats: list[SeatRecord]

    def win_share(self, seat: int) -> float:
        """The seat's deals won (shared ones as its share) over the deals played."""
        return float(self.seats[seat].credit) / self.deals

    def mean_settlement(self, seat: int) -> float:
        return self.seats[seat].settlement / self.deals

    def best_seats(self) -> list[int]:
        """The seats with the best average settlement (the highest paid, or the fewest points)."""
        figures = [r.settlement for r in self.seats]
        best = min(figures) if self.measure == "points" else max(figures)
        return [s for s, x in enumerate(figures) if x == best]

    def to_json(self) -> dict[str, object]:
        return {
            "profile": self.profile,
            "deals": self.deals,
            "seed": self.seed,
            "settlement": self.measure,
            "better": "lower" if self.measure == "points" else "higher",
            "seats": [
                {
                    "seat": s, "bot": r.bot, "wins": r.wins, "shared_wins": round(float(r.shared), 4),
                    "win_share": round(float(r.credit) / self.deals, 4),
                    "mean_settlement": round(r.settlement / self.deals, 4), "calls": r.calls, "caught": r.caught,
                }
                for s, r in enumerate(self.seats)
            ],
            "best_settlement": self.best_seats(),
        }


def read_bots(text: str) -> list[Bot]:
    """``expert,hard,hard,hard`` as levels; ``ValueError`` naming a level that is not one."""
    levels: list[Bot] = []
    for word in text.split(","):
        w = word.strip().lower()
        match = next((d for d in BOTS if d == w), None)
        if match is None:
            raise ValueError(f"{word.strip()!r} is not a bot level; levels are: {', '.join(BOTS)}")
        levels.append(match)
    return levels


def play_table(
    profile: Profile, bots: Sequence[Bot], deals: int, *, seed: int | str = 1,
    timed: bool = False, clock: Callable[[], float] = time.perf_counter,
) -> TableResult:
    """Play ``deals`` seeded deals with one bot level per seat (``profile`` must seat ``len(bots)``)."""
    if len(bots) != profile.players:
        raise ValueError(f"{len(bots)} bots for a table of {profile.players}")
    if deals < 1:
        raise ValueError("play at least one deal")
    policies = [policy(b) for b in bots]
    seats = [SeatRecord(b) for b in bots]
    cumulative = profile.settlement == "cumulative"
    for i in range(deals):
        deal = Deal.new(profile, f"{seed}/{i}", dealer=i % profile.players)
        if timed:
            _play_timed(deal, policies, seats, clock)
        else:
            play_out(deal, policies)
        o = deal.outcome
        assert o is not None
        figures = o.points if cumulative else o.paid
        if o.winner is not None:
            seats[o.winner].wins += 1
        else:  # no named winner: the seats with the deal's best score share it
            for s, share in enumerate(credits(profile, o)):
                seats[s].shared += share
        if o.caller is not None:
            seats[o.caller].calls += 1
            seats[o.caller].caught += o.caught
        for s, r in enumerate(seats):
            r.settlement += figures[s]
    return TableResult(profile.canonical(), deals, seed, measure_of(profile), seats)


def credits(profile: Profile, outcome: Outcome) -> list[Fraction]:
    """Each seat's credit for one finished deal: 1 to the named winner; with none named
    (a caught call in `cardrulesplus`), an equal share to each seat tied for the best score."""
    if outcome.winner is not None:
        return [Fraction(int(s == outcome.winner)) for s in range(len(outcome.paid))]
    cumulative = profile.settlement == "cumulative"
    figures = outcome.points if cumulative else outcome.paid
    best = min(figures) if cumulative else max(figures)
    tied = [s for s, x in enumerate(figures) if x == best]
    return [Fraction(1, len(tied)) if s in tied else Fraction(0) for s in range(len(figures))]


def _play_timed(deal: Deal, policies: Sequence[Callable[[Deal], Action]], seats: list[SeatRecord],
                clock: Callable[[], float]) -> None:
    guard = 0
    while deal.phase != "over":
        guard += 1
        if guard > 20_000:
            raise RuntimeError("deal did not end within 20000 actions")
        seat = deal.turn
        t0 = clock()
        action = policies[seat](deal)
        seats[seat].decisions.append(clock() - t0)
        deal.play(action)
