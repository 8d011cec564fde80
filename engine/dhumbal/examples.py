"""Worked examples: TOML files that the engine runs and checks.

A file gives a profile with options, seats, a dealer and a position (or a
seed), then steps: an action for a seat and what must hold afterwards. Running
a file yields a ``Walkthrough`` (every step with the engine's own messages and
the table after it) or raises ``ExampleError`` naming the file, the line and
what was expected versus found. The site renders walkthroughs; ``python -m
dhumbal check`` runs the same code.

``unseen = ["B", "C"]`` names seats whose hands the reader does not see: the
site draws them face down until the deal ends and every hand is shown.
The seats' names as a reader sees them come from :func:`display_names`.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Mapping

from . import cards as C
from .deal import Action, Deal, IllegalAction, Outcome, PositionError, parse_action
from .match import Match, money_text
from .messages import Message
from .profiles import Profile, ProfileError, find_profile
from .records import from_position, state_to_json

TOP_KEYS: Final = {"title", "profile", "options", "seats", "names", "dealer", "position", "seed", "steps", "scores", "intro", "table", "unseen"}
MAX_DISPLAY_NAME: Final = 40
POSITION_KEYS: Final = {"pile", "stock", "out_of_play", "offer", "turn", "turns", "rest"}
STEP_KEYS: Final = {"act", "expect", "refused", "note"}
EXPECT_SEAT_KEYS: Final = {"total", "hand", "cards", "took", "paid", "money", "score", "hand_row"}
EXPECT_PLAIN_KEYS: Final = {"stock", "pile_top", "pile", "offer", "winner", "caught", "eliminated", "turn", "phase", "all_cards", "out_of_play", "pile_size"}


class ExampleError(ValueError):
    """A bad example file or an expectation the engine contradicts: ``path:line: message``."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.detail = message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")


@dataclass
class Step:
    index: int
    line: int | None
    seat: int | None
    action: Action | None
    expect: dict[str, Any]
    refused: str | None
    note: str | None


@dataclass
class StepResult:
    step: Step
    events: list[Message]
    refusal: IllegalAction | None
    table: dict[str, Any]  # the table after the step, as JSON-ready data
    state: dict[str, Any] = field(default_factory=dict)  # the whole deal after the step (records.state_to_json)


@dataclass
class Walkthrough:
    id: str
    path: str
    title: str
    intro: str | None
    profile: Profile
    names: list[str]
    dealer: int
    start: dict[str, Any]
    start_state: dict[str, Any]
    steps: list[StepResult] = field(default_factory=list)
    outcome: Outcome | None = None
    scores_before: list[int] | None = None
    scores_after: list[int] | None = None
    eliminated: list[int] = field(default_factory=list)
    table_options: dict[str, Any] = field(default_factory=dict)
    #: Per language, the seats' names as that language writes them (``[names] ne = {…}``).
    display: dict[str, list[str]] = field(default_factory=dict)

    unseen: frozenset[int] = frozenset()  # seats whose hands the reader does not see until the show

    def names_in(self, lang: str) -> list[str]:
        """The seats' names as shown in ``lang``: its display names, else the file's names."""
        return self.display.get(lang, self.names)


def display_names(walk: Walkthrough, lang: str) -> list[str]:
    """The seats' names as a reader of ``lang`` sees them (the one place that says so)."""
    return list(walk.names_in(lang))


#: Deepest nesting of arrays and inline tables an example file may have (its
#: own need is 2); deeper text is refused before the (recursive) TOML parser.
MAX_NESTING: Final = 32
PHASES: Final = ("start", "throw", "take", "over")


