"""The mini table's session API (dhumbal.table.web): requests, replies, sharing.

Python level: every request goes through ``handle`` as JSON text, exactly as
the worker sends it.
"""

from __future__ import annotations

import base64
import json
import random
import re
from html import escape
from pathlib import Path
from typing import Any

import pytest

from dhumbal.core.cards import card_text, parse_card, sort_key
from dhumbal.core.i18n import number, translator
from dhumbal.core.profiles import PROFILE_KEYS, find_profile
from dhumbal.play import share
from dhumbal.play.deal import IllegalAction, parse_action
from dhumbal.play.records import replay, state_from_json, state_to_json, transcript
from dhumbal.table import protocol, web
from dhumbal.table import session as sessions
from dhumbal.worked.examples import load_file
from tests.table.tablekit import LANGS, SCORE_COLUMNS, expected_rows, parse_html, reference_replay, score_rows, simple_move

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))


@pytest.fixture(autouse=True)
def fresh_sessions() -> None:
    """Each test starts with no table in the worker: no language or game leaks between tests."""
    web.close_tables()


def ask(**request: Any) -> dict[str, Any]:
    request.setdefault("table", "test-table")
    out = json.loads(web.handle(json.dumps(request)))
    assert isinstance(out, dict)
    return out


def session(table: str = "test-table") -> sessions.Session:
    return web.table(table).playing()


def play_to_end_of_deal(lang: str = "en", table: str = "test-table") -> dict[str, Any]:
    r: dict[str, Any] = {}
    for _ in range(2000):
        s = session(table)
        deal = s.deal
        assert deal is not None
        if deal.is_over:
            return r
        me = s.my_deal_seat()
        assert me is not None and deal.turn == me, "bots must move until it is the reader's turn"
        r = ask(op="act", action=simple_move(deal, me), lang=lang, table=table)
        assert r["ok"] and r["refusal"] is None, r
    raise AssertionError("the deal did not end")


def test_ping_answers_with_the_version() -> None:
    r = ask(op="ping")
    assert r["ok"] is True and r["pong"] is True and r["protocol"] == web.PROTOCOL
    assert isinstance(r["version"], str)


def test_new_deals_and_lets_the_reader_play_first() -> None:
    r = ask(op="new", profile="nepali-games", seed=11, difficulty="easy", lang="en")
    assert r["ok"] and r["summary"]["deal"] == 1
    assert r["summary"]["your_turn"] is True and r["summary"]["phase"] == "start"
    assert r["hash"].startswith("table=")
    assert "settings_html" in r and 'name="opt:players"' in r["settings_html"]
    assert r["events"] and "deals 5 cards each" in r["events"][0]


@pytest.mark.parametrize("profile", PROFILE_KEYS)
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_a_whole_deal_settles_exactly_as_the_engine_replays_it(profile: str, difficulty: str) -> None:
    ask(op="new", profile=profile, seed=3, difficulty=difficulty, options={"players": 3})
    r = play_to_end_of_deal()
    s = session()
    deal = s.deal
    assert deal is not None and deal.outcome is not None
    # the transcript replays to the same outcome
    assert replay(transcript(deal)).outcome == deal.outcome
    # and an independent replay of the hash gives the same deal and the same ledger
    ref = reference_replay(r["hash"])
    assert ref.outcomes == [deal.outcome]
    assert ref.match.scores == s.match.scores
    # the score rows shown are the engine's settlement
    shown = score_rows(r["html"])
    for key, values in expected_rows(ref.match, deal.outcome).items():
        assert [v for v, _ in shown[key]] == [str(v) for v in values], key
    assert r["summary"]["is_over"] is True


@pytest.mark.parametrize("lang", LANGS)
def test_score_rows_are_written_in_the_page_language(lang: str) -> None:
    ask(op="new", profile="nepali-games", seed=5, lang=lang)
    r = play_to_end_of_deal(lang)
    for key, cells in score_rows(r["html"]).items():
        for value, text in cells:
            n = int(value)
            signed = key in ("paid", "total")
            assert text == (number(n, lang, signed=True) if signed and n else number(n, lang)), (key, value, text)


