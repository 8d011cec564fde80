"""The rule profiles as frozen data, and their house-rule options.

Every dimension of the project's profile table is a field here, so the
comparison page, the deal engine and the bots read the same values. A profile
with options is a new frozen ``Profile`` (``with_options``), written in a
canonical text form such as ``nepali-games(runs=on,jokers=on)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import Final, Literal

from .i18n import N_

TurnOrder = Literal["draw-first", "throw-first"]
TakeRule = Literal["pile-top", "offer-any-or-run-end", "single-only"]
Settlement = Literal["collect", "pay-caller", "cumulative"]
TieOrder = Literal["dealer-left", "after-caller", "caller-only"]

OptionValue = int | bool | str | None


class ProfileError(ValueError):
    """An unknown profile or option, or a value outside the allowed ones."""

    def __init__(self, message: str, *, code: str, params: Mapping[str, object]) -> None:
        super().__init__(message)
        self.code = code
        self.params = dict(params)


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


DOUBLE_PENALTY: Final = 50  # cardrulesplus variant: a caught caller undercut by more than
DOUBLE_MARGIN: Final = 5  # this many points scores this instead of the usual penalty
DHUMBAL_7: Final = 7  # the cardrulesplus variant "Dhumbal 7": call only at 7 or less

COURTS: Final[Mapping[str, tuple[int, int, int]]] = {
    "10": (10, 10, 10),
    "11-12-13": (11, 12, 13),
    "0-10-10": (0, 10, 10),
}


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
        return _BUILDERS[self.key](current)

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
    OptionSpec("players", 4, "int", N_("Seats"), low=2, high=6),
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


def _nepali_games(o: Mapping[str, OptionValue]) -> Profile:
    return Profile(
        key="nepali-games",
        name=N_("Nepali Games"),
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
        option_specs=_NG_SPECS,
        options=_opts(_NG_SPECS, o),
    )


def _dashain(o: Mapping[str, OptionValue]) -> Profile:
    rounds = o["rounds"]
    return Profile(
        key="dashain",
        name=N_("Dashain"),
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
        option_specs=_DASHAIN_SPECS,
        options=_opts(_DASHAIN_SPECS, o),
    )


def _cardrulesplus(o: Mapping[str, OptionValue]) -> Profile:
    rounds = o["rounds"]
    limit = o["limit"]
    return Profile(
        key="cardrulesplus",
        name=N_("CardRulesPlus zero-J"),
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
        option_specs=_CRP_SPECS,
        options=_opts(_CRP_SPECS, o),
    )


_BUILDERS: Final = {
    "nepali-games": _nepali_games,
    "dashain": _dashain,
    "cardrulesplus": _cardrulesplus,
}
_SPECS: Final = {"nepali-games": _NG_SPECS, "dashain": _DASHAIN_SPECS, "cardrulesplus": _CRP_SPECS}
ALIASES: Final = {
    "nepali-games": "nepali-games", "nepaligames": "nepali-games", "ng": "nepali-games",
    "standard": "nepali-games", "dashain": "dashain", "jhyaap": "dashain",
    "cardrulesplus": "cardrulesplus", "crp": "cardrulesplus", "zero-j": "cardrulesplus",
}
PROFILE_KEYS: Final = ("nepali-games", "dashain", "cardrulesplus")


def find_profile(name: str) -> Profile:
    """The profile with its default options, by key or alias."""
    key = ALIASES.get(name.strip().lower())
    if key is None:
        raise ProfileError(
            f"unknown profile {name!r}; profiles are: {', '.join(PROFILE_KEYS)}",
            code="unknown-profile",
            params={"profile": name, "allowed": ", ".join(PROFILE_KEYS)},
        )
    return _BUILDERS[key]({s.key: s.default for s in _SPECS[key]})


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

