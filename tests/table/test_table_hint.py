"""The table's Hint (the reader's call odds, on demand) and the expert level.

- The Hint is offered through the reader's turn and shows nothing until
  pressed; pressed, the status line (where the table's feedback is, and
  what a screen reader hears) gives the expert's move in one short line,
  and "Why?" beside it the reasons behind it: the move's fact and, at the
  start of the turn, the engine's figures for the reader's view in the
  page's language (with the sample size), carried by the answer (``hint``),
  while the button stays pressed; pressed again, or after any move, it is
  gone, "Why?" with it.
- The expert is offered in the table's settings, plays a table, and a shared
  link with an expert at the table replays to the same game (CPython here;
  Pyodide in tests/runtime/test_parity.py and in the browser below).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from dhumbal.bots import odds
from dhumbal.core import cards as C
from dhumbal.core.i18n import count_text, translator
from dhumbal.core.profiles import find_profile
from dhumbal.play import share
from dhumbal.play.deal import Action
from dhumbal.play.records import from_position, state_to_json, transcript
from dhumbal.table import web
from dhumbal.table.links import restore_session
from dhumbal.table.tables import ERROR_NO_HINT
from dhumbal.view.actions import WHY
from dhumbal.view.hand import HINTED
from dhumbal.view.hint import HINT_CAUGHT_IF, hint_move, hint_text, hint_words
from dhumbal.view.suggest import suggest
from tests.table.tabledriver import BOARD, click, start, status, table_hash, ui_move
from tests.table.tablekit import simple_move

HINT_BUTTON = re.compile(r'<button[^>]*data-op="hint"[^>]*>')
WHY_BUTTON = re.compile(r'<button[^>]*data-dht-why[^>]*aria-expanded="false" aria-controls="hint-table-whybox">([^<]+)</button>'
                        r'<div class="dht-whybox" id="hint-table-whybox" hidden></div>')


@pytest.fixture(autouse=True)
def fresh_sessions() -> None:
    web.close_tables()


def ask(**request: Any) -> dict[str, Any]:
    request.setdefault("table", "hint-table")
    out = json.loads(web.handle(json.dumps(request)))
    assert isinstance(out, dict)
    return out


def callable_position() -> dict[str, Any]:
    """Nepali Games, four seats, after a round: the reader (seat 0, on turn) holds A♠ 2♥ and may call."""
    from dhumbal.core.cards import parse_cards as cards

    p = find_profile("nepali-games")
    deal = from_position(
        p, hands=[cards("A♠ 2♥"), cards("9♣ 9♦ 8♠"), cards("K♠ Q♥ 4♦ 3♣"), cards("7♠ 7♥")],
        pile=cards("5♦"), dealer=3, turns=8,
    )
    return state_to_json(deal)


def test_the_hint_is_offered_at_the_turn_start_and_off_until_pressed() -> None:
    r = ask(op="new", profile="dashain", seed=5, lang="en")
    assert r["summary"]["your_turn"] and r["summary"]["phase"] == "start"
    button = HINT_BUTTON.search(r["html"])
    assert button and 'aria-pressed="false"' in button.group(0) and ">Hint<" in r["html"]
    assert "caught in" not in r["status"]


def pressed(r: dict[str, Any]) -> bool:
    button = HINT_BUTTON.search(r["html"])
    assert button is not None
    return 'aria-pressed="true"' in button.group(0)


def test_the_hint_shows_the_engine_s_odds_in_the_page_s_language_and_hides_again() -> None:
    ask(op="position", state=callable_position(), lang="fr")
    r = ask(op="hint", lang="fr")
    assert r["ok"] and pressed(r)
    deal = web.table("hint-table").playing().deal
    assert deal is not None
    expected = odds.call_odds(deal.profile, deal.public_view(deal.turn))
    assert expected.can_call and expected.play_on_value is not None
    view = deal.public_view(deal.turn)
    hint = hint_move(deal.profile, view, "fr")
    words = hint_words(deal.profile, view, "fr")
    # the status line says the expert's move, one short line; "Why?" beside it the odds
    assert r["status"] == hint.line == suggest(deal.profile, view, "fr").line and "annoncer" in hint.line
    assert hint_text(expected, "fr") not in r["status"] and len(r["status"]) < 60
    why = " ".join(r["hint"]["why"])
    assert r["hint"] == {"line": hint.line, "why": list(hint.why)} and words == hint.line + " " + why
    assert hint_text(expected, "fr") in why and count_text(odds.HINT_SAMPLES, "fr") in why and "donnes" in why
    shown = WHY_BUTTON.search(r["html"])
    assert shown and shown.group(1) == translator("fr")(WHY)
    # sorting the hand is not a move: the hint stays
    r = ask(op="sort", lang="fr")
    assert pressed(r) and r["status"] == hint.line and r["hint"]["why"] == list(hint.why)
    # pressed again on the same position: hidden, its Why with it
    r = ask(op="hint", lang="fr")
    assert not pressed(r) and r["status"] == "" and r["hint"] is None and "data-dht-why" not in r["html"]
    # and again: the same figures (seeded by the view)
    assert ask(op="hint", lang="fr")["hint"] == {"line": hint.line, "why": list(hint.why)}


def test_after_a_move_the_hint_is_gone() -> None:
    ask(op="position", state=callable_position(), lang="en")
    assert "caught in" in " ".join(ask(op="hint")["hint"]["why"])
    r = ask(op="act", action="take stock")
    assert r["ok"] and r["refusal"] is None and "caught in" not in r["status"] and r["hint"] is None
    assert "data-dht-why" not in r["html"]
    r = ask(op="sort")
    assert "caught in" not in r["status"] and r["hint"] is None
    # a new game at the same table starts without the hint
    ask(op="position", state=callable_position(), lang="en")
    assert pressed(ask(op="hint"))
    r = ask(op="position", state=callable_position(), lang="en")
    assert not pressed(r) and "caught in" not in r["status"]


def test_a_hint_where_no_call_is_allowed_says_the_move_alone_and_marks_it() -> None:
    """Issue 51: no "If you could call now…" where a call is not allowed; the move marked on the table."""
    ask(op="new", profile="dashain", seed=5, lang="nl")  # dashain: nobody calls in the first round
    r = ask(op="hint", lang="nl")
    text = r["status"]
    deal = web.table("hint-table").playing().deal
    assert deal is not None
    reason = deal.refusal(Action.call(), deal.turn)
    assert reason is not None
    move = suggest(deal.profile, deal.public_view(deal.turn), "nl")
    assert text == move.line and r["hint"] == {"line": move.line, "why": list(move.why)}
    said = " ".join([text, *r["hint"]["why"]])
    assert translator("nl")(HINT_CAUGHT_IF, total="§", caught="§", samples="§").split("§")[0] not in said
    assert count_text(odds.HINT_SAMPLES, "nl") not in said and "Roepen levert" not in said
    # the engine's reason is under the disabled Call button, as before the hint
    assert reason.text("nl", web.table("hint-table").playing().deal_names()).replace("'", "&#x27;") in r["html"]
    # the cards the Hint would throw are marked in the hand, and said so; no other card is
    assert move.action.kind == "throw"
    hinted = re.findall(r'<button[^>]*class="[^"]*dht-hinted[^"]*"[^>]*data-card="([^"]+)"', r["html"])
    assert sorted(hinted) == sorted(C.card_text(c, ascii=True) for c in move.action.cards)
    assert r["html"].count(translator("nl")(HINTED).replace("'", "&#x27;")) == len(hinted)
    # pressed again, the Hint and its marks go
    r = ask(op="hint", lang="nl")
    assert "dht-hinted" not in r["html"]


def test_a_hint_to_take_from_the_stock_marks_the_stock() -> None:
    ask(op="new", profile="nepali-games", seed=3, lang="en")
    r = ask(op="hint")
    deal = web.table("hint-table").playing().deal
    assert deal is not None
    move = suggest(deal.profile, deal.public_view(deal.turn), "en")
    if move.action.kind == "take" and move.action.source == "stock":
        assert re.search(r'class="[^"]*dht-stack[^"]*dht-hinted', r["html"])
    else:
        assert "dht-hinted" in r["html"]


def test_after_a_take_the_hint_says_what_to_throw_and_it_is_refused_once_the_deal_is_over() -> None:
    ask(op="new", profile="nepali-games", seed=3, lang="ne")
    r = ask(op="act", action="take stock", lang="ne")
    assert r["summary"]["phase"] == "throw" and pressed(r) is False  # the Hint is offered mid-turn too
    r = ask(op="hint", lang="ne")
    assert r["ok"] and pressed(r)
    session = web.table("hint-table").playing()
    deal = session.deal
    assert deal is not None
    view = deal.public_view(deal.turn)
    move = suggest(deal.profile, view, "ne")
    assert move.action.kind == "throw" and r["status"] == move.line and move.text == hint_words(deal.profile, view, "ne")
    # a call has its own odds only at the start of a turn: mid-turn the hint is the move and its why
    assert r["hint"]["why"] == list(move.why) and move.why
    assert count_text(odds.HINT_SAMPLES, "ne") not in " ".join([r["status"], *move.why])
    ask(op="position", state=callable_position(), lang="en")
    assert ask(op="act", action="call")["summary"]["is_over"]
    r = ask(op="hint", lang="en")
    assert r["ok"] is False and r["error"]["code"] == "no-hint"
    assert r["error"]["text"] == translator("en")(ERROR_NO_HINT)
    assert ask(op="hint", table="no-such-table")["error"]["code"] == "no-session"


def test_the_settings_offer_the_expert() -> None:
    r = ask(op="new", profile="cardrulesplus", seed=2, difficulty="expert", lang="en")
    assert r["ok"] and r["summary"]["difficulty"] == "expert"
    assert '<option value="expert" selected>Expert</option>' in r["settings_html"]
    fr = ask(op="settings", profile="dashain", difficulty="medium", lang="fr")
    assert '<option value="expert">Expert</option>' in fr["settings_html"]  # bot levels capitalised in the menu
    bad = ask(op="new", difficulty="wizard", lang="en")
    assert bad["ok"] is False and "easy, medium, hard or expert" in bad["error"]["text"]


@pytest.mark.parametrize("profile", ["nepali-games", "dashain", "cardrulesplus"])
def test_a_shared_link_with_an_expert_replays_the_same_game(profile: str) -> None:
    r = ask(op="new", profile=profile, seed=17, difficulty="expert", lang="en")
    for _ in range(30):
        s = web.table("hint-table").playing()
        deal = s.deal
        assert deal is not None
        if deal.is_over:
            break
        me = s.my_deal_seat()
        assert me is not None
        r = ask(op="act", action=simple_move(deal, me))
    payload = share.decode_hash(r["hash"])
    assert payload["d"] == "expert"
    again = restore_session(payload, "en")
    original = web.table("hint-table").playing()
    assert again.deal is not None and original.deal is not None
    assert transcript(again.deal) == transcript(original.deal)
    restored = ask(op="restore", hash=r["hash"], table="other-table")
    assert restored["summary"]["transcript"] == r["summary"]["transcript"]


# -- in the browser, with the real runtime --------------------------------------------------


def test_the_hint_in_the_browser_speaks_the_page_s_language(site_page: Any, real_site: Any) -> None:
    page, _ = site_page()
    page.goto(real_site.server.url("nl/rules/cardrulesplus/"))
    start(page)
    hint = page.locator(f'{BOARD} [data-op="hint"]')
    assert hint.get_attribute("aria-pressed") == "false"
    before_hash = table_hash(page)
    click(page, hint)
    page.wait_for_function(f"() => document.querySelector('{BOARD} [data-op=\"hint\"]').getAttribute('aria-pressed') === 'true'")
    line = status(page)  # the status line: the table's live region, in the dock under the reader's eyes
    assert line.startswith("De zet van de expert") and count_text(odds.HINT_SAMPLES, "nl") not in line
    page.locator(f"{BOARD} [data-dht-why]").click()  # the odds are one press away, behind "Why?" (no request)
    page.locator(f"{BOARD} .dht-whybox").wait_for(state="visible")
    words = " ".join(page.locator(f"{BOARD} .dht-whybox p").all_inner_texts())
    box, hand = page.locator(f"{BOARD} .dht-whybox").bounding_box(), page.locator(f"{BOARD} .dht-hand").bounding_box()
    assert box["y"] + box["height"] <= hand["y"]  # the reasons lie over the felt: the hand stays in view
    assert count_text(odds.HINT_SAMPLES, "nl") in words and "rondes" in words
    assert table_hash(page) == before_hash  # asking for a hint, or why, is not a move
    ui_move(page)
    assert page.locator(f'{BOARD} [data-op="hint"][aria-pressed="true"]').count() == 0
    assert count_text(odds.HINT_SAMPLES, "nl") not in status(page)
