"""A deal played with real cards, settled from its show (dhumbal.matches.tally, ``python -m dhumbal score``).

The settlement must be exactly the one a deal the engine plays gets. Held here:
every scoring fact of the seeds and every worked example of the rules pages
(their numbers, typed from the sources, not worked out by the engine), through
the function and through the command line; and bot-played matches, each deal
settled again from its final hand totals (or its cards) and compared with the
engine's own outcome, running scores and eliminations. Then every kind of bad
input, refused with one clear sentence and nothing booked.
"""

from __future__ import annotations

import itertools
import json
import os
import random
from io import StringIO
from pathlib import Path
from typing import Any

import pytest

from dhumbal.bots.botlevels import policy
from dhumbal.cli import main
from dhumbal.core import cards as C
from dhumbal.core.profiles import Profile, find_profile
from dhumbal.matches.match import Match
from dhumbal.matches.tally import TallyError, hand_range, pack_can_hold, settle_deal
from dhumbal.play.playout import play_out
from dhumbal.worked.examples import load_file
from tests.engine.rules_kit import profile

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def score(*argv: str) -> tuple[int, str]:
    out = StringIO()
    try:
        rc = main(["score", *argv], out=out)
    except SystemExit as exc:  # argparse's own refusals (its message is one line: cli.common.Parser)
        rc = int(exc.code or 0)
    return rc, out.getvalue()


def score_json(*argv: str) -> dict[str, Any]:
    rc, text = score(*argv, "--json")
    assert rc == 0, text
    data: dict[str, Any] = json.loads(text)
    return data


# -- the seeds' scoring facts ---------------------------------------------------------------


def test_seed_001_four_seats_4_12_19_7_nobody_caught() -> None:
    t = settle_deal(profile("nepali-games", players=4), dealer=3, caller=0, hands=[4, 12, 19, 7])
    j = t.to_json()
    assert j["caught"] is False and j["winner"] == 0
    assert j["took"] == [0, 12, 19, 7]
    assert j["paid"] == [38, -12, -19, -7]
    assert sum(j["paid"]) == 0
    c = score_json("--players", "4", "--dealer", "3", "--caller", "0", "--hands", "4,12,19,7")
    assert (c["caught"], c["winner"], c["took"], c["paid"], c["scores"]) == (False, 0, [0, 12, 19, 7], [38, -12, -19, -7], [38, -12, -19, -7])


def test_seed_001_and_000_a_tie_catches_the_caller() -> None:
    # 001: two seats both on 4, the caller caught: Took 25, 0; Paid -25, +25 (000: the same on 5, not 30, not a tie)
    for total in (4, 5):
        t = settle_deal(profile("nepali-games", players=2), dealer=1, caller=0, hands=[total, total])
        j = t.to_json()
        assert (j["caught"], j["winner"], j["hands"], j["took"], j["paid"]) == (True, 1, [total, total], [25, 0], [-25, 25])
        assert t.reasons("en")[0][1].startswith(f"caught: {total} against {total} — a tie goes against the caller")
        c = score_json("--players", "2", "--dealer", "1", "--caller", "0", "--hands", f"{total},{total}")
        assert (c["caught"], c["winner"], c["took"], c["paid"]) == (True, 1, [25, 0], [-25, 25])


def test_seed_002_asha_collects_44_and_chandra_pays_all_of_it() -> None:
    # Asha 6, Bikash 14, Chandra 9, Dipa 21
    won = score_json("--profile", "dashain", "--players", "4", "--dealer", "3", "--caller", "0", "--hands", "6,14,9,21")
    assert (won["caught"], won["winner"], won["paid"]) == (False, 0, [44, -14, -9, -21])
    assert won["money"] == ["2.20", "-0.70", "-0.45", "-1.05"]
    caught = score_json("--profile", "dashain", "--players", "4", "--dealer", "1", "--caller", "2", "--hands", "6,14,9,21")
    assert (caught["caught"], caught["winner"], caught["paid"]) == (True, 0, [44, 0, -44, 0])
    assert caught["money"] == ["2.20", "0.00", "-2.20", "0.00"]


