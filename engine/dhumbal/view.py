"""The mini table drawn as HTML: one renderer for the build and the browser.

At build time the site pre-renders each page's table with
:func:`render_table`; in the browser the worker sends :func:`render_board`
(and :func:`render_settings`) after every request, and :func:`render_felt`
for each bot move it plays back one at a time. The same functions draw
both, so the page's first paint is the table the engine then takes over.
Pure standard library; every text is escaped here, and every string a
reader sees is a catalog msgid translated into the page's language (numbers
in its digits). Cards are drawn by :mod:`dhumbal.cardface`.

The picture is a card table: the other seats around a felt (in play order
from the reader's left), the stock and the last throw in the middle, the
reader's hand at the bottom, and under it a dock with the status line and
the controls (sticky on a phone, so the status, the hand and the controls
are on screen together).

The markup carries what the table script needs and nothing it must decide:
``data-action`` holds the engine's own action text, ``data-op`` a session
operation, each card button its code (``data-card``) and point value
(``data-value``, so the throw button can show the marked total), the throw
button the engine's verdict on every set of marked cards
(``data-verdicts``/``data-reasons``, see :func:`throw_verdicts`), and the
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
from .deal import Action, Deal, IllegalAction, Outcome
from .i18n import (
    CARD_NAME, JOKER_NAME, N_, NP_, RANK_NAMES, SUIT_NAMES, Translator, card_name, count_text, digits, number, translator,
    typography,
)
from .match import Match, money_text
from .messages import TEMPLATES, Message
from .odds import CallOdds
from .profiles import PROFILE_KEYS, OptionSpec, Profile, find_profile
from .share import HASH_PREFIX, MAX_HASH

# -- strings ------------------------------------------------------------------------

TITLE: Final = N_("Play against the bots")
PLAY: Final = N_("Play")
RETRY: Final = N_("Retry")
STATIC_NOTE: Final = N_("Press Play to deal. The first time, Play downloads the game engine (up to {megabytes} MB) into your browser; after that every table on this site starts at once. Nothing you play is sent anywhere.")
STATIC_NOTE_POSITION: Final = N_("Press Play to play from this position. The first time, Play downloads the game engine (up to {megabytes} MB) into your browser. Nothing you play is sent anywhere.")
FRUGAL_NOTE: Final = N_("Your browser asks to save data, so the game engine loads only when you press Play.")
LOADING_NOTE: Final = N_("Loading the game engine… This takes a moment the first time.")
PROGRESS: Final = N_("{percent}% downloaded")
STARTING: Final = N_("Starting the game engine…")
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
# TRANSLATORS: the letter on the dealer's button at a card table (one letter or syllable).
DEALER_MARK: Final = N_("D")
TO_PLAY: Final = N_("to play")
CARD_COUNT: Final = NP_("{count} card", "{count} cards")
CARD_POINTS: Final = NP_("{card}, {count} point", "{card}, {count} points")
SCORE: Final = N_("Score: {score}")
OUT: Final = N_("out")
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
YOUR_HAND: Final = N_("Your hand")
YOUR_TOTAL: Final = N_("Your total: {total}")
HAND_FACE_DOWN: Final = N_("Your hand, face down until you press Play")
CALL_LIMIT: Final = N_("Call at {limit} or less")
NO_LIMIT: Final = N_("No call limit")
CALL_ON: Final = N_("Call on {total}")
THROW_NONE: Final = N_("Throw")
THROW_VALUE: Final = N_("Throw, worth {value}")
LAST_ON_TOP: Final = N_("The last card you mark goes on top of the pile.")
NEW_CARD: Final = N_("{card}, just taken")
BARRED_CARD: Final = N_("{card}, taken from the pile: it cannot be thrown back this turn")
SORT: Final = N_("Sort hand")
HINT: Final = N_("Hint")
HINT_CAUGHT: Final = N_("A call now on {total} would be caught in {caught} of {samples} deals that fit what you have seen.")
HINT_CAUGHT_IF: Final = N_("If you could call now on {total}, you would be caught in {caught} of {samples} deals that fit what you have seen.")
HINT_VALUE_PAID: Final = N_("Calling is worth {call} points to you on average; playing on, {play_on} ({playouts} of those deals played out to the end).")
HINT_VALUE_POINTS: Final = N_("Calling scores you {call} points on average; playing on, {play_on} (fewer points are better; {playouts} of those deals played out to the end).")
NEXT_DEAL: Final = N_("Next deal")
NEW_MATCH: Final = N_("New match")
SKIP: Final = N_("Show all moves now")
SHARE: Final = N_("Share")
SHARE_TITLE: Final = N_("A game of Dhumbal")
LINK_COPIED: Final = N_("The link to this game is copied: paste it to share the game.")
LINK_SHOWN: Final = N_("Copy this link to share the game:")
CLOSE: Final = N_("Close the table")
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
DISPLAY: Final = N_("Display")
SPEED: Final = N_("Speed of the bots' moves")
SPEEDS: Final[Mapping[str, str]] = {
    "slow": N_("Slow"), "normal": N_("Normal"), "fast": N_("Fast"), "instant": N_("All at once"),
}
FOUR_COLOURS: Final = N_("Four-colour suits (diamonds blue, clubs green)")

# What a seat just did, shown on its place at the table (short: the log has the sentence).
MOVE_STOCK: Final = N_("took from the stock")
MOVE_TOOK: Final = N_("took {card}")
MOVE_THREW: Final = N_("threw {cards}")
MOVE_CALL: Final = N_("calls on {total}")

# What each row of the scores means (shown under the table, in the page's language).
NOTE_HAND: Final = N_("Hand: the points left in each hand when the cards are shown.")
NOTE_TOOK_WON: Final = N_("Took: what each player is charged. {caller}, the caller, had the lowest hand: {zero}. Every other player: their own hand.")
NOTE_TOOK_CAUGHT: Final = N_("Took: what each player is charged. {caller}, the caller, got caught: the penalty of {penalty} instead of the hand. {winner}, the lowest other hand: {zero}. Every other player: their own hand.")
NOTE_TOOK_CAP: Final = N_("Took: what each player is charged. Nobody called within {count} turns: the lowest hand, {winner}, {zero}; every other player, their own hand.")
NOTE_PAID_COLLECT: Final = N_("Paid: the winner of the deal, {winner}, collects every charge (+{sum}); each other player pays their charge (−). The row adds up to {zero}.")
NOTE_TOTAL_COLLECT: Final = N_("Total: the match score after this deal, adding up the Paid rows. The highest total wins the match.")
NOTE_PAID_WON: Final = N_("Paid: {caller}, the caller, had the lowest hand, so every other player pays the caller the points of their own hand (−), {sum} in all (+).")
NOTE_PAID_CAUGHT: Final = N_("Paid: {caller}, the caller, got caught by {winner}, so the caller pays {winner} the sum of every other hand, the caller's own included: {sum}. Nobody else pays.")
NOTE_MONEY: Final = N_("Money: the points paid, at {rate} a point.")
NOTE_TOTAL_PAY: Final = N_("Total: points received (+) and paid (−) since the table opened.")
NOTE_MONEY_TOTAL: Final = N_("Total money: the same total, in money.")
NOTE_POINTS_WON: Final = N_("Points: added to each score. {caller}, the caller, had the lowest hand: {zero}. Every other player: their own hand.")
NOTE_POINTS_CAUGHT: Final = N_("Points: added to each score. {caller}, the caller, got caught: the penalty of {penalty}. Every other player: {zero}.")
NOTE_TOTAL_CUMULATIVE: Final = N_("Total: the points so far. Lower is better: reaching {limit} points puts a player out.")
NOTE_NEAREST: Final = N_("Nearest to {limit}: {name}, {left} points away.")
NOTE_ELIMINATED: Final = N_("Eliminated: out of the match, having reached {limit} points.")
#: The notes that name a seat, told to the reader when that seat is theirs: by the
#: third-person note and the role the reader holds in it (see :func:`score_notes`).
NOTES_TO_READER: Final[Mapping[tuple[str, str], str]] = {
    (NOTE_TOOK_WON, "caller"): N_("Took: what each player is charged. You called with the lowest hand: {zero}. Every other player: their own hand."),
    (NOTE_TOOK_CAUGHT, "caller"): N_("Took: what each player is charged. You called and were caught: the penalty of {penalty} instead of your hand. {winner}, the lowest other hand: {zero}. Every other player: their own hand."),
    (NOTE_TOOK_CAUGHT, "winner"): N_("Took: what each player is charged. {caller}, the caller, got caught: the penalty of {penalty} instead of the hand. You had the lowest other hand: {zero}. Every other player: their own hand."),
    (NOTE_TOOK_CAP, "winner"): N_("Took: what each player is charged. Nobody called within {count} turns: you had the lowest hand, {zero}; every other player, their own hand."),
    (NOTE_PAID_COLLECT, "winner"): N_("Paid: you won the deal and collect every charge (+{sum}); each other player pays their charge (−). The row adds up to {zero}."),
    (NOTE_PAID_WON, "caller"): N_("Paid: you called with the lowest hand, so every other player pays you the points of their own hand (−), {sum} in all (+)."),
    (NOTE_PAID_CAUGHT, "caller"): N_("Paid: you called and were caught by {winner}, so you pay {winner} the sum of every other hand, your own included: {sum}. Nobody else pays."),
    (NOTE_PAID_CAUGHT, "winner"): N_("Paid: {caller}, the caller, got caught by you, so the caller pays you the sum of every other hand, the caller's own included: {sum}. Nobody else pays."),
    (NOTE_POINTS_WON, "caller"): N_("Points: added to each score. You called with the lowest hand: {zero}. Every other player: their own hand."),
    (NOTE_POINTS_CAUGHT, "caller"): N_("Points: added to each score. You called and were caught: the penalty of {penalty}. Every other player: {zero}."),
    (NOTE_NEAREST, "name"): N_("Nearest to {limit}: you, {left} points away."),
}

ACTION_ORDER: Final = ("call", "take stock", "take pile", "throw")

#: Marked-card verdicts are sent for hands up to this size (2^n - 1 sets of cards).
MAX_VERDICT_CARDS: Final = 10
_VERDICT_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"

#: Msgids this renderer places inside attribute values (``aria-label`` of a
#: card, a seat, the stock, the pile and the score table; the throw button's
#: ``data-label-*``; the loader's progress templates; the share texts; the
#: engine's verdicts on marked cards, which may be any refusal). They are
#: escaped like every text, and the catalog check
#: (sitegen/dhumbal_site/catalogs.py) refuses double quotes, backticks and
#: angle brackets in their translations; tests/table checks that this list
#: is complete.
ATTRIBUTE_MSGIDS: Final = frozenset({
    PLAYERS_LABEL, RESULT, THROW_NONE, THROW_VALUE, SHARE_TITLE, LINK_SHOWN, LINK_COPIED,
    STARTING, PROGRESS, DEALER, LAST_THROW, MAY_TAKE, NOT_TAKABLE, *PILE_LABELS.values(),
    STOCK_COUNT[0], CARD_COUNT[0],
    CARD_NAME, JOKER_NAME, *RANK_NAMES[1:], *SUIT_NAMES,
    *(m if isinstance(m, str) else m[0] for m in TEMPLATES.values()),
})


@dataclass
class TableModel:
    """Everything the renderer draws; made by :class:`dhumbal.session.Session`."""

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
    new_card: C.Card | None = None  # the card the reader took last, marked until the turn ends
    face_down: bool = False  # a preview of a deal the reader will not get: the cards stay face down
    hint_on: bool = False  # the reader's call odds are showing in the status line (see hint_text)

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
    return "".join(card_span(c, lang) for c in cards)


def _points(profile: Profile, card: C.Card, t: Translator) -> str:
    v = profile.value(card)
    return t.plural(CARD_POINTS[0], CARD_POINTS[1], v, card=card_name(card, t.lang))


def _signed(n: int, lang: str) -> str:
    return number(n, lang, signed=True) if n else number(0, lang)


def _money(points: int, rate: str, lang: str) -> str:
    """An amount in the reader's format: ``2,20`` in French and Dutch, ``−०.७०`` in Nepali."""
    return number(money_text(points, rate), lang)


