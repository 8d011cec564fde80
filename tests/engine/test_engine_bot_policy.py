"""Bot levels as 001 describes them, and what a seat may see."""

from __future__ import annotations

from typing import Any

import pytest

from dhumbal.bots import botlevels, heuristic
from dhumbal.core.cards import card_text
from dhumbal.play.deal import Action, Deal
from tests.engine.rules_kit import act, card, cards, position


def ng_turn(hand: str, other: str = "K♣ Q♣") -> object:
    return position("nepali-games", [hand, other], "9♦", dealer=1, turns=6)


@pytest.mark.parametrize(
    "level,calls_on",
    [("easy", {5, 4, 3}), ("medium", {4, 3}), ("hard", {3})],
)
def test_bot_calls_at_its_margin_under_the_limit(level: str, calls_on: set[int]) -> None:
    # 001: an easy bot calls on the limit itself, a medium bot 1 under it, a hard bot 2 under it.
    # The opponent holds two cards, so nothing proves it heavier than 2.
    for hand, total in (("A♠ 4♠", 5), ("A♠ 3♠", 4), ("A♠ 2♠", 3)):
        d = ng_turn(hand)
        assert d.total(0) == total  # type: ignore[attr-defined]
        chosen = botlevels.choose(d, level)  # type: ignore[arg-type]
        assert (chosen == Action.call()) == (total in calls_on), f"{level} on {total}: {chosen}"


def test_hard_bot_calls_early_when_every_opponent_is_provably_heavier() -> None:
    # The opponent publicly took 9♦ and still holds it, with one more card: at least 10.
    d = position("nepali-games", ["A♠ 4♠", "K♣ Q♣"], "9♦", dealer=0, turn=1, stock_top="2♥", turns=6)
    act(d, "take pile")
    act(d, "throw K♣")
    assert d.known[1] == cards("9♦")
    assert heuristic.choose(d, "hard") == Action.call()
    assert heuristic.choose(d, "medium") != Action.call()


def test_public_picks_are_remembered_until_thrown() -> None:
    d = position("nepali-games", ["9♠ 3♣", "K♣ Q♣"], "2♦", dealer=1, stock_top="5♠ 6♠ 7♠")
    act(d, "take pile")
    assert d.known[0] == cards("2♦")
    act(d, "throw 9♠")
    act(d, "take stock")  # a blind draw is not public
    assert d.known[1] == []
    act(d, "throw K♣")
    act(d, "take stock")
    act(d, "throw 2♦")
    assert d.known[0] == []


def test_dashain_pick_from_the_offer_is_public() -> None:
    d = position("dashain", ["K♦ 2♣", "K♣ 7♦", "J♣ 6♠"], "9♠ 9♦", dealer=2, turns=3)
    act(d, "throw K♦")
    act(d, "take pile 9♦")
    assert d.known[0] == cards("9♦")


def seat_json(deal: Deal, seat: int) -> dict[str, Any]:
    """What ``seat`` may see, as text: its own hand, the table's public facts, and (after the show) every hand."""
    over = deal.phase == "over"
    return {
        "profile": deal.profile.canonical(), "seat": seat, "players": deal.players, "dealer": deal.dealer,
        "turn": deal.turn, "phase": deal.phase, "hand": [card_text(c) for c in deal.hands[seat]],
        "total": deal.total(seat), "counts": [len(h) for h in deal.hands], "stock": len(deal.stock),
        "pile_top": None if deal.pile_top is None else card_text(deal.pile_top),
        "offer": [card_text(c) for c in deal.offer_cards], "offer_kind": deal.offer_kind,
        "pending": [card_text(c) for c in deal.pending], "turns": deal.turns, "limit": deal.profile.call_limit,
        "known": [[card_text(c) for c in k] for k in deal.known],
        "hands": [[card_text(c) for c in h] for h in deal.hands] if over else None,
        "outcome": deal.outcome.to_json() if deal.outcome else None,
    }


def test_view_shows_own_hand_and_public_facts_only() -> None:
    d = position("nepali-games", ["9♠ 3♣", "K♣ Q♣"], "2♦", dealer=1, stock_top="5♠")
    v = seat_json(d, 0)
    assert v["hand"] == ["9♠", "3♣"] and v["hands"] is None and v["counts"] == [2, 2]
    assert "K♣" not in repr(v) and "5♠" not in repr(v)
    d2 = position("nepali-games", ["A♠ 3♣", "K♣ Q♣"], "2♦", dealer=1)
    act(d2, "call")
    assert seat_json(d2, 0)["hands"] == [["A♠", "3♣"], ["K♣", "Q♣"]]


def test_a_stock_draw_is_told_only_to_the_seat_that_drew() -> None:
    d = position("nepali-games", ["9♠ 3♣", "K♣ Q♣"], "2♦", dealer=1, stock_top="5♠")
    (event,) = act(d, "take stock")
    assert "5♠" in event.text(viewer=0)
    assert "5♠" not in event.text(viewer=1)
    assert card_text(card("5♠")) in event.text()  # a replay or a worked example shows it
