"""The expert bot: decisions weighed on deals sampled from what its seat has seen.

At each decision the expert draws deals consistent with its seat's view
(:mod:`dhumbal.bots.sampler`: the hidden cards dealt anew, uniformly) and weighs
each one by how well it explains what the others did: a player who throws a
single card usually keeps nothing heavier, so a sample that gives a seat
cards heavier than its single throws since it got them counts a quarter as
much for each such card (:data:`UNLIKELY_BITS`). From these weighted deals it
reads the two things it does not know:

- **the call**: how often a call now would be caught (a tie goes against the
  caller). It calls when that chance is at most its profile's ``risk``
  (:class:`dhumbal.core.profiles.BotTuning`, in the profile's record);
- **the draw**: how likely each card is to be the one the stock gives. Each
  candidate take and throw is scored by the hand it leaves, averaged over
  those draws: one move ahead, valued by its points, the best group it could
  throw next (:data:`SHED`), its size (:data:`SIZE`) and, where a profile
  weighs it (its tuning's ``race``), the turns it needs before it may call.

It is a search one move deep with an evaluation at its leaves because deeper
search, rollouts, other beliefs and fitted values were each measured against
it on the same seeded deals and none played better; the figures, and the
commands that reproduce them, are in ``bench/RESEARCH.md``.

**Deterministic.** The random source is seeded with a text naming the seat's
whole view (:func:`dhumbal.bots.sampler.view_key`) and the number of samples is
fixed (:data:`SAMPLES`). Every figure a decision compares is a whole number
(weights, hand values in tenths of a point, chances as numerator over
denominator): ``sum()`` of floats is compensated from Python 3.12, not in
3.11, whole numbers are the same everywhere. The time budget
(:data:`TIME_CAP`) is a safety cap that ordinary play never reaches (a test
holds it). So a position gives the same move on CPython and on Pyodide, and
a shared link replays exactly.

**Never peeks.** :func:`decide_view` takes the profile and a
:class:`dhumbal.play.deal.SeatView`, nothing else; :func:`choose` is only the
bridge from a live deal (it reads ``deal.public_view(deal.turn)``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from ..core.cards import Card
from ..core.profiles import Profile
from ..play.deal import Action, Deal, SeatView, call_is_caught
from ..play.groups import Group, best_group_value, heaviest_group, throwable_groups
from .heuristic import PATIENCE  # past this many turns without a turn cap, every level plays to end the deal
from .sampler import Sampler, view_key

__all__ = ["Decision", "SAMPLES", "TIME_CAP", "best_move", "choose", "decide", "decide_view", "hand_value",
           "ranked_throws", "risk", "stock_draws", "throw_action", "turns_to_call"]

#: Sampled deals weighed at each decision that depends on hidden cards.
SAMPLES: Final = 300
#: The safety cap on one decision's sampling, in seconds (never reached in ordinary play).
TIME_CAP: Final = 1.0
#: How often the clock is read, in samples.
CLOCK_EVERY: Final = 25
#: Hand value, in tenths of a point: ten times the points, less this many tenths of the
#: best group the hand could throw next ...
SHED: Final = 8
#: ... plus this many tenths for each card held (a smaller hand is closer to a call).
SIZE: Final = 10
#: The race to a call (where a profile's tuning weighs it): each own turn the hand is
#: estimated to need before it can call (:func:`turns_to_call`) costs ``race`` tenths ...
#: ... counting each future draw as a card worth this many points ...
RACE_DRAW: Final = 2
#: ... and at most this many turns.
RACE_MOST: Final = 4
#: A sampled deal's weight is divided by 2 ** UNLIKELY_BITS (a quarter) per card it gives
#: a seat heavier than that seat's single throws since it got the card ...
UNLIKELY_BITS: Final = 2
#: ... for at most this many such cards (a weight is a whole number: 2 ** (2 x 16) at most).
MOST_UNLIKELY: Final = 16
#: The most groups weighed in one throw (a reachable hand holds far fewer).
MOST_GROUPS: Final = 60
#: A hand larger than any deal can give (7 dealt and a take, with room): handed one in a
#: position built by hand, the expert plays as the hard bot, whose work is bounded.
LARGEST_HAND: Final = 10
_NO_CAP: Final = 1 << 30

#: The draw from the stock: each card's whole weight, and their total.
Draws = tuple[dict[Card, int], int]


@dataclass(frozen=True)
class Decision:
    """The expert's move and how it was reached."""

    action: Action
    samples: int = 0  # sampled deals weighed (0: the move needed none)
    capped: bool = False  # the time cap cut the sampling short
    caught: float | None = None  # the weighted chance a call now is caught, when a call was weighed (for reports only)


