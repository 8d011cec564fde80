"""nepali-games (000, 001): every row of the dimension table, from explicit positions.

Seats are numbered in play order; ``dealer=1`` in a two-seat position makes
seat 0 the dealer's left, who plays first.
"""

from __future__ import annotations

import random

import pytest

from dhumbal.core.cards import full_deck
from dhumbal.play.deal import Action, Deal
from tests.engine.rules_kit import act, assert_refused, card, cards, position, profile, unchecked

NG = "nepali-games"


# -- deal ------------------------------------------------------------------------


@pytest.mark.parametrize("players,dealer,hand_size", [(2, 1, 5), (4, 3, 5), (5, 2, 5), (6, 0, 7), (3, 1, 7)])
def test_nepali_games_deals_one_card_at_a_time_from_dealers_left(players: int, dealer: int, hand_size: int) -> None:
    p = profile(NG, players=players, cards=str(hand_size))
    d = Deal.new(p, seed="one-at-a-time", dealer=dealer)
    # The deal's seeded pack, dealt by hand: one card to each seat in turn,
    # starting with the dealer's left, then one card face up, the rest the stock.
    deck = full_deck(jokers=False)
    random.Random("dhumbal/deal/one-at-a-time").shuffle(deck)
    expected: list[list[int]] = [[] for _ in range(players)]
    for _ in range(hand_size):
        for i in range(1, players + 1):
            expected[(dealer + i) % players].append(deck.pop())
    assert d.hands == expected
    assert d.pile == [deck.pop()]
    assert d.stock == deck


def test_dealers_left_plays_first() -> None:
    for dealer in range(4):
        d = Deal.new(profile(NG, players=4), seed=7, dealer=dealer)
        assert d.turn == (dealer + 1) % 4


def test_nepali_games_seven_card_option() -> None:
    d = Deal.new(profile(NG, players=4, cards=7), seed=3)
    assert [len(h) for h in d.hands] == [7, 7, 7, 7]
    assert len(d.pile) == 1 and len(d.stock) == 52 - 28 - 1


def test_nepali_games_jokers_option_deals_from_54() -> None:
    d = Deal.new(profile(NG, jokers=True, players=2), seed=11)
    assert d.card_count() == 54 and len(d.stock) == 54 - 10 - 1


# -- the turn ----------------------------------------------------------------------


def two_seat(a: str, b: str, pile: str = "9♣", stock_top: str = "2♦ 7♠", **opts: object) -> Deal:
    return position(profile(NG, **opts) if opts else NG, [a, b], pile, stock_top=stock_top, dealer=1)


def test_nepali_games_turn_starts_with_call_or_take_never_a_throw() -> None:
    d = two_seat("A♠ A♥ 3♣", "K♠ Q♥")
    kinds = {a.kind for a in d.legal_actions()}
    assert kinds == {"call", "take"}
    assert_refused(d, "throw A♠", "must-take-first")


def test_take_from_stock_gives_the_stock_top() -> None:
    d = two_seat("K♠ 9♥", "Q♠ Q♥")
    act(d, "take stock")
    assert card("2♦") in d.hands[0] and d.phase == "throw"


def test_take_from_pile_gives_the_pile_top_only() -> None:
    d = two_seat("K♠ 9♥", "Q♠ Q♥", pile="5♦ 3♣")
    assert_refused(d, "take pile 5♦", "not-pile-top")
    act(d, "take pile 3♣")
    assert d.hands[0][-1] == card("3♣") and d.pile == cards("5♦")


def test_only_one_take_per_turn() -> None:
    d = two_seat("K♠ 9♥", "Q♠ Q♥")
    act(d, "take stock")
    assert_refused(d, "take stock", "already-took")
    assert_refused(d, "take pile", "already-took")


def test_throw_ends_the_turn() -> None:
    d = two_seat("K♠ 9♥", "Q♠ Q♥")
    act(d, "take stock")
    act(d, "throw K♠")
    assert d.turn == 1 and d.phase == "start" and d.turns == 1


# -- throws ------------------------------------------------------------------------


def test_throw_one_card_or_a_set_of_one_rank() -> None:
    d = two_seat("7♦ 7♣ 7♥ 2♠", "Q♠ Q♥")
    act(d, "take stock")
    legal = {frozenset(a.cards) for a in d.legal_actions() if a.kind == "throw"}
    assert frozenset(cards("7♦ 7♣ 7♥ 2♦")) not in legal
    assert frozenset(cards("7♦ 7♣ 7♥")) in legal
    assert frozenset(cards("2♠ 2♦")) in legal
    act(d, "throw 7♦ 7♣ 7♥")
    assert d.pile[-3:] == cards("7♦ 7♣ 7♥")