def test_bots_move_until_the_readers_turn_and_their_moves_are_told() -> None:
    r = ask(op="new", profile="dashain", seed=2, options={"players": 4}, lang="en")
    r = ask(op="act", action=simple_move(session().deal, 0))  # type: ignore[arg-type]
    assert r["summary"]["your_turn"] or r["summary"]["is_over"]
    # the reader's own stock draw names the card; the bots' draws do not
    s = session()
    r = ask(op="act", action="take stock")
    you = translator("en")("You draw {card} from the stock.", card="X").split("X")[0]
    assert any(e.startswith(you) for e in r["events"])
    assert all("draws a card from the stock" in e or "draws" not in e for e in r["events"] if not e.startswith(you))
    assert s.log[-len(r["events"]):] == r["events"]


def test_a_refused_action_changes_nothing_and_gives_the_engines_reason() -> None:
    ask(op="new", profile="nepali-games", seed=9, lang="fr")
    before = state_to_json(session().deal)  # type: ignore[union-attr]
    h = ask(op="state")["hash"]
    r = ask(op="act", action="throw", lang="fr")
    assert r["ok"] and r["refusal"]["code"] == "must-take-first"
    assert r["refusal"]["text"] == IllegalAction("must-take-first").text("fr")
    assert r["status"] == r["refusal"]["text"]
    assert state_to_json(session().deal) == before  # type: ignore[union-attr]
    assert r["hash"] == h
    hand = session().deal.hands[0]  # type: ignore[union-attr]
    r = ask(op="act", action="take stock", lang="fr")
    r = ask(op="act", action="throw " + " ".join(f"{c}" for c in ["A♠", "K♥"]), lang="fr")
    assert r["refusal"]["code"] in ("card-not-in-hand", "mixed-ranks")
    assert hand  # the hand was dealt


def test_unreadable_actions_are_refused_with_a_reason() -> None:
    ask(op="new", profile="nepali-games", seed=9)
    for text in ("", "dance", "throw ZZ", "take pile 11X", "call now"):
        r = ask(op="act", action=text)
        assert r["ok"] and r["refusal"] is not None, text
    r = ask(op="act", action=17)
    assert r["ok"] is False and r["error"]["code"] == "bad-request"


@pytest.mark.parametrize("profile", PROFILE_KEYS)
def test_the_hash_restores_the_position_exactly(profile: str) -> None:
    ask(op="new", profile=profile, seed=21, options={"players": 2}, lang="nl")
    for _ in range(3):
        r = play_to_end_of_deal("nl")
        if r["summary"]["match_over"]:
            break
        r = ask(op="next-deal", lang="nl")
        assert r["ok"], r
        deal = session().deal
        assert deal is not None
        r = ask(op="act", action=simple_move(deal, session().my_deal_seat() or 0), lang="nl")
    restored = ask(op="restore", hash="#" + r["hash"], lang="nl", table="other-table")
    assert restored["notice"] == translator("nl")(web.NOTICE_RESTORED)
    assert restored["html"] == r["html"].replace('id="test-table', 'id="other-table').replace(
        '"test-table-', '"other-table-')
    assert restored["hash"] == r["hash"]
    assert session("other-table").match.scores == session().match.scores


