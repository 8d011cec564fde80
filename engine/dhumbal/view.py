"""The mini table drawn as HTML: one renderer for the build and the browser.

At build time the site pre-renders each page's table with
:func:`render_table`; in the browser the worker sends :func:`render_board`
(and :func:`render_settings`) after every request. The same functions draw
both, so the page's first paint is exactly the table the engine then takes
over. Pure standard library; every text is escaped here, and every string a
reader sees is a catalog msgid translated into the page's language (numbers
in its digits).

The markup carries what the table script needs and nothing it must decide:
``data-action`` holds the engine's own action text, ``data-op`` a session
operation, each card button its code (``data-card``) and point value
(``data-value``, so the throw button can show the marked total), and the
root the page language's digits (``data-digits``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import escape
from typing import Final, Iterable, Mapping, Sequence

from . import cardface
from . import cards as C
from .compare import option_value_text
from .deal import Action, Deal, Outcome
from .i18n import (
    CARD_NAME, JOKER_NAME, N_, NP_, RANK_NAMES, SUIT_NAMES, Translator, card_name, digits, number, translator, count_text,
)
from .match import Match, money_text
from .odds import CallOdds
from .profiles import PROFILE_KEYS, OptionSpec, Profile, find_profile
from .share import HASH_PREFIX, MAX_HASH

# -- strings ------------------------------------------------------------------------

TITLE: Final = N_("Play against the bots")
PLAY: Final = N_("Play")
RETRY: Final = N_("Retry")
STATIC_NOTE: Final = N_("This table is a preview. Press Play to load the game engine into your browser, then play a deal against the bots. Nothing is sent anywhere.")
LOADING_NOTE: Final = N_("Loading the game engine… This takes a moment the first time.")
NOSCRIPT_NOTE: Final = N_("Playing at this table needs JavaScript. Everything else on this page reads fine without it.")
ERROR_TITLE: Final = N_("The game engine could not be started.")
# The same state once a game was on the table (the engine stopped or stopped answering).
ERROR_TITLE_LIVE: Final = N_("The game engine stopped during the game.")
# By the runtime's error codes (dhumbal-runtime.js / dhumbal-worker.mjs), plus the
# table's own: "missing" (no runtime on the page), "engine" (the engine refused to
# set up the table), "generic" (any other code).
ERRORS: Final[Mapping[str, str]] = {
    "blocked": N_("A file of the game engine could not be downloaded. Check the connection and try again."),
    "unsupported": N_("This browser cannot run the game engine (it needs WebAssembly and module workers). Try a current browser."),
    "failed": N_("The game engine stopped unexpectedly. Try again."),
    "timeout": N_("The game engine took too long to answer. Try again."),
    "not-ready": N_("The game engine was not ready yet. Try again."),
    "bad-message": N_("The game engine could not read a request from this page. Reload the page."),
    "missing": N_("The game engine's loader is missing from this page. Reload the page."),
    "engine": N_("The game engine could not set up this table. Try again, or start a new match."),
    "generic": N_("Something went wrong while starting the game engine. Try again."),
}

META_DEAL_OF: Final = N_("Deal {number} of {count}")
META_DEAL: Final = N_("Deal {number}")
META_BOTS: Final = N_("Bots: {level}")
LEVELS: Final[Mapping[str, str]] = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard"), "expert": N_("Expert")}
PLAYERS_LABEL: Final = N_("Players")
DEALER: Final = N_("dealer")
TO_PLAY: Final = N_("to play")
CARD_COUNT: Final = NP_("{count} card", "{count} cards")
CARD_POINTS: Final = NP_("{card}, {count} point", "{card}, {count} points")
SCORE: Final = N_("Score: {score}")
OUT: Final = N_("out")
PICKED_UP: Final = N_("Picked up:")
HAND_SHOWN: Final = N_("Hand: {total}")
STOCK: Final = N_("Stock")
PILE_LABELS: Final[Mapping[str, str]] = {"pile": N_("Pile"), "offer": N_("On offer"), "discard": N_("Discard pile")}
PENDING: Final = N_("Your throw, which lands when you take a card:")
EMPTY: Final = N_("empty")
TAKE_STOCK: Final = N_("Take from the stock")
TAKE_PILE: Final = N_("Take {card} from the pile")
PICK_CARD: Final = N_("Take {card}")
YOUR_HAND: Final = N_("Your hand")
YOUR_TOTAL: Final = N_("Your total: {total}")
CALL_LIMIT: Final = N_("Call at {limit} or less")
NO_LIMIT: Final = N_("No call limit")
CALL_ON: Final = N_("Call on {total}")
THROW_NONE: Final = N_("Throw: mark cards first")
THROW_VALUE: Final = N_("Throw marked cards, worth {value}")
LAST_ON_TOP: Final = N_("The last card you mark goes on top of the pile.")
SORT: Final = N_("Sort hand")
HINT: Final = N_("Hint")
HINT_CAUGHT: Final = N_("A call now on {total} would be caught in {caught} of {samples} deals that fit what you have seen.")
HINT_VALUE_PAID: Final = N_("Calling is worth {call} points to you on average; playing on, {play_on} ({playouts} of those deals played out to the end).")
HINT_VALUE_POINTS: Final = N_("Calling scores you {call} points on average; playing on, {play_on} ({playouts} of those deals played out to the end).")
NEXT_DEAL: Final = N_("Next deal")
NEW_MATCH: Final = N_("New match")
LOG: Final = N_("What happened")
RESULT: Final = N_("Deal {number}: the scores")
ROW_HAND: Final = N_("Hand")
ROW_TOOK: Final = N_("Took")
ROW_PAID: Final = N_("Paid")
ROW_TOTAL: Final = N_("Total")
ROW_MONEY: Final = N_("Money")
ROW_MONEY_TOTAL: Final = N_("Total money")
ROW_POINTS: Final = N_("Points")
ROW_STATUS: Final = N_("Eliminated")
ROW_CORNER: Final = N_("Row")
CALLED: Final = N_("called")
STANDINGS: Final = N_("Final standings")
PLACE: Final = N_("Place")
PLAYER: Final = N_("Player")
SETTINGS: Final = N_("Table settings")
RULES: Final = N_("Rules")
BOTS: Final = N_("Bots")
START_NEW: Final = N_("Start a new match")

ACTION_ORDER: Final = ("call", "take stock", "take pile", "throw")

#: Msgids this renderer places inside attribute values (``aria-label`` of a
#: card, of the players list and of the score table; the throw button's
#: ``data-label-*``). They are escaped like every text, and the catalog check
#: (sitegen/dhumbal_site/catalogs.py) refuses quotes and angle brackets in
#: their translations; tests/table checks that this list is complete.
ATTRIBUTE_MSGIDS: Final = frozenset({
    PLAYERS_LABEL, RESULT, THROW_NONE, THROW_VALUE,
    CARD_NAME, JOKER_NAME, *RANK_NAMES[1:], *SUIT_NAMES,
})


@dataclass
class TableModel:
    """Everything the renderer draws; made by :class:`dhumbal.web.Session`."""

    lang: str
    table_id: str
    profile: Profile
    difficulty: str
    names: list[str]  # by match seat
    me: int  # the reader's match seat
    match: Match | None
    log: list[str] = field(default_factory=list)
    sort: bool = False
    live: bool = False
    deal_number: int = 0
    match_over: bool = False
    position: bool = False
    hint_html: str = ""  # the reader's call odds, when asked for (see render_hint)

    @classmethod
    def for_settings(cls, lang: str, table_id: str, profile: Profile, difficulty: str) -> "TableModel":
        return cls(lang=lang, table_id=table_id, profile=profile, difficulty=difficulty,
                   names=[], me=0, match=None, live=True)

    @property
    def deal(self) -> Deal | None:
        return None if self.match is None else self.match.deal

    def deal_names(self) -> list[str]:
        assert self.match is not None
        return [self.names[m] for m in self.match.seating]

    def my_seat(self) -> int | None:
        if self.match is None or self.me not in self.match.seating:
            return None
        return self.match.seating.index(self.me)


# -- helpers ------------------------------------------------------------------------------


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _attrs(values: Mapping[str, str | None]) -> str:
    return "".join(f' {k}="{_e(v)}"' if v != "" else f" {k}" for k, v in values.items() if v is not None)


def _suit(card: C.Card) -> str:
    return cardface.suit_class(card)


def card_span(card: C.Card, lang: str) -> str:
    """A card shown (not played): the shared card face, named in ``lang``."""
    return cardface.face(card, lang, size="sm")


def cards_spans(cards: Iterable[C.Card], lang: str) -> str:
    return " ".join(card_span(c, lang) for c in cards)


def _points(profile: Profile, card: C.Card, t: Translator) -> str:
    v = profile.value(card)
    return t.plural(CARD_POINTS[0], CARD_POINTS[1], v, card=card_name(card, t.lang))


def _signed(n: int, lang: str) -> str:
    return number(n, lang, signed=True) if n else number(0, lang)


def _money(points: int, rate: str, lang: str) -> str:
    """An amount in the reader's format: ``2,20`` in French and Dutch, ``−०.७०`` in Nepali."""
    return number(money_text(points, rate), lang)


