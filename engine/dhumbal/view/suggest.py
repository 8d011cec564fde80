"""The hint's move: what the expert would do now, and one line of why, in the reader's language.

The table's Hint shows the move the expert bot would make in the reader's
seat (with the reader's call odds at the start of a turn, :mod:`.hint`).
Everything here is worked out from the reader's :class:`~dhumbal.play.deal.SeatView`
and the profile, nothing else: no function here is given a deal, so none
can read a card the reader cannot see.

- The move is the expert's own decision (:func:`dhumbal.bots.expert.decide_view`),
  the same every time and on every runtime.
- What it plans next in the same turn is its decision on the view the move
  leaves (:func:`dhumbal.bots.sampler.after_view`): after a throw, which card it
  would take; after a take from the pile, what it would throw. After a draw
  from the stock the throw depends on the card drawn, which the reader does
  not know yet: the plan is the expert's throw for each card its beliefs
  say the stock may give (:func:`dhumbal.bots.expert.stock_draws`), named only
  when it does not throw the drawn card itself, with how often it is the
  throw ("whatever you draw", "most likely ... for 70 % of the cards you
  might draw"), or, when no throw is likely, that the card drawn decides.
- The why is a fact of the position from the engine's figures
  (:func:`dhumbal.trainer.advice.move_fact`), a card from the stock valued as the
  expert's beliefs value it. A call needs no why here: the call odds follow.

The move and its plan are one short line (``line``, the status line says it);
how often the plan is the throw, and the fact, are the reasons behind it
(``why``, the table's "Why?" shows them), so the line reads at a glance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..bots import expert
from ..bots.levels import percent
from ..bots.sampler import after_view
from ..core.cards import Card
from ..core.i18n import N_, cards_in_words, translator
from ..core.profiles import Profile
from ..play.action import Action
from ..play.deal import SeatView
from ..trainer.advice import move_fact, move_text

SUGGEST: Final = N_("The expert's move: {move}.")
SUGGEST_THEN: Final = N_("The expert's move: {move}, then {then}.")
SUGGEST_THEN_ANY: Final = N_("The expert's move: {move}, then {then}, whatever card you draw.")
SUGGEST_THEN_LIKELY: Final = N_("The expert's move: {move}, then most likely {then}.")
# TRANSLATORS: behind the Hint's "Why?", after "The expert's move: take from the stock, then most likely throw 9♠."
WHY_LIKELY: Final = N_(
    "That throw is its choice for {share} of the cards you might draw: ask for a hint again once you hold the card."
)
# TRANSLATORS: behind the Hint's "Why?", after "The expert's move: take from the stock."
WHY_DRAWN: Final = N_("What to throw next depends on the card you draw: ask for a hint again once you hold it.")
#: The least share of the possible draws for which a throw is named as the likely plan.
LIKELY: Final = 0.5


@dataclass(frozen=True)
class Suggestion:
    """The expert's move for the seat on turn, what it would do next in the same turn, and why.

    ``then`` is the next move of the turn when it does not hang on a card still unseen
    (after a draw from the stock: the throw for most of the cards it may give, else
    ``None``); ``line`` says the move and its plan, ``why`` the reasons behind them,
    sentence by sentence; ``caught`` is the expert's own chance of being caught, when
    it weighed a call.
    """

    action: Action
    then: Action | None
    line: str
    why: tuple[str, ...] = ()
    caught: float | None = None

    @property
    def text(self) -> str:
        """The line and its reasons, as one paragraph."""
        return " ".join((self.line, *self.why))


def suggest(profile: Profile, view: SeatView, lang: str) -> Suggestion:
    """The expert's move for the seat on turn of ``view`` (a live deal's view, the seat on turn)."""
    if view.phase == "over":
        raise ValueError("the deal is over: there is no move to suggest")
    decision = expert.decide_view(profile, view)
    action = decision.action
    t = translator(lang)
    move = move_text(profile, view, action, lang)
    if action.kind == "call":
        return Suggestion(action, None, cards_in_words(t(SUGGEST, move=move), lang), caught=decision.caught)
    stock = expert.stock_draws(profile, view) if action.kind == "take" else ({}, 0)
    then: Action | None = None
    plan = ""
    if _from_stock(action) and profile.draw_first:  # the throw that follows hangs on the card drawn
        then, head, plan = _after_draw(profile, view, action, stock, move, lang)
    elif _from_stock(action):  # throwing first, the take ends the turn
        head = t(SUGGEST, move=move)
    else:
        after = after_view(profile, view, action)
        if after.turn == view.seat and after.phase != "over":
            then = expert.decide_view(profile, after).action
            if then.kind == "call":  # a call comes at the start of a turn: not part of this one's plan
                then = None
        head = (t(SUGGEST_THEN, move=move, then=move_text(profile, after, then, lang))
                if then is not None else t(SUGGEST, move=move))
    average = _average(profile, stock) if stock[1] else None
    fact = move_fact(profile, view, action, lang, average=average)
    why = tuple(cards_in_words(w, lang) for w in (plan, fact) if w)
    return Suggestion(action, then, cards_in_words(head, lang), why, decision.caught)


def _from_stock(action: Action) -> bool:
    return action.kind == "take" and action.source == "stock"


def _average(profile: Profile, draws: tuple[dict[Card, int], int]) -> float:
    weights, total = draws
    return sum(w * profile.values[c] for c, w in weights.items()) / total


def _after_draw(profile: Profile, view: SeatView, action: Action, draws: tuple[dict[Card, int], int],
                move: str, lang: str) -> tuple[Action | None, str, str]:
    """The plan after a draw from the stock: the expert's throw for each card the stock may
    give, as its beliefs weigh them; a throw of cards held now is named with how often it
    is the one, a throw of the card drawn never (the reader has not seen it). Returns the
    throw named, the line, and the plan's reason (for "Why?", "" when the line says it all)."""
    t = translator(lang)
    weights, total = draws
    share: dict[tuple[Card, ...], int] = {}
    throws: dict[tuple[Card, ...], tuple[Action, SeatView]] = {}
    for card, weight in sorted(weights.items()):
        after = after_view(profile, view, action, drawn=card)
        if after.turn != view.seat or after.phase == "over":
            continue
        throw = expert.decide_view(profile, after).action
        if throw.kind != "throw" or card in throw.cards:
            continue
        key = tuple(sorted(throw.cards))
        share[key] = share.get(key, 0) + weight
        throws.setdefault(key, (throw, after))
    if not share:
        return None, t(SUGGEST, move=move), t(WHY_DRAWN)
    key = max(share, key=lambda k: (share[k], [-c for c in k]))
    throw, after = throws[key]
    then = move_text(profile, after, throw, lang)
    if share[key] == total:
        return throw, t(SUGGEST_THEN_ANY, move=move, then=then), ""
    if share[key] >= LIKELY * total:
        return (throw, t(SUGGEST_THEN_LIKELY, move=move, then=then),
                t(WHY_LIKELY, share=percent(share[key] / total, lang)))
    return None, t(SUGGEST, move=move), t(WHY_DRAWN)
