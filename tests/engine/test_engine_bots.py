"""Bots under random profiles, options and difficulties: legal, terminating, deterministic, no peeking."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from dhumbal.bots import botlevels, heuristic
from dhumbal.core.profiles import Profile, parse_profile
from dhumbal.play.deal import Action, Deal
from dhumbal.play.records import replay, state_to_json, transcript
from tests.engine.rules_kit import OPTIONS, check_cards, count_actions, profile

BOUND = 400  # bot actions per deal in the bounded checks
Levels = tuple[str, ...]


Table = tuple[str, int, "int | str", Levels]  # canonical profile text, seats, seed, a bot level per seat


@st.composite
def bot_tables(draw: st.DrawFn) -> Table:
    key = draw(st.sampled_from(sorted(OPTIONS)))
    opts = {k: draw(v) for k, v in OPTIONS[key].items() if draw(st.booleans())}
    p = profile(key, **opts)
    seats = draw(st.integers(2, p.players_max))
    seed = draw(st.integers(0, 10**6))
    levels = tuple(draw(st.sampled_from(botlevels.BOTS)) for _ in range(seats))
    return p.canonical(), seats, seed, levels


def new_deal(p: Profile | str, seats: int, seed: int | str) -> Deal:
    prof = parse_profile(p) if isinstance(p, str) else p
    return Deal.new(prof, seed, dealer=seats - 1, players=seats)


def bot_settings(n: int, **kw: Any) -> Any:
    return settings(max_examples=n, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow], **kw)


# -- legal moves -----------------------------------------------------------------------


@bot_settings(40)
@given(bot_tables())
def test_bots_never_make_an_illegal_move(table: Table) -> None:
    p, seats, seed, levels = table
    applied = 0
    for k in range(3):
        d = new_deal(p, seats, f"{seed}/{k}")
        for _ in range(BOUND):
            if d.is_over:
                break
            a = botlevels.choose(d, levels[d.turn])  # type: ignore[arg-type]
            why = d.refusal(a)
            assert why is None, f"bot chose {a}: {why}"
            d.apply(a)
            applied += 1
        check_cards(d)
        if d.is_over:
            assert d.outcome is not None and sum(d.outcome.paid) == 0
        assert state_to_json(replay(transcript(d))) == state_to_json(d)
    count_actions(applied)


# -- termination -----------------------------------------------------------------------


@bot_settings(25, phases=[Phase.explicit, Phase.reuse, Phase.generate])  # no shrinking: a failure costs 20000 moves
@example(table=("dashain(players=6)", 6, 24, ("easy",) * 6))
@given(bot_tables())
def test_bot_deals_always_terminate(table: Table) -> None:
    # PROFILES.md ruling 5: a profile with no cap must still end in simulations.
    p, seats, seed, levels = table
    d = new_deal(p, seats, seed)
    try:
        botlevels.play_deal(d, list(levels))  # type: ignore[arg-type]
    except RuntimeError:
        totals = d.totals()
        raise AssertionError(
            f"{p}, {seats} seats, seed {seed}, bots {levels}: no end after {len(d.history)} actions "
            f"({d.turns} turns); hands now {totals} against a call limit of {d.profile.call_limit}"
        ) from None
    assert d.is_over and d.outcome is not None
    count_actions(len(d.history))


def test_dashain_lowest_allowed_limit_still_lets_a_deal_end() -> None:
    # A dashain hand always holds a card after the pick and no card is worth 0, so
    # under limit 0 no call is ever legal, and dashain has no turn cap (ruling 5).
    low = profile("dashain").spec("limit").low
    d = new_deal(profile("dashain", players=4, limit=low), 4, 1)
    try:
        botlevels.play_deal(d, "medium")
    except RuntimeError:
        raise AssertionError(f"dashain(limit={low}): no end after {len(d.history)} actions; hands {d.totals()}") from None


def test_nepali_games_bot_deals_end_within_the_turn_cap() -> None:
    for seed in range(20):
        d = botlevels.play_deal(new_deal(profile("nepali-games", players=6, limit=0), 6, seed), "easy")
        assert d.turns <= 200


def test_cardrulesplus_bot_deals_without_a_limit_end() -> None:
    for seed in range(20):
        d = botlevels.play_deal(new_deal(profile("cardrulesplus", players=5), 5, seed), "easy")
        assert d.is_over


# -- determinism -----------------------------------------------------------------------


@bot_settings(20)
@given(bot_tables())
def test_bots_are_deterministic(table: Table) -> None:
    p, seats, seed, levels = table

    def run() -> dict[str, Any]:
        d = new_deal(p, seats, seed)
        for _ in range(BOUND):
            if d.is_over:
                break
            d.apply(botlevels.choose(d, levels[d.turn]))  # type: ignore[arg-type]
        return transcript(d)

    first = run()
    assert run() == first
    count_actions(2 * len(first["actions"]))


DETERMINISM_SCRIPT = """
import json, sys
from dhumbal.bots import botlevels
from dhumbal.play.deal import Deal
from dhumbal.core.profiles import parse_profile
from dhumbal.play.records import transcript
out = []
for text, seats, seed, level in json.loads(sys.argv[1]):
    d = Deal.new(parse_profile(text), seed, dealer=seats - 1, players=seats)
    for _ in range(300):
        if d.is_over:
            break
        d.apply(botlevels.choose(d, level))
    out.append(transcript(d))