def test_a_tampered_or_outdated_hash_gives_a_notice_and_a_fresh_deal() -> None:
    ask(op="new", profile="nepali-games", seed=4)
    good = ask(op="act", action="take stock")["hash"]
    data = share.decode_hash(good)

    def enc(d: Any) -> str:
        raw = json.dumps(d).encode()
        return "table=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")

    bad = [
        "table=", "table=%%%", "table=" + "A" * 50, good[:-7], "#nothing",
        enc({**data, "v": 0}), enc({**data, "v": 2}), enc({**data, "p": "poker"}),
        enc({**data, "p": "nepali-games(players=99)"}), enc({**data, "d": "godlike"}),
        enc({**data, "m": ["s,tZZ"]}), enc({**data, "m": ["c"]}), enc({**data, "m": ["s,s"]}),
        enc({**data, "n": 3}), enc({**data, "m": "s"}), enc({**data, "s": -1}), enc({**data, "s": True}),
        enc({**data, "x": {"format": 1}}), enc([1, 2]), enc({**data, "m": [",".join(["s", "t"] * 700)]}),
        "table=" + "A" * 20_000,
    ]
    for text in bad:
        for lang in LANGS:
            r = ask(op="restore", hash=text, lang=lang, fallback={"profile": "dashain", "seed": 8})
            assert r["ok"], (text, r)
            assert r["notice"] == translator(lang)(web.NOTICE_BAD_HASH), text
            assert r["summary"]["profile"] == "dashain" and r["summary"]["deal"] == 1
            assert r["summary"]["your_turn"] is True
    # a fallback that is itself bad is an error, never a half-built table
    r = ask(op="restore", hash="table=x", fallback={"profile": "poker"})
    assert r["ok"] is False and r["error"]["code"] == "bad-profile"


def test_the_hash_is_versioned_deflated_json_with_every_action() -> None:
    r = ask(op="new", profile="cardrulesplus", seed=77, difficulty="hard", options={"players": 3, "jokers": "on"})
    r = ask(op="act", action=simple_move(session().deal, 0))  # type: ignore[arg-type]
    h = r["hash"]
    assert h.startswith("table=3.") and re.fullmatch(r"[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+", h[len("table=3."):])
    data = share.decode_hash(h)
    assert data["v"] == share.HASH_VERSION == 3
    assert data["p"] == "cardrulesplus(players=3,jokers=on)"
    assert data["s"] == 77 and data["d"] == "hard" and data["n"] == 1
    # every action of the deal so far, the bots' too, one symbol or a few each
    deal = session().deal
    assert deal is not None
    assert isinstance(data["a"], list) and len(data["a"]) == 1
    assert len(deal.history) <= len(data["a"][0]) <= 3 * len(deal.history)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_play_from_every_examples_position(path: Path) -> None:
    walk = load_file(path)
    r = ask(op="position", state=json.dumps(walk.start_state), names=walk.names, lang="ne")
    assert r["ok"], r
    s = session()
    deal = s.deal
    assert deal is not None
    me = s.my_deal_seat()
    assert me == walk.start_state["turn"]
    assert r["notice"] == translator("ne")(web.NOTICE_POSITION, name=walk.names[me])
    # the start is the example's position, as the engine loaded it
    assert walk.start_state["hands"] == [[card_text(c) for c in h] for h in deal.hands]
    for _ in range(5):
        if s.deal is None or s.deal.is_over:
            break
        r = ask(op="act", action=simple_move(s.deal, s.my_deal_seat() or 0), lang="ne")
        assert r["ok"] and r["refusal"] is None, r
    back = ask(op="restore", hash=r["hash"], lang="ne", table="copy")
    assert back["notice"] == translator("ne")(web.NOTICE_RESTORED)
    assert state_to_json(session("copy").deal) == state_to_json(s.deal)  # type: ignore[union-attr]


def test_a_position_may_come_wrapped_with_its_seat_names() -> None:
    walk = load_file(ROOT / "examples" / "k-pair-discard.toml")
    wrapped = json.dumps({"state": walk.start_state, "names": walk.names}, ensure_ascii=False)
    r = ask(op="position", state=wrapped, lang="en")
    assert r["ok"] and r["notice"] == translator("en")(web.NOTICE_POSITION, name="A")
    r = ask(op="position", state={"state": walk.start_state}, names=["X", "Y"], lang="en")
    assert r["ok"] and r["notice"] == translator("en")(web.NOTICE_POSITION, name="X")


