"""Puzzle files: read like worked examples, refused at the line of what is wrong, held to their kept grade.

Every puzzle file of the project is read and run here. A puzzle carries its
grade (every move against every opponent model, ``[puzzle.grade]``): the
file format, its errors, the rule a kept grade is checked against, and the
command that writes a grade into a file are held here, on grades made up
for the purpose or made on few deals; the project's own puzzles are held
to theirs in tests/engine/test_engine_puzzle_files.py.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from dhumbal.cli import main
from dhumbal.core import cards as C
from dhumbal.play.action import parse_action
from dhumbal.trainer import robust
from dhumbal.trainer.grading import move_key
from dhumbal.trainer.robust import OPPONENTS
from dhumbal.worked.examples import ExampleError
from dhumbal.worked.puzzlegrades import grade_toml, with_grades
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


def grade_block(moves: list[tuple[str, float, float]], *, profile: str = "nepali-games(players=3)",
                measure: str = "paid", solvers: str = '["naive", "easy"]', samples: int = 100,
                models: tuple[str, ...] = OPPONENTS) -> str:
    """A made-up ``[puzzle.grade]``: each model grades ``moves`` (action, lead, its standard error) alike."""
    out = ["[puzzle.grade]", 'seed = "a seed"', f'profile = "{profile}"', f'measure = "{measure}"', 'reader = "expert"',
           f"solvers = {solvers}"]
    for model in models:
        out += ["", f"[puzzle.grade.{model}]", f"samples = {samples}", "moves = ["]
        for action, diff, se in moves:
            out.append(f'  {{ action = "{action}", samples = {samples}, mean = {-diff}, se = 0.5, diff = {diff}, '
                       f"diff_se = {se}, won = 0.4, caught = 0.0, catch = 0.0, hand = 2.0, later = 0.9 }},")
        out.append("]")
    return "\n".join(out) + "\n"


GOOD_GRADED = GOOD + "\n" + grade_block([("take pile", 0.0, 0.0), ("take stock", 8.0, 0.4)])


def line_of(text: str, needle: str) -> int:
    return next(i + 1 for i, ln in enumerate(text.splitlines()) if needle in ln)


def test_every_project_puzzle_reads_and_runs() -> None:
    files = puzzle_files([PUZZLES])
    assert files  # how many: test_engine_puzzle_files
    themes = set()
    profiles = set()
    for f in files:
        puzzle = load_file(f)
        assert puzzle.deal.turn == puzzle.seat and not puzzle.deal.is_over
        assert puzzle.deal.is_legal(puzzle.answer, puzzle.seat)
        if puzzle.generated is None:
            themes.add(puzzle.theme)
            profiles.add(puzzle.profile.key)
    assert len(themes) >= 5 and themes <= set(THEMES)  # the hand-written puzzles' own themes
    assert profiles == {"nepali-games", "dashain", "cardrulesplus"}


def test_a_hand_given_as_a_number_is_dealt_the_same_way_every_time() -> None:
    first = load_text(GOOD, "ace.toml", graded=False)
    again = load_text(GOOD, "ace.toml", graded=False)
    assert [len(h) for h in first.deal.hands] == [2, 3, 4]
    assert first.deal.hands == again.deal.hands and first.deal.stock == again.deal.stock
    # the rest of the pack is shuffled too, so Play from here does not deal the stock in pack order
    assert first.deal.stock[-6:] != sorted(first.deal.stock[-6:])
    other = load_text(GOOD, "another-name.toml", graded=False)
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
    "missing-grade": (GOOD, "[puzzle]", "needs its grade: python -m dhumbal puzzles grade"),
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
        load_text(text, f"{name}.toml", graded=name == "missing-grade")
    err = info.value
    assert says in str(err), str(err)
    assert str(err).startswith(f"{name}.toml:")
    assert "\n" not in str(err)
    if needle:
        assert err.line == line_of(text, needle), (str(err), err.line)


def test_an_answer_the_engine_does_not_find_best_is_refused() -> None:
    text = GOOD.replace('answer = "take pile"', 'answer = "take stock"')
    puzzle = load_text(text, "wrong.toml", graded=False)
    graded = grade_puzzle(puzzle)
    assert not graded.passed and "take stock leads take pile by -" in graded.reason
    kept = load_text(text + "\n" + grade_block([("take pile", 0.0, 0.0), ("take stock", 8.0, 0.4)]), "wrong.toml")
    assert kept.grades is not None
    with pytest.raises(ExampleError) as info:
        check(kept, kept.grades)
    assert info.value.line == line_of(text, 'answer = "take stock"')
    assert "against hard seats the grade puts take pile first, not the answer take stock" in str(info.value)


@pytest.mark.parametrize("diff, se, says", [
    (8.0, 2.9, "leads take stock by 8.00 ± 2.90 points"),      # under 3 standard errors
    (1.9, 0.05, "leads take stock by 1.90 ± 0.05 points"),     # far beyond the noise, but not a felt 2
    (1.0, 0.0, "leads take stock by 1.00 ± 0.00 points"),      # certain, but a point
])
def test_an_answer_not_clearly_and_feelably_ahead_under_some_model_is_refused(diff: float, se: float, says: str) -> None:
    good = load_text(GOOD_GRADED, "close.toml")
    assert good.grades is not None
    check(good, good.grades)
    close = GOOD + "\n" + grade_block([("take pile", 0.0, 0.0), ("take stock", 8.0, 0.4)], models=OPPONENTS[:-1])
    close += "\n" + "\n".join(grade_block([("take pile", 0.0, 0.0), ("take stock", diff, se)],
                                            models=("expert",)).splitlines()[7:]) + "\n"
    puzzle = load_text(close, "close.toml")
    assert puzzle.grades is not None
    with pytest.raises(ExampleError, match="against expert seats") as info:
        check(puzzle, puzzle.grades)
    assert says in str(info.value)


def test_a_puzzle_without_every_opponent_model_is_refused_at_its_grade() -> None:
    text = GOOD + "\n" + grade_block([("take pile", 0.0, 0.0), ("take stock", 8.0, 0.4)], models=OPPONENTS[:-1])
    with pytest.raises(ExampleError, match=r"\[puzzle.grade.expert\] is missing") as info:
        load_text(text, "partial.toml")
    assert info.value.line == line_of(text, "[puzzle.grade]")


@pytest.mark.heavy  # grades a puzzle twice through the command line: the full suite
def test_puzzles_grade_writes_the_grade_into_the_file_and_check_grades_it_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(robust, "LOOKS", (30, 60))  # fewer deals: the ace on the pile is clear on them
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(GOOD, encoding="utf-8")
    wrong = GOOD.replace('answer = "take pile"', 'answer = "take stock"')
    bad.write_text(wrong, encoding="utf-8")
    out = io.StringIO()
    assert main(["puzzles", "grade", str(good), str(bad)], out=out) == 1
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"ok   {good}: take pile ahead by at least"), lines
    assert lines[1].startswith(f"FAIL {bad}: grade a: hard: take stock leads take pile by -"), lines
    assert bad.read_text(encoding="utf-8") == wrong  # a failing file is left as it was
    written = good.read_text(encoding="utf-8")
    assert written.startswith(GOOD) and "[puzzle.grade.expert]" in written
    seed = re.search(r'^seed = "(puzzle/[ab]/good)"$', written, re.M)
    assert seed is not None
    puzzle = load_file(good)
    assert puzzle.grades is not None and set(puzzle.grades) == set(OPPONENTS)
    assert puzzle.solvers is not None and "naive" in puzzle.solvers  # the naive rule takes a light face-up card
    check(puzzle, puzzle.grades)
    # grading again replaces the grade, leaving the rest of the file as it was
    again = with_grades(written, grade_toml(grade_puzzle(puzzle, seed=seed.group(1)), seed.group(1), puzzle.solvers))
    assert again == written
    out = io.StringIO()
    assert main(["check", str(good)], out=out) == 0
    assert "puzzle: take pile best under every opponent model" in out.getvalue()


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


# -- generated puzzles: no free text, an origin ------------------------------------------------------

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

[puzzle.generated]
version = 2
seed = 1
deal = "1/0"
move = 3

""" + grade_block([("take pile", 0.0, 0.0), ("take stock", 8.0, 0.4)], solvers='["easy", "hard"]')


