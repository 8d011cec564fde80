"""Should I call? The chance of being caught, and what a call is worth, from sampled deals.

Everything here counts over deals drawn by :mod:`dhumbal.bots.sampler`, uniformly
among those consistent with what the caller knows, so the figures say what
the cards themselves allow, without guessing how the others play (the
expert bot adds such a guess; these figures do not):

- :func:`call_odds`: for the seat on turn of a live deal, the chance that a
  call now is caught (in every profile a tie goes against the caller), the
  seat's average settlement if it calls now, and if it plays on instead
  (its best move other than a call, as the expert would choose it, then
  every seat played out by the medium bot). The table's "Hint" shows these.
- :func:`caught_chance`: the same chance from nothing but a hand and the
  others' card counts (``python -m dhumbal odds``): the others' cards are
  drawn from every card the caller cannot see.
- :func:`chart`: that chance over a grid of the caller's totals and the
  others' card counts, for the rules pages (built once per profile and
  build, see :func:`chart_hand` for the caller's cards in each row).

Every figure names its sample size; each sample set has its own seeded
random source, so a figure is the same on every run, in CPython and Pyodide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..core import cards as C
from ..core.cards import Card
from ..core.profiles import Profile
from ..play.deal import Deal, SeatView
from ..play.playout import play_out
from ..play.scoring import call_is_caught, settle
from .heuristic import policy
from .sampler import Sampler

__all__ = [
    "CallOdds", "CHART_COUNTS", "CHART_SAMPLES", "CallerOdds", "Chart", "HINT_PLAYOUTS", "HINT_SAMPLES",
    "ODDS_SAMPLES", "call_odds", "caught_chance", "chart", "chart_hand", "chart_totals",
]

#: Samples behind the table's hint: the chance and the value of calling ...
HINT_SAMPLES: Final = 2_000
#: ... and deals played out to value playing on (each costs a whole playout).
HINT_PLAYOUTS: Final = 200
#: Samples behind ``python -m dhumbal odds`` by default.
ODDS_SAMPLES: Final = 20_000
#: Samples behind each cell of a rules page's chart.
CHART_SAMPLES: Final = 10_000
#: The others' card counts the charts show (each other player holding that many).
CHART_COUNTS: Final = (1, 2, 3, 4, 5)
#: The most samples one request may ask for (the CLI's bound).
MAX_SAMPLES: Final = 1_000_000

Measure = Literal["paid", "points"]


def measure_of(profile: Profile) -> Measure:
    """What a seat's settlement is counted in: money-way ``paid`` (higher is better), or
    cumulative ``points`` (lower is better)."""
    return "points" if profile.settlement == "cumulative" else "paid"


def _figure(profile: Profile, outcome_paid: Sequence[int], outcome_points: Sequence[int], seat: int) -> int:
    return outcome_points[seat] if profile.settlement == "cumulative" else outcome_paid[seat]


# -- a live deal -------------------------------------------------------------------------


@dataclass(frozen=True)
class CallOdds:
    """What the seat on turn may expect of a call now, and of playing on."""

    caught: float  # the chance that a call now is caught
    samples: int  # deals sampled for ``caught`` and ``call_value``
    call_value: float  # the seat's average settlement (``measure``) if it calls now
    play_on_value: float | None  # ... if it plays on (None when no playouts were asked for)
    playouts: int  # deals played out for ``play_on_value``
    measure: Measure
    can_call: bool  # whether the rules let the seat call now
    total: int  # the seat's hand total

    def to_json(self) -> dict[str, object]:
        return {
            "caught": round(self.caught, 4), "samples": self.samples, "call_value": round(self.call_value, 3),
            "play_on_value": None if self.play_on_value is None else round(self.play_on_value, 3),
            "playouts": self.playouts, "measure": self.measure, "can_call": self.can_call, "total": self.total,
        }


def call_odds(
    profile: Profile, view: SeatView, *, samples: int = HINT_SAMPLES, playouts: int = HINT_PLAYOUTS, seed: int | str = 0,
) -> CallOdds:
    """The odds of a call now for the seat on turn, from that seat's ``view`` alone."""
    if view.seat != view.turn or view.phase != "start":
        raise ValueError("call odds are for the seat on turn, at the start of its turn")
    if samples < 1 or playouts < 0:
        raise ValueError("call odds need at least one sample")
    sampler = Sampler(profile, view)
    seat = view.seat
    dealer = view.dealer
    rng = sampler.rng(seed, "odds")
    caught = 0
    value = 0
    for _ in range(samples):
        totals = sampler.hidden_totals(rng)
        o = settle(profile, totals, dealer, seat)
        caught += o.caught
        value += _figure(profile, o.paid, o.points, seat)
    mine = sum([profile.values[c] for c in view.hand])
    ref = sampler.deal_from(sampler.pool)
    can_call = ref.can_call()
    play_on: float | None = None
    if playouts:
        from .expert import best_move

        move = best_move(profile, view)
        medium = policy("medium")
        won = 0
        for _k, deal in enumerate(sampler.samples(playouts, f"{seed}/play-on")):
            deal.play(move)
            end = deal.outcome if deal.phase == "over" else play_out(deal, medium)
            assert end is not None
            won += _figure(profile, end.paid, end.points, seat)
        play_on = won / playouts
    return CallOdds(caught / samples, samples, value / samples, play_on, playouts, measure_of(profile), can_call, mine)


