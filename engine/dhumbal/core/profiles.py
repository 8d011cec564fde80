"""The rule profiles as frozen data, and their house-rule options.

Every dimension of the project's profile table is a field here, so the
comparison page, the deal engine and the bots read the same values. A profile
with options is a new frozen ``Profile`` (``with_options``), written in a
canonical text form such as ``nepali-games(runs=on,jokers=on)``.

Each profile is one record (:class:`ProfileRecord`, in :data:`RECORDS`): its
key, names and aliases, its house rules, how its rules follow from them, how
the expert bot is tuned for it (:class:`BotTuning`) and what its generated
puzzles are called (:class:`PuzzleSettings`). Every part is required, so a
profile added without its tuning fails at import, not with silent defaults.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import Final, Literal

from .errors import Refusal
from .i18n import N_, Translator, number, translator

TurnOrder = Literal["draw-first", "throw-first"]
TakeRule = Literal["pile-top", "offer-any-or-run-end", "single-only"]
Settlement = Literal["collect", "pay-caller", "cumulative"]
TieOrder = Literal["dealer-left", "after-caller", "caller-only"]

OptionValue = int | bool | str | None


ERROR_BAD_PROFILE: Final = N_("There is no rule profile called {name}.")
ERROR_BAD_OPTION: Final = N_("{label}: {value} is not allowed here (allowed: {allowed}).")
ERROR_UNKNOWN_OPTION: Final = N_("These rules have no setting called {name}.")


class ProfileError(Refusal):
    """An unknown profile or option, or a value outside the allowed ones: ``str()`` is an
    English sentence for a developer, :meth:`text` the reader's (``params`` name the profile,
    the option, the value)."""

    def __init__(self, message: str, *, code: str, params: Mapping[str, object]) -> None:
        super().__init__(code, **params)
        self.message = message

    def __str__(self) -> str:
        return self.message

    def template(self) -> str:
        if self.code == "unknown-option":
            return ERROR_UNKNOWN_OPTION
        return ERROR_BAD_OPTION if self._spec() is not None else ERROR_BAD_PROFILE

    def _spec(self) -> OptionSpec | None:
        """The option a bad value was given for, when the error names both it and its profile."""
        record = RECORDS.get(str(self.params.get("profile", "")))
        if self.code != "bad-option-value" or record is None:
            return None
        return next((s for s in record.specs if s.key == self.params.get("option")), None)

    def shown_params(self, lang: str, names: Sequence[str] | None) -> Mapping[str, object]:
        t = translator(lang)
        spec = self._spec()
        if self.code == "unknown-option":
            return {"name": str(self.params.get("option", ""))}
        if spec is not None:
            return {"label": t(spec.label), "value": str(self.params.get("value", ""))[:40], "allowed": spec.allowed_words(t)}
        return {"name": str(self.params.get("profile", self.params.get("text", "")))[:40]}


@dataclass(frozen=True)
class OptionSpec:
    """One house rule: its key, default, allowed values and what it changes."""

    key: str
    default: OptionValue
    kind: Literal["int", "bool", "choice", "money", "int-or-none"]
    label: str  # msgid
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0

    def allowed_text(self) -> str:
        if self.kind == "bool":
            return "on, off"
        if self.kind == "choice":
            return ", ".join(self.choices)
        if self.kind == "money":
            return "a decimal amount from 0 to 1000000, e.g. 0.05"
        if self.kind == "int-or-none":
            return f"none, or {self.low}–{self.high}"
        return f"{self.low}–{self.high}"

    def parse(self, text: str | OptionValue, profile: str) -> OptionValue:
        def bad() -> ProfileError:
            return ProfileError(
                f"option {self.key}={text!r} of profile {profile} is not allowed; allowed: {self.allowed_text()}",
                code="bad-option-value",
                params={"profile": profile, "option": self.key, "value": str(text), "allowed": self.allowed_text()},
            )

        if self.kind == "bool":
            if isinstance(text, bool):
                return text
            t = str(text).strip().lower()
            if t in ("on", "true", "yes", "1"):
                return True
            if t in ("off", "false", "no", "0"):
                return False
            raise bad()
        if self.kind == "choice":
            t = str(text).strip().lower()
            if t not in self.choices:
                raise bad()
            return t
        if self.kind == "money":
            try:
                d = Decimal(str(text).strip())
            except InvalidOperation:
                raise bad() from None
            # a price per point: finite, not negative, at most 1,000,000 and to a millionth
            if not d.is_finite() or d < 0 or d > 1_000_000 or d != d.quantize(Decimal("0.000001")):
                raise bad()
            return format(d.normalize(), "f") if d != d.to_integral() else str(int(d))
        if self.kind == "int-or-none" and (text is None or str(text).strip().lower() in ("none", "no", "off")):
            return None
        if isinstance(text, bool):
            raise bad()
        try:
            n = int(str(text).strip())
        except ValueError:
            raise bad() from None
        if not self.low <= n <= self.high:
            raise bad()
        return n

    def text(self, value: OptionValue) -> str:
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)

    def value_words(self, value: object, t: Translator) -> str:
        """A value of this house rule as a reader of ``t``'s language reads it."""
        if value is None:
            return t(N_("none"))
        if isinstance(value, bool):
            return t(N_("on")) if value else t(N_("off"))
        if self.kind == "choice" and self.key == "direction":
            return t(N_("clockwise")) if value == "clockwise" else t(N_("counterclockwise"))
        if self.kind == "choice" and self.key == "courts":
            return number(str(value).replace("-", "/"), t.lang) if value != "10" else t(N_("10 each"))
        return number(str(value), t.lang)

    def allowed_words(self, t: Translator) -> str:
        """The values this house rule allows, as a reader of ``t``'s language reads them."""
        if self.kind == "bool":
            return t(N_("on or off"))
        if self.kind == "choice":
            return ", ".join(self.value_words(c, t) for c in self.choices)
        if self.kind == "money":
            return t(N_("any amount, e.g. {amount}"), amount=number("0.05", t.lang))
        if self.kind == "int-or-none":
            return t(N_("none, or {low}–{high}"), low=self.low, high=self.high)
        return t(N_("{low}–{high}"), low=self.low, high=self.high)


