"""Cards as small integers, with parsing and text forms.

A card is an ``int`` so that hands, stocks and piles are plain lists that copy,
compare and serialise cheaply: the bots replay thousands of deals a second.
Codes 0..51 are the 52 ranked cards (``suit * 13 + rank - 1``); 52 and 53 are
the two printed jokers, which are distinct cards so that a 54-card deck
conserves every card.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

Card = int

SUITS: Final = ("S", "H", "D", "C")
SUIT_SYMBOLS: Final = ("♠", "♥", "♦", "♣")
RANK_TEXT: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKERS: Final = (52, 53)
DECK_MAX: Final = 54  # card codes are 0 .. DECK_MAX - 1
JOKER = 0  # the rank of a joker
ACE, JACK, QUEEN, KING = 1, 11, 12, 13


class CardError(ValueError):
    """Card text that names no card; ``text`` is what was given."""

    def __init__(self, text: str, reason: str = "") -> None:
        self.text = text
        msg = f"not a card: {text!r}"
        if reason:
            msg += f" ({reason})"
        super().__init__(msg)


def make(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1..13) in suit index ``suit`` (0..3)."""
    if not 1 <= rank <= 13 or not 0 <= suit <= 3:
        raise ValueError(f"no card of rank {rank} in suit {suit}")
    return suit * 13 + rank - 1


def rank_of(card: Card) -> int:
    """1..13 for A..K; 0 for a joker."""
    return 0 if card >= 52 else card % 13 + 1


def suit_of(card: Card) -> int:
    """0..3 (spades, hearts, diamonds, clubs); -1 for a joker."""
    return -1 if card >= 52 else card // 13


def is_joker(card: Card) -> bool:
    return card >= 52


def card_text(card: Card, *, ascii: bool = False) -> str:
    """``K♠`` (or ``KS``); jokers are ``Jk1`` and ``Jk2``."""
    if card >= 52:
        return f"Jk{card - 51}"
    rank = RANK_TEXT[card % 13 + 1]
    suit = card // 13
    return rank + (SUITS[suit] if ascii else SUIT_SYMBOLS[suit])


_SUIT_INPUT = {
    "♠": 0, "♤": 0, "S": 0,
    "♥": 1, "♡": 1, "H": 1,
    "♦": 2, "♢": 2, "D": 2,
    "♣": 3, "♧": 3, "C": 3,
}
_RANK_INPUT = {
    "A": 1, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "10": 10, "T": 10, "J": 11, "Q": 12, "K": 13,
}
_CARD_RE = re.compile(r"^(10|[AJQKT2-9])([♠♥♦♣♤♡♢♧SHDC])$", re.IGNORECASE)
_JOKER_RE = re.compile(r"^(?:JK|JOKER|X|🃏)([12])$", re.IGNORECASE)


def parse_card(text: str) -> Card:
    """Read ``K♠``, ``KS``, ``ks``, ``10h``, ``Th``, ``Jk1`` / ``Joker2``."""
    t = text.strip()
    m = _CARD_RE.match(t)
    if m:
        return make(_RANK_INPUT[m.group(1).upper()], _SUIT_INPUT[m.group(2).upper()])
    m = _JOKER_RE.match(t)
    if m:
        return JOKERS[int(m.group(1)) - 1]
    raise CardError(text, "write a rank A 2-10 J Q K and a suit ♠♥♦♣ or S H D C, e.g. K♠ or 10H")


def parse_cards(text: str | Sequence[str]) -> list[Card]:
    """Cards separated by spaces or commas, or a list of card texts."""
    parts: Iterable[str]
    if isinstance(text, str):
        parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    else:
        parts = text
    return [parse_card(p) for p in parts]


def cards_text(cards: Iterable[Card], *, ascii: bool = False) -> str:
    return " ".join(card_text(c, ascii=ascii) for c in cards)


def full_deck(*, jokers: bool) -> list[Card]:
    """A new pack in a fixed order: spades A..K, hearts, diamonds, clubs, then jokers."""
    return list(range(54 if jokers else 52))


def sort_key(card: Card) -> tuple[int, int]:
    """Order for display: by rank (jokers last), then suit."""
    return (14 if card >= 52 else card % 13 + 1, card // 13 if card < 52 else card)
