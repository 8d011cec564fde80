"""cardrulesplus (003, 004): J=0, throw first, only a lone discard may be picked, cumulative points."""

from __future__ import annotations

import pytest

from dhumbal.play.deal import Action, Deal
from tests.engine.rules_kit import act, assert_refused, card, cards, position, profile

CRP = "cardrulesplus"


def two_seat(
    a: str, b: str, pile: str = "7♣", *, stock_top: str = "A♥ 5♠", turns: int = 6, offer: int | None = None, **opts: object
) -> Deal:
    p = profile(CRP, **opts) if opts else profile(CRP)
    return position(p, [a, b], pile, stock_top=stock_top, dealer=1, turns=turns, offer=offer)


def test_cardrulesplus_deal_turns_up_the_stock_top_as_the_discard() -> None:
    d = Deal.new(profile(CRP, players=3), seed=8, dealer=0)
    assert [len(h) for h in d.hands] == [5, 5, 5] and len(d.pile) == 1 and len(d.stock) == 52 - 16
    assert d.turn == 1


def test_cardrulesplus_turn_is_throw_then_draw() -> None:
    d = two_seat("K♠ 3♦ 6♣", "Q♣ 5♥")
    assert_refused(d, "take stock", "must-throw-first")
    act(d, "throw K♠")
    assert {str(a) for a in d.legal_actions()} == {"take stock", "take pile 7♣"}
    act(d, "take pile 7♣")
    assert d.hands[0] == cards("3♦ 6♣ 7♣") and d.turn == 1
    assert d.pile[-1] == card("K♠") and d.offer_kind == "single"


def test_cardrulesplus_whole_throw_lands_on_the_discard() -> None:
    d = two_seat("K♠ K♦ 3♦", "Q♣ 5♥")
    act(d, "throw K♠ K♦")
    act(d, "take stock")
    assert d.pile[-2:] == cards("K♠ K♦") and d.offer_kind == "set"


def test_cardrulesplus_set_cannot_be_picked() -> None:
    d = two_seat("K♠ 3♦", "Q♣ 5♥", pile="8♣ 8♦", offer=2)
    act(d, "throw K♠")
    for c in ("8♣", "8♦"):
        assert_refused(d, f"take pile {c}", "set-not-pickable")
    assert_refused(d, "take pile", "set-not-pickable")
    assert {str(a) for a in d.legal_actions()} == {"take stock"}


def test_cardrulesplus_run_cannot_be_picked() -> None:
    d = two_seat("K♠ 3♦", "Q♣ 5♦", pile="4♥ 5♥ 6♥", offer=3)
    act(d, "throw K♠")
    assert_refused(d, "take pile 4♥", "run-not-pickable")
    assert_refused(d, "take pile 6♥", "run-not-pickable")


def test_cardrulesplus_set_pick_variant_allows_any_card_of_a_just_thrown_set() -> None:
    d = two_seat("K♠ 3♦", "Q♣ 5♥", pile="8♣ 8♦ 8♥", offer=3, set_pick=True)
    act(d, "throw K♠")
    assert {str(a) for a in d.legal_actions()} == {"take stock", "take pile 8♥", "take pile 8♦", "take pile 8♣"}
    act(d, "take pile 8♣")
    assert card("8♣") in d.hands[0]


def test_cardrulesplus_set_pick_variant_still_bars_runs() -> None:
    d = two_seat("K♠ 3♦", "Q♣ 5♦", pile="4♥ 5♥ 6♥", offer=3, set_pick=True)
    act(d, "throw K♠")
    assert_refused(d, "take pile 4♥", "run-not-pickable")


def test_cardrulesplus_throws_single_set_up_to_4_or_run() -> None:
    d = two_seat("9♠ 9♦ 9♥ 9♣ 4♥", "Q♣ 5♦")
    groups = {frozenset(a.cards) for a in d.legal_actions() if a.kind == "throw"}
    assert frozenset(cards("9♠ 9♦ 9♥ 9♣")) in groups
    d = two_seat("4♥ 5♥ 6♥ 9♠ 2♣", "Q♣ 5♦")
    groups = {frozenset(a.cards) for a in d.legal_actions() if a.kind == "throw"}
    assert frozenset(cards("4♥ 5♥ 6♥")) in groups
    assert_refused(d, "throw 9♠ 4♥", "not-a-run")


def test_cardrulesplus_set_has_at_most_4_cards_even_with_jokers() -> None:
    d = two_seat("9♠ 9♦ 9♥ 9♣ Jk1", "Q♣ 5♦", jokers=True)
    err = assert_refused(d, "throw 9♠ 9♦ 9♥ 9♣ Jk1", "set-too-large")
    assert err.params == {"max": 4}
    assert d.is_legal(Action.throw(*cards("9♠ 9♦ 9♥ Jk1")))


