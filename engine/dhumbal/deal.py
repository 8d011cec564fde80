"""One deal: the turn state machine, legality, and call resolution.

A ``Deal`` is the whole state of one deal under one profile. Moves come in by
one of two paths, which share every line that changes the state:

- ``apply(action, seat)`` is for anything from outside: the table, the worked
  examples, the command line, JSON transcripts. It reads text, checks the
  action completely before touching anything (a refused action raises
  ``IllegalAction``, a stable code and parameters, and leaves the state exactly
  as it was), plays it, and returns what happened as messages.
- ``play(action)`` is the trusted path for moves the engine generated itself:
  an action from ``legal_actions()`` or from a bot, in playouts and
  simulations. It neither checks nor writes messages. Playing an action that
  is not legal corrupts the deal, so it must only ever receive such actions.

Both paths leave identical states and histories (property-tested on random
deals in ``tests/engine/test_engine_trusted_path.py``).

For simulations and search (see also :mod:`dhumbal.playout`): ``copy()`` is
cheap (a few microseconds), ``legal_actions()`` lists moves without checking
each one, ``play()`` applies one, and ``public_view(seat)`` is what one seat
may know, for sampling the hidden cards.

Shuffles come from seeded ``random.Random`` instances derived from the deal's
seed, so a deal replays exactly from (profile, seed, dealer, actions).

Seats are numbered 0..n-1 in play order: the seat after ``i`` is ``i + 1``
(mod n). A match maps its players onto these numbers (and reverses them for
counterclockwise play), so the deal never needs to know the direction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Final, Iterator, Literal, Sequence

from . import cards as C
from .cards import Card
from .errors import IllegalAction, PositionError
from .groups import (
    Group, GroupKind, classify_group, group_refusal, landed_kind, run_ends, throwable_groups,
)
from .messages import Message
from .profiles import DOUBLE_MARGIN, DOUBLE_PENALTY, Profile

__all__ = [
    "Action", "Deal", "GroupKind", "IllegalAction", "Outcome", "Phase", "PositionError", "SeatView",
    "call_is_caught", "classify_group", "iter_cards", "parse_action", "run_ends",
]

Phase = Literal["start", "throw", "take", "over"]


# -- shuffling -------------------------------------------------------------------


def shuffle(cards: list[Card], seed: str) -> None:
    """Shuffle ``cards`` in place from a ``random.Random`` seeded with ``seed``.

    The same draws as ``random.Random(seed).shuffle(cards)`` (Fisher–Yates
    from the end, each index drawn by rejection from ``getrandbits``), written
    out so that a deal's cards never depend on how a Python version happens to
    implement ``shuffle``, and a little faster.
    """
    shuffle_with(cards, random.Random(seed))


def shuffle_with(cards: list[Card], rng: random.Random) -> None:
    """Shuffle ``cards`` in place with draws from ``rng`` (the Fisher–Yates of :func:`shuffle`)."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        bits = _BITS[i + 1]
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


_BITS: Final = tuple(n.bit_length() for n in range(C.DECK_MAX + 1))