def test_seeds_003_004_cumulative_points_penalties_and_elimination() -> None:
    crp = profile("cardrulesplus", players=3)
    won = settle_deal(crp, 0, 1, [12, 3, 10], [10, 20, 30]).to_json()
    assert won["points"] == [12, 0, 10] and won["scores"] == [22, 20, 40] and won["paid"] == [0, 0, 0]
    caught = settle_deal(crp, 0, 0, [5, 5, 9], [10, 20, 30]).to_json()  # a tie: only the caller scores
    assert caught["caught"] is True and caught["winner"] is None and caught["points"] == [25, 0, 0]
    house = settle_deal(crp.with_options(penalty="30"), 0, 0, [5, 3, 3]).to_json()
    assert house["points"] == [30, 0, 0]
    double = crp.with_options(**{"double-penalty": "on"})
    assert settle_deal(double, 0, 0, [9, 3, 12]).to_json()["points"] == [50, 0, 0]  # undercut by 6
    assert settle_deal(double, 0, 0, [9, 4, 12]).to_json()["points"] == [25, 0, 0]  # by 5: not more than 5
    out = settle_deal(crp, 0, 1, [12, 3, 10], [88, 40, 95]).to_json()  # at or over 100: out at once
    assert out["scores"] == [100, 40, 105] and out["eliminated"] == [0, 2]


def test_the_turn_cap_nobody_penalised_ties_from_the_dealers_left() -> None:
    t = settle_deal(profile("nepali-games", players=3), dealer=2, caller=None, hands=[9, 6, 6])
    j = t.to_json()
    assert (j["reason"], j["caught"], j["winner"], j["took"], j["paid"]) == ("cap", None, 1, [9, 0, 6], [-9, 15, -6])
    why = dict(t.reasons("en"))
    assert "comes first counting from the dealer's left" in why[1]
    assert "but Seat 2 comes first" in why[2]


# -- every worked example of the rules pages ------------------------------------------------


def _settling_examples() -> list[Path]:
    found = []
    for path in sorted(EXAMPLES.glob("*.toml")):
        w = load_file(path)
        if w.outcome is not None and any(k in w.steps[-1].step.expect for k in ("took", "paid", "score", "money", "caught")):
            found.append(path)
    return found


SETTLING = _settling_examples()


def test_the_rules_pages_have_their_settling_examples_here() -> None:
    names = {p.stem for p in SETTLING}
    assert {"settle-nobody-caught", "settle-caller-caught", "dashain-asha-calls", "dashain-chandra-caught",
            "crp-caught-caller", "crp-elimination", "turn-cap", "k-pair-discard", "empty-hand"} <= names


@pytest.mark.parametrize("path", SETTLING, ids=lambda p: p.stem)
def test_every_settling_example_through_the_function_and_the_command(path: Path) -> None:
    w = load_file(path)
    o = w.outcome
    assert o is not None
    expect = w.steps[-1].step.expect
    seat = {name: i for i, name in enumerate(w.names)}
    tally = settle_deal(w.profile, w.dealer, o.caller, list(o.hands), w.scores_before)
    argv = ["--profile", w.profile.canonical(), "--players", str(len(w.names)), "--dealer", str(w.dealer),
            "--caller", "none" if o.caller is None else str(o.caller), "--hands", ",".join(map(str, o.hands))]
    if w.scores_before is not None:
        argv += ["--scores", ",".join(map(str, w.scores_before))]
    for data in (tally.to_json(), score_json(*argv)):
        for key, want in expect.items():
            if key in ("took", "paid", "money"):
                for name, value in want.items():
                    assert data[key][seat[name]] == (str(value) if key == "money" else value), (path.stem, key, name)
            elif key == "hand_row":
                for name, value in want.items():
                    assert data["hands"][seat[name]] == value
            elif key == "score":
                for name, value in want.items():
                    assert data["scores"][seat[name]] == value
            elif key == "caught":  # with no caller, nobody is caught: null, as the command documents
                assert data["caught"] is (want if o.caller is not None else None)
            elif key == "winner":
                assert data["winner"] == (None if want == "none" else seat[want])
            elif key == "eliminated":
                assert data["eliminated"] == [seat[n] for n in want]


# -- bot-played deals, settled again from their show --------------------------------------------

#: The tables the played deals come from: every profile, its settlements, tie orders and
#: house rules that touch the score (seats 2 to 6, penalties, counterclockwise play).
TABLES: list[tuple[str, dict[str, str]]] = [
    ("nepali-games", {"players": "4"}),
    ("nepali-games", {"players": "2", "limit": "10", "penalty": "30"}),
    ("nepali-games", {"players": "6", "cards": "7", "courts": "11-12-13", "jokers": "on", "rounds": "2"}),
    ("dashain", {"players": "4", "rounds": "50"}),
    ("dashain", {"players": "6", "limit": "5", "money": "0.25", "rounds": "2"}),
    ("dashain", {"players": "2", "first-round-call": "on", "rounds": "50"}),
    ("cardrulesplus", {"players": "4"}),
    ("cardrulesplus", {"players": "5", "direction": "counterclockwise", "double-penalty": "on", "jokers": "on"}),
    ("cardrulesplus", {"players": "3", "limit": "7", "penalty": "30", "courts": "11-12-13"}),
]
#: Deals per profile in ``make check``; DHUMBAL_TALLY_DEALS asks for more.
DEALS = int(os.environ.get("DHUMBAL_TALLY_DEALS", "2000"))


