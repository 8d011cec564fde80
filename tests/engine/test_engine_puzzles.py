"""Puzzle files: read like worked examples, refused at the line of what is wrong, held to their grade.

Every puzzle file of the project is read and run here; their grades (which
take a second or two each) are reproduced and checked in
tests/site/test_site_puzzles.py, with the figures the site shows.
"""

from __future__ import annotations

import io
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from dhumbal.core import cards as C
from dhumbal.play.action import parse_action
from dhumbal.trainer.grading import MoveGrade, move_key
from dhumbal.worked.examples import ExampleError
from dhumbal.worked.puzzles import (
    THEMES,
    babel_extract,
    check,
    grade_puzzle,
    is_puzzle,
    load_file,
    load_text,
    prompt,
    puzzle_files,
)

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"

GOOD = """\
title = "An ace on the pile"
profile = "nepali-games"
seats = ["Asha", "Bikash", "Chandra"]
dealer = "Chandra"

[position]
Asha = "2♦ 9♠"
Bikash = 3
Chandra = 4
pile = "A♣"
turns = 12

[puzzle]
seat = "Asha"
theme = "take"
lead = "The ace is right there."
answer = "take pile"
"""


def line_of(text: str, needle: str) -> int:
    return next(i + 1 for i, ln in enumerate(text.splitlines()) if needle in ln)


def test_every_project_puzzle_reads_and_runs() -> None:
    files = puzzle_files([PUZZLES])
    assert len(files) >= 150
    themes = set()
    profiles = set()
    for f in files:
        puzzle = load_file(f)
        assert puzzle.deal.turn == puzzle.seat and not puzzle.deal.is_over
        assert puzzle.deal.is_legal(puzzle.answer, puzzle.seat)
        if puzzle.generated is None:
            themes.add(puzzle.theme)
            profiles.add(puzzle.profile.key)
    assert len(themes) >= 7 and themes <= set(THEMES)  # the hand-written fifteen's own themes
    assert profiles == {"nepali-games", "dashain", "cardrulesplus"}


def test_a_hand_given_as_a_number_is_dealt_the_same_way_every_time() -> None:
    first = load_text(GOOD, "ace.toml")
    again = load_text(GOOD, "ace.toml")
    assert [len(h) for h in first.deal.hands] == [2, 3, 4]
    assert first.deal.hands == again.deal.hands and first.deal.stock == again.deal.stock
    # the rest of the pack is shuffled too, so Play from here does not deal the stock in pack order
    assert first.deal.stock[-6:] != sorted(first.deal.stock[-6:])
    other = load_text(GOOD, "another-name.toml")
    assert other.deal.hands[1:] != first.deal.hands[1:]  # seeded by the file's name
    assert other.deal.hands[0] == first.deal.hands[0]


def test_the_lead_in_steps_make_the_position_and_what_the_table_saw() -> None:
    puzzle = load_file(PUZZLES / "da-three-of-clubs.toml")
    bikash = puzzle.names.index("Bikash")
    assert puzzle.deal.known[bikash] == [C.parse_card("3♣")]
    assert C.cards_text(puzzle.deal.offer_cards) == "2♦"
    assert puzzle.view().seat == puzzle.seat == puzzle.names.index("Asha")


