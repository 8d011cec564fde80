"""No position makes a bot think for long: the position check caps hands, and the search itself is bounded.

Issue 15 found a 648-character link giving a hard bot 45 cards (cardrulesplus,
two players, jokers) that took minutes to restore: the throw search tried
every subset of the hand. Now the position check refuses such a hand, and a
bot handed one anyway (a state built directly) lists the groups once,
polynomially, weighs at most ``SEARCH_BUDGET`` of them and reads the best
value of what remains without listing its groups. The work is counted here,
not timed.
"""

from __future__ import annotations

import pytest

from dhumbal.bots import botlevels, heuristic
from dhumbal.play import deal as deal_module
from dhumbal.play import groups
from dhumbal.play.deal import Action, Deal, PositionError
from dhumbal.play.records import state_from_json, state_to_json
from tests.engine.rules_kit import profile, unchecked

CRP_JOKERS = profile("cardrulesplus", players=2, jokers=True)


def huge_hand() -> Deal:
    """Seat 0 holds 45 cards of a 54-card pack, both jokers among them, at the start of its turn."""
    hand = list(range(43)) + [52, 53]
    rest = [c for c in range(54) if c not in hand]
    return unchecked(CRP_JOKERS, [hand, rest[:5]], rest[5:6], stock=rest[6:], turns=8)


def test_the_position_check_refuses_a_hand_no_deal_can_reach() -> None:
    d = huge_hand()
    with pytest.raises(PositionError, match="'hands\\[0\\]' holds 45 cards"):
        state_from_json(state_to_json(d))


class Counting:
    def __init__(self, fn: object) -> None:
        self.fn = fn
        self.calls = 0

    def __call__(self, *args: object) -> object:
        self.calls += 1
        return self.fn(*args)  # type: ignore[operator]


@pytest.mark.parametrize("level", botlevels.DIFFICULTIES)
def test_a_bot_handed_a_huge_hand_does_bounded_work(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    d = huge_hand()
    listing = Counting(groups.throwable_groups)
    weighing = Counting(heuristic._lookahead)
    monkeypatch.setattr(deal_module, "throwable_groups", listing)
    monkeypatch.setattr(heuristic, "_lookahead", weighing)
    a = botlevels.choose(d, level)  # type: ignore[arg-type]
    assert a.kind == "throw" and d.refusal(a) is None
    assert listing.calls <= 1  # the groups of the hand are listed once, never per candidate
    assert weighing.calls <= heuristic.SEARCH_BUDGET


def test_the_budget_keeps_the_groups_that_shed_most() -> None:
    d = huge_hand()
    a = heuristic.choose(d, "hard")
    # far more groups than the budget: the choice is still among the heaviest throws
    everything = d.legal_groups()
    assert len(everything) > heuristic.SEARCH_BUDGET
    values = sorted((sum(d.profile.value(c) for c in g) for g in everything), reverse=True)
    assert sum(d.profile.value(c) for c in a.cards) >= values[heuristic.SEARCH_BUDGET - 1]


def test_hands_a_deal_can_reach_never_meet_the_budget() -> None:
    # the largest hand any profile allows (nepali-games with 7 cards, after a take, runs and jokers)
    p = profile("nepali-games", players=2, cards="7", runs=True, jokers=True)
    hand = [0, 1, 2, 3, 13, 26, 52, 53][: p.hand_size + 1]
    assert len(groups.throwable_groups(p, hand)) < heuristic.SEARCH_BUDGET
    hand6 = [0, 1, 2, 13, 52, 53]
    assert len(groups.throwable_groups(profile("cardrulesplus", jokers=True), hand6[:5])) < heuristic.SEARCH_BUDGET


def test_bots_throw_only_what_lets_the_turn_finish() -> None:
    # a state no deal reaches: empty stock and pile, so a single card thrown would stay
    # on the pile with nothing under it to shuffle, and the turn could not end
    d = unchecked("cardrulesplus", [list(range(26)), list(range(26, 52))], [], offer=0, turns=4, dealer=1)
    assert Action.throw(0) not in d.legal_actions()
    for level in botlevels.DIFFICULTIES:
        a = botlevels.choose(d, level)  # type: ignore[arg-type]
        assert a.kind == "throw" and len(a.cards) > 1 and d.refusal(a) is None, f"{level}: {a}"