def test_part_of_a_set_may_be_thrown() -> None:
    d = two_seat("7♦ 7♣ 7♥ 2♠", "Q♠ Q♥")
    act(d, "take stock")
    act(d, "throw 7♦ 7♣")
    assert d.hands[0] == cards("7♥ 2♠ 2♦")


def test_mixed_ranks_cannot_be_thrown() -> None:
    d = two_seat("7♦ 8♦ 9♦ 2♠", "Q♠ Q♥")
    act(d, "take stock")
    assert_refused(d, "throw 7♦ 2♠", "mixed-ranks")


def test_runs_are_refused_without_the_runs_option() -> None:
    d = two_seat("7♦ 8♦ 9♦ 2♠", "Q♠ Q♥")
    act(d, "take stock")
    assert_refused(d, "throw 7♦ 8♦ 9♦", "mixed-ranks")


def test_runs_option_allows_three_in_a_row_of_one_suit() -> None:
    d = two_seat("7♦ 8♦ 9♦ 2♠", "Q♠ Q♥", runs=True)
    act(d, "take stock")
    act(d, "throw 9♦ 8♦ 7♦")
    assert d.pile_top == card("7♦") and d.offer_kind == "run"


def test_run_ace_low_no_wrap() -> None:
    d = two_seat("A♠ 2♠ 3♠ Q♠ K♠ J♠", "Q♦ Q♥", runs=True, cards="7", stock_top="5♣")
    act(d, "take stock")
    assert_refused(d, "throw Q♠ K♠ A♠", "not-a-run")
    assert_refused(d, "throw K♠ A♠ 2♠", "not-a-run")
    assert_refused(d, "throw A♠ 2♠", "not-a-run")
    assert d.is_legal(Action.throw(*cards("J♠ Q♠ K♠")))  # K is high
    act(d, "throw A♠ 2♠ 3♠")
    assert d.offer_kind == "run"


def test_run_must_be_one_suit_and_consecutive() -> None:
    d = two_seat("4♥ 5♥ 6♣ 8♥", "Q♦ Q♥", runs=True, stock_top="5♣")
    act(d, "take stock")
    assert_refused(d, "throw 4♥ 5♥ 6♣", "not-a-run")
    assert_refused(d, "throw 4♥ 5♥ 8♥", "not-a-run")


def test_jokers_wild_in_sets_not_runs_nepali() -> None:
    d = two_seat("K♠ Jk1 4♥ 5♥ 9♠", "Q♦ Q♥", runs=True, jokers=True, stock_top="6♥")
    act(d, "take stock")
    assert d.is_legal(Action.throw(*cards("K♠ Jk1")))  # a joker beside a real card is a set
    assert_refused(d, "throw 4♥ 5♥ Jk1", "joker-in-run")  # never in a run
    assert_refused(d, "throw 4♥ Jk1 6♥", "joker-in-run")
    act(d, "throw 4♥ 5♥ 6♥")  # the same run without the joker is fine
    assert d.total(0) == 10 + 9


def test_two_jokers_may_go_together_nepali() -> None:
    d = two_seat("Jk1 Jk2 9♠", "Q♦ Q♥", jokers=True, stock_top="6♥")
    act(d, "take stock")
    assert any(set(a.cards) == {card("Jk1"), card("Jk2")} for a in d.legal_actions())
    act(d, "throw Jk1 Jk2")
    assert d.hands[0] == cards("9♠ 6♥")


def test_nepali_games_set_has_no_upper_size() -> None:
    d = two_seat("7♦ 7♣ 7♥ 7♠ Jk1", "Q♦ Q♥", jokers=True, stock_top="Jk2")
    act(d, "take stock")
    act(d, "throw 7♦ 7♣ 7♥ 7♠ Jk1 Jk2")
    assert d.hands[0] == []


# -- the taken card ---------------------------------------------------------------------


def test_pile_card_cannot_return_inside_a_set() -> None:
    d = two_seat("9♠ 9♥ 3♣ 4♦ 8♣", "K♠ Q♥", pile="9♦")
    act(d, "take pile")
    assert_refused(d, "throw 9♠ 9♥ 9♦", "pile-card-returned")
    assert_refused(d, "throw 9♦ 9♠", "pile-card-returned")
    assert all(card("9♦") not in a.cards for a in d.legal_actions())
    act(d, "throw 9♠ 9♥")
    assert d.pile_top == card("9♥")


