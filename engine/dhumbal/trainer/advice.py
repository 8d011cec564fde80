"""A graded move in words: what it is, what it is worth, and why, in the reader's language.

Everything said here is read from the position and from a
:class:`dhumbal.trainer.grading.Grade` (the engine's figures); the sentences come
from the catalogs, so each language says them in its own words. Cards are
written as printed (``K♠ K♥``): a page draws them as card badges.

- :func:`move_text`: a move as a short phrase ("throw K♠ K♥", "take 2♦
  from the offer", "call on 5");
- :func:`why`: one or two sentences on why the best move is best: a fact of
  the position about it (what a throw sheds and keeps, what a card taken is
  worth and goes with, how often a call is caught) and what happened when
  the deals were played out (how often each move won the deal, caught a
  caller, or had its own call caught): a finished deal's review says it.

A puzzle's answer is said by :mod:`dhumbal.worked.puzzleanswer`, from its
grades against every opponent model, with the fact it turns on first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..bots.levels import percent
from ..core import cards as C
from ..core.cards import Card
from ..core.i18n import N_, NP_, number, translator
from ..core.profiles import Profile
from ..play.action import Action
from ..play.deal import SeatView
from ..play.groups import throwable_groups
from .grading import Grade, MoveGrade, move_key

__all__ = ["move_fact", "move_text", "why"]

MOVE_CALL: Final = N_("call on {total}")
MOVE_STOCK: Final = N_("take from the stock")
MOVE_TAKE: Final = {
    "pile": N_("take {card} from the pile"),
    "offer": N_("take {card} from the offer"),
    "discard": N_("take {card} from the discard pile"),
}
MOVE_THROW: Final = N_("throw {cards}")

WHY_CALL: Final = N_("A call now on {total} is caught in {caught} of the deals that fit what you have seen.")
WHY_THROW: Final = NP_("Throwing {cards} takes {shed} point out of your hand now and leaves you {left}.",
                       "Throwing {cards} takes {shed} points out of your hand now and leaves you {left}.")
WHY_THROW_KEEP: Final = NP_("Throwing {cards} takes {shed} point out of your hand now and keeps {group} to throw together later.",
                            "Throwing {cards} takes {shed} points out of your hand now and keeps {group} to throw together later.")
WHY_TAKE_GROUP: Final = N_("{card} is worth {value} and goes with your {group} in one throw.")
WHY_TAKE: Final = N_("{card} is worth {value}; a card from the stock is worth {average} on average.")
WHY_TAKE_KNOWN: Final = N_("{card} is worth {value}, little more than the {average} a card from the stock is worth on average, and it is a card you know: a blind draw may come out heavier.")
WHY_BARRED: Final = N_("{card} could not go back on the pile this turn: it would stay in your hand, worth {value}.")
WHY_BARRED_GROUP: Final = N_("{card} would go with your {group}, but not this turn: a card taken from the pile cannot be thrown back in the same turn.")
WHY_STOCK: Final = N_("A card from the stock is worth {average} on average.")
WHY_STOCK_BACK: Final = N_("A card from the stock is worth {average} on average, and unlike the pile's card it may go straight back.")
OUTCOME: Final = N_("Played out to the end, {best} won you the deal in {won} of the sampled deals; {other}, in {won_other}.")
OUTCOME_CATCH: Final = N_("Played out to the end, {best} won you the deal in {won} of the sampled deals ({catch} by catching a caller); {other}, in {won_other}.")
OUTCOME_HAND: Final = N_("Played out to the end, {best} left you {hand} points in hand when the deal ended, on average; {other}, {hand_other}.")
OUTCOME_CAUGHT: Final = N_("Played out to the end, {best} won you the deal in {won} of the sampled deals; after {other}, your own call was caught in {caught}.")

#: A share at or above which "caught a caller" or "your call was caught" is worth saying.
TELLING: Final = 0.15
#: Win shares closer than this are not a reason: the hand left at the end is said instead.
CLOSE_WINS: Final = 0.05


# -- moves -----------------------------------------------------------------------------------


def move_text(profile: Profile, view: SeatView, action: Action, lang: str) -> str:
    """``action`` of the seat on turn of ``view`` as a short phrase in ``lang`` (a throw's cards
    by rank, as a hand is sorted)."""
    t = translator(lang)
    if action.kind == "call":
        return t(MOVE_CALL, total=_total(profile, view))
    if action.kind == "take":
        if action.source == "stock":
            return t(MOVE_STOCK)
        card = _taken(view, action)
        return t(MOVE_TAKE[profile.after_deal], card="" if card is None else C.card_text(card))
    return t(MOVE_THROW, cards=C.cards_text(sorted(action.cards, key=C.sort_key)))


def _total(profile: Profile, view: SeatView) -> int:
    return sum(profile.values[c] for c in view.hand)


def _taken(view: SeatView, action: Action) -> Card | None:
    """The face-up card ``action`` takes (the pile top when the action names none)."""
    if action.kind != "take" or action.source != "pile":
        return None
    if action.cards:
        return action.cards[0]
    return view.pile[-1] if view.pile else None


# -- why ---------------------------------------------------------------------------------------


def _average(profile: Profile, view: SeatView) -> float:
    """What a card from the stock is worth on average, from the seat's view (every unseen card alike)."""
    pool = view.unseen or tuple(range(profile.deck_size))
    return sum(profile.values[c] for c in pool) / len(pool)


