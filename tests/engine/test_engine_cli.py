"""``python -m dhumbal``: check, profiles, simulate, play."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

from dhumbal.cli import main
from dhumbal.cli.simulate import RATE_KEYS

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
    for key in ("profile", "difficulty", "checked", "deals", "moves", "turns", "mean_turns", "calls", "caught_rate",
                "caps", "mean_hand_at_call", "deals_per_second", "moves_per_second", "mean_move_us"):
        assert key in data
    assert data["deals"] == 20 and data["calls"] + data["caps"] == 20 and data["profile"] == "nepali-games"
    assert data["checked"] is False  # the trusted path, as bench plays


def _figures(argv: list[str]) -> dict[str, object]:
    rc, out = run(argv)
    assert rc == 0
    data = json.loads(out)
    return {k: v for k, v in data.items() if k not in RATE_KEYS}


@pytest.mark.parametrize(
    "argv",
    [
        ["--profile", "dashain", "--players", "4", "--deals", "60", "--seed", "3"],
        ["--profile", "nepali-games", "--difficulty", "hard", "--deals", "60"],
        ["--profile", "cardrulesplus", "--option", "jokers=on", "--difficulty", "easy", "--deals", "40"],
        ["--profile", "dashain", "--difficulty", "expert", "--players", "3", "--deals", "3"],
    ],
)
def test_simulate_trusted_and_checked_paths_give_identical_results(argv: list[str]) -> None:
    trusted = _figures(["simulate", "--json", *argv])
    checked = _figures(["simulate", "--json", "--check", *argv])
    assert trusted.pop("checked") is False and checked.pop("checked") is True
    assert trusted == checked
    # and the same figures as the engine's own checked loop: each move chosen, then applied with every check
    from dhumbal.bots.botlevels import choose
    from dhumbal.core.profiles import parse_profile
    from dhumbal.play.deal import Deal

    profile = parse_profile(str(trusted["profile"]))
    hands, moves = [], 0
    for i in range(int(trusted["deals"])):  # type: ignore[call-overload]
        d = Deal.new(profile, f"{argv[argv.index('--seed') + 1] if '--seed' in argv else 1}/{i}", dealer=i % profile.players)
        while not d.is_over:
            a = choose(d, trusted["difficulty"])  # type: ignore[arg-type]
            if a.kind == "call":
                hands.append(d.total(d.turn))
            d.apply(a)
        moves += len(d.history)
    assert trusted["moves"] == moves and trusted["calls"] == len(hands)
    assert trusted["mean_hand_at_call"] == pytest.approx(sum(hands) / len(hands) if hands else 0.0)


def test_simulate_check_names_a_bot_move_the_rules_refuse(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from dhumbal import cli
    from dhumbal.cli import simulate
    from dhumbal.play.action import Action

    monkeypatch.setattr(simulate, "policy", lambda level: lambda deal: Action.call() if deal.turns >= 2 else Action.take_stock())
    rc, _ = run(["simulate", "--deals", "1", "--check", "--profile", "nepali-games"])
    err = capsys.readouterr().err
    assert rc == 1
    assert err.startswith("error: deal 1/0, turn ") and "refuse" in err and len(err.splitlines()) == 1, err
    # a mixed table plays on the trusted path only: asking to check it is refused in one line
    assert cli.main(["simulate", "--deals", "1", "--profile", "nepali-games", "--check", "--bots", "easy,easy"],
                    out=StringIO()) == 2
    assert "--check" in capsys.readouterr().err


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
