"""The felt: the other seats around the table and, in the middle, the stock and the last throw.

Each other seat shows its name, the dealer's button and "to play", its
score, one card back per card held (its hand face up once the deal is
over), the cards it is known to have picked up, and, while the bots' moves
are played back one at a time, a bubble with its last move (over its name,
never over its cards and their count; ``data-move`` says what the move did
to the cards, for the table script to move them). Once the deal is over,
each seat says its part in the ending: called, on what, caught, winner. The middle
holds the stock (a button when the reader may take from it), the last
throw (its takable cards buttons when the reader may take one) and a throw
that lands when a card is taken.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from ..core import cards as C
from ..core.i18n import N_, NP_, Translator, card_name, number, translator
from ..core.messages import Message
from ..play.action import Action
from ..play.deal import Deal
from . import cardface
from .markup import attributes, button, cards_spans, esc, ordered, signed, with_cards
from .model import TableModel
from .scores import outcome_badges, signed_money

PLAYERS_LABEL: Final = N_("Players")
DEALER: Final = N_("dealer")
# TRANSLATORS: the letter on the dealer's button at a card table (one letter or syllable).
DEALER_MARK: Final = N_("D")
TO_PLAY: Final = N_("to play")
CARD_COUNT: Final = NP_("{count} card", "{count} cards")
SCORE: Final = N_("Score: {score}")
PICKED_UP: Final = N_("Picked up:")
HAND_SHOWN: Final = N_("Hand: {total}")
STOCK: Final = N_("Stock")
STOCK_COUNT: Final = NP_("Stock: {count} card", "Stock: {count} cards")
PILE_LABELS: Final[Mapping[str, str]] = {"pile": N_("Pile"), "offer": N_("On offer"), "discard": N_("Discard pile")}
LAST_THROW: Final = N_("{label}: the last throw")
PENDING: Final = N_("Your throw, which lands when you take a card:")
PENDING_BOT: Final = N_("Just thrown by {name}:")
EMPTY: Final = N_("empty")
TAKE_STOCK: Final = N_("Take from the stock")
TAKE_STOCK_COUNT: Final = NP_("Take from the stock, {count} card left", "Take from the stock, {count} cards left")
TAKE_PILE: Final = N_("Take {card} from the pile")
PICK_CARD: Final = N_("Take {card}")
MAY_TAKE: Final = N_("{card}, may be taken")
NOT_TAKABLE: Final = N_("{card}, may not be taken")
# What a seat just did, shown on its place at the table (short: the log has the sentence).
MOVE_STOCK: Final = N_("took from the stock")
MOVE_TOOK: Final = N_("took {card}")
MOVE_THREW: Final = N_("threw {cards}")
MOVE_CALL: Final = N_("calls on {total}")


def _count(n: int, t: Translator) -> str:
    return t.plural(CARD_COUNT[0], CARD_COUNT[1], n)


def score_text(model: TableModel, match_seat: int) -> str:
    """A seat's match score as the scores panel gives it: money where the profile pays money."""
    assert model.scoreboard is not None
    score = model.scoreboard.scores[match_seat]
    if model.profile.settlement == "cumulative":
        return number(score, model.lang)
    if model.profile.settlement == "pay-caller":
        return signed_money(score, model.profile, model.lang)
    return signed(score, model.lang)


def seat_badges(model: TableModel, deal: Deal, s: int, t: Translator) -> str:
    """The dealer's button (a disc with a letter, named "dealer") and "to play"."""
    out = ""
    if s == deal.dealer:
        out += (f'<span class="dht-dealer" title="{esc(t(DEALER))}"><span aria-hidden="true">{esc(t(DEALER_MARK))}</span>'
                f'<span class="dh-visually-hidden">{esc(t(DEALER))}</span></span>')
    if not deal.is_over and s == deal.turn:
        out += f'<span class="dht-badge dht-badge--turn">{esc(t(TO_PLAY))}</span>'
    return out