def test_a_bad_position_is_refused_with_a_localized_message() -> None:
    walk = load_file(EXAMPLES[0])
    state = dict(walk.start_state)
    broken = [
        "not json", json.dumps([1]), json.dumps({**state, "hands": [["K♠", "K♠"]]}),
        json.dumps({**state, "format": 9}), json.dumps({**state, "profile": "nope"}),
    ]
    for text in broken:
        r = ask(op="position", state=text, lang="fr")
        assert r["ok"] is False and r["error"]["code"] == "bad-position"
        assert r["error"]["text"] == translator("fr")(protocol.ERROR_BAD_POSITION)
    r = ask(op="position", state=json.dumps(state), names=["<b>x</b>"], lang="fr")
    assert r["ok"] is False


def test_settings_and_options_are_checked_by_the_engine() -> None:
    r = ask(op="new", profile="nepali-games", options={"players": 9}, lang="fr")
    assert r["ok"] is False and r["error"]["code"] == "bad-option"
    spec = find_profile("nepali-games").spec("players")
    assert spec.allowed_words(translator("fr")) in r["error"]["text"]
    assert translator("fr")("Players") in r["error"]["text"]
    r = ask(op="new", profile="nepali-games", options={"rules": "x"})
    assert r["error"]["code"] == "bad-option"
    r = ask(op="new", profile="whist")
    assert r["error"]["code"] == "bad-profile"
    r = ask(op="new", profile="dashain", difficulty="impossible")
    assert r["error"]["code"] == "bad-difficulty"
    r = ask(op="new", profile="dashain", options={"players": 6, "limit": "12", "first-round-call": "on", "money": "0.10"})
    assert r["ok"] and r["summary"]["profile"] == "dashain(players=6,limit=12,first-round-call=on,money=0.1)"
    for huge in ("1e999", "1" * 50):
        r = ask(op="new", profile="dashain", options={"money": huge})
        assert r["ok"] is False and r["error"]["code"] == "bad-option"
    r = ask(op="restore", hash=share.encode_hash({"v": 1, "p": "dashain(money=1e999)", "s": 1, "d": "easy", "n": 1, "m": [""]}),
            fallback={"profile": "cardrulesplus"})
    assert r["ok"] and r["summary"]["profile"] == "cardrulesplus"
    # numbers typed in the page's digits are read by the engine
    r = ask(op="new", profile="nepali-games", options={"penalty": "३०", "players": "३"}, lang="ne")
    assert r["ok"] and r["summary"]["profile"] == "nepali-games(players=3,penalty=30)"
    r = ask(op="settings", profile="cardrulesplus", lang="ne")
    assert r["ok"] and 'name="opt:set-pick"' in r["settings_html"] and "html" not in r


def test_next_deal_and_the_end_of_a_match_with_standings() -> None:
    ask(op="new", profile="nepali-games", seed=1, options={"players": 2, "rounds": 2})
    r = ask(op="next-deal")
    assert r["ok"] is False and r["error"]["code"] == "deal-not-over"
    play_to_end_of_deal()
    r = ask(op="next-deal")
    assert r["ok"] and r["summary"]["deal"] == 2
    r = play_to_end_of_deal()
    assert r["summary"]["match_over"] is True
    assert 'data-op="new-match"' in r["html"] and "dht-standings" in r["html"]
    places = [int(p) for p in re.findall(r'data-place="(\d+)"', r["html"])]
    standings = session().match.standings()
    assert places == [st.place for st in standings]
    r = ask(op="next-deal")
    assert r["ok"] is False and r["error"]["code"] == "match-over"
    r = ask(op="new-match")
    assert r["ok"] and r["summary"]["deal"] == 1 and r["summary"]["seed"] != 1


