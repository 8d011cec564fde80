"""The aggressive reference bot follows its two rules, in every profile and house rule.

It is the champion agent of arXiv 2510.11736 as that study describes it:
it calls the moment a call is legal; otherwise it throws its heaviest legal
group, and where a card is taken it takes the lightest face-up card on offer
when that card is light (worth at most ``heuristic.LIGHT``), else draws blind
(and always blind past ``2 * heuristic.PATIENCE`` turns without a turn cap, so
that a deal ends).
Every one of its moves in random tables (random profiles, options, seats and
other bots) is checked against those rules, computed here independently from
the legal actions.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dhumbal.bots import botlevels, heuristic
from dhumbal.core.profiles import parse_profile
from dhumbal.lab.arena import play_table, read_bots
from dhumbal.play.deal import Action, Deal
from tests.engine.rules_kit import OPTIONS, check_cards, profile


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, int, int, tuple[str, ...]]:
    key = draw(st.sampled_from(sorted(OPTIONS)))
    opts = {k: draw(v) for k, v in OPTIONS[key].items() if draw(st.booleans())}
    p = profile(key, **opts)
    seats = draw(st.integers(2, p.players_max))
    levels = tuple(draw(st.sampled_from(["aggressive", "aggressive", "hard", "medium", "easy"])) for _ in range(seats))
    if "aggressive" not in levels:
        levels = ("aggressive", *levels[1:])
    return p.canonical(), seats, draw(st.integers(0, 10**6)), levels


def expected_kind_and_value(deal: Deal) -> tuple[str, int | None]:
    """What the two rules ask for now, from the legal actions alone: ``("call", None)``;
    ``("throw", the heaviest legal group's value)``; ``("take", the light card to take, or
    None to draw from the stock)``."""
    legal = deal.legal_actions()
    p = deal.profile
    values = p.values
    if any(a.kind == "call" for a in legal):
        return "call", None
    throws = [a for a in legal if a.kind == "throw"]
    if throws:
        return "throw", max(sum(values[c] for c in a.cards) for a in throws)
    takes = [a for a in legal if a.kind == "take"]
    if not takes:
        return "call", None  # nothing else lets the turn go on
    if p.take_rule == "pile-top":
        offer = [deal.pile[-1]] if any(a.source == "pile" for a in takes) else []
    else:
        offer = [a.cards[0] for a in takes if a.source == "pile"]
    stock = any(a.source == "stock" for a in takes)
    light = min(offer, key=lambda c: (values[c], c)) if offer else None
    if stock and p.turn_cap is None and deal.turns >= 2 * heuristic.PATIENCE:
        return "take", None  # a very long deal: blind, so that it ends
    if light is not None and (values[light] <= heuristic.LIGHT or not stock):
        return "take", light
    return "take", None


def check_move(deal: Deal, action: Action) -> None:
    kind, value = expected_kind_and_value(deal)
    assert deal.refusal(action) is None, action
    assert action.kind == kind, (kind, action)
    values = deal.profile.values
    if kind == "throw":
        assert sum(values[c] for c in action.cards) == value, (action, value)
        heaviest = [a for a in deal.legal_actions() if a.kind == "throw" and sum(values[c] for c in a.cards) == value]
        assert len(action.cards) == max(len(a.cards) for a in heaviest)  # of equal weight, the most cards
    elif kind == "take":
        if value is None:
            assert action.source == "stock", action
        else:
            assert action.source == "pile", action
            taken = deal.pile[-1] if deal.profile.take_rule == "pile-top" else action.cards[0]
            assert taken == value


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_the_aggressive_bot_calls_at_once_else_throws_its_heaviest_group_and_takes_light_cards(
        table: tuple[str, int, int, tuple[str, ...]]) -> None:
    text, seats, seed, levels = table
    p = parse_profile(text)
    seen = set()
    for k in range(3):
        deal = Deal.new(p, f"{seed}/{k}", dealer=k % seats, players=seats)
        for _ in range(3000):
            if deal.is_over:
                break
            level = levels[deal.turn]
            action = botlevels.choose(deal, level)
            if level == "aggressive":
                check_move(deal, action)
                seen.add(action.kind)
            deal.apply(action)
        assert deal.is_over
        check_cards(deal)


def test_every_rule_is_exercised_in_each_profile() -> None:
    """Calls, throws, light pile takes and blind draws all happen in ordinary deals of each
    profile (cardrulesplus with a call limit: without one, a call is legal at once)."""
    for p in (profile("nepali-games"), profile("dashain"), profile("cardrulesplus", limit=7)):
        key = p.canonical()
        kinds: set[str] = set()
        for seed in range(30):
            deal = Deal.new(p, f"rules/{seed}")
            while not deal.is_over:
                action = heuristic.aggressive(deal)
                check_move(deal, action)
                kinds.add(action.kind if action.kind != "take" else f"take-{action.source}")
                deal.play(action)
        assert kinds == {"call", "throw", "take-pile", "take-stock"}, (key, kinds)


def test_two_of_it_under_a_call_limit_they_cannot_reach_still_end_the_deal() -> None:
    # dashain at limit 1: only an ace (or a joker) lets a call; trading light cards never gets there
    p = parse_profile("dashain(limit=1)")
    for k in range(3):
        deal = Deal.new(p, f"0/{k}", dealer=k % 2, players=2)
        for _ in range(3000):
            if deal.is_over:
                break
            deal.apply(heuristic.aggressive(deal))
        assert deal.is_over and deal.outcome is not None and deal.outcome.caller is not None


def test_without_a_call_limit_it_calls_on_its_first_turn() -> None:
    for seed in range(10):
        deal = Deal.new(profile("cardrulesplus"), seed)
        if deal.can_call():
            assert heuristic.aggressive(deal) == Action.call()


def test_aggressive_is_a_mixed_table_level_not_a_table_setting() -> None:
    assert "aggressive" in botlevels.BOTS and "aggressive" not in botlevels.DIFFICULTIES
    assert read_bots("expert, Aggressive") == ["expert", "aggressive"]
    result = play_table(profile("dashain", players=2), read_bots("aggressive,hard"), 20, seed=3)
    assert sum(r.wins for r in result.seats) <= 20 and result.seats[0].bot == "aggressive"
    assert result.seats[0].calls > 0