# -- the bridge from a live deal ---------------------------------------------------------


def choose(deal: Deal) -> Action:
    """The expert's action for the seat on turn of ``deal`` (from that seat's view only)."""
    return decide(deal).action


def decide(deal: Deal, *, clock: Callable[[], float] = time.perf_counter) -> Decision:
    return decide_view(deal.profile, deal.public_view(deal.turn), clock=clock)


# -- the decision ------------------------------------------------------------------------


def hand_value(profile: Profile, hand: Sequence[Card]) -> int:
    """How bad a hand is to hold, in tenths of a point: its points, less :data:`SHED`
    tenths of the best group it could throw next, plus :data:`SIZE` tenths a card
    (lower is better; an empty hand is 0)."""
    if not hand:
        return 0
    values = profile.values
    points = sum([values[c] for c in hand])
    value = 10 * points - SHED * best_group_value(profile, hand) + SIZE * len(hand)
    race = profile.tuning.race
    if race and profile.call_limit is not None and not profile.jokers:
        value += race * turns_to_call(profile, hand, points)
    return value


def turns_to_call(profile: Profile, hand: Sequence[Card], points: int) -> int:
    """Own turns ``hand`` (worth ``points``) needs before a call is legal, greedily: each
    turn throws the heaviest group and draws a card worth :data:`RACE_DRAW` (at most
    :data:`RACE_MOST`; 0 when the hand may call now)."""
    limit = profile.call_limit
    assert limit is not None
    values = profile.values
    rest = list(hand)
    turns = 0
    while points > limit and turns < RACE_MOST:
        turns += 1
        g = heaviest_group(profile, rest) if rest else ()
        rest = [c for c in rest if c not in g]
        points += RACE_DRAW - sum([values[c] for c in g])
    return turns


def decide_view(profile: Profile, view: SeatView, *, clock: Callable[[], float] = time.perf_counter) -> Decision:
    """The expert's decision for the seat on turn, from that seat's ``view`` alone."""
    sampler, key, ref = _reference(profile, view)
    if (profile.turn_cap is None and view.turns >= PATIENCE) or len(view.hand) > LARGEST_HAND:
        from .heuristic import choose as bot_choose

        return Decision(bot_choose(ref, "hard"))
    p = profile
    call_open = view.phase == "start" and ref.can_call()
    if not call_open and _must_call(ref):
        return Decision(Action.call())
    drawing = ref.can_draw_stock() and not (p.draw_first and view.phase == "throw")
    if not call_open and not drawing:
        return Decision(_best_move(ref, ({}, 0)))
    beliefs = _Beliefs.weigh(sampler, random.Random("dhumbal/expert/" + key), clock)
    if call_open:
        caught = beliefs.caught_chance()
        if beliefs.caught_weight * 100 <= risk(p) * beliefs.total_weight:
            return Decision(Action.call(), beliefs.samples, beliefs.capped, caught)
        return Decision(_best_move(ref, beliefs.draws(ref)), beliefs.samples, beliefs.capped, caught)
    return Decision(_best_move(ref, beliefs.draws(ref)), beliefs.samples, beliefs.capped)


