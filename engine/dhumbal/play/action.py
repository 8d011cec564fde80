"""An action at the table: a call, a take (from the stock or the pile) or a throw, and its text form.

:func:`parse_action` reads what a reader, an example file or a transcript
writes (``call``, ``take stock``, ``take pile K♠``, ``throw K♠ K♥``);
:meth:`Action.text` writes it back. The common actions are shared
instances (:data:`CALL`, :data:`TAKE_STOCK`, one take and one throw per
card), which the rules and the bots hand out by the thousand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from ..core import cards as C
from ..core.cards import Card
from ..core.errors import IllegalAction


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
    def call(cls) -> Action:
        return CALL

    @classmethod
    def take_stock(cls) -> Action:
        return TAKE_STOCK

    @classmethod
    def take_pile(cls, card: Card | None = None) -> Action:
        if card is None:
            return TAKE_PILE
        if 0 <= card < C.DECK_MAX:
            return TAKE_PILE_CARD[card]
        return cls("take", "pile", (card,))

    @classmethod
    def throw(cls, *cards: Card) -> Action:
        if len(cards) == 1 and 0 <= cards[0] < C.DECK_MAX:
            return THROW_CARD[cards[0]]
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


CALL: Final = Action("call")
TAKE_STOCK: Final = Action("take", "stock")
TAKE_PILE: Final = Action("take", "pile")
TAKE_PILE_CARD: Final = tuple(Action("take", "pile", (c,)) for c in range(C.DECK_MAX))
THROW_CARD: Final = tuple(Action("throw", "", (c,)) for c in range(C.DECK_MAX))
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
