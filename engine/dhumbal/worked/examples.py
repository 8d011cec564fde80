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

The work is split by job: :mod:`dhumbal.worked.examplefile` reads a file (bounded,
with the line of every key), this module reads its header (profile, seats,
names, scores, the position or the seed) and runs it,
:mod:`dhumbal.worked.examplesteps` runs and checks each step,
:mod:`dhumbal.worked.examplenotes` fills the notes, and :mod:`dhumbal.worked.examplemodel`
holds what a run gives. The names other modules use are all importable from
here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from ..core import cards as C
from ..core.profiles import Profile, ProfileError, find_profile
from ..core.shuffling import shuffle
from ..play.deal import Deal, PositionError
from ..play.records import from_position, state_to_json
from .examplefile import (
    MAX_FILE_BYTES,
    MAX_NESTING,
    ExampleError,
    Positions,
    parse,
    read_file,
    shown_name,
)
from .examplemodel import Step, StepResult, Walkthrough, display_names
from .examplenotes import babel_extract, check_notes, note_text
from .examplesteps import PHASES, cards_of, is_int, parse_step, run_step, shown, table_of

__all__ = [
    "ExampleError", "MAX_FILE_BYTES", "MAX_NESTING", "PHASES", "Step", "StepResult", "Walkthrough", "babel_extract",
    "check_notes", "display_names", "example_files", "load_file", "load_parsed", "load_text", "note_text", "read_text",
    "shown_name",
]

TOP_KEYS: Final = {"title", "profile", "options", "seats", "names", "dealer", "position", "seed", "steps", "scores", "intro", "table", "unseen"}
MAX_DISPLAY_NAME: Final = 40
POSITION_KEYS: Final = {"pile", "stock", "out_of_play", "offer", "turn", "turns", "rest"}
#: Words a seat may not be called: the position's own keys (a seat called
#: "stock" would be read as the stock) and "none" (``winner = "none"``).
RESERVED_SEAT_NAMES: Final = POSITION_KEYS | {"none"}


def _seat_problem(name: object) -> str | None:
    """Why ``name`` cannot name a seat (``None`` if it can)."""
    if not isinstance(name, str) or not name:
        return "seats must be a list of names"
    if name in RESERVED_SEAT_NAMES:
        return (f"a seat cannot be called {name!r}: the position uses that word for itself "
                f"({', '.join(sorted(RESERVED_SEAT_NAMES))}); call the seat otherwise")
    if len(name) > MAX_DISPLAY_NAME or not name.isprintable() or name.strip() != name or any(ch in name for ch in ":{}"):
        return (f"seat name {shown(name)} must be printable text of 1 to {MAX_DISPLAY_NAME} characters, "
                "without spaces around it or the characters : { }")
    return None


def load_text(text: str, path: str, *, extra_keys: frozenset[str] = frozenset(), min_steps: int = 1,
              needs_title: bool = True) -> Walkthrough:
    """Run the example in ``text`` (``path`` names it in errors, shown as :func:`shown_name` shows it).

    A file of another kind built on the example format (a puzzle) names the
    top-level keys it adds in ``extra_keys``, may need fewer steps, and may
    do without a title (a generated puzzle's is composed from its position).
    """
    return load_parsed(text, path, extra_keys=extra_keys, min_steps=min_steps, needs_title=needs_title)[0]