def _played_matches(key: str, deals: int) -> int:
    """Bots play matches of every table of ``key`` (easy bots call on the limit and are caught
    often; medium and hard ones seldom), and each deal is settled again from its show."""
    tables = [(p, o) for p, o in TABLES if p == key]
    levels = [policy("easy"), policy("medium")]
    rng = random.Random(key)
    checked = 0
    match_no = 0
    while checked < deals:
        base, options = tables[match_no % len(tables)]
        prof = find_profile(base).with_options(**options)
        m = Match(prof, seed=f"tally/{key}/{match_no}", first_dealer=rng.randrange(prof.players))
        seats = [rng.choice(levels) for _ in range(prof.players)]
        match_no += 1
        while not m.is_over() and checked < deals:
            before = list(m.scores)
            out_before = list(m.eliminated)
            deal = m.start_deal()
            dealer = m.dealers[-1]
            play_out(deal, [seats[s] for s in m.seating])
            m.finish_deal()
            o = deal.outcome
            assert o is not None
            n = prof.players
            by_seat: list[Any] = [None] * n
            cards: list[Any] = [None] * n
            for i, s in enumerate(m.seating):
                by_seat[s] = o.hands[i]
                cards[s] = list(deal.hands[i])
            caller = None if o.caller is None else m.seating[o.caller]
            if not out_before:  # every seat plays: the one-deal function and its running scores
                for hands in (by_seat, cards):
                    t = settle_deal(prof, dealer, caller, hands, before)
                    assert t.outcome == o
                    assert t.seating == tuple(m.seating)
                    assert list(t.after) == m.scores
                    assert list(t.eliminated) == m.eliminated
            # mid-match (players already out): the same step the score pad takes
            replay = Match(prof, first_dealer=m.first_dealer, scores=before, eliminated=out_before,
                           dealers=m.dealers[:-1], deals=m.deals[:-1])
            from dhumbal.matches.tally import tally_next

            t = tally_next(replay, caller, by_seat)
            assert (t.outcome, t.dealer, list(t.after), list(t.eliminated)) == (o, dealer, m.scores, m.eliminated)
            checked += 1
    return checked


@pytest.mark.parametrize("key", ["nepali-games", "dashain", "cardrulesplus"])
def test_bot_played_deals_settle_identically_from_their_show(key: str) -> None:
    assert _played_matches(key, DEALS) == DEALS


def test_played_deals_through_the_command_line() -> None:
    """A few played deals per profile through ``python -m dhumbal score --json`` as well."""
    for key in ("nepali-games", "dashain", "cardrulesplus"):
        prof = find_profile(key)
        bot = policy("easy")
        for i in range(12):
            m = Match(prof, seed=f"cli/{key}/{i}", first_dealer=i % prof.players)
            deal = m.start_deal()
            play_out(deal, bot)
            m.finish_deal()
            o = deal.outcome
            assert o is not None
            caller = "none" if o.caller is None else str(m.seating[o.caller])
            hands = ",".join(str(o.hands[m.seating.index(s)]) for s in range(prof.players))
            data = score_json("--profile", key, "--players", str(prof.players), "--dealer", str(m.dealers[0]),
                              "--caller", caller, "--hands", hands)
            assert data["scores"] == m.scores
            assert data["winner"] == (None if o.winner is None else m.seating[o.winner])
            assert data["caught"] == (None if o.caller is None else o.caught)


# -- what a hand can hold ----------------------------------------------------------------------


@pytest.mark.parametrize(("key", "options", "low", "high"), [
    ("nepali-games", {}, 0, 50),  # an empty hand is possible: take first, then throw
    ("nepali-games", {"cards": "7"}, 0, 70),
    ("nepali-games", {"courts": "11-12-13"}, 0, 64),
    ("dashain", {}, 1, 64),  # a pick always follows the throw: an ace at least
    ("cardrulesplus", {}, 0, 50),  # a lone jack is worth 0
    ("cardrulesplus", {"courts": "11-12-13"}, 1, 64),
])
def test_hand_range(key: str, options: dict[str, str], low: int, high: int) -> None:
    assert hand_range(find_profile(key).with_options(**options)) == (low, high)


