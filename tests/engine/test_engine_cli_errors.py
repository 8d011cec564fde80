"""``python -m dhumbal`` never answers bad input with a traceback.

Each case ends with a one-line message and a non-zero exit: a zero or
negative ``--deals``, odd input to ``play`` (``²``), a terminal that cannot
show the cards or the language, output piped into ``head``, Ctrl-C, and
example files of the wrong shape (see also test_examples_errors.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import pytest

from dhumbal.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    out = StringIO()
    rc = main(argv, out=out, inp=StringIO(stdin))
    return rc, out.getvalue()


def cli(*args: str, stdin: bytes | str = b"", env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [sys.executable, "-m", "dhumbal", *args], input=data, capture_output=True, cwd=ROOT, timeout=timeout,
        env={**os.environ, **(env or {})},
    )
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))


def one_line_error(text: str) -> str:
    assert "Traceback" not in text, text
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1, text
    return lines[0]


# -- arguments ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["simulate", "--deals", "0"], "give at least 1 deal, not 0"),
        (["simulate", "--deals", "-5"], "give at least 1 deal, not -5"),
        (["bench", "--deals", "0"], "give at least 1 deal, not 0"),
        (["bench", "--deals", "-5"], "give at least 1 deal, not -5"),
        (["simulate", "--deals", "many"], "'many' is not a whole number"),
        (["simulate", "--seed", "x"], "'x' is not a whole number"),
        (["play", "--players", "²"], "'²' is not a whole number"),
        (["play", "--lang", "xx"], "invalid choice: 'xx'"),
    ],
)
def test_bad_arguments_are_one_line_errors(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv, out=StringIO(), inp=StringIO())
    assert info.value.code == 2
    err = capsys.readouterr().err
    line = one_line_error(err)
    assert says in line and line.startswith(f"python -m dhumbal {argv[0]}: error:")


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--deals", "1", "--players", "0"],
        ["simulate", "--deals", "1", "--players", "99999999999999999999"],
        ["simulate", "--deals", "1", "--profile", "nepali-games(((("],
        ["simulate", "--deals", "1", "--option", "players"],
        ["play", "--profile", "poker"],
    ],
)
def test_bad_profiles_and_options_are_one_line_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    rc, _ = run(argv)
    assert rc == 2
    assert one_line_error(capsys.readouterr().err).startswith("error: ")


def test_deals_zero_never_reaches_a_division() -> None:
    done = cli("simulate", "--deals", "0")
    assert done.returncode == 2 and "ZeroDivisionError" not in done.stderr
    one_line_error(done.stderr)


# -- play ---------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["²", "p ²", "t ²", "t ¹²", "t 9999999999", "t " + "9" * 5000, "t १", "Z", "\x00"])
def test_odd_input_to_play_gets_the_engines_reason(word: str) -> None:
    rc, out = run(["play", "--seed", "1", "--players", "2"], stdin=f"s\n{word}\nq\n")
    assert rc == 0
    assert "Traceback" not in out


def test_a_superscript_digit_is_not_a_position_in_the_hand() -> None:
    rc, out = run(["play", "--seed", "1", "--players", "2"], stdin="s\nt ²\nq\n")
    assert rc == 0 and "Not an action: t ²." in out


def test_devanagari_digits_pick_from_the_hand() -> None:
    rc, out = run(["play", "--seed", "1", "--players", "2"], stdin="s\nt १\nq\n")
    assert rc == 0 and "You throw" in out


def test_input_that_is_not_utf8_is_read_as_text() -> None:
    done = cli("play", "--seed", "1", stdin=b"s\n\xff\xfe\nq\n", env={"PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "Not an action" in done.stdout


# -- the terminal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["play"], "cannot show the card suits"),
        (["play", "--lang", "ne"], "cannot show the card suits"),
        (["profiles", "--lang", "ne"], "cannot show text in 'ne'"),
    ],
)
def test_a_terminal_that_cannot_show_the_output_is_told_in_one_line(args: list[str], says: str) -> None:
    done = cli(*args, stdin="q\n", env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 2
    line = one_line_error(done.stderr)
    assert says in line and "UTF-8" in line
    assert done.stdout == ""  # nothing half-printed


def test_english_profiles_on_an_ascii_terminal_replace_the_odd_character() -> None:
    done = cli("profiles", env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0 and done.stderr == ""
    assert "allowed 2?6" in done.stdout


def test_output_piped_into_head_stops_quietly() -> None:
    moves = ("s\nt 1\n" * 3000).encode()
    proc = subprocess.Popen([sys.executable, "-m", "dhumbal", "play", "--seed", "2"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        proc.stdin.write(moves)
        proc.stdin.close()
    except BrokenPipeError:  # pragma: no cover - the game may end first
        pass
    first = proc.stdout.readline()
    proc.stdout.close()  # what head does after its line
    err = proc.stderr.read().decode()
    rc = proc.wait(timeout=60)
    assert first.startswith(b"Commands:")
    assert rc == 1
    assert one_line_error(err) == "error: the output was closed before the command finished"
    assert "Exception ignored" not in err


def blocked_reading_its_input(pid: int) -> bool:
    """Whether process ``pid`` sleeps in a read of its standard input (Linux's /proc)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        call = Path(f"/proc/{pid}/syscall").read_text().split()
        wchan = Path(f"/proc/{pid}/wchan").read_text()
    except (OSError, IndexError):
        return False
    return state == "S" and len(call) > 1 and call[1] == "0x0" and wchan.endswith("pipe_read")


@pytest.mark.skipif(not Path("/proc/self/syscall").exists(), reason="needs Linux's /proc to see the process wait")
def test_ctrl_c_stops_with_a_message() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "dhumbal", "play", "--seed", "2"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        assert proc.stdout.readline().startswith(b"Commands:")  # the game is running
        # The signal goes once the game is asleep waiting for the reader's line
        # (inside the read: a signal that came just before it would only be
        # seen after it, and its input stays open and empty, so nothing but
        # the signal can end the game).
        for _ in range(600_000):
            if blocked_reading_its_input(proc.pid) or proc.poll() is not None:
                break
            time.sleep(0.001)
        assert proc.poll() is None and blocked_reading_its_input(proc.pid)
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(timeout=600)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:  # pragma: no cover
            proc.kill()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()
    assert rc == 130
    assert one_line_error(err.decode()) == "error: interrupted"


def test_ctrl_c_at_any_point_of_a_command_is_one_line_and_exit_130(capsys: pytest.CaptureFixture[str]) -> None:
    class Interrupting(StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise KeyboardInterrupt

    assert main(["play", "--seed", "2"], out=StringIO(), inp=Interrupting()) == 130
    assert capsys.readouterr().err == "error: interrupted\n"
