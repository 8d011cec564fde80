"""The mini table's session API: JSON requests in, rendered HTML and text out.

The page's table script never decides anything about the rules: it sends a
request (a JSON object with an ``op``) and shows what comes back. In the
browser, the worker calls :func:`handle` with the request as a JSON string;
at build time, :func:`prerender` draws the same table into the page. Both go
through :mod:`dhumbal.view`, so the table is drawn by one piece of code.

A session is one table on one page (keyed by the table element's id): a
match under one profile, the reader in one seat against bots. Bots move right
after the reader until it is the reader's turn again. Because the shuffle is
seeded and the bots are deterministic, the whole session is reproduced from
(profile, seed, difficulty, the reader's moves, and for a position its start
state): that is what the shareable URL hash holds (see :func:`encode_hash`).

Every reader-visible string is a msgid here, in :mod:`dhumbal.view`, or an
engine message; nothing is typed in the script.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Final, Mapping, Sequence

from . import cards as C
from . import view
from .bots import DIFFICULTIES, Difficulty, choose
from .deal import Action, Deal, IllegalAction, PositionError, parse_action
from .i18n import LANGUAGES, N_, translator
from .match import Match
from .messages import Message, render, seat_name
from .profiles import OptionSpec, Profile, ProfileError, find_profile, parse_profile

PROTOCOL: Final = 1
HASH_VERSION: Final = 1
HASH_PREFIX: Final = "table="
MAX_REQUEST: Final = 200_000  # characters of one request
MAX_HASH: Final = 16_000  # characters of a URL hash
MAX_MOVES: Final = 1_000  # reader moves in one deal
MAX_DEALS: Final = 60
MAX_NAME: Final = 40
MAX_MONEY_TEXT: Final = 10  # characters of the money per point ("0.05", "1000.25")
LOG_SIZE: Final = 10  # log lines shown
DEFAULT_PROFILE: Final = "nepali-games"
DEFAULT_DIFFICULTY: Final[Difficulty] = "medium"
SEED_MAX: Final = 2**31 - 1

# -- strings --------------------------------------------------------------------

YOU: Final = N_("You")
BOT: Final = N_("Bot {number}")
YOU_NAMED: Final = N_("{name} (you)")
CAUGHT_BY_YOU: Final = N_("{seat} is caught: you hold {low}, not more than {total}.")
DEALT_BY_YOU: Final = N_("You deal {hand_size} cards each; {exposed} is turned face up.")

PROMPT_TAKE_OR_CALL: Final = N_("Your turn: call, or take a card from the stock or the pile.")
PROMPT_TAKE: Final = N_("Your turn: take a card from the stock or the pile.")
PROMPT_THROW_AFTER_TAKE: Final = N_("Now throw: mark one card, or several of one rank, and press Throw.")
PROMPT_THROW_AFTER_TAKE_RUNS: Final = N_("Now throw: mark one card, several of one rank, or a run, and press Throw.")
PROMPT_THROW_OR_CALL: Final = N_("Your turn: call, or mark the cards to throw and press Throw.")
PROMPT_THROW: Final = N_("Your turn: mark the cards to throw and press Throw.")
PROMPT_PICK: Final = N_("Now take one card: from the stock, or one of the previous throw.")
PROMPT_PICK_STOCK: Final = N_("Now take one card from the stock.")
PROMPT_DEAL_OVER: Final = N_("The deal is over. The scores are below.")
PROMPT_MATCH_OVER: Final = N_("The match is over. The final standings are below.")
PROMPT_OUT: Final = N_("You are out of this match; the bots play on. Press Next deal to watch the next deal.")

NOTICE_BAD_HASH: Final = N_("The game in this link cannot be restored: it is damaged, or it was made by an older version of this site. A fresh deal has started instead.")
NOTICE_RESTORED: Final = N_("The shared game is restored.")
NOTICE_POSITION: Final = N_("The example's position is on the table. You play {name}.")
NOTICE_NEW: Final = N_("A new match has started.")

ERROR_BAD_REQUEST: Final = N_("The table received a request it cannot read, so nothing was changed.")
ERROR_NO_SESSION: Final = N_("This table has no game in progress yet. Start a new match.")
ERROR_BAD_POSITION: Final = N_("This position cannot be played: it is not a complete, valid deal.")
ERROR_BAD_PROFILE: Final = N_("There is no rule profile called {name}.")
ERROR_BAD_OPTION: Final = N_("{label}: {value} is not allowed here (allowed: {allowed}).")
ERROR_UNKNOWN_OPTION: Final = N_("These rules have no setting called {name}.")
ERROR_BAD_DIFFICULTY: Final = N_("The bots can be easy, medium or hard, not {value}.")
ERROR_DEAL_NOT_OVER: Final = N_("Finish this deal first.")
ERROR_MATCH_OVER: Final = N_("The match is over: start a new match.")
ERROR_BAD_SEED: Final = N_("A deal number must be a whole number from 0 to {max}.")


class RequestError(Exception):
    """A request that cannot be served: a stable ``code`` and a localized message."""

    def __init__(self, code: str, msgid: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.msgid = msgid
        self.params = params

    def text(self, lang: str) -> str:
        return translator(lang)(self.msgid, **_localize_params(self.params, lang))


# -- the compact move and hash codecs --------------------------------------------

_CARD_CODE = re.compile(r"10[SHDC]|[A2-9JQK][SHDC]|Jk[12]")


def encode_move(action: Action) -> str:
    """``c``, ``s``, ``p`` / ``pKS``, ``tKSKH``: one reader move, ASCII, no separators."""
    if action.kind == "call":
        return "c"
    if action.kind == "take":
        if action.source == "stock":
            return "s"
        return "p" + "".join(C.card_text(c, ascii=True) for c in action.cards)
    return "t" + "".join(C.card_text(c, ascii=True) for c in action.cards)


def _codes(text: str) -> list[C.Card]:
    out: list[C.Card] = []
    pos = 0
    while pos < len(text):
        m = _CARD_CODE.match(text, pos)
        if not m:
            raise ValueError(f"bad card code at {text[pos:]!r}")
        out.append(C.parse_card(m.group(0)))
        pos = m.end()
    return out


def decode_move(code: str) -> Action:
    """The inverse of :func:`encode_move`; ``ValueError`` for anything else."""
    if code == "c":
        return Action.call()
    if code == "s":
        return Action.take_stock()
    if code.startswith("p"):
        cs = _codes(code[1:])
        if len(cs) > 1:
            raise ValueError("a take names at most one card")
        return Action.take_pile(cs[0] if cs else None)
    if code.startswith("t") and len(code) > 1:
        return Action.throw(*_codes(code[1:]))
    raise ValueError(f"not a move: {code!r}")


_STATE_CARD_LISTS: Final = ("stock", "pile", "pending")
_STATE_CARD_LIST_LISTS: Final = ("hands", "known")


def compact_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """A ``Deal.to_json`` state with its cards written as ASCII codes (``KS``), for short URLs."""
    out = dict(state)

    def ascii_text(t: Any) -> Any:
        return C.card_text(C.parse_card(t), ascii=True) if isinstance(t, str) else t

    for key in _STATE_CARD_LISTS:
        if isinstance(out.get(key), list):
            out[key] = "".join(ascii_text(t) for t in out[key])
    for key in _STATE_CARD_LIST_LISTS:
        if isinstance(out.get(key), list):
            out[key] = ["".join(ascii_text(t) for t in h) if isinstance(h, list) else h for h in out[key]]
    if isinstance(out.get("took_from_pile"), str):
        out["took_from_pile"] = ascii_text(out["took_from_pile"])
    return out


def expand_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The inverse of :func:`compact_state` (the result still goes through ``Deal.from_json``)."""
    out = dict(state)

    def cards(v: Any) -> Any:
        return [C.card_text(c) for c in _codes(v)] if isinstance(v, str) else v

    for key in _STATE_CARD_LISTS:
        out[key] = cards(out.get(key))
    for key in _STATE_CARD_LIST_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [cards(h) for h in out[key]]
    return out


