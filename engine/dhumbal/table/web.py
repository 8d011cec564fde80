"""The mini table's session API: JSON requests in, rendered HTML and text out.

The page's table script never decides anything about the rules: it sends a
request (a JSON object with an ``op``) and shows what comes back. In the
browser, the worker calls :func:`handle` with the request as a JSON string;
at build time, :func:`prerender` draws the same table into the page. Both go
through :mod:`dhumbal.view`, so the table is drawn by one piece of code.

Sessions are kept per table (keyed by the table element's id). The work is
split by job: :mod:`dhumbal.table.protocol` reads and bounds every request field,
:mod:`dhumbal.table.session` plays one table's match, :mod:`dhumbal.play.share` is the
link codec, and this module dispatches requests and shapes the responses.

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
import re
import time
from typing import Any, Final, Mapping, Sequence

from ..core import boundedjson
from ..play.action import Action, parse_action
from ..bots.botlevels import Difficulty, choose
from ..play.deal import Deal, IllegalAction, PositionError
from ..core.i18n import N_, cards_in_words, translator
from ..core.profiles import Profile
from .protocol import (
    DEFAULT_DIFFICULTY,
    ERROR_BAD_REQUEST,
    ERROR_NO_SESSION,
    MAX_REQUEST,
    RequestError,
    Settings,
    new_seed,
    read_difficulty,
    read_lang,
    read_names,
    read_pad_change,
    read_position,
    read_profile,
    read_seed,
    unwrap_position,
)
from ..play.records import state_from_json, state_to_json, transcript
from .session import Session, restore_session
from ..play.share import decode_hash
from ..view.hint import hint_words
from ..view.model import TableModel
from ..view.settings import render_settings
from ..view.table import render_board, render_table

PROTOCOL: Final = 1

NOTICE_BAD_HASH: Final = N_("The game in this link cannot be restored: it is damaged, or it was made by an older version of this site. A fresh deal has started instead.")
NOTICE_RESTORED: Final = N_("The shared game is restored.")
NOTICE_POSITION: Final = N_("The position is on the table. You play {name}.")
# A position whose seats have no names of their own (the reader is "You").
NOTICE_POSITION_YOURS: Final = N_("The position is on the table, and it is your turn.")
# A review's "Play from here": one deal from the move the reader chose.
NOTICE_PRACTICE: Final = N_("A practice deal from the move you chose: it does not count in your match, which waits where you left it.")
NOTICE_NEW: Final = N_("A new match has started.")

# -- the request handler -------------------------------------------------------------

SESSIONS: dict[str, Session] = {}
DEFAULT_TABLE: Final = "dh-table"


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


def _response(session: Session, table_id: str, op: str, events: list[str], *,
              status: str | None = None, notice: str | None = None,
              refusal: IllegalAction | None = None, settings: bool = False) -> dict[str, Any]:
    model = session.model(live=True, table_id=table_id)
    hint = _shown_hint(session, table_id)
    model.hint_on = hint is not None
    deal = session.deal
    lang = session.lang
    refusal_json = None
    if refusal is not None:
        refusal_json = {"code": refusal.code, "text": cards_in_words(refusal.text(lang, session.deal_names(), session.my_deal_seat()), lang)}
    say = status if status is not None else hint if hint is not None else session.status()
    if refusal_json is not None:
        say = refusal_json["text"]
    # The status of a finished deal says again how it ended: those events are said once.
    told = [e for e in events if not (say and e in say)]
    parts = ([notice] if notice else []) + told + ([say] if say else [])
    playback = session.playback if refusal is None else None
    session.playback = None
    out: dict[str, Any] = {
        "ok": True,
        "op": op,
        "table": table_id,
        "lang": lang,
        "html": render_board(model),
        "status": " ".join(parts) if refusal is None else say,
        "prompt": session.status(),
        "events": events,
        "notice": notice,
        "refusal": refusal_json,
        "hash": session.hash(),
        "summary": {
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
            "transcript": transcript(deal) if deal is not None and deal.is_over else None,
        },
    }
    if settings:
        out["settings_html"] = render_settings(model)
    if playback is not None and playback.frames:
        # The bots' moves one at a time: the board before them, then each move's felt.
        # What is said before, during and after: the lead, each move, then the rest.
        said = sum(len(f.texts) for f in playback.frames)
        lead_at = len(playback.lead)
        tail = [e for e in events[lead_at + said:] if not (say and e in say)] if events[:lead_at] == playback.lead else []
        out["playback"] = {
            "html": playback.board,
            "say": " ".join(([notice] if notice else []) + playback.lead),
            "frames": [{"seat": f.seat, "say": " ".join(f.texts), "log": f.texts, "felt": f.felt}
                       for f in playback.frames],
            "end": " ".join(tail + ([say] if say else [])),
        }
    return out


def _error(code: str, text: str, lang: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "text": text}, "lang": lang}


def _settings_from(req: Mapping[str, Any], lang: str) -> Settings:
    profile = read_profile(req.get("profile"), req.get("options"), req.get("players"), lang=lang)
    return Settings(profile, read_difficulty(req.get("difficulty")), read_seed(req.get("seed")))


def _new_session(settings: Settings, lang: str, table_id: str = DEFAULT_TABLE) -> tuple[Session, list[str]]:
    session = Session(settings, lang=lang, table_id=table_id, watching=True)
    return session, session.start()


def _watched(session: Session, table_id: str) -> Session:
    """The session, set to keep a playback of the bots' moves for this answer."""
    session.table_id = table_id
    session.watching = True
    return session