def test_an_eliminated_reader_watches_the_bots_finish() -> None:
    ask(op="new", profile="cardrulesplus", seed=7, options={"players": 3})
    for _ in range(60):
        r = play_to_end_of_deal()
        s = session()
        if s.match_over():
            break
        if s.me in s.match.eliminated:
            r = ask(op="next-deal")
            assert r["ok"] and r["summary"]["is_over"] and r["summary"]["seat"] is None
            assert r["status"].endswith(translator("en")(sessions.PROMPT_DEAL_OVER)) or r["summary"]["match_over"]
            back = ask(op="restore", hash=r["hash"], table="copy")
            assert back["html"].replace("copy", "test-table") == r["html"]
            return
        ask(op="next-deal")
    pytest.skip("the reader was not eliminated in this seed")


def test_sort_is_a_view_preference_kept_in_the_hash() -> None:
    ask(op="new", profile="nepali-games", seed=13)
    r = ask(op="sort")
    assert 'aria-pressed="true"' in r["html"] and share.decode_hash(r["hash"]).get("o") == 1
    cards = re.findall(r'data-card="([^"]+)" data-value=', r["html"])  # the hand's buttons
    assert cards == sorted(cards, key=lambda c: sort_key(parse_card(c)))
    again = ask(op="restore", hash=r["hash"], table="copy")
    assert again["html"].replace("copy", "test-table") == r["html"]


def test_language_switch_rerenders_everything_in_the_new_language() -> None:
    ask(op="new", profile="nepali-games", seed=13, lang="en")
    r = ask(op="lang", lang="ne")
    assert r["lang"] == "ne" and translator("ne")("Your hand") in r["html"]
    assert session().log == [session()._message_text(m, b) for m, b in session().messages]


def test_malformed_requests_never_raise() -> None:
    rng = random.Random(5)
    samples: list[Any] = [
        None, 1, "x", [], {}, {"op": None}, {"op": "nope"}, {"op": "act"}, {"op": "new", "profile": 5},
        {"op": "new", "options": []}, {"op": "new", "seed": 1e9}, {"op": "new", "seed": 2**40},
        {"op": "new", "table": "<script>"}, {"op": "restore"}, {"op": "position"},
        {"op": "bench-bot", "moves": -1}, {"op": "new", "options": {"players": [2]}},
        {"op": "new", "lang": "xx"}, {"op": "settings", "profile": "nepali-games(players=x)"},
    ]
    for _ in range(200):
        samples.append({rng.choice(["op", "table", "profile", "options", "seed", "action", "hash", "lang"]):
                        rng.choice([None, 0, -3, "", "act", "new", "restore", [], {}, "x" * 300, True])})
    for sample in samples:
        text = web.handle(json.dumps(sample))
        out = json.loads(text)
        assert isinstance(out, dict) and "ok" in out, sample
        if out["ok"] is False:
            assert out["error"]["code"] and out["error"]["text"], sample
    assert json.loads(web.handle("{not json"))["error"]["code"] == "bad-request"
    assert json.loads(web.handle("x" * 300_000))["error"]["code"] == "bad-request"


def test_error_texts_are_in_the_requested_language() -> None:
    for lang in LANGS:
        r = ask(op="act", action="call", table="nobody-here", lang=lang)
        assert r["ok"] is False and r["error"]["text"] == translator(lang)(protocol.ERROR_NO_SESSION)


def test_move_codes_round_trip() -> None:
    for text in ["call", "take stock", "take pile", "take pile 10♥", "throw K♠ K♥", "throw 10♣ J♣ Q♣", "throw Jk1 7♦"]:
        a = parse_action(text)
        code = share.encode_move(a)
        assert code.isascii() and "," not in code
        assert share.decode_move(code) == a
    for bad in ["", "x", "t", "pKSKH", "tKX", "s1"]:
        with pytest.raises(ValueError):
            share.decode_move(bad)


def test_compact_states_round_trip() -> None:
    for path in EXAMPLES:
        state = load_file(path).start_state
        compact = share.compact_state(state)
        assert json.dumps(compact).isascii()
        assert share.expand_state(compact) == state