def seat_odds(deal: Deal, **kwargs: object) -> CallOdds:
    """:func:`call_odds` for the seat on turn of a live ``deal`` (it reads that seat's view only)."""
    return call_odds(deal.profile, deal.public_view(deal.turn), **kwargs)  # type: ignore[arg-type]


# -- a hand and the others' card counts --------------------------------------------------------


@dataclass(frozen=True)
class CallerOdds:
    """The chance a call on ``total`` is caught when the others hold ``counts`` cards."""

    caught: float
    samples: int
    total: int
    counts: tuple[int, ...]
    call_value: float  # the caller's average settlement (``measure``) from the call
    measure: Measure

    def to_json(self) -> dict[str, object]:
        return {
            "caught": round(self.caught, 4), "samples": self.samples, "total": self.total,
            "counts": list(self.counts), "call_value": round(self.call_value, 3), "measure": self.measure,
        }


def caller_view(profile: Profile, hand: Sequence[Card], counts: Sequence[int], seen: Sequence[Card] = ()) -> SeatView:
    """A seat view where the caller (seat 0, on turn) holds ``hand``, the others hold
    ``counts`` cards each and ``seen`` are the other cards known to be out of their hands;
    nothing else is known. ``ValueError`` if the cards cannot make such a deal."""
    n = len(counts) + 1
    if not profile.players_min <= n <= profile.players_max:
        raise ValueError(f"{profile.key} is for {profile.players_min}–{profile.players_max} players, not {n}")
    if any(k < 0 for k in counts):
        raise ValueError("a card count cannot be negative")
    if len(hand) > profile.hand_size:
        raise ValueError(f"a hand of {len(hand)} cards: in {profile.canonical()} a player holds at most {profile.hand_size}")
    if any(k > profile.hand_size for k in counts):
        raise ValueError(f"a count of {max(counts)} cards: in {profile.canonical()} a player holds at most {profile.hand_size}")
    placed = list(hand) + list(seen)
    for c in placed:
        if not 0 <= c < profile.deck_size:
            raise ValueError(f"{C.card_text(c)} is not in the {profile.deck_size}-card pack of {profile.key}")
    if len(set(placed)) != len(placed):
        dup = next(c for c in placed if placed.count(c) > 1)
        raise ValueError(f"{C.card_text(dup)} is given twice")
    unseen = tuple(c for c in range(profile.deck_size) if c not in set(placed))
    if sum(counts) > len(unseen):
        raise ValueError(f"the others cannot hold {sum(counts)} cards: only {len(unseen)} are left")
    return SeatView(
        seat=0, players=n, dealer=n - 1, turn=0, phase="start", turns=n, hand=tuple(hand),
        hand_counts=(len(hand), *counts), stock_count=len(unseen) - sum(counts), pile=tuple(seen),
        offer=1 if seen else 0, offer_kind="single", pending=(), took_from_pile=None,
        known=tuple(() for _ in range(n)), unseen=unseen,
    )