def encode_hash(payload: Mapping[str, Any]) -> str:
    """``table=`` + base64url (no padding) of the compact JSON ``payload``."""
    raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return HASH_PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_hash(text: str) -> dict[str, Any]:
    """The JSON object in a ``#table=…`` hash; ``ValueError`` if it is not one."""
    t = text.strip()
    if t.startswith("#"):
        t = t[1:]
    if not t.startswith(HASH_PREFIX):
        raise ValueError("not a table hash")
    body = t[len(HASH_PREFIX):]
    if len(body) > MAX_HASH or not re.fullmatch(r"[A-Za-z0-9_-]*", body):
        raise ValueError("the hash is not base64url")
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        data = json.loads(raw.decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"the hash does not hold JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("the hash does not hold an object")
    return data


# -- settings ---------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """What starts a match: the rules, the bots, the shuffle, and optionally a position."""

    profile: Profile
    difficulty: Difficulty
    seed: int | str
    start: dict[str, Any] | None = None  # a Deal.to_json() position
    names: tuple[str, ...] | None = None  # the position's seat names


def read_profile(text: object, options: object, players: object = None) -> Profile:
    """A profile from its text (key or canonical form) and an options object; ``RequestError`` if not allowed."""
    if text is None:
        text = DEFAULT_PROFILE
    if not isinstance(text, str) or len(text) > 400:
        raise RequestError("bad-profile", ERROR_BAD_PROFILE, name=str(text)[:40])
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
            raise RequestError("bad-profile", ERROR_BAD_PROFILE, name=str(exc.params.get("profile", text))[:40]) from None
        try:
            base: Profile | None = find_profile(text.split("(")[0])
        except ProfileError:
            base = None
        raise _option_error(base, exc) from None
    for key, value in values.items():
        if not isinstance(key, str) or not (value is None or isinstance(value, (str, int, bool))) or isinstance(value, float):
            raise RequestError("bad-request", ERROR_BAD_REQUEST)
        if isinstance(value, str) and len(value.strip()) > 40:
            raise _option_error(profile, _too_long(key, value))
    try:
        profile = profile.with_options(**{k: v for k, v in values.items()})  # type: ignore[arg-type]
    except ProfileError as exc:
        raise _option_error(profile, exc) from None
    for spec in profile.option_specs:
        # A huge amount of money per point ("1e999") is allowed by the option but breaks the money text.
        shown = spec.text(profile.option(spec.key))
        if spec.kind == "money" and len(shown) > MAX_MONEY_TEXT:
            raise _option_error(profile, _too_long(spec.key, shown))
    return profile


def _too_long(key: str, value: str) -> ProfileError:
    return ProfileError("value too long", code="bad-option-value", params={"option": key, "value": value[:12] + "…"})


def _option_error(profile: Profile | None, exc: ProfileError) -> RequestError:
    if exc.code == "unknown-option":
        return RequestError("bad-option", ERROR_UNKNOWN_OPTION, name=str(exc.params.get("option", "")))
    spec: OptionSpec | None = None
    if profile is not None:
        key = str(exc.params.get("option", ""))
        spec = next((s for s in profile.option_specs if s.key == key), None)
    if spec is None:
        return RequestError("bad-option", ERROR_BAD_REQUEST)
    return RequestError(
        "bad-option", ERROR_BAD_OPTION,
        label=_LabelText(spec.label), value=str(exc.params.get("value", ""))[:40],
        allowed=_AllowedText(spec),
    )


class _LabelText:
    """A deferred option label: translated when the error is shown in the reader's language."""

    def __init__(self, msgid: str) -> None:
        self.msgid = msgid

    def __str__(self) -> str:  # pragma: no cover - replaced in RequestError.text
        return self.msgid


class _AllowedText:
    def __init__(self, spec: OptionSpec) -> None:
        self.spec = spec

    def __str__(self) -> str:  # pragma: no cover - replaced in RequestError.text
        return self.spec.allowed_text()


def _localize_params(params: Mapping[str, object], lang: str) -> dict[str, object]:
    from .compare import allowed_text

    t = translator(lang)
    out: dict[str, object] = {}
    for k, v in params.items():
        if isinstance(v, _LabelText):
            out[k] = t(v.msgid)
        elif isinstance(v, _AllowedText):
            out[k] = allowed_text(v.spec, t)
        else:
            out[k] = v
    return out


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
    if isinstance(value, str) and value in LANGUAGES:
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
    """A "play from here" button's data: a ``Deal.to_json`` state, or ``{"state": …, "names": […]}``
    (as the worked examples write it), in either case as JSON text or already decoded."""
    if isinstance(state, str) and len(state) <= MAX_REQUEST:
        try:
            state = json.loads(state)
        except ValueError:
            raise RequestError("bad-position", ERROR_BAD_POSITION) from None
    if isinstance(state, dict) and "format" not in state and "state" in state:
        if names is None:
            names = state.get("names")
        state = state["state"]
    return state, names


def read_position(state: object) -> tuple[Deal, Profile]:
    """A position to play from (``Deal.to_json`` data, or its JSON text)."""
    if isinstance(state, str):
        if len(state) > MAX_REQUEST:
            raise RequestError("bad-position", ERROR_BAD_POSITION)
        try:
            state = json.loads(state)
        except ValueError:
            raise RequestError("bad-position", ERROR_BAD_POSITION) from None
    try:
        deal = Deal.from_json(state)
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


# -- the session ---------------------------------------------------------------------


@dataclass
class Session:
    """One table: a match, the reader's seat, the bots' level, and what has happened."""

    settings: Settings
    lang: str = "en"
    match: Match = field(init=False)
    me: int = 0  # the reader's match seat
    names: list[str] = field(default_factory=list)  # by match seat
    moves: list[list[str]] = field(default_factory=list)  # the reader's moves, per deal
    log: list[str] = field(default_factory=list)  # this deal's events, in the session's language
    messages: list[tuple[Message, bool]] = field(default_factory=list)  # (message, by match seat)
    sort: bool = False

    def __post_init__(self) -> None:
        s = self.settings
        if s.start is not None:
            deal = Deal.from_json(s.start)
            deal.profile = s.profile
            self.match = Match(s.profile, seed=s.seed, first_dealer=deal.dealer)
            self.match.deal = deal
            self.match.seating = list(range(deal.players))
            self.match.dealers = [deal.dealer]
            self.me = deal.turn
            self.moves = [[]]
        else:
            self.match = Match(s.profile, seed=s.seed)
            self.me = 0
        self.names = self._default_names()

    def _default_names(self) -> list[str]:
        n = self.match.players
        t = translator(self.lang)
        given = self.settings.names
        if given is not None and len(given) == n:
            return [t(YOU_NAMED, name=given[i]) if i == self.me else given[i] for i in range(n)]
        names = []
        bot = 0
        for i in range(n):
            if i == self.me:
                names.append(t(YOU))
            else:
                bot += 1
                names.append(t(BOT, number=bot))
        return names

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        self.names = self._default_names()
        self.log = [self._message_text(m, by_match) for m, by_match in self.messages]

    # -- the state ------------------------------------------------------------------

    @property
    def deal(self) -> Deal | None:
        return self.match.deal

    def deal_names(self) -> list[str]:
        return [self.names[m] for m in self.match.seating]

    def my_deal_seat(self) -> int | None:
        if self.me in self.match.seating:
            return self.match.seating.index(self.me)
        return None

    def is_my_turn(self) -> bool:
        d = self.deal
        return d is not None and not d.is_over and d.turn == self.my_deal_seat()

    # -- events ---------------------------------------------------------------------

    def _message_text(self, m: Message, by_match_seat: bool) -> str:
        if by_match_seat:
            return m.text(self.lang, self.names, self.me)
        names = self.deal_names()
        viewer = self.my_deal_seat()
        if m.code == "caught" and viewer is not None and m.params.get("catcher") == viewer and m.params.get("seat") != viewer:
            params = dict(m.params)
            params["seat"] = seat_name(int(str(m.params["seat"])), names, self.lang)
            return translator(self.lang)(CAUGHT_BY_YOU, seat=params["seat"], low=params["low"], total=params["total"])
        if m.code == "dealt" and viewer is not None and m.params.get("dealer") == viewer:
            return translator(self.lang)(DEALT_BY_YOU, hand_size=m.params["hand_size"], exposed=m.params["exposed"])
        return m.text(self.lang, names, viewer)

    def _record(self, events: Sequence[Message], *, by_match_seat: bool = False) -> list[str]:
        texts = []
        for m in events:
            self.messages.append((m, by_match_seat))
            text = self._message_text(m, by_match_seat)
            self.log.append(text)
            texts.append(text)
        return texts

    # -- playing --------------------------------------------------------------------

    def start(self) -> list[str]:
        """Deal the first deal (or lay out the position) and let bots play up to the reader."""
        if self.settings.start is None:
            return self._start_deal()
        return self._bots()

    def _start_deal(self) -> list[str]:
        deal = self.match.start_deal()
        self.moves.append([])
        self.messages = []
        self.log = []
        exposed = deal.pile_top
        texts = self._record([Message("dealt", {
            "dealer": deal.dealer, "hand_size": deal.profile.hand_size,
            "exposed": "" if exposed is None else C.card_text(exposed),
        })])
        return texts + self._bots()

    def _bots(self) -> list[str]:
        """Bot moves until it is the reader's turn or the deal is over (then it is booked)."""
        deal = self.deal
        assert deal is not None
        texts: list[str] = []
        me = self.my_deal_seat()
        guard = 0
        while not deal.is_over and deal.turn != me:
            guard += 1
            if guard > 50_000:  # pragma: no cover - bots always finish (PROFILES ruling 5)
                raise RuntimeError("the bots did not finish the deal")
            texts += self._record(deal.apply(choose(deal, self.settings.difficulty)))
        if deal.is_over and len(self.match.deals) < len(self.match.dealers):
            texts += self._record(self.match.finish_deal(), by_match_seat=True)
        return texts

    def act(self, action: Action) -> list[str]:
        """The reader's action, then the bots'; ``IllegalAction`` if refused (nothing changes)."""
        deal = self.deal
        me = self.my_deal_seat()
        if deal is None or me is None:
            raise IllegalAction("deal-over")
        if len(self.moves[-1]) >= MAX_MOVES:
            raise IllegalAction("deal-over")
        events = deal.apply(action, seat=me)
        self.moves[-1].append(encode_move(action))
        return self._record(events) + self._bots()

    def next_deal(self) -> list[str]:
        deal = self.deal
        if deal is not None and not deal.is_over:
            raise RequestError("deal-not-over", ERROR_DEAL_NOT_OVER)
        if self.match.is_over() or len(self.moves) >= MAX_DEALS:
            raise RequestError("match-over", ERROR_MATCH_OVER)
        return self._start_deal()

    def match_over(self) -> bool:
        return self.deal is not None and self.deal.is_over and (self.match.is_over() or len(self.moves) >= MAX_DEALS)

    # -- sharing --------------------------------------------------------------------

    def hash_payload(self) -> dict[str, Any]:
        s = self.settings
        payload: dict[str, Any] = {
            "v": HASH_VERSION,
            "p": s.profile.canonical(),
            "s": s.seed,
            "d": s.difficulty,
            "n": len(self.moves),
            "m": [",".join(m) for m in self.moves],
        }
        if s.start is not None:
            payload["x"] = compact_state(s.start)
            if s.names is not None:
                payload["nm"] = list(s.names)
        if self.sort:
            payload["o"] = 1
        return payload

    def hash(self) -> str:
        return encode_hash(self.hash_payload())

    def status(self) -> str:
        """What the reader should do now (or how things stand)."""
        t = translator(self.lang)
        deal = self.deal
        if deal is None:
            return ""
        if deal.is_over:
            return t(PROMPT_MATCH_OVER) if self.match_over() else t(PROMPT_DEAL_OVER)
        if self.my_deal_seat() is None:
            return t(PROMPT_OUT)
        p = deal.profile
        can_call = deal.phase == "start" and deal.is_legal(Action.call())
        if p.draw_first:
            if deal.phase == "start":
                return t(PROMPT_TAKE_OR_CALL) if can_call else t(PROMPT_TAKE)
            return t(PROMPT_THROW_AFTER_TAKE_RUNS) if p.runs else t(PROMPT_THROW_AFTER_TAKE)
        if deal.phase == "start":
            return t(PROMPT_THROW_OR_CALL) if can_call else t(PROMPT_THROW)
        picks = [a for a in deal.legal_actions() if a.kind == "take" and a.source == "pile"]
        return t(PROMPT_PICK) if picks else t(PROMPT_PICK_STOCK)

    def model(self, *, live: bool, table_id: str) -> view.TableModel:
        return view.TableModel(
            lang=self.lang,
            table_id=table_id,
            profile=self.settings.profile,
            difficulty=self.settings.difficulty,
            names=list(self.names),
            me=self.me,
            match=self.match,
            log=self.log[-LOG_SIZE:],
            sort=self.sort,
            live=live,
            deal_number=len(self.moves),
            match_over=self.match_over(),
            position=self.settings.start is not None,
        )


def replay_session(payload: Mapping[str, Any], lang: str) -> Session:
    """Rebuild a session from a decoded hash; ``ValueError`` for anything that does not replay exactly."""
    if payload.get("v") != HASH_VERSION:
        raise ValueError(f"hash version {payload.get('v')!r}, expected {HASH_VERSION}")
    try:
        profile = read_profile(payload.get("p"), {})
        difficulty = read_difficulty(payload.get("d"))
        seed_raw = payload.get("s")
        if seed_raw is None:
            raise ValueError("the hash has no seed")
        seed = read_seed(seed_raw)
    except RequestError as exc:
        raise ValueError(f"bad hash field: {exc.code}") from None
    moves = payload.get("m")
    if not isinstance(moves, list) or not moves or len(moves) > MAX_DEALS or not all(isinstance(m, str) for m in moves):
        raise ValueError("the hash's moves are not a list of texts")
    if payload.get("n") != len(moves):
        raise ValueError("the hash's deal number does not match its moves")
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
        start = deal.to_json()
    session = Session(Settings(profile, difficulty, seed, start, names), lang=lang)
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
    return session


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
    deal = session.deal
    lang = session.lang
    refusal_json = None
    if refusal is not None:
        refusal_json = {"code": refusal.code, "text": refusal.text(lang, session.deal_names())}
    say = status if status is not None else session.status()
    if refusal_json is not None:
        say = refusal_json["text"]
    parts = ([notice] if notice else []) + events + ([say] if say else [])
    out: dict[str, Any] = {
        "ok": True,
        "op": op,
        "table": table_id,
        "lang": lang,
        "html": view.render_board(model),
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
            "transcript": None if deal is None else deal.transcript(),
        },
    }
    if settings:
        out["settings_html"] = view.render_settings(model)
    return out