def _count(n: int, t: Translator) -> str:
    return t.plural(CARD_COUNT[0], CARD_COUNT[1], n)


# -- the whole table (build time) ------------------------------------------------------------


def render_table(model: TableModel, *, status: str = "", attrs: Mapping[str, str] | None = None) -> str:
    """The table element with its loader, live region, board and settings, as pre-rendered into a page."""
    t = translator(model.lang)
    tid = model.table_id
    root: dict[str, str | None] = {
        "class": "dh-table",
        "id": tid,
        "data-dhumbal-table": "",
        "data-state": "static",
        "data-lang": model.lang,
        "lang": model.lang,
        "data-profile": model.profile.canonical(),
        "data-difficulty": model.difficulty,
        "data-digits": digits("0123456789", model.lang),
        # The longest link the engine reads: the script sends no more of a
        # longer one (it is refused all the same, with a fresh deal).
        "data-max-hash": str(len(HASH_PREFIX) + MAX_HASH),
        "aria-labelledby": f"{tid}-title",
    }
    root.update(attrs or {})
    errors = "".join(
        f'<p class="dht-error" data-error-code="{_e(code)}" hidden>{_e(t(msgid))}</p>'
        for code, msgid in ERRORS.items()
    )
    return (
        f"<section{_attrs(root)}>"
        f'<h2 class="dht-title" id="{_e(tid)}-title">{_e(t(TITLE))}</h2>'
        f'<div class="dht-loader">'
        f'<p class="dht-when dht-when--static">{_e(t(STATIC_NOTE))}</p>'
        f'<p class="dht-when dht-when--loading">{_e(t(LOADING_NOTE))}</p>'
        f'<div class="dht-when dht-when--error"><p class="dht-error-title" data-error-title="start">{_e(t(ERROR_TITLE))}</p>'
        f'<p class="dht-error-title" data-error-title="live" hidden>{_e(t(ERROR_TITLE_LIVE))}</p>{errors}</div>'
        f'<noscript><p class="dht-noscript">{_e(t(NOSCRIPT_NOTE))}</p></noscript>'
        f'<p class="dht-loader__buttons">'
        f'<button type="button" class="dht-btn dht-btn--primary dht-play" data-dht-play>{_e(t(PLAY))}</button>'
        f'<button type="button" class="dht-btn dht-retry" data-dht-retry>{_e(t(RETRY))}</button>'
        f"</p></div>"
        f'<p class="dht-status" id="{_e(tid)}-status" role="status" aria-live="polite" aria-atomic="true">{_e(status if model.live else "")}</p>'
        f'<div class="dht-board" id="{_e(tid)}-board">{render_board(model)}</div>'
        f'<details class="dht-settings"><summary>{_e(t(SETTINGS))}</summary>'
        f'<div class="dht-settings__body" id="{_e(tid)}-settings">{render_settings(model)}</div></details>'
        f"</section>"
    )