def test_pile_card_cannot_return_alone() -> None:
    d = two_seat("9♠ 3♣", "K♠ Q♥", pile="4♦")
    act(d, "take pile")
    assert_refused(d, "throw 4♦", "pile-card-returned")


def test_pile_card_cannot_return_inside_a_run() -> None:
    d = two_seat("4♥ 5♥ K♣", "K♠ Q♥", pile="6♥", runs=True)
    act(d, "take pile")
    assert_refused(d, "throw 4♥ 5♥ 6♥", "pile-card-returned")


def test_pile_card_may_be_thrown_on_a_later_turn() -> None:
    d = two_seat("9♠ 3♣", "K♠ Q♥", pile="2♦", stock_top="5♠ 6♠")
    act(d, "take pile")
    act(d, "throw 9♠")
    act(d, "take stock")
    act(d, "throw K♠")
    act(d, "take stock")
    act(d, "throw 2♦")
    assert d.pile_top == card("2♦")


def test_stock_card_can_be_thrown_straight_back() -> None:
    d = two_seat("9♠ 3♣", "K♠ Q♥", stock_top="6♣")
    act(d, "take stock")
    act(d, "throw 6♣")
    assert d.pile_top == card("6♣") and d.hands[0] == cards("9♠ 3♣")


# -- group order --------------------------------------------------------------------------


@pytest.mark.parametrize("order,top", [("7♦ 7♣", "7♣"), ("7♣ 7♦", "7♦")])
def test_group_last_card_becomes_pile_top(order: str, top: str) -> None:
    d = two_seat("7♦ 7♣ K♠", "Q♠ Q♥")
    act(d, "take stock")
    act(d, f"throw {order}")
    assert d.pile_top == card(top)


def test_listed_group_throws_offer_every_last_card() -> None:
    d = two_seat("7♦ 7♣ K♠", "Q♠ Q♥")
    act(d, "take stock")
    lasts = {a.cards[-1] for a in d.legal_actions() if a.kind == "throw" and set(a.cards) == set(cards("7♦ 7♣"))}
    assert lasts == set(cards("7♦ 7♣"))


def test_next_player_can_take_only_the_last_card_of_a_group() -> None:
    d = two_seat("7♦ 7♣ K♠", "Q♠ Q♥")
    act(d, "take stock")
    act(d, "throw 7♦ 7♣")
    assert_refused(d, "take pile 7♦", "not-pile-top")
    act(d, "take pile")
    assert d.hands[1][-1] == card("7♣") and d.pile_top == card("7♦")


# -- stock runs out ----------------------------------------------------------------------------


def reshuffle_position() -> Deal:
    return position(
        NG, ["K♠ 4♥ 6♠ 8♦ 2♣", "Q♣ 5♥ 7♠ 9♦ 3♣"], "6♦", stock_top="J♥", rest="pile", dealer=1,
    )


def test_stock_reshuffle_keeps_pile_top() -> None:
    d = reshuffle_position()
    act(d, "take stock")
    act(d, "throw K♠")
    assert d.stock == [] and len(d.pile) == 42
    buried = set(d.pile[:-1])
    assert d.is_legal(Action.take_stock())  # the reshuffle comes first, so the draw is legal
    act(d, "take stock")
    assert d.pile == cards("K♠")
    drawn = d.hands[1][-1]
    assert drawn in buried
    assert set(d.stock) | {drawn} == buried and len(d.stock) == 40
    assert d.reshuffles == 1 and d.card_count() == 52


def test_stock_reshuffle_shuffles_from_the_deals_seed() -> None:
    a, b = reshuffle_position(), reshuffle_position()
    buried_order: list[int] = []
    for d in (a, b):
        act(d, "take stock")
        act(d, "throw K♠")
        buried_order = list(d.pile[:-1])
        act(d, "take stock")
    assert a.stock == b.stock and a.hands == b.hands  # the same seed, the same new stock
    assert a.stock + [a.hands[1][-1]] != buried_order  # shuffled, not the pile turned over
    c = position(NG, ["K♠ 4♥ 6♠ 8♦ 2♣", "Q♣ 5♥ 7♠ 9♦ 3♣"], "6♦", stock_top="J♥", rest="pile", dealer=1, seed="other")
    act(c, "take stock")
    act(c, "throw K♠")
    act(c, "take stock")
    assert c.stock != a.stock


def test_taking_the_pile_does_not_reshuffle() -> None:
    d = reshuffle_position()
    act(d, "take stock")
    act(d, "throw K♠")
    act(d, "take pile")
    assert d.reshuffles == 0 and d.stock == []


