"""The worker's entry point: JSON requests in, rendered HTML and text out.

The page's scripts never decide anything about the rules: they send a
request (a JSON object with an ``op``) and show what comes back. In the
browser, the worker calls :func:`handle` with the request as a JSON string;
at build time, :func:`prerender` draws the same table into the page. Both go
through :mod:`dhumbal.view`, so the table is drawn by one piece of code.

Every op and its answer is typed in :mod:`dhumbal.table.messages`; each op
is served by one function of :data:`OPS`, given the request, the
:class:`dhumbal.table.tables.Table` it names (keyed by the table element's
id, kept once it has a game) and the language. The work is split by job:
:mod:`dhumbal.table.protocol` reads and bounds every request field,
:mod:`dhumbal.table.session` plays one table's match, :mod:`dhumbal.table.tables`
keeps its Hint and review, :mod:`dhumbal.table.scorepad` settles the score
pad's sheet, and this module dispatches requests and shapes the answers.

Every reader-visible string is a msgid in these modules, in
:mod:`dhumbal.view`, or an engine message; nothing is typed in the script.

Fair play: while a deal is in play, everything an answer tells the page
follows from the reader's seat view alone (the board is drawn from a
stand-in deal, the Hint from the view; tests/engine/test_engine_fair_play.py
holds it), except the save token: ``hash`` (the ``#table=`` link) and
``summary.seed`` carry the match's seed, so a saved or shared game comes
back exactly. The page keeps them as opaque data and never shows them as
information; a deal's ``transcript`` is sent once it is over.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, cast

from ..bots.botlevels import Difficulty
from ..core import boundedjson
from ..core.errors import Refusal
from ..core.i18n import N_, cards_in_words, translator
from ..core.profiles import Profile
from ..play.action import Action, parse_action
from ..play.deal import IllegalAction
from ..play.records import state_to_json, transcript
from ..play.share import decode_hash
from ..view.felt import render_felt
from ..view.model import TableModel
from ..view.settings import render_settings
from ..view.table import render_board, render_table
from . import messages, scorepad
from .links import link_of, restore_session
from .messages import (
    PROTOCOL,
    ActRequest,
    BoardResponse,
    ErrorResponse,
    FreshBoardResponse,
    HintRequest,
    LangRequest,
    NewMatchRequest,
    NewRequest,
    NextDealRequest,
    PingRequest,
    PongResponse,
    PositionRequest,
    Response,
    RestoreRequest,
    RestoreResponse,
    ReviewRequest,
    ReviewResponse,
    ScorepadRequest,
    ScorepadResponse,
    SettingsRequest,
    SettingsResponse,
    SortRequest,
    StateRequest,
    Summary,
    Transcript,
)
from .protocol import (
    DEFAULT_DIFFICULTY,
    ERROR_BAD_REQUEST,
    MAX_REQUEST,
    RequestError,
    Settings,
    new_seed,
    read_difficulty,
    read_lang,
    read_names,
    read_position,
    read_profile,
    read_seed,
    unwrap_position,
)
from .session import Session
from .tables import Table

NOTICE_BAD_HASH: Final = N_("The game in this link cannot be restored: it is damaged, or it was made by an older version of this site. A fresh deal has started instead.")
NOTICE_RESTORED: Final = N_("The shared game is restored.")
NOTICE_POSITION: Final = N_("The position is on the table. You play {name}.")
# A position whose seats have no names of their own (the reader is "You").
NOTICE_POSITION_YOURS: Final = N_("The position is on the table, and it is your turn.")
# A review's "Play from here": one deal from the move the reader chose.
NOTICE_PRACTICE: Final = N_("A practice deal from the move you chose: it does not count in your match, which waits where you left it.")
NOTICE_NEW: Final = N_("A new match has started.")

# -- the tables ----------------------------------------------------------------------

DEFAULT_TABLE: Final = "dh-table"
#: The tables with a game, by the table element's id.
_TABLES: dict[str, Table] = {}


def table(table_id: str = DEFAULT_TABLE) -> Table:
    """The table kept under ``table_id`` (kept from now on: a new one, with no game, the first time)."""
    found = _TABLES.get(table_id)
    if found is None:
        found = _TABLES[table_id] = Table(table_id)
    return found


def close_tables(*table_ids: str) -> None:
    """Forget these tables, or every table: each starts again with no game."""
    for table_id in table_ids or list(_TABLES):
        _TABLES.pop(table_id, None)


def _table_id(req: Mapping[str, Any]) -> str:
    t = req.get("table", DEFAULT_TABLE)
    if not isinstance(t, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,63}", t):
        raise RequestError("bad-request", ERROR_BAD_REQUEST)
    return t


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("dhumbal")
    except Exception:  # the package metadata may be absent in a bare checkout
        return "0"


# -- the answers -----------------------------------------------------------------------


def _board(tab: Table, op: str, events: list[str], *, status: str | None = None, notice: str | None = None,
           refusal: IllegalAction | None = None) -> BoardResponse:
    """The table after ``op``: the board, what is said (``events``, then the ``status``, or the
    Hint, or the prompt), the link and the summary; the bots' moves one at a time when there are some."""
    return _drawn(tab, op, events, status=status, notice=notice, refusal=refusal)[0]