def _group_with(profile: Profile, hand: Sequence[Card], card: Card) -> tuple[Card, ...]:
    """The cards of ``hand`` that ``card`` would be thrown with in its best group (none if it goes alone)."""
    values = profile.values
    best: tuple[int, int, tuple[Card, ...]] | None = None
    for g in throwable_groups(profile, [*hand, card]):
        if card in g and len(g) > 1:
            rest = tuple(c for c in g if c != card)
            key = (sum(values[c] for c in g), len(g), rest)
            if best is None or key[:2] > best[:2]:
                best = key
    return best[2] if best is not None else ()


def _kept_group(profile: Profile, rest: Sequence[Card]) -> tuple[Card, ...]:
    """The group of two or more cards worth most that ``rest`` keeps (none if there is none)."""
    values = profile.values
    groups = [g for g in throwable_groups(profile, rest) if len(g) > 1]
    if not groups:
        return ()
    return max(groups, key=lambda g: (sum(values[c] for c in g), len(g), [-c for c in g]))


def _fact(profile: Profile, view: SeatView, grade: Grade, move: MoveGrade, lang: str, *, best: bool) -> str:
    """One fact of the position about ``move`` (``best``: said of the best move, else of one passed over)."""
    t = translator(lang)
    a = move.action
    if a.kind == "call":
        total = sum(profile.values[c] for c in view.hand)
        caught = grade.call_caught if grade.call_caught is not None else move.caught
        return t(WHY_CALL, total=total, caught=percent(caught, lang))
    return move_fact(profile, view, a, lang, best=best)


def move_fact(profile: Profile, view: SeatView, a: Action, lang: str, *, best: bool = True,
              average: float | None = None) -> str:
    """One fact of the position about a throw or a take ``a`` of the seat on turn (``best``: said
    of the move to make, else of one passed over): what a throw sheds and keeps, what a card
    taken is worth and goes with, what a card from the stock is worth on average (``average``,
    else every unseen card alike)."""
    if a.kind == "call":
        raise ValueError("a call's fact is its odds: see why()")
    t = translator(lang)
    values = profile.values
    hand = list(view.hand)
    total = sum(values[c] for c in hand)
    if a.kind == "throw":
        shed = sum(values[c] for c in a.cards)
        rest = [c for c in hand if c not in a.cards]
        kept = _kept_group(profile, rest)
        thrown = C.cards_text(sorted(a.cards, key=C.sort_key))
        if kept:
            return t.plural(*WHY_THROW_KEEP, shed, cards=thrown, shed=shed, group=C.cards_text(sorted(kept, key=C.sort_key)))
        return t.plural(*WHY_THROW, shed, cards=thrown, shed=shed, left=total - shed)
    mean = _average(profile, view) if average is None else average
    average_text = number(f"{mean:.1f}", lang)
    card = _taken(view, a)
    if card is None:  # the stock
        return t(WHY_STOCK_BACK if profile.draw_first and view.pile else WHY_STOCK, average=average_text)
    group = _group_with(profile, hand, card)
    if profile.draw_first and not best:  # what a card taken from the pile costs: it stays this turn
        if group:
            return t(WHY_BARRED_GROUP, card=C.card_text(card), group=C.cards_text(sorted(group, key=C.sort_key)))
        return t(WHY_BARRED, card=C.card_text(card), value=values[card])
    if group:
        return t(WHY_TAKE_GROUP, card=C.card_text(card), value=values[card], group=C.cards_text(sorted(group, key=C.sort_key)))
    # a card taken for itself is worth less than a draw, or (the expert's values weigh more than
    # points) not much more: said so, never as if the draw were the lighter choice
    return t(WHY_TAKE if values[card] < mean else WHY_TAKE_KNOWN, card=C.card_text(card), value=values[card],
             average=average_text)


def why(profile: Profile, view: SeatView, grade: Grade, chosen: Action | None, lang: str) -> list[str]:
    """Why the best move is best, in one or two sentences: a fact of the position about it (or,
    for a take from the stock, about the card passed over), and how the deals played out after it
    and after the reader's move (or the next best)."""
    t = translator(lang)
    best = grade.best
    other = grade.of(chosen) if chosen is not None else None
    if other is None or move_key(other.action) == move_key(best.action):
        other = grade.moves[1] if len(grade.moves) > 1 else None
    out = []
    if best.action.kind == "take" and best.action.source == "stock" and other is not None and other.action.kind == "take":
        out.append(_fact(profile, view, grade, other, lang, best=False))  # what the face-up card would have done
        out.append(_fact(profile, view, grade, best, lang, best=True))
        return out
    out.append(_fact(profile, view, grade, best, lang, best=True))
    if other is None:
        return out
    names = {"best": move_text(profile, view, best.action, lang),
             "other": move_text(profile, view, other.action, lang),
             "won": percent(best.won, lang), "won_other": percent(other.won, lang)}
    if other.caught >= TELLING and other.caught > best.caught:
        out.append(t(OUTCOME_CAUGHT, caught=percent(other.caught, lang), **names))
    elif best.catch >= TELLING and best.catch > other.catch:
        out.append(t(OUTCOME_CATCH, catch=percent(best.catch, lang), **names))
    elif best.won - other.won >= CLOSE_WINS:
        out.append(t(OUTCOME, **names))
    else:
        out.append(t(OUTCOME_HAND, best=names["best"], other=names["other"],
                     hand=number(f"{best.hand:.1f}", lang), hand_other=number(f"{other.hand:.1f}", lang)))
    return out
