"""Soak: at least 200,000 random actions per profile, every invariant checked after each one.

Deals under random house rules and seat counts are played with random legal
actions through the checked path (``apply``), with random illegal attempts
mixed in. After every action every card of the pack is in exactly one place;
every refused action leaves the state exactly as it was; every state met
survives the position check (a JSON round trip gives it back); every finished
deal settles as its profile says, to zero where money changes hands.

``make test`` runs the figure below (seconds per profile on one core);
``make soak`` sets ``DHUMBAL_SOAK_ACTIONS`` for a long run.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from dhumbal.core.profiles import Profile, find_profile
from dhumbal.play.deal import Action, Deal, IllegalAction, Outcome
from dhumbal.play.records import state_from_json, state_to_json
from tests.engine.rules_kit import count_actions

ACTIONS = int(os.environ.get("DHUMBAL_SOAK_ACTIONS", "200000"))  # per profile
MAX_DEAL = 600  # actions in one deal before the next (profiles without a cap may circle)
ILLEGAL_EVERY = 4  # on average, one illegal attempt per this many actions
ROUND_TRIPS = frozenset({3, 10, 40, 150, 450})  # steps of a deal whose state goes through JSON and back

# Every house rule that changes play, with its values.
CHOICES: dict[str, dict[str, list[Any]]] = {
    "nepali-games": {
        "cards": ["5", "7"], "limit": [0, 3, 5, 12, 30], "courts": ["10", "11-12-13"],
        "runs": [False, True], "jokers": [False, True], "penalty": [1, 25, 200],
    },
    "dashain": {"limit": [1, 10, 40], "first-round-call": [False, True]},
    "cardrulesplus": {
        "jokers": [False, True], "limit": [None, 7, 40], "courts": ["0-10-10", "11-12-13"],
        "penalty": ["25", "30"], "double-penalty": [False, True], "set-pick": [False, True],
        "direction": ["clockwise", "counterclockwise"],
    },
}


def random_table(key: str, rng: random.Random) -> tuple[Profile, int]:
    p = find_profile(key)
    p = p.with_options(**{k: rng.choice(v) for k, v in CHOICES[key].items() if rng.random() < 0.5})
    return p, rng.randint(2, p.players_max)


def attempt(deal: Deal, rng: random.Random) -> Action:
    """An action built without looking at legality (mostly illegal)."""
    size = deal.profile.deck_size
    hand = deal.hands[deal.turn]
    r = rng.random()
    if r < 0.15:
        return rng.choice([Action.call(), Action.take_stock(), Action.take_pile()])
    if r < 0.45:
        return Action.take_pile(rng.randrange(size))
    k = rng.randint(1, 4)
    cards = rng.sample(hand, min(k, len(hand))) if hand and rng.random() < 0.8 else [rng.randrange(size) for _ in range(k)]
    return Action.throw(*cards)


def settles(deal: Deal, o: Outcome) -> None:
    p = deal.profile
    n = deal.players
    assert list(o.hands) == deal.totals()
    assert len(o.took) == len(o.paid) == len(o.points) == n
    if p.settlement in ("collect", "pay-caller"):
        assert sum(o.paid) == 0, f"{p.canonical()}: payments {o.paid} do not sum to zero"
    else:  # cumulative points: nothing changes hands
        assert o.paid == (0,) * n and min(o.points) >= 0
    if o.caller is not None:
        assert o.caught == any(o.hands[s] <= o.hands[o.caller] for s in range(n) if s != o.caller)


def conserved(deal: Deal) -> None:
    size = deal.profile.deck_size
    every = [c for h in deal.hands for c in h] + deal.stock + deal.pile + deal.pending
    assert len(every) == size and len(set(every)) == size and max(every) < size, "a card is lost or doubled"


def soak(key: str, actions: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    done = refused = deals = finished = 0
    while done < actions:
        p, seats = random_table(key, rng)
        deal = Deal.new(p, f"soak/{seed}/{deals}", dealer=rng.randrange(seats), players=seats)
        deals += 1
        for step in range(MAX_DEAL):
            if deal.is_over:
                break
            conserved(deal)
            if rng.randrange(ILLEGAL_EVERY) == 0:
                a = attempt(deal, rng)
                seat = rng.choice([None, deal.turn, rng.randrange(seats)])
                why = deal.refusal(a, seat)
                if why is not None:
                    before = deal.copy()
                    with pytest.raises(IllegalAction) as info:
                        deal.apply(a, seat=seat)
                    assert info.value.code == why.code
                    assert deal == before, f"refused {a} ({why.code}) changed the state"
                    refused += 1
            listed = deal.legal_actions()
            assert listed, "a live deal has no legal action"
            moves = [a for a in listed if a.kind != "call"]
            a = rng.choice(listed if not moves or rng.random() < 0.2 else moves)
            if rng.random() < 0.9:
                assert deal.apply(a)
            else:
                deal.play(a)  # the trusted path, now and then
            done += 1
            if step in ROUND_TRIPS:
                assert state_from_json(state_to_json(deal)) == deal
        conserved(deal)
        if deal.outcome is not None:
            finished += 1
            settles(deal, deal.outcome)
            assert state_from_json(state_to_json(deal)) == deal
    count_actions(done)
    return {"actions": done, "refused": refused, "deals": deals, "finished": finished}


@pytest.mark.heavy  # a soak: the full suite (the properties test plays random deals in make check)
@pytest.mark.parametrize("key", ["nepali-games", "dashain", "cardrulesplus"])
def test_soak_random_actions_keep_every_invariant(key: str) -> None:
    seed = int(os.environ.get("DHUMBAL_SOAK_SEED", random.SystemRandom().randrange(10**9)))
    try:
        figures = soak(key, ACTIONS, seed)
    except AssertionError as exc:
        raise AssertionError(f"{exc} (reproduce with DHUMBAL_SOAK_SEED={seed})") from exc
    assert figures["actions"] >= ACTIONS
    assert figures["refused"] >= ACTIONS // (2 * ILLEGAL_EVERY)  # illegal attempts really were made
    assert figures["finished"] >= figures["deals"] // 2  # and deals really ended (by calls, or the cap)


def test_the_soak_checks_can_fail() -> None:
    d = Deal.new(find_profile("dashain"), 1)
    d.stock.pop()
    with pytest.raises(AssertionError):
        conserved(d)
    d = Deal.new(find_profile("dashain"), 2)
    o = Outcome("call", 0, False, 0, (1, 2, 3, 4), (0, 2, 3, 4), (9, -2, -3, -4), (0, 2, 3, 4))
    with pytest.raises(AssertionError):
        settles(d, o)