# -- the board ----------------------------------------------------------------------------------


def render_board(model: TableModel) -> str:
    """The play area: seats, stock and pile, the reader's hand and controls, results, log."""
    deal = model.deal
    if deal is None or model.match is None:
        return ""
    t = translator(model.lang)
    me = model.my_seat()
    my_turn = me is not None and not deal.is_over and deal.turn == me
    board_attrs = {
        "class": "dht-play-area",
        "data-phase": deal.phase,
        "data-your-turn": "true" if my_turn else "false",
        "data-over": "true" if deal.is_over else "false",
        "data-match-over": "true" if model.match_over else "false",
        "data-profile-key": deal.profile.key,
    }
    parts = [f"<div{_attrs(board_attrs)}>", _meta(model, t), _seats(model, deal, t), _center(model, deal, t, my_turn)]
    if me is not None:
        parts.append(_hand(model, deal, me, t, my_turn))
    parts.append(_actions(model, deal, t, my_turn))
    if deal.is_over:
        parts.append(_result(model, deal, t))
        if model.match_over:
            parts.append(_standings(model, t))
    parts.append(_log(model, t))
    parts.append("</div>")
    return "".join(parts)


def _meta(model: TableModel, t: Translator) -> str:
    rounds = model.profile.rounds
    deal_text = (t(META_DEAL_OF, number=model.deal_number, count=rounds)
                 if rounds is not None and not model.position else t(META_DEAL, number=model.deal_number))
    level = t(LEVELS.get(model.difficulty, LEVELS["medium"]))
    return (f'<p class="dht-meta"><span class="dht-meta__profile">{_e(t(model.profile.name))}</span>'
            f' · <span class="dht-meta__deal">{_e(deal_text)}</span>'
            f' · <span class="dht-meta__bots">{_e(t(META_BOTS, level=level))}</span></p>')


