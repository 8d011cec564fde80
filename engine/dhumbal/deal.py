"""One deal: the turn state machine, legality, and call resolution.

A ``Deal`` is the whole state of one deal under one profile. ``apply`` checks an
action completely before touching anything, so a refused action raises
``IllegalAction`` (a stable code and parameters) and leaves the state exactly as
it was. Shuffles come from seeded ``random.Random`` instances derived from the
deal's seed, so a deal replays exactly from (profile, seed, dealer, actions).

Seats are numbered 0..n-1 in play order: the seat after ``i`` is ``i + 1``
(mod n). A match maps its players onto these numbers (and reverses them for
counterclockwise play), so the deal never needs to know the direction.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any, Final, Iterator, Literal, Sequence

from . import cards as C
from .cards import Card
from .messages import Message, render
from .profiles import DOUBLE_MARGIN, DOUBLE_PENALTY, Profile

Phase = Literal["start", "throw", "take", "over"]
GroupKind = Literal["single", "set", "run"]


class IllegalAction(ValueError):
    """A refused action: ``code`` is stable, ``params`` fill its message."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        super().__init__(code)

    def __str__(self) -> str:
        return f"{self.code}: {render(self.code, self.params)}"

    def message(self) -> Message:
        return Message(self.code, self.params)

    def text(self, lang: str = "en", names: Sequence[str] | None = None) -> str:
        return render(self.code, self.params, lang, names)


class PositionError(ValueError):
    """A position that cannot exist: a duplicate card, a wrong count, a bad field."""


# -- actions ---------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """``call``, ``take`` (from ``stock`` or ``pile``, naming a card when needed) or ``throw``."""

    kind: Literal["call", "take", "throw"]
    source: Literal["", "stock", "pile"] = ""
    cards: tuple[Card, ...] = ()

    @classmethod
    def call(cls) -> "Action":
        return cls("call")

    @classmethod
    def take_stock(cls) -> "Action":
        return cls("take", "stock")

    @classmethod
    def take_pile(cls, card: Card | None = None) -> "Action":
        return cls("take", "pile", () if card is None else (card,))

    @classmethod
    def throw(cls, *cards: Card) -> "Action":
        return cls("throw", "", tuple(cards))

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


# -- groups ----------------------------------------------------------------------