def render_felt(model: TableModel, *, move: tuple[int, Sequence[Message]] | None = None) -> str:
    """The table's middle: the other seats (from the reader's left), the stock and the last throw.

    ``move`` is a seat's last move (its deal seat and the engine's events),
    shown on that seat; the table script swaps this part alone while it
    plays the bots' moves back one at a time.
    """
    deal = model.deal
    assert deal is not None and model.scoreboard is not None
    t = translator(model.lang)
    me = model.my_seat()
    n = deal.players
    start = 0 if me is None else (me + 1) % n
    others = [(start + i) % n for i in range(n) if (start + i) % n != me]
    names = model.deal_names()
    items = []
    for pos, s in enumerate(others):
        m = model.scoreboard.seating[s]
        cls = "dht-seat"
        if not deal.is_over and s == deal.turn:
            cls += " dht-seat--turn"
        if move is not None and move[0] == s:
            cls += " dht-seat--moved"
        count = len(deal.hands[s])
        last = model.match_over and not model.practice  # (the deal that ended the match: its winner is not the match's)
        if deal.is_over and deal.outcome is not None and deal.outcome.winner == s and not last:
            cls += " dht-seat--winner"
        # (the score on the name's line: a seat stays short enough for two rows of them on a phone)
        body = (f'<p class="dht-seat__plate"><span class="dht-seat__name">{esc(names[s])}</span>{seat_badges(model, deal, s, t)}'
                f'<span class="dht-seat__score" data-score="{model.scoreboard.scores[m]}">{esc(t(SCORE, score=score_text(model, m)))}</span></p>')
        if deal.is_over:
            body += (f'<span class="dht-seat__hand" data-total="{deal.total(s)}">'
                     f'<span class="dht-seat__faces">{cards_spans(ordered(deal.hands[s], True, deal.profile), model.lang)}</span>'
                     f'<span class="dht-seat__total">{esc(t(HAND_SHOWN, total=deal.total(s)))}</span></span>')
            badges = outcome_badges(deal.outcome, s, t, last=last)
            if badges:
                body += f'<span class="dht-seat__outcome">{badges}</span>'
        else:
            body += (f'<span class="dht-seat__cards">{cardface.backs(count, size="sm", label=_count(count, t), extra_classes=("dht-seat__backs",))}'
                     f'<span class="dht-seat__count" aria-hidden="true">{esc(number(count, model.lang))}</span></span>')
            known = deal.known[s] if s < len(deal.known) else []
            if known:
                body += (f'<span class="dht-seat__known"><span class="dht-seat__known-label">{esc(t(PICKED_UP))}</span> '
                         f'{"".join(cardface.face(c, model.lang, size="inline") for c in known)}</span>')
        moved = ""
        if move is not None and move[0] == s:
            bubble = _move_text(move[1], model.lang)
            if bubble:
                body += f'<p class="dht-bubble">{bubble}</p>'
            moved = _move_data(move[1])
        items.append(f'<li class="{cls}" data-seat="{s}" data-match-seat="{m}" data-count="{count}" '
                     f'data-pos="{pos}"{moved}>{body}</li>')
    seats = f'<ul class="dht-seats" aria-label="{esc(t(PLAYERS_LABEL))}">{"".join(items)}</ul>' if items else ""
    return (f'<div class="dht-felt" data-opponents="{len(others)}">{seats}'
            f'{_center(model, deal, t)}</div>')


def _move_text(events: Sequence[Message], lang: str) -> str:
    """A seat's move in a few words, with its cards drawn ("threw 8♠ 8♦"), from the engine's events."""
    t = translator(lang)
    for m in events:
        p = m.params
        if m.code == "took-stock":
            return esc(t(MOVE_STOCK))
        if m.code in ("took-pile", "picked-offer"):
            return with_cards(t, MOVE_TOOK, "card", [C.parse_card(str(p["card"]))], lang)
        if m.code == "threw":
            return with_cards(t, MOVE_THREW, "cards", C.parse_cards(str(p["cards"])), lang)
        if m.code == "call":
            return esc(t(MOVE_CALL, total=p["total"]))
    return ""


def _move_data(events: Sequence[Message]) -> str:
    """What a seat's move did to the cards, for the table script to move them: ``data-move``
    ``stock``, ``pile`` (with ``data-took``, the card), ``threw`` or ``call``."""
    for m in events:
        if m.code in ("took-stock", "took-stock-seen"):
            return ' data-move="stock"'
        if m.code in ("took-pile", "picked-offer"):
            return f' data-move="pile" data-took="{esc(C.card_text(C.parse_card(str(m.params["card"])), ascii=True))}"'
        if m.code == "threw":
            return ' data-move="threw"'
        if m.code == "call":
            return ' data-move="call"'
    return ""


def _legal(deal: Deal, action: Action, my_turn: bool) -> bool:
    return my_turn and deal.is_legal(action)


