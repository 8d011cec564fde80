"""The translation checks' command lines, read by one parser: ``--root DIR``, ``--docs DIR``, a command, language codes.

Each check used to read its arguments by hand (``if args[:1] == ["--root"]``), so ``--root``
without a directory was silently ignored, ``--root=DIR`` was taken for a language code and
so was a misspelt option, and no check had ``--help``. Here every check describes its
arguments to :mod:`argparse`; a command line it cannot read is printed as the usage line
and one sentence naming what was wrong, in place of argparse's exit, so that ``make
check-catalogs``, which runs the checks in its own process, reports it as the check's
failure and goes on: :func:`arguments` gives None and ``main`` returns 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import NoReturn


class Usage(Exception):
    """A command line a check cannot read: the message says what was wrong and how to write it."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise Usage(f"{self.format_usage().strip()}\n{self.prog}: {message}")


def parser(module: str, summary: str, *, root: Path | None = None, docs: Path | None = None,
           languages: bool = False, commands: tuple[str, ...] = ()) -> argparse.ArgumentParser:
    """A parser for ``python -m dhumbal_site.translation.<module>``.

    ``root`` (``--root DIR``: another copy of the project) and ``docs`` (``--docs DIR``: another
    folder of pages) are the defaults of the options a check takes; ``languages`` adds
    ``LANG…`` (every language when none is named); ``commands`` adds a first word chosen from
    them. A check adds what else it takes.
    """
    p = _Parser(prog=f"python -m dhumbal_site.translation.{module}", description=summary)
    if commands:
        p.add_argument("command", choices=commands)
    if root is not None:
        p.add_argument("--root", type=Path, default=root, metavar="DIR",
                       help="check another copy of the project (its docs/, locales/, overrides/, mkdocs.yml)")
    if docs is not None:
        p.add_argument("--docs", type=Path, default=docs, metavar="DIR", help="check another folder of pages")
    if languages:
        p.add_argument("languages", nargs="*", metavar="LANG", help="the languages to check (default: every one)")
    return p


def arguments(p: argparse.ArgumentParser, argv: Iterable[str] | None, *, usage: str = "") -> argparse.Namespace | None:
    """``argv`` (or the process's arguments) read by ``p``, options and words in any order; None when
    they cannot be, after printing why (or ``usage``, a check's own hint), so that ``main`` returns 2."""
    try:
        return p.parse_intermixed_args(None if argv is None else list(argv))
    except Usage as refused:
        print(usage or refused)
        return None