def test_empty_stock_with_a_single_pile_card_cannot_be_drawn() -> None:
    # every card but the pile top is in the hands: nothing to reshuffle (no real
    # deal gets there, so the state is written directly)
    rest = [c for c in full_deck(jokers=False) if c not in cards("2♦ 3♦")]
    d = unchecked(NG, [[card("3♦")] + rest[:25], rest[25:]], cards("2♦"), dealer=1)
    assert not d.can_draw_stock()
    assert_refused(d, "take stock", "stock-empty")
    assert [a for a in d.legal_actions() if a.kind == "take"] == [Action.take_pile()]


# -- calling ----------------------------------------------------------------------------------


def test_nepali_games_call_limit_5() -> None:
    d = two_seat("A♦ A♣ A♥ 2♦", "K♠ Q♥", stock_top="6♦")
    assert d.total(0) == 5 and d.is_legal(Action.call())
    d = two_seat("A♦ A♣ A♥ 3♦", "K♠ Q♥")
    err = assert_refused(d, "call", "over-call-limit")
    assert err.params == {"total": 6, "limit": 5}
    assert Action.call() not in d.legal_actions()


def test_nepali_games_call_limit_option() -> None:
    d = two_seat("A♦ A♣ A♥ 3♦", "K♠ Q♥", limit=6)
    assert d.is_legal(Action.call())
    d = two_seat("A♦ A♣ 2♥", "K♠ Q♥", limit=3)
    assert_refused(d, "call", "over-call-limit")


def test_nepali_games_call_only_at_turn_start_before_drawing() -> None:
    d = two_seat("A♦ A♣ A♥ K♠ K♥", "A♠ 4♣ 7♦ 7♣ 7♥", pile="9♣", stock_top="2♦ 7♠")
    act(d, "take stock")
    act(d, "throw K♠ K♥")
    # the turn is over; A's own call would be out of time
    assert_refused(d, "call", "call-after-draw", seat=0)
    d2 = two_seat("A♦ A♣ A♥", "K♠ Q♥", stock_top="2♦")
    act(d2, "take stock")
    assert_refused(d2, "call", "call-after-draw")


def test_nepali_games_may_call_as_the_first_action_of_a_deal() -> None:
    d = two_seat("A♦ A♣ 2♥", "K♠ Q♥")
    assert d.turns == 0
    act(d, "call")
    assert d.outcome is not None and d.outcome.winner == 0


# -- resolution --------------------------------------------------------------------------------


def four_seat(hands: list[str], dealer: int, turn: int, **opts: object) -> Deal:
    return position(profile(NG, players=4, **opts), hands, "8♠", dealer=dealer, turn=turn, turns=12)


def test_nepali_games_caller_strictly_lower_is_charged_0_others_their_hands() -> None:
    d = four_seat(["A♠ A♥ 2♠", "5♣ 7♣", "9♦ K♦", "3♥ 4♥"], dealer=3, turn=0)
    act(d, "call")
    o = d.outcome
    assert o is not None and not o.caught and o.winner == 0 and o.caller == 0
    assert o.took == (0, 12, 19, 7)
    assert o.paid == (38, -12, -19, -7)


def test_nepali_games_caught_caller_charged_penalty_instead_of_hand() -> None:
    d = four_seat(["A♠ 4♠", "5♣ 7♣", "A♦ A♥", "3♥ 4♥"], dealer=3, turn=0)
    act(d, "call")
    o = d.outcome
    assert o is not None and o.caught and o.winner == 2
    assert o.hands == (5, 12, 2, 7)
    assert o.took == (25, 12, 0, 7)  # 25, not 25 + 5
    assert o.paid == (-25, -12, 44, -7)


def test_nepali_games_equal_hand_catches_the_caller() -> None:
    d = two_seat("A♠ 3♠", "2♥ 2♦", stock_top="6♦")
    act(d, "call")
    o = d.outcome
    assert o is not None and o.caught and o.winner == 1
    assert o.took == (25, 0) and o.paid == (-25, 25)


def test_nepali_games_caught_tie_among_lowest_goes_first_clockwise_from_dealers_left() -> None:
    # dealer 2: the order from the dealer's left is 3, 0, 1. Seats 1 and 3 tie on 4
    # below the caller's 5; seat 3 comes first (not seat 1, the first after the caller).
    d = four_seat(["A♠ 4♠", "2♥ 2♦", "K♣", "3♥ A♦"], dealer=2, turn=0)
    act(d, "call")
    o = d.outcome
    assert o is not None and o.caught and o.winner == 3
    assert o.took == (25, 4, 10, 0) and o.paid == (-25, -4, -10, 39)