def load_parsed(text: str, path: str, *, extra_keys: frozenset[str] = frozenset(), min_steps: int = 1,
                needs_title: bool = True) -> tuple[Walkthrough, dict[str, Any]]:
    """:func:`load_text`, with the file's data as read (for a file of another kind: its own keys)."""
    path = shown_name(path)
    data, where = parse(text, path)
    top_line = where.top

    def fail(key: str, message: str) -> ExampleError:
        return ExampleError(path, top_line(key), message)

    allowed = TOP_KEYS | extra_keys
    unknown = set(data) - allowed
    if unknown:
        k = sorted(unknown)[0]
        raise fail(k, f"unknown key {k!r}; allowed: {', '.join(sorted(allowed))}")
    for key in (("title",) if needs_title else ()) + ("profile", "seats") + (("steps",) if min_steps else ()):
        if key not in data:
            raise ExampleError(path, None, f"missing key {key!r}")
    for key in ("title", "intro", "profile"):
        if key in data and not isinstance(data[key], str):
            raise fail(key, f"{key} must be text in quotes, not {shown(data[key])}")
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
                                   f"option {k} must be a number, on/off or text, not {shown(v)}")
        seats = data["seats"]
        if not isinstance(seats, list) or not seats:
            raise fail("seats", "seats must be a list of names")
        for index, seat in enumerate(seats):
            problem = _seat_problem(seat)
            if problem:
                raise ExampleError(path, where.first(("seats", index), ("seats",)), problem)
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
        raise ExampleError(path, line or top_line(key), f"{shown(name)} is not a seat; seats are {', '.join(names)}")

    dealer = seat_of(data.get("dealer", names[-1]), "dealer")
    deal = _build_deal(data, profile, names, dealer, seat_of, path, where)

    scores_before: list[int] | None = None
    if "scores" in data:
        scores_before = [0] * len(names)
        for k, v in data["scores"].items():
            line = where.in_section("scores", k)
            if not is_int(v):
                raise ExampleError(path, line, f"score of {k} must be a whole number, not {shown(v)}")
            scores_before[seat_of(k, "scores", line)] = v

    display = _display_names(data.get("names"), names, path, where)
    unseen = data.get("unseen", [])
    if not isinstance(unseen, list):
        raise fail("unseen", "unseen must be a list of seats whose hands the reader does not see, e.g. unseen = [\"B\"]")
    start = table_of(deal, names)
    walk = Walkthrough(
        id=Path(path).stem, path=path, title=data.get("title", ""), intro=data.get("intro"),
        profile=profile, names=names, dealer=dealer, start=start, start_state=state_to_json(deal),
        scores_before=scores_before,
        table_options=dict(data.get("table", {})),
        display=display,
        unseen=frozenset(seat_of(name, "unseen") for name in unseen),
    )

    steps = data.get("steps", [])
    if not isinstance(steps, list) or len(steps) < min_steps:
        raise fail("steps", "steps must be a list of [[steps]] tables")
    for i, raw in enumerate(steps):
        step = parse_step(i, raw, where, names, seat_of, path)
        walk.steps.append(run_step(deal, step, walk, path, where))
    walk.outcome = deal.outcome
    check_notes(walk)
    return walk, data