print(json.dumps(out))
"""


def test_bot_transcripts_do_not_depend_on_the_process() -> None:
    tables = [
        ["nepali-games(runs=on,jokers=on,players=3)", 3, "p1", "hard"],
        ["dashain(players=5)", 5, 77, "medium"],
        ["cardrulesplus(jokers=on,set-pick=on)", 4, "x/2", "hard"],
        ["nepali-games(cards=7,courts=11-12-13)", 4, 5, "easy"],
    ]
    results = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(
            [sys.executable, "-c", DETERMINISM_SCRIPT, json.dumps(tables)],
            capture_output=True, text=True, env=env, check=True, timeout=60,
        )
        results.append(json.loads(done.stdout))
    assert results[0] == results[1]
    here = []
    for text, seats, seed, level in tables:
        d = Deal.new(parse_profile(str(text)), seed, dealer=int(seats) - 1, players=int(seats))  # type: ignore[arg-type]
        for _ in range(300):
            if d.is_over:
                break
            d.apply(botlevels.choose(d, level))  # type: ignore[arg-type]
        here.append(transcript(d))
    assert json.loads(json.dumps(here)) == results[0]


# -- no peeking ------------------------------------------------------------------------


def scramble(deal: Deal, rng: random.Random) -> Deal:
    """A copy in which everything the seat on turn cannot see is dealt again.

    Other players' hands keep their size and the cards they were seen to pick;
    their other cards and the stock (including its order) are shuffled together
    and dealt back. The turn's own hand, the pile or offer, pending throws and
    every public count stay as they were.
    """
    d = deal.copy()
    me = d.turn
    slots: list[tuple[int, int]] = []
    pool = list(d.stock)
    for s in range(d.players):
        if s == me:
            continue
        seen = Counter(d.known[s])
        for i, c in enumerate(d.hands[s]):
            if seen[c]:
                seen[c] -= 1
                continue
            slots.append((s, i))
            pool.append(c)
    rng.shuffle(pool)
    for s, i in slots:
        d.hands[s][i] = pool.pop()
    d.stock = pool
    assert len(d.stock) == len(deal.stock) and d.card_count() == deal.card_count()
    return d


Chooser = Callable[[Deal, str], Action]


def peeking_differences(chooser: Chooser, p: Profile | str, seats: int, seed: int | str, levels: Sequence[str], rng: random.Random) -> tuple[int, int]:
    """Play a bounded bot deal; at every decision compare the choice with the choice in scrambled copies."""
    d = new_deal(p, seats, seed)
    decisions = differ = 0
    for _ in range(BOUND):
        if d.is_over:
            break
        level = levels[d.turn]
        a = chooser(d, level)
        for _ in range(2):
            other = scramble(d, rng)
            if other.hands == d.hands and other.stock == d.stock:
                continue
            decisions += 1
            differ += chooser(other, level) != a
        d.apply(a)
    count_actions(len(d.history))
    return decisions, differ


@bot_settings(40)
@given(bot_tables(), st.randoms(use_true_random=True))
def test_bots_do_not_peek(table: Table, rng: random.Random) -> None:
    p, seats, seed, levels = table
    decisions, differ = peeking_differences(botlevels.choose, p, seats, seed, levels, rng)  # type: ignore[arg-type]
    assert differ == 0, f"{differ} of {decisions} decisions changed when hidden cards were dealt again"


def test_a_peeking_bot_is_caught_by_the_scramble() -> None:
    def peeker(deal: Deal, level: str) -> Action:
        # takes the pile whenever the hidden stock top is worse: information it may not have
        if deal.phase == "start" and deal.profile.draw_first and deal.stock and deal.is_legal(Action.take_pile()):
            top = deal.profile.value(deal.stock[-1])
            return Action.take_pile() if top > 5 else Action.take_stock()
        return botlevels.choose(deal, level)  # type: ignore[arg-type]

    p = profile("nepali-games", players=3)
    decisions, differ = peeking_differences(peeker, p, 3, 1, ["medium"] * 3, random.Random(5))
    assert decisions > 50 and differ > 0


def test_scramble_changes_hidden_cards_but_not_public_ones() -> None:
    d = new_deal(profile("dashain", players=4), 4, 3)
    for _ in range(30):
        d.apply(heuristic.choose(d, "hard"))
    s = scramble(d, random.Random(1))
    me = d.turn
    assert s.hands[me] == d.hands[me] and s.pile == d.pile and s.pending == d.pending
    assert [len(h) for h in s.hands] == [len(h) for h in d.hands]
    assert all(Counter(k) <= Counter(h) for k, h in zip(s.known, s.hands))
    assert s.hands != d.hands or s.stock != d.stock