def test_cardrulesplus_run_ace_low_no_k_a_2() -> None:
    d = two_seat("A♠ 2♠ 3♠ Q♠ K♠", "Q♣ 5♦")
    assert_refused(d, "throw K♠ A♠ 2♠", "not-a-run")
    assert_refused(d, "throw Q♠ K♠ A♠", "not-a-run")
    assert d.is_legal(Action.throw(*cards("A♠ 2♠ 3♠")))
    d = two_seat("J♠ Q♠ K♠ A♠ 2♣", "Q♣ 5♦")
    assert d.is_legal(Action.throw(*cards("J♠ Q♠ K♠")))


def test_cardrulesplus_jokers_wild_in_sets_and_runs() -> None:
    d = two_seat("4♥ Jk1 6♥ K♠ Jk2", "Q♣ 5♦", jokers=True)
    assert d.is_legal(Action.throw(*cards("4♥ Jk1 6♥")))  # the joker stands for 5♥
    assert d.is_legal(Action.throw(*cards("K♠ Jk2")))
    assert d.is_legal(Action.throw(*cards("4♥ Jk1 Jk2 6♥")))  # 4 5 6 7 or 3 4 5 6
    assert_refused(d, "throw 4♥ Jk1 K♠", "not-a-run")
    assert d.total(0) == 4 + 6 + 10


def test_cardrulesplus_no_call_limit() -> None:
    d = two_seat("K♠ Q♠ K♦ Q♦", "K♣ Q♣ K♥ Q♥ 9♦")
    assert d.total(0) == 40 and d.is_legal(Action.call())
    act(d, "call")
    assert d.outcome is not None and not d.outcome.caught


def test_cardrulesplus_dhumbal_7_variant_limit() -> None:
    d = two_seat("4♠ 4♦", "K♣ Q♣", limit=7)
    assert_refused(d, "call", "over-call-limit")
    d = two_seat("4♠ 3♦", "K♣ Q♣", limit=7)
    assert d.is_legal(Action.call())


def test_cardrulesplus_call_only_at_the_very_start_of_the_turn() -> None:
    d = two_seat("4♠ 3♦ 9♣", "K♣ Q♣")
    act(d, "throw 9♣")
    assert_refused(d, "call", "call-after-throw")


def test_cardrulesplus_may_call_as_the_first_action_of_a_deal() -> None:
    d = two_seat("4♠ 3♦", "K♣ Q♣", turns=0)
    act(d, "call")
    assert d.outcome is not None and d.outcome.winner == 0


def test_cardrulesplus_caller_wins_scores_0_others_add_their_hands() -> None:
    d = position(CRP, ["A♣ 2♣", "Q♠ 2♥", "K♦"], "7♣", dealer=2, turns=12)
    act(d, "call")
    o = d.outcome
    assert o is not None and not o.caught and o.winner == 0
    assert o.points == (0, 12, 10) and o.paid == (0, 0, 0)


def test_cardrulesplus_caught_caller_scores_25_others_0() -> None:
    d = position(CRP, ["4♠ 2♥", "3♣ J♦ 2♦", "9♠ Q♥"], "7♣", dealer=2, turns=9)
    act(d, "call")
    o = d.outcome
    assert o is not None and o.caught and o.winner is None
    assert o.hands == (6, 5, 19)
    assert o.points == (25, 0, 0) and o.took == (25, 0, 0) and o.paid == (0, 0, 0)


def test_cardrulesplus_equal_hand_catches_the_caller() -> None:
    d = two_seat("4♠ 2♥", "3♣ 3♦")
    act(d, "call")
    assert d.outcome is not None and d.outcome.caught and d.outcome.points == (25, 0)


def test_cardrulesplus_house_penalty_30() -> None:
    d = two_seat("4♠ 2♥", "3♣ 3♦", penalty=30)
    act(d, "call")
    assert d.outcome is not None and d.outcome.points == (30, 0)


def test_cardrulesplus_double_penalty_50_when_undercut_by_more_than_5() -> None:
    d = two_seat("10♠ 2♥", "3♣ 3♦", double_penalty=True)  # 12 against 6: undercut by 6
    act(d, "call")
    assert d.outcome is not None and d.outcome.points == (50, 0) and d.outcome.penalty == 50


def test_cardrulesplus_double_penalty_not_when_undercut_by_exactly_5() -> None:
    d = two_seat("9♠ 2♥", "3♣ 3♦", double_penalty=True)  # 11 against 6
    act(d, "call")
    assert d.outcome is not None and d.outcome.points == (25, 0)


def test_cardrulesplus_double_penalty_off_by_default() -> None:
    d = two_seat("10♠ 2♥", "3♣ 3♦")
    act(d, "call")
    assert d.outcome is not None and d.outcome.points == (25, 0)


def test_cardrulesplus_tie_among_lowest_only_caller_is_penalised() -> None:
    d = position(CRP, ["9♠", "2♣ 2♦", "A♠ 3♥", "K♦"], "7♣", dealer=3, turns=9)
    act(d, "call")
    o = d.outcome
    assert o is not None and o.caught and o.winner is None
    assert o.points == (25, 0, 0, 0)


