"""The hint's move: what the expert would do now, and one line of why, in the reader's language.

The table's Hint shows the reader's call odds (:mod:`.hint`) and, with them,
the move the expert bot would make in the reader's seat. The move is the
expert's own decision (:func:`dhumbal.expert.decide`, from the reader's view
alone, so it is the same every time and on every runtime); what it plans
next in the same turn is its decision on the position the move leaves (after
a throw, which card it would take; after a take, what it would throw). The
why is a fact of the position from the engine's figures
(:func:`dhumbal.advice.move_fact`: the points a throw sheds and what it
keeps, what a card taken is worth and goes with). A call needs no why here:
the call odds follow it.

Nothing here changes the deal: the plan is worked out on a copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import expert
from ..action import Action
from ..advice import move_fact, move_text
from ..deal import Deal
from ..i18n import N_, cards_in_words, translator

SUGGEST: Final = N_("The expert's move: {move}.")
SUGGEST_THEN: Final = N_("The expert's move: {move}, then {then}.")


@dataclass(frozen=True)
class Suggestion:
    """The expert's move for the seat on turn, what it would do next in the same turn, and why."""

    action: Action
    then: Action | None
    text: str


def suggest(deal: Deal, lang: str) -> Suggestion:
    """The expert's move for the seat on turn of ``deal`` (a live deal; it is not changed)."""
    if deal.is_over:
        raise ValueError("the deal is over: there is no move to suggest")
    seat = deal.turn
    view = deal.public_view(seat)
    profile = deal.profile
    action = expert.decide(deal).action
    t = translator(lang)
    move = move_text(profile, view, action, lang)
    if action.kind == "call":
        return Suggestion(action, None, cards_in_words(t(SUGGEST, move=move), lang))
    after = deal.copy()
    after.apply(action, seat=seat)
    then: Action | None = None
    if not after.is_over and after.turn == seat:
        then = expert.decide(after).action
        if then.kind == "call":  # a call comes at the start of a turn: not part of this one's plan
            then = None
    head = (t(SUGGEST_THEN, move=move, then=move_text(profile, after.public_view(seat), then, lang))
            if then is not None else t(SUGGEST, move=move))
    return Suggestion(action, then, cards_in_words(head + " " + move_fact(profile, view, action, lang), lang))