CASES: dict[str, tuple[str, str, str]] = {
    "no-puzzle-table": (GOOD.split("[puzzle]")[0], "", "needs a [puzzle] table"),
    "unknown-key": (GOOD.replace('theme = "take"', 'theme = "take"\nhint = "x"'), 'hint = "x"', "unknown puzzle key 'hint'"),
    "unknown-theme": (GOOD.replace('theme = "take"', 'theme = "luck"'), 'theme = "luck"', "unknown theme 'luck'"),
    "missing-answer": (GOOD.replace('answer = "take pile"\n', ""), "[puzzle]", "needs 'answer'"),
    "seat-unknown": (GOOD.replace('seat = "Asha"', 'seat = "Zed"'), 'seat = "Zed"', "'Zed' is not a seat"),
    "seat-not-on-turn": (GOOD.replace('seat = "Asha"', 'seat = "Bikash"').replace("Bikash = 3", 'Bikash = "K♠ Q♠ 3♣"'),
                         'seat = "Bikash"', "it is Asha's turn, not Bikash's"),
    "reader-hand-hidden": (GOOD.replace('Asha = "2♦ 9♠"', "Asha = 2"), 'seat = "Asha"', "must be given as cards"),
    "answer-unreadable": (GOOD.replace('answer = "take pile"', 'answer = "jump"'), 'answer = "jump"', "cannot read answer 'jump'"),
    "answer-illegal": (GOOD.replace('answer = "take pile"', 'answer = "throw 9♠"'), 'answer = "throw 9♠"', "not a legal move here (must-take-first"),
    "answer-number": (GOOD.replace('answer = "take pile"', "answer = 3"), "answer = 3", "puzzle answer must be text"),
    "lead-too-long": (GOOD.replace('lead = "The ace is right there."', 'lead = "' + "x" * 700 + '"'), 'lead = "xxx', "the lead must be"),
    "count-too-large": (GOOD.replace("Bikash = 3", "Bikash = 30"), "Bikash = 30", "holds 0 to 10 cards"),
    "count-with-rest-pile": (GOOD.replace("turns = 12", 'turns = 12\nrest = "pile"'), 'rest = "pile"', "needs the rest of the pack in the stock"),
    "bad-card": (GOOD.replace('pile = "A♣"', 'pile = "A♣ 1X"'), 'pile = "A♣ 1X"', "not a card"),
    "too-many-hidden-cards": (GOOD.replace("Bikash = 3", "Bikash = 10").replace("Chandra = 4", "Chandra = 10")
                              .replace('dealer = "Chandra"', 'dealer = "Chandra"\noptions = { cards = 7 }'),
                              "Bikash = 10", "holds 10 cards"),
    "step-by-a-hidden-hand": (GOOD.replace("[puzzle]", '[[steps]]\nact = "Asha: take pile"\n\n[[steps]]\nact = "Asha: throw 9♠"\n\n'
                                           '[[steps]]\nact = "Bikash: take pile"\n\n[[steps]]\nact = "Bikash: throw K♠"\n\n[puzzle]'),
                              'act = "Bikash: throw K♠"', "card-not-in-hand"),
    "over-after-steps": (GOOD.replace("[puzzle]", '[[steps]]\nact = "Asha: call"\n\n[puzzle]').replace('Asha = "2♦ 9♠"', 'Asha = "2♦ A♠"'),
                         'seat = "Asha"', "the deal is over"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_bad_puzzle_is_refused_at_its_line(name: str) -> None:
    text, needle, says = CASES[name]
    with pytest.raises(ExampleError) as info:
        load_text(text, f"{name}.toml")
    err = info.value
    assert says in str(err), str(err)
    assert str(err).startswith(f"{name}.toml:")
    assert "\n" not in str(err)
    if needle:
        assert err.line == line_of(text, needle), (str(err), err.line)


def test_an_answer_the_engine_does_not_find_best_is_refused_at_the_answer_line() -> None:
    text = GOOD.replace('answer = "take pile"', 'answer = "take stock"')
    puzzle = load_text(text, "wrong.toml")
    graded = grade_puzzle(puzzle, samples=200)
    with pytest.raises(ExampleError) as info:
        check(puzzle, graded)
    assert info.value.line == line_of(text, 'answer = "take stock"')
    assert "the engine's best move is take pile" in str(info.value)


def test_an_answer_not_clearly_ahead_is_refused() -> None:
    puzzle = load_text(GOOD, "close.toml")
    graded = grade_puzzle(puzzle, samples=100)
    check(puzzle, graded)  # the ace is clearly best even on 100 deals
    best, second = graded.moves[0], graded.moves[1]
    noisy = replace(graded, moves=(best, replace(second, diff=1.5, diff_se=0.5)))  # 3 standard errors
    with pytest.raises(ExampleError, match="by only 1.50 ± 0.50 points"):
        check(puzzle, noisy)
    tiny = replace(graded, moves=(best, replace(second, diff=0.6, diff_se=0.01)))  # far beyond the noise, but 0.6 points
    with pytest.raises(ExampleError, match="at least 1 needed"):
        check(puzzle, tiny)
    alone = replace(graded, moves=(best,))
    with pytest.raises(ExampleError, match="only legal move"):
        check(puzzle, alone)
    assert isinstance(second, MoveGrade)


def test_check_on_the_command_line_grades_puzzles_and_names_the_line(tmp_path: Path) -> None:
    bad = GOOD.replace('answer = "take pile"', 'answer = "take stock"')
    env_files = {"good.toml": GOOD, "bad.toml": bad}
    tmp = tmp_path
    for name, text in env_files.items():
        (tmp / name).write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "dhumbal", "check", str(tmp / "good.toml"), str(tmp / "bad.toml")],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 1, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert any(ln.startswith("ok   ") and "good.toml" in ln and "puzzle: take pile best" in ln for ln in lines), lines
    wanted = f"FAIL {tmp / 'bad.toml'}:{line_of(bad, 'answer = ')}: the engine's best move is take pile"
    assert any(ln.startswith(wanted) for ln in lines), lines
    assert "Traceback" not in out.stderr


def test_puzzles_are_told_from_examples() -> None:
    assert is_puzzle(GOOD)
    assert not is_puzzle((ROOT / "examples" / "k-pair-discard.toml").read_text(encoding="utf-8"))


def test_titles_and_leads_go_to_the_catalogs() -> None:
    found = list(babel_extract(io.BytesIO(GOOD.encode()), [], [], {}))
    assert [(m[2], m[3]) for m in found] == [("An ace on the pile", ["puzzle title"]), ("The ace is right there.", ["puzzle lead"])]


def test_the_prompt_says_the_position_from_the_reader_seat() -> None:
    puzzle = load_file(PUZZLES / "da-three-of-clubs.toml")
    assert prompt(puzzle, "en") == [
        "You hold A♠ 5♦: 6 points.",
        "On offer: 2♦.",
        "Bikash holds 1 card: 3♣, picked up in plain view.",
        "Chandra holds 4 cards.",
        f"The stock holds {len(puzzle.deal.stock)} cards.",
        "It is your turn: what do you do?",
    ]
    taken = load_file(PUZZLES / "ng-seven-cannot-go-back.toml")
    assert "You have taken 7♥ from the pile: it cannot go back this turn." in prompt(taken, "en")
    assert prompt(taken, "en")[-1] == "What do you do now?"
    thrown = load_file(PUZZLES / "da-ace-on-offer.toml")
    assert "You have thrown Q♦; now you take a card." in prompt(thrown, "en")


def test_the_prompt_names_the_hand_in_the_order_the_page_draws_it() -> None:
    for path in puzzle_files([PUZZLES]):
        puzzle = load_file(path)
        hand = sorted(puzzle.deal.hands[puzzle.seat], key=C.sort_key)
        assert prompt(puzzle, "en")[0].startswith(f"You hold {C.cards_text(hand)}:"), path.name


def test_the_answer_key_matches_the_answer_in_any_order() -> None:
    puzzle = load_file(PUZZLES / "da-jack-queen-king.toml")
    assert move_key(puzzle.answer) == move_key(parse_action("throw K♠ J♠ Q♠"))


# -- generated puzzles: no free text, and the grade in the file ------------------------------------

GENERATED = """\
profile = "nepali-games"
seats = ["Asha", "Bikash", "Chandra"]
dealer = "Chandra"

[position]
Asha = "2♦ 9♠"
Bikash = 3
Chandra = 4
pile = "A♣"
turns = 12

[puzzle]
seat = "Asha"
answer = "take pile"
solvers = ["easy", "hard"]

[puzzle.generated]
version = 1
seed = 1
deal = "1/0"
move = 3

[puzzle.grade]
seed = "a seed"
profile = "nepali-games(players=3)"
measure = "paid"
samples = 100
level = "hard"
call_caught = 0.0
moves = [
  { action = "take pile", mean = -1.0, se = 0.5, diff = 0.0, diff_se = 0.0, won = 0.4, caught = 0.0, catch = 0.0, hand = 2.0 },
  { action = "take stock", mean = -9.0, se = 0.5, diff = 8.0, diff_se = 0.4, won = 0.1, caught = 0.0, catch = 0.0, hand = 9.0 },
]
"""


def test_a_generated_puzzle_reads_its_grade_solvers_and_origin() -> None:
    from dhumbal.worked.puzzles import GENERATED_MARGIN, Generated

    puzzle = load_text(GENERATED, "gen.toml")
    assert puzzle.title == "" and puzzle.lead == "" and puzzle.theme == ""
    assert puzzle.generated == Generated(1, 1, "1/0", 3)
    assert puzzle.solvers == ("easy", "hard") and puzzle.grade_seed == "a seed"
    assert puzzle.grade is not None and puzzle.grade.samples == 100 and puzzle.grade.best.diff_se == 0.0
    assert puzzle.margin == GENERATED_MARGIN
    check(puzzle, puzzle.grade)
    assert not list(babel_extract(io.BytesIO(GENERATED.encode()), [], [], {}))  # nothing for the translators


GENERATED_CASES: dict[str, tuple[str, str, str]] = {
    "with-title": ('title = "A title"\n' + GENERATED, 'title = "A title"', "a generated puzzle has no title"),
    "with-theme": (GENERATED.replace('answer = "take pile"', 'answer = "take pile"\ntheme = "take"'), 'theme = "take"',
                   "unknown puzzle key 'theme'"),
    "no-grade": (GENERATED.split("[puzzle.grade]")[0], "[puzzle]", "needs 'grade'"),
    "bad-solvers": (GENERATED.replace('["easy", "hard"]', '["easy", "grandmaster"]'), "solvers =", "solvers must list bot levels"),
    "twice-a-solver": (GENERATED.replace('["easy", "hard"]', '["easy", "easy"]'), "solvers =", "each at most once"),
    "origin-incomplete": (GENERATED.replace("move = 3\n", ""), "[puzzle.generated]", "needs exactly deal, move, seed, version"),
    "grade-of-another-profile": (GENERATED.replace('profile = "nepali-games(players=3)"', 'profile = "dashain"'),
                                 "[puzzle.grade]", "the grade is for dashain"),
    "grade-unseeded": (GENERATED.replace('seed = "a seed"\n', ""), "[puzzle.grade]", "needs the seed it was graded with"),
    "grade-unreadable": (GENERATED.replace('measure = "paid"', 'measure = "luck"'), "[puzzle.grade]", "unknown measure 'luck'"),
}


@pytest.mark.parametrize("name", sorted(GENERATED_CASES))
def test_a_bad_generated_puzzle_is_refused_at_its_line(name: str) -> None:
    text, needle, says = GENERATED_CASES[name]
    with pytest.raises(ExampleError) as info:
        load_text(text, f"{name}.toml")
    assert says in str(info.value), str(info.value)
    assert info.value.line == line_of(text, needle), (str(info.value), info.value.line)


def test_a_kept_grade_that_does_not_grade_the_position_s_moves_is_refused() -> None:
    text = GENERATED.replace('action = "take stock"', 'action = "call"')
    puzzle = load_text(text, "stale.toml")
    assert puzzle.grade is not None
    with pytest.raises(ExampleError, match="not the position's legal moves") as info:
        check(puzzle, puzzle.grade)
    assert info.value.line == line_of(text, "answer =")


def test_a_generated_puzzle_is_held_to_three_standard_errors() -> None:
    close = GENERATED.replace("diff = 8.0, diff_se = 0.4", "diff = 8.0, diff_se = 2.5")  # 3.2 standard errors
    puzzle = load_text(close, "close.toml")
    assert puzzle.grade is not None
    check(puzzle, puzzle.grade)
    closer = load_text(GENERATED.replace("diff = 8.0, diff_se = 0.4", "diff = 8.0, diff_se = 2.9"), "closer.toml")
    assert closer.grade is not None
    with pytest.raises(ExampleError, match="at least 3 standard errors needed"):
        check(closer, closer.grade)