def test_the_benchmark_is_no_op_of_the_table() -> None:
    r = ask(op="bench-bot", profile="dashain", moves=50, seed=3, difficulty="hard")
    assert r["ok"] is False and r["error"]["code"] == "bad-request"


def test_replies_are_well_formed_html_with_unique_ids() -> None:
    for profile in PROFILE_KEYS:
        r = ask(op="new", profile=profile, seed=31)
        for html in (r["html"], r["settings_html"]):
            tags = parse_html(html)
            assert not tags.errors and not tags.stack, tags.errors
            assert len(tags.ids) == len(set(tags.ids))


def test_the_bots_moves_come_one_by_one_with_the_felt_after_each() -> None:
    r = ask(op="new", profile="nepali-games", seed=6, options={"players": 4}, lang="en")
    s = session()
    deal = s.deal
    assert deal is not None
    r = ask(op="act", action="take stock")
    assert "playback" not in r  # still the reader's turn: nothing to watch
    r = ask(op="act", action=simple_move(s.deal, 0))  # type: ignore[arg-type]
    pb = r["playback"]
    frames = pb["frames"]
    # one frame per bot action, in order, saying exactly what the log says
    said = [line for f in frames for line in f["log"]]
    own = r["events"][: len(r["events"]) - len(said)]
    assert r["events"] == own + said or r["summary"]["is_over"]
    assert pb["say"] == " ".join(own)
    assert s.log[-len(said):] == said or r["summary"]["is_over"]
    assert len(frames) >= 2 and {f["seat"] for f in frames} <= {1, 2, 3}
    for f in frames:
        felt = f["felt"]
        assert felt.startswith('<div class="dht-felt"') and parse_html(felt).errors == []
        # the move shows on the acting seat only
        moved = re.findall(r'<li class="dht-seat[^"]*dht-seat--moved[^"]*" data-seat="(\d)"', felt)
        assert moved == [str(f["seat"])]
        assert '<p class="dht-bubble">' in felt
    # the board before the bots moved shows the reader's throw on the pile, and no bubble
    assert "dht-bubble" not in pb["html"] and 'data-your-turn="false"' in pb["html"]
    assert pb["end"].endswith(s.status()) or r["summary"]["is_over"]
    # the last frame and the answer's board show the same table
    assert "dht-bubble" not in r["html"]


def test_bot_moves_are_told_in_few_words_on_their_seat() -> None:
    ask(op="new", profile="dashain", seed=9, options={"players": 3}, lang="fr")
    s = session()
    r = ask(op="act", action=simple_move(s.deal, 0), lang="fr")  # type: ignore[arg-type]
    r = ask(op="act", action="take stock", lang="fr")
    t = translator("fr")
    words = {t("took from the stock"), t("took {card}", card="X").split("X")[0], t("threw {cards}", cards="X").split("X")[0]}
    for f in r["playback"]["frames"]:
        bubble = re.search(r'<p class="dht-bubble">(.*?)</p>', f["felt"], re.S)
        assert bubble
        text = re.sub(r"<[^>]+>", "", bubble.group(1))
        assert any(text.startswith(w.strip()) for w in words if w.strip()), text


def test_restoring_the_readers_own_game_is_quiet() -> None:
    ask(op="new", profile="nepali-games", seed=4)
    h = ask(op="act", action="take stock")["hash"]
    r = ask(op="restore", hash=h, own=True, table="again")
    assert r["ok"] and r["notice"] is None
    assert translator("en")(web.NOTICE_RESTORED) not in r["status"]
    r = ask(op="restore", hash=h, table="shared")
    assert r["notice"] == translator("en")(web.NOTICE_RESTORED)


