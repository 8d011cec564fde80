"""Matches: dealer rotation, ledgers and cumulative points, elimination, standings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dhumbal.bots import botlevels
from dhumbal.matches.match import Match, Standing
from dhumbal.play.deal import Deal, PositionError
from tests.engine.rules_kit import act, position, profile


def play_match_deal(m: Match) -> Deal:
    d = m.start_deal()
    botlevels.play_deal(d, "medium")
    m.finish_deal()
    return d


def book(m: Match, hands: list[str], *, caller: int, turns: int = 10) -> None:
    """Start the match's next deal, but play it from an explicit position: ``caller`` calls."""
    real = m.start_deal()
    d = position(m.profile, hands, "8♠", dealer=real.dealer, turn=caller, turns=turns)
    assert d.players == len(m.seating)
    m.deal = d
    act(d, "call")
    m.finish_deal()


# -- dealer rotation -------------------------------------------------------------------


@pytest.mark.parametrize("key", ["nepali-games", "dashain", "cardrulesplus"])
def test_dealer_moves_left_each_deal(key: str) -> None:
    m = Match(profile(key, players=4, rounds=6), seed="rot", first_dealer=2)
    firsts = []
    for _ in range(6):
        d = play_match_deal(m)
        firsts.append(m.seating[d.turn if not d.history else d.history[0][0]])
    assert m.dealers == [2, 3, 0, 1, 2, 3]
    # the seat that went first in each deal is the dealer's left ...
    assert firsts == [3, 0, 1, 2, 3, 0]
    # ... and (dashain) the deal passes to the player who went first
    assert m.dealers[1:] == firsts[:-1]


def test_first_dealer_defaults_to_the_last_seat_so_seat_0_leads() -> None:
    m = Match(profile("nepali-games", players=3))
    d = m.start_deal()
    assert m.dealers == [2] and m.seating[d.turn] == 0


def test_direction_counterclockwise_reverses_play_order() -> None:
    m = Match(profile("cardrulesplus", players=4, direction="counterclockwise"), first_dealer=0)
    d = m.start_deal()
    assert m.seating[d.dealer] == 0
    # play goes 0 -> 3 -> 2 -> 1: the dealer's neighbour the other way round starts
    order = [m.seating[(d.turn + k) % 4] for k in range(4)]
    assert order == [3, 2, 1, 0]


def test_cardrulesplus_dealer_moves_clockwise_even_when_play_is_counterclockwise() -> None:
    # PROFILES.md, next dealer, cardrulesplus: "moves clockwise" (003: the deal passes
    # clockwise after each round), with no exception for the direction variant.
    m = Match(profile("cardrulesplus", players=4, direction="counterclockwise", rounds=3), seed=1, first_dealer=0)
    for _ in range(3):
        play_match_deal(m)
    assert m.dealers == [0, 1, 2]


def test_direction_clockwise_is_the_default() -> None:
    m = Match(profile("cardrulesplus", players=4), first_dealer=0)
    d = m.start_deal()
    assert [m.seating[(d.turn + k) % 4] for k in range(4)] == [1, 2, 3, 0]


# -- ledgers ---------------------------------------------------------------------------


def test_nepali_games_match_is_3_deals_ledger_from_0() -> None:
    m = Match(profile("nepali-games", players=3), seed=9)
    assert m.scores == [0, 0, 0]
    for _ in range(3):
        assert not m.is_over()
        play_match_deal(m)
    assert m.is_over() and len(m.deals) == 3
    assert sum(m.scores) == 0
    with pytest.raises(PositionError):
        m.start_deal()


def test_nepali_games_rounds_option() -> None:
    m = Match(profile("nepali-games", players=2, rounds=5), seed=9)
    for _ in range(5):
        play_match_deal(m)
    assert m.is_over() and len(m.deals) == 5