def _drawn(tab: Table, op: str, events: list[str], *, status: str | None = None, notice: str | None = None,
           refusal: IllegalAction | None = None) -> tuple[BoardResponse, TableModel]:
    """:func:`_board`, and the model it drew the board from."""
    session = tab.playing()
    model = session.model(live=True, table_id=tab.id)
    hint = tab.shown_hint()
    model.hint_on = hint is not None
    model.hint_action = tab.shown_hint_action()
    model.hint_why = hint is not None and bool(hint.why) and status is None and refusal is None
    deal = session.deal
    lang = session.lang
    refused: messages.Refusal | None = None
    if refusal is not None:
        refused = {"code": refusal.code,
                   "text": cards_in_words(refusal.text(lang, session.deal_names(), session.my_deal_seat()), lang)}
    say = status if status is not None else hint.line if hint is not None else session.status()
    if refused is not None:
        say = refused["text"]
    # The status of a finished deal says again how it ended: those events are said once.
    told = [e for e in events if not (say and e in say)]
    parts = ([notice] if notice else []) + told + ([say] if say else [])
    playback = session.playback if refusal is None else None
    session.playback = None
    summary: Summary = {
        "profile": session.settings.profile.canonical(),
        "difficulty": session.settings.difficulty,
        "seed": session.settings.seed,
        "deal": len(session.moves),
        "phase": None if deal is None else deal.phase,
        "turn": None if deal is None else deal.turn,
        "seat": session.my_deal_seat(),
        "your_turn": session.is_my_turn(),
        "is_over": deal is not None and deal.is_over,
        "match_over": session.match_over(),
        "practice": session.settings.practice,  # a practice deal: never the reader's saved game
        # the record of a finished deal (in play, its seed would be the hidden cards)
        "transcript": cast(Transcript, transcript(deal)) if deal is not None and deal.is_over else None,
    }
    out: BoardResponse = {
        "ok": True,
        "op": op,
        "table": tab.id,
        "lang": lang,
        "html": render_board(model),
        "status": " ".join(parts) if refusal is None else say,
        "prompt": session.status(),
        "events": events,
        "notice": notice,
        "refusal": refused,
        "hash": link_of(session),
        "summary": summary,
        # the Hint showing: its line (said above) and the reasons behind it, for "Why?"
        "hint": ({"line": hint.line, "why": list(hint.why)}
                 if hint is not None and status is None and refused is None else None),
    }
    if playback is not None and playback.frames:
        # The bots' moves one at a time: the board before them, then each move's felt.
        # What is said before, during and after: the lead, each move, then the rest.
        said = sum(len(f.texts) for f in playback.frames)
        lead_at = len(playback.lead)
        tail = [e for e in events[lead_at + said:] if not (say and e in say)] if events[:lead_at] == playback.lead else []
        out["playback"] = {
            "html": render_board(playback.board),
            "say": " ".join(([notice] if notice else []) + playback.lead),
            "frames": [{"seat": f.seat, "say": " ".join(f.texts), "log": f.texts,
                        "felt": render_felt(f.table, move=(f.seat, f.events))} for f in playback.frames],
            "end": " ".join(tail + ([say] if say else [])),
        }
    return out, model


def _fresh(tab: Table, op: str, events: list[str], *, notice: str | None = None) -> FreshBoardResponse:
    """A new game on the table (or the table told again): the board and the rules form."""
    out, model = _drawn(tab, op, events, notice=notice)
    return {**out, "settings_html": render_settings(model)}


def _error(code: str, text: str, lang: str) -> ErrorResponse:
    return {"ok": False, "error": {"code": code, "text": text}, "lang": lang}


# -- the ops ---------------------------------------------------------------------------


def _settings_from(req: Mapping[str, Any], lang: str) -> Settings:
    profile = read_profile(req.get("profile"), req.get("options"), req.get("players"), lang=lang)
    return Settings(profile, read_difficulty(req.get("difficulty")), read_seed(req.get("seed")))


