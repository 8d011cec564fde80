"""``make check-catalogs``: every translation check in one run, its errors summed up at the end.

The checks (the catalogs, the pages' parity and freshness, the glossary, one word per
concept, the rules said the same way, agreement, the front matter) each print what they
find as one line: ``error: FILE:LINE: what is wrong`` for what fails the run, ``warning:
…`` for what is not done yet (a page out of date, what a language being translated still
lacks), and a status line per language. A new language's first run prints hundreds of
warnings, so this runner repeats every error after them, under a summary line, where the
terminal leaves the reader; ``--quiet`` (``make check-catalogs QUIET=1``) counts the
warnings instead of printing them.

Each check runs in this process with its output kept, in the order ``make
check-catalogs`` always ran them; a check that fails without an error line (it should
not) is reported as an error of its own, so an exit status of 1 always comes with a
line that says why.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Sequence
from contextlib import redirect_stdout
from pathlib import Path
from typing import TextIO

#: (name, the check's command line, its arguments, how it is pointed at another copy of
#: the project: ``ROOT`` and ``DOCS`` stand for that copy and its pages), in the order they run.
CHECKS: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("catalogs", "dhumbal_site.translation.catalogs", ("check",), ("--root", "ROOT")),
    ("pages", "dhumbal_site.translation.parity", (), ("--docs", "DOCS")),
    ("freshness", "dhumbal_site.translation.freshness", ("check",), ("--docs", "DOCS")),
    ("glossary", "dhumbal_site.translation.glossary", (), ("--root", "ROOT")),
    ("terminology", "dhumbal_site.translation.terminology", (), ("--root", "ROOT")),
    ("wording", "dhumbal_site.translation.statements", (), ("--root", "ROOT")),
    ("agreement", "dhumbal_site.translation.agreement", (), ("--root", "ROOT")),
    ("front matter", "dhumbal_site.translation.frontmatter", (), ("DOCS",)),
    ("page titles", "dhumbal_site.translation.pagemeta", ("check",), ("--root", "ROOT")),
)


def _main(module: str) -> Callable[[list[str]], int]:
    from importlib import import_module

    main: Callable[[list[str]], int] = import_module(module).main
    return main


def run(checks: Sequence[tuple[str, str, tuple[str, ...], tuple[str, ...]]] = CHECKS, *, quiet: bool = False,
        root: Path | None = None, out: TextIO | None = None) -> int:
    """Run ``checks`` (on the project, or the copy of it at ``root``), print their lines (the
    warnings only counted when ``quiet``), then every error again under a summary; 1 if any
    check failed."""
    write = (out or sys.stdout).write
    errors: list[str] = []
    warnings = 0
    for name, module, args, rooted in checks:
        where = {"ROOT": str(root), "DOCS": str(root / "docs")} if root is not None else {}
        arguments = list(args) + ([where.get(a, a) for a in rooted] if root is not None else [])
        kept = io.StringIO()
        with redirect_stdout(kept):
            status = _main(module)(arguments)
        found = 0
        for line in kept.getvalue().splitlines():
            if line.startswith("warning:"):
                warnings += 1
                if quiet:
                    continue
            elif line.startswith("error:"):
                errors.append(line)
                found += 1
            write(line + "\n")
        if status and not found:
            line = f"error: {name}: the check failed without naming a file (exit status {status})"
            errors.append(line)
            write(line + "\n")
    folded = " (not shown: run without QUIET=1 to see them)" if quiet and warnings else ""
    if errors:
        write(f"\n{len(errors)} error(s), {warnings} warning(s){folded}. The errors:\n")
        for line in errors:
            write(line + "\n")
        return 1
    write(f"\nNo error; {warnings} warning(s){folded}: what a language being translated still lacks, "
          "and pages whose English page changed.\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m dhumbal_site.translation.checks [--quiet] [--root DIR]``: exit 1 if any check found an error."""
    args = list(sys.argv[1:] if argv is None else argv)
    quiet = "--quiet" in args
    args = [a for a in args if a != "--quiet"]
    root = None
    if args[:1] == ["--root"] and len(args) > 1:
        root, args = Path(args[1]), args[2:]
    if args:
        print("usage: python -m dhumbal_site.translation.checks [--quiet] [--root DIR]")
        return 2
    return run(quiet=quiet, root=root)


if __name__ == "__main__":
    raise SystemExit(main())
