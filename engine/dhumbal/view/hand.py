"""The reader's place: name, dealer and turn, what the hand holds, the call limit, score, and the hand as buttons to mark.

The line above the hand reads "Holding N · call at L" (the limit the Call
button waits for) and, while cards are marked, what they are worth, last
on the line in a place kept for it: the same number as the Throw button
(the table script fills it in from the template it carries). A card just taken carries a small tag saying so (its
name says it too); in the draw-first profiles a card taken from the pile is
marked as barred, with the engine's reason (:func:`barred_note`) in the
dock's notes, whose height is kept, so the hand does not move when it
comes. Each card button carries its code and point value
for the throw button; the worth is printed on a card only where its corner
index does not say it (an ace, a court card, a joker), so a Nepali card
never shows a Latin "5" beside a Devanagari "५".
"""

from __future__ import annotations

from typing import Final

from ..core import cards as C
from ..core.i18n import N_, NP_, Translator, card_name, number, typography
from ..core.profiles import Profile
from ..play.deal import Deal, IllegalAction
from . import cardface
from .felt import HAND_SHOWN, SCORE, score_text, seat_badges
from .markup import attributes, button, esc, ordered, with_card_in_text
from .model import TableModel
from .scores import outcome_badges

YOUR_HAND: Final = N_("Your hand")
HOLDING: Final = N_("Holding {total}")
CALL_AT: Final = N_("call at {limit}")
NO_CALL_LIMIT: Final = N_("no call limit")
# TRANSLATORS: beside "Holding N" while cards are marked: what the marked cards are worth.
MARKED: Final = N_("marked {value}")
HAND_FACE_DOWN: Final = N_("Your hand, face down until you press Play")
NEW_CARD: Final = N_("{card}, just taken")
# TRANSLATORS: a tag on the card just taken, a few letters on a small card (its spoken name says "just taken").
NEW_TAG: Final = N_("new")
BARRED_CARD: Final = N_("{card}, taken from the pile: it cannot be thrown back this turn")
# Said after a card's name while the Hint shows, of the cards it suggests throwing.
HINTED: Final = N_("the Hint's choice")
SORT: Final = N_("Sort hand")
CARD_POINTS: Final = NP_("{card}, {count} point", "{card}, {count} points")


def _points(profile: Profile, card: C.Card, t: Translator) -> str:
    v = profile.value(card)
    return t.plural(CARD_POINTS[0], CARD_POINTS[1], v, card=card_name(card, t.lang))


def _worth_shown(profile: Profile, card: C.Card) -> bool:
    """Whether a card's worth needs printing: not where its index already reads it (2 to 10)."""
    if C.is_joker(card):
        return True
    index = C.RANK_TEXT[C.rank_of(card)]
    return not (index.isdigit() and int(index) == profile.value(card))


