"""What the engine draws for the table as a phone card app (issue 19), checked in Python.

The seed's promises about the table's words and order: the line above the
hand reads "Holding N · call at L" and has a place for the marked cards'
worth; Call reads "Call on N" exactly when the engine allows it and keeps
its place otherwise; Sort hand orders by worth under the profile in play,
jokers last; a card prints its worth only where its index does not (a
Nepali card never shows a Latin digit beside a Devanagari one); a finished
deal says who called, on what, and how it ended, in the status line, on the
felt and in a summary with one line per seat; a bot's move says what it did
to the cards; and a worked example's every step carries its position for
"Play from here".
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from dhumbal.core import cards as C
from dhumbal.core.i18n import number, translator
from dhumbal.core.messages import Message
from dhumbal.core.profiles import find_profile, parse_profile
from dhumbal.table import session as sessions
from dhumbal.table import web
from dhumbal.view.hand import CALL_AT, HOLDING, MARKED
from dhumbal.view.markup import ordered
from dhumbal.view.scores import BADGE_CALLED, BADGE_CAUGHT, BADGE_WINNER
from tests.table.tablekit import LANGS, simple_move

ROOT = Path(__file__).resolve().parents[2]
TABLE = "phone-view"


@pytest.fixture(autouse=True)
def fresh_sessions() -> None:
    web.close_tables()


def ask(**request: Any) -> dict[str, Any]:
    request.setdefault("table", TABLE)
    out = json.loads(web.handle(json.dumps(request)))
    assert isinstance(out, dict)
    return out


def hand_codes(html: str) -> list[str]:
    return re.findall(r'<button [^>]*data-card="([^"]+)"[^>]*aria-pressed', html)


def test_sort_hand_puts_the_lightest_first_under_the_profile_and_jokers_last() -> None:
    cards = C.parse_cards("K♠ J♥ 5♦ A♣")
    # the zero-J profile: the jack is the lightest card of all
    assert [C.card_text(c) for c in ordered(cards, True, find_profile("cardrulesplus"))] == ["J♥", "A♣", "5♦", "K♠"]
    # court cards worth 11, 12, 13: in order of worth, which is rank here
    assert [C.card_text(c) for c in ordered(C.parse_cards("K♠ Q♥ J♦ 10♣"), True, find_profile("dashain"))] == [
        "10♣", "J♦", "Q♥", "K♠"]
    # equal worth (10, J, Q, K in Nepali Games) keeps rank order; a joker, worth 0, goes last
    with_jokers = parse_profile("nepali-games(jokers=on)")
    hand = [C.parse_card("Jk1"), *C.parse_cards("K♠ 2♥ 10♦")]
    assert [C.card_text(c) for c in ordered(hand, True, with_jokers)][:3] == ["2♥", "10♦", "K♠"]
    assert C.is_joker(ordered(hand, True, with_jokers)[-1])
    assert ordered(hand, False, with_jokers) == hand
    # through the table: Sort hand is the engine's order, and the Throw control's too
    ask(op="new", profile="cardrulesplus", seed=3, lang="en")
    r = ask(op="sort")
    deal = web.table(TABLE).playing().deal
    assert deal is not None
    p = deal.profile
    shown = [C.parse_card(c) for c in hand_codes(r["html"])]
    worths = [p.value(c) for c in shown]
    assert worths == sorted(worths)
    throw = re.search(r'data-action="throw"[^>]*data-cards="([^"]+)"', r["html"])
    assert throw and throw.group(1).split() == hand_codes(r["html"])


@pytest.mark.parametrize("lang", LANGS)
def test_the_hand_line_says_what_it_holds_and_the_limit_the_call_waits_for(lang: str) -> None:
    t = translator(lang)
    r = ask(op="new", profile="nepali-games", seed=12, lang=lang)
    deal = web.table(TABLE).playing().deal
    assert deal is not None
    total = deal.total(0)
    html = r["html"]
    line = re.search(r'<p class="dht-hand__label".*?</p>', html, re.S)
    assert line
    text = unescape(line.group(0))
    assert t(HOLDING, total=total) in text and t(CALL_AT, limit=5) in text
    # the marked cards' worth has its place and its words, filled in as cards are marked
    # (last on the line, its place kept by the words with a two-digit worth, unseen until cards are marked)
    marked = re.search(r'<span class="dht-hand__marked" data-template="([^"]+)" hidden>([^<]+)</span></span></p>',
                       line.group(0))
    assert marked and unescape(marked.group(1)) == t.raw(MARKED)
    assert unescape(marked.group(2)) == t(MARKED, value=number(10, lang))
    # the same figure as the Throw button's label
    throw = re.search(r'data-label-value="([^"]+)"', html)
    assert throw and "{value}" in unescape(throw.group(1)) and "{value}" in unescape(marked.group(1))
    # the limit is said once, beside the hand: not in the line over the felt
    meta = re.search(r'<p class="dht-meta">.*?</p>', html, re.S)
    assert meta and "dht-hand__limit" not in meta.group(0)


def test_a_card_prints_its_worth_only_where_its_index_does_not_say_it() -> None:
    ask(op="new", profile="dashain", seed=8, lang="ne")
    deal = web.table(TABLE).playing().deal
    assert deal is not None
    r = ask(op="state", lang="ne")
    for code, worth in re.findall(r'data-card="([^"]+)" data-value="(\d+)"', r["html"]):
        button = re.search(rf'<button [^>]*data-card="{re.escape(code)}"[^>]*>(.*?)</button>', r["html"], re.S)
        assert button
        index = C.RANK_TEXT[C.rank_of(C.parse_card(code))] if not C.is_joker(C.parse_card(code)) else "★"
        printed = re.search(r'<span class="dht-pts"[^>]*>([^<]*)</span>', button.group(1))
        if index.isdigit():
            assert printed is None, code  # the corner already reads 2 to 10: no ५ beside a 5
        else:
            assert printed and printed.group(1) == number(int(worth), "ne"), code
            assert not re.search(r"[0-9]", printed.group(1)), "Nepali digits only"


def test_call_reads_call_on_only_when_allowed_and_keeps_its_place_through_the_turn() -> None:
    r = ask(op="new", profile="nepali-games", seed=12, lang="en")
    assert 'data-action="call"' not in r["html"]
    places = re.findall(r'<span class="dht-btn dht-place ([a-z-]+)" aria-hidden="true">', r["html"])
    assert places == ["dht-call"]
    # after a card is taken: the place of Call stays, and Hint (still offered: what to throw) before Throw
    r = ask(op="act", action="take stock")
    actions = re.search(r'<div class="dht-actions">(.*?)</div>', r["html"], re.S)
    assert actions
    order = re.findall(r'class="dht-btn (?:dht-place )?(dht-call|dht-hint-btn|dht-throw)', actions.group(1))
    assert order == ["dht-call", "dht-hint-btn", "dht-throw"]
    assert 'data-op="hint"' in actions.group(1) and 'data-action="call"' not in actions.group(1)


def test_a_finished_deal_says_who_called_on_what_and_how_it_ended() -> None:
    t = translator("en")
    seen = set()
    for seed in range(1, 40):
        web.close_tables()
        ask(op="new", profile="nepali-games", seed=seed, lang="en", options={"players": 3})
        r: dict[str, Any] = {}
        for _ in range(600):
            s = web.table(TABLE).playing()
            deal = s.deal
            assert deal is not None
            if deal.is_over:
                break
            me = s.my_deal_seat()
            assert me is not None
            r = ask(op="act", action=simple_move(deal, me))
        deal = web.table(TABLE).playing().deal
        assert deal is not None and deal.outcome is not None
        o = deal.outcome
        if o.caller is None:
            continue
        names = web.table(TABLE).playing().deal_names()
        status = r["status"]
        call = Message("call", {"seat": o.caller, "total": o.hands[o.caller]}).text("en", names, 0)
        prompt = t(sessions.PROMPT_MATCH_OVER if web.table(TABLE).playing().match_over() else sessions.PROMPT_DEAL_OVER)
        assert call in status and status.endswith(prompt)
        assert status.count(call) == 1, "each sentence once"
        html = r["html"]
        # on the felt (or beside the reader's hand) and in the summary: called on what, caught, winner
        assert html.count(t(BADGE_CALLED, total=o.hands[o.caller])) >= 2
        assert (t(BADGE_CAUGHT) in html) is o.caught
        assert html.count(f">{t(BADGE_WINNER)}<") >= 2
        # one line per seat in the summary's strip, the winner's lit
        lines = re.findall(r'<tr class="(dht-score__seat[^"]*)" data-seat="(\d+)">', html)
        assert [int(s) for _, s in lines] == list(range(deal.players))
        assert [int(s) for c, s in lines if "dht-score__seat--winner" in c] == [o.winner]
        assert ('data-caught="true"' in html) is o.caught
        seen.add(o.caught)
        if seen == {True, False}:
            break
    assert seen == {True, False}, "deals with a won call and a caught one were seen"


def test_a_bot_move_says_what_it_did_to_the_cards() -> None:
    ask(op="new", profile="nepali-games", seed=5, lang="en")
    r = ask(op="act", action="take stock")
    deal = web.table(TABLE).playing().deal
    assert deal is not None
    r = ask(op="act", action=simple_move(deal, 0))
    frames = r["playback"]["frames"]
    moves = [re.search(r'<li class="dht-seat[^"]*dht-seat--moved"[^>]*data-move="([a-z]+)"', f["felt"]) for f in frames]
    assert all(moves), "every bot move is marked on its seat"
    kinds = {m.group(1) for m in moves if m}
    assert kinds <= {"stock", "pile", "threw", "call"} and "threw" in kinds
    for f in frames:
        took = re.search(r'data-move="pile" data-took="([^"]+)"', f["felt"])
        if took:
            C.parse_card(took.group(1))


def test_every_step_of_a_worked_example_carries_its_position_for_play_from_here() -> None:
    from dhumbal.worked.examples import load_file
    from dhumbal_site.content.walkthrough import panels, play_states

    walk = load_file(ROOT / "examples" / "k-pair-discard.toml")
    shown = panels(walk, "en")
    states = play_states(walk)  # beside the page code (assets/dhumbal/examples/<id>.json)
    assert len(states) == len(shown) and states[0] == walk.start_state and shown[0]["playable"]
    for panel, step, state in zip(shown[1:], walk.steps, states[1:]):
        if panel["over"]:
            assert state is None and not panel["playable"]
        else:
            assert state == step.state and panel["playable"]
            # the engine takes it as a position to play from
            r = ask(op="position", state=state, names=list(walk.names), lang="en")
            assert r["ok"], r