def _deal(tab: Table, settings: Settings, lang: str) -> list[str]:
    """A new game at the table with ``settings``, dealt and played by the bots up to the reader."""
    session = tab.seat(Session(settings, lang=lang, table_id=tab.id, watching=True))
    return session.start()


def _ping(req: PingRequest, tab: Table, lang: str) -> PongResponse:
    return {"ok": True, "pong": True, "version": _version(), "protocol": PROTOCOL}


def _new(req: NewRequest, tab: Table, lang: str) -> FreshBoardResponse:
    events = _deal(tab, _settings_from(req, lang), lang)
    return _fresh(tab, "new", events)


def _new_match(req: NewMatchRequest, tab: Table, lang: str) -> FreshBoardResponse:
    s = tab.playing().settings
    events = _deal(tab, Settings(s.profile, s.difficulty, new_seed()), lang)
    return _fresh(tab, "new-match", events, notice=translator(lang)(NOTICE_NEW))


def _position(req: PositionRequest, tab: Table, lang: str) -> FreshBoardResponse:
    state, given_names = unwrap_position(req.get("state"), req.get("names"))
    deal, profile = read_position(state)
    if req.get("redeal") is True and not deal.is_over:
        from ..bots.sampler import dealt_anew  # loaded only for a puzzle: the sampler is the expert's

        deal = dealt_anew(deal, random.Random(new_seed()))
    names = read_names(given_names, deal.players)
    practice = req.get("practice") is True
    settings = Settings(profile, read_difficulty(req.get("difficulty")), deal.seed, state_to_json(deal), names,
                        practice=practice)
    events = _deal(tab, settings, lang)
    t = translator(lang)
    notice = (t(NOTICE_PRACTICE) if practice
              else t(NOTICE_POSITION, name=names[tab.playing().me]) if names is not None
              else t(NOTICE_POSITION_YOURS))
    return _fresh(tab, "position", events, notice=notice)


def _restore(req: RestoreRequest, tab: Table, lang: str) -> RestoreResponse:
    text = req.get("hash")
    try:
        if not isinstance(text, str):
            raise ValueError("no hash")
        session = restore_session(decode_hash(text), lang)
    except Exception:
        # Whatever a link holds, the reader gets the notice and a fresh
        # deal, never an error the page cannot leave: the link is not
        # the engine's to trust (every field is checked by type and
        # range, but a check that is missing must still end here).
        fallback = req.get("fallback")
        fb: Mapping[str, Any] = fallback if isinstance(fallback, dict) else {}
        events = _deal(tab, _settings_from(fb, lang), lang)
        # restored false: the page keeps the reader's saved game out of it
        return {**_fresh(tab, "restore", events, notice=translator(lang)(NOTICE_BAD_HASH)), "restored": False}
    tab.seat(session)
    # The reader's own game coming back (Back, Forward, another language) is not news.
    quiet = req.get("own") is True
    out = _fresh(tab, "restore", [], notice=None if quiet else translator(lang)(NOTICE_RESTORED))
    return {**out, "restored": True}


def _settings(req: SettingsRequest, tab: Table, lang: str) -> SettingsResponse:
    profile = read_profile(req.get("profile"), req.get("options"), lang=lang)
    model = TableModel.for_settings(lang, tab.id, profile, read_difficulty(req.get("difficulty")))
    return {"ok": True, "op": "settings", "table": tab.id, "lang": lang, "settings_html": render_settings(model)}


def _scorepad(req: ScorepadRequest, tab: Table, lang: str) -> ScorepadResponse | ErrorResponse:
    return scorepad.settle(req, lang)


def _lang(req: LangRequest, tab: Table, lang: str) -> FreshBoardResponse:
    tab.playing().set_lang(lang)
    return _fresh(tab, "lang", [])


def _act(req: ActRequest, tab: Table, lang: str) -> BoardResponse:
    tab.playing()
    text = req.get("action")
    if not isinstance(text, str) or len(text) > 200:
        raise RequestError("bad-request", ERROR_BAD_REQUEST)
    try:
        # "throw" with nothing marked: the engine says why (empty-throw, or the phase)
        action = Action("throw") if text.strip().lower() == "throw" else parse_action(text)
        events = tab.watched().act(action)
    except IllegalAction as exc:
        return _board(tab, "act", [], refusal=exc)
    return _board(tab, "act", events)


def _next_deal(req: NextDealRequest, tab: Table, lang: str) -> BoardResponse:
    return _board(tab, "next-deal", tab.watched().next_deal())


def _sort(req: SortRequest, tab: Table, lang: str) -> BoardResponse:
    session = tab.playing()
    session.sort = not session.sort
    return _board(tab, "sort", [])