def test_nepali_games_ledger_adds_paid_and_highest_total_wins() -> None:
    m = Match(profile("nepali-games", players=4), first_dealer=3)
    book(m, ["A♠ A♥ 2♠", "5♣ 7♣", "9♦ K♦", "3♥ 4♥"], caller=0)
    assert m.scores == [38, -12, -19, -7]
    st = m.standings()
    assert [s.seat for s in st] == [0, 3, 1, 2] and [s.place for s in st] == [1, 2, 3, 4]


def test_standings_ties_share_a_place() -> None:
    m = Match(profile("nepali-games", players=4), scores=[10, -15, 10, -5])
    st = m.standings()
    assert [(s.seat, s.place) for s in st] == [(0, 1), (2, 1), (3, 3), (1, 4)]
    m = Match(profile("nepali-games", players=4), scores=[5, -5, 5, -5])
    assert [(s.seat, s.place) for s in m.standings()] == [(0, 1), (2, 1), (1, 3), (3, 3)]


def test_nepali_games_has_no_elimination() -> None:
    m = Match(profile("nepali-games", players=2), first_dealer=1, scores=[-150, 150])
    book(m, ["K♠ Q♠", "A♠"], caller=1)
    assert m.eliminated == [] and m.scores == [-170, 170]


def test_dashain_running_tally_until_the_table_ends() -> None:
    m = Match(profile("dashain", players=3), seed=4)
    for _ in range(8):
        play_match_deal(m)
    assert not m.is_over() and len(m.deals) == 8 and sum(m.scores) == 0


def test_dashain_tally_adds_payments_and_shows_money() -> None:
    m = Match(profile("dashain", players=4), first_dealer=3)
    book(m, ["A♠ 2♠ 3♥", "5♣ 9♦", "4♦ 5♦", "10♣ J♥"], caller=0)
    assert m.scores == [44, -14, -9, -21]
    assert [m.money(s) for s in range(4)] == ["2.20", "-0.70", "-0.45", "-1.05"]


# -- cumulative points and elimination -----------------------------------------------------


def test_cardrulesplus_points_accumulate_and_lowest_is_first() -> None:
    m = Match(profile("cardrulesplus", players=3), first_dealer=2, scores=[10, 20, 30])
    book(m, ["4♠ 2♥", "3♣ J♦ 2♦", "9♠ Q♥"], caller=0)  # caught: 25 to the caller only
    assert m.scores == [35, 20, 30]
    st = m.standings()
    assert [s.seat for s in st] == [1, 2, 0] and st[0].place == 1


def test_cumulative_standings_ties_share_a_place() -> None:
    m = Match(profile("cardrulesplus", players=3), scores=[40, 40, 12])
    assert [(s.seat, s.place) for s in m.standings()] == [(2, 1), (0, 2), (1, 2)]


def test_elimination_at_100_at_once() -> None:
    m = Match(profile("cardrulesplus", players=3), first_dealer=0, scores=[88, 40, 95])
    book(m, ["Q♠ 2♥", "A♣ 2♣", "K♦"], caller=1)
    assert m.scores == [100, 40, 105]
    assert sorted(m.eliminated) == [0, 2]  # 100 is out as well as 105, at that moment
    assert m.is_over()  # the last player standing
    st = m.standings()
    assert st[0] == Standing(1, 40, 1, False)
    assert {s.seat for s in st if s.eliminated} == {0, 2}


def test_99_is_not_eliminated() -> None:
    m = Match(profile("cardrulesplus", players=3), first_dealer=0, scores=[87, 40, 10])
    book(m, ["Q♠ 2♥", "A♣ 2♣", "K♦"], caller=1)
    assert m.scores == [99, 40, 20] and m.eliminated == [] and not m.is_over()


def test_eliminated_player_sits_out_the_next_deal() -> None:
    m = Match(profile("cardrulesplus", players=4), first_dealer=3, scores=[90, 0, 0, 0])
    book(m, ["Q♠ 2♥", "A♣", "K♦", "9♣"], caller=1)
    assert m.eliminated == [0] and not m.is_over()
    d = m.start_deal()
    assert m.seating == [1, 2, 3] and d.players == 3
    assert m.dealers == [3, 1]  # the deal would pass to seat 0, who is out: it goes on to seat 1