def _score_text(model: TableModel, match_seat: int) -> str:
    assert model.match is not None
    score = model.match.scores[match_seat]
    if model.profile.settlement == "cumulative":
        return number(score, model.lang)
    return _signed(score, model.lang)


def _seats(model: TableModel, deal: Deal, t: Translator) -> str:
    assert model.match is not None
    me = model.my_seat()
    n = deal.players
    start = 0 if me is None else (me + 1) % n
    order = [(start + i) % n for i in range(n)]
    names = model.deal_names()
    items = []
    for s in order:
        m = model.match.seating[s]
        cls = "dht-seat"
        if s == me:
            cls += " dht-seat--me"
        if not deal.is_over and s == deal.turn:
            cls += " dht-seat--turn"
        badges = ""
        if s == deal.dealer:
            badges += f'<span class="dht-badge">{_e(t(DEALER))}</span>'
        if not deal.is_over and s == deal.turn:
            badges += f'<span class="dht-badge dht-badge--turn">{_e(t(TO_PLAY))}</span>'
        body = (f'<span class="dht-seat__name">{_e(names[s])}</span>{badges}'
                f'<span class="dht-seat__count" data-count="{len(deal.hands[s])}">{_e(_count(len(deal.hands[s]), t))}</span>'
                f'<span class="dht-seat__score" data-score="{model.match.scores[m]}">{_e(t(SCORE, score=_score_text(model, m)))}</span>')
        known = deal.known[s] if s < len(deal.known) else []
        if known and not deal.is_over and s != me:
            body += (f'<span class="dht-seat__known">{_e(t(PICKED_UP))} {cards_spans(known, model.lang)}</span>')
        if deal.is_over:
            body += (f'<span class="dht-seat__hand" data-total="{deal.total(s)}">'
                     f'{cards_spans(_ordered(deal.hands[s], True), model.lang)} '
                     f'<span class="dht-seat__total">{_e(t(HAND_SHOWN, total=deal.total(s)))}</span></span>')
        items.append(f'<li class="{cls}" data-seat="{s}" data-match-seat="{m}">{body}</li>')
    return f'<ul class="dht-seats" aria-label="{_e(t(PLAYERS_LABEL))}">{"".join(items)}</ul>'


def _button(label: str, *, action: str | None = None, op: str | None = None, cls: str = "",
            enabled: bool = True, live: bool = True, extra: Mapping[str, str] | None = None) -> str:
    a: dict[str, str | None] = {"type": "button", "class": ("dht-btn " + cls).strip()}
    if action is not None:
        a["data-action"] = action
    if op is not None:
        a["data-op"] = op
    if not enabled:
        a["aria-disabled"] = "true"
    if not live:
        a["disabled"] = ""
    a.update(extra or {})
    return f"<button{_attrs(a)}>{_e(label)}</button>"