class _Where:
    """Finds the line of a key or value in an example file's text, for error messages.

    TOML's parser gives values without positions, so lines are found in the
    text: a top-level key, a key inside a ``[section]``, a key of a step (in
    its ``[[steps]]`` block, inline or in ``[steps.expect]``).
    """

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.step_heads = [i + 1 for i, ln in enumerate(self.lines) if re.match(r"^\s*\[\[\s*steps\s*\]\]", ln)]

    def find(self, start: int, end: int, pattern: str) -> int | None:
        return _find_line(self.lines, start, end, pattern)

    def top(self, key: str) -> int | None:
        return self.find(1, len(self.lines), rf"^\s*(\[)?\s*{re.escape(key)}\b")

    def section(self, name: str) -> tuple[int, int] | None:
        """First and last line of ``[name]`` (up to the next table header)."""
        head = self.find(1, len(self.lines), rf"^\s*\[\s*{re.escape(name)}\s*\]")
        if head is None:
            return None
        nxt = self.find(head + 1, len(self.lines), r"^\s*\[")
        return head, (nxt - 1 if nxt else len(self.lines))

    def in_section(self, name: str, key: str) -> int | None:
        """The line of ``key = …`` in ``[name]`` (or in an inline ``name = { … }``)."""
        span = self.section(name)
        if span is not None:
            found = self.find(span[0], span[1], rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
            return found or span[0]
        return self.top(name)

    def step(self, i: int) -> tuple[int | None, int]:
        """The head line of step ``i`` (0-based) and the last line of its block."""
        head = self.step_heads[i] if i < len(self.step_heads) else None
        end = self.step_heads[i + 1] - 1 if i + 1 < len(self.step_heads) else len(self.lines)
        return head, end

    def in_step(self, i: int, key: str, seat: str | None = None) -> int | None:
        """The line of ``key`` (or ``key.seat``, or ``key = { seat = … }``) in step ``i``."""
        head, end = self.step(i)
        first = head or 1
        k = re.escape(key)
        patterns = [rf"(?<![\w.]){k}\s*=", rf"(?<![\w.]){k}\b"]
        if seat is not None:
            s = re.escape(seat)
            patterns = [rf"(?<![\w.]){k}\s*\.\s*[\"']?{s}[\"']?\s*=", rf"(?<![\w.]){k}\s*=\s*\{{[^}}]*(?<![\w.])[\"']?{s}[\"']?\s*="] + patterns
        for pattern in patterns:
            found = self.find(first, end, pattern)
            if found:
                return found
        return head


def _lines(text: str) -> tuple[list[int], list[str]]:
    where = _Where(text)
    return where.step_heads, where.lines


def _find_line(lines: list[str], start: int, end: int, pattern: str) -> int | None:
    rx = re.compile(pattern)
    for i in range(max(0, start - 1), min(len(lines), end)):
        if rx.search(lines[i]):
            return i + 1
    return None


def _too_deep(text: str, limit: int = MAX_NESTING) -> int | None:
    """The line where arrays and inline tables in ``text`` nest deeper than ``limit``, if any.

    A plain scan (no recursion) that skips strings and comments, so that the
    TOML parser never recurses on hostile text.
    """
    depth = 0
    line = 1
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif ch == "#":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                if text[j] == "\\" and ch == '"':
                    j += 1
                elif text[j] == "\n" and len(quote) == 1:
                    break  # an unterminated one-line string: the parser says so
                j += 1
            line += text.count("\n", i, j)
            i = j + len(quote)
            continue
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return line
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += 1
    return None


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _shown(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "…"


def _cards_of(value: object) -> list[C.Card]:
    """Cards from ``"K♠ K♥"`` or ``["K♠", "K♥"]``; ``CardError`` or ``TypeError`` otherwise."""
    if isinstance(value, str) or (isinstance(value, list) and all(isinstance(x, str) for x in value)):
        return C.parse_cards(value)
    raise TypeError(f"cards must be text such as \"K♠ K♥\", not {_shown(value)}")


def load_text(text: str, path: str) -> Walkthrough:
    """Run the example in ``text`` (``path`` names it in errors)."""
    deep = _too_deep(text)
    if deep is not None:
        raise ExampleError(path, deep, f"not valid TOML: arrays or tables nested more than {MAX_NESTING} deep")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ExampleError(path, int(m.group(1)) if m else None, f"not valid TOML: {exc}") from None
    except RecursionError:  # pragma: no cover - _too_deep refuses such text first
        raise ExampleError(path, None, f"not valid TOML: nested more than {MAX_NESTING} deep") from None
    where = _Where(text)
    heads, lines = where.step_heads, where.lines
    top_line = where.top

    def fail(key: str, message: str) -> ExampleError:
        return ExampleError(path, top_line(key), message)

    unknown = set(data) - TOP_KEYS
    if unknown:
        k = sorted(unknown)[0]
        raise fail(k, f"unknown key {k!r}; allowed: {', '.join(sorted(TOP_KEYS))}")
    for key in ("title", "profile", "seats", "steps"):
        if key not in data:
            raise ExampleError(path, None, f"missing key {key!r}")
    for key in ("title", "intro", "profile"):
        if key in data and not isinstance(data[key], str):
            raise fail(key, f"{key} must be text in quotes, not {_shown(data[key])}")
    for key in ("table", "scores"):
        if key in data and not isinstance(data[key], dict):
            raise fail(key, f"{key} must be a table, e.g. {key} = {{ … }}")
    try:
        profile = find_profile(data["profile"])
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise fail("options", "options must be a table, e.g. options = { players = 2 }")
        for k, v in options.items():
            if not (isinstance(v, (str, int, bool)) and not isinstance(v, float)):
                raise ExampleError(path, where.in_section("options", k),
                                   f"option {k} must be a number, on/off or text, not {_shown(v)}")
        seats = data["seats"]
        if not isinstance(seats, list) or not all(isinstance(s, str) and s for s in seats):
            raise fail("seats", "seats must be a list of names")
        if len(set(seats)) != len(seats):
            raise fail("seats", "seat names must differ")
        opts = dict(options)
        opts.setdefault("players", len(seats))
        profile = profile.with_options(**opts)
    except ProfileError as exc:
        bad = exc.params.get("option") if isinstance(exc.params, dict) else None
        if "options" in data and isinstance(bad, str) and bad in data["options"]:
            raise ExampleError(path, where.in_section("options", bad), str(exc)) from None
        raise fail("options" if "options" in data else "profile", str(exc)) from None
    names: list[str] = list(seats)
    if profile.players != len(names):
        raise fail("seats", f"{len(names)} seats named but the options say players = {profile.players}")

    def seat_of(name: Any, key: str, line: int | None = None) -> int:
        if isinstance(name, str) and name in names:
            return names.index(name)
        raise ExampleError(path, line or top_line(key), f"{_shown(name)} is not a seat; seats are {', '.join(names)}")

    dealer = seat_of(data.get("dealer", names[-1]), "dealer")
    deal = _build_deal(data, profile, names, dealer, seat_of, path, where)

    scores_before: list[int] | None = None
    if "scores" in data:
        scores_before = [0] * len(names)
        for k, v in data["scores"].items():
            line = where.in_section("scores", k)
            if not _is_int(v):
                raise ExampleError(path, line, f"score of {k} must be a whole number, not {_shown(v)}")
            scores_before[seat_of(k, "scores", line)] = v

    display = _display_names(data.get("names"), names, path, top_line)
    unseen = data.get("unseen", [])
    if not isinstance(unseen, list):
        raise fail("unseen", "unseen must be a list of seats whose hands the reader does not see, e.g. unseen = [\"B\"]")
    start = _table(deal, names)
    walk = Walkthrough(
        id=Path(path).stem, path=path, title=data["title"], intro=data.get("intro"),
        profile=profile, names=names, dealer=dealer, start=start, start_state=state_to_json(deal),
        scores_before=scores_before,
        table_options=dict(data.get("table", {})),
        display=display,
        unseen=frozenset(seat_of(name, "unseen") for name in unseen),
    )

    steps = data["steps"]
    if not isinstance(steps, list) or not steps:
        raise fail("steps", "steps must be a list of [[steps]] tables")
    for i, raw in enumerate(steps):
        head, end = where.step(i)
        step = _parse_step(i, raw, where, names, seat_of, path)
        walk.steps.append(_run_step(deal, step, walk, path, lines, head, end, where))
    walk.outcome = deal.outcome
    check_notes(walk)
    return walk


def _display_names(raw: Any, names: list[str], path: str, top_line: Any) -> dict[str, list[str]]:
    """``[names]``: for a language, every seat's name as that language writes it."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ExampleError(path, top_line("names"), "names must be a table of languages, e.g. ne = { Asha = \"आशा\" }")
    out: dict[str, list[str]] = {}
    for lang, table in raw.items():
        line = top_line("names")
        if not isinstance(table, dict) or set(table) != set(names):
            raise ExampleError(path, line, f"names.{lang} must give a name for every seat ({', '.join(names)})")
        shown = [table[n] for n in names]
        if not all(isinstance(v, str) and v.strip() == v and v and v.isprintable() and len(v) <= MAX_DISPLAY_NAME for v in shown):
            raise ExampleError(path, line, f"names.{lang}: each name must be printable text of 1 to {MAX_DISPLAY_NAME} characters")
        if len(set(shown)) != len(shown):
            raise ExampleError(path, line, f"names.{lang}: the names must differ")
        out[str(lang)] = shown
    return out


#: Position keys and what each holds.
_POSITION_WORDS: Final = (("turns", "turns"), ("offer", "offer"), ("pile", "pile"), ("stock", "stock"),
                          ("dealer", "dealer"), ("turn", "turn"))


def _position_error_line(exc: Exception, pos: Mapping[str, Any], where: _Where) -> int | None:
    """The line a ``PositionError`` is about: the value holding the card it names, else the key it names."""
    message = str(exc)
    named: set[C.Card] = set()
    for token in re.findall(r"\S+", message):
        try:
            named.add(C.parse_card(token.strip(".,:;()")))
        except C.CardError:
            continue
    lines = []
    if named:
        for key, value in pos.items():
            try:
                if named & set(_cards_of(value)):
                    lines.append(where.in_section("position", key))
            except (C.CardError, TypeError):
                continue
    found = [ln for ln in lines if ln is not None]
    if found:
        return max(found)  # a card placed twice: its second place
    lowered = message.lower()
    for word, key in _POSITION_WORDS:
        if re.search(rf"\b{word}\b", lowered):
            if key == "dealer":
                return where.top("dealer")
            if key in pos:
                return where.in_section("position", key)
    return where.top("position")


def _build_deal(data: Mapping[str, Any], profile: Profile, names: list[str], dealer: int, seat_of: Any,
                path: str, where: _Where) -> Deal:
    top_line = where.top
    if "seed" in data and "position" not in data:
        seed = data["seed"]
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise ExampleError(path, top_line("seed"), "seed must be a number or text")
        try:
            return Deal.new(profile, seed, dealer=dealer)
        except (PositionError, ValueError) as exc:
            raise ExampleError(path, top_line("seed"), f"impossible deal: {exc}") from None
    pos = data.get("position")
    if not isinstance(pos, dict):
        raise ExampleError(path, top_line("position"), "give a [position] table (or a seed)")

    def line(key: str) -> int | None:
        return where.in_section("position", key)

    def cards(key: str) -> list[C.Card]:
        try:
            return _cards_of(pos[key])
        except C.CardError as exc:
            raise ExampleError(path, line(key), f"impossible position: {key}: {exc}") from None
        except TypeError as exc:
            raise ExampleError(path, line(key), f"position {key}: {exc}") from None

    hands: list[list[int]] = [[] for _ in names]
    for key in pos:
        if key in POSITION_KEYS:
            continue
        if key not in names:
            raise ExampleError(path, line(key), f"position key {key!r} is neither a seat ({', '.join(names)}) nor one of {', '.join(sorted(POSITION_KEYS))}")
        hands[names.index(key)] = cards(key)
    if "pile" not in pos:
        raise ExampleError(path, top_line("position"), "the position needs a pile (the face-up card or cards)")
    turn = seat_of(pos["turn"], "position", line("turn")) if "turn" in pos else None
    turns = pos.get("turns", 0)
    if not _is_int(turns) or turns < 0:
        raise ExampleError(path, line("turns"), f"position turns must be a whole number ≥ 0, not {_shown(turns)}")
    offer = pos.get("offer")
    if offer is not None and (not _is_int(offer) or offer < 1):
        raise ExampleError(path, line("offer"), f"position offer must be a number of face-up cards (1 or more), not {_shown(offer)}")
    rest = pos.get("rest", "stock")
    if rest not in ("stock", "pile"):
        raise ExampleError(path, line("rest"), f"position rest must be \"stock\" or \"pile\", not {_shown(rest)}")
    pile = cards("pile")
    stock = cards("stock") if "stock" in pos else []
    out = cards("out_of_play") if "out_of_play" in pos else []
    try:
        return from_position(
            profile, hands=hands, pile=pile, stock_top=stock, out_of_play=out, dealer=dealer, turn=turn,
            offer=offer, turns=turns, seed=Path(path).stem, rest="pile" if rest == "pile" else "stock",
        )
    except (PositionError, C.CardError) as exc:
        raise ExampleError(path, _position_error_line(exc, pos, where), f"impossible position: {exc}") from None


#: What each expectation holds: a kind checked before the step runs.
EXPECT_KINDS: Final[Mapping[str, str]] = {
    "stock": "count", "all_cards": "count", "out_of_play": "count", "pile_size": "count",
    "pile_top": "card", "pile": "cards", "offer": "cards",
    "winner": "seat-or-none", "turn": "seat", "caught": "bool", "eliminated": "seats", "phase": "phase",
    "total": "int", "hand": "cards", "cards": "count", "took": "int", "paid": "int", "money": "money",
    "score": "int", "hand_row": "int",
}
_KIND_TEXT: Final[Mapping[str, str]] = {
    "count": "a whole number ≥ 0", "int": "a whole number", "card": "one card such as \"7♣\"",
    "cards": "cards such as \"K♠ K♥\"", "seat-or-none": "a seat name or \"none\"", "seat": "a seat name",
    "bool": "true or false", "seats": "a list of seat names", "phase": " or ".join(f'"{p}"' for p in PHASES),
    "money": "an amount such as \"0.50\"",
}


def _expect_value(kind: str, value: Any, names: list[str]) -> Any:
    """``value`` checked (and cards read) for an expectation of ``kind``; ``ValueError`` naming what it must be."""
    ok: bool
    if kind == "count":
        ok = _is_int(value) and value >= 0
    elif kind == "int":
        ok = _is_int(value)
    elif kind == "bool":
        ok = isinstance(value, bool)
    elif kind == "seat":
        ok = isinstance(value, str) and value in names
    elif kind == "seat-or-none":
        ok = isinstance(value, str) and (value in names or value == "none")
    elif kind == "seats":
        ok = isinstance(value, list) and all(isinstance(v, str) and v in names for v in value)
    elif kind == "phase":
        ok = value in PHASES
    elif kind == "money":
        ok = (isinstance(value, (str, int, float)) and not isinstance(value, bool)
              and re.fullmatch(r"-?\d+(?:\.\d+)?", str(value)) is not None)
    elif kind in ("card", "cards"):
        try:
            cards = _cards_of(value)
        except (C.CardError, TypeError):
            cards = []
            ok = False
        else:
            ok = len(cards) == 1 if kind == "card" else True
        if ok:
            return C.card_text(cards[0]) if kind == "card" else C.cards_text(cards)
    else:  # pragma: no cover - every kind is listed above
        raise AssertionError(kind)
    if not ok:
        raise ValueError(f"must be {_KIND_TEXT[kind]}, not {_shown(value)}")
    return value


def _parse_step(i: int, raw: Any, where: _Where, names: list[str], seat_of: Any, path: str) -> Step:
    head, _end = where.step(i)
    n = i + 1
    if not isinstance(raw, dict):
        raise ExampleError(path, head, f"step {n} must be a table")
    unknown = set(raw) - STEP_KEYS
    if unknown:
        raise ExampleError(path, head, f"step {n}: unknown key {sorted(unknown)[0]!r}; allowed: {', '.join(sorted(STEP_KEYS))}")
    for key in ("act", "refused", "note"):
        if key in raw and not isinstance(raw[key], str):
            raise ExampleError(path, where.in_step(i, key), f"step {n}: {key} must be text in quotes, not {_shown(raw[key])}")
    act_line = where.in_step(i, "act") if "act" in raw else head
    seat: int | None = None
    action: Action | None = None
    if "act" in raw:
        m = re.match(r"^\s*([^:]+?)\s*:\s*(.+)$", raw["act"])
        if not m:
            raise ExampleError(path, act_line, f"step {n}: write the action as 'SEAT: action', e.g. 'A: take stock'")
        seat = seat_of(m.group(1), "steps", act_line)
        try:
            action = parse_action(m.group(2))
        except (IllegalAction, C.CardError):
            raise ExampleError(path, act_line, f"step {n}: cannot read action {m.group(2)!r}: use call, take stock, take pile [CARD], throw CARDS") from None
    expect = raw.get("expect", {})
    if not isinstance(expect, dict):
        raise ExampleError(path, where.in_step(i, "expect"), f"step {n}: expect must be a table")
    checked: dict[str, Any] = {}
    for k, v in expect.items():
        kind = EXPECT_KINDS.get(k)
        if k in EXPECT_SEAT_KEYS:
            if not isinstance(v, dict):
                raise ExampleError(path, where.in_step(i, k), f"step {n}: expect {k} needs a seat, e.g. {k}.A = …")
            per_seat = {}
            for s, value in v.items():
                line = where.in_step(i, k, s)
                seat_of(s, "steps", line)
                try:
                    per_seat[s] = _expect_value(EXPECT_KINDS[k], value, names)
                except ValueError as exc:
                    raise ExampleError(path, line, f"step {n}: expect {k}.{s} {exc}") from None
            checked[k] = per_seat
        elif kind is not None:
            try:
                checked[k] = _expect_value(kind, v, names)
            except ValueError as exc:
                raise ExampleError(path, where.in_step(i, k), f"step {n}: expect {k} {exc}") from None
        else:
            raise ExampleError(path, where.in_step(i, k), f"step {n}: unknown expectation {k!r}")
    refused = raw.get("refused")
    if refused is not None and action is None:
        raise ExampleError(path, where.in_step(i, "refused"), f"step {n}: refused needs an act")
    return Step(i, act_line, seat, action, checked, refused, raw.get("note"))


def _table(deal: Deal, names: list[str]) -> dict[str, Any]:
    o = deal.outcome
    return {
        "hands": [[C.card_text(c) for c in h] for h in deal.hands],
        "totals": deal.totals(),
        "stock": len(deal.stock),
        "pile": [C.card_text(c) for c in deal.pile],
        "offer": [C.card_text(c) for c in deal.offer_cards],
        "pending": [C.card_text(c) for c in deal.pending],
        "turn": deal.turn,
        "phase": deal.phase,
        "turns": deal.turns,
        "outcome": o.to_json() if o else None,
    }


def _run_step(deal: Deal, step: Step, walk: Walkthrough, path: str, lines: list[str], head: int | None, end: int,
              where: _Where | None = None) -> StepResult:
    events: list[Message] = []
    refusal: IllegalAction | None = None
    n = step.index + 1
    if step.action is not None:
        before = json.dumps(state_to_json(deal), sort_keys=True)
        try:
            events = deal.apply(step.action, seat=step.seat)
        except IllegalAction as exc:
            refusal = exc
        if refusal is not None:
            if json.dumps(state_to_json(deal), sort_keys=True) != before:
                raise ExampleError(path, step.line, f"step {n}: a refused action changed the state")
            if step.refused is None:
                raise ExampleError(path, step.line, f"step {n}: expected {step.action} to be legal, but the engine refused it ({refusal.code}: {refusal.text()})")
            if refusal.code != step.refused:
                raise ExampleError(path, step.line, f"step {n}: expected refusal {step.refused!r}, found {refusal.code!r} ({refusal.text()})")
        elif step.refused is not None:
            raise ExampleError(path, step.line, f"step {n}: expected refusal {step.refused!r}, but the engine accepted {step.action}")
        if deal.is_over and deal.outcome is not None and walk.scores_before is not None and walk.scores_after is None:
            walk.scores_after, walk.eliminated = _book(deal, walk)
    table = _table(deal, walk.names)
    _check_expect(deal, step, walk, path, lines, head, end, where)
    return StepResult(step, events, refusal, table, state_to_json(deal))


def _book(deal: Deal, walk: Walkthrough) -> tuple[list[int], list[int]]:
    assert walk.scores_before is not None
    m = Match(deal.profile, seed=0, first_dealer=deal.dealer, scores=list(walk.scores_before))
    m.deal = deal
    m.seating = list(range(deal.players))
    m.dealers = [deal.dealer]
    m.finish_deal()
    return list(m.scores), list(m.eliminated)


def _check_expect(deal: Deal, step: Step, walk: Walkthrough, path: str, lines: list[str], head: int | None, end: int,
                  where: _Where | None = None) -> None:
    """Compare the step's expectations (read and type-checked by ``_parse_step``) with the deal."""
    names = walk.names
    o = deal.outcome
    n = step.index + 1

    def line_of(key: str) -> int | None:
        if where is not None:
            k, _, seat = key.partition(".")
            return where.in_step(step.index, k, seat or None)
        return _find_line(lines, head or 1, end, re.escape(key)) or head

    def mismatch(key: str, expected: Any, found: Any) -> ExampleError:
        return ExampleError(path, line_of(key), f"step {n}: {key}: expected {expected!r}, found {found!r}")

    def need_outcome(key: str) -> Outcome:
        if o is None:
            raise ExampleError(path, line_of(key), f"step {n}: {key}: expected a finished deal, but the deal goes on")
        return o

    for key, want in step.expect.items():
        if key in EXPECT_SEAT_KEYS:
            for name, value in want.items():
                s = names.index(name)
                label = f"{key}.{name}"
                found: Any
                if key == "total":
                    found = deal.total(s)
                elif key == "hand":
                    found = C.cards_text(deal.hands[s])
                    if sorted(C.parse_cards(found)) == sorted(C.parse_cards(value)):
                        found = value
                elif key == "cards":
                    found = len(deal.hands[s])
                elif key == "hand_row":
                    found = need_outcome(label).hands[s]
                elif key == "took":
                    found = need_outcome(label).took[s]
                elif key == "paid":
                    found = need_outcome(label).paid[s]
                elif key == "money":
                    rate = deal.profile.money_per_point
                    if rate is None:
                        raise ExampleError(path, line_of(label), f"step {n}: {label}: profile {deal.profile.key} has no money per point")
                    found = money_text(need_outcome(label).paid[s], rate)
                    value = str(value)
                else:  # score
                    need_outcome(label)
                    if walk.scores_after is None:
                        raise ExampleError(path, line_of(label), f"step {n}: {label}: give the scores before the deal in a 'scores' table")
                    found = walk.scores_after[s]
                if found != value:
                    raise mismatch(label, value, found)
        else:
            if key == "stock":
                found = len(deal.stock)
            elif key == "pile_top":
                found = C.card_text(deal.pile_top) if deal.pile_top is not None else None
            elif key == "pile":
                found = C.cards_text(deal.pile)
            elif key == "offer":
                found = C.cards_text(deal.offer_cards)
            elif key == "out_of_play":
                found = len(deal.out_of_play)
            elif key == "pile_size":
                found = len(deal.pile)
            elif key == "all_cards":
                found = deal.card_count()
            elif key == "winner":
                w = need_outcome(key).winner
                found = "none" if w is None else names[w]
            elif key == "caught":
                found = need_outcome(key).caught
            elif key == "eliminated":
                need_outcome(key)
                found = [names[s] for s in walk.eliminated]
            elif key == "turn":
                found = names[deal.turn]
            else:  # phase
                found = deal.phase
            if found != want:
                raise mismatch(key, want, found)


def load_file(path: str | Path, *, name: str | None = None) -> Walkthrough:
    """Run the example file at ``path``; errors name it as ``name`` (default: the path)."""
    p = Path(path)
    shown = name or str(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ExampleError(shown, None, f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ExampleError(shown, None, "not UTF-8 text") from None
    return load_text(text, shown)


def example_files(paths: list[str | Path]) -> list[Path]:
    """The ``.toml`` files named or found (sorted) under the given paths."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(p.glob("*.toml"))
        else:
            out.append(p)
    return out


def babel_extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Any:
    """Babel extractor for example files: each ``title``, ``intro`` and step ``note`` is a msgid."""
    text = fileobj.read().decode("utf-8")
    for lineno, line in enumerate(text.splitlines(), start=1):
        m = re.match(r'^\s*(title|intro|note)\s*=\s*(".*")\s*(#.*)?$', line)
        if m:
            try:
                value = tomllib.loads(f"v = {m.group(2)}")["v"]
            except tomllib.TOMLDecodeError:
                continue  # a broken line: `python -m dhumbal check` reports the file
            if isinstance(value, str):
                yield lineno, None, value, [f"example {m.group(1)}"]


_NOTE_FIELD = re.compile(r"\{([a-z_]+)(?:\.([^{}]+))?\}")


def note_text(walk: Walkthrough, result: StepResult, lang: str) -> str | None:
    """A step's narration in ``lang``, with ``{total.A}``-style fields filled from the engine.

    Fields: ``total.SEAT``, ``cards.SEAT``, ``took.SEAT``, ``paid.SEAT``,
    ``hand_row.SEAT``, ``score.SEAT`` (after the step), ``limit``, ``penalty``,
    ``stock``. A narration therefore never states a number the engine did not
    produce.
    """
    from .i18n import number, translator

    note = result.step.note
    if note is None:
        return None
    table = result.table
    names = walk.names
    outcome = table["outcome"]

    def fill(m: re.Match[str]) -> str:
        key, seat = m.group(1), m.group(2)
        value: object
        if seat is not None:
            if seat not in names:
                raise ExampleError(walk.path, result.step.line, f"note field {m.group(0)}: {seat!r} is not a seat")
            s = names.index(seat)
            if key == "total":
                value = table["totals"][s]
            elif key == "cards":
                value = len(table["hands"][s])
            elif key in ("took", "paid", "hand_row") and outcome is not None:
                value = outcome["hands" if key == "hand_row" else key][s]
            elif key == "score" and walk.scores_after is not None:
                value = walk.scores_after[s]
            else:
                raise ExampleError(walk.path, result.step.line, f"note field {m.group(0)} has no value at this step")
        elif key == "limit" and walk.profile.call_limit is not None:
            value = walk.profile.call_limit
        elif key == "penalty":
            value = walk.profile.penalty
        elif key == "stock":
            value = table["stock"]
        else:
            raise ExampleError(walk.path, result.step.line, f"unknown note field {m.group(0)}")
        return number(value, lang, signed=key == "paid") if isinstance(value, int) else str(value)

    return _NOTE_FIELD.sub(fill, translator(lang).raw(note))


def check_notes(walk: Walkthrough) -> None:
    """Fill every note once so that a bad field fails the check, not the page."""
    for r in walk.steps:
        note_text(walk, r, "en")