def _hint(req: HintRequest, tab: Table, lang: str) -> BoardResponse:
    """Show (or, pressed again on the same position, hide) the expert's move and, at the start
    of the reader's turn, the reader's call odds; mid-turn, the move that finishes the turn."""
    shown = tab.toggle_hint(lang)
    return _board(tab, "hint", []) if shown else _board(tab, "hint", [], status="")


def _review(req: ReviewRequest, tab: Table, lang: str) -> ReviewResponse:
    """The reader's moves of the deal just over, each beside the expert's choice and its cost."""
    from ..view.review import render_review, summary_text

    steps = tab.reviewed()
    session = tab.playing()
    t = translator(lang)
    out = _board(tab, "review", [], status=summary_text(steps, t))
    html = render_review(steps, len(session.moves), t, lang, tab.id, session.settings.difficulty)
    return {**out, "review_html": html}


def _state(req: StateRequest, tab: Table, lang: str) -> FreshBoardResponse:
    tab.playing()
    return _fresh(tab, "state", [])


#: Every op, and what serves it (each takes its request, the table and the language).
OPS: Final[Mapping[str, Callable[[Any, Table, str], Response]]] = {
    "ping": _ping,
    "new": _new,
    "new-match": _new_match,
    "position": _position,
    "restore": _restore,
    "settings": _settings,
    "scorepad": _scorepad,
    "lang": _lang,
    "act": _act,
    "next-deal": _next_deal,
    "sort": _sort,
    "hint": _hint,
    "review": _review,
    "state": _state,
}


def handle_request(req: object) -> Response:
    """Serve one decoded request (see :mod:`dhumbal.table.messages` for every op and its answer)."""
    if not isinstance(req, dict):
        return _error("bad-request", translator("en")(ERROR_BAD_REQUEST), "en")
    lang = read_lang(req.get("lang"))
    try:
        name = req.get("op")
        op = OPS.get(name) if isinstance(name, str) else None
        table_id = _table_id(req)
        tab = _TABLES.get(table_id) or Table(table_id)
        if "lang" not in req and tab.session is not None:
            lang = tab.session.lang
        if op is None:
            raise RequestError("bad-request", ERROR_BAD_REQUEST)
        answer = op(req, tab, lang)
        if tab.session is not None:
            _TABLES[tab.id] = tab  # a table is kept once it has a game
        return answer
    except Refusal as exc:  # any refusal of the engine's, told the same way
        return _error(exc.code, exc.text(lang), lang)


ERROR_INTERNAL: Final = N_("The game engine could not answer that request. Start a new match if the table looks wrong.")


def handle(request_json: str) -> str:
    """The worker's entry point: a JSON request string in, a JSON response string out."""
    lang = "en"
    try:
        if not isinstance(request_json, str):
            raise ValueError("a request is JSON text")
        # Bounded in length and depth before Python's (recursive) parser sees it.
        req = boundedjson.loads(request_json, max_chars=MAX_REQUEST)
        if isinstance(req, dict):
            lang = read_lang(req.get("lang"))
        result = handle_request(req)
    except ValueError:
        result = _error("bad-request", translator(lang)(ERROR_BAD_REQUEST), lang)
    except Exception:  # a bug must not take the worker down: say so, in words
        result = _error("internal", translator(lang)(ERROR_INTERNAL), lang)
    text = json.dumps(result, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate from the request (echoed in a refusal) is not text
        # the page can receive: escape everything rather than fail to answer.
        text = json.dumps(result)
    return text


# -- build time ----------------------------------------------------------------------


def prerender(*, lang: str, profile: Profile, seed: int | str, difficulty: Difficulty = DEFAULT_DIFFICULTY,
              table_id: str = DEFAULT_TABLE, start: dict[str, Any] | None = None,
              names: Sequence[str] | None = None, attrs: Mapping[str, str] | None = None,
              face_down: bool = False, download_bytes: int = 0) -> str:
    """The whole table element, as the page shows it before the engine is loaded.

    The board is the same HTML the worker sends once the reader plays (with
    its controls inert), so nothing moves when the engine takes over. With
    ``face_down`` the cards stay face down: the page deals a fresh game on
    every visit, so this deal is only the table's shape, not the reader's
    cards. ``download_bytes`` is what Play downloads the first time.
    """
    if start is not None:
        deal, profile = read_position(start)
        settings = Settings(profile, difficulty, deal.seed, state_to_json(deal), read_names(list(names) if names else None, deal.players))
    else:
        settings = Settings(profile, difficulty, seed)
    session = Session(settings, lang=lang, table_id=table_id)
    session.start()
    model = session.model(live=False, table_id=table_id, face_down=face_down)
    return render_table(model, status=session.status(), attrs=attrs or {}, download_bytes=download_bytes)