DOUBLE_PENALTY: Final = 50  # cardrulesplus variant: a caught caller undercut by more than
DOUBLE_MARGIN: Final = 5  # this many points scores this instead of the usual penalty
DHUMBAL_7: Final = 7  # the cardrulesplus variant "Dhumbal 7": call only at 7 or less

COURTS: Final[Mapping[str, tuple[int, int, int]]] = {
    "10": (10, 10, 10),
    "11-12-13": (11, 12, 13),
    "0-10-10": (0, 10, 10),
}


@dataclass(frozen=True)
class BotTuning:
    """How the expert bot (:mod:`dhumbal.bots.expert`) plays a profile, measured for it.

    ``risk``: the highest chance of being caught, in percent, at which it calls.
    ``race``: tenths of a point a hand is worth the worse for each own turn it is
    estimated to need before it may call (0: not weighed), where the others race
    to call too. The figures behind each profile's values are in ``bench/RESEARCH.md``.
    """

    risk: int
    race: int

    def __post_init__(self) -> None:
        if not 0 <= self.risk <= 100 or self.race < 0:
            raise ValueError(f"bot tuning out of range: {self}")


@dataclass(frozen=True)
class PuzzleSettings:
    """What the puzzle generator (:mod:`dhumbal.lab.puzzlegen`) does per profile:
    ``prefix`` starts the names of the puzzle files it writes (``da-5-0-take``)."""

    prefix: str

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z]{2,4}", self.prefix):
            raise ValueError(f"a puzzle prefix is 2 to 4 small letters, not {self.prefix!r}")