def handle_request(req: Any) -> dict[str, Any]:
    """Serve one decoded request (see the module docstring of :mod:`dhumbal.table.web`)."""
    if not isinstance(req, dict):
        return _error("bad-request", translator("en")(ERROR_BAD_REQUEST), "en")
    table_id = DEFAULT_TABLE
    session = None
    lang = read_lang(req.get("lang"))
    try:
        op = req.get("op")
        table_id = _table_id(req)
        session = SESSIONS.get(table_id)
        if "lang" not in req and session is not None:
            lang = session.lang
        if op == "ping":
            return {"ok": True, "pong": True, "version": _version(), "protocol": PROTOCOL}
        if op == "new":
            HINTS.pop(table_id, None)  # a new game: no hint showing
            REVIEWS.pop(table_id, None)  # and no review of an earlier game's deal
            session, events = _new_session(_settings_from(req, lang), lang, table_id)
            SESSIONS[table_id] = session
            return _response(session, table_id, op, events, settings=True)
        if op == "new-match":
            HINTS.pop(table_id, None)  # a new game: no hint showing
            REVIEWS.pop(table_id, None)  # and no review of an earlier game's deal
            if session is None:
                raise RequestError("no-session", ERROR_NO_SESSION)
            s = session.settings
            fresh = Settings(s.profile, s.difficulty, new_seed())
            session, events = _new_session(fresh, lang, table_id)
            SESSIONS[table_id] = session
            return _response(session, table_id, op, events, notice=translator(lang)(NOTICE_NEW), settings=True)
        if op == "position":
            HINTS.pop(table_id, None)  # a new game: no hint showing
            REVIEWS.pop(table_id, None)  # and no review of an earlier game's deal
            state, given_names = unwrap_position(req.get("state"), req.get("names"))
            deal, profile = read_position(state)
            names = read_names(given_names, deal.players)
            practice = req.get("practice") is True
            settings = Settings(profile, read_difficulty(req.get("difficulty")), deal.seed, state_to_json(deal), names,
                                practice=practice)
            session, events = _new_session(settings, lang, table_id)
            SESSIONS[table_id] = session
            t = translator(lang)
            notice = (t(NOTICE_PRACTICE) if practice
                      else t(NOTICE_POSITION, name=names[session.me]) if names is not None
                      else t(NOTICE_POSITION_YOURS))
            return _response(session, table_id, op, events, notice=notice, settings=True)
        if op == "restore":
            HINTS.pop(table_id, None)  # a new game: no hint showing
            REVIEWS.pop(table_id, None)  # and no review of an earlier game's deal
            text = req.get("hash")
            try:
                if not isinstance(text, str):
                    raise ValueError("no hash")
                session = restore_session(decode_hash(text), lang)
            except Exception:  # noqa: BLE001
                # Whatever a link holds, the reader gets the notice and a fresh
                # deal, never an error the page cannot leave: the link is not
                # the engine's to trust (every field is checked by type and
                # range, but a check that is missing must still end here).
                fallback = req.get("fallback")
                fb: Mapping[str, Any] = fallback if isinstance(fallback, dict) else {}
                session, events = _new_session(_settings_from(fb, lang), lang, table_id)
                SESSIONS[table_id] = session
                out = _response(session, table_id, op, events, notice=translator(lang)(NOTICE_BAD_HASH), settings=True)
                out["restored"] = False  # the page keeps the reader's saved game out of it
                return out
            session.table_id = table_id
            SESSIONS[table_id] = session
            # The reader's own game coming back (Back, Forward, another language) is not news.
            quiet = req.get("own") is True
            out = _response(session, table_id, op, [], settings=True,
                            notice=None if quiet else translator(lang)(NOTICE_RESTORED))
            out["restored"] = True
            return out
        if op == "settings":
            profile = read_profile(req.get("profile"), req.get("options"), lang=lang)
            model = TableModel.for_settings(lang, table_id, profile, read_difficulty(req.get("difficulty")))
            return {"ok": True, "op": op, "table": table_id, "lang": lang, "settings_html": render_settings(model)}
        if op == "bench-bot":
            return _bench(req)
        if op == "scorepad":
            return _scorepad(req, lang)
        if session is None:
            raise RequestError("no-session", ERROR_NO_SESSION)
        if op == "lang":
            session.set_lang(lang)
            return _response(session, table_id, op, [], settings=True)
        if op == "act":
            text = req.get("action")
            if not isinstance(text, str) or len(text) > 200:
                raise RequestError("bad-request", ERROR_BAD_REQUEST)
            try:
                # "throw" with nothing marked: the engine says why (empty-throw, or the phase)
                action = Action("throw") if text.strip().lower() == "throw" else parse_action(text)
                events = _watched(session, table_id).act(action)
            except IllegalAction as exc:
                return _response(session, table_id, op, [], refusal=exc)
            return _response(session, table_id, op, events)
        if op == "next-deal":
            return _response(session, table_id, op, _watched(session, table_id).next_deal())
        if op == "sort":
            session.sort = not session.sort
            return _response(session, table_id, op, [])
        if op == "hint":
            return _hint(session, table_id, lang)
        if op == "review":
            return _review(session, table_id, lang)
        if op == "state":
            return _response(session, table_id, op, [], settings=True)
        raise RequestError("bad-request", ERROR_BAD_REQUEST)
    except RequestError as exc:
        return _error(exc.code, exc.text(lang), lang)


