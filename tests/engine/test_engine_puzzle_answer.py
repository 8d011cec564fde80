"""A puzzle's answer in words (dhumbal.worked.puzzleanswer, dhumbal.trainer.deciding): the deciding fact, readable figures, nothing hidden.

The review found explanations that never named the fact a position turns on
(ng-2-10-57 never named Chandra's 5♦), figures such as "± 0.0", and a
"Play from here" that continued the real mined deal. Here: each deciding
fact on a position that has it; the figures as whole points, never a
standard error; and twins (the same puzzle with the cards the reader cannot
see shuffled among their places) give the same words and the same position
to play from, so nothing the page holds depends on a hidden card.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

from dhumbal.core import cards as C
from dhumbal.play.action import parse_action
from dhumbal.trainer.robust import OPPONENTS
from dhumbal.worked.puzzleanswer import answer_lines
from dhumbal.worked.puzzles import Puzzle, load_file, load_text, prompt, puzzle_files
from dhumbal.worked.puzzletext import title_text
from tests.engine.puzzlecases import CHANDRA_DEAL

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"


def grade_block(moves: list[tuple[str, float, float, float]], measure: str = "paid",
                profile: str = "nepali-games(players=3)") -> str:
    """A made-up grade: each model grades ``moves`` (action, lead, its standard error, the share of deals
    that reached the reader's next turn) alike; the reader's lead over each move grows by a point per model."""
    out = ["[puzzle.grade]", 'seed = "s"', f'profile = "{profile}"', f'measure = "{measure}"', 'reader = "expert"',
           'solvers = ["expert"]']
    for k, model in enumerate(OPPONENTS):
        out += ["", f"[puzzle.grade.{model}]", "samples = 200", "moves = ["]
        for action, diff, se, later in moves:
            lead = diff + k if diff else 0.0
            out.append(f'  {{ action = "{action}", samples = 200, mean = {-lead}, se = 0.4, diff = {lead}, diff_se = {se}, '
                       f"won = 0.3, caught = 0.02, catch = 0.1, hand = 5.0, later = {later} }},")
        out.append("]")
    return "\n".join(out) + "\n"


CHANDRA_ON_FIVE = CHANDRA_DEAL + """\
answer = "throw 4♥"

[puzzle.generated]
version = 2
seed = 2
deal = "2/10"
move = 57

""" + grade_block([("throw 4♥", 0.0, 0.0, 0.02), ("throw 2♦", 2.3, 0.1, 0.02), ("throw A♠", 3.0, 0.1, 0.02)])


def chandra() -> Puzzle:
    return load_text(CHANDRA_ON_FIVE, "ng-2-10-57.toml")


def test_the_known_hand_that_calls_next_is_named_first() -> None:
    puzzle = chandra()
    lines = answer_lines(puzzle, None, "en", puzzle.names)
    assert lines["best"] == "Best: throw 4♥."
    assert lines["why"][0] == ("Chandra holds only 5♦, picked up in plain view: 5 points is within the limit of 5, "
                               "so Chandra may call at the start of the next turn, before you move again.")
    assert any("the deal is likely to end before your next turn" in s.lower() for s in lines["why"])
    assert lines["why"][-1] == ("Against every kind of opponent tried, throw 4♥ leaves you at least 2 points "
                                "better off on average than throw 2♦.")


def test_figures_are_whole_points_and_never_a_standard_error() -> None:
    puzzle = chandra()
    mine = answer_lines(puzzle, parse_action("throw A♠"), "en", puzzle.names)
    assert mine["yours"] == ("Your move, throw A♠, leaves you at least 3 points worse off on average than the best, "
                             "whatever kind of opponent you face.")
    assert mine["why"][-1].endswith("at least 3 points better off on average than throw A♠.")
    assert mine["note"].startswith("Each move was played out to the end on at least 200 deals that fit what you have seen")
    best = answer_lines(puzzle, parse_action("throw 4♥"), "en", puzzle.names)
    assert best["yours"] == "Your move, throw 4♥, is the best one."
    for lines in (mine, best):
        text = " ".join([lines["yours"] or "", *lines["why"], lines["note"]])
        assert "±" not in text and ".0 " not in text


def test_the_tie_at_the_limit_and_the_call_s_odds() -> None:
    text = """\
title = "On the limit"
profile = "nepali-games"
seats = ["Asha", "Bikash", "Chandra"]
dealer = "Chandra"

[position]
Asha = "2♠ 3♥"
Bikash = 3
Chandra = 4
pile = "9♣"
turns = 12

[puzzle]
seat = "Asha"
theme = "tie"
lead = "Five."
answer = "take stock"

""" + grade_block([("take stock", 0.0, 0.0, 0.8), ("call", 4.0, 0.5, 0.0), ("take pile", 6.0, 0.5, 0.8)])
    puzzle = load_text(text, "tie.toml")
    why = answer_lines(puzzle, parse_action("call"), "en", puzzle.names)["why"]
    assert why[0] == "Your 5 is exactly the limit: any other hand of 5 or less catches your call, as a tie goes against the caller."
    assert why[1] == "A call now on 5 is caught in 2% of the deals that fit what you have seen."


def test_a_card_that_cannot_go_back() -> None:
    puzzle = load_file(PUZZLES / "ng-seven-cannot-go-back.toml")
    why = answer_lines(puzzle, None, "en", puzzle.names)["why"]
    assert why[0] == "7♥, taken from the pile, cannot go back this turn: whatever you throw, it stays in your hand."


def twin(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """``puzzle`` with the cards its reader cannot see shuffled among their places."""
    other = copy.deepcopy(puzzle)
    deal = other.deal
    view = deal.public_view(other.seat)
    unseen = set(view.unseen)
    places = [(deal.hands[s], i) for s in range(deal.players) if s != other.seat
              for i, c in enumerate(deal.hands[s]) if c in unseen]
    places += [(deal.stock, i) for i in range(len(deal.stock))]
    cards = [h[i] for h, i in places]
    shuffled = cards[:]
    while len(set(cards)) > 1 and shuffled == cards:
        rng.shuffle(shuffled)
    for (h, i), c in zip(places, shuffled):
        h[i] = c
    assert deal.public_view(other.seat) == view
    return other


def test_twins_give_the_same_words_and_the_same_position_to_play_from() -> None:
    rng = random.Random("twins")
    files = puzzle_files([PUZZLES])
    for path in rng.sample(files, 24) + [PUZZLES / "ng-seven-cannot-go-back.toml"]:
        puzzle = load_file(path)
        other = twin(puzzle, rng)
        assert other.deal.hands != puzzle.deal.hands or other.deal.stock != puzzle.deal.stock
        assert other.state() == puzzle.state(), path.name
        hidden = puzzle.state()
        real = [C.cards_text(h) for s, h in enumerate(puzzle.deal.hands) if s != puzzle.seat]
        assert [C.cards_text(h) for s, h in enumerate(state_hands(hidden)) if s != puzzle.seat] != real or not any(real)
        assert puzzle.grade is not None
        for lang in ("en", "ne"):
            assert prompt(other, lang) == prompt(puzzle, lang)
            assert title_text(other, ["call"], lang) == title_text(puzzle, ["call"], lang)
            for m in [None, *(g.action for g in puzzle.grade.moves)]:
                assert answer_lines(other, m, lang, other.names) == answer_lines(puzzle, m, lang, puzzle.names)


def state_hands(state: dict) -> list[list[int]]:  # type: ignore[type-arg]
    from dhumbal.play.records import state_from_json

    return state_from_json(state).hands
