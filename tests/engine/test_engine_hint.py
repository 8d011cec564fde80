"""A Hint you can trust: the move and the figures are one account.

- Where the raw call figures favour calling and the expert plays on (or it
  calls where they favour playing on), one line says why, in the expert's
  own terms (its weighted chance of being caught against the risk it takes on).
- A take from the pile is argued for the pile, never with a figure that
  favours the stock (the stock valued as the expert's beliefs value it).
- A call open on exactly the limit states the tie risk in words.
- Mid-turn the Hint is the move that finishes the turn: after a take, the
  throw and why; throwing first, after the throw, the take.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from dhumbal.bots import expert
from dhumbal.bots.botlevels import choose
from dhumbal.bots.odds import HINT_PLAYOUTS, call_odds
from dhumbal.core.cards import parse_cards as cards
from dhumbal.core.i18n import number, translator
from dhumbal.core.profiles import find_profile
from dhumbal.play.action import Action
from dhumbal.play.deal import Deal
from dhumbal.play.records import from_position
from dhumbal.view.hint import HINT_CALLS, HINT_PLAYS_ON, HINT_TIE, hint_words
from dhumbal.view.suggest import suggest


def starts(profile: str, seed: str, phases: tuple[str, ...] = ("start",)) -> Iterator[Deal]:
    """Every position of a deal the medium bots play, in ``phases`` (copies)."""
    deal = Deal.new(find_profile(profile), seed)
    while not deal.is_over:
        if deal.phase in phases:
            yield deal.copy()
        deal.apply(choose(deal, "medium"))


def lead(msgid: str) -> str:
    """A message's words up to its first placeholder."""
    return translator("en")(msgid, risk="§", caught="§", total="§").split("§")[0]


@pytest.mark.parametrize(("profile", "seed", "told"), [("nepali-games", "why/2", HINT_PLAYS_ON),
                                                       ("cardrulesplus", "why/1", HINT_CALLS)])
def test_a_move_against_the_raw_call_figures_says_why(profile: str, seed: str, told: str) -> None:
    seen = 0
    for deal in starts(profile, seed):
        if not deal.can_call():
            continue
        view = deal.public_view(deal.turn)
        text = hint_words(deal.profile, view, "en")
        odds = call_odds(deal.profile, view, playouts=HINT_PLAYOUTS)
        assert odds.play_on_value is not None
        call, play_on = (float(number(x, "en", decimals=1)) for x in (odds.call_value, odds.play_on_value))
        favour_call = call > play_on if odds.measure == "paid" else call < play_on
        calls = expert.decide_view(deal.profile, view).action.kind == "call"
        against = call != play_on and favour_call != calls
        said = [m for m in (HINT_PLAYS_ON, HINT_CALLS) if lead(m) in text]
        assert said == ([HINT_CALLS if calls else HINT_PLAYS_ON] if against else []), text
        if against:
            # in the expert's own figures: the risk it takes on, and its chance of being caught
            risk = expert.risk(deal.profile)
            assert f"at {risk}% or less" in text and re.search(r"puts it at \d+%\.$", text), text
            seen += told in said
    assert seen, "no move against the raw figures in this deal"


@pytest.mark.parametrize(("profile", "seed"), [("dashain", "why/18"), ("dashain", "why/26"), ("dashain", "why/31"),
                                               ("cardrulesplus", "why/0")])
def test_a_take_from_the_pile_is_argued_for_the_pile(profile: str, seed: str) -> None:
    """Each of these deals has a take of the expert's that the stock's plain average argued against."""
    takes = 0
    for deal in starts(profile, seed, ("start", "take")):
        view = deal.public_view(deal.turn)
        move = suggest(deal.profile, view, "en")
        if move.action.kind != "take" or move.action.source != "pile":
            continue
        takes += 1
        for worth, average in re.findall(r"is worth (\d+); a card from the stock is worth ([\d.]+) on average", move.text):
            assert int(worth) < float(average), move.text
        if "little more than" in move.text:
            assert "a card you know" in move.text
    assert takes


def limit_position(total: str) -> Deal:
    """Nepali Games after a round: the reader (seat 0, on turn) holds ``total`` and may call."""
    return from_position(find_profile("nepali-games"), hands=[cards(total), cards("9♣ 9♦ 8♠"), cards("K♠ Q♥ 4♦ 3♣"),
                                                             cards("7♠ 7♥")], pile=cards("5♦"), dealer=3, turns=8)


def test_a_call_on_exactly_the_limit_states_the_tie_risk() -> None:
    at = limit_position("A♠ 4♥")
    assert at.can_call() and at.total(0) == at.profile.call_limit == 5
    text = hint_words(at.profile, at.public_view(0), "en")
    assert translator("en")(HINT_TIE, total=5) in text
    for lang in ("fr", "nl", "ne"):
        assert translator(lang)(HINT_TIE, total=5) in hint_words(at.profile, at.public_view(0), lang)
    under = limit_position("A♠ 3♥")
    assert "tie goes against the caller" not in hint_words(under.profile, under.public_view(0), "en")


@pytest.mark.parametrize("profile", ["nepali-games", "dashain", "cardrulesplus"])
def test_mid_turn_the_hint_is_the_move_that_finishes_the_turn(profile: str) -> None:
    deal = next(starts(profile, f"mid/{profile}"))
    first = Action.take_stock() if deal.profile.draw_first else next(
        a for a in deal.legal_actions() if a.kind == "throw")
    deal.apply(first)
    view = deal.public_view(deal.turn)
    text = hint_words(deal.profile, view, "en")
    move = suggest(deal.profile, view, "en")
    assert text == move.text and move.then is None and deal.refusal(move.action, deal.turn) is None
    if deal.profile.draw_first:
        assert move.action.kind == "throw" and "Throwing " in text and "out of your hand now" in text, text
    else:  # the take ends the turn: nothing follows it
        assert move.action.kind == "take" and "worth" in text, text
    assert not any(plan in text for plan in ("depends on the card you draw", "whatever card you draw", "most likely"))
