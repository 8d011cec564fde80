"""A review's "Play from here" is a practice deal (issue 39): the engine side.

One deal apart from the reader's match: "Practice deal" where a deal of the
match says "Deal 1 of 3", over with that deal (no Next deal, no standings,
"Back to your match" at its end), never "You play You", kept as such in its
link; and a restore says whether the link was restored, so the page keeps a
damaged link's fresh deal out of the reader's saved game.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

import pytest

from dhumbal.core.i18n import translator
from dhumbal.play import share
from dhumbal.play.records import state_to_json
from dhumbal.table import web
from dhumbal.table.links import link_of
from dhumbal.table.session import PROMPT_PRACTICE_OVER
from dhumbal.table.tables import deal_start
from dhumbal.view.actions import BACK_TO_MATCH, NEW_MATCH
from dhumbal.view.scores import RESULT, RESULT_PRACTICE
from dhumbal.view.table import META_DEAL_OF, META_PRACTICE
from tests.table.tablekit import LANGS, parse_html, simple_move


@pytest.fixture(autouse=True)
def fresh_sessions() -> None:
    web.close_tables()


def ask(**request: Any) -> dict[str, Any]:
    request.setdefault("table", "practice")
    out = json.loads(web.handle(json.dumps(request)))
    assert isinstance(out, dict)
    return out


def play_out(lang: str) -> dict[str, Any]:
    """Play the deal on the table to its end with a simple policy; the last answer."""
    answer: dict[str, Any] = {}
    for _ in range(2000):
        s = web.table("practice").playing()
        if s.deal is None or s.deal.is_over:
            return answer
        answer = ask(op="act", action=simple_move(s.deal, s.my_deal_seat() or 0), lang=lang)
        assert answer["ok"] and answer["refusal"] is None, answer
    raise AssertionError("the deal did not end")


def a_practice(lang: str) -> tuple[dict[str, Any], str]:
    """A match's first deal played out, then "Play from here" at its start: the practice's
    first answer and the match's link."""
    ask(op="new", profile="nepali-games", seed=17, lang=lang)
    play_out(lang)
    match = web.table("practice").playing()
    assert match.deal is not None
    start = deal_start(match)
    return ask(op="position", state=json.dumps(state_to_json(start)), names=None, practice=True, lang=lang), link_of(match)


@pytest.mark.parametrize("lang", LANGS)
def test_a_practice_deal_says_so_and_ends_with_its_one_deal(lang: str) -> None:
    t = translator(lang)
    first, _ = a_practice(lang)
    assert first["ok"] and first["summary"]["practice"] is True
    assert first["notice"] == t(web.NOTICE_PRACTICE)
    assert t(web.NOTICE_POSITION, name=t("You")) not in first["status"]  # no "You play You"
    meta = parse_html(first["html"])
    assert t(META_PRACTICE) in meta.text and not any(t(META_DEAL_OF, number=1, count=3) == x for x in meta.text)
    last = play_out(lang)
    summary = last["summary"]
    assert summary["is_over"] and summary["match_over"] and summary["practice"]
    html = last["html"]
    assert 'data-practice="true"' in html and "data-dht-match" in html
    assert escape(t(BACK_TO_MATCH)) in html and escape(t(NEW_MATCH)) in html
    assert 'data-op="next-deal"' not in html and "dht-standings" not in html
    assert t(PROMPT_PRACTICE_OVER) in last["status"]
    assert escape(t(RESULT_PRACTICE)) in html and escape(t(RESULT, number=1)) not in html
    refused = ask(op="next-deal", lang=lang)
    assert refused["ok"] is False and refused["error"]["code"] == "match-over"


def test_a_practice_link_restores_as_a_practice_and_a_match_link_as_a_match() -> None:
    first, match_link = a_practice("en")
    practice = share.decode_hash(first["hash"])
    assert practice["pr"] == 1 and "x" in practice
    back = ask(op="restore", hash=first["hash"], own=True, table="other")
    assert back["restored"] is True and back["summary"]["practice"] is True and back["notice"] is None
    again = ask(op="restore", hash=match_link, own=True, table="other")
    assert again["summary"]["practice"] is False and again["summary"]["deal"] == 1
    assert "pr" not in share.decode_hash(again["hash"])


@pytest.mark.parametrize("flag", [0, 2, True, "1"])
def test_a_practice_flag_is_read_only_as_one_with_a_position(flag: Any) -> None:
    first, match_link = a_practice("en")
    practice = share.decode_hash(first["hash"])
    practice["pr"] = flag
    if flag == 0:
        out = ask(op="restore", hash=share.encode_hash(practice))
        assert out["restored"] is True and out["summary"]["practice"] is False
    else:
        out = ask(op="restore", hash=share.encode_hash(practice))
        assert out["restored"] is False and out["notice"] == translator("en")(web.NOTICE_BAD_HASH)
    no_position = share.decode_hash(match_link)
    no_position["pr"] = 1
    out = ask(op="restore", hash=share.encode_hash(no_position))
    assert out["restored"] is False


def test_a_position_without_seat_names_says_it_is_your_turn() -> None:
    ask(op="new", profile="dashain", seed=3)
    s = web.table("practice").playing()
    assert s.deal is not None
    out = ask(op="position", state=json.dumps(state_to_json(s.deal)), names=None)
    assert out["notice"] == translator("en")(web.NOTICE_POSITION_YOURS)
    assert out["summary"]["practice"] is False