# -- actions ---------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """``call``, ``take`` (from ``stock`` or ``pile``, naming a card when needed) or ``throw``.

    Actions are values: equal fields, equal actions. The constructors below
    hand out shared instances for the common ones (a call, a take, a single
    card), which the bots and playouts create by the thousand.
    """

    kind: Literal["call", "take", "throw"]
    source: Literal["", "stock", "pile"] = ""
    cards: tuple[Card, ...] = ()

    @classmethod
    def call(cls) -> "Action":
        return _CALL

    @classmethod
    def take_stock(cls) -> "Action":
        return _TAKE_STOCK

    @classmethod
    def take_pile(cls, card: Card | None = None) -> "Action":
        if card is None:
            return _TAKE_PILE
        if 0 <= card < C.DECK_MAX:
            return _TAKE_PILE_CARD[card]
        return cls("take", "pile", (card,))

    @classmethod
    def throw(cls, *cards: Card) -> "Action":
        if len(cards) == 1 and 0 <= cards[0] < C.DECK_MAX:
            return _THROW_CARD[cards[0]]
        action = _THROWS.get(cards)
        if action is None:
            action = cls("throw", "", cards)
            if len(_THROWS) < _THROWS_KEPT:
                _THROWS[cards] = action
        return action

    def text(self, *, ascii: bool = False) -> str:
        if self.kind == "call":
            return "call"
        if self.kind == "take":
            tail = (" " + C.cards_text(self.cards, ascii=ascii)) if self.cards else ""
            return f"take {self.source}{tail}"
        return "throw " + C.cards_text(self.cards, ascii=ascii)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"parse_action({self.text()!r})"


_CALL: Final = Action("call")
_TAKE_STOCK: Final = Action("take", "stock")
_TAKE_PILE: Final = Action("take", "pile")
_TAKE_PILE_CARD: Final = tuple(Action("take", "pile", (c,)) for c in range(C.DECK_MAX))
_THROW_CARD: Final = tuple(Action("throw", "", (c,)) for c in range(C.DECK_MAX))
# Throws of several cards, kept once made (bounded: a few thousand groups exist)
_THROWS: Final[dict[tuple[Card, ...], Action]] = {}
_THROWS_KEPT: Final = 20_000

_TAKE_WORDS: Final = {"take", "draw", "pick"}


def parse_action(text: str) -> Action:
    """Read ``call``, ``take stock``, ``take pile``, ``take pile K♠``, ``throw K♠ K♥``."""
    words = text.strip().split()
    if not words:
        raise IllegalAction("bad-action", text=text.strip())
    verb = words[0].lower()
    try:
        if verb == "call" and len(words) == 1:
            return Action.call()
        if verb in _TAKE_WORDS and len(words) >= 2:
            src = words[1].lower()
            if src in ("stock", "deck"):
                if len(words) == 2:
                    return Action.take_stock()
            elif src in ("pile", "offer", "discard"):
                if len(words) == 2:
                    return Action.take_pile()
                if len(words) == 3:
                    return Action.take_pile(C.parse_card(words[2]))
        if verb in ("throw", "discard") and len(words) >= 2:
            return Action.throw(*C.parse_cards(" ".join(words[1:])))
    except C.CardError as exc:
        raise IllegalAction("bad-action", text=text.strip()) from exc
    raise IllegalAction("bad-action", text=text.strip())


# -- outcome ---------------------------------------------------------------------


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
    def from_json(cls, d: dict[str, Any]) -> "Outcome":
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


# -- what one seat may know ---------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know of a live deal, as card codes: the input of a
    bot that must not peek, and of a sampler that deals the hidden cards anew.

    ``unseen`` are the cards whose place the seat cannot know: the stock and
    the other hands, less what those seats were seen to pick up and still
    hold (``known``). Every card is in exactly one of ``hand``, ``pile``,
    ``pending``, the ``known`` lists of the others, and ``unseen``.
    ``history`` is every move so far, as the table saw it: who drew blind,
    who took which face-up card, who threw what.
    """

    seat: int
    players: int
    dealer: int
    turn: int
    phase: Phase
    turns: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    pile: tuple[Card, ...]  # bottom .. top
    offer: int  # the top ``offer`` cards of the pile are the previous throw
    offer_kind: GroupKind
    pending: tuple[Card, ...]  # the seat on turn's throw before its pick (throw-first)
    took_from_pile: Card | None
    known: tuple[tuple[Card, ...], ...]
    unseen: tuple[Card, ...]
    # every move of the deal so far, which the whole table saw (a stock draw names no card)
    history: tuple[tuple[int, Action], ...] = ()


# -- the deal --------------------------------------------------------------------


