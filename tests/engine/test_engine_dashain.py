"""dashain (002): throw first, pick from the previous throw, courts 11/12/13, limit 10."""

from __future__ import annotations

import pytest

from dhumbal.core.cards import card_text
from dhumbal.matches.match import Match, money_text
from dhumbal.play.deal import Action, Deal
from tests.engine.rules_kit import act, assert_refused, card, cards, position, profile

DASHAIN = "dashain"


def three_seat(a: str, b: str, c: str, pile: str, *, turns: int = 3, dealer: int = 2, **kw: object) -> Deal:
    return position(DASHAIN, [a, b, c], pile, turns=turns, dealer=dealer, **kw)


# -- deal and turn -------------------------------------------------------------------


def test_dashain_deals_five_and_puts_the_next_card_on_offer() -> None:
    d = Deal.new(profile(DASHAIN, players=3), seed=5, dealer=2)
    assert [len(h) for h in d.hands] == [5, 5, 5]
    assert d.offer_cards == d.pile and len(d.pile) == 1 and len(d.stock) == 52 - 15 - 1
    assert d.turn == 0
    exposed = d.pile[0]
    act(d, f"throw {card_text(d.hands[0][0])}")
    act(d, "take pile")  # the first player picks from the card turned up after the deal
    assert exposed in d.hands[0]


def test_dashain_turn_is_throw_then_pick() -> None:
    d = three_seat("K♦ 2♣ 8♥ 9♠ Q♠", "K♣ 7♦ 10♠ 3♦ A♣", "J♣ 6♠ 2♦ 5♣ 9♣", "4♥", stock_top="7♠")
    assert {a.kind for a in d.legal_actions()} == {"throw"}
    assert_refused(d, "take stock", "must-throw-first")
    act(d, "throw K♦")
    assert d.phase == "take" and d.turn == 0
    assert {str(a) for a in d.legal_actions()} == {"take stock", "take pile 4♥"}
    assert_refused(d, "throw Q♠", "already-threw")
    act(d, "take stock")
    assert d.hands[0] == cards("2♣ 8♥ 9♠ Q♠ 7♠") and d.turn == 1 and d.phase == "start"


def test_dashain_throws_single_set_or_run() -> None:
    d = three_seat("9♠ 9♦ 9♥ 4♥ 5♥", "K♣", "J♣", "2♦")
    groups = {frozenset(a.cards) for a in d.legal_actions()}
    assert frozenset(cards("9♠ 9♦ 9♥")) in groups and frozenset(cards("9♠ 9♦")) in groups
    assert_refused(d, "throw 5♥ 9♠ 9♦", "not-a-run")
    d = three_seat("4♥ 5♥ 6♥ 9♠ 2♣", "K♣", "J♣", "2♦")
    groups = {frozenset(a.cards) for a in d.legal_actions()}
    assert frozenset(cards("4♥ 5♥ 6♥")) in groups
    assert frozenset(cards("4♥ 9♠")) not in groups
    assert_refused(d, "throw 4♥ 9♠", "not-a-run")


def test_dashain_run_ace_low_only() -> None:
    d = position(DASHAIN, ["A♠ 2♠ 3♠ Q♠ K♠", "5♠ 6♠ 7♥ 8♦ 9♣"], "10♦", stock_top="4♣ J♦", dealer=1)
    assert_refused(d, "throw Q♠ K♠ A♠", "not-a-run")
    assert_refused(d, "throw K♠ A♠ 2♠", "not-a-run")
    act(d, "throw A♠ 2♠ 3♠")
    assert d.pending == cards("A♠ 2♠ 3♠")
    act(d, "take stock")
    assert d.offer_kind == "run"
    assert_refused(d, "throw 5♠ 6♠", "not-a-run")
    assert_refused(d, "throw 7♥ 8♦ 9♣", "not-a-run")


def test_dashain_whole_throw_is_on_offer_to_the_next_player() -> None:
    d = three_seat("9♠ 9♦ 9♥ 4♥", "K♣ 2♣", "J♣", "2♦")
    act(d, "throw 9♠ 9♦ 9♥")
    act(d, "take pile")
    assert d.offer_cards == cards("9♠ 9♦ 9♥") and d.offer_kind == "set"


@pytest.mark.parametrize("pick", ["9♠", "9♦", "9♥"])
def test_dashain_pick_any_card_of_a_set_on_offer(pick: str) -> None:
    d = three_seat("K♦ 2♣", "K♣ 7♦", "J♣ 6♠", "9♠ 9♦ 9♥")
    act(d, "throw K♦")
    act(d, f"take pile {pick}")
    assert card(pick) in d.hands[0]
    assert len(d.out_of_play) == 2  # the rest of that throw leaves play
    assert d.offer_cards == cards("K♦")


