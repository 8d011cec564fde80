"""Several deals: dealer rotation, the running score, elimination and standings.

Players keep their match seat numbers (0..n-1, clockwise). Each deal seats the
players still in play in play order (reversed for counterclockwise play), so
the deal itself always plays "next = seat + 1".

A deal comes into the match one of two ways, which share every step after
the hands are known: played by the engine (``start_deal``, then
``finish_deal`` once it is over), or played with real cards elsewhere and
entered as each seat's hand total (``book_elsewhere``, the score pad's and
``python -m dhumbal score``'s way). Both seat the deal the same way, settle
it with :func:`dhumbal.play.scoring.settle` and book it with
:func:`dhumbal.play.scoring.book`. A match may also start from a position
laid out mid-deal (:meth:`Match.from_position`, a worked example's).

:meth:`Match.scoreboard` is what every seat may know of the match (scores,
seating, who is out, the standings) as a value: the table is drawn from it,
never from the match, whose deal holds every hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final

from ..core.messages import Message
from ..core.profiles import Profile, parse_profile
from ..play.deal import Deal, PositionError
from ..play.records import state_from_json, state_to_json
from ..play.scoring import Outcome, book, play_order, settle

MATCH_FORMAT: Final = 1


@dataclass(frozen=True)
class Standing:
    seat: int
    score: int
    place: int  # 1 = first; equal scores share a place
    eliminated: bool = False
    away: bool = False  # left the table (or not come yet): the score kept


@dataclass(frozen=True)
class Scoreboard:
    """What every seat may know of a match, as it stood: by match seat the scores, the deal's
    seating (deal seat -> match seat), who is out (in the order they went out), the standings."""

    scores: tuple[int, ...]
    seating: tuple[int, ...]
    eliminated: tuple[int, ...]
    standings: tuple[Standing, ...]


@dataclass
class Match:
    """A match under one profile. ``deal`` is the deal in progress (or the last one)."""

    profile: Profile
    seed: int | str = 0
    first_dealer: int | None = None
    scores: list[int] = field(default_factory=list)
    eliminated: list[int] = field(default_factory=list)  # seats, in the order they went out
    deals: list[Outcome] = field(default_factory=list)
    dealers: list[int] = field(default_factory=list)  # match seat of each deal's dealer
    deal: Deal | None = None
    seating: list[int] = field(default_factory=list)  # deal seat -> match seat
    #: Seats away from the table (a player who left, or one who joins later): not in the
    #: deals while away, their running score kept as it stands (a score sheet's, never saved here).
    away: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        n = self.profile.players
        if not self.scores:
            self.scores = [0] * n
        if self.first_dealer is None:
            self.first_dealer = n - 1
        if not 0 <= self.first_dealer < n:
            raise PositionError(f"first dealer {self.first_dealer} is not a seat of {n}")

    @classmethod
    def from_position(cls, deal: Deal, seed: int | str) -> Match:
        """A match whose first deal is ``deal``, laid out mid-play (a worked example's position):
        its seats in deal order, its dealer the first; later deals follow from ``seed``."""
        match = cls(deal.profile, seed=seed, first_dealer=deal.dealer)
        match.deal = deal
        match.seating = list(range(deal.players))
        match.dealers = [deal.dealer]
        return match

    @property
    def players(self) -> int:
        return self.profile.players

    def scoreboard(self) -> Scoreboard:
        """The match's public facts now (see :class:`Scoreboard`)."""
        return Scoreboard(tuple(self.scores), tuple(self.seating), tuple(self.eliminated), tuple(self.standings()))

    def active(self) -> list[int]:
        """Match seats still in play (not out, not away), in play order starting from seat 0."""
        return play_order(self.players, set(self.eliminated) | self.away, self.profile.direction)

    def next_dealer(self) -> int:
        """The next deal's dealer, a match seat: the deal moves one seat clockwise
        (to the left) every deal in every profile, whatever the direction of
        play, skipping players who are out."""
        assert self.first_dealer is not None
        still = set(self.active())
        if not self.dealers:
            if self.first_dealer in still:
                return self.first_dealer
            last = self.first_dealer - 1  # the first dealer is away: the first player in on their left deals
        else:
            last = self.dealers[-1]
        for k in range(1, self.players + 1):
            s = (last + k) % self.players
            if s in still:
                return s
        return last

    def is_over(self) -> bool:
        if self.deal is not None and not self.deal.is_over:
            return False
        p = self.profile
        if p.elimination is not None and len(self.active()) <= 1:
            return True
        return p.rounds is not None and len(self.deals) >= p.rounds

    def _seat_next_deal(self) -> tuple[list[int], int]:
        """Seat the next deal: the players in play, in play order, and its dealer (a match seat)."""
        if self.deal is not None and not self.deal.is_over:
            raise PositionError("the current deal is not over")
        if self.is_over():
            raise PositionError("the match is over")
        if len(self.deals) < len(self.dealers):
            raise PositionError("the last deal is not booked yet")
        order = self.active()
        dealer = self.next_dealer()
        self.seating = order
        self.dealers.append(dealer)
        return order, dealer

    def start_deal(self) -> Deal:
        """Shuffle and deal the next deal of the match."""
        order, dealer = self._seat_next_deal()
        self.deal = Deal.new(self.profile, f"{self.seed}/{len(self.deals)}", dealer=order.index(dealer), players=len(order))
        return self.deal

    def finish_deal(self) -> list[Message]:
        """Book the finished deal's outcome into the match score."""
        d = self.deal
        if d is None or d.outcome is None:
            raise PositionError("no finished deal to book")
        if len(self.deals) >= len(self.dealers):
            raise PositionError("this deal is already booked")
        return self._book(d.outcome)

    def book_elsewhere(self, totals: Sequence[int | None], caller: int | None) -> list[Message]:
        """Seat, settle and book the next deal from its show, the deal itself played
        with real cards away from the engine: ``totals`` holds each match seat's hand
        total (``None`` for a player who is out), ``caller`` the match seat that called,
        or ``None`` when nobody did (the turn cap). The settlement is the one a played
        deal gets (:func:`dhumbal.play.scoring.settle`); the outcome is in ``deals[-1]``, in
        deal seats as ``seating`` maps them. Checking what a table typed is the caller's
        job (:mod:`dhumbal.matches.tally`); this only refuses what it cannot seat."""
        if len(totals) != self.players:
            raise PositionError(f"{len(totals)} totals for {self.players} players")
        order = self.active()
        if any((totals[s] is None) != (s not in order) for s in range(self.players)):
            raise PositionError("a total is needed for exactly the players in play")
        if caller is not None and caller not in order:
            raise PositionError(f"seat {caller} is not in this deal")
        order, dealer = self._seat_next_deal()
        self.deal = None
        hands = [int(totals[s] or 0) for s in order]
        outcome = settle(self.profile, hands, order.index(dealer), None if caller is None else order.index(caller))
        return self._book(outcome)

    def _book(self, outcome: Outcome) -> list[Message]:
        self.deals.append(outcome)
        booked = book(self.profile, outcome, self.seating, self.scores, self.eliminated)
        self.scores = list(booked.scores)
        self.eliminated = list(booked.eliminated)
        return [Message("eliminated", {"seat": seat, "score": self.scores[seat]}) for seat in booked.newly]

    def standings(self) -> list[Standing]:
        """Places: highest total first (ledger profiles) or lowest first (cumulative points)."""
        low_wins = self.profile.settlement == "cumulative"
        seats = list(range(self.players))
        out_now = set(self.eliminated) | self.away  # a player who left a race to the limit is out of it
        if low_wins and self.profile.elimination is not None:
            still = [s for s in seats if s not in out_now]
            if not still:  # everybody went out in the same deal: the lowest of the last deal's players wins
                last = set(self.seating)
                still = [s for s in seats if s in last]
                out_now -= last

            def key(s: int) -> tuple[int, int]:
                return (0 if s not in out_now else 1, self.scores[s])
        else:
            def key(s: int) -> tuple[int, int]:
                return (0, self.scores[s] if low_wins else -self.scores[s])
        ranked = sorted(seats, key=key)
        out: list[Standing] = []
        for i, s in enumerate(ranked):
            place = out[-1].place if out and key(ranked[i - 1]) == key(s) else i + 1
            out.append(Standing(s, self.scores[s], place, s in self.eliminated, s in self.away))
        return out

    def money(self, seat: int) -> str | None:
        """The seat's running total in money at the profile's rate (dashain)."""
        rate = self.profile.money_per_point
        if rate is None:
            return None
        return money_text(self.scores[seat], rate)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": MATCH_FORMAT,
            "profile": self.profile.canonical(),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "scores": list(self.scores),
            "eliminated": list(self.eliminated),
            "deals": [o.to_json() for o in self.deals],
            "dealers": list(self.dealers),
            "seating": list(self.seating),
            "deal": state_to_json(self.deal) if self.deal else None,
        }

    @classmethod
    def from_json(cls, data: Any) -> Match:
        if not isinstance(data, dict) or data.get("format") != MATCH_FORMAT:
            raise PositionError("not a match state (format 1)")
        try:
            m = cls(
                profile=parse_profile(str(data["profile"])),
                seed=data["seed"],
                first_dealer=int(data["first_dealer"]),
                scores=[int(x) for x in data["scores"]],
                eliminated=[int(x) for x in data["eliminated"]],
                deals=[Outcome.from_json(o) for o in data["deals"]],
                dealers=[int(x) for x in data["dealers"]],
                seating=[int(x) for x in data["seating"]],
                deal=state_from_json(data["deal"]) if data.get("deal") else None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"malformed match state: {exc}") from None
        if len(m.scores) != m.players:
            raise PositionError("match state: one score per player is needed")
        return m


def money_text(points: int, rate: str) -> str:
    """``points`` at ``rate`` a point, to the cent: 44 at 0.05 is ``2.20``."""
    amount = (Decimal(points) * Decimal(rate)).quantize(Decimal("0.01"))
    return f"{amount:.2f}"