def _error(code: str, text: str, lang: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "text": text}, "lang": lang}


def _settings_from(req: Mapping[str, Any]) -> Settings:
    profile = read_profile(req.get("profile"), req.get("options"), req.get("players"))
    return Settings(profile, read_difficulty(req.get("difficulty")), read_seed(req.get("seed")))


def _new_session(settings: Settings, lang: str) -> tuple[Session, list[str]]:
    session = Session(settings, lang=lang)
    return session, session.start()


def handle_request(req: Any) -> dict[str, Any]:
    """Serve one decoded request (see the module docstring of :mod:`dhumbal.web`)."""
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
            session, events = _new_session(_settings_from(req), lang)
            SESSIONS[table_id] = session
            return _response(session, table_id, op, events, settings=True)
        if op == "new-match":
            if session is None:
                raise RequestError("no-session", ERROR_NO_SESSION)
            s = session.settings
            fresh = Settings(s.profile, s.difficulty, new_seed())
            session, events = _new_session(fresh, lang)
            SESSIONS[table_id] = session
            return _response(session, table_id, op, events, notice=translator(lang)(NOTICE_NEW), settings=True)
        if op == "position":
            state, given_names = unwrap_position(req.get("state"), req.get("names"))
            deal, profile = read_position(state)
            names = read_names(given_names, deal.players)
            settings = Settings(profile, read_difficulty(req.get("difficulty")), deal.seed, deal.to_json(), names)
            session, events = _new_session(settings, lang)
            SESSIONS[table_id] = session
            own = names[session.me] if names is not None else session.names[session.me]
            notice = translator(lang)(NOTICE_POSITION, name=own)
            return _response(session, table_id, op, events, notice=notice, settings=True)
        if op == "restore":
            text = req.get("hash")
            try:
                if not isinstance(text, str):
                    raise ValueError("no hash")
                session = replay_session(decode_hash(text), lang)
            except (ValueError, TypeError, KeyError, IllegalAction, PositionError, ProfileError, RequestError):
                fallback = req.get("fallback")
                fb: Mapping[str, Any] = fallback if isinstance(fallback, dict) else {}
                session, events = _new_session(_settings_from(fb), lang)
                SESSIONS[table_id] = session
                return _response(session, table_id, op, events, notice=translator(lang)(NOTICE_BAD_HASH), settings=True)
            SESSIONS[table_id] = session
            return _response(session, table_id, op, [], notice=translator(lang)(NOTICE_RESTORED), settings=True)
        if op == "settings":
            profile = read_profile(req.get("profile"), req.get("options"))
            model = view.TableModel.for_settings(lang, table_id, profile, read_difficulty(req.get("difficulty")))
            return {"ok": True, "op": op, "table": table_id, "lang": lang, "settings_html": view.render_settings(model)}
        if op == "bench-bot":
            return _bench(req)
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
                events = session.act(action)
            except IllegalAction as exc:
                return _response(session, table_id, op, [], refusal=exc)
            return _response(session, table_id, op, events)
        if op == "next-deal":
            return _response(session, table_id, op, session.next_deal())
        if op == "sort":
            session.sort = not session.sort
            return _response(session, table_id, op, [])
        if op == "state":
            return _response(session, table_id, op, [], settings=True)
        raise RequestError("bad-request", ERROR_BAD_REQUEST)
    except RequestError as exc:
        return _error(exc.code, exc.text(lang), lang)