def test_a_generated_puzzle_reads_its_grade_solvers_and_origin() -> None:
    from dhumbal.worked.puzzles import Generated

    puzzle = load_text(GENERATED, "gen.toml")
    assert puzzle.title == "" and puzzle.lead == "" and puzzle.theme == ""
    assert puzzle.generated == Generated(2, 1, "1/0", 3)
    assert puzzle.solvers == ("easy", "hard") and puzzle.grade_seed == "a seed"
    assert puzzle.grades is not None and list(puzzle.grades) == list(OPPONENTS)
    assert puzzle.grade is puzzle.grades["expert"] and puzzle.grade.samples == 100
    check(puzzle, puzzle.grades)
    assert not list(babel_extract(io.BytesIO(GENERATED.encode()), [], [], {}))  # nothing for the translators


GENERATED_CASES: dict[str, tuple[str, str, str]] = {
    "with-title": ('title = "A title"\n' + GENERATED, 'title = "A title"', "a generated puzzle has no title"),
    "with-theme": (GENERATED.replace('answer = "take pile"', 'answer = "take pile"\ntheme = "take"'), 'theme = "take"',
                   "unknown puzzle key 'theme'"),
    "no-grade": (GENERATED.split("[puzzle.grade]")[0], "[puzzle]", "needs its grade"),
    "bad-solvers": (GENERATED.replace('["easy", "hard"]', '["easy", "grandmaster"]'), "[puzzle.grade]",
                    "solvers must list levels"),
    "twice-a-solver": (GENERATED.replace('["easy", "hard"]', '["easy", "easy"]'), "[puzzle.grade]", "each at most once"),
    "origin-incomplete": (GENERATED.replace("move = 3\n", ""), "[puzzle.generated]", "needs exactly deal, move, seed, version"),
    "grade-of-another-profile": (GENERATED.replace('profile = "nepali-games(players=3)"', 'profile = "dashain"'),
                                 "[puzzle.grade]", "is for 'dashain'"),
    "grade-unseeded": (GENERATED.replace('seed = "a seed"\n', ""), "[puzzle.grade]", "needs the seed it was graded with"),
    "grade-unreadable": (GENERATED.replace('measure = "paid"', 'measure = "luck"'), "[puzzle.grade]", "measure must be"),
    "grade-another-reader": (GENERATED.replace('reader = "expert"', 'reader = "hard"'), "[puzzle.grade]", "reader must be"),
    "grade-samples": (GENERATED.replace("samples = 100\nmoves", "samples = 0\nmoves", 1), "[puzzle.grade]",
                      "samples must be a whole number"),
    "grade-unknown-key": (GENERATED.replace('reader = "expert"', 'reader = "expert"\nlevel = "hard"'), "[puzzle.grade]",
                          "unknown key 'level'"),
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
    assert puzzle.grades is not None
    with pytest.raises(ExampleError, match="not the position's legal moves") as info:
        check(puzzle, puzzle.grades)
    assert info.value.line == line_of(text, "answer =")