def _display_names(raw: Any, names: list[str], path: str, where: Positions) -> dict[str, list[str]]:
    """``[names]``: for a language, every seat's name as that language writes it."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ExampleError(path, where.top("names"), "names must be a table of languages, e.g. ne = { Asha = \"आशा\" }")
    out: dict[str, list[str]] = {}
    for lang, table in raw.items():
        line = where.first(("names", lang), ("names",))
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


def _position_error_line(exc: Exception, pos: Mapping[str, Any], where: Positions,
                         names: list[str] | None = None) -> int | None:
    """The line a ``PositionError`` is about: the value holding the card it names, the seat whose
    hand it names, else the key it names."""
    message = str(exc)
    seat = re.search(r"hands\[(\d+)\]", message)
    if seat and names is not None and int(seat.group(1)) < len(names) and names[int(seat.group(1))] in pos:
        return where.in_section("position", names[int(seat.group(1))])
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
                if named & set(cards_of(value)):
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


#: The most cards a hand given as a number may hold (a deal's hands are far smaller).
MAX_COUNTED: Final = 10


def _deal_counted(profile: Profile, hands: list[list[int]], counted: Mapping[int, int], placed: list[int],
                  stem: str) -> list[int] | None:
    """Deal the hands given as numbers from the cards the position leaves, in a random order
    seeded by the file's name, into ``hands``; return the rest in that order (the stock under
    the cards the file puts on top), or ``None`` if too few cards are left."""
    used = set(placed) | {c for h in hands for c in h}
    left = [c for c in C.full_deck(jokers=profile.jokers) if c not in used]
    if sum(counted.values()) > len(left):
        return None
    shuffle(left, f"dhumbal/position/{stem}")
    for seat in sorted(counted):
        k = counted[seat]
        hands[seat] = left[len(left) - k:]
        del left[len(left) - k:]
    return left


def _build_deal(data: Mapping[str, Any], profile: Profile, names: list[str], dealer: int, seat_of: Any,
                path: str, where: Positions) -> Deal:
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
            return cards_of(pos[key])
        except C.CardError as exc:
            raise ExampleError(path, line(key), f"impossible position: {key}: {exc}") from None
        except TypeError as exc:
            raise ExampleError(path, line(key), f"position {key}: {exc}") from None

    hands: list[list[int]] = [[] for _ in names]
    counted: dict[int, int] = {}  # seats whose hands are given as a number of cards
    for key in pos:
        if key in POSITION_KEYS:
            continue
        if key not in names:
            raise ExampleError(path, line(key), f"position key {key!r} is neither a seat ({', '.join(names)}) nor one of {', '.join(sorted(POSITION_KEYS))}")
        if is_int(pos[key]):
            if not 0 <= pos[key] <= MAX_COUNTED:
                raise ExampleError(path, line(key), f"position {key}: a hand given as a number holds 0 to {MAX_COUNTED} cards, not {pos[key]}")
            counted[names.index(key)] = pos[key]
            continue
        hands[names.index(key)] = cards(key)
    if "pile" not in pos:
        raise ExampleError(path, top_line("position"), "the position needs a pile (the face-up card or cards)")
    turn = seat_of(pos["turn"], "position", line("turn")) if "turn" in pos else None
    turns = pos.get("turns", 0)
    if not is_int(turns) or turns < 0:
        raise ExampleError(path, line("turns"), f"position turns must be a whole number ≥ 0, not {shown(turns)}")
    offer = pos.get("offer")
    if offer is not None and (not is_int(offer) or offer < 1):
        raise ExampleError(path, line("offer"), f"position offer must be a number of face-up cards (1 or more), not {shown(offer)}")
    rest = pos.get("rest", "stock")
    if rest not in ("stock", "pile"):
        raise ExampleError(path, line("rest"), f"position rest must be \"stock\" or \"pile\", not {shown(rest)}")
    pile = cards("pile")
    stock = cards("stock") if "stock" in pos else []
    out = cards("out_of_play") if "out_of_play" in pos else []
    whole: list[int] | None = None
    if counted:
        if rest == "pile":
            raise ExampleError(path, line("rest"), "a hand given as a number needs the rest of the pack in the stock, not rest = \"pile\"")
        whole = _deal_counted(profile, hands, counted, [*pile, *stock, *out], Path(path).stem)
        if whole is None:
            raise ExampleError(path, line(names[min(counted)]), "impossible position: not enough cards left for the hands given as numbers")
        whole = stock + whole
    try:
        return from_position(
            profile, hands=hands, pile=pile, stock_top=stock if whole is None else (), stock=whole, out_of_play=out, dealer=dealer, turn=turn,
            offer=offer, turns=turns, seed=Path(path).stem, rest="pile" if rest == "pile" else "stock",
        )
    except (PositionError, C.CardError) as exc:
        raise ExampleError(path, _position_error_line(exc, pos, where, names), f"impossible position: {exc}") from None


def read_text(path: str | Path, name: str) -> str:
    """The text of the file at ``path``, read as :func:`dhumbal.worked.examplefile.read_file` reads it
    (bounded, regular files only); errors name it as ``name``, shown as :func:`shown_name` shows it."""
    return read_file(path, shown_name(name))


def load_file(path: str | Path, *, name: str | None = None) -> Walkthrough:
    """Run the example file at ``path``; errors name it as ``name`` (default: the path).

    A FIFO, a device or a file over :data:`MAX_FILE_BYTES` bytes is refused
    before it is read (see :func:`dhumbal.worked.examplefile.read_file`).
    """
    shown_as = shown_name(name or str(path))
    return load_text(read_file(path, shown_as), shown_as)


def example_files(paths: list[str | Path]) -> list[Path]:
    """The ``.toml`` files named or found (sorted) under the given paths."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(p.glob("*.toml"))
        else:
            out.append(p)
    return out
