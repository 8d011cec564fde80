"""The whole table: :func:`render_table` (pre-rendered into a page) and :func:`render_board` (every answer).

The table is a section with a head (title, Full table, Share, Close), the
board and the settings. The board is the play area, composed of the parts
drawn by the other modules of :mod:`dhumbal.view`: the felt, the reader's
hand, the summary once the deal is over (the scores, and the final
standings once the match is), the dock (the loader or status line, and the
controls) and the log.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Final

from ..core.i18n import (
    CARD_NAME,
    JOKER_NAME,
    N_,
    RANK_NAMES,
    SUIT_NAMES,
    Translator,
    digits,
    translator,
)
from ..core.messages import TEMPLATES
from ..play.share import MAX_LINK
from .actions import THROW_NONE, THROW_VALUE, render_actions, render_why
from .felt import (
    CARD_COUNT,
    DEALER,
    LAST_THROW,
    MAY_TAKE,
    NOT_TAKABLE,
    PILE_LABELS,
    PLAYERS_LABEL,
    STOCK_COUNT,
    render_felt,
)
from .guide import render_guide
from .hand import MARKED, barred_note, render_hand
from .loader import NEW_GAME, PLAY, PROGRESS, STARTING, render_ask, render_loader
from .markup import attributes, esc
from .model import TableModel
from .scores import RESULT, RESULT_PRACTICE
from .settings import DONE, LEVELS, SETTINGS, render_prefs, render_settings
from .summary import render_summary

TITLE: Final = N_("Play against the bots")
SHARE: Final = N_("Share")
SHARE_TITLE: Final = N_("A game of Dhumbal")
LINK_COPIED: Final = N_("The link to this game is copied: paste it to share the game.")
LINK_SHOWN: Final = N_("Copy this link to share the game:")
CLOSE: Final = N_("Close the table")
# The table over the whole screen (a phone opens it so by itself).
FULL: Final = N_("Full table")
META_DEAL_OF: Final = N_("Deal {number} of {count}")
META_DEAL: Final = N_("Deal {number}")
# In place of "Deal 1 of 3" on a practice deal (a review's "Play from here"):
# one deal apart from the reader's match, which waits where it was.
META_PRACTICE: Final = N_("Practice deal")
META_BOTS: Final = N_("Bots: {level}")
LOG: Final = N_("What happened")

#: Msgids this renderer places inside attribute values (``aria-label`` of a
#: card, a seat, the stock, the pile and the score table; the throw button's
#: ``data-label-*``; the loader's progress templates; the share texts; the
#: engine's verdicts on marked cards, which may be any refusal). They are
#: escaped like every text, and the catalog check
#: (sitegen/dhumbal_site/translation/catalogs.py) refuses double quotes, backticks and
#: angle brackets in their translations; tests/table checks that this list
#: is complete.
ATTRIBUTE_MSGIDS: Final = frozenset({
    PLAYERS_LABEL, RESULT, RESULT_PRACTICE, THROW_NONE, THROW_VALUE, SHARE_TITLE, LINK_SHOWN, LINK_COPIED, MARKED, NEW_GAME, PLAY,
    STARTING, PROGRESS, DEALER, LAST_THROW, MAY_TAKE, NOT_TAKABLE, *PILE_LABELS.values(),
    STOCK_COUNT[0], CARD_COUNT[0],
    CARD_NAME, JOKER_NAME, *RANK_NAMES[1:], *SUIT_NAMES,
    *(m if isinstance(m, str) else m[0] for m in TEMPLATES.values()),
})


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
        "data-max-hash": str(MAX_LINK),
        "aria-labelledby": f"{tid}-title",
        "tabindex": "-1",
    }
    root.update(attrs or {})
    loader = render_loader(model, download_bytes)
    status_p = (f'<p class="dht-status" id="{esc(tid)}-status" role="status" aria-live="polite" aria-atomic="true">'
                f'{esc(status if model.live else "")}</p>')
    tools = (
        f'<div class="dht-tools">'
        f'<button type="button" class="dht-btn dht-btn--quiet dht-full" data-dht-full>{esc(t(FULL))}</button>'
        f'<button type="button" class="dht-btn dht-btn--quiet dht-share" data-dht-share'
        f' data-title="{esc(t(SHARE_TITLE))}" data-copied="{esc(t(LINK_COPIED))}" data-shown="{esc(t(LINK_SHOWN))}">'
        f'{esc(t(SHARE))}</button>'
        f'<button type="button" class="dht-btn dht-btn--quiet dht-close" data-dht-close>{esc(t(CLOSE))}</button>'
        f"</div>"
    )
    return (
        f"<section{attributes(root)}>"
        f'<div class="dht-head"><h2 class="dht-title" id="{esc(tid)}-title">{esc(t(TITLE))}</h2>{tools}</div>'
        f"{later(render_guide(model))}"
        f'<div class="dht-board" id="{esc(tid)}-board" tabindex="-1">{render_board(model, dock_head=loader + status_p)}</div>'
        f'<details class="dht-settings"><summary><span class="dht-settings__label">{esc(t(SETTINGS))}</span></summary>'
        + later(
            f'<div class="dht-settings__body" id="{esc(tid)}-settings">{render_settings(model)}</div>'
            f"{render_prefs(model)}"
            f'<p class="dht-settings__done"><button type="button" class="dht-btn" data-dht-done>{esc(t(DONE))}</button></p>'
        )
        + "</details>"
        + later(render_ask(model))
        + "</section>"
    )


def later(html: str) -> str:
    """A part nobody sees before the reader's intent (the guide, the settings form, the question
    before a fresh game), kept inert in a ``<template>``: a page before Play neither styles nor
    lays it out. The table script puts it in place when it mounts the table, or when the reader
    opens the settings before that (browser/table/later.ts)."""
    return f"<template data-dht-later>{html}</template>"


def render_board(model: TableModel, *, dock_head: str = "") -> str:
    """The play area: the felt (seats, stock, last throw), the reader's hand, results, the dock, the log.

    ``dock_head`` fills the dock's first slot (the loader and the live
    status line at build time); in the browser the page keeps its own
    loader and status line and puts them back into the slot after each
    answer, so a screen reader's live region is never replaced.
    """
    deal = model.deal
    if deal is None or model.scoreboard is None:
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
        "data-practice": "true" if model.practice else None,  # a practice deal (a review's "Play from here")
        "data-profile-key": deal.profile.key,
        "data-turn-order": deal.profile.turn_order,
        "data-players": str(deal.players),
        # a caught call (the table script's cue for it)
        "data-caught": "true" if deal.is_over and deal.outcome is not None and deal.outcome.caught else None,
    }
    parts = [f"<div{attributes(board_attrs)}>", _meta(model, t), render_felt(model)]
    note = ""
    if me is not None:
        parts.append(render_hand(model, deal, me, t, my_turn))
        note = barred_note(model, deal, my_turn)
    if deal.is_over:
        # the showdown's strip, the details panel behind the dock's Details, the review's place
        parts.append(render_summary(model, deal, t))
    parts.append(f'<div class="dht-dock"><div class="dht-dock__head" data-dht-slot>{dock_head}{render_why(model, t)}</div>'
                 f"{render_actions(model, deal, t, my_turn, note=note)}</div>")
    parts.append(_log(model, t))
    parts.append("</div>")
    return "".join(parts)


def _meta(model: TableModel, t: Translator) -> str:
    rounds = model.profile.rounds
    # (a position from a worked example starts a match like any deal: it ends after as many deals)
    deal_text = (t(META_PRACTICE) if model.practice
                 else t(META_DEAL_OF, number=model.deal_number, count=rounds) if rounds is not None
                 else t(META_DEAL, number=model.deal_number))
    level = t(LEVELS.get(model.difficulty, LEVELS["medium"]))
    # (the call limit is on the line above the reader's hand, beside what it holds)
    # (the dots between the parts are the style sheet's, never at the start of a line)
    return (f'<p class="dht-meta"><span class="dht-meta__profile">{esc(t(model.profile.name))}</span>'
            f' <span class="dht-meta__deal">{esc(deal_text)}</span>'
            f' <span class="dht-meta__bots">{esc(t(META_BOTS, level=level))}</span></p>')


def _log(model: TableModel, t: Translator) -> str:
    """Every event of the deal, oldest first (the table script appends the bots' moves as it shows them)."""
    tid = model.table_id
    # a face-down preview says nothing of a deal the reader will not get
    items = "" if model.face_down else "".join(f"<li>{esc(line)}</li>" for line in model.log)
    return (f'<details class="dht-log" open><summary id="{esc(tid)}-log-label">{esc(t(LOG))}</summary>'
            f'<ol class="dht-log__list" aria-labelledby="{esc(tid)}-log-label" tabindex="0">{items}</ol></details>')


def position_attrs(state: Mapping[str, object], names: Sequence[str] | None) -> dict[str, str]:
    """Root attributes that let the table start from a position (an example's start)."""
    out = {"data-position-state": json.dumps(state, ensure_ascii=False, separators=(",", ":"))}
    if names is not None:
        out["data-position-names"] = json.dumps(list(names), ensure_ascii=False)
    return out
