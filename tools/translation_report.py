"""The pull-request comment of the translation checks (.github/workflows/translations.yml).

Reads what ``make check-catalogs`` and the strict build printed, with their
exit statuses, and writes one Markdown comment: whether each passed, every
problem (each line names its file and line), the warnings (out-of-date pages,
what a language being translated still lacks) folded away, and the end of
the build's log when it failed. Standard library only: the workflow runs it
before anything is installed.

    python tools/translation_report.py CHECK_LOG CHECK_STATUS BUILD_LOG BUILD_STATUS > comment.md
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

#: The comment's first line, by which the workflow finds its earlier comment to update.
MARKER = "<!-- dhumbal:translation-checks -->"
#: At most this many lines of each list (a broken catalog can give hundreds).
MOST = 60
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
#: Summary lines of the checks ("fr: 708/708 translated, 0 problem(s)"), not findings.
_SUMMARY = re.compile(r"^[\w-]+: .*(?:translated|parity with English|follow the current English page|"
                      r"rule\(s\) checked|glossary entr(?:y|ies) to write|checked, \d+ found)|^front matter: \d+ pages"
                      r"|^\d+ error\(s\), \d+ warning\(s\)|^No error; ")
#: What the checks say besides their findings: a language started without its pages
#: ("it: new: run `make new-language CODE=it`"), what to do about a message not translated.
_NOTE = re.compile(r"^(?:note: |[\w-]+: new: )")


def _lines(text: str) -> list[str]:
    return [_COLOUR.sub("", line).rstrip() for line in text.splitlines() if line.strip()]


def findings(check_log: str) -> tuple[list[str], list[str]]:
    """(problems, warnings) among the lines ``make check-catalogs`` printed: each ``error:``
    line once (the run repeats them at its end), and each ``warning:`` line."""
    problems, warnings = [], []
    for line in _lines(check_log):
        if line.startswith("warning: "):
            warnings.append(line[len("warning: "):])
        elif line.startswith("error: "):
            if line[len("error: "):] not in problems:
                problems.append(line[len("error: "):])
        elif not (line.startswith(("make", "PYTHONPATH=", ".venv/", "status=", "The errors:")) or _SUMMARY.search(line)
                  or _NOTE.search(line)):
            problems.append(line)
    return problems, warnings


def notes(check_log: str) -> list[str]:
    """What the checks say that is neither a problem nor a warning (a new language, what to do)."""
    return [line.removeprefix("note: ") for line in _lines(check_log) if _NOTE.search(line)]


def build_errors(build_log: str) -> list[str]:
    """The build's error and warning lines (a strict build stops on either)."""
    return [line for line in _lines(build_log) if line.startswith(("ERROR", "WARNING", "Aborted"))
            or "dhumbal:" in line and not line.startswith("INFO")]


def _listed(lines: list[str]) -> list[str]:
    shown = [f"- `{line.replace('`', '′')}`" for line in lines[:MOST]]
    if len(lines) > MOST:
        shown.append(f"- … and {len(lines) - MOST} more (see the workflow's log)")
    return shown


def report(check_log: str, check_status: int, build_log: str, build_status: int) -> str:
    problems, warnings = findings(check_log)
    out = [MARKER, "## Translation checks", ""]
    out.append(f"- {'✅' if check_status == 0 else '❌'} `make check-catalogs`: "
               + (f"{len(problems)} problem(s)" if problems else "no problem")
               + (f", {len(warnings)} warning(s)" if warnings else ""))
    out.append(f"- {'✅' if build_status == 0 else '❌'} strict build (`make build`): "
               + ("passed" if build_status == 0 else "failed"))
    if problems:
        out += ["", "### Problems to fix", "", *_listed(problems)]
    said = notes(check_log)
    if said:
        out += ["", "### Notes", "", *_listed(said)]
    if build_status != 0:
        errors = build_errors(build_log) or _lines(build_log)[-20:]
        out += ["", "### The build", "", *_listed(errors)]
    if warnings:
        out += ["", "<details><summary>Warnings: out-of-date pages, and what a language being translated "
                "still lacks (these do not fail the checks)</summary>", "", *_listed(warnings), "", "</details>"]
    if not problems and build_status == 0:
        out += ["", "Everything the checks read is in order."]
    out += ["", "The Contribute page explains each message and how to fix it."]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 4:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    read = lambda name: Path(name).read_text(encoding="utf-8", errors="replace") if Path(name).exists() else ""  # noqa: E731
    sys.stdout.write(report(read(args[0]), int(args[1] or 1), read(args[2]), int(args[3] or 1)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
