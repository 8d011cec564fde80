"""Dealing the hidden cards anew: complete deals consistent with what one seat knows.

A seat sees its own hand, the pile (or the throw on offer and the cards out
of play), the pending throw of the seat on turn, how many cards every hand and
the stock hold, and the cards the others were seen to pick up and still hold.
Everything else (the rest of the other hands and the stock, in its order) is
hidden: :attr:`dhumbal.play.deal.SeatView.unseen`. A :class:`Sampler` deals those
unseen cards into the hidden places, so each sample is a whole ``Deal`` that
the seat could be in: the search bot plays its candidate moves out on such
samples, and the call odds count how often a call would be caught on them.

**Uniform.** The unseen cards are put in a uniformly random order (Fisher and
Yates, each index drawn by rejection from ``getrandbits``, as the deal's own
shuffle does) and then laid into the hidden places in a fixed order: from the end of the order,
each other seat's hidden cards in seat order, then what is left is the stock. Every
placement of the unseen cards into those places is equally likely, so every
deal consistent with the view is equally likely (a hand is a set of cards, so
each deal comes from the same number of orders).

**Never peeks.** A sampler is built from a :class:`dhumbal.play.deal.SeatView`
and the profile, nothing else: two real deals that look the same from the
seat give the same samples (tested). The random source of a sample set is a
``random.Random`` seeded with a text that names the view (:func:`view_key`)
and a caller's seed, so samples are reproducible, on CPython and Pyodide
alike, and a seat's samples depend on nothing it cannot see.

Uniform among consistent deals is the seat's view of the cards alone: it
does not guess from how the others played (what they threw, what they
passed over), which a stronger reader of the table might.

**A seat's own next step.** :func:`stand_in` is one deal the seat could be
in (its hidden places hold the unseen cards in pack order): what the table
draws for the reader while a deal is in play, so the drawing never holds a
hidden card. :func:`after_view` is the seat's view after its own move, from
the view alone; a draw from the stock needs the card drawn, which only the
seat's beliefs can name.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from ..core.cards import Card, card_text
from ..core.profiles import Profile
from ..core.shuffling import BITS as _BITS
from ..core.shuffling import STEPS, shuffle_with
from ..play.action import Action
from ..play.deal import Deal, SeatView

__all__ = ["Sampler", "SamplerError", "after_view", "dealt_anew", "stand_in", "view_key"]

class SamplerError(ValueError):
    """A view no deal can match (counts that do not add up, a finished deal)."""


def view_key(profile: Profile, view: SeatView) -> str:
    """A text naming everything in ``view`` (and the rules): the seed of a seat's samples.

    Equal views give equal texts; any difference in what the seat knows gives
    a different text. Card codes, not card names, keep it short.
    """

    def cards(cs: Sequence[Card]) -> str:
        return ".".join(map(str, cs))

    return "|".join((
        profile.canonical(), str(view.seat), str(view.players), str(view.dealer), str(view.turn), view.phase,
        str(view.turns), cards(view.hand), cards(view.hand_counts), str(view.stock_count), cards(view.pile),
        str(view.offer), view.offer_kind, cards(view.pending),
        "" if view.took_from_pile is None else str(view.took_from_pile),
        "/".join(cards(k) for k in view.known),
        ";".join(f"{seat}{_KIND[a.kind]}{a.source[:1]}{cards(a.cards)}" for seat, a in view.history),
    ))


_KIND: Final = {"call": "c", "take": "t", "throw": "x"}


class Sampler:
    """Deals consistent with one seat's view, drawn uniformly (see the module docstring)."""

    __slots__ = ("profile", "view", "pool", "hidden", "_values", "_dealt", "_hand_steps", "_stock_steps")

    def __init__(self, profile: Profile, view: SeatView) -> None:
        if view.phase == "over":
            raise SamplerError("the deal is over: nothing is hidden any more")
        n = view.players
        if len(view.hand_counts) != n or len(view.known) != n:
            raise SamplerError("the view needs one card count and one list of known cards per seat")
        if view.hand_counts[view.seat] != len(view.hand):
            raise SamplerError("the view's own card count differs from its hand")
        hidden = []
        for s in range(n):
            if s == view.seat:
                hidden.append(0)
                continue
            free = view.hand_counts[s] - len(view.known[s])
            if free < 0:
                raise SamplerError(f"seat {s} is known to hold more cards than it holds")
            hidden.append(free)
        if sum(hidden) + view.stock_count != len(view.unseen):
            raise SamplerError(
                f"{len(view.unseen)} unseen cards cannot fill {sum(hidden)} hidden hand places and a stock of {view.stock_count}"
            )
        self.profile = profile
        self.view = view
        self.pool: tuple[Card, ...] = tuple(sorted(view.unseen))
        self.hidden: tuple[int, ...] = tuple(hidden)
        self._values = profile.values
        # the shuffle's steps (:func:`dhumbal.core.shuffling.STEPS`): first those that fix the
        # end of the order, which the hidden hands take, then the stock's
        self._dealt = sum(hidden)
        steps = STEPS[len(self.pool)]
        self._hand_steps = steps[:self._dealt]
        self._stock_steps = steps[self._dealt:]

    # -- random sources --------------------------------------------------------------

    def rng(self, seed: int | str = 0, purpose: str = "sample") -> random.Random:
        """The random source of this view's samples for ``purpose`` and ``seed``."""
        return random.Random(f"dhumbal/{purpose}/{seed}/{view_key(self.profile, self.view)}")

    # -- whole deals -----------------------------------------------------------------------

    def order(self, rng: random.Random) -> list[Card]:
        """The unseen cards in a uniformly random order (the shuffle of :func:`dhumbal.play.deal.shuffle`)."""
        cards = list(self.pool)
        shuffle_with(cards, rng)
        return cards

    def dealt(self, rng: random.Random) -> list[Card]:
        """The end of :meth:`order`'s order that the hidden hands take (``sum(self.hidden)``
        cards, in their places), from the same draws: the stock's steps of the shuffle
        read their numbers from ``rng`` but move no card, so ``rng`` is left as
        :meth:`order` leaves it and the next sample is the same."""
        cards = list(self.pool)
        getrandbits = rng.getrandbits
        for i, bits in self._hand_steps:
            j = getrandbits(bits)
            while j > i:
                j = getrandbits(bits)
            cards[i], cards[j] = cards[j], cards[i]
        for i, bits in self._stock_steps:
            while getrandbits(bits) > i:
                pass
        return cards[len(cards) - self._dealt:]

    def deal_from(self, order: Sequence[Card], seed: int | str = 0) -> Deal:
        """The deal that lays ``order`` (the unseen cards, in some order) into the hidden places.

        ``seed`` becomes the sample's own seed, which only its future reshuffles read.
        """
        v = self.view
        hands: list[list[Card]] = []
        top = len(order)  # the hands take cards from the end of the order, as the shuffle fixes them
        for s, free in enumerate(self.hidden):
            if s == v.seat:
                hands.append(list(v.hand))
            else:
                hands.append(list(order[top - free:top]) + list(v.known[s]))
                top -= free
        return Deal(
            profile=self.profile, seed=seed, dealer=v.dealer, hands=hands, stock=list(order[:top]),
            pile=list(v.pile), offer=v.offer, offer_kind=v.offer_kind, pending=list(v.pending), turn=v.turn,
            phase=v.phase, turns=v.turns, reshuffles=0, took_from_pile=v.took_from_pile,
            known=[list(k) for k in v.known],
        )

    def sample(self, rng: random.Random, seed: int | str = 0) -> Deal:
        """One deal drawn uniformly among those consistent with the view."""
        return self.deal_from(self.order(rng), seed)

    def samples(self, count: int, seed: int | str = 0) -> Iterator[Deal]:
        """``count`` deals from this view's own random source for ``seed`` (reproducible)."""
        rng = self.rng(seed)
        for k in range(count):
            yield self.sample(rng, f"{seed}/{k}")

    # -- hands only (for counting) ---------------------------------------------------------

    def hidden_cards(self, rng: random.Random) -> list[list[Card]]:
        """Each seat's hidden cards in one uniform sample, in the order drawn (none for the
        seat itself; known cards are not repeated), drawing only the cards the hands need.

        The stock's order is not drawn (the same shuffle, stopped once the hands
        are dealt), so this is several times cheaper than :meth:`sample` when
        only the hands matter, and from the same random state it gives the
        hands of the deal :meth:`sample` would have given. The first ``k`` cards
        of a seat's list are a uniform sample of ``k`` of them.
        """
        cards = list(self.pool)
        getrandbits = rng.getrandbits
        top = len(cards)  # cards[top:] are drawn
        out: list[list[Card]] = []
        for free in self.hidden:
            drawn: list[Card] = []
            for _ in range(free):
                i = top - 1
                bits = _BITS[top]
                j = getrandbits(bits)
                while j > i:
                    j = getrandbits(bits)
                cards[i], cards[j] = cards[j], cards[i]
                drawn.append(cards[i])
                top = i
            out.append(drawn)
        return out

    def hidden_totals(self, rng: random.Random) -> list[int]:
        """Every seat's hand total in one uniform sample (see :meth:`hidden_cards`)."""
        v = self.view
        values = self._values
        totals: list[int] = []
        for s, drawn in enumerate(self.hidden_cards(rng)):
            cards = v.hand if s == v.seat else v.known[s]
            totals.append(sum([values[c] for c in cards]) + sum([values[c] for c in drawn]))
        return totals