def best_move(profile: Profile, view: SeatView, *, clock: Callable[[], float] = time.perf_counter) -> Action:
    """The expert's best move other than a call for the seat on turn (what "playing on" means
    in the call odds); a call only if no other move is legal."""
    sampler, key, ref = _reference(profile, view)
    if len(view.hand) > LARGEST_HAND:
        from .heuristic import choose as bot_choose

        return bot_choose(ref, "hard")
    if _must_call(ref):
        return Action.call()
    return _best_move(ref, _move_draws(sampler, key, ref, clock))


def ranked_throws(profile: Profile, view: SeatView, *, clock: Callable[[], float] = time.perf_counter
                  ) -> list[tuple[Group, Fraction]]:
    """Every throw the expert weighs at a throw decision of the seat on turn, best first,
    each with the value of the hand it leads to in points (lower is better, as
    :func:`hand_value` counts it, in points rather than tenths; exact): the first is
    the throw :func:`best_move` makes. For reports (``bench/expert_branches.py`` plays
    the runner-up against it)."""
    sampler, key, ref = _reference(profile, view)
    if view.phase != ("throw" if profile.draw_first else "start") or len(view.hand) > LARGEST_HAND:
        raise ValueError(f"no throw of the expert's to weigh in the {view.phase!r} phase")
    draws = _move_draws(sampler, key, ref, clock)
    scale = 10 * (draws[1] or 1)
    return [(g, Fraction(worth, scale)) for worth, _, g in sorted(_throw_keys(ref, draws))]


def stock_draws(profile: Profile, view: SeatView, *, clock: Callable[[], float] = time.perf_counter) -> Draws:
    """How likely the expert holds each card to be the one the seat on turn would draw from
    the stock now, as whole weights and their total (none where no draw from the stock
    comes next): the beliefs its own take and throw are weighed on."""
    sampler, key, ref = _reference(profile, view)
    return _move_draws(sampler, key, ref, clock)


def risk(profile: Profile) -> int:
    """The highest chance of being caught, in percent, at which the expert calls in ``profile``."""
    return profile.tuning.risk


def throw_action(profile: Profile, group: Group) -> Action:
    """The throw of ``group`` as the expert lays it down: in a draw-first profile the last
    card is the next player's to take, so the least useful one (the heaviest) goes last."""
    if profile.draw_first and len(group) > 1:
        group = tuple(sorted(group, key=lambda c: (profile.values[c], -c)))
    return Action.throw(*group)


def _reference(profile: Profile, view: SeatView) -> tuple[Sampler, str, Deal]:
    """The seat's sampler, its view's key, and a deal that looks the same from this seat: its
    own hand and the table as seen; the hidden places hold the unseen cards in pack order,
    and nothing that decides reads them."""
    if view.seat != view.turn:
        raise ValueError(f"seat {view.seat} is not on turn (seat {view.turn} is)")
    sampler = Sampler(profile, view)
    key = view_key(profile, view)
    return sampler, key, sampler.deal_from(sampler.pool, seed=key)


def _move_draws(sampler: Sampler, key: str, ref: Deal, clock: Callable[[], float]) -> Draws:
    """The weights of the stock's next card where the move weighed may draw it (none otherwise)."""
    if ref.can_draw_stock() and not (ref.profile.draw_first and ref.phase == "throw"):
        return _Beliefs.weigh(sampler, random.Random("dhumbal/expert/" + key), clock).draws(ref)
    return {}, 0


