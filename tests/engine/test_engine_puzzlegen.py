"""The puzzle generator (dhumbal.puzzlegen): what it keeps, what it writes, and that a run repeats.

The generator's grades run on fewer sampled deals here (the thresholds are
the same), so that a run takes a second or two; the project's generated
puzzles are held to their full grades in tests/engine/test_engine_puzzle_files.py.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from dhumbal import puzzlegen
from dhumbal.cli import main
from dhumbal.grading import grade, move_key
from dhumbal.profiles import find_profile, parse_profile
from dhumbal.puzzlegen import GENERATOR_VERSION, Miner, position_key, puzzle_text
from dhumbal.puzzles import GENERATED_MARGIN, check, find_solvers, load_file, load_text, puzzle_files
from dhumbal.themes import tag


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Grades on fewer deals (a clear puzzle is still clear on them)."""
    monkeypatch.setattr(puzzlegen, "QUICK_SAMPLES", 40)
    monkeypatch.setattr(puzzlegen, "SAMPLES", 150)
    monkeypatch.setattr(puzzlegen, "MORE_SAMPLES", 300)


@pytest.mark.parametrize("profile", ["nepali-games", "dashain(players=3)", "cardrulesplus(jokers=on)",
                                     "nepali-games(runs=on,jokers=on)"])
def test_every_decision_of_a_deal_written_as_a_puzzle_reads_back_as_the_same_position(profile: str, tmp_path: Path) -> None:
    p = parse_profile(profile)
    miner = Miner(p, 3, tmp_path)
    played = miner.play(1)
    assert played.deal.is_over
    picked = 0
    for move, at in enumerate(played.before):
        start, steps = miner.lead_in(played, move)
        assert start.phase == "start"
        text = puzzle_text(start, steps, at.turn, played.deal.history[move][1],
                           origin={"version": GENERATOR_VERSION, "seed": 3, "deal": "3/1", "move": move})
        puzzle = load_text(text, "x.toml", graded=False)
        assert replace(puzzle.view(), history=()) == replace(at.public_view(at.turn), history=()), move
        assert puzzle.deal.hands == at.hands and puzzle.deal.stock == at.stock  # "Play from here" plays this deal on
        picked += any(at.known)
    assert picked, "no decision with a card held in plain view: the lead-in was not tested"


def test_a_run_keeps_clear_puzzles_and_each_file_holds_what_was_measured(quick: None, tmp_path: Path) -> None:
    log = io.StringIO()
    miner = Miner(find_profile("nepali-games"), 7, tmp_path, log=log)
    kept = miner.run(2)
    assert len(kept) == 2 and sorted(kept) == puzzle_files([tmp_path])
    assert "2 kept from" in log.getvalue()
    for path in kept:
        text = path.read_text(encoding="utf-8")
        assert "\ntitle" not in text and "lead =" not in text  # no free text for the catalogs
        puzzle = load_file(path)
        assert puzzle.generated is not None and puzzle.generated.version == GENERATOR_VERSION
        assert puzzle.grade is not None and puzzle.grade_seed and puzzle.solvers is not None
        check(puzzle, puzzle.grade)  # the margin the file states, on the grade it keeps
        assert puzzle.margin == GENERATED_MARGIN
        # the kept grade is the engine's, from the file alone, with the seed it names
        again = grade(puzzle.deal, samples=puzzle.grade.samples, seed=puzzle.grade_seed)
        assert again.to_json() == puzzle.grade.to_json()
        assert move_key(puzzle.answer) == move_key(puzzle.grade.best.action)
        assert find_solvers(puzzle, puzzle.grade) == puzzle.solvers
        assert tag(puzzle.profile, puzzle.view(), puzzle.grade)
        # the confirming grade kept a margin beyond the stated one
        assert puzzle.grade.is_clear(puzzlegen.CONFIRM_MARGIN)


def test_the_same_seed_finds_the_same_puzzle_and_a_known_position_is_not_found_again(quick: None, tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    [a] = Miner(find_profile("nepali-games"), 7, first).run(1)
    [b] = Miner(find_profile("nepali-games"), 7, second).run(1)
    assert a.name == b.name and a.read_bytes() == b.read_bytes()
    again = Miner(find_profile("nepali-games"), 7, first)
    assert position_key(load_file(a).deal) in again.keys
    [c] = again.run(1)
    assert c.name != a.name and again.stats.repeated >= 1
    assert position_key(load_file(c).deal) != position_key(load_file(a).deal)


def test_the_generate_command(quick: None, tmp_path: Path) -> None:
    out = io.StringIO()
    assert main(["puzzles", "generate", "--profile", "nepali-games", "--count", "1", "--seed", "7",
                 "--out", str(tmp_path)], out=out) == 0
    assert len(puzzle_files([tmp_path])) == 1
    assert "1 kept from" in out.getvalue()


@pytest.mark.parametrize("args, says", [
    (["--count", "0"], "--count must be at least 1"),
    (["--out", "no/such/folder"], "is not a folder"),
    (["--profile", "poker"], "poker"),
])
def test_the_generate_command_refuses_bad_input_in_one_line(args: list[str], says: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    base = {"--count": "1", "--seed": "1", "--out": str(tmp_path)}
    for k, v in zip(args[::2], args[1::2]):
        base[k] = v
    argv = ["puzzles", "generate"] + [x for kv in base.items() for x in kv]
    assert main(argv, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err
