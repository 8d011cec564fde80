"""The trusted path (``play``) and the checked path (``apply``) give identical deals.

Random deals under random profiles, options and seat counts are played twice
from the same seed, choosing the same random legal actions: once through
``apply`` (parse, full check, messages) and once through ``play`` (neither).
After every action the two states are equal, and so are the transcripts at
the end. ``legal_actions`` is compared with an exhaustive search of what
``refusal`` accepts, and the simulation API (copy, public view, play_out) is
held to what it promises.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dhumbal.bots import botlevels, heuristic
from dhumbal.core.profiles import parse_profile
from dhumbal.play.deal import Action, Deal
from dhumbal.play.playout import play_out, random_policy
from dhumbal.play.records import state_to_json, transcript
from tests.engine.rules_kit import OPTIONS, check_cards, count_actions, profile

ACTIONS = 400  # random actions per example, over as many deals as that takes
STEPS = 400  # actions per deal, at most


def pick(listed: list[Action], rng: random.Random) -> Action:
    """A random legal action; a call only now and then, so that deals run long."""
    moves = [a for a in listed if a.kind != "call"]
    return rng.choice(listed if not moves or rng.random() < 0.03 else moves)


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, int, int | str]:
    key = draw(st.sampled_from(sorted(OPTIONS)))
    opts = {k: draw(v) for k, v in OPTIONS[key].items() if draw(st.booleans())}
    p = profile(key, **opts)
    seats = draw(st.integers(2, p.players_max))
    seed = draw(st.integers(0, 2**32) | st.text(alphabet="abc/-019", min_size=1, max_size=6))
    return p.canonical(), seats, seed


def both(text: str, seats: int, seed: int | str, dealer: int) -> tuple[Deal, Deal]:
    p = parse_profile(text)
    return Deal.new(p, seed, dealer=dealer, players=seats), Deal.new(p, seed, dealer=dealer, players=seats)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.randoms(use_true_random=True))
def test_trusted_and_checked_paths_leave_identical_states(table: tuple[str, int, int | str], rng: random.Random) -> None:
    text, seats, seed = table
    played = 0
    for k in range(50):
        if played >= ACTIONS:
            break
        checked, trusted = both(text, seats, f"{seed}/{k}", rng.randrange(seats))
        for _ in range(STEPS):
            if checked.is_over:
                break
            listed = checked.legal_actions()
            assert listed == trusted.legal_actions()
            a = pick(listed, rng)
            events = checked.apply(a)
            assert events, "apply reports what happened"
            assert trusted.play(a) is None
            assert trusted == checked, f"the paths part after {a}"
        assert transcript(trusted) == transcript(checked)
        assert state_to_json(trusted) == state_to_json(checked)
        played += len(checked.history)
    count_actions(played)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.lists(st.sampled_from(botlevels.DIFFICULTIES), min_size=6, max_size=6))
def test_bot_deals_are_the_same_on_both_paths(table: tuple[str, int, int | str], levels: list[str]) -> None:
    text, seats, seed = table
    checked, trusted = both(text, seats, seed, seats - 1)
    botlevels.play_deal(checked, levels[:seats], checked=True)  # type: ignore[arg-type]
    botlevels.play_deal(trusted, levels[:seats])  # type: ignore[arg-type]
    assert trusted == checked and transcript(trusted) == transcript(checked)


# -- legal_actions is exactly what refusal accepts ------------------------------------------


def key(deal: Deal, a: Action) -> Hashable:
    """Equal keys are the same move (as in test_engine_properties)."""
    if a.kind == "throw":
        last = a.cards[-1] if deal.profile.draw_first and a.cards else None
        return ("throw", frozenset(a.cards), last)
    if a.kind == "take" and a.source == "pile":
        card = a.cards[0] if a.cards else None
        if deal.profile.take_rule == "pile-top":
            return ("pile",) if card is None or card == deal.pile_top else ("pile", card)
        if card is None and len(deal.offer_cards) == 1:
            card = deal.offer_cards[0]
        return ("pile", card)
    return (a.kind, a.source)


def every_candidate(deal: Deal) -> list[Action]:
    hand = deal.hands[deal.turn]
    out = [Action.call(), Action.take_stock(), Action.take_pile()]
    out += [Action.take_pile(c) for c in range(deal.profile.deck_size)]
    for k in range(1, len(hand) + 1):
        for g in combinations(sorted(hand), k):
            if deal.profile.draw_first and k > 1:
                out += [Action.throw(*(c for c in g if c != last), last) for last in g]
            else:
                out.append(Action.throw(*g))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.randoms(use_true_random=True))
def test_legal_actions_are_exactly_the_actions_refusal_accepts(table: tuple[str, int, int | str], rng: random.Random) -> None:
    text, seats, seed = table
    deal, _ = both(text, seats, seed, 0)
    for _ in range(120):
        if deal.is_over:
            break
        listed = deal.legal_actions()
        accepted = {key(deal, a) for a in every_candidate(deal) if deal.refusal(a) is None}
        assert {key(deal, a) for a in listed} == accepted
        assert len(listed) == len({key(deal, a) for a in listed}), "a move is listed twice"
        deal.play(pick(listed, rng))


# -- the simulation API ------------------------------------------------------------------


def test_a_copy_is_equal_and_independent() -> None:
    d = Deal.new(profile("dashain"), 5)
    botlevels.play_deal(d.copy(), "medium")  # playing a copy out leaves the original alone
    before = state_to_json(d)
    c = d.copy()
    assert c == d and c is not d
    c.play(heuristic.choose(c))
    c.hands[1].append(99)
    c.known[0].append(98)
    assert state_to_json(d) == before and c != d


def test_public_view_places_every_card_and_hides_the_others_hidden_cards() -> None:
    d = Deal.new(profile("nepali-games", players=3), 11)
    for _ in range(25):
        d.play(heuristic.choose(d, "hard"))
    for seat in range(d.players):
        v = d.public_view(seat)
        others_known = [c for s, k in enumerate(v.known) if s != seat for c in k]
        places = Counter(list(v.hand) + list(v.pile) + list(v.pending) + others_known + list(v.unseen))
        assert places == Counter(range(d.profile.deck_size))
        hidden = set(d.stock) | {c for s, h in enumerate(d.hands) if s != seat for c in h} - set(others_known)
        assert set(v.unseen) == hidden
        assert v.hand_counts == tuple(len(h) for h in d.hands) and v.stock_count == len(d.stock)


@pytest.mark.parametrize("key_", ["nepali-games", "dashain", "cardrulesplus"])
def test_play_out_with_random_moves_keeps_every_card(key_: str) -> None:
    rng = random.Random(key_)
    for seed in range(20):
        d = Deal.new(profile(key_), seed)
        try:
            play_out(d, random_policy(rng), max_actions=3000)
        except RuntimeError:
            assert d.profile.turn_cap is None and not d.is_over  # random play need not end without a cap
        check_cards(d)


def test_play_out_takes_one_policy_per_seat_and_bounds_the_deal() -> None:
    d = Deal.new(profile("dashain", players=3), 1)
    with pytest.raises(ValueError):
        play_out(d, [heuristic.policy("easy")] * 2)
    with pytest.raises(RuntimeError, match="within 3 actions"):
        play_out(d, heuristic.policy("medium"), max_actions=3)
    assert len(d.history) == 3
    outcome = play_out(d, [heuristic.policy("easy"), heuristic.policy("medium"), heuristic.policy("hard")])
    assert outcome is d.outcome and d.is_over