def _center(model: TableModel, deal: Deal, t: Translator) -> str:
    p = deal.profile
    tid = model.table_id
    me = model.my_seat()
    my_turn = me is not None and not deal.is_over and deal.turn == me and not model.face_down
    wants_take = my_turn and (deal.phase == "start" if p.draw_first else deal.phase == "take")
    # the stock: a face-down stack with its count; a button when the reader may take from it now
    n_stock = len(deal.stock)
    stack = (cardface.backs(min(3, n_stock), size="md", extra_classes=("dht-stack__backs",))
             + f'<span class="dht-stack__count" aria-hidden="true">{esc(number(n_stock, model.lang))}</span>')
    hint = model.hint_action if my_turn and model.hint_action is not None and model.hint_action.kind == "take" else None
    if wants_take:
        take = Action.take_stock()
        ok = _legal(deal, take, my_turn)
        name = t.plural(TAKE_STOCK_COUNT[0], TAKE_STOCK_COUNT[1], n_stock)
        stock = button(name, action="take stock",
                        cls="dht-stack" + (" dht-stack--take" if ok else "")
                        + (" dht-hinted" if hint is not None and hint.source == "stock" else ""),
                        enabled=ok, live=model.live,
                        extra={"data-key": "take-stock", "data-count": str(n_stock)},
                        inner=f'<span class="dh-visually-hidden">{esc(name)}</span>{stack}')
    else:
        stock = (f'<span class="dht-stack" role="img" data-count="{n_stock}" '
                 f'aria-label="{esc(t.plural(STOCK_COUNT[0], STOCK_COUNT[1], n_stock))}">{stack}</span>')
    stock_html = f'<div class="dht-stock"><span class="dht-label" aria-hidden="true">{esc(t(STOCK))}</span>{stock}</div>'

    label = t(PILE_LABELS[p.after_deal])
    if model.face_down:
        throw_html = f'<span class="dht-slot"><span>{esc(t(EMPTY))}</span></span>'
    else:
        throw_html = _last_throw(model, deal, t, my_turn and wants_take,
                                 hint if hint is not None and hint.source == "pile" else None)
    pile_html = (f'<div class="dht-pile"><span class="dht-label" id="{esc(tid)}-pile-label">{esc(label)}</span>'
                 f'<div class="dht-lastthrow" role="group" aria-label="{esc(t(LAST_THROW, label=label))}">{throw_html}</div></div>')
    pending = ""
    if deal.pending and not deal.is_over:
        names = model.deal_names()
        head = t(PENDING) if deal.turn == me else t(PENDING_BOT, name=names[deal.turn])
        pending = (f'<div class="dht-pending"><span class="dht-label">{esc(head)}</span>'
                   f'<div class="dht-lastthrow">{"".join(cardface.face(c, model.lang, size="md") for c in deal.pending)}</div></div>')
    return f'<div class="dht-center">{stock_html}{pile_html}{pending}</div>'


def _last_throw(model: TableModel, deal: Deal, t: Translator, reader_takes: bool, hint: Action | None = None) -> str:
    """The whole last throw: the cards that may be taken marked (buttons when the reader may take
    them now), the others dimmed."""
    p = deal.profile
    offer = deal.offer_cards
    if not offer:
        return f'<span class="dht-slot"><span>{esc(t(EMPTY))}</span></span>'
    takable = set(deal.takable_cards())
    lang = model.lang
    out = []
    for c in offer:
        code = C.card_text(c, ascii=True)
        if c in takable and reader_takes:
            if p.take_rule == "pile-top":
                action, key, name = "take pile", "take-pile", t(TAKE_PILE, card=card_name(c, lang))
            else:
                action, key, name = f"take pile {code}", f"pick-{code}", t(PICK_CARD, card=card_name(c, lang))
            ok = deal.is_legal(Action.take_pile(None if p.take_rule == "pile-top" else c))
            # (the Hint's take: its card, or the pile's top where only the top may be taken)
            hinted = hint is not None and (hint.cards == (c,) if hint.cards else p.take_rule == "pile-top")
            a: dict[str, str | None] = {
                "type": "button",
                "class": cardface.face_classes(c, "md", marks=("takable",) if ok else ("dim",),
                                               extra=("dht-pick", "dht-hinted" if hinted else "")),
                "data-action": action, "data-card": code, "data-key": key,
            }
            if not ok:
                a["aria-disabled"] = "true"
            if not model.live:
                a["disabled"] = ""
            # The name is the spoken text ("Take the king of spades"); the face is its picture.
            out.append(f'<button{attributes(a)}><span class="dh-visually-hidden">{esc(name)}</span>{cardface.face_inner(c, "md")}</button>')
        elif c in takable:
            out.append(cardface.face(c, lang, size="md", marks=("takable",), label=t(MAY_TAKE, card=card_name(c, lang))))
        else:
            out.append(cardface.face(c, lang, size="md", marks=("dim",), label=t(NOT_TAKABLE, card=card_name(c, lang))))
    return "".join(out)