@dataclass(slots=True)
class Deal:
    """The complete state of one deal. Create with ``Deal.new`` or ``Deal.from_position``."""

    profile: Profile
    seed: int | str
    dealer: int
    hands: list[list[Card]]
    stock: list[Card]  # top is the last element
    pile: list[Card]  # bottom .. top
    offer: int = 1  # how many top pile cards form the last throw
    offer_kind: GroupKind = "single"
    pending: list[Card] = field(default_factory=list)  # throw-first: this turn's throw before the pick
    turn: int = 0
    phase: Phase = "start"
    turns: int = 0  # completed turns (throws) in this deal
    reshuffles: int = 0
    took_from_pile: Card | None = None
    known: list[list[Card]] = field(default_factory=list)  # cards each seat publicly picked and still holds
    history: list[tuple[int, Action]] = field(default_factory=list)
    outcome: Outcome | None = None

    # -- creation ------------------------------------------------------------------

    @classmethod
    def new(cls, profile: Profile, seed: int | str = 0, *, dealer: int | None = None, players: int | None = None) -> "Deal":
        """Shuffle with ``seed`` and deal one card at a time from the dealer's left."""
        n = profile.players if players is None else players
        if not 2 <= n <= profile.players_max:
            raise PositionError(f"{profile.key} is for {profile.players_min}–{profile.players_max} players, not {n}")
        d = n - 1 if dealer is None else dealer
        if not 0 <= d < n:
            raise PositionError(f"dealer {d} is not a seat of {n}")
        deck = C.full_deck(jokers=profile.jokers)
        shuffle(deck, f"dhumbal/deal/{seed}")
        # one card at a time from the top (the end of the list), the dealer's left first
        dealt = n * profile.hand_size
        from_top = deck[: -dealt - 1 : -1]
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n):
            hands[(d + 1 + i) % n] = from_top[i::n]
        return cls(
            profile=profile, seed=seed, dealer=d, hands=hands, stock=deck[: -dealt - 1], pile=[deck[-dealt - 1]],
            turn=(d + 1) % n, known=[[] for _ in range(n)],
        )

    @classmethod
    def from_position(
        cls,
        profile: Profile,
        *,
        hands: Sequence[Sequence[Card]],
        pile: Sequence[Card],
        stock: Sequence[Card] | None = None,
        stock_top: Sequence[Card] = (),
        out_of_play: Sequence[Card] = (),
        dealer: int = 0,
        turn: int | None = None,
        offer: int | None = None,
        turns: int = 0,
        seed: int | str = 0,
        rest: Literal["stock", "pile"] = "stock",
    ) -> "Deal":
        """An explicit position at the start of a turn. ``stock`` lists the whole
        stock from the top; or give ``stock_top`` (from the top) and the rest of
        the pack follows in pack order (or, with ``rest="pile"``, lies face up
        under the pile). ``out_of_play`` cards lie under the pile (dashain).

        The position must be one a real deal can reach (see
        :func:`dhumbal.records.check_integrity`), else ``PositionError``."""
        n = len(hands)
        if not profile.players_min <= n <= profile.players_max:
            raise PositionError(f"{profile.key} is for {profile.players_min}–{profile.players_max} players, not {n}")
        if not 0 <= dealer < n:
            raise PositionError(f"dealer {dealer} is not a seat of {n}")
        placed: list[Card] = [c for h in hands for c in h] + list(pile) + list(out_of_play)
        if stock is not None:
            placed += list(stock)
        else:
            placed += list(stock_top)
        seen: set[Card] = set()
        for c in placed:
            if not 0 <= c < profile.deck_size:
                raise PositionError(f"{C.card_text(c)} is not in a {profile.deck_size}-card pack for {profile.key}")
            if c in seen:
                raise PositionError(f"{C.card_text(c)} appears twice in the position")
            seen.add(c)
        under: list[Card] = []
        if stock is None:
            filler = [c for c in C.full_deck(jokers=profile.jokers) if c not in seen]
            if rest == "pile":
                under = filler
                top_first = list(stock_top)
            else:
                top_first = list(stock_top) + filler
        else:
            top_first = list(stock)
            if len(seen) != profile.deck_size:
                missing = [C.card_text(c) for c in C.full_deck(jokers=profile.jokers) if c not in seen]
                raise PositionError(
                    f"the position holds {len(seen)} cards, not {profile.deck_size}: missing {' '.join(missing)}"
                )
        if not pile:
            raise PositionError("the pile needs at least one face-up card")
        if offer is not None and not 1 <= offer <= len(pile):
            raise PositionError(f"the offer of {offer} cards is more than the {len(pile)} face-up cards given")
        t = (dealer + 1) % n if turn is None else turn
        if not 0 <= t < n:
            raise PositionError(f"turn {t} is not a seat of {n}")
        full_pile = under + list(out_of_play) + list(pile)
        k = len(pile) if (offer is None and profile.take_rule == "offer-any-or-run-end") else (offer or 1)
        kind = classify_group(profile, full_pile[-k:]) if k > 1 else "single"
        deal = cls(
            profile=profile, seed=seed, dealer=dealer, hands=[list(h) for h in hands],
            stock=list(reversed(top_first)), pile=full_pile, offer=k, offer_kind=kind, turn=t,
            turns=turns, known=[[] for _ in range(n)],
        )
        from .records import check_integrity

        check_integrity(deal)
        return deal

    # -- reading ------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def total(self, seat: int) -> int:
        v = self.profile.values
        return sum([v[c] for c in self.hands[seat]])

    def totals(self) -> list[int]:
        return [self.total(i) for i in range(self.players)]

    @property
    def pile_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    @property
    def offer_cards(self) -> list[Card]:
        return self.pile[-self.offer:] if self.offer and self.pile else []

    @property
    def out_of_play(self) -> list[Card]:
        """Cards under the current offer (dashain's out-of-play cards; elsewhere the buried pile)."""
        return self.pile[: len(self.pile) - self.offer] if self.offer else list(self.pile)

    def card_count(self) -> int:
        return sum(len(h) for h in self.hands) + len(self.stock) + len(self.pile) + len(self.pending)

    def _reshuffle_pool(self, thrown: int = 0) -> int:
        """How many cards a reshuffle would put into a new stock at this turn's draw.

        Where the pile keeps its top card (nepali-games, cardrulesplus), this
        turn's throw has landed by then (in cardrulesplus, ``thrown`` cards, or
        the pending throw) and goes in with the rest, less the top card; in
        dashain only the cards out of play go in, and the throw on offer stays.
        """
        if self.profile.reshuffle_keep == "top":
            return max(0, len(self.pile) + (thrown or len(self.pending)) - 1)
        return max(0, len(self.pile) - self.offer)

    def can_draw_stock(self) -> bool:
        """Whether the seat on turn could take a card from the stock (after a reshuffle if need be)."""
        return bool(self.stock) or self._reshuffle_pool() > 0

    def can_call(self) -> bool:
        """Whether the seat on turn may call now."""
        p = self.profile
        if self.phase != "start":
            return False
        if not p.first_round_call and self.turns < self.players:
            return False
        return p.call_limit is None or self.total(self.turn) <= p.call_limit

    def pickable(self) -> list[Card]:
        """Cards of the previous throw that may be picked (throw-first profiles)."""
        offer = self.offer_cards
        p = self.profile
        kind = self.offer_kind
        if p.take_rule == "single-only":
            if kind == "single" or (kind == "set" and p.set_pick):
                return offer
            return []
        if kind == "run":
            return list(run_ends(offer))
        return offer

    def throw_completes(self, size: int) -> bool:
        """Whether, after throwing ``size`` cards now, the seat on turn can still take a card
        (throw-first profiles; in draw-first ones the take came before)."""
        if self.profile.draw_first or self.stock:
            return True
        return bool(self.pickable()) or self._reshuffle_pool(size) > 0

    # -- legality (for actions from outside) ------------------------------------------

    def refusal(self, action: Action, seat: int | None = None) -> IllegalAction | None:
        """Why ``action`` is illegal now, or ``None`` if it is legal."""
        p = self.profile
        if self.phase == "over":
            return IllegalAction("deal-over")
        if seat is not None and seat != self.turn:
            if action.kind == "call" and self.history and self.history[-1][0] == seat:
                # the seat has just ended its turn: say why, not merely whose turn it is
                return IllegalAction("call-after-draw" if p.draw_first else "call-after-throw")
            return IllegalAction("not-your-turn", seat=seat, turn=self.turn)
        hand = self.hands[self.turn]
        if action.kind == "call":
            if self.phase != "start":
                return IllegalAction("call-after-draw" if p.draw_first else "call-after-throw")
            if not p.first_round_call and self.turns < self.players:
                return IllegalAction("first-round-call")
            total = self.total(self.turn)
            if p.call_limit is not None and total > p.call_limit:
                return IllegalAction("over-call-limit", total=total, limit=p.call_limit)
            return None
        if action.kind == "take":
            if p.draw_first:
                if self.phase == "throw":
                    return IllegalAction("already-took")
            elif self.phase == "start":
                return IllegalAction("must-throw-first")
            if action.source == "stock":
                if action.cards:
                    return IllegalAction("bad-action", text=action.text())
                if not self.can_draw_stock():
                    return IllegalAction("stock-empty")
                return None
            if action.source != "pile":
                return IllegalAction("bad-action", text=action.text())
            return self._pile_refusal(action, hand)
        if action.kind == "throw":
            if p.draw_first:
                if self.phase == "start":
                    return IllegalAction("must-take-first")
            elif self.phase == "take":
                return IllegalAction("already-threw")
            return self._throw_refusal(action.cards, hand)
        return IllegalAction("bad-action", text=action.text())

    def _pile_refusal(self, action: Action, hand: list[Card]) -> IllegalAction | None:
        p = self.profile
        if len(action.cards) > 1:
            return IllegalAction("bad-action", text=action.text())
        asked = action.cards[0] if action.cards else None
        if p.take_rule == "pile-top":
            top = self.pile_top
            if top is None:
                return IllegalAction("stock-empty")
            if asked is not None and asked != top:
                return IllegalAction("not-pile-top", top=C.card_text(top))
            if not hand:
                return IllegalAction("pile-take-empty-hand")
            return None
        offer = self.offer_cards
        if asked is not None and asked in self.pending:
            return IllegalAction("own-throw")
        if p.take_rule == "single-only":
            if self.offer_kind == "run":
                return IllegalAction("run-not-pickable")
            if self.offer_kind == "set" and not p.set_pick:
                return IllegalAction("set-not-pickable")
        if asked is None:
            if len(offer) == 1:
                return None
            return IllegalAction("pick-which-card", cards=C.cards_text(self.pickable()))
        if asked not in offer:
            return IllegalAction("card-not-on-offer", card=C.card_text(asked))
        if self.offer_kind == "run":
            ends = run_ends(offer)
            if asked not in ends:
                return IllegalAction("run-middle-card", ends=C.cards_text(ends))
        return None

    def _throw_refusal(self, cards: Sequence[Card], hand: list[Card]) -> IllegalAction | None:
        if not cards:
            return IllegalAction("empty-throw")
        seen: set[Card] = set()
        for c in cards:
            if c in seen:
                return IllegalAction("duplicate-card", card=C.card_text(c))
            seen.add(c)
            if c not in hand:
                return IllegalAction("card-not-in-hand", card=C.card_text(c))
        if self.took_from_pile is not None and self.took_from_pile in seen:
            return IllegalAction("pile-card-returned", card=C.card_text(self.took_from_pile))
        why = group_refusal(self.profile, cards)
        if why is not None:
            return why
        if not self.throw_completes(len(cards)):
            return IllegalAction("turn-cannot-complete")
        return None

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        return self.refusal(action, seat) is None

    def takable_cards(self) -> list[Card]:
        """The face-up cards the seat on turn may still take this turn, in pile order.

        Draw-first: the pile top at the start of the turn (none once the
        seat has taken). Throw-first: the cards of the previous throw that
        may be picked, before the seat throws as well as after (never its
        own throw). A table marks these and dims the rest of the last throw.
        """
        if self.phase == "over":
            return []
        if self.profile.draw_first:
            top = self.pile_top
            return [top] if top is not None and self.phase == "start" and self.is_legal(Action.take_pile()) else []
        if self.phase == "take":
            return [c for c in self.offer_cards if self.is_legal(Action.take_pile(c))]
        return [c for c in self.offer_cards if c in self.pickable()]

    # -- moves (generated, not checked one by one) ---------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action now, in a fixed order: call, takes, then throws.

        For draw-first profiles, where the last card of a group becomes the pile
        top, each group is listed once per possible last card (the rest in
        pack order); other orders of the same cards are legal too. The list is
        built from the rules directly, not by checking candidates, and is
        exactly the set of actions ``refusal`` accepts (property-tested).
        """
        phase = self.phase
        if phase == "over":
            return []
        p = self.profile
        out: list[Action] = []
        if phase == "start" and self.can_call():
            out.append(_CALL)
        if phase == ("start" if p.draw_first else "take"):
            if self.can_draw_stock():
                out.append(_TAKE_STOCK)
            if p.take_rule == "pile-top":
                if self.pile and self.hands[self.turn]:
                    out.append(_TAKE_PILE)
            else:
                out.extend(_TAKE_PILE_CARD[c] for c in sorted(self.pickable()))
        elif phase == ("throw" if p.draw_first else "start"):
            for group in self.legal_groups():
                if len(group) == 1:
                    out.append(_THROW_CARD[group[0]])
                elif p.draw_first:
                    for last in group:
                        out.append(Action("throw", "", tuple(c for c in group if c != last) + (last,)))
                else:
                    out.append(Action("throw", "", group))
        return out

    def legal_groups(self) -> list[Group]:
        """The groups the seat on turn may throw now (in the throw phase), each in pack order."""
        hand = self.hands[self.turn]
        barred = self.took_from_pile
        if barred is not None:
            hand = [c for c in hand if c != barred]
        groups = throwable_groups(self.profile, hand)
        if self.profile.draw_first or self.stock or self.pickable():
            return groups
        return [g for g in groups if self._reshuffle_pool(len(g)) > 0]

    def valid_groups(self, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
        """Every throwable group from ``hand``, each as sorted cards, in a fixed order."""
        return throwable_groups(self.profile, hand)

    # -- applying -------------------------------------------------------------------

    def apply(self, action: Action | str, seat: int | None = None) -> list[Message]:
        """Check and play ``action`` for the seat on turn; return what happened as messages.

        A refused action raises ``IllegalAction`` and changes nothing.
        """
        if isinstance(action, str):
            action = parse_action(action)
        err = self.refusal(action, seat)
        if err is not None:
            raise err
        actor = self.turn
        if action.kind == "call":
            total = self.total(actor)
            self.play(action)
            assert self.outcome is not None
            return [Message("call", {"seat": actor, "total": total})] + outcome_messages(self.outcome, self.turns)
        if action.kind == "throw":
            self.play(action)
            events = [Message("threw", {"seat": actor, "cards": C.cards_text(action.cards)})]
            if self.outcome is not None:
                events += outcome_messages(self.outcome, self.turns)
            return events
        p = self.profile
        if action.source == "stock":
            reshuffles = self.reshuffles
            self.play(action)
            events = []
            if self.reshuffles != reshuffles:  # the stock was empty: all of it is the reshuffled pool, less the draw
                events.append(Message("reshuffle", {"count": len(self.stock) + 1}))
            events.append(Message("took-stock", {"seat": actor, "card": C.card_text(self.hands[actor][-1])}))
            return events
        if p.take_rule == "pile-top":
            self.play(action)
            return [Message("took-pile", {"seat": actor, "card": C.card_text(self.hands[actor][-1])})]
        offered = len(self.offer_cards)
        self.play(action)
        events = [Message("picked-offer", {"seat": actor, "card": C.card_text(self.hands[actor][-1])})]
        if offered > 1 and p.take_rule == "offer-any-or-run-end":
            events.append(Message("out-of-play", {"count": offered - 1}))
        return events

    def play(self, action: Action) -> None:
        """Play a legal ``action`` for the seat on turn, without checking it and without messages.

        The trusted path: only for actions from ``legal_actions()`` or a bot.
        """
        actor = self.turn
        self.history.append((actor, action))
        kind = action.kind
        if kind == "throw":
            self._throw(actor, action.cards)
        elif kind == "take":
            self._take(actor, action)
        else:
            self.phase = "over"
            self._resolve(actor)

    def _reshuffle(self) -> None:
        """The stock is empty: what the profile gathers from the pile becomes a new stock."""
        pile = self.pile
        keep = 1 if self.profile.reshuffle_keep == "top" else self.offer
        cut = len(pile) - keep
        if cut <= 0:
            return
        pool = pile[:cut]
        del pile[:cut]
        self.offer = min(self.offer, len(pile))
        self.reshuffles += 1
        shuffle(pool, f"dhumbal/reshuffle/{self.seed}/{self.reshuffles}")
        self.stock = pool + self.stock

    def _land(self) -> None:
        """Throw-first: this turn's throw lands on the pile and is the new offer."""
        pending = self.pending
        self.pile += pending
        self.offer = len(pending)
        self.offer_kind = landed_kind(self.profile, pending)
        self.pending = []

    def _take(self, actor: int, action: Action) -> None:
        p = self.profile
        hand = self.hands[actor]
        if action.source == "stock":
            if not self.stock:
                if p.reshuffle_keep == "top" and self.pending:
                    # cardrulesplus: the throw has landed before the draw, and only its
                    # last card stays on the pile; the rest goes into the new stock
                    self._land()
                self._reshuffle()
            hand.append(self.stock.pop())
        elif p.take_rule == "pile-top":
            card = self.pile.pop()
            self.offer = 1 if self.pile else 0
            self.offer_kind = "single"
            hand.append(card)
            self.took_from_pile = card
            self.known[actor].append(card)
        else:
            pile = self.pile
            card = action.cards[0] if action.cards else pile[len(pile) - self.offer]
            i = len(pile) - 1
            while pile[i] != card:  # the card is among the top ``offer`` cards
                i -= 1
            del pile[i]
            hand.append(card)
            self.known[actor].append(card)
        if p.draw_first:
            self.phase = "throw"
            return
        pending = self.pending
        if pending:  # the throw lands and is the new offer
            self.pile += pending
            self.offer = len(pending)
            self.offer_kind = "single" if len(pending) == 1 else landed_kind(p, pending)
            self.pending = []
        self.turns += 1
        self.turn = (actor + 1) % len(self.hands)
        self.phase = "start"

    def _throw(self, actor: int, cards: tuple[Card, ...]) -> None:
        p = self.profile
        hand = self.hands[actor]
        for c in cards:
            hand.remove(c)
        known = self.known[actor]
        if known:
            self.known[actor] = [c for c in known if c not in cards]
        if not p.draw_first:
            self.pending = list(cards)
            self.phase = "take"
            return
        self.pile += cards
        self.offer = len(cards)
        self.offer_kind = "single" if len(cards) == 1 else landed_kind(p, cards)
        self.turns += 1
        if p.turn_cap is not None and self.turns >= p.turn_cap:
            self.phase = "over"
            self._resolve(None)
            return
        self.turn = (actor + 1) % len(self.hands)
        self.phase = "start"
        self.took_from_pile = None

    def _resolve(self, caller: int | None) -> None:
        self.outcome = settle(self.profile, self.totals(), self.dealer, caller)

    # -- views ----------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, the table's public facts, and (after the show) every hand."""
        over = self.phase == "over"
        return {
            "profile": self.profile.canonical(),
            "seat": seat,
            "players": self.players,
            "dealer": self.dealer,
            "turn": self.turn,
            "phase": self.phase,
            "hand": [C.card_text(c) for c in self.hands[seat]],
            "total": self.total(seat),
            "counts": [len(h) for h in self.hands],
            "stock": len(self.stock),
            "pile_top": None if self.pile_top is None else C.card_text(self.pile_top),
            "offer": [C.card_text(c) for c in self.offer_cards],
            "offer_kind": self.offer_kind,
            "pending": [C.card_text(c) for c in self.pending] if self.pending else [],
            "turns": self.turns,
            "limit": self.profile.call_limit,
            "known": [[C.card_text(c) for c in k] for k in self.known],
            "hands": [[C.card_text(c) for c in h] for h in self.hands] if over else None,
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def public_view(self, seat: int) -> SeatView:
        """What ``seat`` may know now, as card codes (see :class:`SeatView`)."""
        located = set(self.hands[seat])
        located.update(self.pile)
        located.update(self.pending)
        for s, k in enumerate(self.known):
            if s != seat:
                located.update(k)
        return SeatView(
            seat=seat, players=self.players, dealer=self.dealer, turn=self.turn, phase=self.phase,
            turns=self.turns, hand=tuple(self.hands[seat]), hand_counts=tuple(len(h) for h in self.hands),
            stock_count=len(self.stock), pile=tuple(self.pile), offer=self.offer, offer_kind=self.offer_kind,
            pending=tuple(self.pending), took_from_pile=self.took_from_pile,
            known=tuple(tuple(k) for k in self.known),
            unseen=tuple(c for c in range(self.profile.deck_size) if c not in located),
            history=tuple(self.history),
        )

    # -- records (the JSON forms live in dhumbal.records) ------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state; ``Deal.from_json`` gives an equal deal back."""
        from .records import state_to_json

        return state_to_json(self)

    @classmethod
    def from_json(cls, data: Any) -> "Deal":
        """Load a state written by ``to_json``; anything malformed or inconsistent raises
        ``PositionError`` naming the field."""
        from .records import state_from_json

        return state_from_json(data)

    def transcript(self) -> dict[str, Any]:
        """The deal as (profile, seed, dealer, players, actions): ``replay`` rebuilds it exactly."""
        from .records import transcript

        return transcript(self)

    def copy(self) -> "Deal":
        """An independent copy (the history is copied too; its actions are shared values)."""
        return type(self)(
            self.profile, self.seed, self.dealer, [h[:] for h in self.hands], self.stock[:], self.pile[:],
            self.offer, self.offer_kind, self.pending[:], self.turn, self.phase, self.turns, self.reshuffles,
            self.took_from_pile, [k[:] for k in self.known], self.history[:], self.outcome,
        )


def iter_cards(deal: Deal) -> Iterator[Card]:
    yield from (c for h in deal.hands for c in h)
    yield from deal.stock
    yield from deal.pile
    yield from deal.pending