def caught_chance(
    profile: Profile, hand: Sequence[Card], counts: Sequence[int], *, seen: Sequence[Card] = (),
    samples: int = ODDS_SAMPLES, seed: int | str = 0,
) -> CallerOdds:
    """The chance that a call on ``hand`` is caught when the others hold ``counts`` cards,
    drawn from every card the caller cannot see (``seen`` cards are out of their hands)."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"give 1 to {MAX_SAMPLES} samples, not {samples}")
    view = caller_view(profile, hand, counts, seen)
    sampler = Sampler(profile, view)
    rng = sampler.rng(seed, "odds")
    mine = sum([profile.values[c] for c in hand])
    n = view.players
    caught = 0
    value = 0
    for _ in range(samples):
        totals = sampler.hidden_totals(rng)
        o = settle(profile, totals, n - 1, 0)
        caught += o.caught
        value += _figure(profile, o.paid, o.points, 0)
    return CallerOdds(caught / samples, samples, mine, tuple(counts), value / samples, measure_of(profile))


# -- the rules pages' charts ----------------------------------------------------------------


def chart_totals(profile: Profile) -> tuple[int, ...]:
    """The caller's totals a chart shows: every total a call is allowed on (to 12 where
    there is no call limit), from the least a caller's hand can be worth (0 where a card
    is worth 0 or a hand can be empty, else 1)."""
    low = 0 if min(profile.values[: profile.deck_size]) == 0 or profile.draw_first else 1
    high = profile.call_limit if profile.call_limit is not None else 12
    return tuple(range(low, high + 1))


def chart_hand(profile: Profile, total: int) -> tuple[Card, ...]:
    """The caller's cards in a chart's row for ``total``: the fewest cards that make it,
    heaviest first (for 7, a single 7; where no card is worth 0 a total of 0 is the
    empty hand, which only a draw-first profile allows), each card the lowest rank of
    its value, suits in pack order."""
    values = profile.values
    by_value: dict[int, Card] = {}
    for c in range(52):  # ranked cards only; the lowest rank (then suit) of each value
        v = values[c]
        if v not in by_value or (c % 13, c // 13) < (by_value[v] % 13, by_value[v] // 13):
            by_value[v] = c
    hand: list[Card] = []
    left = total
    if total == 0 and 0 in by_value and not profile.draw_first:
        return (by_value[0],)
    while left > 0:
        v = max(x for x in by_value if 0 < x <= left)
        rank = by_value[v] % 13
        suit = sum(1 for c in hand if c % 13 == rank)
        hand.append(suit * 13 + rank)
        left -= v
    return tuple(hand)


@dataclass(frozen=True)
class Chart:
    """A chart's figures: ``caught[i][j]`` for ``totals[i]`` against ``players - 1`` others
    holding ``counts[j]`` cards each."""

    profile: str  # canonical
    players: int
    totals: tuple[int, ...]
    counts: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    caught: tuple[tuple[float, ...], ...]
    samples: int  # per cell

    def to_json(self) -> dict[str, object]:
        return {
            "profile": self.profile, "players": self.players, "totals": list(self.totals), "counts": list(self.counts),
            "hands": [[C.card_text(c) for c in h] for h in self.hands], "samples": self.samples,
            "caught": [list(row) for row in self.caught],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Chart:
        """Read back what :meth:`to_json` wrote (``ValueError`` if it is not such data)."""
        try:
            chart = cls(
                profile=str(data["profile"]), players=int(data["players"]),
                totals=tuple(int(t) for t in data["totals"]), counts=tuple(int(k) for k in data["counts"]),
                hands=tuple(tuple(C.parse_cards(h)) for h in data["hands"]),
                caught=tuple(tuple(float(x) for x in row) for row in data["caught"]), samples=int(data["samples"]),
            )
        except (KeyError, TypeError, C.CardError) as exc:
            raise ValueError(f"not chart data: {exc}") from None
        if len(chart.caught) != len(chart.totals) or any(len(r) != len(chart.counts) for r in chart.caught):
            raise ValueError("not chart data: the figures do not fit the totals and counts")
        return chart


def chart(profile: Profile, *, samples: int = CHART_SAMPLES, counts: Sequence[int] = CHART_COUNTS) -> Chart:
    """The chance of being caught for each chart total and count (the others all holding
    that many), at the profile's table size, from ``samples`` sampled deals per total.

    One sample deals each other player as many cards as the largest count; its
    first ``k`` cards are a uniform hand of ``k`` (see
    :meth:`dhumbal.bots.sampler.Sampler.hidden_cards`), so every count of a row is
    read from the same deals, and a row's figures move together.
    """
    if not counts or min(counts) < 1:
        raise ValueError("a chart needs card counts of at least 1")
    totals = chart_totals(profile)
    hands = tuple(chart_hand(profile, t) for t in totals)
    others = profile.players - 1
    most = max(counts)
    values = profile.values
    rows = []
    for t, hand in zip(totals, hands):
        sampler = Sampler(profile, caller_view(profile, hand, [most] * others))
        rng = sampler.rng(f"chart/{t}", "odds")
        caught = [0] * len(counts)
        for _ in range(samples):
            lowest = [_NO_TOTAL] * len(counts)
            for drawn in sampler.hidden_cards(rng)[1:]:
                running = 0
                at = 0
                for j, k in enumerate(counts):
                    while at < k:
                        running += values[drawn[at]]
                        at += 1
                    if running < lowest[j]:
                        lowest[j] = running
            for j in range(len(counts)):
                caught[j] += call_is_caught(t, lowest[j])
        rows.append(tuple(c / samples for c in caught))
    return Chart(profile.canonical(), profile.players, totals, tuple(counts), hands, tuple(rows), samples)


_NO_TOTAL: Final = 1 << 30
