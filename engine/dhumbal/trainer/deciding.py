"""The fact a position turns on, in words: what a strong player sees before choosing a move.

A puzzle's answer is explained by the one or two facts it turns on, said
before anything about the move itself (:func:`deciding_facts`), in this
order of weight:

- **a known hand that can call next**: another seat holds only cards it
  picked up in plain view, within the call limit, so it may call at the start
  of its next turn, before the reader moves again;
- **the tie at the limit**: the reader's hand is exactly on the limit, and a
  tie goes against the caller;
- **the deal that ends before you move again**: after the best move, the deal
  ended before the reader's next turn in most of the deals played out against
  the expert's seats;
- **a card that cannot go back**: a card just taken from the pile stays in the
  hand this turn (draw-first profiles);
- **a single card**: another seat holds one card it may call with, in a share
  of the deals that fit the reader's view;
- **the call's odds**: how often a call now is caught.

Every fact is read from the reader's :class:`dhumbal.play.deal.SeatView` and
the grades (which dealt the hidden cards anew from that view), never from a
card the reader cannot see: twins give the same words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..bots.levels import percent
from ..core import cards as C
from ..core.i18n import N_, NP_, translator
from ..core.profiles import Profile
from ..play.deal import SeatView
from .advice import WHY_CALL
from .grading import Grade

__all__ = ["ENDS_FIRST", "deciding_facts"]

KNOWN_CALLER: Final = NP_(
    "{name} holds only {cards}, picked up in plain view: {total} point is within the limit of {limit}, so {name} may call at the start of the next turn, before you move again.",
    "{name} holds only {cards}, picked up in plain view: {total} points is within the limit of {limit}, so {name} may call at the start of the next turn, before you move again.",
)
KNOWN_CALLER_FREE: Final = NP_(
    "{name} holds only {cards}, picked up in plain view: {total} point, and {name} may call at the start of the next turn, before you move again.",
    "{name} holds only {cards}, picked up in plain view: {total} points, and {name} may call at the start of the next turn, before you move again.",
)
TIE: Final = N_("Your {total} is exactly the limit: any other hand of {total} or less catches your call, as a tie goes against the caller.")
BARRED: Final = N_("{card}, taken from the pile, cannot go back this turn: whatever you throw, it stays in your hand.")
ENDS_FIRST: Final = N_("The deal is likely to end before your next turn: it did in {share} of the deals played out against strong players, so what counts is the hand you hold when someone calls.")
SINGLE: Final = N_("{name} holds a single card: in {share} of the deals that fit what you have seen it is worth {limit} or less, and {name} may call with it at the start of the next turn.")
#: After the best move, the deal ended before the reader's next turn in more than this share
#: of the deals played out against the expert's seats: "the deal that ends first".
ENDS_SHARE: Final = 0.5
#: The most facts said.
MOST: Final = 2


def _total(profile: Profile, cards: Sequence[C.Card]) -> int:
    return sum(profile.values[c] for c in cards)


def deciding_facts(profile: Profile, view: SeatView, grade: Grade, names: Sequence[str], lang: str) -> list[str]:
    """The facts the position of ``view`` turns on (see the module docstring), at most :data:`MOST`,
    in ``lang``; ``grade`` the grade against the expert's seats (its best move first), ``names``
    the seats' names as the page shows them."""
    t = translator(lang)
    limit = profile.call_limit
    me = view.seat
    others = [(me + k) % view.players for k in range(1, view.players)]
    hand_total = _total(profile, view.hand)
    facts: list[str] = []
    # a hand wholly picked up in plain view, light enough to call with
    for s in others:
        known = view.known[s]
        if known and len(known) == view.hand_counts[s]:
            total = _total(profile, known)
            cards = C.cards_text(sorted(known, key=C.sort_key))
            if limit is not None and total <= limit:
                facts.append(t.plural(*KNOWN_CALLER, total, name=names[s], cards=cards, total=total, limit=limit))
            elif limit is None:
                facts.append(t.plural(*KNOWN_CALLER_FREE, total, name=names[s], cards=cards, total=total))
            break
    call = next((m for m in grade.moves if m.action.kind == "call"), None)
    if call is not None and limit is not None and hand_total == limit:
        facts.append(t(TIE, total=hand_total))
    best = grade.best
    if best.action.kind != "call" and best.samples and 1 - best.later > ENDS_SHARE:
        facts.append(t(ENDS_FIRST, share=percent(1 - best.later, lang)))
    if profile.draw_first and view.phase == "throw" and view.took_from_pile is not None:
        facts.append(t(BARRED, card=C.card_text(view.took_from_pile)))
    if limit is not None and not facts:
        single = [s for s in others if view.hand_counts[s] == 1 and not view.known[s]]
        if single and view.unseen:
            share = sum(1 for c in view.unseen if profile.values[c] <= limit) / len(view.unseen)
            if share > 0:
                facts.append(t(SINGLE, name=names[single[0]], limit=limit, share=percent(share, lang)))
    if call is not None and len(facts) < MOST:
        facts.append(t(WHY_CALL, total=hand_total, caught=percent(call.caught, lang)))
    return facts[:MOST]
