"""The protocol's types (dhumbal.table.messages) are JSON only, snake_case, and what the worker really sends.

The front end's TypeScript types are generated from that module, so a type
that drifts from the answers would mislead the page's scripts without any
test failing. Here every request type is one op of the dispatch, every op
has its answer type, every type names only JSON values, and real answers to
every op (refusals and errors included) are checked against their type,
key by key, at any depth.
"""

from __future__ import annotations

import json
import re
import types
import typing
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, is_typeddict

import pytest

from dhumbal.table import messages, web
from tests.table.tablekit import simple_move

SNAKE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")
TYPEDDICTS = [v for v in vars(messages).values() if is_typeddict(v) and v.__module__ == messages.__name__]


def hints(td: type) -> dict[str, Any]:
    return typing.get_type_hints(td, include_extras=True)


def _json_type(t: Any, where: str) -> list[str]:
    """Why ``t`` is not a JSON type (empty when it is)."""
    origin = get_origin(t)
    if t in (str, int, float, bool, type(None)):
        return []
    if is_typeddict(t):
        return [] if t.__module__ == messages.__name__ else [f"{where}: {t} is not defined in messages"]
    if origin is Literal:
        return [] if all(isinstance(a, (str, int, bool)) for a in get_args(t)) else [f"{where}: {t}"]
    if origin is NotRequired:
        return _json_type(get_args(t)[0], where)
    if origin in (Union, types.UnionType):
        return [p for a in get_args(t) for p in _json_type(a, where)]
    if origin is list:
        return _json_type(get_args(t)[0], where)
    if origin is dict:
        key, value = get_args(t)
        return ([] if key is str else [f"{where}: an object's keys are text"]) + _json_type(value, where)
    return [f"{where}: {t} is not a JSON type"]


def test_every_type_is_json_only_snake_case_and_documented() -> None:
    problems = []
    for td in TYPEDDICTS:
        if not (td.__doc__ or "").strip():
            problems.append(f"{td.__name__} has no docstring")
        for key, t in hints(td).items():
            if not SNAKE.fullmatch(key) and key not in ("c", "h", "v"):
                problems.append(f"{td.__name__}.{key} is not snake_case")
            problems += _json_type(t, f"{td.__name__}.{key}")
    assert TYPEDDICTS and not problems, problems


def test_snake_case_allows_the_sheet_s_one_letter_keys_and_nothing_camel() -> None:
    assert SNAKE.fullmatch("over_by_rules") and not SNAKE.fullmatch("overByRules") and SNAKE.fullmatch("c")


def test_every_request_type_is_an_op_of_the_dispatch_with_an_answer_type() -> None:
    requests = get_args(messages.Request)
    ops = {get_args(hints(r)["op"])[0]: r for r in requests}
    assert len(ops) == len(requests)
    assert set(ops) == set(web.OPS) == set(messages.RESPONSES)
    for op, answer in messages.RESPONSES.items():
        assert is_typeddict(answer) and answer in get_args(messages.Response), op


# -- real answers against their types ------------------------------------------------------