def _legal(deal: Deal, action: Action, my_turn: bool) -> bool:
    return my_turn and deal.is_legal(action)


def _center(model: TableModel, deal: Deal, t: Translator, my_turn: bool) -> str:
    p = deal.profile
    show_controls = my_turn
    stock = (f'<div class="dht-stock"><span class="dht-label">{_e(t(STOCK))}</span> '
             f'<span class="dht-stock__count" data-count="{len(deal.stock)}">{_e(_count(len(deal.stock), t))}</span>')
    if show_controls:
        stock += " " + _button(t(TAKE_STOCK), action="take stock", enabled=_legal(deal, Action.take_stock(), my_turn),
                               live=model.live, extra={"data-key": "take-stock"})
    stock += "</div>"
    label = t(PILE_LABELS[p.after_deal])
    offer = deal.offer_cards
    if p.take_rule == "pile-top":
        top = deal.pile_top
        shown = card_span(top, model.lang) if top is not None else _e(t(EMPTY))
        pile = f'<div class="dht-pile"><span class="dht-label">{_e(label)}</span> <span class="dht-pile__cards">{shown}</span>'
        if show_controls and top is not None:
            pile += " " + _button(t(TAKE_PILE, card=card_name(top, model.lang)), action="take pile",
                                  enabled=_legal(deal, Action.take_pile(), my_turn), live=model.live,
                                  extra={"data-key": "take-pile"})
        pile += "</div>"
    else:
        if show_controls and offer:
            picks = " ".join(
                _button(t(PICK_CARD, card=card_name(c, model.lang)), action=f"take pile {C.card_text(c, ascii=True)}",
                        cls=f"dht-pick dht-suit-{_suit(c)}", enabled=_legal(deal, Action.take_pile(c), my_turn),
                        live=model.live, extra={"data-key": f"pick-{C.card_text(c, ascii=True)}"})
                for c in offer
            )
            shown = f'<span class="dht-pile__cards">{cards_spans(offer, model.lang)}</span> <span class="dht-picks">{picks}</span>'
        else:
            shown = f'<span class="dht-pile__cards">{cards_spans(offer, model.lang) if offer else _e(t(EMPTY))}</span>'
        pile = f'<div class="dht-pile"><span class="dht-label">{_e(label)}</span> {shown}</div>'
    pending = ""
    if deal.pending and my_turn:
        pending = f'<p class="dht-pending">{_e(t(PENDING))} {cards_spans(deal.pending, model.lang)}</p>'
    return f'<div class="dht-center">{stock}{pile}{pending}</div>'


def _ordered(hand: Sequence[C.Card], sort: bool) -> list[C.Card]:
    return sorted(hand, key=C.sort_key) if sort else list(hand)


def _hand(model: TableModel, deal: Deal, me: int, t: Translator, my_turn: bool) -> str:
    p = deal.profile
    tid = model.table_id
    total = deal.total(me)
    limit = t(CALL_LIMIT, limit=p.call_limit) if p.call_limit is not None else t(NO_LIMIT)
    label = (f'<p class="dht-hand__label" id="{_e(tid)}-hand-label"><span class="dht-hand__title">{_e(t(YOUR_HAND))}</span> · '
             f'<span class="dht-hand__total" data-total="{total}">{_e(t(YOUR_TOTAL, total=total))}</span> · '
             f'<span class="dht-hand__limit">{_e(limit)}</span></p>')
    cards = []
    playable = my_turn and not deal.is_over
    for c in _ordered(deal.hands[me], model.sort):
        code = C.card_text(c, ascii=True)
        if playable:
            a: dict[str, str | None] = {
                "type": "button", "class": cardface.face_classes(c, "md", extra=("dht-card",)), "data-card": code,
                "data-value": str(p.value(c)), "aria-pressed": "false", "data-key": f"card-{code}",
            }
            if not model.live:
                a["disabled"] = ""
            # The name is the spoken text ("King of spades, 10 points"); the face is its picture.
            cards.append(f'<button{_attrs(a)}><span class="dht-sr">{_e(_points(p, c, t))}</span>'
                         f'{cardface.face_inner(c, "md")}'
                         f'<span class="dht-pts" aria-hidden="true">{_e(number(p.value(c), model.lang))}</span></button>')
        else:
            cards.append(cardface.face(c, model.lang, size="md"))
    return (f'<div class="dht-hand" role="group" aria-labelledby="{_e(tid)}-hand-label">{label}'
            f'<div class="dht-cards">{"".join(cards)}</div></div>')


