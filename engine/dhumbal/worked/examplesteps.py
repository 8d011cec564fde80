"""Running a worked example's steps and checking what each expects.

A step acts for a seat (``act = "A: throw K♠ K♥"``), may say that the engine
refuses it (``refused = "call-after-draw"``) and expects facts of the deal
after it (``expect = { total.A = 5, pile_top = "K♥" }``). :func:`parse_step`
reads a step and checks every expectation's type before anything runs;
:func:`run_step` applies the action through the engine's checked path and
compares: an action refused that should not be (or the reverse), a refusal
that changed the deal, or any fact that differs is an ``ExampleError`` on the
line that states it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from ..core import cards as C
from ..core.messages import Message
from ..matches.match import Match, money_text
from ..play.deal import Action, Deal, IllegalAction, Outcome, parse_action
from ..play.records import state_to_json
from .examplefile import ExampleError, Positions
from .examplemodel import Step, StepResult, Walkthrough

STEP_KEYS: Final = {"act", "expect", "refused", "note"}
EXPECT_SEAT_KEYS: Final = {"total", "hand", "cards", "took", "paid", "money", "score", "hand_row"}
PHASES: Final = ("start", "throw", "take", "over")

SeatOf = Callable[..., int]


def is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def shown(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "…"


def cards_of(value: object) -> list[C.Card]:
    """Cards from ``"K♠ K♥"`` or ``["K♠", "K♥"]``; ``CardError`` or ``TypeError`` otherwise."""
    if isinstance(value, str) or (isinstance(value, list) and all(isinstance(x, str) for x in value)):
        return C.parse_cards(value)
    raise TypeError(f"cards must be text such as \"K♠ K♥\", not {shown(value)}")


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


def expect_value(kind: str, value: Any, names: list[str]) -> Any:
    """``value`` checked (and cards read) for an expectation of ``kind``; ``ValueError`` naming what it must be."""
    ok: bool
    if kind == "count":
        ok = is_int(value) and value >= 0
    elif kind == "int":
        ok = is_int(value)
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
            cards = cards_of(value)
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
        raise ValueError(f"must be {_KIND_TEXT[kind]}, not {shown(value)}")
    return value


def parse_step(i: int, raw: Any, where: Positions, names: list[str], seat_of: SeatOf, path: str) -> Step:
    """Step ``i`` (0-based) of the file, read and type-checked; ``ExampleError`` on the line of what is wrong."""
    head = where.step(i)
    n = i + 1
    if not isinstance(raw, dict):
        raise ExampleError(path, head, f"step {n} must be a table")
    unknown = set(raw) - STEP_KEYS
    if unknown:
        raise ExampleError(path, head, f"step {n}: unknown key {sorted(unknown)[0]!r}; allowed: {', '.join(sorted(STEP_KEYS))}")
    for key in ("act", "refused", "note"):
        if key in raw and not isinstance(raw[key], str):
            raise ExampleError(path, where.in_step(i, key), f"step {n}: {key} must be text in quotes, not {shown(raw[key])}")
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
                    per_seat[s] = expect_value(EXPECT_KINDS[k], value, names)
                except ValueError as exc:
                    raise ExampleError(path, line, f"step {n}: expect {k}.{s} {exc}") from None
            checked[k] = per_seat
        elif kind is not None:
            try:
                checked[k] = expect_value(kind, v, names)
            except ValueError as exc:
                raise ExampleError(path, where.in_step(i, k), f"step {n}: expect {k} {exc}") from None
        else:
            raise ExampleError(path, where.in_step(i, k), f"step {n}: unknown expectation {k!r}")
    refused = raw.get("refused")
    if refused is not None and action is None:
        raise ExampleError(path, where.in_step(i, "refused"), f"step {n}: refused needs an act")
    return Step(i, act_line, seat, action, checked, refused, raw.get("note"))


def table_of(deal: Deal, names: list[str]) -> dict[str, Any]:
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


def run_step(deal: Deal, step: Step, walk: Walkthrough, path: str, where: Positions) -> StepResult:
    """Apply the step to ``deal`` through the engine's checked path and check what it expects."""
    events: list[Message] = []
    refusal: IllegalAction | None = None
    n = step.index + 1
    if step.action is not None:
        before = deal.copy()  # a few microseconds; written out only if a refusal must be compared
        try:
            events = deal.apply(step.action, seat=step.seat)
        except IllegalAction as exc:
            refusal = exc
        if refusal is not None:
            if json.dumps(state_to_json(deal), sort_keys=True) != json.dumps(state_to_json(before), sort_keys=True):
                raise ExampleError(path, step.line, f"step {n}: a refused action changed the state")
            if step.refused is None:
                raise ExampleError(path, step.line, f"step {n}: expected {step.action} to be legal, but the engine refused it ({refusal.code}: {refusal.text()})")
            if refusal.code != step.refused:
                raise ExampleError(path, step.line, f"step {n}: expected refusal {step.refused!r}, found {refusal.code!r} ({refusal.text()})")
        elif step.refused is not None:
            raise ExampleError(path, step.line, f"step {n}: expected refusal {step.refused!r}, but the engine accepted {step.action}")
        if deal.is_over and deal.outcome is not None and walk.scores_before is not None and walk.scores_after is None:
            walk.scores_after, walk.eliminated = book(deal, walk)
    table = table_of(deal, walk.names)
    check_expect(deal, step, walk, path, where)
    return StepResult(step, events, refusal, table, state_to_json(deal))


def book(deal: Deal, walk: Walkthrough) -> tuple[list[int], list[int]]:
    assert walk.scores_before is not None
    m = Match(deal.profile, seed=0, first_dealer=deal.dealer, scores=list(walk.scores_before))
    m.deal = deal
    m.seating = list(range(deal.players))
    m.dealers = [deal.dealer]
    m.finish_deal()
    return list(m.scores), list(m.eliminated)


def check_expect(deal: Deal, step: Step, walk: Walkthrough, path: str, where: Positions) -> None:
    """Compare the step's expectations (read and type-checked by ``_parse_step``) with the deal."""
    names = walk.names
    o = deal.outcome
    n = step.index + 1

    def line_of(key: str) -> int | None:
        k, _, seat = key.partition(".")
        return where.in_step(step.index, k, seat or None)

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
