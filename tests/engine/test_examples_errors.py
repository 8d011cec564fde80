"""Example files of the wrong shape: one line naming the file and the line of the bad value.

``python -m dhumbal check`` reports each bad file in one line (file, line of
the bad value, what it must be), goes on with the next file, and exits
non-zero; nothing ends in a traceback, not even a file nested thousands
deep.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dhumbal.worked.examples import MAX_NESTING, ExampleError, load_text
from tests.engine.rules_kit import EXAMPLE_TEXT

ROOT = Path(__file__).resolve().parents[2]

# name: (the file's text, the text of the line that must be named, words of the message)
CASES: dict[str, tuple[str, str, str]] = {
    "pile-top-number": (EXAMPLE_TEXT.replace('pile_top = "K♥"', "pile_top = 5"), "pile_top = 5", "pile_top must be one card"),
    "hand-not-cards": (EXAMPLE_TEXT.replace("expect = { total.A = 25 }", 'expect = { hand = { A = "ZZ" } }'),
                       'hand = { A = "ZZ" }', "hand.A must be cards"),
    "turns-text": (EXAMPLE_TEXT.replace('stock = "2♦ 7♠"', 'stock = "2♦ 7♠"\nturns = "abc"'), 'turns = "abc"', "turns must be a whole number"),
    "turns-list": (EXAMPLE_TEXT.replace('stock = "2♦ 7♠"', 'stock = "2♦ 7♠"\nturns = [1]'), "turns = [1]", "turns must be a whole number"),
    "offer-text": (EXAMPLE_TEXT.replace('stock = "2♦ 7♠"', 'stock = "2♦ 7♠"\noffer = "2"'), 'offer = "2"', "offer must be a number"),
    "note-number": (EXAMPLE_TEXT.replace("expect = { total.A = 25 }", "expect = { total.A = 25 }\nnote = 5"), "note = 5", "note must be text"),
    "bad-card-in-a-hand": (EXAMPLE_TEXT.replace('B = "A♠ 4♣ 7♦ 7♣ 7♥"', 'B = "A♠ 4♣ 7X 7♣ 7♥"'), "7X", "not a card: '7X'"),
    "card-twice": (EXAMPLE_TEXT.replace('pile = "9♣"', 'pile = "A♠"'), 'pile = "A♠"', "A♠ appears twice"),
    "score-text": (EXAMPLE_TEXT.replace('dealer = "B"', 'dealer = "B"\nscores = { A = "ten" }'), 'scores = { A = "ten" }', "score of A must be a whole number"),
    "act-number": (EXAMPLE_TEXT.replace('act = "A: call"', "act = 7"), "act = 7", "act must be text"),
    "stock-negative": (EXAMPLE_TEXT.replace("expect = { total.A = 25 }", "expect = { stock = -1 }"), "stock = -1", "stock must be a whole number ≥ 0"),
    "option-table": (EXAMPLE_TEXT.replace('dealer = "B"', 'dealer = "B"\noptions = { runs = { on = 1 } }'), "options =", "option runs must be"),
    "deeply-nested": (EXAMPLE_TEXT + "\nextra = " + "[" * 3000 + "]" * 3000 + "\n", "extra = [[[", f"nested more than {MAX_NESTING} deep"),
    "deeply-nested-table": (EXAMPLE_TEXT.replace('dealer = "B"', 'dealer = "B"\ntable = ' + "{ a = " * 200 + "1" + " }" * 200),
                            "table = { a =", f"nested more than {MAX_NESTING} deep"),
}


def line_of(text: str, needle: str) -> int:
    return next(i + 1 for i, ln in enumerate(text.splitlines()) if needle in ln)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_wrong_value_is_named_at_its_own_line(name: str) -> None:
    text, needle, says = CASES[name]
    with pytest.raises(ExampleError) as info:
        load_text(text, f"{name}.toml")
    err = info.value
    assert err.line == line_of(text, needle), (str(err), err.line)
    assert says in str(err)
    assert str(err).startswith(f"{name}.toml:{err.line}: ")
    assert "\n" not in str(err)


def test_a_bad_card_is_not_reported_at_the_position_header() -> None:
    text, _, _ = CASES["bad-card-in-a-hand"]
    with pytest.raises(ExampleError) as info:
        load_text(text, "x.toml")
    assert info.value.line != line_of(text, "[position]")


def test_check_reports_every_file_of_a_directory_and_exits_non_zero(tmp_path: Path) -> None:
    (tmp_path / "00-good.toml").write_text(EXAMPLE_TEXT, encoding="utf-8")
    for name, (text, _, _) in CASES.items():
        (tmp_path / f"{name}.toml").write_text(text, encoding="utf-8")
    (tmp_path / "zz-good.toml").write_text(EXAMPLE_TEXT, encoding="utf-8")  # after every bad one
    done = subprocess.run([sys.executable, "-m", "dhumbal", "check", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr
    lines = done.stdout.splitlines()
    for name, (text, needle, _) in CASES.items():
        path = tmp_path / f"{name}.toml"
        assert any(ln.startswith(f"FAIL {path}:{line_of(text, needle)}: ") for ln in lines), (name, done.stdout)
    assert f"ok   {tmp_path / 'zz-good.toml'}" in done.stdout
    assert f"2 passed, {len(CASES)} failed" in lines[-1]
    assert len(lines) == len(CASES) + 3  # one line a file, and the summary


def test_a_file_that_is_not_utf8_or_not_there_is_reported_and_the_rest_checked(tmp_path: Path) -> None:
    (tmp_path / "a-binary.toml").write_bytes(b"\xff\xfe\x00title")
    (tmp_path / "b-good.toml").write_text(EXAMPLE_TEXT, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "dhumbal", "check", str(tmp_path), str(tmp_path / "missing.toml")],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "a-binary.toml:1: not UTF-8 text (byte 0xff)" in done.stdout
    assert "missing.toml: cannot read" in done.stdout
    assert "1 passed, 2 failed" in done.stdout
