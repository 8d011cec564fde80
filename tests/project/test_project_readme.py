"""What README.md tells a newcomer to type works: the two set-up commands, every
make target it names, and every ``python -m dhumbal`` example.

A make target is checked with ``make -n`` (it exists, and make can plan it:
running ``make test`` here would be the whole suite). A command-line example is
read by the engine's own argument parser, so a misspelt option or a bad value
fails, and then run as written, with ``q`` on its input for ``play``; an
example that takes seconds of CPU (a simulation, a benchmark, grading the
puzzles), or a command named without its arguments, runs the command's
``--help`` instead.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
SPAN = re.compile(r"`([^`\n]+)`")
MAKE = re.compile(r"(?:^|\s)make ([a-z][\w-]*)((?: [A-Z_]+=(?:\"[^\"]*\"|\S+))*)")
#: Commands whose examples take seconds of CPU (bot deals, a benchmark, making
#: puzzles): their ``--help`` runs instead.
COSTLY = frozenset({"simulate", "bench", "puzzles"})


def code(text: str) -> list[str]:
    """The README's code: each line of its fenced blocks, and each inline span outside them."""
    blocks = FENCE.findall(text)
    outside = FENCE.sub("", text)
    return [line.strip() for block in blocks for line in block.splitlines()] + SPAN.findall(outside)


def make_commands(text: str) -> list[list[str]]:
    found = []
    for snippet in code(text):
        for target, variables in MAKE.findall(snippet):
            command = ["make", target, *shlex.split(variables)]
            if command not in found:
                found.append(command)
    return found


def cli_examples(text: str) -> list[list[str]]:
    found = []
    for snippet in code(text):
        if re.match(r"python -m dhumbal(\s|$)", snippet):
            argv = shlex.split(snippet)[3:]
            if argv not in found:
                found.append(argv)
    return found


def _run(command: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(command, cwd=ROOT, input=stdin, capture_output=True, text=True, env=env, timeout=600)


def make_problems(commands: list[list[str]]) -> list[str]:
    problems = []
    for command in commands:
        done = _run([command[0], "-n", *command[1:]])
        if done.returncode:
            problems.append(f"{' '.join(command)}: {done.stderr.strip()[-300:]}")
    return problems


def cli_problems(examples: list[list[str]]) -> list[str]:
    from dhumbal.cli import build_parser

    problems = []
    for argv in examples:
        shown = "python -m dhumbal " + " ".join(argv)
        if len(argv) == 1:  # a command named in prose, not an example: its --help
            command = [argv[0], "--help"]
        else:
            try:
                args = build_parser().parse_args(argv)
            except SystemExit:
                problems.append(f"{shown}: the command line refuses it")
                continue
            costly = args.command in COSTLY or (args.command == "check" and any("puzzles" in p for p in args.paths))
            command = [args.command, "--help"] if costly else argv
        done = _run([sys.executable, "-m", "dhumbal", *command], stdin="q\n")
        if done.returncode:
            problems.append(f"{shown}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    return problems


def test_a_fresh_machine_needs_two_commands_and_ci_runs_the_second() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("## On a fresh machine", 1)[1].split("\n## ", 1)[0]
    assert [block.strip() for block in FENCE.findall(section)] == ["make serve", "make test"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == "make test"


def test_every_make_target_the_readme_names_exists() -> None:
    commands = make_commands(README.read_text(encoding="utf-8"))
    assert ["make", "serve"] in commands and ["make", "check"] in commands and len(commands) >= 10
    problems = make_problems(commands)
    assert not problems, "\n".join(problems)


def test_every_command_line_example_of_the_readme_runs() -> None:
    examples = cli_examples(README.read_text(encoding="utf-8"))
    assert len(examples) >= 5 and any(argv[:1] == ["play"] for argv in examples)
    problems = cli_problems(examples)
    assert not problems, "\n".join(problems)


def test_the_checks_fail_on_a_wrong_example() -> None:
    text = "```sh\nmake nosuch\npython -m dhumbal score --players 4 --dealer 9 --caller 0 --hands 1,2,3,4\n```\n" \
           "Also `python -m dhumbal simulate --deals many`."
    assert make_problems(make_commands(text))[0].startswith("make nosuch: ")
    assert [p.split(":")[0] for p in cli_problems(cli_examples(text))] == [
        "python -m dhumbal score --players 4 --dealer 9 --caller 0 --hands 1,2,3,4",
        "python -m dhumbal simulate --deals many"]