def _actions(model: TableModel, deal: Deal, t: Translator, my_turn: bool) -> str:
    p = deal.profile
    buttons = []
    me = model.my_seat()
    if my_turn and me is not None:
        buttons.append(_button(t(CALL_ON, total=deal.total(me)), action="call",
                               enabled=_legal(deal, Action.call(), my_turn), live=model.live,
                               cls="dht-call", extra={"data-key": "call"}))
        throw_phase = deal.phase == ("throw" if p.draw_first else "start")
        buttons.append(_button(t(THROW_NONE), action="throw", enabled=throw_phase, live=model.live,
                               cls="dht-throw dht-btn--primary",
                               extra={"data-key": "throw", "data-label-none": t(THROW_NONE),
                                      "data-label-value": t.raw(THROW_VALUE)}))
        buttons.append(_button(t(SORT), op="sort", live=model.live, cls="dht-sort",
                               extra={"aria-pressed": "true" if model.sort else "false", "data-key": "sort"}))
        if deal.phase == "start":  # the call odds, on demand (off until pressed)
            buttons.append(_button(t(HINT), op="hint", live=model.live, cls="dht-hint-btn",
                                   extra={"aria-pressed": "true" if model.hint_html else "false", "data-key": "hint"}))
    if deal.is_over:
        if model.match_over:
            buttons.append(_button(t(NEW_MATCH), op="new-match", live=model.live, cls="dht-btn--primary",
                                   extra={"data-key": "new-match"}))
        else:
            buttons.append(_button(t(NEXT_DEAL), op="next-deal", live=model.live, cls="dht-btn--primary",
                                   extra={"data-key": "next-deal"}))
    hint = ""
    if my_turn and p.draw_first:
        hint = f'<p class="dht-hint">{_e(t(LAST_ON_TOP))}</p>'
    if my_turn and model.hint_html:
        hint += model.hint_html
    if not buttons:
        return hint
    return f'<div class="dht-actions">{"".join(buttons)}</div>{hint}'


def hint_text(odds: CallOdds, lang: str, refusal: str | None = None) -> str:
    """The reader's call odds in words (``refusal``: why a call is not allowed now)."""
    from .levels import percent

    t = translator(lang)
    caught = t(HINT_CAUGHT, total=odds.total, caught=percent(odds.caught, lang), samples=count_text(odds.samples, lang))
    if refusal is not None:  # the engine's own reason ("You cannot call on 24: …"), then the chance anyway
        return refusal + " " + caught
    if odds.play_on_value is None:
        return caught
    signed = odds.measure == "paid"
    value = t(HINT_VALUE_PAID if signed else HINT_VALUE_POINTS,
              call=_decimal(odds.call_value, lang, signed), play_on=_decimal(odds.play_on_value, lang, signed),
              playouts=count_text(odds.playouts, lang))
    return caught + " " + value


def _decimal(x: float, lang: str, signed: bool) -> str:
    text = f"{x:+.1f}" if signed else f"{x:.1f}"
    return number("0.0" if text in ("+0.0", "-0.0") else text, lang)


def render_hint(odds: CallOdds, lang: str, refusal: str | None = None) -> str:
    """The hint panel under the reader's buttons."""
    return f'<p class="dht-odds" data-caught="{odds.caught:.4f}" data-samples="{odds.samples}">{_e(hint_text(odds, lang, refusal))}</p>'


ScoreRow = tuple[str, str, list[tuple[int | str, str]]]


