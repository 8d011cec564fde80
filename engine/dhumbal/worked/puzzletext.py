"""A puzzle's title and lead in the reader's language: written by hand, or composed from its position.

A hand-written puzzle has its own title and lead (catalog messages,
translated like any page text). A generated puzzle has neither: hundreds of
them would put hundreds of sentences before every translator. Its title is
composed here from a few catalog templates, filled by the engine from the
position and the puzzle's main theme (the most particular of its themes,
:data:`TITLE_ORDER`): the call total and the limit, the card on the pile, the
player close to a call, the card picked up in plain view, the cards to
throw from. A title never says what the answer is; it says what the position
turns on. A generated puzzle has no lead: the same sentence above each of
them would push the position down a phone's screen, and the page says once
how the puzzles were found.

Cards go through the one card formatter of :mod:`dhumbal.core.i18n`
(:func:`dhumbal.core.i18n.card_words`), so a title writes cards as the rest of the
reader's page does; a joker alone is filled in by the translator with its article
("Dipa picked up a joker").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..core import cards as C
from ..core.cards import Card
from ..core.i18n import N_, NP_, card_words, translator
from .puzzles import Puzzle

__all__ = ["TITLE_ORDER", "lead_text", "main_theme", "title_text"]


TITLE_CALL: Final = N_("{cards}: call on {total}?")
TITLE_TIE: Final = N_("{cards}: exactly the limit of {limit}")
TITLE_CLOSE: Final = NP_("{name} is down to {count} card", "{name} is down to {count} cards")
TITLE_PICKUP: Final = N_("{name} picked up {card}")
TITLE_KEPT: Final = N_("{card} stays in your hand")
TITLE_FACE_UP: Final = {
    "pile": N_("{cards} on the pile"),
    "offer": N_("{cards} on offer"),
    "discard": N_("{cards} on the discard pile"),
}
TITLE_JOKER: Final = N_("A joker in play")
TITLE_RACE: Final = N_("{total} points, call at {limit} or less")
TITLE_THROW: Final = N_("What to throw from {cards}?")

#: The themes a generated puzzle's title is about, most particular first.
TITLE_ORDER: Final = ("tie", "pickup", "barred", "joker", "race", "catch", "call", "take", "runs", "pair", "group")


def _cards(cards: Sequence[Card], lang: str) -> str:
    if len(cards) == 1 and C.is_joker(cards[0]):
        return C.card_text(cards[0])  # a joker alone: the translator writes it with its article
    return " ".join(card_words(c, lang) for c in sorted(cards, key=C.sort_key))


def main_theme(themes: Sequence[str]) -> str | None:
    """The theme a title is about: the first of ``themes`` in :data:`TITLE_ORDER`."""
    return next((t for t in TITLE_ORDER if t in themes), None)


def title_text(puzzle: Puzzle, themes: Sequence[str], lang: str) -> str:
    """The puzzle's title in ``lang``: its own (a hand-written puzzle), else composed from its position."""
    t = translator(lang)
    if puzzle.title:
        return t.raw(puzzle.title)
    deal = puzzle.deal
    p = deal.profile
    me = puzzle.seat
    names = puzzle.names_in(lang)
    hand = deal.hands[me]
    total = deal.total(me)
    others = [(me + k) % deal.players for k in range(1, deal.players)]
    theme = main_theme(themes)
    limit = p.call_limit
    if theme == "tie" and limit is not None:
        return t(TITLE_TIE, cards=_cards(hand, lang), limit=limit)
    if theme == "race" and limit is not None:
        return t(TITLE_RACE, total=total, limit=limit)
    if theme in ("call", "tie", "race"):
        return t(TITLE_CALL, cards=_cards(hand, lang), total=total)
    if theme == "pickup":
        seat = next((s for s in others if deal.known[s]), None)
        if seat is not None:
            return t(TITLE_PICKUP, name=names[seat], card=C.card_text(deal.known[seat][-1]))
    if theme == "barred" and deal.took_from_pile is not None:
        return t(TITLE_KEPT, card=C.card_text(deal.took_from_pile))
    if theme == "joker":
        return t(TITLE_JOKER)
    if theme == "catch":
        seat = min(others, key=lambda s: (len(deal.hands[s]), others.index(s)))
        return t.plural(*TITLE_CLOSE, len(deal.hands[seat]), name=names[seat], count=len(deal.hands[seat]))
    shown = deal.offer_cards or deal.pile[-1:]
    if theme in ("take", "barred") and shown:
        return t(TITLE_FACE_UP[p.after_deal], cards=_cards(shown, lang))
    barred = deal.took_from_pile
    return t(TITLE_THROW, cards=_cards([c for c in hand if c != barred] or hand, lang))


def lead_text(puzzle: Puzzle, lang: str) -> str:
    """The puzzle's lead in ``lang``: a hand-written puzzle's own; a generated puzzle has none ("")."""
    return translator(lang).raw(puzzle.lead) if puzzle.lead else ""