def dealt_anew(deal: Deal, rng: random.Random) -> Deal:
    """``deal`` as the seat on turn sees it, with the cards that seat cannot see dealt anew from
    ``rng`` (uniformly, as every sample is) and the history kept: a puzzle's "Play from here",
    which must not play on the deal the puzzle was mined from."""
    view = deal.public_view(deal.turn)
    sampler = Sampler(deal.profile, view)
    fresh = sampler.sample(rng, seed=deal.seed)
    fresh.history = list(view.history)
    return fresh


# -- the seat's own view, one step on ---------------------------------------------------


def stand_in(profile: Profile, view: SeatView) -> Deal:
    """A deal that looks exactly like ``view`` from its seat: the seat's hand and the table
    as seen, the history as seen, and the unseen cards in pack order in the hidden places.

    Two real deals with equal views give equal stand-ins, so whatever is worked out from
    a stand-in (a picture of the table, a legal move, the view after a move) cannot
    depend on a card the seat cannot see.
    """
    sampler = Sampler(profile, view)
    deal = sampler.deal_from(sampler.pool, seed=view_key(profile, view))
    deal.history = list(view.history)
    return deal


def after_view(profile: Profile, view: SeatView, action: Action, drawn: Card | None = None) -> SeatView:
    """The seat's view after it plays ``action`` (the seat must be on turn), from ``view`` alone.

    A throw or a take from the pile shows no hidden card. A take from the stock
    does: ``drawn`` names the card drawn, one the stock could give now (an unseen card,
    or after a reshuffle one of the pile's cards that go into the new stock); without it,
    or with a card the stock cannot give, ``ValueError``. The action is the seat's own
    legal move (it is played on a stand-in deal, unchecked).
    """
    if view.seat != view.turn:
        raise ValueError(f"seat {view.seat} is not on turn (seat {view.turn} is)")
    if action.kind == "call":
        raise ValueError("a call ends the deal: every hand is shown, and no view is left to work out")
    deal = stand_in(profile, view)
    seat = view.seat
    from_stock = action.kind == "take" and action.source == "stock"
    if from_stock != (drawn is not None):
        raise ValueError("name the card drawn for a take from the stock, and only for one")
    reshuffles = deal.reshuffles
    deal.play(action)
    if drawn is not None and deal.hands[seat][-1] != drawn:
        # the card drawn swaps places with the one the stand-in dealt: both were unseen
        holder: list[Card] | None = deal.stock if drawn in deal.stock else None
        if holder is None and deal.reshuffles == reshuffles:  # a hidden card of another hand
            holder = next((deal.hands[s] for s in range(deal.players)
                           if s != seat and drawn in deal.hands[s] and drawn not in deal.known[s]), None)
        if holder is None:
            raise ValueError(f"{card_text(drawn)} cannot be drawn from the stock here")
        holder[holder.index(drawn)] = deal.hands[seat][-1]
        deal.hands[seat][-1] = drawn
    return replace(deal.public_view(seat), history=view.history + ((seat, action),))