@dataclass(frozen=True)
class Profile:
    """Every rule of one profile, as data. Build one with ``find_profile`` and ``with_options``."""

    key: str
    name: str  # msgid
    sources: tuple[str, ...]
    players: int
    players_min: int
    players_max: int
    jokers: bool
    hand_size: int
    after_deal: Literal["pile", "offer", "discard"]
    courts: tuple[int, int, int]
    turn_order: TurnOrder
    runs: bool
    jokers_in_sets: bool
    jokers_in_runs: bool
    set_max: int | None
    take_rule: TakeRule
    set_pick: bool  # cardrulesplus variant: any card of a just-thrown set
    pile_card_barred: bool
    reshuffle_keep: Literal["top", "offer"]
    call_limit: int | None
    first_round_call: bool
    penalty: int
    double_penalty: bool
    settlement: Settlement
    tie_order: TieOrder
    rounds: int | None
    elimination: int | None
    turn_cap: int | None
    direction: Literal["clockwise", "counterclockwise"]
    money_per_point: str | None
    tuning: BotTuning
    puzzles: PuzzleSettings
    option_specs: tuple[OptionSpec, ...] = field(repr=False)
    options: tuple[tuple[str, OptionValue], ...] = ()

    # -- options -------------------------------------------------------------

    def option(self, key: str) -> OptionValue:
        for k, v in self.options:
            if k == key:
                return v
        return self.spec(key).default

    def spec(self, key: str) -> OptionSpec:
        for s in self.option_specs:
            if s.key == key:
                return s
        raise ProfileError(
            f"profile {self.key} has no option {key!r}; its options are: "
            + ", ".join(s.key for s in self.option_specs),
            code="unknown-option",
            params={"profile": self.key, "option": key, "allowed": ", ".join(s.key for s in self.option_specs)},
        )

    def with_options(self, **values: str | OptionValue) -> Profile:
        """A copy with house rules changed; unknown keys and values are refused."""
        current = {s.key: self.option(s.key) for s in self.option_specs}
        for key, raw in values.items():
            spec = self.spec(key.replace("_", "-") if key not in current else key)
            current[spec.key] = spec.parse(raw, self.key)
        return RECORDS[self.key].make(current)

    def canonical(self) -> str:
        """``key(opt=value,…)`` listing only options that differ from the defaults."""
        changed = [
            f"{s.key}={s.text(self.option(s.key))}"
            for s in self.option_specs
            if self.option(s.key) != s.default
        ]
        return self.key + (f"({','.join(changed)})" if changed else "")

    def __str__(self) -> str:
        return self.canonical()

    # -- derived -------------------------------------------------------------

    @property
    def deck_size(self) -> int:
        return 54 if self.jokers else 52

    @cached_property
    def values(self) -> tuple[int, ...]:
        """Points of every card code, for fast totals."""
        return tuple(self.value(c) for c in range(54))

    def value(self, card: int) -> int:
        """Points of one card under this profile."""
        if card >= 52:
            return 0
        r = card % 13 + 1
        return r if r <= 10 else self.courts[r - 11]

    @cached_property
    def draw_first(self) -> bool:
        return self.turn_order == "draw-first"


# -- the three profiles ---------------------------------------------------------

_NG_SPECS: Final = (
    OptionSpec("players", 4, "int", N_("Players"), low=2, high=6),
    OptionSpec("cards", 5, "choice", N_("Cards dealt"), choices=("5", "7")),
    OptionSpec("rounds", 3, "int", N_("Deals in a match"), low=1, high=50),
    OptionSpec("limit", 5, "int", N_("Call at or below"), low=0, high=30),
    OptionSpec("penalty", 25, "int", N_("Penalty for a caught call"), low=1, high=200),
    OptionSpec("courts", "10", "choice", N_("Court cards J, Q, K"), choices=("10", "11-12-13")),
    OptionSpec("runs", False, "bool", N_("Runs")),
    OptionSpec("jokers", False, "bool", N_("Jokers")),
)

_DASHAIN_SPECS: Final = (
    OptionSpec("players", 4, "int", N_("Players"), low=2, high=6),
    # no dashain card is worth 0, so a limit under 1 would make every call illegal
    OptionSpec("limit", 10, "int", N_("Call at or below"), low=1, high=40),
    OptionSpec("first-round-call", False, "bool", N_("Call in the first round")),
    OptionSpec("money", "0.05", "money", N_("Money per point")),
    OptionSpec("rounds", None, "int-or-none", N_("Deals in a match"), low=1, high=50),
)

_CRP_SPECS: Final = (
    OptionSpec("players", 4, "int", N_("Players"), low=2, high=5),
    OptionSpec("jokers", False, "bool", N_("Jokers")),
    OptionSpec("limit", None, "int-or-none", N_("Call at or below"), low=1, high=40),
    OptionSpec("courts", "0-10-10", "choice", N_("Court cards J, Q, K"), choices=("0-10-10", "11-12-13")),
    OptionSpec("penalty", 25, "choice", N_("Penalty for a caught call"), choices=("25", "30")),
    OptionSpec("double-penalty", False, "bool", N_("Double penalty (50 when undercut by more than 5)")),
    OptionSpec("set-pick", False, "bool", N_("Take any card of a just-thrown set")),
    OptionSpec("direction", "clockwise", "choice", N_("Direction of play"), choices=("clockwise", "counterclockwise")),
    OptionSpec("rounds", None, "int-or-none", N_("Deals in a match"), low=1, high=50),
)


