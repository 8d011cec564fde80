"""Random play under every profile and random house rules, with invariants after every step.

Each example plays several seeded deals, choosing uniformly among
``legal_actions()`` with a hypothesis-seeded ``random.Random``. After every
step: every card is accounted for; every listed action is legal; a sample of
actions built at random (throws of random hand subsets, takes of random cards,
calls) is legal exactly when it is listed, and a refused one raises with the
same code and changes nothing. At the end of each deal: payments sum to zero,
the state round-trips through JSON, and the transcript replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dhumbal.core.profiles import parse_profile
from dhumbal.play.deal import Action, Deal, IllegalAction
from dhumbal.play.records import replay, state_from_json, state_to_json, transcript
from tests.engine.rules_kit import OPTIONS, check_cards, count_actions, profile

ACTIONS_PER_EXAMPLE = 1500  # random legal actions applied per hypothesis example
MAX_ACTIONS_PER_DEAL = 500  # profiles without a turn cap need a bound of their own
ROUND_TRIP_EVERY = 41  # mid-deal JSON round trips (every deal's end is always checked)
PARTS = (1, 2)
EXAMPLES_PER_PART = 10  # 3 profiles x 2 parts x 10 examples x 1500 actions = 90,000 random actions


@st.composite
def tables(draw: st.DrawFn, key: str) -> tuple[str, int, int | str]:
    specs = OPTIONS[key]
    opts = {k: draw(v) for k, v in specs.items() if draw(st.booleans())}
    p = profile(key, **opts)
    seats = draw(st.integers(2, p.players_max))
    seed = draw(st.integers(0, 2**32) | st.text(alphabet="abcxyz/-0123", min_size=1, max_size=8))
    return p.canonical(), seats, seed


# -- action keys: equal keys are the same move --------------------------------------


def action_key(deal: Deal, a: Action) -> Hashable:
    if a.kind == "throw":
        if deal.profile.draw_first:  # the last card becomes the pile top: it matters
            return ("throw", frozenset(a.cards), a.cards[-1] if a.cards else None, len(a.cards))
        return ("throw", frozenset(a.cards), len(a.cards))
    if a.kind == "take" and a.source == "pile":
        if len(a.cards) > 1:
            return ("take", "pile", a.cards)
        card = a.cards[0] if a.cards else None
        if deal.profile.take_rule == "pile-top":  # "take pile" and "take pile TOP" are one move
            return ("take", "pile") if card is None or card == deal.pile_top else ("take", "pile", card)
        offer = deal.offer_cards
        if card is None and len(offer) == 1:  # naming the only card on offer is optional
            card = offer[0]
        return ("take", "pile", card)
    return (a.kind, a.source, a.cards)


def random_candidates(deal: Deal, rng: random.Random, n: int) -> list[Action]:
    """Actions built without looking at legality."""
    hand = deal.hands[deal.turn]
    size = deal.profile.deck_size
    out: list[Action] = [Action.call(), Action.take_stock(), Action.take_pile()]
    for _ in range(n):
        r = rng.random()
        if r < 0.55 and hand:
            k = rng.randint(1, min(len(hand), 6))
            group = rng.sample(hand, k)
            if rng.random() < 0.1:
                group.append(rng.randrange(size))  # maybe a card from elsewhere
            out.append(Action.throw(*group))
        elif r < 0.85:
            out.append(Action.take_pile(rng.randrange(size)))
        else:
            pool = deal.offer_cards + deal.pending + hand
            if pool:
                out.append(Action.take_pile(rng.choice(pool)))
    return out


def check_step(deal: Deal, rng: random.Random) -> list[Action]:
    check_cards(deal)
    listed = deal.legal_actions()
    assert listed, "a live deal has no legal action"
    keys = set()
    for a in listed:
        why = deal.refusal(a)
        assert why is None, f"listed {a} is refused: {why}"
        keys.add(action_key(deal, a))
    # a listed action played for another seat is out of turn
    other = (deal.turn + rng.randrange(1, deal.players)) % deal.players
    why_other = deal.refusal(rng.choice(listed), seat=other)
    assert why_other is not None and why_other.code in ("not-your-turn", "call-after-draw", "call-after-throw")
    for a in random_candidates(deal, rng, 4):
        why = deal.refusal(a)
        listed_here = action_key(deal, a) in keys
        assert (why is None) == listed_here, (
            f"{a}: refusal says {why.code if why else 'legal'}, but it is {'' if listed_here else 'not '}listed"
        )
        if why is not None:
            before = deal.copy()
            with pytest.raises(IllegalAction) as info:
                deal.apply(a)
            assert info.value.code == why.code
            assert deal.copy() == before, f"refused {a} changed the state"
    return listed


def check_end(deal: Deal) -> None:
    check_cards(deal)
    if deal.is_over:
        o = deal.outcome
        assert o is not None and deal.legal_actions() == []
        assert sum(o.paid) == 0
        n = deal.players
        assert len(o.hands) == len(o.took) == len(o.paid) == len(o.points) == n
        assert list(o.hands) == deal.totals()
        if o.caller is not None:
            assert o.caught == any(o.hands[s] <= o.hands[o.caller] for s in range(n) if s != o.caller)
    again = state_from_json(state_to_json(deal))
    assert again == deal and state_to_json(again) == state_to_json(deal)
    assert state_to_json(replay(transcript(deal))) == state_to_json(deal)


def play_random(text: str, seats: int, seed: int | str, rng: random.Random) -> int:
    p = parse_profile(text)
    applied = 0
    k = 0
    while applied < ACTIONS_PER_EXAMPLE:
        deal = Deal.new(p, f"{seed}/{k}", dealer=rng.randrange(seats), players=seats)
        k += 1
        for step in range(MAX_ACTIONS_PER_DEAL):
            if deal.is_over:
                break
            listed = check_step(deal, rng)
            deal.apply(rng.choice(listed))
            applied += 1
            if step % ROUND_TRIP_EVERY == ROUND_TRIP_EVERY - 1:
                assert state_to_json(state_from_json(state_to_json(deal))) == state_to_json(deal)
        check_end(deal)
    count_actions(applied)
    return applied


def property_settings(n: int) -> Any:
    return settings(
        max_examples=n, deadline=None, derandomize=False, database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@pytest.mark.parametrize("part", PARTS)  # smaller items spread better over xdist workers
@property_settings(EXAMPLES_PER_PART)
@given(data=tables("nepali-games"), rng=st.randoms(use_true_random=True))
def test_random_play_keeps_invariants_nepali_games(part: int, data: tuple[str, int, int | str], rng: random.Random) -> None:
    play_random(*data, rng)


@pytest.mark.parametrize("part", PARTS)  # smaller items spread better over xdist workers
@property_settings(EXAMPLES_PER_PART)
@given(data=tables("dashain"), rng=st.randoms(use_true_random=True))
def test_random_play_keeps_invariants_dashain(part: int, data: tuple[str, int, int | str], rng: random.Random) -> None:
    play_random(*data, rng)


@pytest.mark.parametrize("part", PARTS)  # smaller items spread better over xdist workers
@property_settings(EXAMPLES_PER_PART)
@given(data=tables("cardrulesplus"), rng=st.randoms(use_true_random=True))
def test_random_play_keeps_invariants_cardrulesplus(part: int, data: tuple[str, int, int | str], rng: random.Random) -> None:
    play_random(*data, rng)


# -- the checker itself must be able to fail -----------------------------------------


def test_card_check_detects_a_lost_card() -> None:
    d = Deal.new(profile("nepali-games"), seed=1)
    d.stock.pop()
    with pytest.raises(AssertionError):
        check_cards(d)


def test_card_check_detects_a_duplicated_card() -> None:
    d = Deal.new(profile("nepali-games"), seed=1)
    d.stock[0] = d.stock[1]
    with pytest.raises(AssertionError):
        check_cards(d)


def test_step_check_detects_an_unlisted_legal_action() -> None:
    d = Deal.new(profile("nepali-games"), seed=1)

    class Incomplete(Deal):
        def legal_actions(self) -> list[Action]:
            return [a for a in super().legal_actions() if a != Action.take_stock()]

    bad = Incomplete(**{f: getattr(d, f) for f in d.__dataclass_fields__})
    with pytest.raises(AssertionError, match="not listed"):
        check_step(bad, random.Random(0))
