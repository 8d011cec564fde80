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

TOP_KEYS: Final = {"title", "profile", "options", "seats", "dealer", "position", "seed", "steps", "scores", "intro", "table", "unseen"}
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
    state: dict[str, Any] = field(default_factory=dict)  # the whole deal after the step (Deal.to_json)


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
    unseen: frozenset[int] = frozenset()  # seats whose hands the reader does not see until the show


def display_names(walk: Walkthrough, lang: str) -> list[str]:
    """The seats' names as a reader of ``lang`` sees them (the one place that says so)."""
    return list(walk.names)


def _lines(text: str) -> tuple[list[int], list[str]]:
    lines = text.splitlines()
    heads = [i + 1 for i, ln in enumerate(lines) if re.match(r"^\s*\[\[\s*steps\s*\]\]", ln)]
    return heads, lines


def _find_line(lines: list[str], start: int, end: int, pattern: str) -> int | None:
    rx = re.compile(pattern)
    for i in range(max(0, start - 1), min(len(lines), end)):
        if rx.search(lines[i]):
            return i + 1
    return None


def load_text(text: str, path: str) -> Walkthrough:
    """Run the example in ``text`` (``path`` names it in errors)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ExampleError(path, int(m.group(1)) if m else None, f"not valid TOML: {exc}") from None
    heads, lines = _lines(text)

    def top_line(key: str) -> int | None:
        return _find_line(lines, 1, len(lines), rf"^\s*(\[)?\s*{re.escape(key)}\b")

    def fail(key: str, message: str) -> ExampleError:
        return ExampleError(path, top_line(key), message)

    unknown = set(data) - TOP_KEYS
    if unknown:
        k = sorted(unknown)[0]
        raise fail(k, f"unknown key {k!r}; allowed: {', '.join(sorted(TOP_KEYS))}")
    for key in ("title", "profile", "seats", "steps"):
        if key not in data:
            raise ExampleError(path, None, f"missing key {key!r}")
    if not isinstance(data["title"], str):
        raise fail("title", "title must be text")
    try:
        profile = find_profile(str(data["profile"]))
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise fail("options", "options must be a table, e.g. options = { players = 2 }")
        seats = data["seats"]
        if not isinstance(seats, list) or not all(isinstance(s, str) and s for s in seats):
            raise fail("seats", "seats must be a list of names")
        if len(set(seats)) != len(seats):
            raise fail("seats", "seat names must differ")
        opts = dict(options)
        opts.setdefault("players", len(seats))
        profile = profile.with_options(**opts)
    except ProfileError as exc:
        raise fail("options" if "options" in data else "profile", str(exc)) from None
    names: list[str] = list(seats)
    if profile.players != len(names):
        raise fail("seats", f"{len(names)} seats named but the options say players = {profile.players}")

    def seat_of(name: Any, key: str, line: int | None = None) -> int:
        if name in names:
            return names.index(name)
        raise ExampleError(path, line or top_line(key), f"{name!r} is not a seat; seats are {', '.join(names)}")

    dealer = seat_of(data.get("dealer", names[-1]), "dealer")

    try:
        deal = _build_deal(data, profile, names, dealer, seat_of, path, top_line)
    except (PositionError, C.CardError) as exc:
        raise fail("position" if "position" in data else "seed", f"impossible position: {exc}") from None

    scores_before: list[int] | None = None
    if "scores" in data:
        sc = data["scores"]
        if not isinstance(sc, dict):
            raise fail("scores", "scores must be a table of seat = points")
        scores_before = [0] * len(names)
        for k, v in sc.items():
            if not isinstance(v, int):
                raise fail("scores", f"score of {k} must be a whole number")
            scores_before[seat_of(k, "scores")] = v

    unseen = data.get("unseen", [])
    if not isinstance(unseen, list):
        raise fail("unseen", "unseen must be a list of seats whose hands the reader does not see, e.g. unseen = [\"B\"]")
    start = _table(deal, names)
    walk = Walkthrough(
        id=Path(path).stem, path=path, title=data["title"], intro=data.get("intro"),
        profile=profile, names=names, dealer=dealer, start=start, start_state=deal.to_json(),
        scores_before=scores_before,
        table_options=dict(data.get("table", {})) if isinstance(data.get("table"), dict) else {},
        unseen=frozenset(seat_of(name, "unseen") for name in unseen),
    )

    steps = data["steps"]
    if not isinstance(steps, list) or not steps:
        raise fail("steps", "steps must be a list of [[steps]] tables")
    for i, raw in enumerate(steps):
        head = heads[i] if i < len(heads) else None
        end = heads[i + 1] - 1 if i + 1 < len(heads) else len(lines)
        step = _parse_step(i, raw, head, end, lines, names, seat_of, path)
        walk.steps.append(_run_step(deal, step, walk, path, lines, head, end))
    walk.outcome = deal.outcome
    check_notes(walk)
    return walk


def _build_deal(data: Mapping[str, Any], profile: Profile, names: list[str], dealer: int, seat_of: Any, path: str, top_line: Any) -> Deal:
    if "seed" in data and "position" not in data:
        seed = data["seed"]
        if not isinstance(seed, (int, str)):
            raise ExampleError(path, top_line("seed"), "seed must be a number or text")
        return Deal.new(profile, seed, dealer=dealer)
    pos = data.get("position")
    if not isinstance(pos, dict):
        raise ExampleError(path, top_line("position"), "give a [position] table (or a seed)")
    hands: list[list[int]] = [[] for _ in names]
    for key, value in pos.items():
        if key in POSITION_KEYS:
            continue
        if key not in names:
            raise ExampleError(path, top_line("position"), f"position key {key!r} is neither a seat ({', '.join(names)}) nor one of {', '.join(sorted(POSITION_KEYS))}")
        hands[names.index(key)] = C.parse_cards(str(value))
    if "pile" not in pos:
        raise ExampleError(path, top_line("position"), "the position needs a pile (the face-up card or cards)")
    turn = seat_of(pos["turn"], "position") if "turn" in pos else None
    stock = pos.get("stock", "")
    return Deal.from_position(
        profile,
        hands=hands,
        pile=C.parse_cards(str(pos["pile"])),
        stock_top=C.parse_cards(str(stock)),
        out_of_play=C.parse_cards(str(pos.get("out_of_play", ""))),
        dealer=dealer,
        turn=turn,
        offer=pos.get("offer"),
        turns=int(pos.get("turns", 0)),
        seed=Path(path).stem,
        rest="pile" if pos.get("rest") == "pile" else "stock",
    )


def _parse_step(i: int, raw: Any, head: int | None, end: int, lines: list[str], names: list[str], seat_of: Any, path: str) -> Step:
    if not isinstance(raw, dict):
        raise ExampleError(path, head, f"step {i + 1} must be a table")
    unknown = set(raw) - STEP_KEYS
    if unknown:
        raise ExampleError(path, head, f"step {i + 1}: unknown key {sorted(unknown)[0]!r}; allowed: {', '.join(sorted(STEP_KEYS))}")
    act_line = _find_line(lines, head or 1, end, r"^\s*act\s*=") or head
    seat: int | None = None
    action: Action | None = None
    if "act" in raw:
        m = re.match(r"^\s*([^:]+?)\s*:\s*(.+)$", str(raw["act"]))
        if not m:
            raise ExampleError(path, act_line, f"step {i + 1}: write the action as 'SEAT: action', e.g. 'A: take stock'")
        seat = seat_of(m.group(1), "steps", act_line)
        try:
            action = parse_action(m.group(2))
        except IllegalAction:
            raise ExampleError(path, act_line, f"step {i + 1}: cannot read action {m.group(2)!r}: use call, take stock, take pile [CARD], throw CARDS") from None
    expect = raw.get("expect", {})
    if not isinstance(expect, dict):
        raise ExampleError(path, head, f"step {i + 1}: expect must be a table")
    for k, v in expect.items():
        if k in EXPECT_SEAT_KEYS:
            if not isinstance(v, dict):
                raise ExampleError(path, _find_line(lines, head or 1, end, re.escape(k)) or head, f"step {i + 1}: expect {k} needs a seat, e.g. {k}.A = …")
            for s in v:
                seat_of(s, "steps", _find_line(lines, head or 1, end, re.escape(k)) or head)
        elif k not in EXPECT_PLAIN_KEYS:
            raise ExampleError(path, _find_line(lines, head or 1, end, re.escape(k)) or head, f"step {i + 1}: unknown expectation {k!r}")
    refused = raw.get("refused")
    if refused is not None and action is None:
        raise ExampleError(path, head, f"step {i + 1}: refused needs an act")
    return Step(i, act_line, seat, action, dict(expect), refused, raw.get("note"))


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


def _run_step(deal: Deal, step: Step, walk: Walkthrough, path: str, lines: list[str], head: int | None, end: int) -> StepResult:
    events: list[Message] = []
    refusal: IllegalAction | None = None
    n = step.index + 1
    if step.action is not None:
        before = json.dumps(deal.to_json(), sort_keys=True)
        try:
            events = deal.apply(step.action, seat=step.seat)
        except IllegalAction as exc:
            refusal = exc
        if refusal is not None:
            if json.dumps(deal.to_json(), sort_keys=True) != before:
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
    _check_expect(deal, step, walk, path, lines, head, end)
    return StepResult(step, events, refusal, table, deal.to_json())


def _book(deal: Deal, walk: Walkthrough) -> tuple[list[int], list[int]]:
    assert walk.scores_before is not None
    m = Match(deal.profile, seed=0, first_dealer=deal.dealer, scores=list(walk.scores_before))
    m.deal = deal
    m.seating = list(range(deal.players))
    m.dealers = [deal.dealer]
    m.finish_deal()
    return list(m.scores), list(m.eliminated)


def _check_expect(deal: Deal, step: Step, walk: Walkthrough, path: str, lines: list[str], head: int | None, end: int) -> None:
    names = walk.names
    o = deal.outcome
    n = step.index + 1

    def line_of(key: str) -> int | None:
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
                    value = C.cards_text(C.parse_cards(str(value)))
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
                want = C.card_text(C.parse_card(str(want)))
            elif key == "pile":
                found = C.cards_text(deal.pile)
                want = C.cards_text(C.parse_cards(str(want)))
            elif key == "offer":
                found = C.cards_text(deal.offer_cards)
                want = C.cards_text(C.parse_cards(str(want)))
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
            value = tomllib.loads(f"v = {m.group(2)}")["v"]
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