ERROR_INTERNAL: Final = N_("The game engine could not answer that request. Start a new match if the table looks wrong.")


def handle(request_json: str) -> str:
    """The worker's entry point: a JSON request string in, a JSON response string out."""
    lang = "en"
    try:
        if not isinstance(request_json, str) or len(request_json) > MAX_REQUEST:
            raise ValueError("request too large")
        req = json.loads(request_json)
        if isinstance(req, dict):
            lang = read_lang(req.get("lang"))
        result = handle_request(req)
    except ValueError:
        result = _error("bad-request", translator(lang)(ERROR_BAD_REQUEST), lang)
    except Exception:  # a bug must not take the worker down: say so, in words
        result = _error("internal", translator(lang)(ERROR_INTERNAL), lang)
    return json.dumps(result, ensure_ascii=False)


# -- build time and benchmarks ------------------------------------------------------


def prerender(*, lang: str, profile: Profile, seed: int | str, difficulty: Difficulty = DEFAULT_DIFFICULTY,
              table_id: str = DEFAULT_TABLE, start: dict[str, Any] | None = None,
              names: Sequence[str] | None = None, attrs: Mapping[str, str] | None = None) -> str:
    """The whole table element, as the page shows it before the engine is loaded.

    The board is the same HTML the worker sends once the reader plays (with
    its controls inert), so nothing moves when the engine takes over.
    """
    if start is not None:
        deal, profile = read_position(start)
        settings = Settings(profile, difficulty, deal.seed, deal.to_json(), read_names(list(names) if names else None, deal.players))
    else:
        settings = Settings(profile, difficulty, seed)
    session = Session(settings, lang=lang)
    session.start()
    model = session.model(live=False, table_id=table_id)
    return view.render_table(model, status=session.status(), attrs=attrs or {})


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