class _Beliefs:
    """The weighed samples: the chance a call is caught, and where each unseen card lies."""

    def __init__(self, sampler: Sampler) -> None:
        self.sampler = sampler
        self.samples = 0
        self.capped = False
        self.total_weight = 0  # whole numbers: see the module docstring
        self.caught_weight = 0
        self.in_stock: dict[Card, int] = {}

    @classmethod
    def weigh(cls, sampler: Sampler, rng: random.Random, clock: Callable[[], float]) -> _Beliefs:
        """Weigh :data:`SAMPLES` deals drawn uniformly by ``sampler`` from ``rng``.

        Only the hidden hands of each sample are drawn (:meth:`Sampler.dealt`): the
        stock weighs nothing here, and a card's weight in the stock is the samples'
        total less its weight in a hand, the same whole numbers as counting the
        stock's cards one by one.
        """
        b = cls(sampler)
        view = sampler.view
        values = sampler.profile.values
        seat = view.seat
        caps = _caps(sampler.profile, view)
        hands = [(s, free, sum([values[c] for c in view.known[s]]), caps[s])
                 for s, free in enumerate(sampler.hidden) if s != seat]
        mine = sum([values[c] for c in view.hand])
        in_hand = dict.fromkeys(sampler.pool, 0)
        dealt = sampler.dealt
        samples = total_weight = caught_weight = 0
        started = clock()
        for k in range(SAMPLES):
            if k and k % CLOCK_EVERY == 0 and clock() - started > TIME_CAP:
                b.capped = True
                break
            order = dealt(rng)
            top = len(order)
            over = 0
            lowest = _NO_CAP
            for _s, free, known_total, limits in hands:
                dealt_here = [values[c] for c in order[top - free:top]]
                top -= free
                total = known_total + sum(dealt_here)
                if total < lowest:
                    lowest = total
                if limits and free:
                    for v, cap in zip(sorted(dealt_here, reverse=True), limits):
                        if v > cap:
                            over += 1
            weight = 1 << (UNLIKELY_BITS * (MOST_UNLIKELY - min(over, MOST_UNLIKELY)))
            samples += 1
            total_weight += weight
            if call_is_caught(mine, lowest):
                caught_weight += weight
            for c in order:
                in_hand[c] += weight
        b.samples = samples
        b.total_weight = total_weight
        b.caught_weight = caught_weight
        b.in_stock = {c: total_weight - w for c, w in in_hand.items()}
        return b

    def caught_chance(self) -> float:
        """The weighted chance a call now is caught (a report: decisions compare the whole numbers)."""
        return self.caught_weight / self.total_weight if self.total_weight else 0.0

    def draws(self, ref: Deal) -> Draws:
        """How likely each card is to be the next one drawn from the stock, as whole
        weights and their total.

        The weights do not depend on the stock's order, so the top card is any
        card of the stock with equal chance: its chance is that of being in the
        stock. From an empty stock the draw comes from the reshuffled pile,
        whose cards everybody saw: each equally likely.
        """
        if ref.stock:
            weights = {c: w for c, w in self.in_stock.items() if w > 0}
            if weights:
                return weights, sum(weights.values())
            pool = self.sampler.pool
            return {c: 1 for c in pool}, len(pool)
        return _reshuffle_draws(ref)


def _must_call(ref: Deal) -> bool:
    """Whether no move but a call lets the turn go on (no take, or no throw that lets it finish)."""
    if ref.phase == "take":
        return False
    if ref.phase == "start" and ref.profile.draw_first:
        return not (ref.can_draw_stock() or (ref.pile and ref.hands[ref.turn]))
    return not ref.legal_groups()


def _reshuffle_draws(ref: Deal) -> Draws:
    if ref.profile.reshuffle_keep == "top":
        pool = (ref.pile + ref.pending)[:-1]
    else:
        pool = ref.pile[: len(ref.pile) - ref.offer]
    return {c: 1 for c in pool}, len(pool)


def _caps(profile: Profile, view: SeatView) -> list[list[int]]:
    """For each other seat, the value its hidden cards are expected to stay under, heaviest first.

    A seat's cards each came in by the deal or by a take; every single card it
    threw since a card came in bounds that card (it kept the card rather than
    throw it). Cards it was seen to pick up are known and left out; the caps
    kept are the loosest ones, one per hidden card.
    """
    values = profile.values
    moves: list[list[Action]] = [[] for _ in range(view.players)]
    for seat, action in view.history:
        moves[seat].append(action)
    out: list[list[int]] = []
    for s in range(view.players):
        if s == view.seat:
            out.append([])
            continue
        limit = _NO_CAP
        caps: list[int] = []
        for a in reversed(moves[s]):
            if a.kind == "take":
                caps.append(limit)
            elif a.kind == "throw" and len(a.cards) == 1:
                limit = min(limit, values[a.cards[0]])
        caps += [limit] * profile.hand_size
        caps.sort(reverse=True)
        free = view.hand_counts[s] - len(view.known[s])
        out.append(caps[:free] if any(c < _NO_CAP for c in caps[:free]) else [])
    return out


