"""The worked facts of PROFILES.md, each reproduced from an explicit position."""

from __future__ import annotations

from dhumbal.matches.match import money_text
from dhumbal.play.deal import Deal
from tests.engine.rules_kit import act, assert_refused, card, cards, position, profile


def test_seed_000_k_pair_discard_sequence() -> None:
    d = position("nepali-games", ["K♠ K♥ A♦ A♣ A♥", "A♠ 4♣ 7♦ 7♣ 7♥"], "9♣", stock_top="2♦ 7♠", dealer=1)
    assert d.total(0) == 23
    assert_refused(d, "call", "over-call-limit")
    act(d, "take stock")
    assert sorted(d.hands[0]) == sorted(cards("K♠ K♥ A♦ A♣ A♥ 2♦"))
    act(d, "throw K♠ K♥")
    assert sorted(d.hands[0]) == sorted(cards("A♦ A♣ A♥ 2♦")) and d.total(0) == 5
    assert d.pile_top == card("K♥")
    # a call now is refused: the turn began with a draw
    assert_refused(d, "call", "call-after-draw", seat=0)
    act(d, "take stock")
    act(d, "throw 7♦ 7♣ 7♥ 7♠")
    assert d.total(1) == 5
    act(d, "call")  # the next turn start: the call is legal, and the tie on 5 catches it
    o = d.outcome
    assert o is not None and o.caught and o.winner == 1
    assert o.hands == (5, 5)
    assert o.paid == (-25, 25)  # not -30, not a tie
    assert o.took == (25, 0)


def test_seed_000_two_players_5_5_1_41_make_52() -> None:
    d = Deal.new(profile("nepali-games", players=2), seed=2026, dealer=1)
    assert [len(h) for h in d.hands] == [5, 5]
    assert len(d.pile) == 1 and len(d.stock) == 41
    assert d.card_count() == 52 and len(set(d.stock + d.pile + d.hands[0] + d.hands[1])) == 52


def test_seed_001_four_players_at_five_cards_leave_31_in_stock() -> None:
    d = Deal.new(profile("nepali-games", players=4), seed=4)
    assert len(d.stock) == 31 and len(d.pile) == 1 and d.card_count() == 52


def test_seed_001_settlement_nobody_caught_4_12_19_7() -> None:
    d = position(
        profile("nepali-games", players=4), ["A♠ A♥ 2♠", "5♣ 7♣", "9♦ K♦", "3♥ 4♥"], "8♠", dealer=3, turns=12,
    )
    act(d, "call")
    o = d.outcome
    assert o is not None
    assert o.hands == (4, 12, 19, 7)
    assert o.took == (0, 12, 19, 7)
    assert o.paid == (38, -12, -19, -7)


def test_seed_001_settlement_4_against_4_caller_caught() -> None:
    d = position("nepali-games", ["A♠ 3♠", "2♥ 2♦"], "8♠", dealer=1, turns=10)
    act(d, "call")
    o = d.outcome
    assert o is not None and o.caught
    assert o.hands == (4, 4)
    assert o.took == (25, 0)
    assert o.paid == (-25, 25)


def asha_table(dealer: int) -> Deal:
    return position(
        profile("dashain", players=4),
        ["A♠ 2♠ 3♥", "5♣ 9♦", "4♦ 5♦", "10♣ J♥"],  # Asha 6, Bikash 14, Chandra 9, Dipa 21
        "8♠", dealer=dealer, turns=8,
    )


def test_seed_002_asha_calls_on_6_and_collects_44() -> None:
    d = asha_table(dealer=3)
    assert d.totals() == [6, 14, 9, 21]
    act(d, "call")
    o = d.outcome
    assert o is not None and not o.caught and o.winner == 0
    assert o.paid == (44, -14, -9, -21)
    assert money_text(o.paid[0], "0.05") == "2.20"


def test_seed_002_chandra_calls_on_9_asha_collects_44_all_from_chandra() -> None:
    d = asha_table(dealer=1)
    assert d.turn == 2
    act(d, "call")
    o = d.outcome
    assert o is not None and o.caught and o.caller == 2 and o.winner == 0
    assert o.paid == (44, 0, -44, 0)
    assert money_text(o.paid[2], "0.05") == "-2.20"


def test_seed_002_44_points_at_0_05_is_2_20() -> None:
    assert money_text(44, profile("dashain").money_per_point or "") == "2.20"


def test_seed_002_runs_a_2_3_yes_q_k_a_and_k_a_2_no() -> None:
    from dhumbal.play.deal import IllegalAction, classify_group

    p = profile("dashain")
    assert classify_group(p, cards("A♠ 2♠ 3♠")) == "run"
    for bad in ("Q♠ K♠ A♠", "K♠ A♠ 2♠", "5♠ 6♠", "7♥ 8♦ 9♣", "A♠ 2♥ 3♠"):
        try:
            classify_group(p, cards(bad))
        except IllegalAction as exc:
            assert exc.code == "not-a-run", bad
        else:
            raise AssertionError(f"{bad} was accepted as a group")