def _naive_can_hold(prof: Profile, totals: list[int]) -> bool:
    """Every way to deal the hands, card by card: the oracle for small tables."""
    deck = C.full_deck(jokers=prof.jokers)
    fewest = 0 if prof.draw_first else 1
    values = sorted({prof.value(c) for c in deck})
    counts = {v: sum(1 for c in deck if prof.value(c) == v) for v in values}

    def hands(total: int) -> list[tuple[int, ...]]:
        out = []
        for k in range(fewest, prof.hand_size + 1):
            for combo in itertools.combinations_with_replacement(values, k):
                if sum(combo) == total:
                    out.append(combo)
        return out

    def fit(i: int, left: dict[int, int]) -> bool:
        if i == len(totals):
            return True
        for hand in hands(totals[i]):
            need = {v: hand.count(v) for v in set(hand)}
            if all(left[v] >= k for v, k in need.items()):
                for v, k in need.items():
                    left[v] -= k
                ok = fit(i + 1, left)
                for v, k in need.items():
                    left[v] += k
                if ok:
                    return True
        return False

    return fit(0, dict(counts))


@pytest.mark.parametrize(("key", "options", "rounds"), [
    ("nepali-games", {"players": "2"}, 60), ("dashain", {"players": "2"}, 60),
    ("cardrulesplus", {"players": "2", "jokers": "on"}, 60), ("nepali-games", {"players": "2", "courts": "11-12-13"}, 60),
])
def test_the_pack_search_agrees_with_dealing_every_way(key: str, options: dict[str, str], rounds: int) -> None:
    prof = find_profile(key).with_options(**options)
    low, high = hand_range(prof)
    rng = random.Random(key + str(options))
    for _ in range(rounds):
        totals = [rng.randint(max(low, high - 14), high) for _ in range(prof.players)]
        assert pack_can_hold(prof, totals) == _naive_can_hold(prof, totals), totals


def test_totals_the_pack_cannot_hold_are_refused() -> None:
    with pytest.raises(TallyError) as exc:
        settle_deal(profile("nepali-games", players=4), 0, None, [50, 50, 50, 50])  # 20 cards worth 10; the pack has 16
    assert exc.value.code == "impossible"
    settle_deal(profile("nepali-games", players=4), 0, None, [49, 49, 49, 49])  # 16 tens and four nines: possible


# -- bad input: one clear sentence, nothing booked ------------------------------------------------