def _int(v: OptionValue) -> int:
    assert v is not None and not isinstance(v, bool)
    return int(v)


def _opts(specs: tuple[OptionSpec, ...], values: Mapping[str, OptionValue]) -> tuple[tuple[str, OptionValue], ...]:
    return tuple((s.key, values[s.key]) for s in specs)


def _nepali_games(r: ProfileRecord, o: Mapping[str, OptionValue]) -> Profile:
    return Profile(
        key=r.key,
        name=r.name,
        sources=("000", "001"),
        players=_int(o["players"]),
        players_min=2,
        players_max=6,
        jokers=bool(o["jokers"]),
        hand_size=_int(o["cards"]),
        after_deal="pile",
        courts=COURTS[str(o["courts"])],
        turn_order="draw-first",
        runs=bool(o["runs"]),
        jokers_in_sets=True,
        jokers_in_runs=False,
        set_max=None,
        take_rule="pile-top",
        set_pick=False,
        pile_card_barred=True,
        reshuffle_keep="top",
        call_limit=_int(o["limit"]),
        first_round_call=True,
        penalty=_int(o["penalty"]),
        double_penalty=False,
        settlement="collect",
        tie_order="dealer-left",
        rounds=_int(o["rounds"]),
        elimination=None,
        turn_cap=200,
        direction="clockwise",
        money_per_point=None,
        tuning=r.tuning,
        puzzles=r.puzzles,
        option_specs=r.specs,
        options=_opts(r.specs, o),
    )


def _dashain(r: ProfileRecord, o: Mapping[str, OptionValue]) -> Profile:
    rounds = o["rounds"]
    return Profile(
        key=r.key,
        name=r.name,
        sources=("002",),
        players=_int(o["players"]),
        players_min=2,
        players_max=6,
        jokers=False,
        hand_size=5,
        after_deal="offer",
        courts=(11, 12, 13),
        turn_order="throw-first",
        runs=True,
        jokers_in_sets=False,
        jokers_in_runs=False,
        set_max=4,
        take_rule="offer-any-or-run-end",
        set_pick=False,
        pile_card_barred=False,
        reshuffle_keep="offer",
        call_limit=_int(o["limit"]),
        first_round_call=bool(o["first-round-call"]),
        penalty=0,
        double_penalty=False,
        settlement="pay-caller",
        tie_order="after-caller",
        rounds=None if rounds is None else _int(rounds),
        elimination=None,
        turn_cap=None,
        direction="clockwise",
        money_per_point=str(o["money"]),
        tuning=r.tuning,
        puzzles=r.puzzles,
        option_specs=r.specs,
        options=_opts(r.specs, o),
    )


def _cardrulesplus(r: ProfileRecord, o: Mapping[str, OptionValue]) -> Profile:
    rounds = o["rounds"]
    limit = o["limit"]
    return Profile(
        key=r.key,
        name=r.name,
        sources=("003", "004"),
        players=_int(o["players"]),
        players_min=2,
        players_max=5,
        jokers=bool(o["jokers"]),
        hand_size=5,
        after_deal="discard",
        courts=COURTS[str(o["courts"])],
        turn_order="throw-first",
        runs=True,
        jokers_in_sets=True,
        jokers_in_runs=True,
        set_max=4,
        take_rule="single-only",
        set_pick=bool(o["set-pick"]),
        pile_card_barred=False,
        reshuffle_keep="top",
        call_limit=None if limit is None else _int(limit),
        first_round_call=True,
        penalty=int(str(o["penalty"])),
        double_penalty=bool(o["double-penalty"]),
        settlement="cumulative",
        tie_order="caller-only",
        rounds=None if rounds is None else _int(rounds),
        elimination=100,
        turn_cap=None,
        direction="counterclockwise" if o["direction"] == "counterclockwise" else "clockwise",
        money_per_point=None,
        tuning=r.tuning,
        puzzles=r.puzzles,
        option_specs=r.specs,
        options=_opts(r.specs, o),
    )


@dataclass(frozen=True)
class ProfileRecord:
    """One profile, whole: its key, name (a msgid) and aliases, its house rules, how its
    rules follow from their values (``build``), the expert's tuning and the puzzle settings."""

    key: str
    name: str
    aliases: tuple[str, ...]
    specs: tuple[OptionSpec, ...]
    build: Callable[[ProfileRecord, Mapping[str, OptionValue]], Profile]
    _: KW_ONLY
    tuning: BotTuning
    puzzles: PuzzleSettings

    def make(self, values: Mapping[str, OptionValue]) -> Profile:
        """The profile with these house rules (every one of :attr:`specs` given)."""
        return self.build(self, values)

    def default(self) -> Profile:
        return self.make({s.key: s.default for s in self.specs})


