"""Everything parsed from a link or a request is bounded in length and depth.

A ``#table=`` link or a request whose JSON nests thousands deep would make
Python's recursive JSON parser raise ``RecursionError`` (and kill Pyodide in
the browser); these texts are refused with the usual clear message before
the parser sees them, and the measuring itself does not recurse.
"""

from __future__ import annotations

import base64
import json
import sys
import time
from typing import Any

import pytest

from dhumbal.core import boundedjson
from dhumbal.play import share
from dhumbal.table import protocol, web

DEEP = 3_000


@pytest.fixture(autouse=True)
def fresh_sessions() -> None:
    web.close_tables()


def ask_text(text: str) -> dict[str, Any]:
    out = json.loads(web.handle(text))
    assert isinstance(out, dict)
    return out


def link(payload_json: str) -> str:
    return "#table=" + base64.urlsafe_b64encode(payload_json.encode()).decode().rstrip("=")


def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


# -- the measure --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("1", 0),
        ('"[[[[{{"', 0),
        ("[]", 1),
        ('{"a": [1, {"b": "]]]"}], "c": {}}', 3),
        (r'["\"[", ["\\", [[]]]]', 4),
        (nested(DEEP), DEEP),
    ],
)
def test_nesting_counts_brackets_outside_strings(text: str, depth: int) -> None:
    assert boundedjson.nesting(text) == depth


def test_nesting_does_not_recurse() -> None:
    # Far deeper than the recursion limit: a recursive measure would fail here.
    deep = nested(sys.getrecursionlimit() * 20)
    assert boundedjson.nesting(deep) == sys.getrecursionlimit() * 20


@pytest.mark.parametrize(
    "hostile",
    [
        '"' + '\\"' * 100_000,  # an unterminated string of escaped quotes
        '"a' * 100_000,  # many unterminated strings
        "[" * 200_000,
        '"\\' * 100_000,
    ],
)
def test_nesting_is_linear_on_hostile_text(hostile: str) -> None:
    started = time.process_time()
    boundedjson.nesting(hostile)
    # Quadratic scanning of 200,000 characters takes minutes; linear takes milliseconds.
    assert time.process_time() - started < 2.0


def test_loads_refuses_deep_and_long_text_before_parsing() -> None:
    assert boundedjson.loads(nested(boundedjson.MAX_DEPTH), max_chars=1000) == json.loads(nested(boundedjson.MAX_DEPTH))
    with pytest.raises(boundedjson.JSONLimitError, match="nested"):
        boundedjson.loads(nested(boundedjson.MAX_DEPTH + 1), max_chars=1000)
    with pytest.raises(boundedjson.JSONLimitError, match="over 10 characters"):
        boundedjson.loads("[1,2,3,4,5,6]", max_chars=10)
    with pytest.raises(ValueError):
        boundedjson.loads("{not json", max_chars=1000)
    with pytest.raises(ValueError):
        boundedjson.loads(b"\xff\xfe", max_chars=1000)


# -- links ----------------------------------------------------------------------------


def test_a_link_nested_3000_deep_is_refused_as_not_json() -> None:
    text = link(nested(DEEP))
    assert len(text) < share.MAX_HASH  # an 8 kB link: short enough to be read
    with pytest.raises(ValueError, match="nested"):
        share.decode_hash(text)


def test_a_deep_link_gives_the_notice_and_a_fresh_deal() -> None:
    deep_object = '{"v":1,"m":' + nested(DEEP, '""') + "}"
    for hash_text in (link(nested(DEEP)), link(deep_object)):
        web.close_tables()
        r = ask_text(json.dumps({"op": "restore", "hash": hash_text, "table": "t1"}))
        assert r["ok"] is True, r
        assert r["notice"] == web.translator("en")(web.NOTICE_BAD_HASH)
        assert r["summary"]["deal"] == 1


def test_a_deep_link_on_a_live_game_replaces_it_with_a_fresh_deal() -> None:
    first = ask_text(json.dumps({"op": "new", "seed": 5, "table": "t1"}))
    assert first["ok"] is True
    r = ask_text(json.dumps({"op": "restore", "hash": link(nested(DEEP)), "table": "t1", "fallback": {"seed": 9}}))
    assert r["ok"] is True and r["notice"] == web.translator("en")(web.NOTICE_BAD_HASH)
    assert r["summary"]["seed"] == 9


# -- requests -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_request_nested_3000_deep_is_a_bad_request(lang: str) -> None:
    for text in (
        nested(DEEP),
        '{"op":"new","lang":"' + lang + '","options":' + nested(DEEP, "{}") + "}",
        '{"lang":"' + lang + '","op":"position","state":' + "{\"a\":" * DEEP + "1" + "}" * DEEP + "}",
    ):
        r = ask_text(text)
        assert r["ok"] is False
        assert r["error"]["code"] == "bad-request"
        # The language is read only from a request that could be parsed.
        assert r["error"]["text"] in {
            web.translator(code)(protocol.ERROR_BAD_REQUEST) for code in ("en", lang)
        }


def test_a_position_given_as_deep_json_text_is_a_bad_position() -> None:
    state = nested(DEEP, "{}")
    r = ask_text(json.dumps({"op": "position", "state": state, "table": "t1"}))
    assert r["ok"] is False and r["error"]["code"] == "bad-position"
    with pytest.raises(protocol.RequestError):
        protocol.read_position(state)


def test_a_request_over_the_size_limit_is_a_bad_request() -> None:
    text = json.dumps({"op": "ping", "pad": "x" * protocol.MAX_REQUEST})
    r = ask_text(text)
    assert r["ok"] is False and r["error"]["code"] == "bad-request"


def test_a_lone_surrogate_in_a_request_cannot_break_the_reply() -> None:
    ask_text(json.dumps({"op": "new", "seed": 3, "table": "t1"}))
    reply = web.handle(json.dumps({"op": "act", "action": "\ud800 x", "table": "t1"}))
    reply.encode("utf-8")  # the page receives well-formed text
    r = json.loads(reply)
    assert r["ok"] is True and r["refusal"]["code"] == "bad-action"
