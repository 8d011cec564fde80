"""``python -m dhumbal``: check, profiles, simulate, play."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

from dhumbal.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    out = StringIO()
    rc = main(argv, out=out, inp=StringIO(stdin))
    return rc, out.getvalue()


def test_check_examples_exits_0_and_reports_all_passed() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dhumbal", "check", str(EXAMPLES)], capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    n = len(list(EXAMPLES.glob("*.toml")))
    assert f"{n} passed, 0 failed" in done.stdout
    assert "FAIL" not in done.stdout


def test_check_a_directory_with_a_bad_file_exits_non_zero_naming_file_and_line(tmp_path: Path) -> None:
    good = (EXAMPLES / "settle-caller-caught.toml").read_text(encoding="utf-8")
    (tmp_path / "good.toml").write_text(good, encoding="utf-8")
    bad = good.replace("took.A = 25", "took.A = 30")
    (tmp_path / "bad.toml").write_text(bad, encoding="utf-8")
    line = next(i + 1 for i, ln in enumerate(bad.splitlines()) if "took.A = 30" in ln)
    rc, out = run(["check", str(tmp_path)])
    assert rc != 0
    assert f"FAIL {tmp_path / 'bad.toml'}:{line}:" in out
    assert "expected 30, found 25" in out
    assert "1 passed, 1 failed" in out


def test_check_with_no_files_is_an_error(tmp_path: Path) -> None:
    rc, out = run(["check", str(tmp_path)])
    assert rc != 0 and "no example files" in out


def test_profiles_lists_the_three_profiles() -> None:
    rc, out = run(["profiles"])
    assert rc == 0
    heads = [ln.split()[0] for ln in out.splitlines() if ln and not ln.startswith(" ")]
    assert heads == ["nepali-games", "dashain", "cardrulesplus"]
    assert "set-pick" in out and "first-round-call" in out


def test_simulate_json_prints_the_summary() -> None:
    rc, out = run(["simulate", "--deals", "20", "--json"])
    assert rc == 0
    data = json.loads(out)
    for key in ("profile", "difficulty", "deals", "turns", "mean_turns", "calls", "caught_rate", "caps",
                "mean_hand_at_call", "deals_per_second", "mean_decision_us"):
        assert key in data
    assert data["deals"] == 20 and data["calls"] + data["caps"] == 20 and data["profile"] == "nepali-games"


def test_simulate_other_profile_with_options() -> None:
    rc, out = run(["simulate", "--deals", "5", "--json", "--profile", "cardrulesplus", "--option", "jokers=on", "--players", "3"])
    assert rc == 0 and json.loads(out)["profile"] == "cardrulesplus(players=3,jokers=on)"


def test_simulate_with_an_unknown_option_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _ = run(["simulate", "--deals", "1", "--option", "colour=red"])
    assert rc == 2 and "colour" in capsys.readouterr().err


def test_play_makes_a_move_shows_a_refusal_and_quits() -> None:
    rc, out = run(["play", "--seed", "1", "--players", "2"], stdin="t 1\ns\nt 1\nq\n")
    assert rc == 0
    assert "Take a card first" in out  # the refusal of a throw before taking
    assert "You draw" in out and "You throw" in out  # the move was made
    # asked for: the refused throw, the draw, the throw, then (after the bot's turn) the quit
    assert out.count("Your turn.") == 4
    assert "Bot 1" in out


def test_play_ends_at_the_end_of_input() -> None:
    rc, out = run(["play", "--seed", "3", "--players", "3", "--profile", "dashain"], stdin="")
    assert rc == 0 and "Your turn." in out