def score_rows(
    outcome: Outcome,
    profile: Profile,
    lang: str,
    *,
    totals: Sequence[int] | None = None,
    eliminated: Sequence[bool] | None = None,
) -> list[ScoreRow]:
    """The score rows of a finished deal, as (key, label, [(value, shown)…]).

    One definition for the table and the worked examples: Hand / Took / Paid
    (and the running Total) for the ledger profile, payments and money for
    dashain, points (and the cumulative total, eliminations) for
    cardrulesplus. ``totals`` are the running match scores after the deal.
    """
    t = translator(lang)
    o = outcome
    rows: list[ScoreRow] = [("hand", t(ROW_HAND), [(v, number(v, lang)) for v in o.hands])]
    if profile.settlement == "collect":
        rows.append(("took", t(ROW_TOOK), [(v, number(v, lang)) for v in o.took]))
        rows.append(("paid", t(ROW_PAID), [(v, _signed(v, lang)) for v in o.paid]))
        if totals is not None:
            rows.append(("total", t(ROW_TOTAL), [(v, _signed(v, lang)) for v in totals]))
    elif profile.settlement == "pay-caller":
        rate = profile.money_per_point or "0"
        rows.append(("paid", t(ROW_PAID), [(v, _signed(v, lang)) for v in o.paid]))
        rows.append(("money", t(ROW_MONEY), [(money_text(v, rate), _money(v, rate, lang)) for v in o.paid]))
        if totals is not None:
            rows.append(("total", t(ROW_TOTAL), [(v, _signed(v, lang)) for v in totals]))
            rows.append(("money-total", t(ROW_MONEY_TOTAL), [(money_text(v, rate), _money(v, rate, lang)) for v in totals]))
    else:
        rows.append(("points", t(ROW_POINTS), [(v, number(v, lang)) for v in o.points]))
        if totals is not None:
            rows.append(("total", t(ROW_TOTAL), [(v, number(v, lang)) for v in totals]))
        if eliminated is not None and any(eliminated):
            rows.append(("eliminated", t(ROW_STATUS), [(1 if out else 0, t(OUT) if out else "") for out in eliminated]))
    return rows


