"""Reading the table's requests: settings, seeds, names and positions, checked and bounded.

Every field a page (or a link) sends passes through a ``read_*`` function
here, which returns a clean value or raises :class:`RequestError` with a
stable code and a localized message. Nothing here plays; :mod:`dhumbal.table.session`
and :mod:`dhumbal.table.web` use what it returns.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..bots.botlevels import DIFFICULTIES, Difficulty
from ..core import boundedjson
from ..core.errors import Refusal
from ..core.i18n import N_, available_languages, read_decimal
from ..core.profiles import Profile, ProfileError, find_profile, parse_profile
from ..matches.scoresheet import CHANGES, Entry, SheetError, read_entry
from ..play.deal import Deal, IllegalAction, PositionError
from ..play.records import state_from_json

MAX_REQUEST: Final = 200_000  # characters of one request
MAX_NAME: Final = 40
MAX_MONEY_TEXT: Final = 10  # characters of the money per point ("0.05", "1000.25")
DEFAULT_PROFILE: Final = "nepali-games"
DEFAULT_DIFFICULTY: Final[Difficulty] = "medium"
SEED_MAX: Final = 2**31 - 1

ERROR_BAD_REQUEST: Final = N_("The table received a request it cannot read, so nothing was changed.")
ERROR_NO_SESSION: Final = N_("This table has no game in progress yet. Start a new match.")
ERROR_BAD_POSITION: Final = N_("This position cannot be played: it is not a complete, valid deal.")
ERROR_BAD_DIFFICULTY: Final = N_("The bots can be easy, medium, hard or expert, not {value}.")
ERROR_DEAL_NOT_OVER: Final = N_("Finish this deal first.")
ERROR_MATCH_OVER: Final = N_("The match is over: start a new match.")
ERROR_BAD_SEED: Final = N_("A deal number must be a whole number from 0 to {max}.")


class RequestError(Refusal):
    """A request that cannot be served: a stable ``code`` and a localized message, the
    sentence ``msgid``, or (``cause``) the engine refusal it stands for, told as that says."""

    def __init__(self, code: str, msgid: str = "", *, cause: Refusal | None = None, **params: object) -> None:
        super().__init__(code, **params)
        self.msgid = msgid
        self.cause = cause

    def template(self) -> str:
        return self.msgid

    def text(self, lang: str = "en", names: Sequence[str] | None = None, viewer: int | None = None) -> str:
        if self.cause is not None:
            return self.cause.text(lang, names, viewer)
        return super().text(lang, names, viewer)


# -- settings ---------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """What starts a match: the rules, the bots, the shuffle, and optionally a position."""

    profile: Profile
    difficulty: Difficulty
    seed: int | str
    start: dict[str, Any] | None = None  # a position, as records.state_to_json writes it
    names: tuple[str, ...] | None = None  # the position's seat names
    #: A practice deal (a review's "Play from here"): the position's one deal,
    #: apart from the reader's match, and over when that deal is.
    practice: bool = False


def read_profile(text: object, options: object, players: object = None, *, lang: str = "en") -> Profile:
    """A profile from its text (key or canonical form) and an options object; ``RequestError`` if not allowed.

    Amounts are read as a reader of ``lang`` types them (``0,05`` in French).
    """
    if text is None:
        text = DEFAULT_PROFILE
    if not isinstance(text, str) or len(text) > 400:
        raise RequestError("bad-profile", cause=ProfileError("not a profile's text", code="unknown-profile",
                                                            params={"profile": str(text)[:40]}))
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RequestError("bad-request", ERROR_BAD_REQUEST)
    values: dict[str, object] = dict(options)
    if players is not None:
        values["players"] = players
    try:
        profile = parse_profile(text)
    except ProfileError as exc:
        if exc.code == "unknown-profile":
            raise RequestError("bad-profile", cause=exc) from None
        try:
            base: Profile | None = find_profile(text.split("(")[0])
        except ProfileError:
            base = None
        raise _option_error(base, exc) from None
    for key, value in values.items():
        if not isinstance(key, str) or not (value is None or isinstance(value, (str, int, bool))) or isinstance(value, float):
            raise RequestError("bad-request", ERROR_BAD_REQUEST)
        if isinstance(value, str) and len(value.strip()) > 40:
            raise _option_error(profile, _too_long(profile, key, value))
    for spec in profile.option_specs:
        if spec.kind == "money" and isinstance(values.get(spec.key), str):
            values[spec.key] = read_decimal(str(values[spec.key]), lang)
    try:
        profile = profile.with_options(**{k: v for k, v in values.items()})  # type: ignore[arg-type]
    except ProfileError as exc:
        raise _option_error(profile, exc) from None
    for spec in profile.option_specs:
        # A huge amount of money per point ("1e999") is allowed by the option but breaks the money text.
        shown = spec.text(profile.option(spec.key))
        if spec.kind == "money" and len(shown) > MAX_MONEY_TEXT:
            raise _option_error(profile, _too_long(profile, spec.key, shown))
    return profile


def _too_long(profile: Profile, key: str, value: str) -> ProfileError:
    return ProfileError("value too long", code="bad-option-value",
                        params={"profile": profile.key, "option": key, "value": value[:12] + "…"})


def _option_error(profile: Profile | None, exc: ProfileError) -> RequestError:
    """A house rule refused, told as the profiles tell it; an option that is not one of the
    profile's (or no profile to look in) is a request the table cannot read."""
    if exc.code == "unknown-option":
        return RequestError("bad-option", cause=exc)
    key = str(exc.params.get("option", ""))
    if profile is None or not any(s.key == key for s in profile.option_specs):
        return RequestError("bad-option", ERROR_BAD_REQUEST)
    return RequestError("bad-option", cause=ProfileError(str(exc), code=exc.code, params={**exc.params, "profile": profile.key}))