BAD: list[tuple[list[str], str]] = [
    (["--players", "4", "--dealer", "3", "--caller", "0", "--hands", "4,12,19"], "3 hands for 4 players"),
    (["--players", "4", "--dealer", "3", "--caller", "0", "--hands", "4,12,19,7,8"], "5 hands for 4 players"),
    (["--players", "4", "--dealer", "3", "--caller", "0", "--hands", "4,,19,7"], "Seat 1 has no hand total"),
    (["--players", "4", "--dealer", "4", "--caller", "0", "--hands", "4,12,19,7"], "there is no seat 4"),
    (["--players", "4", "--dealer", "3", "--caller", "4", "--hands", "4,12,19,7"], "there is no seat 4"),
    (["--players", "4", "--dealer", "3", "--caller", "0", "--hands=-4,12,19,7"], "Seat 0: a hand total cannot be negative"),
    (["--players", "4", "--dealer", "3", "--caller", "0", "--hands", "4,12,51,7"], "Seat 2: no hand here can hold 51; the most is 50"),
    (["--profile", "dashain", "--players", "4", "--dealer", "3", "--caller", "0", "--hands", "6,0,9,21"], "at least 1"),
    (["--players", "4", "--dealer", "3", "--caller", "0", "--hands", "50,50,50,50"], "cannot all be in the hands at once"),
    (["--players", "4", "--dealer", "3", "--caller", "1", "--hands", "4,12,19,7"], "Seat 1 called on 12, but a call needs a hand of 5 or less"),
    (["--profile", "dashain", "--players", "4", "--dealer", "3", "--caller", "1", "--hands", "6,11,9,21"], "a hand of 10 or less"),
    (["--profile", "dashain", "--players", "4", "--dealer", "3", "--caller", "none", "--hands", "6,14,9,21"], "only ends with a call"),
    (["--profile", "cardrulesplus", "--players", "4", "--dealer", "3", "--caller", "none", "--hands", "6,14,9,21"], "only ends with a call"),
    (["--players", "4", "--dealer", "3", "--caller", "0", "--hands", "4,12,19,7", "--option", "colour=red"], "These rules have no setting called colour."),
    (["--players", "4", "--dealer", "3", "--caller", "0", "--hands", "4,12,19,7", "--option", "limit=99"], "Call at or below: 99 is not allowed here"),
    (["--players", "7", "--dealer", "3", "--caller", "0", "--hands", "4,12,19,7,1,1,1"], "Players: 7 is not allowed here (allowed: 2–6)."),
    (["--players", "3", "--dealer", "0", "--caller", "0", "--hands", "A♠ 3♠,2♥ A♠,K♠"], "A♠ is in more than one hand"),
    (["--players", "3", "--dealer", "0", "--caller", "0", "--hands", "A♠ 3♠,2♥ Jk1,K♠"], "Seat 1: “Jk1” is not a card of this pack"),
    (["--players", "2", "--dealer", "0", "--caller", "0", "--hands", "A♠,2♥ 2♦ 3♦ 4♦ 5♦ 6♦"], "Seat 1 holds 6 cards"),
    (["--players", "3", "--dealer", "0", "--caller", "0", "--hands", "2,3,1x"], "“1x” is not a hand total, cards, or out"),
    (["--players", "3", "--dealer", "0", "--caller", "0", "--hands", "2,3,4", "--scores", "1,2"], "2 running scores for 3 players"),
    (["--players", "3", "--dealer", "0", "--caller", "0", "--hands", "2,3,4", "--scores", "1,2,3"], "add up to 6"),
    (["--profile", "crp", "--players", "3", "--dealer", "0", "--caller", "0", "--hands", "2,3,4", "--scores", "1,-2,3"], "cannot be negative"),
    (["--profile", "crp", "--players", "3", "--dealer", "0", "--caller", "0", "--hands", "2,3,4", "--scores", "1,100,3"], "Seat 1 already has 100 points"),
    (["--players", "3", "--dealer", "0", "--caller", "x", "--hands", "2,3,4"], "'x' is not a whole number"),
    (["--players", "3", "--dealer", "0", "--hands", "2,3,4"], "--caller"),
]


@pytest.mark.parametrize(("argv", "says"), BAD, ids=[says for _, says in BAD])
def test_bad_input_is_one_clear_line_and_exit_2(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = score(*argv)
    err = capsys.readouterr().err
    assert rc == 2
    assert out == ""
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and says in lines[0], err


def test_a_refused_deal_books_nothing() -> None:
    prof = profile("nepali-games", players=3)
    m = Match(prof, first_dealer=0)
    from dhumbal.matches.tally import tally_next

    with pytest.raises(TallyError) as exc:
        tally_next(m, 1, [4, 12, 19])
    assert exc.value.code == "over-limit" and exc.value.deal == 1 and exc.value.seat == 1
    assert (m.scores, m.deals, m.dealers, m.eliminated) == ([0, 0, 0], [], [], [])
    tally_next(m, 0, [4, 12, 19])
    assert m.scores == [31, -12, -19] and m.dealers == [0]


def test_every_refusal_reads_in_every_language() -> None:
    from dhumbal.matches.tally import ERRORS

    params = {"seat": 1, "low": 2, "high": 6, "count": 3, "players": 4, "text": "x", "number": 7, "total": 12,
              "max": 50, "cards": 5, "min": 1, "limit": 5, "card": "A♠", "score": 104, "sum": 6, "zero": 0}
    for code in ERRORS:
        for lang in ("en", "fr", "nl", "ne"):
            text = TallyError(code, **params).text(lang, ["Asha", "Bina", "Chandra", "Dipa"])
            assert text and "{" not in text


def test_the_human_table_says_why_in_the_engines_words() -> None:
    rc, out = score("--players", "2", "--dealer", "1", "--caller", "0", "--hands", "4,4")
    assert rc == 0
    assert "Seat 0 is caught: Seat 1 also holds 4, and a tie goes against the caller." in out
    assert "Seat 0: caught: 4 against 4 — a tie goes against the caller; takes the penalty, 25, in place of the hand" in out
    lines = out.splitlines()
    assert lines[3].split() == ["seat", "hand", "took", "paid", "total"]
    assert lines[4].split() == ["0", "4", "25", "−25", "−25"]
    assert lines[5].split() == ["1", "4", "0", "+25", "+25"]
