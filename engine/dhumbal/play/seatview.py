"""What one seat may know of a live deal: :class:`SeatView`, the only input of what must not peek.

A bot, the sampler that deals the hidden cards anew, the Hint and the odds
all take a seat's view (:meth:`dhumbal.play.deal.Deal.public_view`), never
the deal: what they decide cannot depend on a card the seat cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..core.cards import Card
from .action import Action
from .groups import GroupKind

#: Where a deal stands in the turn: a seat about to call, take or throw (start), to throw,
#: to take, or the deal over.
Phase = Literal["start", "throw", "take", "over"]


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