def classify_group(profile: Profile, cards: Sequence[Card]) -> GroupKind:
    """What a throw of ``cards`` is under ``profile``, or ``IllegalAction`` why it is none."""
    n = len(cards)
    if n == 0:
        raise IllegalAction("empty-throw")
    if n == 1:
        return "single"
    reals = [c for c in cards if c < 52]
    ranks = {c % 13 for c in reals}
    if len(ranks) <= 1:
        if len(reals) < n and not profile.jokers_in_sets:
            raise IllegalAction("mixed-ranks")
        if profile.set_max is not None and n > profile.set_max:
            raise IllegalAction("set-too-large", max=profile.set_max)
        return "set"
    if not profile.runs:
        raise IllegalAction("mixed-ranks")
    if len(reals) < n and not profile.jokers_in_runs:
        raise IllegalAction("joker-in-run")
    if n < 3 or len({c // 13 for c in reals}) != 1 or len(ranks) != len(reals):
        raise IllegalAction("not-a-run", cards=C.cards_text(cards))
    lo, hi = min(ranks), max(ranks)
    if hi - lo + 1 > n or n > 13:
        raise IllegalAction("not-a-run", cards=C.cards_text(cards))
    return "run"


def run_ends(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The two end cards of a run (lowest and highest real rank)."""
    reals = sorted((c for c in cards if c < 52), key=lambda c: c % 13)
    if not reals:
        return tuple(cards)
    return (reals[0], reals[-1]) if len(reals) > 1 else (reals[0],)


# -- the deal --------------------------------------------------------------------


@dataclass
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
        random.Random(f"dhumbal/deal/{seed}").shuffle(deck)
        hands: list[list[Card]] = [[] for _ in range(n)]
        for _ in range(profile.hand_size):
            for i in range(1, n + 1):
                hands[(d + i) % n].append(deck.pop())
        exposed = deck.pop()
        return cls(
            profile=profile, seed=seed, dealer=d, hands=hands, stock=deck, pile=[exposed],
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
        """An explicit position. ``stock`` lists the whole stock from the top;
        or give ``stock_top`` (from the top) and the rest of the pack follows in
        pack order (or, with ``rest="pile"``, lies face up under the pile).
        ``out_of_play`` cards lie under the pile (dashain)."""
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
            if c >= profile.deck_size:
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
        deal = cls(
            profile=profile, seed=seed, dealer=dealer, hands=[list(h) for h in hands],
            stock=list(reversed(top_first)), pile=full_pile, offer=k, turn=t,
            turns=turns, known=[[] for _ in range(n)],
        )
        deal.offer_kind = classify_group(profile, full_pile[-k:]) if k > 1 else "single"
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

    def _reshuffle_pool(self) -> int:
        keep = 1 if self.profile.reshuffle_keep == "top" else self.offer
        return max(0, len(self.pile) - keep)

    def can_draw_stock(self) -> bool:
        return bool(self.stock) or self._reshuffle_pool() > 0

    # -- legality -------------------------------------------------------------------

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
            return IllegalAction("pick-which-card", cards=C.cards_text(self._pickable()))
        if asked not in offer:
            return IllegalAction("card-not-on-offer", card=C.card_text(asked))
        if self.offer_kind == "run":
            ends = run_ends(offer)
            if asked not in ends:
                return IllegalAction("run-middle-card", ends=C.cards_text(ends))
        return None

    def _pickable(self) -> list[Card]:
        """Cards of the previous throw that may be picked (throw-first profiles)."""
        offer = self.offer_cards
        p = self.profile
        if p.take_rule == "single-only":
            if self.offer_kind == "single" or (self.offer_kind == "set" and p.set_pick):
                return list(offer)
            return []
        if self.offer_kind == "run":
            return list(run_ends(offer))
        return list(offer)

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
        try:
            classify_group(self.profile, cards)
        except IllegalAction as exc:
            return exc
        if not self.profile.draw_first and not self._pickable() and not self.can_draw_stock():
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
        return [c for c in self.offer_cards if c in self._pickable()]

    def legal_actions(self) -> list[Action]:
        """Every legal action now, in a fixed order: call, takes, then throws.

        For draw-first profiles, where the last card of a group becomes the pile
        top, each group is listed once per possible last card (the rest in
        pack order); other orders of the same cards are legal too.
        """
        if self.phase == "over":
            return []
        out: list[Action] = []
        p = self.profile
        if self.phase == "start" and self.is_legal(Action.call()):
            out.append(Action.call())
        wants_take = (p.draw_first and self.phase == "start") or (not p.draw_first and self.phase == "take")
        if wants_take:
            if self.can_draw_stock():
                out.append(Action.take_stock())
            if p.take_rule == "pile-top":
                if self.is_legal(Action.take_pile()):
                    out.append(Action.take_pile())
            else:
                for c in sorted(self._pickable()):
                    out.append(Action.take_pile(c))
        wants_throw = (p.draw_first and self.phase == "throw") or (not p.draw_first and self.phase == "start")
        if wants_throw:
            hand = self.hands[self.turn]
            for group in self.valid_groups(hand):
                if self.took_from_pile is not None and self.took_from_pile in group:
                    continue
                if p.draw_first and len(group) > 1:
                    for last in group:
                        rest = tuple(c for c in group if c != last)
                        out.append(Action.throw(*rest, last))
                else:
                    out.append(Action.throw(*group))
            if not p.draw_first and not self._pickable() and not self.can_draw_stock():
                out = [a for a in out if a.kind != "throw"]
        return out

    def valid_groups(self, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
        """Every throwable group from ``hand``, each as sorted cards, in a fixed order."""
        p = self.profile
        hs = sorted(hand)
        jokers = [c for c in hs if c >= 52]
        reals = [c for c in hs if c < 52]
        groups: list[tuple[Card, ...]] = [(c,) for c in hs]
        by_rank: dict[int, list[Card]] = {}
        for c in reals:
            by_rank.setdefault(c % 13, []).append(c)
        wild = jokers if p.jokers_in_sets else []
        for r in sorted(by_rank):
            pool = by_rank[r] + wild
            top = len(pool) if p.set_max is None else min(len(pool), p.set_max)
            for size in range(2, top + 1):
                for combo in itertools.combinations(pool, size):
                    if any(c < 52 for c in combo):
                        groups.append(tuple(sorted(combo)))
        if len(jokers) >= 2 and p.jokers_in_sets:
            groups.append(tuple(jokers[:2]))
        if p.runs:
            by_suit: dict[int, list[Card]] = {}
            for c in reals:
                by_suit.setdefault(c // 13, []).append(c)
            jk = jokers if p.jokers_in_runs else []
            for s in sorted(by_suit):
                suited = by_suit[s]
                for k in range(1, len(suited) + 1):
                    for combo in itertools.combinations(suited, k):
                        for j in range(0, len(jk) + 1):
                            if k + j < 3:
                                continue
                            for jc in itertools.combinations(jk, j):
                                g = tuple(sorted(combo + jc))
                                try:
                                    if classify_group(p, g) == "run":
                                        groups.append(g)
                                except IllegalAction:
                                    pass
        seen: set[tuple[Card, ...]] = set()
        unique = []
        for g in groups:
            if g not in seen:
                seen.add(g)
                unique.append(g)
        return unique

    # -- applying -------------------------------------------------------------------

    def apply(self, action: Action | str, seat: int | None = None) -> list[Message]:
        """Play ``action`` for the seat on turn; returns what happened as messages."""
        if isinstance(action, str):
            action = parse_action(action)
        err = self.refusal(action, seat)
        if err is not None:
            raise err
        actor = self.turn
        self.history.append((actor, action))
        if action.kind == "call":
            return self._call(actor)
        if action.kind == "take":
            return self._take(actor, action)
        return self._throw(actor, action.cards)

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.players
        self.phase = "start"
        self.took_from_pile = None

    def _reshuffle(self) -> list[Message]:
        keep = 1 if self.profile.reshuffle_keep == "top" else self.offer
        pool = self.pile[: len(self.pile) - keep]
        if not pool:
            return []
        del self.pile[: len(self.pile) - keep]
        self.offer = min(self.offer, len(self.pile))
        self.reshuffles += 1
        random.Random(f"dhumbal/reshuffle/{self.seed}/{self.reshuffles}").shuffle(pool)
        self.stock = pool + self.stock
        return [Message("reshuffle", {"count": len(pool)})]

    def _take(self, actor: int, action: Action) -> list[Message]:
        p = self.profile
        events: list[Message] = []
        hand = self.hands[actor]
        if action.source == "stock":
            if not self.stock:
                events += self._reshuffle()
            card = self.stock.pop()
            hand.append(card)
            events.append(Message("took-stock", {"seat": actor, "card": C.card_text(card)}))
        elif p.take_rule == "pile-top":
            card = self.pile.pop()
            self.offer = 1 if self.pile else 0
            self.offer_kind = "single"
            hand.append(card)
            self.took_from_pile = card
            self.known[actor].append(card)
            events.append(Message("took-pile", {"seat": actor, "card": C.card_text(card)}))
        else:
            offer = self.offer_cards
            card = action.cards[0] if action.cards else offer[0]
            self.pile.remove(card)
            hand.append(card)
            self.known[actor].append(card)
            events.append(Message("picked-offer", {"seat": actor, "card": C.card_text(card)}))
            rest = len(offer) - 1
            if rest and p.take_rule == "offer-any-or-run-end":
                events.append(Message("out-of-play", {"count": rest}))
        if p.draw_first:
            self.phase = "throw"
            return events
        # throw-first: the throw made earlier this turn now lands and is on offer
        self.pile.extend(self.pending)
        self.offer = len(self.pending)
        self.offer_kind = classify_group(p, self.pending)
        self.pending = []
        self.turns += 1
        self._next_turn()
        return events

    def _throw(self, actor: int, cards: tuple[Card, ...]) -> list[Message]:
        p = self.profile
        hand = self.hands[actor]
        for c in cards:
            hand.remove(c)
        kn = self.known[actor]
        if kn:
            self.known[actor] = [c for c in kn if c not in cards]
        events = [Message("threw", {"seat": actor, "cards": C.cards_text(cards)})]
        if p.draw_first:
            self.pile.extend(cards)
            self.offer = len(cards)
            self.offer_kind = "single" if len(cards) == 1 else classify_group(p, cards)
            self.turns += 1
            if p.turn_cap is not None and self.turns >= p.turn_cap:
                self.phase = "over"
                return events + self._resolve(None)
            self._next_turn()
            return events
        self.pending = list(cards)
        self.phase = "take"
        return events

    def _call(self, actor: int) -> list[Message]:
        events = [Message("call", {"seat": actor, "total": self.total(actor)})]
        self.phase = "over"
        return events + self._resolve(actor)

    # -- resolution -------------------------------------------------------------------

    def _resolve(self, caller: int | None) -> list[Message]:
        p = self.profile
        n = self.players
        hands = tuple(self.totals())
        events: list[Message] = []
        zeros = tuple(0 for _ in range(n))
        if caller is None:
            order = [(self.dealer + i) % n for i in range(1, n + 1)]
            first = min(order, key=lambda s: hands[s])  # min keeps the first of equals
            took = tuple(0 if s == first else hands[s] for s in range(n))
            paid = tuple(sum(took) if s == first else -took[s] for s in range(n))
            events.append(Message("turn-cap", {"count": self.turns}))
            events.append(Message("deal-winner", {"seat": first}))
            self.outcome = Outcome("cap", None, False, first, hands, took, paid, took)
            return events
        others = [s for s in range(n) if s != caller]
        low = min(hands[s] for s in others)
        winner: int | None
        caught = low <= hands[caller]
        if not caught:
            events.append(Message("call-won", {"seat": caller, "total": hands[caller]}))
        if p.settlement == "collect":
            if caught:
                order = [(self.dealer + i) % n for i in range(1, n + 1) if (self.dealer + i) % n != caller]
                winner = min(order, key=lambda s: hands[s])
                took = tuple(
                    p.penalty if s == caller else 0 if s == winner else hands[s] for s in range(n)
                )
            else:
                winner = caller
                took = tuple(0 if s == caller else hands[s] for s in range(n))
            paid = tuple(sum(took) if s == winner else -took[s] for s in range(n))
            points = took
            penalty = p.penalty if caught else 0
        elif p.settlement == "pay-caller":
            if caught:
                order = [(caller + i) % n for i in range(1, n)]
                winner = min(order, key=lambda s: hands[s])
                owed = sum(hands[s] for s in range(n) if s != winner)
                paid = tuple(owed if s == winner else -owed if s == caller else 0 for s in range(n))
            else:
                winner = caller
                paid = tuple(sum(hands[s] for s in others) if s == caller else -hands[s] for s in range(n))
            took = tuple(max(0, -x) for x in paid)
            points = took
            penalty = 0
        else:  # cumulative
            winner = None if caught else caller
            if caught:
                penalty = p.penalty
                if p.double_penalty and hands[caller] - low > DOUBLE_MARGIN:
                    penalty = DOUBLE_PENALTY
                points = tuple(penalty if s == caller else 0 for s in range(n))
            else:
                penalty = 0
                points = tuple(0 if s == caller else hands[s] for s in range(n))
            took = points
            paid = zeros
        if caught:
            catcher = winner if winner is not None else min(others, key=lambda s: (hands[s], (s - caller) % n))
            events.append(Message("caught", {"seat": caller, "catcher": catcher, "low": low, "total": hands[caller]}))
        if winner is not None:
            events.append(Message("deal-winner", {"seat": winner}))
        else:
            events.append(Message("no-deal-winner", {}))
        self.outcome = Outcome("call", caller, caught, winner, hands, took, paid, points, penalty)
        return events

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

    # -- records (the JSON forms live in dhumbal.records) ------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state; ``Deal.from_json`` gives an equal deal back."""
        from .records import state_to_json

        return state_to_json(self)

    @classmethod
    def from_json(cls, data: Any) -> "Deal":
        """Load a state written by ``to_json``; anything malformed raises ``PositionError`` naming the field."""
        from .records import state_from_json

        return state_from_json(data)

    def transcript(self) -> dict[str, Any]:
        """The deal as (profile, seed, dealer, players, actions): ``replay`` rebuilds it exactly."""
        from .records import transcript

        return transcript(self)

    def copy(self) -> "Deal":
        return Deal(
            profile=self.profile, seed=self.seed, dealer=self.dealer,
            hands=[list(h) for h in self.hands], stock=list(self.stock), pile=list(self.pile),
            offer=self.offer, offer_kind=self.offer_kind, pending=list(self.pending), turn=self.turn,
            phase=self.phase, turns=self.turns, reshuffles=self.reshuffles,
            took_from_pile=self.took_from_pile, known=[list(k) for k in self.known],
            history=list(self.history), outcome=self.outcome,
        )



def iter_cards(deal: Deal) -> Iterator[Card]:
    yield from (c for h in deal.hands for c in h)
    yield from deal.stock
    yield from deal.pile
    yield from deal.pending
