"""Every refusal code the engine defines, provoked at least once.

Each case checks the code (from ``refusal`` and from ``apply``), that the state
is unchanged (``to_json`` before and after), and that the message renders.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable

import pytest

from dhumbal.core import messages
from dhumbal.core.cards import full_deck
from dhumbal.play.deal import Action, Deal, IllegalAction, parse_action
from tests.engine.rules_kit import act, assert_refused, card, cards, position, profile, unchecked


def refusal_codes() -> list[str]:
    """The codes of the TEMPLATES refusal section (between '# refusals' and '# events')."""
    src = inspect.getsource(messages)
    section = src.split("# refusals", 1)[1].split("# events", 1)[0]
    return re.findall(r'^\s*"([a-z-]+)":', section, re.M)


def ng(a: str, b: str, pile: str = "9♣", stock_top: str = "6♦ 7♠", **opts: object) -> Deal:
    p = profile("nepali-games", **opts) if opts else profile("nepali-games")
    return position(p, [a, b], pile, stock_top=stock_top, dealer=1)


def dash(a: str, b: str, c: str, pile: str, **kw: object) -> Deal:
    return position("dashain", [a, b, c], pile, dealer=2, turns=kw.pop("turns", 3), **kw)  # type: ignore[arg-type]


def crp(a: str, b: str, pile: str = "7♣", **kw: object) -> Deal:
    opts = kw.pop("opts", {})
    return position(profile("cardrulesplus", **opts), [a, b], pile, dealer=1, turns=6, **kw)  # type: ignore[arg-type]


def case_deal_over() -> None:
    d = ng("A♠ 2♠", "K♣ Q♣")
    act(d, "call")
    for a in ("take stock", "call", "throw A♠"):
        assert_refused(d, a, "deal-over")


def case_not_your_turn() -> None:
    d = ng("A♠ 2♠ 9♦", "K♣ Q♣")
    err = assert_refused(d, "take stock", "not-your-turn", seat=1)
    assert err.params == {"seat": 1, "turn": 0}
    assert "Seat 1" in err.text() and "Seat 2" in err.text()


def case_call_after_draw() -> None:
    d = ng("A♠ 2♠", "K♣ Q♣")
    act(d, "take stock")
    assert_refused(d, "call", "call-after-draw")


def case_call_after_throw() -> None:
    d = dash("A♠ 2♠ 9♦", "K♣ Q♣", "J♣ 6♠", "4♥")
    act(d, "throw 9♦")
    assert_refused(d, "call", "call-after-throw")


def case_over_call_limit() -> None:
    d = ng("A♠ 5♠", "K♣ Q♣")
    assert_refused(d, "call", "over-call-limit")


def case_first_round_call() -> None:
    d = dash("A♠ 2♠", "K♣ Q♣", "J♣ 6♠", "4♥", turns=1)
    assert_refused(d, "call", "first-round-call")


def case_must_take_first() -> None:
    assert_refused(ng("A♠ 5♠", "K♣ Q♣"), "throw 5♠", "must-take-first")


def case_already_took() -> None:
    d = ng("A♠ 5♠", "K♣ Q♣")
    act(d, "take pile")
    assert_refused(d, "take stock", "already-took")


def case_must_throw_first() -> None:
    assert_refused(dash("A♠ 2♠ 9♦", "K♣ Q♣", "J♣ 6♠", "4♥"), "take pile 4♥", "must-throw-first")


def case_already_threw() -> None:
    d = crp("K♠ 3♦ 6♣", "Q♣ 5♥")
    act(d, "throw K♠")
    assert_refused(d, "throw 3♦", "already-threw")


def case_empty_throw() -> None:
    d = ng("A♠ 5♠", "K♣ Q♣")
    act(d, "take stock")
    assert_refused(d, Action.throw(), "empty-throw")


def case_card_not_in_hand() -> None:
    d = ng("A♠ 5♠", "K♣ Q♣")
    act(d, "take stock")
    err = assert_refused(d, "throw K♣", "card-not-in-hand")
    assert err.params == {"card": "K♣"}


def case_duplicate_card() -> None:
    d = ng("A♠ 5♠", "K♣ Q♣")
    act(d, "take stock")
    assert_refused(d, Action.throw(card("5♠"), card("5♠")), "duplicate-card")


def case_mixed_ranks() -> None:
    d = ng("A♠ 5♠", "K♣ Q♣")
    act(d, "take stock")
    assert_refused(d, "throw A♠ 5♠", "mixed-ranks")


def case_not_a_run() -> None:
    d = crp("4♥ 5♥ 7♥ K♠", "Q♣ 5♦")
    assert_refused(d, "throw 4♥ 5♥ 7♥", "not-a-run")


def case_joker_in_run() -> None:
    d = ng("4♥ 5♥ Jk1", "K♣ Q♣", stock_top="K♥", runs=True, jokers=True)
    act(d, "take stock")
    assert_refused(d, "throw 4♥ 5♥ Jk1", "joker-in-run")


def case_set_too_large() -> None:
    d = crp("9♠ 9♦ 9♥ 9♣ Jk2", "Q♣ 5♦", opts={"jokers": True})
    assert_refused(d, "throw 9♠ 9♦ 9♥ 9♣ Jk2", "set-too-large")


def case_pile_card_returned() -> None:
    d = ng("9♠ 9♥ 3♣", "K♣ Q♣", pile="9♦")
    act(d, "take pile")
    assert_refused(d, "throw 9♠ 9♥ 9♦", "pile-card-returned")


def case_not_pile_top() -> None:
    assert_refused(ng("9♠ 9♥ 3♣", "K♣ Q♣", pile="5♦ 9♦"), "take pile 5♦", "not-pile-top")


def case_pile_take_empty_hand() -> None:
    d = position("nepali-games", ["", "K♣ Q♣"], "9♦", dealer=1, turns=8)
    assert_refused(d, "take pile", "pile-take-empty-hand")


def case_stock_empty() -> None:
    # Not reachable in play (the hands would hold all the pack but the pile top),
    # so the state is written directly.
    rest = [c for c in full_deck(jokers=False) if c not in cards("2♦")]
    d = unchecked("nepali-games", [rest[:26], rest[26:]], cards("2♦"), dealer=1)
    assert_refused(d, "take stock", "stock-empty")


def case_pick_which_card() -> None:
    d = dash("A♠ 2♠ 9♦", "K♣ Q♣", "J♣ 6♠", "4♥ 4♦")
    act(d, "throw 9♦")
    assert_refused(d, "take pile", "pick-which-card")


def case_card_not_on_offer() -> None:
    d = dash("A♠ 2♠ 9♦", "K♣ Q♣", "J♣ 6♠", "4♥ 4♦")
    act(d, "throw 9♦")
    assert_refused(d, "take pile 4♣", "card-not-on-offer")


def case_own_throw() -> None:
    d = dash("A♠ 2♠ 9♦", "K♣ Q♣", "J♣ 6♠", "4♥")
    act(d, "throw 9♦")
    assert_refused(d, "take pile 9♦", "own-throw")


def case_run_middle_card() -> None:
    d = dash("A♠ 2♠ 9♦", "K♣ Q♣", "J♣ 6♠", "4♥ 5♥ 6♥")
    act(d, "throw 9♦")
    assert_refused(d, "take pile 5♥", "run-middle-card")


def case_set_not_pickable() -> None:
    d = crp("K♠ 3♦", "Q♣ 5♥", pile="8♣ 8♦", offer=2)
    act(d, "throw K♠")
    assert_refused(d, "take pile 8♦", "set-not-pickable")


def case_run_not_pickable() -> None:
    d = crp("K♠ 3♦", "Q♣ 5♦", pile="4♥ 5♥ 6♥", offer=3)
    act(d, "throw K♠")
    assert_refused(d, "take pile 6♥", "run-not-pickable")


def case_turn_cannot_complete() -> None:
    # Not reachable in play (the hands would hold all the pack), so the state is
    # written directly: the stock and the discard pile are empty, so a single card
    # thrown would be the pile's top, kept there, with nothing to shuffle under it.
    rest = [c for c in full_deck(jokers=False)]
    d = unchecked("cardrulesplus", [rest[:26], rest[26:]], [], dealer=1, offer=0, turns=4)
    single = Action.throw(card("A♠"))
    assert_refused(d, single, "turn-cannot-complete")
    assert single not in d.legal_actions()
    # Two cards thrown: the first is shuffled into a new stock under the second, so the turn ends.
    assert d.is_legal(Action.throw(*cards("A♠ 2♠ 3♠")))
    act(d, "throw A♠ 2♠ 3♠")
    act(d, "take stock")
    assert d.pile == cards("3♠") and len(d.stock) == 1 and d.offer_kind == "run"


def case_bad_action() -> None:
    d = ng("A♠ 5♠", "K♣ Q♣")
    assert_refused(d, Action("take", "stock", (card("A♠"),)), "bad-action")
    assert_refused(d, Action("take", "pile", tuple(cards("9♣ A♠"))), "bad-action")
    assert_refused(d, Action("take", "", ()), "bad-action")
    for text in ("", "dance", "take", "take pile 9♣ 9♦", "throw", "throw QX", "call now", "take nothing"):
        with pytest.raises(IllegalAction) as info:
            parse_action(text)
        assert info.value.code == "bad-action"


CASES: dict[str, Callable[[], None]] = {
    name[len("case_"):].replace("_", "-"): fn for name, fn in dict(globals()).items() if name.startswith("case_")
}


def test_every_refusal_code_has_a_case() -> None:
    codes = refusal_codes()
    assert len(codes) >= 25 and "pile-card-returned" in codes and "dealt" not in codes
    assert sorted(codes) == sorted(CASES)


@pytest.mark.parametrize("code", sorted(CASES))
def test_refusal_is_provoked_with_its_code_and_leaves_the_state_unchanged(code: str) -> None:
    CASES[code]()


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "ne"])
def test_refusal_messages_render_in_every_language(lang: str) -> None:
    d = ng("A♠ 5♠", "K♣ Q♣")
    err = d.refusal(parse_action("call"))
    assert err is not None
    text = err.text(lang)
    assert text and "{" not in text
