"""Table diagrams: a worked example's position after each step, drawn from the engine's state.

Each diagram shows every seat's hand as card faces (or backs, for a hand the
example keeps unseen until the show), the pile or the throw on offer with the
cards that may be taken marked, the stock, whose turn it is, and, once the
deal is over, every hand shown. The cards come from the engine's state
after the step (``StepResult.state``, a ``Deal``) and are drawn by the one card
renderer, ``dhumbal.view.cardface``, at ``sm`` size; what may be taken is asked of
the engine (``Deal.is_legal``), never decided here. Cards that moved since the
previous diagram carry the ``changed`` mark; a refused throw's cards the
``selected`` mark, in the hand that tried it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Any, Final

from markupsafe import Markup

from dhumbal.core import cards as C
from dhumbal.core.i18n import N_, NP_, translator
from dhumbal.play.action import Action
from dhumbal.play.deal import Deal
from dhumbal.view import cardface
from dhumbal.view.felt import CARD_COUNT, DEALER, EMPTY, PILE_LABELS, STOCK, TO_PLAY
from dhumbal.view.scores import CALLED

SIZE: Final = "sm"
FACE_DOWN: Final = NP_("{count} card, face down", "{count} cards, face down")
PENDING: Final = N_("Just thrown (lands when the pick is made)")
TOTAL: Final = N_("total {total}")


def takable(deal: Deal) -> list[C.Card]:
    """The pile or offer cards the seat on turn may take, now or after its throw (asked of the engine)."""
    if deal.is_over:
        return []
    if deal.profile.draw_first:
        top = deal.pile_top
        if deal.phase == "start" and top is not None and deal.is_legal(Action.take_pile()):
            return [top]
        return []
    offer = deal.offer_cards
    if deal.phase == "take":
        return [c for c in offer if deal.is_legal(Action.take_pile(c))]
    # The seat throws first: what the offer lets it take once it has thrown.
    trial = deal.copy()
    throw = next((a for a in trial.legal_actions() if a.kind == "throw"), None)
    if throw is None:
        return []
    trial.apply(throw)
    return [c for c in offer if trial.is_legal(Action.take_pile(c))]


@lru_cache(maxsize=4096)
def _face(card: C.Card, lang: str, marks: tuple[str, ...]) -> str:
    return cardface.face(card, lang, size=SIZE, marks=marks)


def clear_faces() -> None:
    """Forget the drawn cards (their names come from the catalogs)."""
    _face.cache_clear()


def _faces(cards: Sequence[C.Card], lang: str, marks: dict[C.Card, list[str]]) -> Markup:
    return Markup("".join(_face(c, lang, tuple(marks.get(c, ()))) for c in cards))


def diagram(
    deal: Deal,
    *,
    names: Sequence[str],
    lang: str,
    unseen: Collection[int] = (),
    previous: Deal | None = None,
    attempt: tuple[int, Action] | None = None,
    show_takable: bool = True,
    show_totals: bool = True,
) -> dict[str, Any]:
    """What ``diagram.html`` draws for ``deal`` (see the module docstring).

    A position shown under several profiles at once goes without
    ``show_takable`` and ``show_totals``: the profiles differ on what may be
    taken and on what the cards are worth.
    """
    t = translator(lang)
    p = deal.profile
    over = deal.is_over
    outcome = deal.outcome
    seats = []
    for s, hand in enumerate(deal.hands):
        hidden = s in unseen and not over
        marks: dict[C.Card, list[str]] = {}
        if previous is not None:
            for c in set(hand) - set(previous.hands[s]):
                marks.setdefault(c, []).append("changed")
        if attempt is not None and attempt[0] == s and attempt[1].kind == "throw":
            for c in attempt[1].cards:
                marks.setdefault(c, []).append("selected")
        if deal.took_from_pile is not None and s == deal.turn and not over:
            marks.setdefault(deal.took_from_pile, []).append("barred")
        seats.append({
            "name": names[s],
            "dealer": s == deal.dealer,
            "turn": not over and s == deal.turn,
            "caller": outcome is not None and outcome.caller == s,
            "hidden": hidden,
            "count": len(hand),
            "count_text": t.plural(*CARD_COUNT, len(hand)),
            "total": t(TOTAL, total=deal.total(s)) if show_totals and not hidden else None,
            "cards": (Markup("".join(cardface.back(size=SIZE) for _ in hand)) if hidden
                      else _faces(hand, lang, marks)),
            "hidden_label": t.plural(*FACE_DOWN, len(hand)),
        })
    may_take = set(takable(deal)) if show_takable else set()
    if p.draw_first:
        shown = deal.offer_cards or deal.pile[-1:]
    else:
        shown = deal.offer_cards
    before = set(previous.offer_cards) | set(previous.pile[-1:]) if previous is not None else set(shown)
    pile_marks: dict[C.Card, list[str]] = {}
    for c in shown:
        if not over and show_takable:
            pile_marks.setdefault(c, []).append("takable" if c in may_take else "dim")
        if c not in before:
            pile_marks.setdefault(c, []).append("changed")
    if attempt is not None and attempt[1].kind == "take" and attempt[1].cards:
        pile_marks.setdefault(attempt[1].cards[0], []).append("selected")
    pending_before = set(previous.pending) if previous is not None else set()
    pending = {c: ["changed"] for c in deal.pending if c not in pending_before}
    return {
        "seats": seats,
        "stock": len(deal.stock),
        "stock_label": t(STOCK),
        "stock_text": t.plural(*CARD_COUNT, len(deal.stock)),
        "stock_back": Markup(cardface.back(size=SIZE)),
        "pile_label": t(PILE_LABELS[p.after_deal]),
        "pile": [C.card_text(c) for c in shown],
        "pile_cards": _faces(shown, lang, pile_marks) if shown else None,
        "empty": t(EMPTY),
        "pending": _faces(deal.pending, lang, pending) if deal.pending else None,
        "pending_label": t(PENDING),
        "over": over,
        "labels": {"dealer": t(DEALER), "turn": t(TO_PLAY), "caller": t(CALLED)},
    }
