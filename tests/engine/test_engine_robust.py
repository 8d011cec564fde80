"""Robust grades (dhumbal.trainer.robust): a puzzle's answer held against every kind of opponent.

The review's first finding, reproduced: in ng-2-10-57 Chandra holds one card
in plain view, 5♦, exactly the limit. The old grade, with a hard bot in every
seat (which calls two under the limit), kept "throw 2♦"; against seats that
call whenever they may, Chandra calls at once and "throw 4♥" leaves two
points fewer on every deal. The rule refuses the old answer. The rest holds
the parts the rule stands on: the caller model, the shared play-outs (the
same results as one play-out per model), the verdicts, and that a grade
repeats exactly.
"""

from __future__ import annotations

import pytest

from dhumbal.bots.botlevels import policy
from dhumbal.bots.expert import choose as expert_choose
from dhumbal.bots.sampler import Sampler
from dhumbal.core import cards as C
from dhumbal.core.profiles import find_profile
from dhumbal.play.action import Action, parse_action
from dhumbal.play.playout import play_out
from dhumbal.play.records import from_position
from dhumbal.trainer import robust
from dhumbal.trainer.grading import grade, move_key, moves
from dhumbal.trainer.robust import (
    CHECK_CLEAR,
    CLEAR,
    FEEL_LEAD,
    OPPONENTS,
    caller,
    feel_lead,
    holds,
    play_models,
    robust_grade,
    verdict,
)
from dhumbal.worked.puzzles import load_text
from tests.engine.puzzlecases import CHANDRA_DEAL

#: The review's ng-2-10-57, as its generator wrote it, with its old answer.
CHANDRA_ON_FIVE = CHANDRA_DEAL + """\
answer = "throw 2♦"

[puzzle.generated]
version = 1
seed = 2
deal = "2/10"
move = 57
"""


def test_the_review_s_puzzle_kept_by_the_old_grade_is_refused_by_the_rule() -> None:
    puzzle = load_text(CHANDRA_ON_FIVE, "ng-2-10-57.toml", graded=False)
    chandra = puzzle.names.index("Chandra")
    assert puzzle.deal.known[chandra] == C.parse_cards("5♦") and len(puzzle.deal.hands[chandra]) == 1
    old = grade(puzzle.deal, samples=200, seed="old")  # the hard bot in every seat, the reader's too
    assert move_key(old.best.action) == move_key(parse_action("throw 2♦"))
    assert not robust_grade(puzzle.profile, puzzle.view(), puzzle.answer, seed="review").passed
    graded = robust_grade(puzzle.profile, puzzle.view(), puzzle.answer, seed="review", models=("caller",))
    assert not graded.passed and graded.reason.startswith("caller:"), graded.reason
    calling = graded.grades["caller"]
    four = calling.of(parse_action("throw 4♥"))
    assert four is not None and four.diff == -2.0 and four.diff_se == 0  # 4♥ leaves 2 points fewer on every deal ...
    assert all(m.later == 0 for m in calling.moves)  # ... as Chandra calls before Asha moves again


def test_the_caller_calls_whenever_it_may_and_otherwise_plays_as_the_hard_bot() -> None:
    p = find_profile("nepali-games").with_options(players=3)
    on_five = from_position(p, hands=[C.parse_cards("A♠ 4♦"), C.parse_cards("K♠ Q♠"), C.parse_cards("9♠ 8♠")],
                            pile=C.parse_cards("7♣"), dealer=2, turn=0, turns=9)
    assert caller(on_five) == Action.call()
    assert policy("hard")(on_five) != Action.call()  # the hard bot calls two under the limit
    heavy = from_position(p, hands=[C.parse_cards("A♠ 9♦"), C.parse_cards("K♠ Q♠"), C.parse_cards("9♠ 8♠")],
                          pile=C.parse_cards("7♣"), dealer=2, turn=0, turns=9)
    assert caller(heavy) == policy("hard")(heavy)


def test_shared_play_outs_give_each_model_what_its_own_play_out_gives() -> None:
    p = find_profile("dashain").with_options(players=3)
    deal = from_position(p, hands=[C.parse_cards("K♠ 3♦ 2♣ 9♥"), C.parse_cards("A♠ 2♠ 5♥"), C.parse_cards("4♠ 5♠ 6♥ 7♣")],
                         pile=C.parse_cards("8♣"), dealer=2, turn=0, turns=9, seed="shared")
    view = deal.public_view(0)
    sampler = Sampler(p, view)
    rng = sampler.rng("shared", "test")
    models = list(OPPONENTS)
    for k in range(4):
        base = sampler.sample(rng, f"shared/{k}")
        base.history = list(view.history)
        base.play(moves(base)[0])
        together = {m: end for m, end, _ in play_models(base.copy(), 0, models)}
        assert set(together) == set(models)
        for m in models:
            alone = base.copy()
            seats = [expert_choose if s == 0 else robust._POLICIES[m] for s in range(3)]
            play_out(alone, seats)
            assert alone.history == together[m].history, (k, m)
            assert alone.outcome == together[m].outcome


