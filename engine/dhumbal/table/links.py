"""The ``#table=`` link of a table's game: written from a session, and a session restored from one.

A session is reproduced exactly from (profile, seed, difficulty, every action
of every deal and, for a position, its start state): :func:`link_payload`
writes that (:mod:`dhumbal.play.share` packs it into the link), and
:func:`restore_session` reads it back. Every action of every deal, the bots'
and the reader's, is kept as link symbols (:func:`dhumbal.play.share.action_code`),
so a link restores by applying each action once through the engine's checks,
without asking a bot to decide anything (a legal link costs one checked
action per action it holds, bounded by :data:`MAX_LINK_ACTIONS`). A link of
the first version holds only the reader's moves and replays the bots; that
work is counted (:data:`BOT_BUDGET`, an expert decision weighing
:data:`dhumbal.table.session.EXPERT_WEIGHT`) and a link that would cost more
is refused (:class:`dhumbal.table.session.LinkTooCostly`).

Every field a link holds is checked by type and range; anything that does
not restore exactly is a ``ValueError`` (or the engine's refusal).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..play.records import state_to_json
from ..play.share import ACTIONS_CHARS, HASH_VERSION, compact_state, decode_move, encode_hash, expand_state, read_actions
from .protocol import RequestError, Settings, read_difficulty, read_names, read_position, read_profile, read_seed
from .session import MAX_DEALS, MAX_MOVES, LinkTooCostly, Session

__all__ = ["BOT_BUDGET", "MAX_LINK_ACTIONS", "LinkTooCostly", "link_of", "link_payload", "replay_session", "restore_session"]

#: The most actions (symbols) one link may hold over all its deals: restoring
#: applies each once, a few tens of microseconds in CPython.
MAX_LINK_ACTIONS: Final = 60_000
#: What replaying a first-version link may cost, in bot decisions: each easy,
#: medium or hard decision counts 1, an expert decision (a search over
#: sampled deals, a hundred times a medium one's work) EXPERT_WEIGHT.
BOT_BUDGET: Final = 4_000


def link_payload(session: Session) -> dict[str, Any]:
    """The link's data: the settings and every action of every deal."""
    s = session.settings
    payload: dict[str, Any] = {
        "v": HASH_VERSION,
        "p": s.profile.canonical(),
        "s": s.seed,
        "d": s.difficulty,
        "n": len(session.actions),
        "a": list(session.actions),
    }
    if s.start is not None:
        payload["x"] = compact_state(s.start)
        if s.names is not None:
            payload["nm"] = list(s.names)
        if s.practice:
            payload["pr"] = 1
    if session.sort:
        payload["o"] = 1
    return payload


def link_of(session: Session) -> str:
    """The ``table=…`` link of the session's game (without ``#``)."""
    return encode_hash(link_payload(session))


def _link_settings(payload: Mapping[str, Any]) -> Settings:
    """The settings a link names, each field checked by type and range (``ValueError``)."""
    try:
        profile = read_profile(payload.get("p"), {})
        difficulty = read_difficulty(payload.get("d"))
        seed_raw = payload.get("s")
        if seed_raw is None:
            raise ValueError("the hash has no seed")
        seed = read_seed(seed_raw)
    except RequestError as exc:
        raise ValueError(f"bad hash field: {exc.code}") from None
    start: dict[str, Any] | None = None
    names: tuple[str, ...] | None = None
    if "x" in payload:
        x = payload["x"]
        if not isinstance(x, dict):
            raise ValueError("the hash's position is not an object")
        try:
            deal, profile2 = read_position(expand_state(x))
            names = read_names(payload.get("nm"), deal.players)
        except (RequestError, ValueError, TypeError) as exc:
            raise ValueError(f"bad position in the hash: {exc}") from None
        if profile2.canonical() != profile.canonical():
            raise ValueError("the hash's profile and position disagree")
        # The engine writes the position's own seed as the link's, as it is (a text
        # of digits stays a text): the match's later deals follow from it.
        if type(seed_raw) is not type(deal.seed) or seed_raw != deal.seed:
            raise ValueError("the hash's seed and position disagree")
        seed = deal.seed
        start = state_to_json(deal)
    elif "nm" in payload or "pr" in payload:
        raise ValueError("the hash names seats or a practice deal without a position")
    sort = payload.get("o", 0)
    if sort not in (0, 1) or isinstance(sort, bool):
        raise ValueError("the hash's sort flag is neither 0 nor 1")
    practice = payload.get("pr", 0)
    if practice not in (0, 1) or isinstance(practice, bool):
        raise ValueError("the hash's practice flag is neither 0 nor 1")
    return Settings(profile, difficulty, seed, start, names, practice=practice == 1)