@pytest.mark.parametrize("lang", LANGS)
def test_every_score_row_is_explained_in_the_page_language(lang: str) -> None:
    from dhumbal.view.scores import score_notes

    for profile in PROFILE_KEYS:
        ask(op="new", profile=profile, seed=5, lang=lang, options={"players": 3})
        r = play_to_end_of_deal(lang)
        rows = SCORE_COLUMNS.findall(r["html"])
        notes = re.findall(r'<li data-row="([a-z-]+)">', r["html"])
        assert rows == notes, profile
        deal = session().deal
        assert deal is not None and deal.outcome is not None
        m = session().match
        eliminated = [x in m.eliminated for x in m.seating] if deal.profile.elimination is not None else None
        expected = score_notes(deal.outcome, deal.profile, lang, session().deal_names(),
                                    totals=[m.scores[x] for x in m.seating], eliminated=eliminated)
        assert [k for k, _ in expected] == notes
        for key, text in expected:
            assert f'<li data-row="{key}">{escape(text)}</li>' in r["html"], (profile, key)


def test_a_caught_dashain_call_says_the_caller_pays_the_sum_of_every_other_hand() -> None:
    from dhumbal.play.deal import Outcome
    from dhumbal.view.scores import score_notes

    profile = find_profile("dashain")
    # 002: Chandra calls on 9 while Asha holds 6 (Bikash 14, Dipa 21): Chandra pays Asha 44
    o = Outcome("call", 2, True, 0, (6, 14, 9, 21), (0, 0, 44, 0), (44, 0, -44, 0), (0, 0, 44, 0))
    notes = dict(score_notes(o, profile, "en", ["Asha", "Bikash", "Chandra", "Dipa"], totals=[44, 0, -44, 0]))
    assert "Chandra, the caller, got caught by Asha" in notes["paid"]
    assert "the sum of every other hand, the caller's own included: 44" in notes["paid"]
    crp = find_profile("cardrulesplus")
    o = Outcome("call", 1, False, 1, (12, 3, 20), (12, 0, 20), (0, 0, 0), (12, 0, 20))
    notes = dict(score_notes(o, crp, "en", ["A", "B", "C"], totals=[90, 10, 40]))
    assert "Lower is better" in notes["total"] and "Nearest to 100: A, 10 points away." in notes["total"]


def test_money_carries_the_sign_of_the_points_it_pays() -> None:
    ask(op="new", profile="dashain", seed=5, lang="en", options={"players": 3})
    r = play_to_end_of_deal()
    rows = score_rows(r["html"])
    for (points, shown_points), (_, shown_money) in zip(rows["paid"], rows["money"]):
        n = int(points)
        assert shown_points.startswith("+") == shown_money.startswith("+") == (n > 0)
        assert shown_points.startswith("−") == shown_money.startswith("−") == (n < 0)


def test_a_puzzle_s_play_from_here_deals_the_cards_the_reader_cannot_see_anew_each_time() -> None:
    """The review's "Play from here" played on the real mined deal, so a recommended call was
    caught there; with ``redeal`` the worker deals what the reader cannot see afresh, from the view."""
    walk = load_file(ROOT / "examples" / "k-pair-discard.toml")
    state = json.dumps(walk.start_state)
    seen = set()
    for k in range(6):
        r = ask(op="position", state=state, names=walk.names, redeal=True, lang="en", table=f"t{k}")
        assert r["ok"], r
        s = session(f"t{k}")
        deal = s.deal
        assert deal is not None
        me = s.my_deal_seat()
        assert me is not None
        start = state_from_json(s.settings.start)  # type: ignore[arg-type]
        original = state_from_json(walk.start_state)
        assert start.public_view(me) == original.public_view(me)  # the reader's view is the position's
        seen.add((tuple(tuple(h) for i, h in enumerate(start.hands) if i != me), tuple(start.stock)))
        back = ask(op="restore", hash=r["hash"], lang="en", table=f"copy{k}")
        assert back["ok"] and state_to_json(session(f"copy{k}").deal) == state_to_json(deal)  # type: ignore[union-attr]
    assert len(seen) > 1  # dealt afresh each time
    plain = ask(op="position", state=state, names=walk.names, lang="en", table="plain")
    assert plain["ok"] and session("plain").settings.start == state_to_json(state_from_json(walk.start_state))