def test_cardrulesplus_has_no_money_transfers() -> None:
    d = position(CRP, ["A♣ 2♣", "Q♠ 2♥", "K♦"], "7♣", dealer=2, turns=12)
    act(d, "call")
    assert d.outcome is not None and d.outcome.paid == (0, 0, 0)
    assert profile(CRP).money_per_point is None


# -- the reshuffle (this site's ruling: the source read literally) ---------------------------
#
# The player throws, then draws. If the stock is empty at the draw, the throw has
# already landed on the discard pile; the pile except its top card (the last card of
# that throw) is shuffled into a new stock, the previous throw included.


def empty_stock(a: str, b: str, pile: str = "4♥", **opts: object) -> Deal:
    """Two seats, an empty stock, every other card face up under ``pile``."""
    p = profile(CRP, **opts) if opts else profile(CRP)
    d = position(p, [a, b], pile, rest="pile", dealer=1, turns=5)
    assert d.stock == [] and len(d.pile) == p.deck_size - len(cards(a)) - len(cards(b))
    return d


def test_cardrulesplus_reshuffle_keeps_the_drawing_players_single_throw_on_top() -> None:
    d = empty_stock("K♦ 2♣ 8♥", "K♣ 7♦ 10♠")
    pool = set(d.pile)  # everything on the pile before the throw, the previous throw 4♥ included
    act(d, "throw K♦")
    act(d, "take stock")
    drawn = d.hands[0][-1]
    assert drawn in pool and set(d.stock) | {drawn} == pool
    assert d.pile == cards("K♦")  # only the drawing player's own throw stays
    assert d.reshuffles == 1 and d.card_count() == 52
    # the lone card left on the pile is the previous discard for the next player
    assert d.offer_cards == cards("K♦")
    act(d, "throw K♣")
    assert d.is_legal(Action.take_pile(card("K♦")))


def test_cardrulesplus_reshuffle_puts_the_previous_throw_into_the_new_stock() -> None:
    d = empty_stock("K♦ 2♣ 8♥", "K♣ 7♦ 10♠", pile="6♣ 7♣ 8♣")
    act(d, "throw K♦")
    act(d, "take stock")
    assert not set(cards("6♣ 7♣ 8♣")) & set(d.pile)
    assert set(cards("6♣ 7♣ 8♣")) <= set(d.stock) | {d.hands[0][-1]}


def test_cardrulesplus_reshuffle_keeps_only_the_last_card_of_a_thrown_group() -> None:
    d = empty_stock("Q♦ Q♠ 2♣", "K♣ 7♦ 10♠")
    before = len(d.pile)
    events = act(d, "throw Q♦ Q♠")
    events += act(d, "take stock")
    assert d.pile == cards("Q♠")  # the throw's last card; Q♦ went into the shuffle
    assert card("Q♦") in set(d.stock) | {d.hands[0][-1]}
    assert len(d.stock) == before + 1 - 1  # the old pile, plus Q♦, less the card drawn
    assert [e.code for e in events] == ["threw", "reshuffle", "took-stock"]
    assert events[1].params == {"count": before + 1}
    assert d.offer == 1 and d.offer_kind == "set"  # what is left of the set is still a set


def test_cardrulesplus_card_left_of_a_reshuffled_set_is_not_pickable() -> None:
    d = empty_stock("Q♦ Q♠ 2♣", "K♣ 7♦ 10♠")
    act(d, "throw Q♦ Q♠")
    act(d, "take stock")
    act(d, "throw K♣")
    assert_refused(d, "take pile Q♠", "set-not-pickable")
    with_pick = empty_stock("Q♦ Q♠ 2♣", "K♣ 7♦ 10♠", set_pick=True)
    act(with_pick, "throw Q♦ Q♠")
    act(with_pick, "take stock")
    act(with_pick, "throw K♣")
    assert with_pick.is_legal(Action.take_pile(card("Q♠")))  # set-pick: any card of a just-thrown set


def test_cardrulesplus_has_no_turn_cap() -> None:
    d = two_seat("K♦ 2♣", "K♣ 7♦", turns=400)
    act(d, "throw K♦")
    act(d, "take stock")
    assert not d.is_over and d.turns == 401


@pytest.mark.parametrize("key", ["nepali-games", "dashain", "cardrulesplus"])
def test_call_timing_per_profile(key: str) -> None:
    d = position(key, ["A♠ 2♠ 2♣", "K♣ Q♣"], "7♦", dealer=1, turns=6, stock_top="3♥")
    assert d.is_legal(Action.call())
    first = "take stock" if key == "nepali-games" else "throw 2♣"
    act(d, first)
    assert_refused(d, "call", "call-after-draw" if key == "nepali-games" else "call-after-throw")


def test_cardrulesplus_hand_never_empties_because_a_draw_follows_every_throw() -> None:
    d = two_seat("4♥ 5♥ 6♥", "Q♣ 5♦")
    act(d, "throw 4♥ 5♥ 6♥")
    assert d.hands[0] == [] and not d.is_over and d.phase == "take"
    act(d, "take stock")
    assert d.hands[0] == cards("A♥")