def test_dashain_pick_run_end_only() -> None:
    d = three_seat("K♦ 2♣ 8♥ 9♠ Q♠", "K♣ 7♦ 10♠ 3♦ A♣", "J♣ 6♠ 2♦ 5♣ 9♣", "4♥ 5♥ 6♥ 7♥", dealer=0)
    act(d, "throw K♣")
    for middle in ("5♥", "6♥"):
        err = assert_refused(d, f"take pile {middle}", "run-middle-card")
        assert err.params["ends"] == "4♥ 7♥"
    assert {str(a) for a in d.legal_actions()} == {"take stock", "take pile 4♥", "take pile 7♥"}
    act(d, "take pile 7♥")
    assert d.hands[1][-1] == card("7♥")
    assert len(d.out_of_play) == 3 and d.offer_cards == cards("K♣") and d.turn == 2


def test_dashain_pick_must_name_the_card_of_a_several_card_offer() -> None:
    d = three_seat("K♦ 2♣", "K♣ 7♦", "J♣ 6♠", "9♠ 9♦")
    act(d, "throw K♦")
    assert_refused(d, "take pile", "pick-which-card")
    assert_refused(d, "take pile 8♦", "card-not-on-offer")


def test_dashain_cannot_pick_own_throw() -> None:
    d = three_seat("K♦ 2♣", "K♣ 7♦", "J♣ 6♠", "9♠")
    act(d, "throw K♦")
    assert_refused(d, "take pile K♦", "own-throw")


def test_dashain_pick_from_the_deck_takes_its_top() -> None:
    d = three_seat("K♦ 2♣", "K♣ 7♦", "J♣ 6♠", "9♠", stock_top="3♥ 4♠")
    act(d, "throw K♦")
    act(d, "take stock")
    assert d.hands[0] == cards("2♣ 3♥") and len(d.out_of_play) == 1


def test_dashain_hand_never_empties_because_a_pick_follows_every_throw() -> None:
    d = three_seat("4♥ 5♥ 6♥", "K♣ 7♦", "J♣ 6♠", "9♠")
    act(d, "throw 4♥ 5♥ 6♥")
    assert d.hands[0] == [] and not d.is_over
    act(d, "take pile")
    assert d.hands[0] == cards("9♠")


def test_dashain_reshuffle_uses_out_of_play_cards() -> None:
    # Every card not in a hand or on offer has gone out of play; the deck is empty.
    d = position(
        DASHAIN, ["K♦ 2♣ 8♥", "K♣ 7♦ 10♠"], "4♥ 5♥ 6♥", rest="pile", dealer=0, turns=5,
    )
    assert d.stock == [] and d.offer_cards == cards("4♥ 5♥ 6♥")
    out = set(d.out_of_play)
    assert len(out) == 52 - 6 - 3
    act(d, "throw K♣")
    assert d.is_legal(Action.take_stock())
    act(d, "take stock")
    drawn = d.hands[1][-1]
    assert drawn in out
    assert set(d.stock) | {drawn} == out  # the deck was rebuilt from the out-of-play cards only
    assert not set(cards("4♥ 5♥ 6♥ K♣")) & set(d.stock)
    assert d.pile == cards("4♥ 5♥ 6♥ K♣") and d.offer_cards == cards("K♣")
    assert d.reshuffles == 1 and d.card_count() == 52


# -- calling -------------------------------------------------------------------------------


def test_dashain_call_limit_10() -> None:
    d = three_seat("A♣ 2♦ 3♠ 4♥", "K♣ 7♦", "J♣ 6♠", "9♠")
    assert d.total(0) == 10 and d.is_legal(Action.call())
    d = three_seat("A♣ 2♦ 3♠ 5♥", "K♣ 7♦", "J♣ 6♠", "9♠")
    err = assert_refused(d, "call", "over-call-limit")
    assert err.params == {"total": 11, "limit": 10}


def test_dashain_call_limit_host_option() -> None:
    p = profile(DASHAIN, players=3, limit=13)
    d = position(p, ["K♣", "Q♦ 2♠", "J♣ 6♠"], "9♠", turns=3, dealer=2)
    assert d.is_legal(Action.call())
    p = profile(DASHAIN, players=3, limit=5)
    d = position(p, ["3♣ 3♦", "Q♦ 2♠", "J♣ 6♠"], "9♠", turns=3, dealer=2)
    assert_refused(d, "call", "over-call-limit")


def test_dashain_call_only_before_throwing() -> None:
    d = three_seat("A♣ 2♦ 3♠", "K♣ 7♦", "J♣ 6♠", "9♠")
    act(d, "throw 3♠")
    assert_refused(d, "call", "call-after-throw")
    act(d, "take stock")
    assert_refused(d, "call", "call-after-throw", seat=0)