def read_difficulty(value: object) -> Difficulty:
    if value is None:
        return DEFAULT_DIFFICULTY
    for d in DIFFICULTIES:
        if value == d:
            return d
    raise RequestError("bad-difficulty", ERROR_BAD_DIFFICULTY, value=str(value)[:20])


def read_seed(value: object) -> int | str:
    if value is None:
        return new_seed()
    if isinstance(value, bool):
        raise RequestError("bad-seed", ERROR_BAD_SEED, max=SEED_MAX)
    if isinstance(value, int):
        if 0 <= value <= SEED_MAX:
            return value
        raise RequestError("bad-seed", ERROR_BAD_SEED, max=SEED_MAX)
    if isinstance(value, str) and re.fullmatch(r"\d{1,10}", value.strip()):
        return read_seed(int(value.strip()))
    if isinstance(value, str) and 0 < len(value) <= 80 and value.isprintable():
        return value  # a position's own seed (an example id)
    raise RequestError("bad-seed", ERROR_BAD_SEED, max=SEED_MAX)


def new_seed() -> int:
    return secrets.randbelow(SEED_MAX) + 1


def read_lang(value: object, default: str = "en") -> str:
    """A language the engine has a catalog for (any that ships, see ``available_languages``), else ``default``."""
    if isinstance(value, str) and value in available_languages():
        return value
    return default


def read_names(value: object, n: int) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != n:
        raise RequestError("bad-position", ERROR_BAD_POSITION)
    names = []
    for v in value:
        if not isinstance(v, str) or not v.strip() or len(v) > MAX_NAME or not v.isprintable():
            raise RequestError("bad-position", ERROR_BAD_POSITION)
        names.append(v.strip())
    if len(set(names)) != len(names):
        raise RequestError("bad-position", ERROR_BAD_POSITION)
    return tuple(names)


def unwrap_position(state: object, names: object) -> tuple[object, object]:
    """A "play from here" button's data: a ``records.state_to_json`` state, or ``{"state": …, "names": […]}``
    (as the worked examples write it), in either case as JSON text or already decoded."""
    if isinstance(state, str):
        try:
            state = boundedjson.loads(state, max_chars=MAX_REQUEST)
        except ValueError:
            raise RequestError("bad-position", ERROR_BAD_POSITION) from None
    if isinstance(state, dict) and "format" not in state and "state" in state:
        if names is None:
            names = state.get("names")
        state = state["state"]
    return state, names


def read_position(state: object) -> tuple[Deal, Profile]:
    """A position to play from (``records.state_to_json`` data, or its JSON text)."""
    if isinstance(state, str):
        try:
            state = boundedjson.loads(state, max_chars=MAX_REQUEST)
        except ValueError:
            raise RequestError("bad-position", ERROR_BAD_POSITION) from None
    try:
        deal = state_from_json(state)
    except (PositionError, ProfileError, IllegalAction, ValueError, TypeError, KeyError):
        raise RequestError("bad-position", ERROR_BAD_POSITION) from None
    if deal.is_over:
        raise RequestError("bad-position", ERROR_BAD_POSITION)
    profile = deal.profile
    if profile.players != deal.players:
        try:
            profile = profile.with_options(players=deal.players)
        except ProfileError:
            raise RequestError("bad-position", ERROR_BAD_POSITION) from None
        deal.profile = profile
    return deal, profile


# -- the score pad ---------------------------------------------------------------------

ERROR_BAD_CHANGE: Final = N_("The score pad sent a change it cannot read, so the sheet is unchanged.")


def read_pad_change(value: object, players: int) -> tuple[str, int | None, Entry | None]:
    """A change to a score sheet: ``{"kind": add|edit|undo|end|reopen, "index": deal (from 1),
    "c": caller or null, "h": [total or null, …]}``; the entry is read by
    :func:`dhumbal.matches.scoresheet.read_entry` (one total per player, each of at most three digits)."""
    if not isinstance(value, dict):
        raise RequestError("bad-change", ERROR_BAD_CHANGE)
    kind = value.get("kind")
    if kind not in CHANGES:
        raise RequestError("bad-change", ERROR_BAD_CHANGE)
    index = value.get("index")
    if index is not None and (isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= 10_000):
        raise RequestError("bad-change", ERROR_BAD_CHANGE)
    entry = None
    if kind in ("add", "edit"):
        try:
            entry = read_entry({k: v for k, v in value.items() if k in ("c", "h")}, players)
        except SheetError:
            raise RequestError("bad-change", ERROR_BAD_CHANGE) from None
    return str(kind), index, entry
