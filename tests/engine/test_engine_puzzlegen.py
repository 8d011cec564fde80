"""The puzzle generator (dhumbal.lab.puzzlegen): what it keeps, what it writes, and that a run repeats.

The generator's grades run on fewer sampled deals here (the thresholds are
the same); what it keeps is tested on made-up grades, so that it is about
the generator's steps and not about what sampled deals happen to give. The
project's generated puzzles are held to their full grades in
tests/engine/test_engine_puzzle_files.py.
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
from dhumbal.lab.puzzleset import FAMILY_CAP, cluster_key
from dhumbal.play.action import Action
from dhumbal.play.deal import Deal
from dhumbal.play.records import from_position
from dhumbal.trainer import robust
from dhumbal.trainer.grading import Grade, MoveGrade, move_key, moves
from dhumbal.trainer.robust import OPPONENTS, RobustGrade
from dhumbal.trainer.themes import tag
from dhumbal.worked.puzzles import check, find_solvers, grade_puzzle, load_file, load_text, puzzle_files


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Grades on fewer deals (a clear puzzle is still clear on them)."""
    monkeypatch.setattr(puzzlegen, "QUICK_SAMPLES", 40)
    monkeypatch.setattr(robust, "LOOKS", (16, 32))


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
        assert puzzle.deal.hands == at.hands and puzzle.deal.stock == at.stock  # the file keeps the mined deal
        picked += any(at.known)
    assert picked, "no decision with a card held in plain view: the lead-in was not tested"


@pytest.mark.heavy  # two runs with the expert playing every play-out on: half a minute of CPU, in make test
def test_a_run_keeps_puzzles_best_against_every_opponent_repeats_and_each_file_holds_what_was_measured(
        quick: None, tmp_path: Path) -> None:
    log = io.StringIO()
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    miner = Miner(find_profile("nepali-games"), 7, first, log=log)
    kept = miner.run(1)
    assert len(kept) == 1 and sorted(kept) == puzzle_files([first])
    assert "1 kept from" in log.getvalue()
    [again] = Miner(find_profile("nepali-games"), 7, second).run(1)
    assert again.name == kept[0].name and again.read_bytes() == kept[0].read_bytes()
    for path in kept:
        text = path.read_text(encoding="utf-8")
        assert "\ntitle" not in text and "lead =" not in text  # no free text for the catalogs
        puzzle = load_file(path)
        assert puzzle.generated is not None and puzzle.generated.version == GENERATOR_VERSION
        assert puzzle.grades is not None and puzzle.grade_seed and puzzle.solvers is not None
        check(puzzle, puzzle.grades)  # the rule, on the grade it keeps
        # the kept grade is the engine's, from the file alone, with the seed it names
        again = grade_puzzle(puzzle, seed=puzzle.grade_seed)
        assert again.passed and {m: g.to_json() for m, g in again.grades.items()} == \
            {m: g.to_json() for m, g in puzzle.grades.items()}
        assert puzzle.grade_seed.startswith(f"puzzlegen/{GENERATOR_VERSION}/")
        assert find_solvers(puzzle) == puzzle.solvers
        assert puzzle.grade is not None and tag(puzzle.profile, puzzle.view(), puzzle.grade)


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


def _graded_as(monkeypatch: pytest.MonkeyPatch, outcomes: list[bool], lead: float = 3.0) -> list[object]:
    """The quick grade lets every position through; the robust grades pass or fail as ``outcomes``
    says, one after another, each answering the first legal move with every model's grade made up
    (every other move ``lead`` ± 0.5 behind: near the rule's edge by default, so that a second grade
    confirms it). Returns the answers asked for (None: the grade chooses)."""
    asked: list[object] = []

    def fake_quick(deal: Deal, *, samples: int, seed: str) -> Grade:
        rows = [MoveGrade(a, mean=-5.0 * i, se=0.2, diff=5.0 * i, diff_se=0.5 * bool(i)) for i, a in enumerate(moves(deal))]
        return Grade(deal.profile.canonical(), "paid", samples, "hard", tuple(rows))

    def fake_robust(profile, view, answer=None, *, seed, **kw) -> RobustGrade:  # type: ignore[no-untyped-def]
        asked.append(answer)
        quick = fake_quick(view_deal(profile, view), samples=10, seed="")
        rows = tuple(MoveGrade(m.action, -lead * bool(i), m.se, lead * bool(i), 0.5 * bool(i), samples=10, later=0.8)
                     for i, m in enumerate(quick.moves))
        grades = {m: Grade(profile.canonical(), "paid", 10, "expert", rows) for m in OPPONENTS}
        passed = outcomes.pop(0)
        return RobustGrade(rows[0].action, grades, passed, "" if passed else "made up")

    monkeypatch.setattr(puzzlegen, "grade", fake_quick)
    monkeypatch.setattr(puzzlegen, "robust_grade", fake_robust)
    monkeypatch.setattr(puzzlegen, "tag", lambda profile, view, graded: ["call"])
    return asked


