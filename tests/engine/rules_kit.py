"""Shared helpers for the engine tests: explicit positions and refusal checks.

Kept in a plainly named module (not conftest) so test modules can import it
(``from tests.engine.rules_kit import …``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from typing import Any

from hypothesis import strategies as st

from dhumbal.core.cards import Card, parse_card, parse_cards
from dhumbal.core.profiles import Profile, find_profile
from dhumbal.play.deal import Action, Deal, IllegalAction, parse_action
from dhumbal.play.records import from_position, state_to_json

__all__ = [
    "Action", "Deal", "IllegalAction", "cards", "card", "profile", "position",
    "snapshot", "assert_refused", "act", "count_actions", "OPTIONS", "check_cards", "unchecked", "EXAMPLE_TEXT",
]


def card(text: str) -> Card:
    return parse_card(text)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def profile(key: str, **options: Any) -> Profile:
    p = find_profile(key)
    return p.with_options(**options) if options else p


def position(
    prof: Profile | str,
    hands: Sequence[str],
    pile: str,
    *,
    stock: str | None = None,
    stock_top: str = "",
    out_of_play: str = "",
    **kw: Any,
) -> Deal:
    """A deal from card texts: ``hands`` one string per seat, ``pile`` bottom..top.

    ``stock`` (from the top) fixes the whole stock only when every other card is
    placed; otherwise ``stock_top`` is drawn first and the rest of the pack follows.
    """
    p = profile(prof) if isinstance(prof, str) else prof
    args: dict[str, Any] = dict(
        hands=[cards(h) for h in hands],
        pile=cards(pile),
        out_of_play=cards(out_of_play),
    )
    if stock is not None:
        args["stock"] = cards(stock)
    else:
        args["stock_top"] = cards(stock_top)
    args.update(kw)
    return from_position(p, **args)


def unchecked(
    prof: Profile | str, hands: Sequence[Sequence[int]], pile: Sequence[int], stock: Sequence[int] = (), **fields: Any,
) -> Deal:
    """A state written field by field, without the position check (``stock`` from the top).

    Only for rules that guard states no real deal reaches (an empty stock with
    nothing to shuffle needs most of the pack in the hands): the engine must
    still refuse correctly there, but ``from_position`` and ``from_json``
    refuse to build such a state.
    """
    p = profile(prof) if isinstance(prof, str) else prof
    n = len(hands)
    values: dict[str, Any] = dict(
        profile=p, seed=0, dealer=n - 1, hands=[list(h) for h in hands], stock=list(reversed(stock)),
        pile=list(pile), turn=0, known=[[] for _ in range(n)],
    )
    values.update(fields)
    return Deal(**values)


def snapshot(deal: Deal) -> str:
    return json.dumps(state_to_json(deal), sort_keys=True, ensure_ascii=False)


def act(deal: Deal, text: str, seat: int | None = None) -> list[Any]:
    return deal.apply(parse_action(text), seat=seat)


def assert_refused(deal: Deal, action: Action | str, code: str, seat: int | None = None) -> IllegalAction:
    """``action`` is refused with ``code``, by ``refusal`` and by ``apply``, and nothing changes."""
    a = parse_action(action) if isinstance(action, str) else action
    before = snapshot(deal)
    why = deal.refusal(a, seat)
    assert why is not None, f"{a} was expected to be refused with {code}"
    assert why.code == code, f"{a}: expected {code}, engine said {why.code}"
    assert not deal.is_legal(a, seat)
    try:
        deal.apply(a, seat=seat)
    except IllegalAction as exc:
        assert exc.code == code
        err = exc
    else:  # pragma: no cover - the assertion message is the point
        raise AssertionError(f"{a} was applied although refusal() said {code}")
    assert snapshot(deal) == before, f"refused {a} changed the state"
    # the message renders (every code has a template and its parameters)
    assert err.text()
    return err


# -- random tables -----------------------------------------------------------------

# Every house rule of every profile with its allowed values (keyword spelling).
OPTIONS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "nepali-games": {
        "players": st.integers(2, 6), "cards": st.sampled_from(["5", "7"]), "limit": st.integers(0, 30),
        "penalty": st.integers(1, 200), "courts": st.sampled_from(["10", "11-12-13"]),
        "runs": st.booleans(), "jokers": st.booleans(), "rounds": st.integers(1, 50),
    },
    "dashain": {
        "players": st.integers(2, 6), "limit": st.integers(1, 40), "first_round_call": st.booleans(),
        "money": st.sampled_from(["0.05", "0.25", "1"]), "rounds": st.none() | st.integers(1, 50),
    },
    "cardrulesplus": {
        "players": st.integers(2, 5), "jokers": st.booleans(), "limit": st.none() | st.integers(1, 40),
        "courts": st.sampled_from(["0-10-10", "11-12-13"]), "penalty": st.sampled_from(["25", "30"]),
        "double_penalty": st.booleans(), "set_pick": st.booleans(),
        "direction": st.sampled_from(["clockwise", "counterclockwise"]),
    },
}



def iter_cards(deal: Deal) -> Iterator[Card]:
    """Every card of the deal, wherever it lies (the hands, the stock, the pile, a throw waiting for its pick)."""
    yield from (c for h in deal.hands for c in h)
    yield from deal.stock
    yield from deal.pile
    yield from deal.pending


def check_cards(deal: Deal) -> None:
    every = list(iter_cards(deal))
    size = deal.profile.deck_size
    assert len(every) == size == deal.card_count(), f"{len(every)} cards, not {size}"
    assert len(set(every)) == size, "a card is duplicated"
    assert all(0 <= c < size for c in every)



# -- counting random actions (enable with DHUMBAL_COUNT_ACTIONS=path) -----------

_COUNT = [0]


def count_actions(n: int = 1) -> None:
    _COUNT[0] += n


def flush_count() -> None:
    path = os.environ.get("DHUMBAL_COUNT_ACTIONS")
    if path and _COUNT[0]:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{_COUNT[0]}\n")


#: A small worked-example file (seed 000's K pair, shortened) that the example tests vary.
EXAMPLE_TEXT = """\
title = "K pair"
profile = "nepali-games"
seats = ["A", "B"]
dealer = "B"

[position]
A = "K♠ K♥ A♦ A♣ A♥"
B = "A♠ 4♣ 7♦ 7♣ 7♥"
pile = "9♣"
stock = "2♦ 7♠"

[[steps]]
act = "A: take stock"
expect = { total.A = 25 }

[[steps]]
act = "A: throw K♠ K♥"
expect = { total.A = 5, pile_top = "K♥" }

[[steps]]
act = "A: call"
refused = "call-after-draw"
"""
