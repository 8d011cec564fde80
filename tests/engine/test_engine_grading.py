"""Grading every move of a position (dhumbal.trainer.grading) and saying it in words (dhumbal.trainer.advice;
the words in each language are held by tests/site/test_site_puzzles.py, where
the catalogs are compiled).

A grade plays every distinct move of the seat on turn out to the end of the
deal on the same sampled deals, from the seat's view only: the figures are
reproducible, the best move is legal, a move that only reorders a throw is
one move, the paired standard error is what the difference between two
moves is measured with, and the words come from the figures.
"""

from __future__ import annotations

import math

import pytest

from dhumbal.core import cards as C
from dhumbal.core.profiles import find_profile
from dhumbal.play.action import Action, parse_action
from dhumbal.play.records import from_position
from dhumbal.trainer import advice
from dhumbal.trainer.grading import Grade, GradeError, grade, grade_view, move_key, moves


def position(profile: str, hands: list[str], pile: str, *, stock: str = "", turns: int = 12, **opts: object):
    p = find_profile(profile).with_options(players=len(hands), **opts)
    return from_position(p, hands=[C.parse_cards(h) for h in hands], pile=C.parse_cards(pile),
                         stock_top=C.parse_cards(stock), dealer=len(hands) - 1, turn=0, turns=turns, seed="grading")


def test_a_throw_in_another_order_is_the_same_move() -> None:
    deal = position("nepali-games", ["K♠ K♥ 3♦ 2♣", "A♠ 2♠ 3♠", "4♠ 5♠ 6♠"], "9♣", stock="8♦")
    deal.apply("take stock")
    listed = deal.legal_actions()
    distinct = moves(deal)
    assert len({move_key(a) for a in listed}) == len(distinct) < len(listed)
    pair = next(a for a in distinct if len(a.cards) == 2 and set(a.cards) == set(C.parse_cards("K♠ K♥")))
    assert move_key(pair) == move_key(parse_action("throw K♥ K♠")) == move_key(parse_action("throw K♠ K♥"))
    assert all(deal.is_legal(a) for a in distinct)


def test_a_grade_repeats_exactly_and_its_best_move_is_legal() -> None:
    deal = position("dashain", ["K♠ K♥ Q♦ 2♣", "A♠ 2♠", "4♠ 5♠ 6♥"], "8♣")
    first = grade(deal, samples=60, seed="x")
    again = grade(deal, samples=60, seed="x")
    assert first == again
    assert deal.is_legal(first.best.action)
    assert {move_key(m.action) for m in first.moves} == {move_key(a) for a in moves(deal)}
    # best first, in the measure's direction (money-way: more is better)
    means = [m.mean for m in first.moves]
    assert means == sorted(means, reverse=True)
    assert first.best.diff == 0 and all(m.diff >= 0 for m in first.moves)


def test_a_grade_reads_the_seat_view_only() -> None:
    """Two deals that look the same from the seat (other hidden cards) grade the same."""
    a = position("nepali-games", ["2♣ 2♦", "A♠ 9♥", "K♣ Q♥"], "9♣", stock="3♥")
    b = position("nepali-games", ["2♣ 2♦", "K♣ Q♥", "A♠ 9♥"], "9♣", stock="5♠")
    assert a.public_view(0).unseen == b.public_view(0).unseen
    assert grade(a, samples=40) == grade(b, samples=40)


def test_grades_round_trip_through_json() -> None:
    deal = position("cardrulesplus", ["J♠ K♦ A♥", "2♠ 3♠ 4♦", "5♠ 6♠ 7♦"], "8♣")
    graded = grade(deal, samples=30)
    assert Grade.from_json(graded.to_json()).to_json() == graded.to_json()
    assert graded.measure == "points"  # cumulative: fewer points are better, so the best has the least
    assert graded.best.mean == min(m.mean for m in graded.moves)
    with pytest.raises(ValueError):
        Grade.from_json({"profile": "x"})
    with pytest.raises(ValueError):
        Grade.from_json({**graded.to_json(), "measure": "goats"})


def test_a_safe_call_is_clearly_best_and_the_words_say_why() -> None:
    deal = position("dashain", ["A♠ A♦", "K♠ Q♠ J♠", "K♥ Q♥ J♥"], "8♣")
    graded = grade(deal, samples=80)
    assert graded.best.action == Action.call()
    assert graded.is_clear() and graded.margin() > 4
    assert graded.call_caught == 0.0  # two aces against three cards each: nobody holds 2 or less
    view = deal.public_view(0)
    lines = advice.why(deal.profile, view, graded, graded.moves[-1].action, "en")
    assert lines[0] == "A call now on 2 is caught in 0% of the deals that fit what you have seen."
    assert len(lines) == 2
    for lang in ("fr", "nl", "ne"):  # every language fills every sentence (their words: tests/site)
        assert all(advice.why(deal.profile, view, graded, m.action, lang) for m in graded.moves)


def test_identical_outcomes_have_no_margin() -> None:
    """Two moves that always end alike lead neither one: the margin is 0, not a division by zero."""
    deal = position("nepali-games", ["3♣ 3♦", "K♠ Q♠ J♠", "K♥ Q♥ J♥"], "9♣", stock="4♥")
    deal.apply("take stock")
    graded = grade(deal, samples=20)
    pair = graded.of(parse_action("throw 3♣ 3♦"))
    assert pair is not None
    assert math.isfinite(graded.margin())


def test_a_grade_refuses_what_it_cannot_grade() -> None:
    deal = position("dashain", ["A♠ A♦", "K♠ Q♠ J♠", "K♥ Q♥ J♥"], "8♣")
    with pytest.raises(GradeError):
        grade_view(deal.profile, deal.public_view(1))  # not seat 1's turn
    with pytest.raises(GradeError):
        grade(deal, samples=0)
    deal.apply("call")
    with pytest.raises(GradeError):
        grade_view(deal.profile, deal.public_view(0))  # the deal is over


def test_moves_in_words_in_each_profile() -> None:
    draw_first = position("nepali-games", ["2♦ 9♠", "K♠", "Q♠"], "A♣")
    view = draw_first.public_view(0)
    assert advice.move_text(draw_first.profile, view, Action.take_pile(), "en") == "take A♣ from the pile"
    assert advice.move_text(draw_first.profile, view, Action.take_stock(), "en") == "take from the stock"
    assert advice.move_text(draw_first.profile, view, Action.call(), "en") == "call on 11"
    offer = position("dashain", ["9♠ 3♥ Q♦", "K♠ 2♠", "Q♠ 2♥"], "A♣")
    seen = offer.public_view(0)
    assert advice.move_text(offer.profile, seen, Action.take_pile(C.parse_card("A♣")), "en") == "take A♣ from the offer"
    assert advice.move_text(offer.profile, seen, parse_action("throw Q♦"), "en") == "throw Q♦"
    runs = position("nepali-games", ["9♦ J♦ 10♦ 2♠", "K♠", "Q♠"], "A♣", runs="on")
    assert advice.move_text(runs.profile, runs.public_view(0), parse_action("throw J♦ 9♦ 10♦"), "en") == "throw 9♦ 10♦ J♦"