def test_nepali_games_penalty_option() -> None:
    d = position(profile(NG, penalty=40), ["A♠ 3♠", "2♥ 2♦"], "8♠", dealer=1)
    act(d, "call")
    assert d.outcome is not None and d.outcome.took == (40, 0) and d.outcome.paid == (-40, 40)


def test_nepali_games_settlement_sums_to_zero() -> None:
    d = four_seat(["A♠ A♥ 2♠", "5♣ 7♣", "9♦ K♦", "3♥ 4♥"], dealer=3, turn=0)
    act(d, "call")
    assert d.outcome is not None and sum(d.outcome.paid) == 0


# -- long deal ---------------------------------------------------------------------------------


def cap_position(turns: int) -> Deal:
    # dealer 1: the order from the dealer's left is 2, 3, 0, 1
    return position(
        profile(NG, players=4),
        ["3♠ K♣", "9♦ 9♥", "5♣ 6♣", "A♥ 2♥"],
        "5♦", stock_top="K♦ Q♦", dealer=1, turn=0, turns=turns,
    )


def test_nepali_games_turn_cap_200_no_penalty_tie_from_dealers_left() -> None:
    d = cap_position(199)
    act(d, "take stock")
    act(d, "throw K♣ K♦")
    o = d.outcome
    assert d.is_over and o is not None
    assert o.reason == "cap" and o.caller is None and not o.caught and o.penalty == 0
    # seats 0 and 3 both hold 3; from the dealer's left (2, 3, 0, 1) seat 3 comes first
    assert o.hands == (3, 18, 11, 3)
    assert o.winner == 3
    assert o.took == (3, 18, 11, 0)
    assert o.paid == (-3, -18, -11, 32)
    assert 25 not in o.took


def test_turn_cap_counts_throws_across_the_table() -> None:
    d = cap_position(198)
    act(d, "take stock")
    act(d, "throw K♣ K♦")
    assert not d.is_over and d.turns == 199
    act(d, "take stock")
    act(d, "throw Q♦")
    assert d.is_over and d.turns == 200 and d.outcome is not None and d.outcome.reason == "cap"


def test_turn_cap_restarts_with_each_deal() -> None:
    assert Deal.new(profile(NG), seed=1).turns == 0


def test_nepali_games_call_is_still_possible_at_turn_199() -> None:
    d = position(NG, ["A♠ 2♠", "9♦ 9♥"], "5♦", dealer=1, turns=199)
    act(d, "call")
    assert d.outcome is not None and d.outcome.reason == "call"


# -- empty hand --------------------------------------------------------------------------------


def empty_hand_position() -> Deal:
    return two_seat("5♣ 5♦", "9♠ 8♥ 7♣", pile="2♠", stock_top="5♥ A♠ 3♠")


def test_empty_hand_does_not_win_by_itself() -> None:
    d = empty_hand_position()
    act(d, "take stock")
    act(d, "throw 5♣ 5♦ 5♥")
    assert d.hands[0] == [] and not d.is_over and d.turn == 1
    assert_refused(d, "call", "call-after-draw", seat=0)


def test_empty_hand_cannot_take_pile() -> None:
    d = empty_hand_position()
    act(d, "take stock")
    act(d, "throw 5♣ 5♦ 5♥")
    act(d, "take stock")
    act(d, "throw 9♠")
    assert_refused(d, "take pile", "pile-take-empty-hand")
    assert {str(a) for a in d.legal_actions()} == {"call", "take stock"}


def test_empty_hand_calls_at_the_start_of_the_next_turn() -> None:
    d = empty_hand_position()
    act(d, "take stock")
    act(d, "throw 5♣ 5♦ 5♥")
    act(d, "take stock")
    act(d, "throw 9♠")
    act(d, "call")
    o = d.outcome
    assert o is not None and o.winner == 0 and o.took == (0, 16) and o.paid == (16, -16)


def test_empty_hand_may_draw_from_the_stock_and_throw_it() -> None:
    d = empty_hand_position()
    act(d, "take stock")
    act(d, "throw 5♣ 5♦ 5♥")
    act(d, "take stock")
    act(d, "throw 9♠")
    act(d, "take stock")
    assert d.hands[0] == cards("3♠")
    act(d, "throw 3♠")
    assert d.hands[0] == [] and d.turn == 1