def test_dashain_nobody_calls_before_every_player_has_had_a_turn() -> None:
    d = three_seat("A♣ 2♦", "K♣ 7♦", "J♣ 6♠", "9♠", turns=0)
    assert_refused(d, "call", "first-round-call")
    d = three_seat("A♣ 2♦", "K♣ 7♦", "J♣ 6♠", "9♠", turns=2)
    assert_refused(d, "call", "first-round-call")
    d = three_seat("A♣ 2♦", "K♣ 7♦", "J♣ 6♠", "9♠", turns=3)
    assert d.is_legal(Action.call())


def test_dashain_first_round_call_host_option() -> None:
    p = profile(DASHAIN, players=3, first_round_call=True)
    d = position(p, ["A♣ 2♦", "K♣ 7♦", "J♣ 6♠"], "9♠", turns=0, dealer=2)
    act(d, "call")
    assert d.outcome is not None and d.outcome.winner == 0


def test_dashain_first_round_call_refused_in_a_fresh_deal() -> None:
    for seed in range(5):
        d = Deal.new(profile(DASHAIN, players=2), seed=seed)
        why = d.refusal(Action.call())
        assert why is not None and why.code == "first-round-call"
        assert Action.call() not in d.legal_actions()


# -- resolution ----------------------------------------------------------------------------


def four_seat(hands: list[str], dealer: int, turn: int, **opts: object) -> Deal:
    p = profile(DASHAIN, players=4, **opts)
    return position(p, hands, "8♠", dealer=dealer, turn=turn, turns=8)


def test_dashain_caller_wins_each_other_player_pays_their_own_hand() -> None:
    d = four_seat(["A♠ 2♠ 3♥", "5♣ 9♦", "4♦ 5♦", "10♣ J♥"], dealer=3, turn=0)
    act(d, "call")
    o = d.outcome
    assert o is not None and not o.caught and o.winner == 0
    assert o.paid == (44, -14, -9, -21)


def test_dashain_tie_goes_against_caller() -> None:
    d = position(DASHAIN, ["A♠ 5♠", "3♥ 3♦"], "8♠", dealer=1, turns=4)
    act(d, "call")
    o = d.outcome
    assert o is not None and o.caught and o.winner == 1
    assert o.paid == (-6, 6)  # the caller pays the winner every other hand: here only their own 6


def test_dashain_caught_caller_pays_the_winner_every_other_hand_including_own() -> None:
    d = four_seat(["A♠ 2♠ 3♥", "5♣ 9♦", "4♦ 5♦", "10♣ J♥"], dealer=1, turn=2)
    act(d, "call")
    o = d.outcome
    assert o is not None and o.caught and o.caller == 2 and o.winner == 0
    assert o.paid == (44, 0, -44, 0)  # 9 + 14 + 21, all from the caller; nobody else scores


def test_dashain_tie_among_lowest_goes_to_first_after_caller() -> None:
    # dealer 0, caller 2: seats 1 and 3 tie on 6. After the caller comes 3 (then 0, 1),
    # so seat 3 wins; the dealer's-left order would have chosen seat 1.
    d = four_seat(["10♣ J♥", "A♠ 2♠ 3♥", "4♦ 5♦", "6♣"], dealer=0, turn=2)
    act(d, "call")
    o = d.outcome
    assert o is not None and o.caught and o.winner == 3
    assert o.paid == (0, 0, -36, 36)


def test_dashain_money_44_points_at_5_cents_is_2_20() -> None:
    assert money_text(44, "0.05") == "2.20"
    assert money_text(-44, "0.05") == "-2.20"
    m = Match(profile(DASHAIN, players=4), first_dealer=3)
    d = m.start_deal()
    d2 = four_seat(["A♠ 2♠ 3♥", "5♣ 9♦", "4♦ 5♦", "10♣ J♥"], dealer=3, turn=0)
    act(d2, "call")
    m.deal = d2
    m.finish_deal()
    assert d is not d2
    assert m.money(0) == "2.20" and m.money(2) == "-0.45"


def test_dashain_money_per_point_option() -> None:
    p = profile(DASHAIN, money="0.10")
    assert p.money_per_point == "0.1"
    assert money_text(44, p.money_per_point) == "4.40"


def test_dashain_has_no_turn_cap() -> None:
    d = position(DASHAIN, ["K♦ 2♣", "K♣ 7♦"], "9♠", dealer=1, turns=500, stock_top="3♥")
    act(d, "throw K♦")
    act(d, "take stock")
    assert not d.is_over and d.turns == 501