def render_hand(model: TableModel, deal: Deal, me: int, t: Translator, my_turn: bool) -> str:
    """The reader's place: name, dealer and turn, total, call limit, and the hand (buttons to mark)."""
    assert model.scoreboard is not None
    p = deal.profile
    tid = model.table_id
    lang = model.lang
    m = model.scoreboard.seating[me]
    total = deal.total(me)
    cls = "dht-me dht-seat dht-seat--me"
    if my_turn:
        cls += " dht-seat--turn"
    names = model.deal_names()
    limit = t(CALL_AT, limit=p.call_limit) if p.call_limit is not None else t(NO_CALL_LIMIT)
    if model.face_down:
        shown_total = ""
    else:
        shown_total = f'<span class="dht-hand__total" data-total="{total}">{esc(t(HOLDING, total=total))}</span>'
    # What the marked cards are worth comes last on the line, in a place kept for it
    # (the words with a two-digit worth, unseen), so nothing on the line moves when it comes.
    marked = "" if model.face_down else (
        f'<span class="dht-hand__marked" data-template="{esc(t.raw(MARKED))}" hidden>'
        f'{esc(t(MARKED, value=number(10, lang)))}</span>')
    outcome = outcome_badges(deal.outcome, me, t, last=model.match_over and not model.practice) if deal.is_over else ""
    # Who (name, dealer, turn, the deal's end), then the facts, dot-separated by the style sheet.
    label = (f'<p class="dht-hand__label" id="{esc(tid)}-hand-label"><span class="dht-hand__who">'
             f'<span class="dht-seat__name">{esc(names[me])}</span>{seat_badges(model, deal, me, t)}{outcome}'
             f'<span class="dht-hand__title dh-visually-hidden">{esc(t(YOUR_HAND))}</span></span>'
             f'<span class="dht-hand__facts">{shown_total}'
             f'<span class="dht-hand__limit">{esc(limit)}</span>'
             f'<span class="dht-seat__score" data-score="{model.scoreboard.scores[m]}">{esc(t(SCORE, score=score_text(model, m)))}</span>'
             f'{marked}</span></p>')

    if model.face_down:
        n = len(deal.hands[me])
        cards_html = cardface.backs(n, size="md", label=t(HAND_FACE_DOWN), extra_classes=("dht-cards__backs",))
        return (f'<div class="{cls}" data-seat="{me}" data-match-seat="{m}">{label}'
                f'<div class="dht-hand"><div class="dht-cards">{cards_html}</div></div></div>')
    barred = deal.took_from_pile if (my_turn and p.draw_first and deal.phase == "throw") else None
    new = model.new_card if model.new_card in deal.hands[me] and not deal.is_over else None
    cards = []
    tag = f'<span class="dht-new-tag" aria-hidden="true">{esc(t(NEW_TAG))}</span>'
    playable = my_turn and not deal.is_over
    hinted = set(model.hint_action.cards) if playable and model.hint_action is not None else set()
    hand = ordered(deal.hands[me], model.sort, p)
    for i, c in enumerate(hand):
        code = C.card_text(c, ascii=True)
        marks: list[str] = []
        names_extra: list[str] = []
        if c == new:
            marks.append("new")
            names_extra.append(t(NEW_CARD, card=card_name(c, lang)))
        if c == barred:
            marks.append("barred")
            names_extra.append(t(BARRED_CARD, card=card_name(c, lang)))
        if c in hinted:
            names_extra.append(t(HINTED))
        if playable:
            a: dict[str, str | None] = {
                "type": "button", "class": cardface.face_classes(c, "md", marks=marks, extra=("dht-card", "dht-hinted" if c in hinted else "")),
                "data-card": code,
                "data-value": str(p.value(c)), "aria-pressed": "false", "data-key": f"card-{code}",
                "tabindex": "0" if i == 0 else "-1",
            }
            if not model.live:
                a["disabled"] = ""
            spoken = typography(_points(p, c, t) + "".join(f"; {x}" for x in names_extra), lang)
            # The name is the spoken text ("King of spades, 10 points"); the face is its picture.
            worth = (f'<span class="dht-pts" aria-hidden="true">{esc(number(p.value(c), lang))}</span>'
                     if _worth_shown(p, c) else "")
            cards.append(f'<button{attributes(a)}><span class="dh-visually-hidden">{esc(spoken)}</span>'
                         f'{cardface.face_inner(c, "md")}{worth}{tag if c == new else ""}</button>')
        else:
            spoken = typography("; ".join([card_name(c, lang)] + names_extra), lang)
            cards.append(cardface.face(c, lang, size="md", marks=marks, label=spoken, extra_classes=("dht-held",)))
    inner = f'<div class="dht-cards" data-count="{len(hand)}">{"".join(cards)}</div>'
    if deal.is_over:
        inner = (f'<span class="dht-seat__hand" data-total="{total}">{inner}'
                 f'<span class="dht-seat__total">{esc(t(HAND_SHOWN, total=total))}</span></span>')
    sort = ""
    if my_turn:
        sort = button(t(SORT), op="sort", live=model.live, cls="dht-btn--quiet dht-sort",
                       extra={"aria-pressed": "true" if model.sort else "false", "data-key": "sort"})
    return (f'<div class="{cls}" data-seat="{me}" data-match-seat="{m}"><div class="dht-me__head">{label}{sort}</div>'
            f'<div class="dht-hand" role="group" aria-labelledby="{esc(tid)}-hand-label">{inner}</div></div>')


def barred_note(model: TableModel, deal: Deal, my_turn: bool) -> str:
    """Why the card taken from the pile is barred (draw-first profiles, while the reader is to
    throw), for the dock's notes; empty otherwise."""
    if model.face_down or not (my_turn and deal.profile.draw_first and deal.phase == "throw"):
        return ""
    barred = deal.took_from_pile
    if barred is None:
        return ""
    reason = IllegalAction("pile-card-returned", card=C.card_text(barred)).text(model.lang, model.deal_names())
    return f'<p class="dht-note dht-note--barred">{with_card_in_text(reason, barred, model.lang)}</p>'
