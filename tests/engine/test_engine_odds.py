"""Call odds: the sampled chance of being caught agrees with exact and independent counts.

The exact count for one other player is a subset-sum count over the cards
the caller cannot see; for several others an independent large sample
(``random.sample`` of the unseen cards, 200,000 deals) stands in. The
engine's figures, from its own sampler, must agree within one percentage
point, at the first turn of real deals and in the rules pages' charts.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from io import StringIO

import pytest

from dhumbal import cli
from dhumbal.bots import heuristic, odds
from dhumbal.core.cards import Card
from dhumbal.core.profiles import Profile
from dhumbal.play.deal import Deal
from tests.engine.rules_kit import cards, profile

POINT = 0.01  # one percentage point


def exact_one_opponent(prof: Profile, unseen: Sequence[Card], k: int, total: int) -> float:
    """The exact chance that ``k`` cards drawn from ``unseen`` total ``total`` or less."""
    ways = [[0] * (total + 1) for _ in range(k + 1)]  # ways[j][s]: j cards worth s
    ways[0][0] = 1
    for c in unseen:
        v = prof.values[c]
        for j in range(k, 0, -1):
            row, prev = ways[j], ways[j - 1]
            for s in range(total, v - 1, -1):
                row[s] += prev[s - v]
    return sum(ways[k]) / math.comb(len(unseen), k)


def independent_count(prof: Profile, unseen: Sequence[Card], counts: Sequence[int], total: int, n: int, seed: int) -> float:
    """The share of ``n`` deals (``random.sample`` of the unseen cards) where some other hand is at most ``total``."""
    rng = random.Random(seed)
    worth = [prof.values[c] for c in unseen]  # only the cards' values matter: sample those
    need = sum(counts)
    cuts = [(sum(counts[:i]), sum(counts[:i + 1])) for i in range(len(counts))]
    caught = 0
    for _ in range(n):
        drawn = rng.sample(worth, need)
        for at, end in cuts:
            if sum(drawn[at:end]) <= total:
                caught += 1
                break
    return caught / n


@pytest.mark.parametrize("key", ["nepali-games", "dashain", "cardrulesplus"])
def test_first_turn_odds_against_one_player_match_the_exact_count(key: str) -> None:
    prof = profile(key, players=2)
    figures = []
    for seed in range(4):
        deal = Deal.new(prof, seed)
        view = deal.public_view(deal.turn)
        got = odds.call_odds(prof, view, samples=20_000, playouts=0)
        exact = exact_one_opponent(prof, view.unseen, 5, got.total)
        assert abs(got.caught - exact) <= POINT, (seed, got.caught, exact)
        figures.append(exact)
    assert any(0.05 < x < 0.95 for x in figures)  # first turns with a real question in them


@pytest.mark.parametrize("key", ["nepali-games", "dashain", "cardrulesplus"])
def test_first_turn_odds_at_four_seats_match_a_large_independent_count(key: str) -> None:
    prof = profile(key)
    for seed in range(2):
        deal = Deal.new(prof, seed)
        view = deal.public_view(deal.turn)
        got = odds.call_odds(prof, view, samples=20_000, playouts=0)
        ref = independent_count(prof, view.unseen, [5, 5, 5], got.total, 200_000, seed)
        assert abs(got.caught - ref) <= POINT, (seed, got.caught, ref)


def test_cli_odds_match_the_exact_count_for_one_player() -> None:
    prof = profile("cardrulesplus", players=2)
    hand = cards("9♠ 5♥")
    unseen = [c for c in range(52) if c not in hand]
    for k in (1, 2, 3):
        got = odds.caught_chance(prof, hand, [k])
        assert abs(got.caught - exact_one_opponent(prof, unseen, k, 14)) <= POINT


@pytest.mark.parametrize("key", ["nepali-games", "dashain", "cardrulesplus"])
def test_chart_figures_match_a_large_independent_count(key: str) -> None:
    prof = profile(key)
    chart = odds.chart(prof)
    assert chart.samples == odds.CHART_SAMPLES and chart.counts == odds.CHART_COUNTS
    assert len(chart.caught) == len(chart.totals) == len(chart.hands)
    for row, t in enumerate(chart.totals):
        assert sum(prof.values[c] for c in chart.hands[row]) == t
    picks = [(len(chart.totals) - 1, 0), (len(chart.totals) - 1, 1), (len(chart.totals) // 2, 1), (len(chart.totals) - 1, 2)]
    for row, col in picks:
        hand = chart.hands[row]
        unseen = [c for c in range(prof.deck_size) if c not in hand]
        k = chart.counts[col]
        ref = independent_count(prof, unseen, [k] * (prof.players - 1), chart.totals[row], 100_000, row * 10 + col)
        # three standard errors of the chart's own sample (1.5 points at worst, at 10,000 deals)
        margin = 3 * math.sqrt(max(ref * (1 - ref), 0.01) / chart.samples) + 0.002
        assert abs(chart.caught[row][col] - ref) <= margin, (chart.totals[row], k, chart.caught[row][col], ref)


def test_chart_rows_rise_with_the_total_and_fall_with_the_cards_held() -> None:
    chart = odds.chart(profile("cardrulesplus"), samples=4000)
    for row in chart.caught:
        assert all(a >= b for a, b in zip(row, row[1:]))  # more cards each, fewer low hands
    for col in range(len(chart.counts)):
        column = [row[col] for row in chart.caught]
        assert all(b >= a - 0.01 for a, b in zip(column, column[1:]))


def test_chart_hands_are_the_fewest_cards_that_make_the_total() -> None:
    assert odds.chart_hand(profile("nepali-games"), 0) == ()  # the empty hand a draw-first profile allows
    assert odds.chart_hand(profile("nepali-games"), 4) == tuple(cards("4♠"))
    assert odds.chart_hand(profile("cardrulesplus"), 0) == tuple(cards("J♠"))
    assert odds.chart_hand(profile("cardrulesplus"), 12) == tuple(cards("10♠ 2♠"))
    assert odds.chart_hand(profile("dashain"), 1) == tuple(cards("A♠"))
    assert odds.chart_totals(profile("dashain")) == tuple(range(1, 11))
    assert odds.chart_totals(profile("nepali-games")) == tuple(range(0, 6))
    assert odds.chart_totals(profile("cardrulesplus")) == tuple(range(0, 13))


def test_a_sure_call_is_worth_the_others_hands() -> None:
    # an empty hand against three single cards: never caught (no card is worth 0), and
    # the caller collects the three cards, worth the pack's average card each
    prof = profile("nepali-games")
    got = odds.caught_chance(prof, [], [1, 1, 1], samples=40_000)
    assert got.caught == 0.0
    mean = sum(prof.values[c] for c in range(52)) / 52
    assert got.call_value == pytest.approx(3 * mean, rel=0.02)


def test_a_certain_catch_costs_the_penalty() -> None:
    got = odds.caught_chance(profile("nepali-games"), cards("K♠ K♥ K♦ Q♠ Q♥"), [5, 5, 5], samples=2000)
    assert got.caught == 1.0 and got.call_value == -25
    crp = odds.caught_chance(profile("cardrulesplus", penalty="30"), cards("K♠ K♥ K♦ Q♠ Q♥"), [5, 5], samples=2000)
    assert crp.caught == 1.0 and crp.call_value == 30 and crp.measure == "points"


def test_call_odds_read_only_the_seat_s_view_and_repeat_exactly() -> None:
    deal = Deal.new(profile("dashain"), 21)
    while deal.turns < 6:
        deal.play(heuristic.choose(deal, "hard"))
    while deal.phase != "start":
        deal.play(heuristic.choose(deal, "hard"))
    a = odds.seat_odds(deal, samples=500, playouts=40)
    b = odds.call_odds(deal.profile, deal.public_view(deal.turn), samples=500, playouts=40)
    assert a == b and a.playouts == 40 and a.play_on_value is not None and a.samples == 500
    # the real hidden cards changed, the view not: the same figures
    other = deal.copy()
    other.stock.reverse()
    assert odds.seat_odds(other, samples=500, playouts=40) == a
    deal.play(next(x for x in deal.legal_actions() if x.kind == "throw"))  # dashain: now the pick
    with pytest.raises(ValueError, match="start of its turn"):
        odds.seat_odds(deal)


def run(argv: list[str]) -> tuple[int, str]:
    out = StringIO()
    return cli.main(argv, out=out), out.getvalue()


def test_cli_odds_json_has_the_chance_and_the_sample_size() -> None:
    rc, out = run(["odds", "--profile", "nepali-games", "--hand", "A♠ 2♥", "--counts", "3,3,4", "--json"])
    assert rc == 0
    data = json.loads(out)
    assert 0 <= data["caught"] <= 1 and data["samples"] == odds.ODDS_SAMPLES
    assert data["total"] == 3 and data["counts"] == [3, 3, 4] and data["profile"] == "nepali-games"
    rc, again = run(["odds", "--profile", "nepali-games", "--hand", "AS 2H", "--counts", "3,3,4", "--json"])
    assert json.loads(again)["caught"] == data["caught"]  # seeded: the same figure every run


def test_cli_odds_options_change_the_values() -> None:
    base = json.loads(run(["odds", "--hand", "K♠ 2♥", "--counts", "2,2", "--samples", "5000", "--json"])[1])
    courts = json.loads(run(["odds", "--hand", "K♠ 2♥", "--counts", "2,2", "--samples", "5000", "--json",
                             "--option", "courts=11-12-13"])[1])
    assert base["total"] == 12 and courts["total"] == 15
    assert courts["profile"] == "nepali-games(players=3,courts=11-12-13)"
    prof = profile("nepali-games", players=3, courts="11-12-13")
    ref = independent_count(prof, [c for c in range(52) if c not in cards("K♠ 2♥")], [2, 2], 15, 50_000, 1)
    assert abs(courts["caught"] - ref) <= 0.02 and abs(base["caught"] - courts["caught"]) > 0.02
    assert base["call_allowed"] is False  # 12 is over the standard limit of 5


def test_cli_odds_reads_seen_cards_and_text_output() -> None:
    rc, out = run(["odds", "--profile", "dashain", "--hand", "5♠ 4♥", "--counts", "2,2", "--seen", "A♣ A♦ A♥ A♠", "--samples", "3000"])
    assert rc == 0 and "caught" in out and "3000 sampled deals" in out and "total 9" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["odds", "--hand", "A♠ ZZ", "--counts", "3"], "--hand: not a card: 'ZZ'"),
        (["odds", "--hand", "A♠ A♠", "--counts", "3"], "A♠ is given twice"),
        (["odds", "--hand", "A♠", "--counts", "3", "--seen", "A♠"], "A♠ is given twice"),
        (["odds", "--hand", "Jk1", "--counts", "3"], "not in the 52-card pack"),
        (["odds", "--profile", "cardrulesplus", "--hand", "A♠", "--counts", "2,2,2,2,2"],
         "--counts: 5 counts make a table of 6 players (you and 5 others); cardrulesplus is played by 2 to 5"),
        (["odds", "--hand", "A♠", "--counts", "20,20,20"], "--counts: 20 cards, but a player of nepali-games holds at most 5"),
        (["odds", "--hand", "A♠", "--counts", "5,5,5", "--seen", " ".join(f"{r}{s}" for s in "♥♣♦" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())],
         "only 12 are left"),
        (["odds", "--hand", "A♠", "--counts", "3", "--option", "colour=red"], "no option 'colour'"),
    ],
)
def test_cli_odds_bad_input_is_one_line_and_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _ = run(argv)
    err = capsys.readouterr().err
    assert rc == 2 and message in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    "argv",
    [["odds", "--hand", "A♠", "--counts", "0"], ["odds", "--hand", "A♠", "--counts", "a,b"],
     ["odds", "--hand", "A♠", "--counts", "1,1,1,1,1,1"], ["odds", "--hand", "A♠", "--counts", "3", "--samples", "0"],
     ["odds", "--counts", "3"]],
)
def test_cli_odds_bad_arguments_exit_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(argv, out=StringIO())
    assert exc.value.code == 2
