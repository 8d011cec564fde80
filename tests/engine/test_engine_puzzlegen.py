"""The puzzle generator (dhumbal.lab.puzzlegen): what it keeps, what it writes, and that a run repeats.

The generator's grades run on fewer sampled deals here (the thresholds are
the same), so that a run takes a second or two; the project's generated
puzzles are held to their full grades in tests/engine/test_engine_puzzle_files.py.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from dhumbal.bots.heuristic import choose
from dhumbal.cli import main
from dhumbal.core import cards as C
from dhumbal.core.profiles import find_profile, parse_profile
from dhumbal.lab import puzzlegen
from dhumbal.lab.puzzlegen import GENERATOR_VERSION, Miner, position_key, puzzle_text
from dhumbal.play.deal import Deal
from dhumbal.play.records import from_position
from dhumbal.trainer.grading import Grade, MoveGrade, grade, move_key, moves
from dhumbal.trainer.themes import tag
from dhumbal.worked.puzzles import GENERATED_MARGIN, check, find_solvers, load_file, load_text, puzzle_files


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


def test_a_forced_move_and_a_known_hand_and_offer_are_never_graded(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    # Asha holds one king at the start of a Dashain turn (throw first): throwing it is her only move
    p = find_profile("dashain").with_options(players=3)
    deal = from_position(p, hands=[C.parse_cards("K♠"), C.parse_cards("9♥ 8♣ 2♥"), C.parse_cards("Q♦ 2♣ 8♦ 7♥")],
                         pile=C.parse_cards("4♠"), stock_top=C.parse_cards("A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦"), dealer=2, turn=0,
                         turns=9, seed="puzzlegen")
    before: list[Deal] = []
    while not deal.is_over:
        before.append(deal.copy())
        deal.play(choose(deal, "hard"))
    assert len(moves(before[0])) == 1 and all(len(moves(at)) >= 2 for at in before[1:])
    miner = Miner(p, 1, tmp_path)
    miner.keys.add(position_key(before[2]))  # another puzzle already has this hand and offer
    monkeypatch.setattr(puzzlegen, "PER_DEAL", len(before))  # every other decision goes on
    chosen = miner.candidates(puzzlegen._Played(before, deal))
    assert sorted(chosen) == [i for i in range(len(before)) if i not in (0, 2)]
    assert (miner.stats.forced, miner.stats.repeated) == (1, 1)


def _graded_as(monkeypatch: pytest.MonkeyPatch, lead: float, lead_se: float) -> None:
    """Every grade after the quick one finds each move but the first ``lead`` ± ``lead_se`` points
    behind it (the quick grade lets the position through), so that what is kept depends on the
    generator's thresholds alone."""
    def fake(deal: Deal, *, samples: int, seed: str) -> Grade:
        diff, se = (5.0, 0.5) if samples == puzzlegen.QUICK_SAMPLES else (lead, lead_se)
        graded = [MoveGrade(a, mean=-diff if i else 0.0, se=0.2, diff=diff if i else 0.0, diff_se=se if i else 0.0)
                  for i, a in enumerate(moves(deal))]
        return Grade(deal.profile.canonical(), "paid", samples, "hard", tuple(graded))

    monkeypatch.setattr(puzzlegen, "grade", fake)
    monkeypatch.setattr(puzzlegen, "tag", lambda profile, view, graded: ["call"])


@pytest.mark.parametrize("lead, lead_se, outcome", [
    (2.0, 0.3, "kept"),         # 6.7 standard errors and 2 points
    (0.9, 0.05, "unclear"),     # 18 standard errors, but less than a point
    (2.0, 0.8, "unclear"),      # 2 points, but 2.5 standard errors (on 4,000 deals too)
    (1.2, 0.35, "unconfirmed"), # 3.4 standard errors and 1.2 points, but not 5 and a point after two taken off
])
def test_a_position_is_kept_only_when_its_best_move_leads_by_three_standard_errors_and_a_point(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, lead: float, lead_se: float, outcome: str) -> None:
    _graded_as(monkeypatch, lead, lead_se)
    miner = Miner(find_profile("nepali-games"), 7, tmp_path)
    played = miner.play(0)
    move = next(i for i, at in enumerate(played.before) if len(moves(at)) >= 2)
    path = miner.consider(played, 0, move)
    if outcome == "kept":
        assert path is not None and miner.stats.kept == 1
        kept = load_file(path)
        assert kept.grade is not None and kept.grade.moves[1].diff == lead and kept.grade.margin() >= GENERATED_MARGIN
    else:
        assert path is None and not list(tmp_path.iterdir())
        assert getattr(miner.stats, outcome) == 1


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
