"""Deal records: to_json / from_json, transcripts and replay, and malformed input."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dhumbal.bots import botlevels
from dhumbal.core.cards import card_text
from dhumbal.play.deal import Action, Deal, IllegalAction, PositionError
from dhumbal.play.records import replay, state_from_json, state_to_json, transcript
from tests.engine.rules_kit import act, cards, position, profile


def finished_deal() -> Deal:
    d = Deal.new(profile("nepali-games", players=3), seed="records", dealer=0)
    return botlevels.play_deal(d, "medium")


def live_state() -> dict[str, Any]:
    d = position("nepali-games", ["9♠ 9♥ 3♣", "K♣ Q♣"], "9♦", dealer=1, stock_top="4♠")
    act(d, "take pile")
    return state_to_json(d)


# -- round trips ------------------------------------------------------------------------


def test_state_round_trips_mid_turn() -> None:
    state = live_state()
    d = state_from_json(json.loads(json.dumps(state)))
    assert state_to_json(d) == state
    assert d.took_from_pile is not None
    # the reloaded deal still knows the pile card is barred
    assert d.refusal(d.legal_actions()[0]) is None
    why = d.refusal(Action.throw(*cards("9♠ 9♥ 9♦")))
    assert why is not None and why.code == "pile-card-returned"


def test_finished_state_round_trips_with_its_outcome() -> None:
    d = finished_deal()
    again = state_from_json(json.loads(json.dumps(state_to_json(d))))
    assert again == d and again.outcome == d.outcome


def test_transcript_replays_to_the_identical_state() -> None:
    d = finished_deal()
    t = json.loads(json.dumps(transcript(d)))
    again = replay(t)
    assert state_to_json(again) == state_to_json(d)
    assert transcript(again) == transcript(d)


def test_replay_rechecks_every_action() -> None:
    d = finished_deal()
    t = transcript(d)
    bad = copy.deepcopy(t)
    seat, action = bad["actions"][0].split(": ", 1)
    bad["actions"][0] = f"{(int(seat) + 1) % 3}: {action}"  # the wrong seat
    with pytest.raises(IllegalAction) as info:
        replay(bad)
    assert info.value.code == "not-your-turn"
    bad = copy.deepcopy(t)
    bad["actions"].insert(0, "nonsense")
    with pytest.raises(IllegalAction) as info:
        replay(bad)
    assert info.value.code == "bad-action"


def test_out_of_turn_action_is_refused_without_change() -> None:
    d = Deal.new(profile("dashain", players=3), seed=1)
    before = state_to_json(d)
    with pytest.raises(IllegalAction) as info:
        d.apply("throw " + card_text(d.hands[2][0]), seat=2)
    assert info.value.code == "not-your-turn" and state_to_json(d) == before


# -- malformed states -------------------------------------------------------------------


def mutate(fn: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    s = live_state()
    fn(s)
    return s


MALFORMED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "missing dealer": (lambda s: s.pop("dealer"), "'dealer' is missing"),
    "missing hands": (lambda s: s.pop("hands"), "'hands' is missing"),
    "missing phase": (lambda s: s.pop("phase"), "'phase' is missing"),
    "missing profile": (lambda s: s.pop("profile"), "'profile'"),
    "missing stock": (lambda s: s.pop("stock"), "'stock'"),
    "missing pile": (lambda s: s.pop("pile"), "'pile'"),
    # the seed decides the reshuffles and the next deals: never silently seed 0
    "missing seed": (lambda s: s.pop("seed"), "'seed' is missing"),
    "dealer as text": (lambda s: s.update(dealer="1"), "'dealer' has the wrong type"),
    "turn as bool": (lambda s: s.update(turn=True), "'turn' has the wrong type"),
    "hands not lists": (lambda s: s.update(hands=["9♠", "K♣"]), "'hands[0]'"),
    "stock of numbers": (lambda s: s.update(stock=[1, 2]), "'stock' must be a list of card texts"),
    "unknown card": (lambda s: s["stock"].__setitem__(0, "ZZ"), "not a card"),
    "duplicate card": (lambda s: s["stock"].__setitem__(0, s["hands"][1][0]), "twice"),
    "missing card": (lambda s: s["stock"].pop(), "51 cards, not the 52"),
    "extra card": (lambda s: s["hands"][1].append("Jk1"), "53 cards"),
    "unknown phase": (lambda s: s.update(phase="dancing"), "'phase' is 'dancing'"),
    "bad offer kind": (lambda s: s.update(offer_kind="pair"), "'offer_kind'"),
    "offer too large": (lambda s: s.update(offer=99), "'offer' is out of range"),
    "dealer not a seat": (lambda s: s.update(dealer=5), "'dealer' is not a seat"),
    "known wrong length": (lambda s: s.update(known=[[]]), "'known'"),
    "history malformed": (lambda s: s.update(history=[["0", "take pile"]]), "'history'"),
    "unknown profile": (lambda s: s.update(profile="poker"), "'profile'"),
    "bad option": (lambda s: s.update(profile="nepali-games(players=9)"), "players"),
    "over without outcome": (lambda s: s.update(phase="over"), "'outcome' disagree"),
    "bad format": (lambda s: s.update(format=2), "format"),
    "bad outcome": (lambda s: s.update(phase="over", outcome={"reason": "call"}), "'outcome' is malformed"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_state_raises_position_error_naming_the_problem(name: str) -> None:
    fn, words = MALFORMED[name]
    with pytest.raises(PositionError) as info:
        state_from_json(mutate(fn))
    assert words in str(info.value)


@pytest.mark.parametrize("data", [None, [], "deal", 3])
def test_state_that_is_not_an_object_is_refused(data: object) -> None:
    with pytest.raises(PositionError, match="JSON object"):
        state_from_json(data)


# -- malformed positions ------------------------------------------------------------------


def test_position_with_a_duplicate_card_names_it() -> None:
    with pytest.raises(PositionError, match="K♣ appears twice"):
        position("nepali-games", ["K♣ 2♠", "K♣ Q♣"], "9♦")


def test_position_with_a_joker_outside_the_pack_names_it() -> None:
    with pytest.raises(PositionError, match="Jk1 is not in a 52-card pack"):
        position("nepali-games", ["Jk1 2♠", "K♣ Q♣"], "9♦")
    assert position(profile("nepali-games", jokers=True), ["Jk1 2♠", "K♣ Q♣"], "9♦").card_count() == 54


def test_position_with_a_wrong_card_count_lists_the_missing_cards() -> None:
    with pytest.raises(PositionError, match="missing"):
        position("nepali-games", ["A♠", "2♠"], "3♠", stock="4♠ 5♠")


@pytest.mark.parametrize(
    "kw,words",
    [({"dealer": 2}, "dealer 2"), ({"turn": 3}, "turn 3"), ({"pile": ""}, "pile needs")],
)
def test_position_with_bad_seats_or_pile(kw: dict[str, Any], words: str) -> None:
    pile = kw.pop("pile", "9♦")
    with pytest.raises(PositionError, match=words):
        position("nepali-games", ["A♠", "2♠"], pile, **kw)


# -- malformed transcripts: a clear refusal, never a crash --------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def transcript_refused(t: object) -> None:
    try:
        replay(t)  # type: ignore[arg-type]
    except (PositionError, IllegalAction) as exc:
        assert str(exc)
    # a transcript may of course replay: then it is a real deal


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_junk_is_refused_as_a_transcript(junk: object) -> None:
    transcript_refused(junk)


FINISHED = transcript(finished_deal())


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["profile", "seed", "dealer", "players", "actions", "outcome", "format"]), JSON, st.integers(0, 40))
def test_a_transcript_with_one_field_spoiled_is_refused_clearly(field: str, value: object, line: int) -> None:
    t = copy.deepcopy(FINISHED)
    if line % 3 == 0:
        t[field] = value
    elif line % 3 == 1:
        t.pop(field, None)
    else:
        actions = t["actions"]
        actions[line % len(actions)] = value
    transcript_refused(t)


@pytest.mark.parametrize(
    "spoil,words",
    [
        (lambda t: t.update(profile=5), "'profile' has the wrong type"),
        (lambda t: t.update(profile="poker"), "'profile'"),
        (lambda t: t.update(players=True), "'players' has the wrong type"),
        (lambda t: t.update(players=9), "players"),
        (lambda t: t.update(dealer=-1), "dealer -1"),
        (lambda t: t.update(seed=[1]), "'seed' has the wrong type"),
        (lambda t: t.pop("actions"), "'actions' is missing"),
        (lambda t: t["actions"].__setitem__(0, 7), "action 1 is not text"),
        (lambda t: t["outcome"].update(paid=[0, 0, 0]), "'outcome' does not match"),
        (lambda t: t.update(format=3), "format"),
    ],
)
def test_a_malformed_transcript_names_the_field(spoil: Callable[[dict[str, Any]], None], words: str) -> None:
    t = copy.deepcopy(transcript(finished_deal()))
    spoil(t)
    with pytest.raises(PositionError) as info:
        replay(t)
    assert words in str(info.value)


def test_a_refused_transcript_action_names_its_line() -> None:
    t = copy.deepcopy(transcript(finished_deal()))
    t["actions"][2] = "0: throw K♠ K♠"
    with pytest.raises(IllegalAction) as info:
        replay(t)
    assert any("transcript action 3" in note for note in info.value.__notes__)