# -- the hint: the reader's call odds, on demand ------------------------------------------

ERROR_NO_HINT: Final = N_("The hint is for your turn.")
#: Per table: the position the hint is showing for and its words (a second
#: press hides it; any move leaves that position, and so hides it too).
HINTS: dict[str, tuple[str, str]] = {}


def _where(session: Session) -> str:
    deal = session.deal
    return f"{len(session.moves)}/{0 if deal is None else len(deal.history)}"


def _shown_hint(session: Session, table_id: str) -> str | None:
    """The hint's words while it shows for the position on the table, else None."""
    entry = HINTS.get(table_id)
    if entry is None:
        return None
    if entry[0] != _where(session):
        del HINTS[table_id]
        return None
    return entry[1]


def _hint(session: Session, table_id: str, lang: str) -> dict[str, Any]:
    """Show (or, pressed again on the same position, hide) the expert's move and, at the start
    of the reader's turn, the reader's call odds; mid-turn, the move that finishes the turn.

    Worked out from the reader's view alone (:func:`dhumbal.view.hint.hint_words`): the
    cards it cannot see are dealt anew from a source seeded by that view, so the words are
    the same every time, on every runtime, whatever the hidden cards are.
    """
    view = session.seat_view()
    if view is None or not session.is_my_turn():
        raise RequestError("no-hint", ERROR_NO_HINT)
    if _shown_hint(session, table_id) is not None:
        del HINTS[table_id]
        return _response(session, table_id, "hint", [], status="")
    deal = session.deal
    assert deal is not None
    HINTS[table_id] = (_where(session), hint_words(deal.profile, view, lang))
    return _response(session, table_id, "hint", [])


# -- the review of a finished deal: the reader's moves beside the expert's ------------------

ERROR_NO_REVIEW: Final = N_("The review is for a deal that is over.")
#: Per table: the deal reviewed last and its steps (the review is worked out once a deal).
REVIEWS: dict[str, tuple[tuple[Any, ...], list[Any]]] = {}


def _deal_start(session: Session) -> Deal:
    """The deal on the table as it was dealt (or laid out, for a position)."""
    deal = session.deal
    assert deal is not None
    if session.settings.start is not None and len(session.match.dealers) == 1:
        start = state_from_json(session.settings.start)
        start.profile = deal.profile
        return start
    return Deal.new(deal.profile, deal.seed, dealer=deal.dealer, players=deal.players)


def _review(session: Session, table_id: str, lang: str) -> dict[str, Any]:
    """The reader's moves of the deal just over, each beside the expert's choice and its cost."""
    from ..trainer.review import ReviewError, review_deal
    from ..view.review import render_review, summary_text

    deal = session.deal
    seat = session.my_deal_seat()
    if deal is None or seat is None or not deal.is_over:
        raise RequestError("no-review", ERROR_NO_REVIEW)
    key = (len(session.moves), str(deal.seed), deal.dealer, tuple((s, a.text()) for s, a in deal.history))
    cached = REVIEWS.get(table_id)
    if cached is not None and cached[0] == key:
        steps = cached[1]
    else:
        try:
            steps = review_deal(_deal_start(session), deal.history, seat)
        except ReviewError:
            raise RequestError("no-review", ERROR_NO_REVIEW) from None
        REVIEWS[table_id] = (key, steps)
    t = translator(lang)
    out = _response(session, table_id, "review", [], status=summary_text(steps, t))
    out["review_html"] = render_review(steps, len(session.moves), t, lang, table_id, session.settings.difficulty)
    return out