def test_cardrulesplus_lowest_after_an_agreed_number_of_rounds() -> None:
    m = Match(profile("cardrulesplus", players=3, rounds=2), seed=5)
    play_match_deal(m)
    play_match_deal(m)
    assert m.is_over()
    st = m.standings()
    assert st[0].score == min(m.scores)


def test_match_state_round_trips() -> None:
    m = Match(profile("cardrulesplus", players=3, rounds=4), seed=2)
    play_match_deal(m)
    m.start_deal()
    again = Match.from_json(m.to_json())
    assert again.to_json() == m.to_json()


# -- random matches --------------------------------------------------------------------



@settings(max_examples=15, deadline=None, database=None)
@given(
    key=st.sampled_from(["nepali-games", "cardrulesplus"]),
    players=st.integers(2, 5),
    rounds=st.integers(1, 4),
    seed=st.integers(0, 10**6),
    start=st.lists(st.integers(0, 99), min_size=5, max_size=5),
)
def test_random_matches_keep_the_books(key: str, players: int, rounds: int, seed: int, start: list[int]) -> None:
    p = profile(key, players=players, rounds=rounds)
    cumulative = p.settlement == "cumulative"
    scores = start[:players] if cumulative else [0] * players
    m = Match(p, seed=seed, scores=list(scores))
    expected = list(scores)
    while not m.is_over():
        d = m.start_deal()
        botlevels.play_deal(d, "medium")
        o = d.outcome
        assert o is not None
        for i, seat in enumerate(m.seating):
            expected[seat] += o.points[i] if cumulative else o.paid[i]
        m.finish_deal()
        assert m.scores == expected
    if cumulative:
        assert sorted(m.eliminated) == sorted(s for s in range(players) if m.scores[s] >= 100)
        assert len(m.deals) == rounds or len(m.active()) <= 1
    else:
        assert sum(m.scores) == 0 and len(m.deals) == rounds
    st_ = m.standings()
    assert sorted(s.seat for s in st_) == list(range(players))
    for a, b in zip(st_, st_[1:]):
        assert a.place <= b.place
        if a.place == b.place:
            assert a.score == b.score and a.eliminated == b.eliminated
    assert st_[0].place == 1


# -- a match from a position, and what every seat may know of it ------------------------


def test_a_match_from_a_position_seats_the_deal_and_plays_on_from_its_seed() -> None:
    deal = Deal.new(profile("dashain"), "pos", dealer=2)
    deal.apply(botlevels.choose(deal, "easy"))
    m = Match.from_position(deal, "pos")
    assert m.deal is deal and m.seating == [0, 1, 2, 3] and m.dealers == [2] and m.first_dealer == 2
    assert m.scores == [0, 0, 0, 0] and not m.is_over()
    botlevels.play_deal(deal, "easy")
    m.finish_deal()
    nxt = m.start_deal()
    assert m.dealers == [2, 3] and nxt.seed == "pos/1" and nxt.dealer == 3


def test_the_scoreboard_is_a_value_of_the_public_facts() -> None:
    m = Match(profile("cardrulesplus"), seed=4)
    botlevels.play_deal(m.start_deal(), "easy")
    m.finish_deal()
    board = m.scoreboard()
    assert board.scores == tuple(m.scores) and board.seating == tuple(m.seating)
    assert board.standings == tuple(m.standings()) and board.eliminated == tuple(m.eliminated)
    botlevels.play_deal(m.start_deal(), "easy")
    m.finish_deal()
    assert board.scores != tuple(m.scores)  # taken as it stood: the match moves on, the board does not
    assert not any(isinstance(v, (Deal, Match)) for v in vars(board).values())