# -- moves -------------------------------------------------------------------------------


def _expected(profile: Profile, hand: list[Card], draws: Draws) -> int:
    """The value of ``hand`` with one more card drawn from ``draws``, summed over the
    draws' weights (the average times the draws' total: whole numbers)."""
    return sum([w * hand_value(profile, hand + [c]) for c, w in draws[0].items()])


def _best_throw_value(profile: Profile, hand: list[Card], barred: Card | None) -> int:
    """The value left by the best throw from ``hand`` (the barred card may not go)."""
    pool = [c for c in hand if c != barred] if barred is not None else hand
    best = _NO_CAP
    for g in throwable_groups(profile, pool)[:MOST_GROUPS]:
        v = hand_value(profile, [c for c in hand if c not in g])
        if v < best:
            best = v
    return best


def _groups(ref: Deal) -> list[Group]:
    groups = ref.legal_groups()
    if len(groups) > MOST_GROUPS:
        values = ref.profile.values
        groups = sorted(groups, key=lambda g: (-sum([values[c] for c in g]), -len(g), g))[:MOST_GROUPS]
    return groups


def _best_move(ref: Deal, draws: Draws) -> Action:
    """The move (other than a call) that leaves the best hand, averaged over ``draws``.

    Every value compared is scaled by the draws' total weight, so a known card's
    value and an average over the draws are whole numbers on one scale.
    """
    p = ref.profile
    hand = ref.hands[ref.turn]
    weights, total = draws
    scale = total or 1
    if p.draw_first:
        if ref.phase == "start":
            options: list[tuple[int, int, Action]] = []
            if ref.pile and hand:
                top = ref.pile[-1]
                options.append((scale * _best_throw_value(p, hand + [top], top), 0, Action.take_pile()))
            if ref.can_draw_stock():
                worth = sum([w * _best_throw_value(p, hand + [c], None) for c, w in weights.items()])
                options.append((worth, 1, Action.take_stock()))
            return min(options, key=lambda o: (o[0], o[1]))[2]
        return throw_action(p, min(_throw_keys(ref, draws))[2])
    picks = sorted(ref.pickable())
    if ref.phase == "take":
        choices: list[tuple[int, int, Action]] = []
        if ref.can_draw_stock() and weights:
            choices.append((_expected(p, hand, draws), 0, Action.take_stock()))
        for i, c in enumerate(picks):
            choices.append((scale * hand_value(p, hand + [c]), i + 1, Action.take_pile(c)))
        if not choices:  # no weights known for the stock: take it all the same
            return Action.take_stock()
        return min(choices, key=lambda o: (o[0], o[1]))[2]
    return Action.throw(*min(_throw_keys(ref, draws))[2])


def _throw_keys(ref: Deal, draws: Draws) -> list[tuple[int, int, Group]]:
    """Every throw weighed at a throw decision, as ``(value, -size, group)`` (the lowest
    key is the expert's throw): in a draw-first profile the value of the hand the throw
    leaves; in a throw-first one that of the hand after the take that follows, the
    stock averaged over ``draws`` or the best face-up card, scaled by the draws' total."""
    p = ref.profile
    hand = ref.hands[ref.turn]
    if p.draw_first:
        return [(hand_value(p, [c for c in hand if c not in g]), -len(g), g) for g in _groups(ref)]
    weights, total = draws
    scale = total or 1
    picks = sorted(ref.pickable())
    keys: list[tuple[int, int, Group]] = []
    for g in _groups(ref):
        rest = [c for c in hand if c not in g]
        worth = _expected(p, rest, draws) if weights else _NO_CAP * scale
        for c in picks:
            v = scale * hand_value(p, rest + [c])
            if v < worth:
                worth = v
        keys.append((worth, -len(g), g))
    return keys
