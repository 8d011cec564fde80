"""Group generation against a plain reference: every subset of a hand, classified by the rules as written.

The engine builds sets rank by rank and runs by scanning suits; the reference
here tries every subset of the hand and classifies it straight from
PROFILES.md. They must agree exactly, for every profile and option that
changes what a group is (runs, jokers, set size).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dhumbal.core.cards import Card
from dhumbal.core.profiles import Profile
from dhumbal.play.groups import (
    best_group_value,
    classify_group,
    group_kind,
    group_refusal,
    heaviest_group,
    throwable_groups,
)
from tests.engine.rules_kit import IllegalAction, cards, profile

PROFILES = {
    "nepali-games": profile("nepali-games"),
    "nepali-games(runs)": profile("nepali-games", runs=True),
    "nepali-games(runs,jokers)": profile("nepali-games", runs=True, jokers=True),
    "nepali-games(jokers)": profile("nepali-games", jokers=True),
    "dashain": profile("dashain"),
    "cardrulesplus": profile("cardrulesplus"),
    "cardrulesplus(jokers)": profile("cardrulesplus", jokers=True),
}


def reference_kind(p: Profile, group: Sequence[Card]) -> str | None:
    """PROFILES.md, read directly: what ``group`` (distinct cards) is, or None."""
    n = len(group)
    if n == 1:
        return "single"
    reals = [c for c in group if c < 52]
    jokers = n - len(reals)
    if len({c % 13 for c in reals}) <= 1:  # one rank (or jokers only): a set
        ok = (jokers == 0 or p.jokers_in_sets) and (p.set_max is None or n <= p.set_max)
        return "set" if ok else None
    if not p.runs or (jokers and not p.jokers_in_runs) or n < 3 or n > 13:
        return None
    if len({c // 13 for c in reals}) != 1:
        return None
    ranks = sorted(c % 13 for c in reals)
    if len(set(ranks)) != len(ranks):
        return None
    gaps = ranks[-1] - ranks[0] + 1 - len(ranks)  # ranks a joker must stand for
    return "run" if gaps <= jokers else None


def reference_groups(p: Profile, hand: Sequence[Card]) -> set[tuple[Card, ...]]:
    hs = sorted(hand)
    return {g for k in range(1, len(hs) + 1) for g in combinations(hs, k) if reference_kind(p, g)}


def value(p: Profile, group: Sequence[Card]) -> int:
    return sum(p.value(c) for c in group)


@st.composite
def hands(draw: st.DrawFn, max_size: int = 9) -> tuple[str, list[Card]]:
    name = draw(st.sampled_from(sorted(PROFILES)))
    p = PROFILES[name]
    # a few suits and ranks close together, so that sets and runs are common
    pool = draw(st.sampled_from([range(p.deck_size), [c for c in range(52) if c % 13 < 7] + list(range(52, p.deck_size))]))
    hand = draw(st.lists(st.sampled_from(list(pool)), min_size=0, max_size=max_size, unique=True))
    return name, hand


@settings(max_examples=300, deadline=None)
@given(hands())
def test_every_group_of_a_hand_is_listed_once_and_nothing_else(data: tuple[str, list[Card]]) -> None:
    name, hand = data
    p = PROFILES[name]
    listed = throwable_groups(p, hand)
    assert len(listed) == len(set(listed)), "a group is listed twice"
    assert all(list(g) == sorted(g) for g in listed), "groups are in pack order"
    assert set(listed) == reference_groups(p, hand)
    assert throwable_groups(p, list(reversed(hand))) == listed  # the order does not depend on the hand's


@settings(max_examples=300, deadline=None)
@given(hands(max_size=7))
def test_group_kind_and_refusal_follow_the_rules(data: tuple[str, list[Card]]) -> None:
    name, hand = data
    p = PROFILES[name]
    for k in range(1, len(hand) + 1):
        for g in combinations(hand, k):
            expected = reference_kind(p, g)
            assert group_kind(p, g) == expected, g
            refusal = group_refusal(p, g)
            assert (refusal is None) == (expected is not None)
            if expected is None:
                with pytest.raises(IllegalAction):
                    classify_group(p, g)
            else:
                assert classify_group(p, g) == expected


@settings(max_examples=300, deadline=None)
@given(hands())
def test_best_group_value_is_the_most_any_group_sheds(data: tuple[str, list[Card]]) -> None:
    name, hand = data
    p = PROFILES[name]
    assert best_group_value(p, hand) == max((value(p, g) for g in reference_groups(p, hand)), default=0)


@settings(max_examples=300, deadline=None)
@given(hands())
def test_heaviest_group_is_the_medium_bots_choice_among_all_groups(data: tuple[str, list[Card]]) -> None:
    name, hand = data
    p = PROFILES[name]
    if p.jokers or not hand:
        return
    best = max(reference_groups(p, hand), key=lambda g: (value(p, g), len(g), [-c for c in g]))
    assert heaviest_group(p, hand) == best


def test_heaviest_group_refuses_a_profile_with_jokers() -> None:
    with pytest.raises(ValueError):
        heaviest_group(PROFILES["cardrulesplus(jokers)"], cards("4♥ 5♥"))


def test_jokers_fill_gaps_or_extend_a_run_and_may_stand_for_a_held_card() -> None:
    p = PROFILES["cardrulesplus(jokers)"]
    groups = set(throwable_groups(p, cards("4♥ 5♥ 6♥ Jk1")))
    assert tuple(cards("4♥ 6♥ Jk1")) in groups  # the joker is the 5 although the hand holds it
    assert tuple(cards("5♥ 6♥ Jk1")) in groups  # the joker extends the run
    assert tuple(cards("4♥ 5♥ 6♥ Jk1")) in groups


def test_a_big_hand_lists_its_groups_without_trying_every_subset() -> None:
    # 45 cards with both jokers: 2**45 subsets, but only tens of thousands of groups
    p = PROFILES["cardrulesplus(jokers)"]
    hand = list(range(43)) + [52, 53]
    groups = throwable_groups(p, hand)
    assert len(groups) == len(set(groups)) < 200_000
    assert all(group_kind(p, g) is not None for g in groups[:: max(1, len(groups) // 500)])
    assert best_group_value(p, hand) == max(value(p, g) for g in groups)
