"""Puzzle themes (dhumbal.trainer.themes): each tagger, on a hand-made position with its theme and one without.

A tagger reads the reader's view and the graded moves. The grades here are
written by hand (the moves in the order the test says is best first, with
the figures the theme reads), so that each test is about the tagger's rule
and not about what a thousand sampled deals happen to give.
"""

from __future__ import annotations

from collections.abc import Sequence

from dhumbal.core import cards as C
from dhumbal.core.profiles import find_profile
from dhumbal.play.action import parse_action
from dhumbal.play.deal import Deal
from dhumbal.play.records import from_position
from dhumbal.trainer.grading import Grade, MoveGrade, move_key, moves
from dhumbal.trainer.themes import TAGGERS, THEMES, tag


def position(profile: str, hands: list[str], pile: str, *, steps: Sequence[str] = (), stock: str = "",
             turns: int = 12, offer: int | None = None, **opts: object) -> Deal:
    """Seat 0 on turn (after ``steps``, played by whoever is on turn)."""
    p = find_profile(profile).with_options(players=len(hands), **opts)
    deal = from_position(p, hands=[C.parse_cards(h) for h in hands], pile=C.parse_cards(pile),
                         stock_top=C.parse_cards(stock), dealer=len(hands) - 1, turn=0, turns=turns, offer=offer,
                         seed="themes")
    for step in steps:
        deal.apply(step)
    return deal


def graded(deal: Deal, order: Sequence[str], *, catch: Sequence[float] = (), later: float = 0.9) -> Grade:
    """A grade of ``deal``'s moves: those in ``order`` first (best first), then the rest; each
    a point behind the one before; ``catch``: the first moves' shares of deals that caught a caller;
    ``later``: the share of deals in which the reader reached another turn (on 100 deals)."""
    legal = moves(deal)
    first = [parse_action(text) for text in order]
    for a in first:
        assert any(move_key(a) == move_key(b) for b in legal), f"{a} is not a move here"
    rest = [a for a in legal if all(move_key(a) != move_key(b) for b in first)]
    graded_moves = []
    for i, a in enumerate(first + rest):
        share = catch[i] if i < len(catch) else 0.0
        graded_moves.append(MoveGrade(a, mean=-float(i), se=0.1, diff=float(i), diff_se=0.1, catch=share,
                                      samples=100, later=later))
    return Grade(deal.profile.canonical(), "paid", 100, "hard", tuple(graded_moves))


def themes(deal: Deal, order: Sequence[str], *, catch: Sequence[float] = (), later: float = 0.9) -> list[str]:
    return tag(deal.profile, deal.public_view(deal.turn), graded(deal, order, catch=catch, later=later))


def test_every_theme_has_a_tagger_a_name_and_an_explanation() -> None:
    assert set(TAGGERS) == set(THEMES)
    assert len(THEMES) >= 8
    for theme in THEMES.values():
        assert theme.name and theme.explanation.endswith(".")


# -- each tagger: a position with its theme, and one without -----------------------------------

CALL_ON = position("nepali-games", ["A♠ 2♥", "K♠ Q♠ J♠", "9♦ 8♦ 7♦"], "5♣", stock="6♣")
HEAVY = position("nepali-games", ["K♦ Q♥", "K♠ Q♠ J♠", "9♦ 8♦ 7♦"], "5♣", stock="6♣")


def test_call() -> None:
    assert "call" in themes(CALL_ON, ["call"])
    assert "call" in themes(CALL_ON, ["take stock", "call"])  # "not yet": the call is allowed and tempting
    assert "call" not in themes(HEAVY, ["take stock"])  # 25 points: no call is allowed


def test_tie() -> None:
    on_the_limit = position("nepali-games", ["2♠ 3♥", "K♠ Q♠ J♠", "9♦ 8♦ 7♦"], "5♣", stock="6♣")
    assert "tie" in themes(on_the_limit, ["take stock"])
    assert "tie" not in themes(CALL_ON, ["take stock"])  # 3 points, under the limit of 5


def test_catch() -> None:
    assert "catch" in themes(HEAVY, ["take stock", "take pile"], catch=[0.30, 0.05])
    assert "catch" not in themes(HEAVY, ["take stock", "take pile"], catch=[0.30, 0.28])  # no more than the runner-up