def _result(model: TableModel, deal: Deal, t: Translator) -> str:
    assert model.match is not None and deal.outcome is not None
    o = deal.outcome
    p = deal.profile
    names = model.deal_names()
    seats = list(range(deal.players))
    match_seats = [model.match.seating[s] for s in seats]
    scores = model.match.scores
    rows = score_rows(
        o, p, model.lang,
        totals=[scores[m] for m in match_seats],
        eliminated=[m in model.match.eliminated for m in match_seats] if p.elimination is not None else None,
    )
    head = "".join(
        f'<th scope="col" data-seat="{s}">{_e(names[s])}'
        + (f' <span class="dht-badge">{_e(t(CALLED))}</span>' if o.caller == s else "")
        + "</th>"
        for s in seats
    )
    body = "".join(
        f'<tr data-row="{key}"><th scope="row">{_e(label)}</th>'
        + "".join(f'<td data-value="{_e(v)}">{_e(shown)}</td>' for v, shown in cells)
        + "</tr>"
        for key, label, cells in rows
    )
    caption = t(RESULT, number=model.deal_number)
    return (f'<div class="dht-result"><div class="dht-scroll" tabindex="0" role="region" aria-label="{_e(caption)}">'
            f'<table class="dht-score" data-settlement="{_e(p.settlement)}"><caption>{_e(caption)}</caption>'
            f'<thead><tr><td class="dht-corner"><span class="dht-sr">{_e(t(ROW_CORNER))}</span></td>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div></div>")


def _standings(model: TableModel, t: Translator) -> str:
    assert model.match is not None
    lang = model.lang
    rows = []
    for st in model.match.standings():
        score = number(st.score, lang) if model.profile.settlement == "cumulative" else _signed(st.score, lang)
        out = f' <span class="dht-badge">{_e(t(OUT))}</span>' if st.eliminated else ""
        rows.append(f'<tr data-seat="{st.seat}" data-place="{st.place}" data-score="{st.score}">'
                    f"<td>{_e(number(st.place, lang))}</td><th scope=\"row\">{_e(model.names[st.seat])}{out}</th>"
                    f"<td>{_e(score)}</td></tr>")
    return (f'<div class="dht-standings"><table class="dht-score dht-score--standings"><caption>{_e(t(STANDINGS))}</caption>'
            f'<thead><tr><th scope="col">{_e(t(PLACE))}</th><th scope="col">{_e(t(PLAYER))}</th>'
            f'<th scope="col">{_e(t(SCORE_HEAD))}</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


SCORE_HEAD: Final = N_("Score")


def _log(model: TableModel, t: Translator) -> str:
    if not model.log:
        return ""
    items = "".join(f"<li>{_e(line)}</li>" for line in model.log)
    return (f'<div class="dht-log"><p class="dht-label" id="{_e(model.table_id)}-log-label">{_e(t(LOG))}</p>'
            f'<ol class="dht-log__list" aria-labelledby="{_e(model.table_id)}-log-label">{items}</ol></div>')


# -- settings -----------------------------------------------------------------------------------


def render_settings(model: TableModel) -> str:
    """The settings form, made from the engine's option specs; inert until the engine runs."""
    t = translator(model.lang)
    tid = model.table_id
    profile = model.profile
    fields = []
    options = "".join(
        f'<option value="{_e(k)}"{" selected" if k == profile.key else ""}>{_e(t(find_profile(k).name))}</option>'
        for k in PROFILE_KEYS
    )
    fields.append(_field(f"{tid}-set-profile", t(RULES),
                         f'<select id="{_e(tid)}-set-profile" name="profile" data-dht-profile>{options}</select>'))
    for spec in profile.option_specs:
        fid = f"{tid}-set-{spec.key}"
        fields.append(_field(fid, t(spec.label), _control(fid, spec, profile.option(spec.key), t)))
    levels = "".join(
        f'<option value="{k}"{" selected" if k == model.difficulty else ""}>{_e(t(v))}</option>'
        for k, v in LEVELS.items()
    )
    fields.append(_field(f"{tid}-set-difficulty", t(BOTS),
                         f'<select id="{_e(tid)}-set-difficulty" name="difficulty">{levels}</select>'))
    disabled = "" if model.live else " disabled"
    return (f'<form class="dht-settings__form" data-dht-settings novalidate>'
            f'<fieldset class="dht-settings__fields"{disabled}><legend class="dht-sr">{_e(t(SETTINGS))}</legend>'
            f'{"".join(fields)}'
            f'<p class="dht-settings__submit"><button type="submit" id="{_e(tid)}-set-submit" '
            f'class="dht-btn dht-btn--primary">{_e(t(START_NEW))}</button></p>'
            f"</fieldset></form>")


def _field(fid: str, label: str, control: str) -> str:
    return f'<div class="dht-field"><label for="{_e(fid)}">{_e(label)}</label>{control}</div>'


def _control(fid: str, spec: OptionSpec, value: object, t: Translator) -> str:
    name = f"opt:{spec.key}"
    current = spec.text(value)  # type: ignore[arg-type]
    # Free-form numbers are text fields in the page's digits and decimal separator (the engine
    # reads ०-९ as well as 0-9, and 0,05 as well as 0.05 where the comma is the separator).
    if spec.kind == "money":
        return (f'<input id="{_e(fid)}" name="{_e(name)}" type="text" inputmode="decimal" '
                f'value="{_e(number(current, t.lang))}" autocomplete="off" size="6">')
    choices: list[str]
    if spec.kind == "bool":
        choices = ["on", "off"]
    elif spec.kind == "choice":
        choices = list(spec.choices)
    elif spec.high - spec.low <= 60:
        choices = [str(n) for n in range(spec.low, spec.high + 1)]
        if spec.kind == "int-or-none":
            choices = ["none"] + choices
    else:
        return (f'<input id="{_e(fid)}" name="{_e(name)}" type="text" inputmode="numeric" '
                f'value="{_e(digits(current, t.lang))}" autocomplete="off" size="6">')

    def shown(choice: str) -> str:
        v: object = choice
        if spec.kind == "bool":
            v = choice == "on"
        elif choice == "none":
            v = None
        return digits(option_value_text(spec, v, t), t.lang)

    opts = "".join(
        f'<option value="{_e(c)}"{" selected" if c == current else ""}>{_e(shown(c))}</option>' for c in choices
    )
    return f'<select id="{_e(fid)}" name="{_e(name)}">{opts}</select>'


def position_attrs(state: Mapping[str, object], names: Sequence[str] | None) -> dict[str, str]:
    """Root attributes that let the table start from a position (an example's start)."""
    out = {"data-position-state": json.dumps(state, ensure_ascii=False, separators=(",", ":"))}
    if names is not None:
        out["data-position-names"] = json.dumps(list(names), ensure_ascii=False)
    return out
