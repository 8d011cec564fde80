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

For simulations and search (see also :mod:`dhumbal.play.playout`): ``copy()`` is
cheap (a few microseconds), ``legal_actions()`` lists moves without checking
each one, ``play()`` applies one, and ``public_view(seat)`` is what one seat
may know, for sampling the hidden cards.

Shuffles come from seeded ``random.Random`` instances derived from the deal's
seed (:mod:`dhumbal.core.shuffling`), so a deal replays exactly from (profile, seed,
dealer, actions).

This module holds the rules only. Beside it: :mod:`dhumbal.play.action` (an action
and its text), :mod:`dhumbal.play.scoring` (how a deal ends and what each seat
scores) and, above it, :mod:`dhumbal.play.records` (a deal from outside and back:
explicit positions, JSON, transcripts, replay).

Seats are numbered 0..n-1 in play order: the seat after ``i`` is ``i + 1``
(mod n). A match maps its players onto these numbers (and reverses them for
counterclockwise play), so the deal never needs to know the direction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..core import cards as C
from ..core.cards import Card
from ..core.errors import IllegalAction, PositionError
from ..core.messages import Message
from ..core.profiles import Profile
from ..core.shuffling import shuffle
from .action import CALL, TAKE_PILE, TAKE_PILE_CARD, TAKE_STOCK, THROW_CARD, Action, parse_action
from .groups import (
    Group,
    GroupKind,
    classify_group,
    group_refusal,
    landed_kind,
    run_ends,
    throwable_groups,
)
from .scoring import Outcome, call_is_caught, outcome_messages, settle
from .seatview import Phase, SeatView

# Besides its own names, the deal hands on the names its callers use with it: the
# actions (dhumbal.play.action), the outcome (dhumbal.play.scoring), the refusals (dhumbal.core.errors),
# the kinds of group (dhumbal.play.groups) and what one seat may know (dhumbal.play.seatview).
__all__ = [
    "Action", "Deal", "GroupKind", "IllegalAction", "Outcome", "Phase", "PositionError", "SeatView",
    "call_is_caught", "classify_group", "parse_action", "run_ends",
]

# -- the deal --------------------------------------------------------------------


@dataclass(slots=True)
class Deal:
    """The complete state of one deal. Create with ``Deal.new`` (or, from outside, with :mod:`dhumbal.play.records`)."""

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
    def new(cls, profile: Profile, seed: int | str = 0, *, dealer: int | None = None, players: int | None = None) -> Deal:
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
            out.append(CALL)
        if phase == ("start" if p.draw_first else "take"):
            if self.can_draw_stock():
                out.append(TAKE_STOCK)
            if p.take_rule == "pile-top":
                if self.pile and self.hands[self.turn]:
                    out.append(TAKE_PILE)
            else:
                out.extend(TAKE_PILE_CARD[c] for c in sorted(self.pickable()))
        elif phase == ("throw" if p.draw_first else "start"):
            for group in self.legal_groups():
                if len(group) == 1:
                    out.append(THROW_CARD[group[0]])
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

    # -- what one seat may know ----------------------------------------------------

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

    def copy(self) -> Deal:
        """An independent copy (the history is copied too; its actions are shared values)."""
        return type(self)(
            self.profile, self.seed, self.dealer, [h[:] for h in self.hands], self.stock[:], self.pile[:],
            self.offer, self.offer_kind, self.pending[:], self.turn, self.phase, self.turns, self.reshuffles,
            self.took_from_pile, [k[:] for k in self.known], self.history[:], self.outcome,
        )