def _plus(n: int) -> str:
    return "+" if n > 0 else ""


def _count(n: int, t: Translator) -> str:
    return t.plural(CARD_COUNT[0], CARD_COUNT[1], n)


def _with_cards(t: Translator, msgid: str, key: str, cards: Sequence[C.Card], lang: str, **params: object) -> str:
    """A translated text with small card faces in place of its ``{key}`` placeholder (escaped HTML)."""
    marker = "\x00"
    text = t(msgid, **{key: marker}, **params)
    faces = "".join(cardface.face(c, lang, size="inline") for c in cards)
    return faces.join(_e(part) for part in text.split(marker))


# -- the whole table (build time) ------------------------------------------------------------


def render_table(model: TableModel, *, status: str = "", attrs: Mapping[str, str] | None = None,
                 download_bytes: int = 0) -> str:
    """The table element with its loader, live region, board and settings, as pre-rendered into a page.

    ``download_bytes`` is what Play downloads the first time (the engine and
    Pyodide), said in the loader's note.
    """
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
        "tabindex": "-1",
    }
    root.update(attrs or {})
    errors = "".join(
        f'<p class="dht-error" data-error-code="{_e(code)}" hidden>{_e(t(msgid))}</p>'
        for code, msgid in ERRORS.items()
    )
    megabytes = max(1, -(-download_bytes // 1_000_000)) if download_bytes else 0
    note = STATIC_NOTE_POSITION if model.position else STATIC_NOTE
    static_note = t(note, megabytes=megabytes) if megabytes else t(note, megabytes="…")
    loader = (
        f'<div class="dht-loader">'
        f'<p class="dht-when dht-when--static">{_e(static_note)}</p>'
        f'<p class="dht-frugal" hidden>{_e(t(FRUGAL_NOTE))}</p>'
        f'<div class="dht-when dht-when--loading"><p>{_e(t(LOADING_NOTE))}</p>'
        f'<p class="dht-progress"><progress class="dht-progress__bar" max="100" aria-labelledby="{_e(tid)}-progress"></progress>'
        f' <span class="dht-progress__text" id="{_e(tid)}-progress" data-template="{_e(t.raw(PROGRESS))}"'
        f' data-starting="{_e(t(STARTING))}">{_e(t(LOADING_NOTE))}</span></p></div>'
        f'<div class="dht-when dht-when--error"><p class="dht-error-title" data-error-title="start">{_e(t(ERROR_TITLE))}</p>'
        f'<p class="dht-error-title" data-error-title="live" hidden>{_e(t(ERROR_TITLE_LIVE))}</p>{errors}</div>'
        f'<noscript><p class="dht-noscript">{_e(t(NOSCRIPT_NOTE))}</p></noscript>'
        f'<p class="dht-loader__buttons">'
        f'<button type="button" class="dht-btn dht-btn--primary dht-play" data-dht-play>{_e(t(PLAY))}</button>'
        f'<button type="button" class="dht-btn dht-retry" data-dht-retry>{_e(t(RETRY))}</button>'
        f"</p></div>"
    )
    status_p = (f'<p class="dht-status" id="{_e(tid)}-status" role="status" aria-live="polite" aria-atomic="true">'
                f'{_e(status if model.live else "")}</p>')
    tools = (
        f'<div class="dht-tools">'
        f'<button type="button" class="dht-btn dht-btn--quiet dht-share" data-dht-share'
        f' data-title="{_e(t(SHARE_TITLE))}" data-copied="{_e(t(LINK_COPIED))}" data-shown="{_e(t(LINK_SHOWN))}">'
        f'{_e(t(SHARE))}</button>'
        f'<button type="button" class="dht-btn dht-btn--quiet dht-close" data-dht-close>{_e(t(CLOSE))}</button>'
        f"</div>"
    )
    return (
        f"<section{_attrs(root)}>"
        f'<div class="dht-head"><h2 class="dht-title" id="{_e(tid)}-title">{_e(t(TITLE))}</h2>{tools}</div>'
        f'<div class="dht-board" id="{_e(tid)}-board" tabindex="-1">{render_board(model, dock_head=loader + status_p)}</div>'
        f'<details class="dht-settings"><summary>{_e(t(SETTINGS))}</summary>'
        f'<div class="dht-settings__body" id="{_e(tid)}-settings">{render_settings(model)}</div>'
        f"{render_prefs(model)}</details>"
        f"</section>"
    )


# -- the board ----------------------------------------------------------------------------------


def render_board(model: TableModel, *, dock_head: str = "") -> str:
    """The play area: the felt (seats, stock, last throw), the reader's hand, results, the dock, the log.

    ``dock_head`` fills the dock's first slot (the loader and the live
    status line at build time); in the browser the page keeps its own
    loader and status line and puts them back into the slot after each
    answer, so a screen reader's live region is never replaced.
    """
    deal = model.deal
    if deal is None or model.match is None:
        return ""
    t = translator(model.lang)
    me = model.my_seat()
    my_turn = me is not None and not deal.is_over and deal.turn == me and not model.face_down
    board_attrs = {
        "class": "dht-play-area",
        "data-phase": deal.phase,
        "data-your-turn": "true" if my_turn else "false",
        "data-over": "true" if deal.is_over else "false",
        "data-match-over": "true" if model.match_over else "false",
        "data-profile-key": deal.profile.key,
        "data-players": str(deal.players),
    }
    parts = [f"<div{_attrs(board_attrs)}>", _meta(model, t), render_felt(model)]
    if me is not None:
        parts.append(_me(model, deal, me, t, my_turn))
    if deal.is_over:
        parts.append(_result(model, deal, t))
        if model.match_over:
            parts.append(_standings(model, t))
    parts.append(f'<div class="dht-dock"><div class="dht-dock__head" data-dht-slot>{dock_head}</div>'
                 f"{_actions(model, deal, t, my_turn)}</div>")
    parts.append(_log(model, t))
    parts.append("</div>")
    return "".join(parts)


def _meta(model: TableModel, t: Translator) -> str:
    rounds = model.profile.rounds
    deal_text = (t(META_DEAL_OF, number=model.deal_number, count=rounds)
                 if rounds is not None and not model.position else t(META_DEAL, number=model.deal_number))
    level = t(LEVELS.get(model.difficulty, LEVELS["medium"]))
    p = model.profile
    limit = t(CALL_LIMIT, limit=p.call_limit) if p.call_limit is not None else t(NO_LIMIT)
    return (f'<p class="dht-meta"><span class="dht-meta__profile">{_e(t(model.profile.name))}</span>'
            f' · <span class="dht-meta__deal">{_e(deal_text)}</span>'
            f' · <span class="dht-meta__bots">{_e(t(META_BOTS, level=level))}</span>'
            f' · <span class="dht-hand__limit">{_e(limit)}</span></p>')


def _score_text(model: TableModel, match_seat: int) -> str:
    assert model.match is not None
    score = model.match.scores[match_seat]
    if model.profile.settlement == "cumulative":
        return number(score, model.lang)
    return _signed(score, model.lang)


def _badges(model: TableModel, deal: Deal, s: int, t: Translator) -> str:
    """The dealer's button (a disc with a letter, named "dealer") and "to play"."""
    out = ""
    if s == deal.dealer:
        out += (f'<span class="dht-dealer" title="{_e(t(DEALER))}"><span aria-hidden="true">{_e(t(DEALER_MARK))}</span>'
                f'<span class="dht-sr">{_e(t(DEALER))}</span></span>')
    if not deal.is_over and s == deal.turn:
        out += f'<span class="dht-badge dht-badge--turn">{_e(t(TO_PLAY))}</span>'
    return out


def render_felt(model: TableModel, *, move: tuple[int, Sequence[Message]] | None = None) -> str:
    """The table's middle: the other seats (from the reader's left), the stock and the last throw.

    ``move`` is a seat's last move (its deal seat and the engine's events),
    shown on that seat; the table script swaps this part alone while it
    plays the bots' moves back one at a time.
    """
    deal = model.deal
    assert deal is not None and model.match is not None
    t = translator(model.lang)
    me = model.my_seat()
    n = deal.players
    start = 0 if me is None else (me + 1) % n
    others = [(start + i) % n for i in range(n) if (start + i) % n != me]
    names = model.deal_names()
    items = []
    for pos, s in enumerate(others):
        m = model.match.seating[s]
        cls = "dht-seat"
        if not deal.is_over and s == deal.turn:
            cls += " dht-seat--turn"
        if move is not None and move[0] == s:
            cls += " dht-seat--moved"
        count = len(deal.hands[s])
        body = (f'<p class="dht-seat__plate"><span class="dht-seat__name">{_e(names[s])}</span>{_badges(model, deal, s, t)}</p>'
                f'<span class="dht-seat__score" data-score="{model.match.scores[m]}">{_e(t(SCORE, score=_score_text(model, m)))}</span>')
        if deal.is_over:
            body += (f'<span class="dht-seat__hand" data-total="{deal.total(s)}">'
                     f'<span class="dht-seat__faces">{cards_spans(_ordered(deal.hands[s], True), model.lang)}</span>'
                     f'<span class="dht-seat__total">{_e(t(HAND_SHOWN, total=deal.total(s)))}</span></span>')
        else:
            body += (f'<span class="dht-seat__cards">{cardface.backs(count, size="sm", label=_count(count, t), extra_classes=("dht-seat__backs",))}'
                     f'<span class="dht-seat__count" aria-hidden="true">{_e(number(count, model.lang))}</span></span>')
            known = deal.known[s] if s < len(deal.known) else []
            if known:
                body += (f'<span class="dht-seat__known">{_e(t(PICKED_UP))} '
                         f'{"".join(cardface.face(c, model.lang, size="inline") for c in known)}</span>')
        if move is not None and move[0] == s:
            bubble = _move_text(move[1], model.lang)
            if bubble:
                body += f'<p class="dht-bubble">{bubble}</p>'
        items.append(f'<li class="{cls}" data-seat="{s}" data-match-seat="{m}" data-count="{count}" '
                     f'data-pos="{pos}">{body}</li>')
    seats = f'<ul class="dht-seats" aria-label="{_e(t(PLAYERS_LABEL))}">{"".join(items)}</ul>' if items else ""
    return (f'<div class="dht-felt" data-opponents="{len(others)}">{seats}'
            f'{_center(model, deal, t)}</div>')


def _move_text(events: Sequence[Message], lang: str) -> str:
    """A seat's move in a few words, with its cards drawn ("threw 8♠ 8♦"), from the engine's events."""
    t = translator(lang)
    for m in events:
        p = m.params
        if m.code == "took-stock":
            return _e(t(MOVE_STOCK))
        if m.code in ("took-pile", "picked-offer"):
            return _with_cards(t, MOVE_TOOK, "card", [C.parse_card(str(p["card"]))], lang)
        if m.code == "threw":
            return _with_cards(t, MOVE_THREW, "cards", C.parse_cards(str(p["cards"])), lang)
        if m.code == "call":
            return _e(t(MOVE_CALL, total=p["total"]))
    return ""


def _button(label: str, *, action: str | None = None, op: str | None = None, cls: str = "",
            enabled: bool = True, live: bool = True, extra: Mapping[str, str | None] | None = None,
            inner: str | None = None) -> str:
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
    return f"<button{_attrs(a)}>{inner if inner is not None else _e(label)}</button>"


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
             + f'<span class="dht-stack__count" aria-hidden="true">{_e(number(n_stock, model.lang))}</span>')
    if wants_take:
        take = Action.take_stock()
        ok = _legal(deal, take, my_turn)
        name = t.plural(TAKE_STOCK_COUNT[0], TAKE_STOCK_COUNT[1], n_stock)
        stock = _button(name, action="take stock",
                        cls="dht-stack" + (" dht-stack--take" if ok else ""), enabled=ok, live=model.live,
                        extra={"data-key": "take-stock", "data-count": str(n_stock)},
                        inner=f'<span class="dht-sr">{_e(name)}</span>{stack}')
    else:
        stock = (f'<span class="dht-stack" role="img" data-count="{n_stock}" '
                 f'aria-label="{_e(t.plural(STOCK_COUNT[0], STOCK_COUNT[1], n_stock))}">{stack}</span>')
    stock_html = f'<div class="dht-stock"><span class="dht-label" aria-hidden="true">{_e(t(STOCK))}</span>{stock}</div>'

    label = t(PILE_LABELS[p.after_deal])
    if model.face_down:
        throw_html = f'<span class="dht-slot"><span>{_e(t(EMPTY))}</span></span>'
    else:
        throw_html = _last_throw(model, deal, t, my_turn and wants_take)
    pile_html = (f'<div class="dht-pile"><span class="dht-label" id="{_e(tid)}-pile-label">{_e(label)}</span>'
                 f'<div class="dht-lastthrow" role="group" aria-label="{_e(t(LAST_THROW, label=label))}">{throw_html}</div></div>')
    pending = ""
    if deal.pending and not deal.is_over:
        names = model.deal_names()
        head = t(PENDING) if deal.turn == me else t(PENDING_BOT, name=names[deal.turn])
        pending = (f'<div class="dht-pending"><span class="dht-label">{_e(head)}</span>'
                   f'<div class="dht-lastthrow">{"".join(cardface.face(c, model.lang, size="md") for c in deal.pending)}</div></div>')
    return f'<div class="dht-center">{stock_html}{pile_html}{pending}</div>'


def _last_throw(model: TableModel, deal: Deal, t: Translator, reader_takes: bool) -> str:
    """The whole last throw: the cards that may be taken marked (buttons when the reader may take
    them now), the others dimmed."""
    p = deal.profile
    offer = deal.offer_cards
    if not offer:
        return f'<span class="dht-slot"><span>{_e(t(EMPTY))}</span></span>'
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
            a: dict[str, str | None] = {
                "type": "button",
                "class": cardface.face_classes(c, "md", marks=("takable",) if ok else ("dim",), extra=("dht-pick",)),
                "data-action": action, "data-card": code, "data-key": key,
            }
            if not ok:
                a["aria-disabled"] = "true"
            if not model.live:
                a["disabled"] = ""
            # The name is the spoken text ("Take the king of spades"); the face is its picture.
            out.append(f'<button{_attrs(a)}><span class="dht-sr">{_e(name)}</span>{cardface.face_inner(c, "md")}</button>')
        elif c in takable:
            out.append(cardface.face(c, lang, size="md", marks=("takable",), label=t(MAY_TAKE, card=card_name(c, lang))))
        else:
            out.append(cardface.face(c, lang, size="md", marks=("dim",), label=t(NOT_TAKABLE, card=card_name(c, lang))))
    return "".join(out)


def _ordered(hand: Sequence[C.Card], sort: bool) -> list[C.Card]:
    return sorted(hand, key=C.sort_key) if sort else list(hand)


def _me(model: TableModel, deal: Deal, me: int, t: Translator, my_turn: bool) -> str:
    """The reader's place: name, dealer and turn, total, call limit, and the hand (buttons to mark)."""
    assert model.match is not None
    p = deal.profile
    tid = model.table_id
    lang = model.lang
    m = model.match.seating[me]
    total = deal.total(me)
    cls = "dht-me dht-seat dht-seat--me"
    if my_turn:
        cls += " dht-seat--turn"
    names = model.deal_names()
    if model.face_down:
        shown_total = ""
    else:
        shown_total = (f' · <span class="dht-hand__total" data-total="{total}">{_e(t(YOUR_TOTAL, total=total))}</span>')
    label = (f'<p class="dht-hand__label" id="{_e(tid)}-hand-label"><span class="dht-seat__name">{_e(names[me])}</span>'
             f'{_badges(model, deal, me, t)}'
             f'<span class="dht-hand__title dht-sr">{_e(t(YOUR_HAND))}</span>{shown_total}'
             f' · <span class="dht-seat__score" data-score="{model.match.scores[m]}">{_e(t(SCORE, score=_score_text(model, m)))}</span></p>')

    if model.face_down:
        n = len(deal.hands[me])
        cards_html = cardface.backs(n, size="md", label=t(HAND_FACE_DOWN), extra_classes=("dht-cards__backs",))
        return (f'<div class="{cls}" data-seat="{me}" data-match-seat="{m}">{label}'
                f'<div class="dht-hand"><div class="dht-cards">{cards_html}</div></div></div>')
    barred = deal.took_from_pile if (my_turn and p.draw_first and deal.phase == "throw") else None
    new = model.new_card if model.new_card in deal.hands[me] and not deal.is_over else None
    cards = []
    playable = my_turn and not deal.is_over
    hand = _ordered(deal.hands[me], model.sort)
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
        if playable:
            a: dict[str, str | None] = {
                "type": "button", "class": cardface.face_classes(c, "md", marks=marks, extra=("dht-card",)), "data-card": code,
                "data-value": str(p.value(c)), "aria-pressed": "false", "data-key": f"card-{code}",
                "tabindex": "0" if i == 0 else "-1",
            }
            if not model.live:
                a["disabled"] = ""
            spoken = typography(_points(p, c, t) + "".join(f"; {x}" for x in names_extra), lang)
            # The name is the spoken text ("King of spades, 10 points"); the face is its picture.
            cards.append(f'<button{_attrs(a)}><span class="dht-sr">{_e(spoken)}</span>'
                         f'{cardface.face_inner(c, "md")}'
                         f'<span class="dht-pts" aria-hidden="true">{_e(number(p.value(c), lang))}</span></button>')
        else:
            spoken = typography("; ".join([card_name(c, lang)] + names_extra), lang)
            cards.append(cardface.face(c, lang, size="md", marks=marks, label=spoken, extra_classes=("dht-held",)))
    many = "" if len(hand) < 6 else (' data-many="2"' if len(hand) >= 8 else ' data-many="1"')
    inner = f'<div class="dht-cards"{many}>{"".join(cards)}</div>'
    if deal.is_over:
        inner = (f'<span class="dht-seat__hand" data-total="{total}">{inner}'
                 f'<span class="dht-seat__total">{_e(t(HAND_SHOWN, total=total))}</span></span>')
    note = ""
    if barred is not None:
        reason = IllegalAction("pile-card-returned", card=C.card_text(barred)).text(lang, names)
        note = f'<p class="dht-note dht-note--barred">{_with_cards_text(reason, barred, lang)}</p>'
    sort = ""
    if my_turn:
        sort = _button(t(SORT), op="sort", live=model.live, cls="dht-btn--quiet dht-sort",
                       extra={"aria-pressed": "true" if model.sort else "false", "data-key": "sort"})
    return (f'<div class="{cls}" data-seat="{me}" data-match-seat="{m}"><div class="dht-me__head">{label}{sort}</div>'
            f'<div class="dht-hand" role="group" aria-labelledby="{_e(tid)}-hand-label">{inner}</div>{note}</div>')


def _with_cards_text(text: str, card: C.Card, lang: str) -> str:
    """``text`` (already translated) with the card's printed name drawn as a small face."""
    printed = C.card_text(card)
    if printed not in text:
        return _e(text)
    return cardface.face(card, lang, size="inline").join(_e(part) for part in text.split(printed))


def throw_verdicts(deal: Deal, seat: int, hand: Sequence[C.Card], lang: str,
                   names: Sequence[str] | None) -> tuple[str, list[str]] | None:
    """The engine's verdict on throwing each set of cards of ``hand`` now.

    Returns ``(verdicts, reasons)``: ``verdicts[mask - 1]`` is a digit for
    the cards ``hand[i]`` with bit ``i`` of ``mask`` set, ``0`` when the
    throw is legal, else the index of its refusal in ``reasons`` (``reasons[0]``
    is empty). A refusal that names the marked cards themselves carries a
    ``{cards}`` placeholder, filled by the table script with the marked
    cards. So the Throw control can say, before it is pressed, whether the
    marked cards may be thrown and why not, without deciding anything
    itself. ``None`` for a hand too large to list every set.
    """
    n = len(hand)
    if n == 0 or n > MAX_VERDICT_CARDS:
        return None
    reasons = [""]
    index: dict[str, int] = {}
    out = []
    for mask in range(1, 1 << n):
        chosen = [hand[i] for i in range(n) if mask >> i & 1]
        refusal = deal.refusal(Action.throw(*chosen), seat=seat)
        if refusal is None:
            out.append("0")
            continue
        if refusal.code == "not-a-run":
            text = translator(lang)(_not_a_run_msgid(), cards="{cards}")
        else:
            text = refusal.text(lang, names)
        k = index.get(text)
        if k is None:
            k = index[text] = len(reasons)
            reasons.append(text)
        out.append(_VERDICT_DIGITS[k] if k < len(_VERDICT_DIGITS) else "z")
    return "".join(out), reasons


def _not_a_run_msgid() -> str:
    template = TEMPLATES["not-a-run"]
    assert isinstance(template, str)
    return template


def _actions(model: TableModel, deal: Deal, t: Translator, my_turn: bool) -> str:
    p = deal.profile
    tid = model.table_id
    buttons = []
    notes = []
    me = model.my_seat()
    if my_turn and me is not None:
        names = model.deal_names()
        if deal.phase == "start":
            refusal = deal.refusal(Action.call(), seat=me)
            extra: dict[str, str | None] = {"data-key": "call"}
            if refusal is not None:
                extra["aria-describedby"] = f"{tid}-why-call"
                notes.append(f'<p class="dht-why dht-why--call" id="{_e(tid)}-why-call">{_e(refusal.text(model.lang, names))}</p>')
            buttons.append(_button(t(CALL_ON, total=deal.total(me)), action="call", enabled=refusal is None,
                                   live=model.live, cls="dht-call", extra=extra))
            # the call odds, on demand (off until pressed)
            buttons.append(_button(t(HINT), op="hint", live=model.live, cls="dht-hint-btn",
                                   extra={"aria-pressed": "true" if model.hint_on else "false", "data-key": "hint"}))
        throw_phase = deal.phase == ("throw" if p.draw_first else "start")
        if deal.phase in ("start", "throw"):
            hand = _ordered(deal.hands[me], model.sort)
            verdicts = throw_verdicts(deal, me, hand, model.lang, names)
            extra = {"data-key": "throw", "data-label-none": t(THROW_NONE),
                     "data-label-value": t.raw(THROW_VALUE), "aria-describedby": f"{tid}-why-throw"}
            if verdicts is not None:
                extra["data-cards"] = " ".join(C.card_text(c, ascii=True) for c in hand)
                extra["data-verdicts"] = verdicts[0]
                extra["data-reasons"] = json.dumps(verdicts[1], ensure_ascii=False)
            buttons.append(_button(t(THROW_NONE), action="throw", enabled=False, live=model.live,
                                   cls="dht-throw dht-btn--primary" + ("" if throw_phase else " dht-throw--later"),
                                   extra=extra))
            notes.insert(0, f'<p class="dht-why dht-why--throw" id="{_e(tid)}-why-throw" hidden></p>')
            if p.draw_first:
                notes.append(f'<p class="dht-hint" hidden>{_e(t(LAST_ON_TOP))}</p>')
    if deal.is_over:
        if model.match_over:
            buttons.append(_button(t(NEW_MATCH), op="new-match", live=model.live, cls="dht-btn--primary",
                                   extra={"data-key": "new-match"}))
        else:
            buttons.append(_button(t(NEXT_DEAL), op="next-deal", live=model.live, cls="dht-btn--primary",
                                   extra={"data-key": "next-deal"}))
    if model.face_down:
        buttons = []
        notes = []
    skip = f'<button type="button" class="dht-btn dht-skip" data-dht-skip>{_e(t(SKIP))}</button>'
    return f'<div class="dht-actions">{"".join(buttons)}{skip}</div>{"".join(notes)}'


def hint_text(odds: CallOdds, lang: str, allowed: bool = True) -> str:
    """The reader's call odds in words, for the status line.

    ``allowed``: whether a call is allowed now; when it is not, the figure is
    what a call would risk if it were (the standing reason under the Call
    button says why it is not).
    """
    from .levels import percent

    t = translator(lang)
    caught = t(HINT_CAUGHT if allowed else HINT_CAUGHT_IF, total=odds.total, caught=percent(odds.caught, lang),
               samples=count_text(odds.samples, lang))
    if not allowed or odds.play_on_value is None:
        return caught
    signed = odds.measure == "paid"
    value = t(HINT_VALUE_PAID if signed else HINT_VALUE_POINTS,
              call=_decimal(odds.call_value, lang, signed), play_on=_decimal(odds.play_on_value, lang, signed),
              playouts=count_text(odds.playouts, lang))
    return caught + " " + value


def _decimal(x: float, lang: str, signed: bool) -> str:
    return number(x, lang, signed=signed, decimals=1)


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
        # money carries its sign like the points it pays (+2.20 received, −2.20 paid)
        rows.append(("money", t(ROW_MONEY), [(money_text(v, rate), _plus(v) + _money(v, rate, lang)) for v in o.paid]))
        if totals is not None:
            rows.append(("total", t(ROW_TOTAL), [(v, _signed(v, lang)) for v in totals]))
            rows.append(("money-total", t(ROW_MONEY_TOTAL), [(money_text(v, rate), _plus(v) + _money(v, rate, lang)) for v in totals]))
    else:
        rows.append(("points", t(ROW_POINTS), [(v, number(v, lang)) for v in o.points]))
        if totals is not None:
            rows.append(("total", t(ROW_TOTAL), [(v, number(v, lang)) for v in totals]))
        if eliminated is not None and any(eliminated):
            rows.append(("eliminated", t(ROW_STATUS), [(1 if out else 0, t(OUT) if out else "") for out in eliminated]))
    return rows




def score_notes(
    outcome: Outcome,
    profile: Profile,
    lang: str,
    names: Sequence[str],
    *,
    totals: Sequence[int] | None = None,
    eliminated: Sequence[bool] | None = None,
    reader: int | None = None,
) -> list[tuple[str, str]]:
    """What each row of :func:`score_rows` means for this deal, as (row key, sentence).

    Written from the outcome the engine settled (who called, who was
    caught, the penalty, the sums), so the words always match the numbers;
    signs follow the rows: charges are plain numbers, payments carry + or −.
    ``reader`` is the reader's deal seat: a note that names it speaks to
    them (``NOTES_TO_READER``) instead of naming them in the third person.
    """
    o = outcome
    n = len(o.hands)

    def name(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"

    def t(msgid: str, /, **params: object) -> str:
        seats = {k: v for k, v in params.items() if k in ("caller", "winner", "name") and (v is None or isinstance(v, int))}
        for role, seat in seats.items():
            form = NOTES_TO_READER.get((msgid, role))
            if reader is not None and seat == reader and form is not None:
                msgid = form
                break
        shown = {k: name(seats[k]) if k in seats else v for k, v in params.items()}
        return translator(lang)(msgid, **shown)

    notes: list[tuple[str, str]] = [("hand", t(NOTE_HAND))]
    caller, winner = o.caller, o.winner
    if profile.settlement == "collect":
        if o.reason == "cap":
            notes.append(("took", t(NOTE_TOOK_CAP, count=profile.turn_cap or 0, winner=winner, zero=0)))
        elif o.caught:
            notes.append(("took", t(NOTE_TOOK_CAUGHT, caller=caller, penalty=o.penalty, winner=winner, zero=0)))
        else:
            notes.append(("took", t(NOTE_TOOK_WON, caller=caller, zero=0)))
        collected = o.paid[winner] if winner is not None else 0
        notes.append(("paid", t(NOTE_PAID_COLLECT, winner=winner, sum=collected, zero=0)))
        if totals is not None:
            notes.append(("total", t(NOTE_TOTAL_COLLECT)))
    elif profile.settlement == "pay-caller":
        if o.caught:
            owed = o.paid[winner] if winner is not None else 0
            notes.append(("paid", t(NOTE_PAID_CAUGHT, caller=caller, winner=winner, sum=owed)))
        else:
            gained = o.paid[caller] if caller is not None else 0
            notes.append(("paid", t(NOTE_PAID_WON, caller=caller, sum=gained)))
        rate = profile.money_per_point or "0"
        notes.append(("money", t(NOTE_MONEY, rate=number(rate, lang))))
        if totals is not None:
            notes.append(("total", t(NOTE_TOTAL_PAY)))
            notes.append(("money-total", t(NOTE_MONEY_TOTAL)))
    else:
        if o.caught:
            notes.append(("points", t(NOTE_POINTS_CAUGHT, caller=caller, penalty=o.penalty, zero=0)))
        else:
            notes.append(("points", t(NOTE_POINTS_WON, caller=caller, zero=0)))
        limit = profile.elimination
        if totals is not None and limit is not None:
            text = t(NOTE_TOTAL_CUMULATIVE, limit=limit)
            still = [s for s in range(n) if not (eliminated and eliminated[s])]
            if still:
                near = max(still, key=lambda s: (totals[s], -s))
                text += " " + t(NOTE_NEAREST, limit=limit, name=near, left=max(0, limit - totals[near]))
            notes.append(("total", text))
            if eliminated is not None and any(eliminated):
                notes.append(("eliminated", t(NOTE_ELIMINATED, limit=limit)))
        elif totals is not None:
            notes.append(("total", t(NOTE_TOTAL_CUMULATIVE, limit="—")))
    return notes


def _result(model: TableModel, deal: Deal, t: Translator) -> str:
    assert model.match is not None and deal.outcome is not None
    o = deal.outcome
    p = deal.profile
    names = model.deal_names()
    seats = list(range(deal.players))
    match_seats = [model.match.seating[s] for s in seats]
    scores = model.match.scores
    totals = [scores[m] for m in match_seats]
    eliminated = [m in model.match.eliminated for m in match_seats] if p.elimination is not None else None
    rows = score_rows(o, p, model.lang, totals=totals, eliminated=eliminated)
    notes = score_notes(o, p, model.lang, names, totals=totals, eliminated=eliminated, reader=model.my_seat())
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
    items = "".join(f'<li data-row="{_e(key)}">{_e(text)}</li>' for key, text in notes)
    return (f'<div class="dht-result"><div class="dht-scroll" tabindex="0" role="region" aria-label="{_e(caption)}">'
            f'<table class="dht-score" data-settlement="{_e(p.settlement)}"><caption>{_e(caption)}</caption>'
            f'<thead><tr><td class="dht-corner"><span class="dht-sr">{_e(t(ROW_CORNER))}</span></td>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>"
            f'<ul class="dht-notes">{items}</ul></div>')


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
    """Every event of the deal, oldest first (the table script appends the bots' moves as it shows them)."""
    tid = model.table_id
    # a face-down preview says nothing of a deal the reader will not get
    items = "" if model.face_down else "".join(f"<li>{_e(line)}</li>" for line in model.log)
    return (f'<details class="dht-log" open><summary id="{_e(tid)}-log-label">{_e(t(LOG))}</summary>'
            f'<ol class="dht-log__list" aria-labelledby="{_e(tid)}-log-label" tabindex="0">{items}</ol></details>')


def render_prefs(model: TableModel) -> str:
    """How the table looks and plays back, kept in the browser (no engine needed): the bots' pace and four-colour suits."""
    t = translator(model.lang)
    tid = model.table_id
    speeds = "".join(
        f'<option value="{k}"{" selected" if k == "normal" else ""}>{_e(t(v))}</option>' for k, v in SPEEDS.items()
    )
    return (f'<fieldset class="dht-prefs"><legend>{_e(t(DISPLAY))}</legend>'
            f'<div class="dht-field"><label for="{_e(tid)}-speed">{_e(t(SPEED))}</label>'
            f'<select id="{_e(tid)}-speed" data-dht-speed>{speeds}</select></div>'
            f'<div class="dht-field dht-field--check"><input type="checkbox" id="{_e(tid)}-4c" data-dht-4c>'
            f'<label for="{_e(tid)}-4c">{_e(t(FOUR_COLOURS))}</label></div>'
            f"</fieldset>")


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