def restore_session(payload: Mapping[str, Any], lang: str) -> Session:
    """Rebuild a session from a decoded link of any version; ``ValueError`` (or the
    engine's refusal) for anything that does not restore exactly or would cost more
    than a link may."""
    version = payload.get("v")
    if version in (2, HASH_VERSION) and not isinstance(version, bool):
        return _restore_actions(payload, lang)
    if version == 1 and not isinstance(version, bool):
        return replay_session(payload, lang)
    raise ValueError(f"hash version {version!r}, expected 1, 2 or {HASH_VERSION}")


def _restore_actions(payload: Mapping[str, Any], lang: str) -> Session:
    """A version-2 or 3 link: every action of every deal applied once, through the engine's checks."""
    unknown = set(payload) - {"v", "p", "s", "d", "n", "a", "x", "nm", "o", "pr"}
    if unknown:
        raise ValueError(f"the hash has unknown fields: {sorted(unknown)[:3]}")
    settings = _link_settings(payload)
    deals = payload.get("a")
    if (not isinstance(deals, list) or not 1 <= len(deals) <= MAX_DEALS
            or not all(isinstance(d, str) and set(d) <= ACTIONS_CHARS for d in deals)):
        raise ValueError("the hash's actions are not a list of action texts")
    if sum(len(d) for d in deals) > MAX_LINK_ACTIONS:
        raise ValueError(f"the hash holds more than {MAX_LINK_ACTIONS} actions")
    if payload.get("n") != len(deals) or isinstance(payload.get("n"), bool):
        raise ValueError("the hash's deal number does not match its actions")
    session = Session(settings, lang=lang)
    session.sort = payload.get("o") == 1
    for k, codes in enumerate(deals):
        if k == 0:
            session.start(bots=False)
        else:
            try:
                session.next_deal(bots=False)
            except RequestError as exc:
                raise ValueError(f"deal {k + 1} of the hash cannot start: {exc.code}") from None
        deal = session.deal
        assert deal is not None
        for action in read_actions(deal, codes):
            session.replay_action(action)
    deal = session.deal
    assert deal is not None
    # A link the engine writes ends where the table waits for the reader: at the
    # reader's turn, or at the end of a deal. Anything else would ask the bots.
    if not deal.is_over and not session.is_my_turn():
        raise ValueError("the hash stops where a bot is to play")
    session.set_lang(lang)  # the log of the deal on the table, in words
    return session


def replay_session(payload: Mapping[str, Any], lang: str, *, bounded: bool = True) -> Session:
    """Rebuild a session from a first-version link (the reader's moves; the bots replay
    theirs, within :data:`BOT_BUDGET` unless ``bounded`` is false); ``ValueError`` for
    anything that does not replay exactly, :class:`LinkTooCostly` for a replay that
    would cost more."""
    if payload.get("v") != 1:
        raise ValueError(f"hash version {payload.get('v')!r}, expected 1")
    settings = _link_settings(payload)
    moves = payload.get("m")
    if not isinstance(moves, list) or not moves or len(moves) > MAX_DEALS or not all(isinstance(m, str) for m in moves):
        raise ValueError("the hash's moves are not a list of texts")
    if payload.get("n") != len(moves) or isinstance(payload.get("n"), bool):
        raise ValueError("the hash's deal number does not match its moves")
    session = Session(settings, lang=lang, bot_budget=BOT_BUDGET if bounded else None)
    session.sort = payload.get("o") == 1
    session.start()
    for k, text in enumerate(moves):
        if k > 0:
            session.next_deal()
        codes = [c for c in text.split(",") if c] if text else []
        if len(codes) > MAX_MOVES:
            raise ValueError("too many moves in one deal")
        for code in codes:
            if not session.is_my_turn():
                raise ValueError("a move where it is not the reader's turn")
            session.act(decode_move(code))
    session.bot_budget = None
    return session