def conforms(value: Any, t: Any, where: str = "$") -> list[str]:
    """Where ``value`` (decoded JSON) differs from type ``t`` (empty when it conforms)."""
    origin = get_origin(t)
    if origin is NotRequired:
        return conforms(value, get_args(t)[0], where)
    if is_typeddict(t):
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        fields = hints(t)
        out = [f"{where}.{k}: missing" for k in t.__required_keys__ if k not in value]
        out += [f"{where}.{k}: not in {t.__name__}" for k in value if k not in fields]
        for k, v in value.items():
            if k in fields:
                out += conforms(v, fields[k], f"{where}.{k}")
        return out
    if origin in (Union, types.UnionType):
        tried = [conforms(value, a, where) for a in get_args(t)]
        return [] if any(not p for p in tried) else min(tried, key=len)
    if origin is Literal:
        return [] if value in get_args(t) and type(value) in {type(a) for a in get_args(t)} else [f"{where}: {value!r} not in {t}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: not a list"]
        return [p for i, v in enumerate(value) for p in conforms(v, get_args(t)[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        return [p for k, v in value.items() for p in conforms(v, get_args(t)[1], f"{where}.{k}")]
    if t is type(None):
        return [] if value is None else [f"{where}: not null"]
    if t is float:
        return [] if isinstance(value, (int, float)) and not isinstance(value, bool) else [f"{where}: not a number"]
    if t is int:
        return [] if isinstance(value, int) and not isinstance(value, bool) else [f"{where}: not a whole number"]
    return [] if type(value) is t else [f"{where}: not {t.__name__}"]


TABLE = "messages-table"


def ask(**request: Any) -> dict[str, Any]:
    request.setdefault("table", TABLE)
    out = json.loads(web.handle(json.dumps(request)))
    assert isinstance(out, dict)
    return out


def check(request: dict[str, Any]) -> dict[str, Any]:
    """The answer to ``request``, checked against its op's type (or the error type)."""
    answer = ask(**request)
    expected = messages.RESPONSES[request["op"]] if answer.get("ok") else messages.ErrorResponse
    problems = conforms(answer, expected)
    assert not problems, (request["op"], problems[:10])
    return answer


@pytest.fixture(autouse=True)
def no_tables() -> None:
    web.close_tables()


def test_the_checker_can_fail() -> None:
    assert conforms({"ok": True}, messages.PongResponse)
    assert conforms({"ok": True, "pong": True, "version": "1", "protocol": "2"}, messages.PongResponse)
    assert conforms({"ok": False, "error": {"code": "x", "text": "y"}, "lang": "en", "extra": 1}, messages.ErrorResponse)
    assert not conforms({"ok": False, "error": {"code": "x", "text": "y"}, "lang": "en"}, messages.ErrorResponse)


@pytest.mark.parametrize("profile", ["nepali-games", "dashain", "cardrulesplus(players=3)"])
def test_answers_to_every_op_are_what_their_types_say(profile: str) -> None:
    check({"op": "ping"})
    check({"op": "state"})  # no game yet: an error
    new = check({"op": "new", "profile": profile, "seed": 7, "difficulty": "hard", "lang": "fr"})
    assert new["ok"]
    check({"op": "settings", "profile": profile, "lang": "ne"})
    check({"op": "hint"})
    check({"op": "sort"})
    check({"op": "lang", "lang": "nl"})
    check({"op": "act", "action": "throw"})  # refused: nothing marked
    check({"op": "next-deal"})  # refused: the deal is not over
    check({"op": "review"})  # refused: the deal is not over
    session = web.table(TABLE).playing()
    for _ in range(400):
        deal = session.deal
        assert deal is not None
        if deal.is_over:
            break
        answer = check({"op": "act", "action": simple_move(deal, session.my_deal_seat() or 0)})
        assert answer["ok"] and answer["refusal"] is None
    over = check({"op": "review"})
    assert over["ok"] and over["summary"]["transcript"] is not None
    check({"op": "restore", "hash": over["hash"], "own": True})
    check({"op": "restore", "hash": "table=2.broken", "fallback": {"profile": profile}})
    check({"op": "state"})
    check({"op": "new-match"})
    check({"op": "nope"})


def test_a_position_and_the_score_pad_are_what_their_types_say() -> None:
    first = check({"op": "new", "profile": "dashain", "seed": 3})
    state = web.table(TABLE).playing().settings
    assert first["ok"] and state is not None
    from dhumbal.play.records import state_to_json

    deal = web.table(TABLE).playing().deal
    assert deal is not None
    check({"op": "position", "state": state_to_json(deal), "names": None, "practice": True})
    check({"op": "position", "state": json.dumps({"state": state_to_json(deal), "names": ["A", "B", "C", "D"]})})
    sheet = {"v": 1, "profile": "dashain", "names": ["A", "B", "C"], "dealer": 0, "deals": [], "end": False}
    pad = check({"op": "scorepad", "sheet": sheet, "setup": {"profile": "dashain", "options": {}}})
    pad = check({"op": "scorepad", "sheet": pad["sheet"], "change": {"kind": "add", "c": 0, "h": [2, 9, 12]}})
    assert pad["ok"] and pad["deals"] == 1 and pad["over_by_rules"] is False
    refused = check({"op": "scorepad", "sheet": pad["sheet"], "change": {"kind": "add", "c": 1, "h": [2, 99, 12]}})
    assert refused["ok"] and refused["refusal"] is not None
    check({"op": "scorepad", "sheet": {"v": 1}})


def test_the_protocol_s_words_are_the_engine_s() -> None:
    """The module imports nothing of the engine (the TypeScript is generated from it alone), so the
    values it names by hand are held to the engine's here."""
    from dhumbal.bots.botlevels import DIFFICULTIES
    from dhumbal.matches.scoresheet import CHANGES
    from dhumbal.play.groups import GroupKind
    from dhumbal.play.seatview import Phase

    assert get_args(messages.Difficulty) == DIFFICULTIES
    assert get_args(messages.Phase) == get_args(Phase)
    assert set(get_args(hints(messages.PositionState)["offer_kind"])) == set(get_args(GroupKind))
    assert set(get_args(hints(messages.SheetChange)["kind"])) == set(CHANGES)
    assert messages.PROTOCOL == web.handle_request({"op": "ping"})["protocol"]  # type: ignore[typeddict-item]
