"""Which face-up cards the seat on turn may still take (``Deal.takable_cards``): what
the mini table marks on the last throw, always the engine's own legality."""

from __future__ import annotations

from dhumbal.play.deal import Action
from tests.engine.rules_kit import cards, position


def test_nepali_games_the_pile_top_until_the_seat_has_taken() -> None:
    d = position("nepali-games", ["K♠ K♥ A♦ A♣ A♥", "2♠ 3♠ 4♠ 5♠ 6♠"], "8♥ 8♣", offer=2, turn=0)
    assert d.takable_cards() == cards("8♣")  # the pair's last card only
    d.apply(Action.take_stock())
    assert d.takable_cards() == []


def test_nepali_games_nothing_to_take_with_an_empty_hand() -> None:
    d = position("nepali-games", ["", "2♠ 3♠ 4♠ 5♠ 6♠"], "8♥", turn=0)
    assert d.takable_cards() == []


def test_dashain_any_card_of_a_set_and_only_the_ends_of_a_run() -> None:
    d = position("dashain", ["K♠ K♥ A♦ A♣ A♥", "2♠ 3♠ 4♠ 5♠ 6♠"], "7♥ 7♣", offer=2, turn=0)
    assert d.takable_cards() == cards("7♥ 7♣")
    run = position("dashain", ["K♠ K♥ A♦ A♣ A♥", "2♠ 3♠ 4♠ 5♠ 6♠"], "7♥ 8♥ 9♥", offer=3, turn=0)
    assert run.takable_cards() == cards("7♥ 9♥")
    run.apply(Action.throw(*cards("K♠ K♥")))
    assert run.takable_cards() == cards("7♥ 9♥")  # still, after the throw
    for c in run.takable_cards():
        assert run.is_legal(Action.take_pile(c))


def test_cardrulesplus_only_a_lone_discard() -> None:
    single = position("cardrulesplus", ["K♠ K♥ A♦ A♣ A♥", "2♠ 3♠ 4♠ 5♠ 6♠"], "7♥", turn=0)
    assert single.takable_cards() == cards("7♥")
    pair = position("cardrulesplus", ["K♠ K♥ A♦ A♣ A♥", "2♠ 3♠ 4♠ 5♠ 6♠"], "7♥ 7♣", offer=2, turn=0)
    assert pair.takable_cards() == []