def view_deal(profile, view) -> Deal:  # type: ignore[no-untyped-def]
    from dhumbal.bots.sampler import stand_in

    return stand_in(profile, view)


@pytest.mark.parametrize("outcomes, result", [
    ([True, True], "kept"),
    ([False], "unclear"),         # the answer fails against some opponent model
    ([True, False], "unconfirmed"),  # it holds on the grade that chose it, not on the independent one
])
def test_a_position_is_kept_only_when_two_grades_hold_it_to_the_rule(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, outcomes: list[bool], result: str) -> None:
    asked = _graded_as(monkeypatch, list(outcomes))
    miner = Miner(find_profile("nepali-games"), 7, tmp_path)
    played = miner.play(0)
    move = next(i for i, at in enumerate(played.before) if len(moves(at)) >= 2)
    path = miner.consider(played, 0, move)
    assert asked[0] is None  # the first grade chooses the answer; the second holds that one
    if result == "kept":
        assert path is not None and miner.stats.kept == 1
        kept = load_file(path)
        assert kept.grades is not None and set(kept.grades) == set(OPPONENTS)
        assert move_key(asked[1]) == move_key(kept.answer)  # type: ignore[arg-type]
    else:
        assert path is None and not list(tmp_path.iterdir())
        assert getattr(miner.stats, result) == 1


def test_a_first_grade_far_past_the_rule_is_kept_without_a_second(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    asked = _graded_as(monkeypatch, [True], lead=9.0)  # 9 ± 0.5 points: far past a felt 2 and 3 standard errors
    miner = Miner(find_profile("nepali-games"), 7, tmp_path)
    played = miner.play(0)
    move = next(i for i, at in enumerate(played.before) if len(moves(at)) >= 2)
    path = miner.consider(played, 0, move)
    assert path is not None and len(asked) == 1
    assert load_file(path).grade_seed == f"puzzlegen/{GENERATOR_VERSION}/a/{path.stem}"


def test_a_near_duplicate_or_a_family_the_folder_has_enough_of_is_set_aside(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _graded_as(monkeypatch, [True, True, True, True])
    miner = Miner(find_profile("nepali-games"), 7, tmp_path)
    played = miner.play(0)
    move = next(i for i, at in enumerate(played.before) if len(moves(at)) >= 2)
    at = played.before[move]
    miner.clusters.add(cluster_key(at, moves(at)[0]))  # another puzzle: the same ranks, decision and answer
    assert miner.consider(played, 0, move) is None and miner.stats.capped == 1
    miner.clusters.clear()
    miner.families["tie-call"] = FAMILY_CAP["tie-call"]
    if moves(at)[0] == Action.call() and at.total(at.turn) == at.profile.call_limit:
        assert miner.consider(played, 0, move) is None
    else:
        assert miner.consider(played, 0, move) is not None


def test_a_known_position_is_not_found_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _graded_as(monkeypatch, [True] * 8)
    [a] = Miner(find_profile("nepali-games"), 7, tmp_path).run(1)
    again = Miner(find_profile("nepali-games"), 7, tmp_path)
    assert position_key(load_file(a).deal) in again.keys and cluster_key(load_file(a).deal, load_file(a).answer) in again.clusters
    [c] = again.run(1)
    assert c.name != a.name and again.stats.repeated >= 1
    assert position_key(load_file(c).deal) != position_key(load_file(a).deal)


def test_the_generate_command(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _graded_as(monkeypatch, [True] * 4)
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