def test_pair() -> None:
    deal = position("nepali-games", ["7♠ 7♥ K♦ 2♣", "K♠ Q♠ J♠", "9♦ 8♦ 7♦"], "5♣", stock="6♣", steps=["take stock"])
    assert "pair" in themes(deal, ["throw K♦", "throw 7♠ 7♥"])
    assert "pair" not in themes(deal, ["throw 7♠ 7♥", "throw K♦"])  # the pair goes
    # the review's ng-1-7-59: the deal rarely reaches the turn that would throw the pair
    assert "pair" not in themes(deal, ["throw K♦", "throw 7♠ 7♥"], later=0.3)


def test_last() -> None:
    deal = position("nepali-games", ["7♠ 7♥ K♦ 2♣", "K♠ Q♠ J♠", "9♦ 8♦ 7♦"], "5♣", stock="6♣", steps=["take stock"])
    assert "last" in themes(deal, ["throw K♦", "throw 7♠ 7♥"], later=0.3)  # someone calls first, most often
    assert "last" not in themes(deal, ["throw K♦", "throw 7♠ 7♥"], later=0.7)
    assert "last" not in themes(CALL_ON, ["call"], later=0.0)  # the reader's own call ends the deal: no one calls first


def test_take() -> None:
    assert "take" in themes(HEAVY, ["take pile", "take stock"])
    assert "take" not in themes(CALL_ON, ["call", "take pile"])  # the call is best: no take chosen


def test_barred() -> None:
    seven = position("nepali-games", ["7♠ K♦ A♣ 2♥", "K♠ Q♠ J♠", "9♦ 8♦ 7♦"], "7♥", steps=["take pile"])
    assert "barred" in themes(seven, ["throw K♦"])  # the pair of sevens would be the heaviest throw
    ace = position("nepali-games", ["7♠ K♦ Q♣ 2♥", "K♠ Q♠ J♠", "9♦ 8♦ 7♦"], "A♥", steps=["take pile"])
    assert "barred" not in themes(ace, ["throw K♦"])  # the ace taken would not go anyway
    # before the take: the stock is best although the face-up card would make a pair
    before = position("nepali-games", ["7♠ K♦ A♣ 2♥", "K♠ Q♠ J♠", "9♦ 8♦ 7♦"], "7♥")
    assert "barred" in themes(before, ["take stock", "take pile"])
    dashain = position("dashain", ["7♠ K♦ A♣ 2♥", "K♠ Q♠ J♠", "9♦ 8♦ 7♦"], "7♥")
    assert "barred" not in themes(dashain, ["throw K♦"])  # throw first: nothing is taken before the throw


def test_runs() -> None:
    deal = position("dashain", ["J♠ Q♠ K♠ 2♦", "A♣ 2♣ 3♥", "9♦ 8♦ 7♥"], "5♣")
    assert "runs" in themes(deal, ["throw J♠ Q♠ K♠", "throw K♠"])
    assert "runs" not in themes(deal, ["throw K♠", "throw J♠ Q♠ K♠"])


def test_joker() -> None:
    deal = position("cardrulesplus", ["Jk1 K♦ 5♠", "A♣ 2♣ 3♥", "9♦ 8♦ 7♥"], "5♣", jokers="on")
    assert "joker" in themes(deal, ["throw K♦", "throw Jk1"])  # keep the joker, or throw it
    assert "joker" in themes(deal, ["throw K♦ Jk1", "throw K♦"])  # the king alone, or with the joker
    on_the_pile = position("cardrulesplus", ["4♥ K♦ 5♠", "A♣ 2♣ 3♥", "9♦ 8♦ 7♥"], "Jk2", jokers="on",
                           steps=["throw K♦"])
    assert "joker" in themes(on_the_pile, ["take pile Jk2", "take stock"])  # take the joker, or a blind card
    plain = position("cardrulesplus", ["4♥ K♦ 5♠", "A♣ 2♣ 3♥", "9♦ 8♦ 7♥"], "5♣", jokers="on")
    assert "joker" not in themes(plain, ["throw K♦", "throw 5♠"])