def _registry(*records: ProfileRecord) -> dict[str, ProfileRecord]:
    """The profiles by key, each checked whole: every part present and of its type, its
    default rules buildable and naming it, no key, alias or puzzle prefix used twice."""
    out: dict[str, ProfileRecord] = {}
    taken: set[str] = set()
    for r in records:
        for part, kind in (("tuning", BotTuning), ("puzzles", PuzzleSettings)):
            if not isinstance(getattr(r, part, None), kind):
                raise TypeError(f"profile {r.key}: its record has no {part} ({kind.__name__})")
        built = r.default()
        if built.key != r.key or built.tuning != r.tuning or built.puzzles != r.puzzles:
            raise ValueError(f"profile {r.key}: its rules name another profile, tuning or puzzle settings")
        names = {r.key, *r.aliases, "puzzles:" + r.puzzles.prefix}
        if r.key in out or names & taken:
            raise ValueError(f"profile {r.key}: a key, alias or puzzle prefix already taken: {sorted(names & taken)}")
        taken |= names
        out[r.key] = r
    return out


#: Every profile, by key, in the order the site lists them. A caught call costs most in
#: `nepali-games`, least against the reward in the no-limit `cardrulesplus`; in `dashain`
#: waiting costs more than a caught call, and the race to call is weighed there only.
#: Each tuning was measured against hard bots and the aggressive reference bot:
#: ``bench/RESEARCH.md`` has the figures ("Kept") and the commands that reproduce them.
RECORDS: Final[dict[str, ProfileRecord]] = _registry(
    ProfileRecord("nepali-games", N_("Nepali Games"), ("nepaligames", "ng", "standard"), _NG_SPECS, _nepali_games,
                  tuning=BotTuning(risk=25, race=0), puzzles=PuzzleSettings(prefix="ng")),
    ProfileRecord("dashain", N_("Dashain"), ("jhyaap",), _DASHAIN_SPECS, _dashain,
                  tuning=BotTuning(risk=60, race=10), puzzles=PuzzleSettings(prefix="da")),
    ProfileRecord("cardrulesplus", N_("CardRulesPlus zero-J"), ("crp", "zero-j"), _CRP_SPECS, _cardrulesplus,
                  tuning=BotTuning(risk=30, race=0), puzzles=PuzzleSettings(prefix="crp")),
)
PROFILE_KEYS: Final = tuple(RECORDS)
#: Every name a profile is found by (its key and its aliases).
ALIASES: Final = {name: r.key for r in RECORDS.values() for name in (r.key, *r.aliases)}


def find_profile(name: str) -> Profile:
    """The profile with its default options, by key or alias."""
    key = ALIASES.get(name.strip().lower())
    if key is None:
        raise ProfileError(
            f"unknown profile {name!r}; profiles are: {', '.join(PROFILE_KEYS)}",
            code="unknown-profile",
            params={"profile": name, "allowed": ", ".join(PROFILE_KEYS)},
        )
    return RECORDS[key].default()


_CANON_RE = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*(?:\((.*)\))?\s*$", re.S)


def parse_profile(text: str) -> Profile:
    """Read the canonical form back: ``nepali-games(runs=on, players=2)``."""
    m = _CANON_RE.match(text)
    if not m:
        raise ProfileError(
            f"cannot read profile {text!r}; write e.g. nepali-games(runs=on,players=2)",
            code="bad-profile-text",
            params={"text": text},
        )
    profile = find_profile(m.group(1))
    if m.group(2) is None or not m.group(2).strip():
        return profile
    values: dict[str, str] = {}
    for part in m.group(2).split(","):
        if "=" not in part:
            raise ProfileError(
                f"option {part.strip()!r} in {text!r} needs the form key=value",
                code="bad-profile-text",
                params={"text": text},
            )
        k, v = part.split("=", 1)
        k = k.strip()
        if k in values:
            raise ProfileError(f"option {k!r} is given twice in {text!r}", code="bad-profile-text", params={"text": text})
        values[k] = v.strip()
    return profile.with_options(**values)


def all_profiles() -> list[Profile]:
    return [find_profile(k) for k in PROFILE_KEYS]

