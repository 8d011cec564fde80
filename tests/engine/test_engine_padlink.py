"""A score sheet's shared link (dhumbal.matches.padlink, issue 52): a check value, as ``#table=`` links have.

Held here: every one-character change of real links (each substitution from
the link's alphabet, each deletion) opens nothing, or the very same sheet;
links written before the check value are still read; a link that would
inflate past its bound, or nest too deep, is refused before it is parsed;
and the page's request with a link answers ``bad-link`` with why, localized.
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

import pytest

from dhumbal.matches.padlink import MARK, LinkError, read_link, sheet_link
from dhumbal.play.share import link_check
from dhumbal.table.web import handle

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."

# Real sheets, as the pad keeps them: the review's Nepali Games evening and a CardRulesPlus match to elimination.
EVENING = {"v": 1, "profile": "nepali-games", "names": ["राम", "सीता", "हरि", "गीता"], "dealer": 3, "end": False,
           "deals": [{"c": 0, "h": [3, 15, 22, 8]}, {"c": 1, "h": [20, 5, 4, 9]}, {"c": 2, "h": [4, 11, 4, 4]}]}
ELIMINATION = {"v": 1, "profile": "cardrulesplus", "names": ["Anna", "Bram", "Chloé", "Dédé"], "dealer": 0, "end": False,
               "deals": [{"c": 1, "h": [40, 3, 30, 20]}, {"c": 2, "h": [2, 12, 5, 9]}, {"c": 3, "h": [45, 14, 45, 1]},
                         {"c": 1, "h": [15, 4, None, 4]}, {"c": 3, "h": [15, 50, None, 0]}]}


def settled_link(sheet: dict[str, Any]) -> str:
    res = json.loads(handle(json.dumps({"op": "scorepad", "sheet": sheet})))
    assert res["ok"], res
    return str(res["link"])


def outcome(text: str) -> Any:
    try:
        return read_link(text)
    except LinkError:
        return None


@pytest.mark.parametrize("sheet", [EVENING, ELIMINATION], ids=["evening", "elimination"])
def test_every_one_character_change_of_a_real_link_opens_nothing(sheet: dict[str, Any]) -> None:
    link = settled_link(sheet)
    assert link.startswith(MARK)
    original = read_link(link)
    assert original == sheet
    opened = 0
    tried = 0
    for i, ch in enumerate(link):
        for other in ALPHABET:
            if other == ch:
                continue
            tried += 1
            got = outcome(link[:i] + other + link[i + 1:])
            assert got is None or got == original, (i, other)
            opened += got is not None
        tried += 1
        got = outcome(link[:i] + link[i + 1:])
        assert got is None or got == original, (i, "deleted")
    assert opened == 0 and tried > 5000


def test_a_link_written_before_the_check_value_is_still_read() -> None:
    old = base64.urlsafe_b64encode(json.dumps(EVENING).encode()).decode().rstrip("=")
    assert read_link(old) == EVENING
    res = json.loads(handle(json.dumps({"op": "scorepad", "link": old})))
    assert res["ok"] and res["sheet"] == EVENING and res["link"].startswith(MARK)


def test_bounds_before_parsing() -> None:
    def packed(raw: bytes) -> str:
        p = zlib.compressobj(9, zlib.DEFLATED, -15)
        body = base64.urlsafe_b64encode(p.compress(raw) + p.flush()).decode().rstrip("=")
        return MARK + link_check(body) + "." + body

    bomb = packed(b" " * 5_000_000)  # a short link that would inflate far past any sheet
    assert len(bomb) < 24_000
    deep = packed(b"[" * 50 + b"]" * 50)
    for text in (bomb, deep, "", "x" * 30_000, MARK + "AAAAAAAA", MARK + "!!!!!!!!.AAAA", None, 5):
        with pytest.raises(LinkError):
            read_link(text)
    assert read_link(sheet_link(EVENING)) == EVENING


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "ne"])
def test_the_request_says_why_a_link_is_refused(lang: str) -> None:
    link = settled_link(EVENING)
    changed = link[:-1] + ("A" if link[-1] != "A" else "B")
    res = json.loads(handle(json.dumps({"op": "scorepad", "lang": lang, "link": changed})))
    assert res["ok"] is False and res["error"]["code"] == "bad-link"
    damaged = json.loads(handle(json.dumps({"op": "scorepad", "lang": lang, "link": "e30"})))  # {}
    assert damaged["error"]["code"] == "bad-link"
    assert res["error"]["text"] != damaged["error"]["text"]
    if lang == "en":
        assert "check value" in res["error"]["text"] and "Your own sheet is unchanged" in res["error"]["text"]