def test_race() -> None:
    # 23 points and Bikash down to two cards: the kings leave 3 points, a call next turn; the two, a turn more
    close = position("nepali-games", ["K♠ K♦ 2♣", "A♠ 2♠", "4♠ 5♠ 6♠"], "8♣", stock="A♦", steps=["take stock"])
    assert "race" in themes(close, ["throw K♠ K♦", "throw 2♣"])
    far = position("nepali-games", ["K♠ K♦ 2♣", "A♠ 2♠ 7♥ 8♥", "4♠ 5♠ 6♠ 7♠"], "8♣", stock="A♦", steps=["take stock"])
    assert "race" not in themes(far, ["throw K♠ K♦", "throw 2♣"])  # no one is close to a call
    assert "race" not in themes(close, ["throw K♠ K♦", "throw 2♣"], later=0.2)  # the deal ends before the race


def test_pickup() -> None:
    # Bikash (the next seat) picked up the 9♥ and still holds it: Asha had better not hand him another nine
    p = find_profile("nepali-games").with_options(players=3)
    deal = from_position(p, hands=[C.parse_cards("K♦ 9♣ 8♣ 3♥"), C.parse_cards("2♠ 5♦ 6♦"),
                                    C.parse_cards("4♠ 5♠ 6♠")],
                         pile=C.parse_cards("9♥"), stock_top=C.parse_cards("A♦ 2♦ 3♦ 4♦"), dealer=0, turn=1, turns=12,
                         seed="themes")
    for step in ["take pile", "throw 6♦", "take stock", "throw 6♠", "take stock"]:
        deal.apply(step)
    assert deal.turn == 0 and deal.known[1] == [C.parse_card("9♥")]
    assert "pickup" in themes(deal, ["throw K♦", "throw 9♣"])
    assert "pickup" not in themes(deal, ["throw K♦", "throw 8♣"])  # the runner-up hands him no nine either
    fresh = position("nepali-games", ["K♦ 9♣ 8♣ 3♥", "9♥ 2♠ 5♦", "4♠ 5♠ 6♠"], "7♥", steps=["take stock"], stock="A♦")
    assert "pickup" not in themes(fresh, ["throw K♦", "throw 9♣"])  # nothing picked up in plain view


def test_pickup_of_a_whole_hand() -> None:
    p = find_profile("dashain").with_options(players=3)
    deal = from_position(p, hands=[C.parse_cards("A♠ 5♦"), C.parse_cards("9♥"), C.parse_cards("Q♦ 2♦ 8♣ 7♥")],
                         pile=C.parse_cards("4♠ 3♣"), offer=1, dealer=0, turn=1, turns=9, seed="themes")
    for step in ["throw 9♥", "take pile 3♣", "throw 2♦", "take stock"]:
        deal.apply(step)
    assert "pickup" in themes(deal, ["throw 5♦"])  # Bikash's one card is the 3♣ he took
    other = position("dashain", ["A♠ 5♦", "9♥ 3♣", "Q♦ 2♦ 8♣ 7♥"], "4♠")
    assert "pickup" not in themes(other, ["throw 5♦"])


def test_group() -> None:
    deal = position("dashain", ["K♠ K♥ Q♦ 2♣", "A♣ 2♠ 3♥", "9♦ 8♦ 7♥"], "5♣")
    assert "group" in themes(deal, ["throw Q♦", "throw K♠ K♥"])  # not the heaviest throw
    assert "group" not in themes(deal, ["throw K♠ K♥", "throw Q♦"])  # the heaviest, and the only group
    two = position("dashain", ["K♠ K♥ 6♦ 6♣ 2♣", "A♣ 2♠ 3♥", "9♦ 8♦ 7♥"], "5♣")
    assert "group" in themes(two, ["throw K♠ K♥", "throw 6♦ 6♣"])  # one group of two among two
    singles = position("cardrulesplus", ["J♠ K♦ A♥", "A♣ 2♣ 3♥", "9♦ 8♦ 7♥"], "8♣")
    assert "group" not in themes(singles, ["throw K♦", "throw A♥"])  # the heaviest single, and nothing else to weigh


def test_a_forced_move_has_no_theme() -> None:
    one = Grade(CALL_ON.profile.canonical(), "paid", 10, "hard", (MoveGrade(parse_action("call"), 0, 0, 0, 0),))
    assert tag(CALL_ON.profile, CALL_ON.public_view(0), one) == []