@pytest.mark.parametrize("diff, se, final, check, expected", [
    (6.0, 1.0, True, False, "pass"),     # 6 standard errors, and 6 points
    (3.3, 1.0, True, False, "pass"),     # 3.3 standard errors, and 3.3 points: a felt 3 in dashain
    (2.9, 0.5, True, False, "fail"),     # far beyond the noise, but 2.9 points: not a felt 3 in dashain
    (3.5, 1.2, True, False, "fail"),     # 3.5 points, but under 3 standard errors
    (2.5, 1.0, True, True, "pass"),      # the regrade's rule: 2.5 standard errors, 3.5 points one higher
    (1.0, 0.0, True, False, "fail"),     # certain, but a point is not felt
    (0.0, 0.0, False, False, "fail"),    # a tie under some model: the answer is not best
    (-1.0, 0.3, False, False, "fail"),   # behind
    (-1.0, 0.3, False, True, "open"),    # ... but a regrade fails nothing before its last look
    (-1.0, 0.3, True, True, "fail"),
    (5.0, 1.5, False, False, "open"),    # not settled before the last look
    (9.0, 2.0, False, False, "pass"),    # settled early: 4.5 standard errors, 7 points one lower
])
def test_the_verdict_on_a_move_behind_the_answer(diff: float, se: float, final: bool, check: bool, expected: str) -> None:
    assert verdict(diff, se, FEEL_LEAD["dashain"], final=final, check=check) == expected


def test_the_rule_asks_more_than_the_regrade_and_a_felt_lead_per_profile() -> None:
    assert CLEAR > CHECK_CLEAR
    assert feel_lead(find_profile("cardrulesplus")) == FEEL_LEAD["cardrulesplus"]
    assert all(v >= 2.0 for v in FEEL_LEAD.values())


@pytest.mark.parametrize("profile, hands, pile", [
    ("nepali-games", ["K♠ K♥ 3♦ 2♣", "A♠ 2♠ 3♠", "4♠ 5♠ 6♠"], "9♣"),
    ("cardrulesplus", ["K♠ K♥ 3♦", "A♠ 2♠ 3♠", "4♠ 5♠ 6♥"], "9♣"),
])
def test_a_robust_grade_repeats_exactly_and_each_model_s_figures_are_its_own(
        profile: str, hands: list[str], pile: str) -> None:
    p = find_profile(profile).with_options(players=3)
    deal = from_position(p, hands=[C.parse_cards(h) for h in hands], pile=C.parse_cards(pile),
                         stock_top=C.parse_cards("8♦"), dealer=2, turn=0, turns=9)
    if p.draw_first:
        deal.apply("take stock")
    view = deal.public_view(0)
    answer = parse_action("throw K♠ K♥")
    first = robust_grade(p, view, answer, seed="x", looks=(6, 12))
    assert first == robust_grade(p, view, answer, seed="x", looks=(6, 12))
    for model, graded in first.grades.items():
        if model in ("caller", "hard"):
            # graded in its own stage or beside others, a model's figures are the same (only the cost differs)
            alone = robust_grade(p, view, answer, seed="x", looks=(6, 12), models=(model,))
            assert alone.grades[model] == graded, model
        assert {move_key(m.action) for m in graded.moves} == {move_key(a) for a in moves(deal)}
        assert move_key(graded.best.action) == move_key(answer)
        assert all(1 <= m.samples <= graded.samples and 0 <= m.later <= 1 for m in graded.moves)
    if first.passed:
        assert set(first.grades) == set(OPPONENTS)
        assert all(holds(g, feel_lead(p)) is None for g in first.grades.values())


def test_only_a_grade_near_the_rule_s_edge_needs_a_confirming_one() -> None:
    from dataclasses import replace as swap

    from dhumbal.trainer.grading import Grade, MoveGrade
    from dhumbal.trainer.robust import FAR, FAR_CLEAR, RobustGrade, needs_confirming

    def made(diff: float, se: float) -> RobustGrade:
        rows = (MoveGrade(parse_action("call"), 0, 0, 0, 0, samples=50), MoveGrade(parse_action("take stock"), -diff, 1, diff, se, samples=50))
        g = Grade("nepali-games", "paid", 50, "expert", rows)
        return RobustGrade(parse_action("call"), {m: g for m in OPPONENTS}, True)

    feel = 2.0
    assert not needs_confirming(made(FAR * feel, FAR * feel / FAR_CLEAR), feel)
    assert needs_confirming(made(FAR * feel - 0.1, 0.1), feel)  # not twice the felt lead
    assert needs_confirming(made(30.0, 30.0 / FAR_CLEAR + 0.1), feel)  # not 6 standard errors
    one = made(30.0, 1.0)
    near = swap(one, grades={**one.grades, "expert": made(3.0, 0.5).grades["expert"]})
    assert needs_confirming(near, feel)  # one model near the edge is enough