# -- the score pad: a match played with real cards, settled here ----------------------------


def _scorepad(req: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Settle a score sheet, with one change when the request has one (op ``scorepad``).

    ``sheet`` is the sheet as the page keeps it (:meth:`dhumbal.matches.scoresheet.Sheet.to_json`;
    a new one from the set-up form has ``setup``: the profile and its options, read as
    the table's settings are). A sheet that cannot be read or settled is an error (the
    page keeps its own); a change that is refused comes back as ``refusal`` (its words,
    its deal and seat) beside the sheet settled without it, so the page shows the
    reason and keeps the sheet as it was."""
    from ..view.padview import ENDED, REMOVED, REOPENED, SETTLED, render_parts
    from ..matches.scoresheet import SheetError, change_sheet, csv_text, read_sheet, settle_sheet
    from ..matches.tally import TallyError

    t = translator(lang)
    setup = req.get("setup")
    profile = None
    if setup is not None:
        if not isinstance(setup, dict):
            raise RequestError("bad-request", ERROR_BAD_REQUEST)
        profile = read_profile(setup.get("profile"), setup.get("options"), lang=lang)
    try:
        sheet = read_sheet(req.get("sheet"), profile)
        settled = settle_sheet(sheet)
    except SheetError as exc:
        return _error("bad-sheet", exc.text(lang), lang)
    except TallyError as exc:
        return _error("bad-sheet", exc.text(lang, sheet.names), lang)
    said = ""
    refusal = None
    if req.get("change") is not None:
        kind, index, entry = read_pad_change(req.get("change"), len(sheet.names))
        try:
            sheet, settled = change_sheet(sheet, kind, index=index, entry=entry)
        except (TallyError, SheetError) as exc:
            deal = exc.deal if isinstance(exc, TallyError) else None
            seat = exc.seat if isinstance(exc, TallyError) else None
            refusal = {"code": exc.code, "text": exc.text(lang, sheet.names), "deal": deal, "seat": seat}
        else:
            if kind in ("add", "edit"):
                number = len(settled.tallies) if kind == "add" else int(index or 0)
                tally = settled.tallies[number - 1]
                said = " ".join([t(SETTLED, number=number)] + [m.text(lang, sheet.names) for m in tally.messages()])
            elif kind == "undo":
                said = t(REMOVED, number=int(index or 0))
            else:
                said = t(ENDED if kind == "end" else REOPENED)
    nxt = settled.next_dealer()
    p = sheet.profile
    return {
        "ok": True, "op": "scorepad", "lang": lang,
        "sheet": sheet.to_json(),
        "parts": render_parts(settled, lang),
        "next": None if nxt is None else {
            "number": len(settled.tallies) + 1, "dealer": nxt, "active": settled.active(),
            "nobody": p.turn_cap is not None, "cap": p.turn_cap,
        },
        "deals": len(settled.tallies),
        "over": settled.over, "overByRules": settled.over_by_rules,
        "names": list(sheet.names),
        "csv": csv_text(settled, lang),
        "said": said,
        "refusal": refusal,
    }


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


# -- build time and benchmarks ------------------------------------------------------


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


def _bench(req: Mapping[str, Any]) -> dict[str, Any]:
    """Time ``moves`` bot decisions and moves on seeded deals (for the runtime's benchmark)."""
    profile = read_profile(req.get("profile"), req.get("options"), req.get("players"))
    difficulty = read_difficulty(req.get("difficulty"))
    seed = read_seed(req.get("seed", 1))
    n = req.get("moves", 200)
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 100_000:
        raise RequestError("bad-request", ERROR_BAD_REQUEST)
    timings: list[float] = []
    deals = 0
    deal = Deal.new(profile, f"{seed}/{deals}")
    started = time.perf_counter()
    while len(timings) < n:
        if deal.is_over:
            deals += 1
            deal = Deal.new(profile, f"{seed}/{deals}", dealer=deals % deal.players)
        t0 = time.perf_counter()
        deal.apply(choose(deal, difficulty))
        timings.append((time.perf_counter() - t0) * 1000.0)
    total = (time.perf_counter() - started) * 1000.0
    ordered = sorted(timings)
    return {
        "ok": True, "op": "bench-bot", "profile": profile.canonical(), "difficulty": difficulty,
        "moves": n, "deals": deals + 1, "timings_ms": [round(x, 4) for x in timings],
        "total_ms": round(total, 3), "mean_ms": round(sum(timings) / n, 4),
        "median_ms": round(ordered[n // 2], 4), "max_ms": round(ordered[-1], 4),
    }
