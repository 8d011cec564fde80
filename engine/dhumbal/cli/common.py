"""What the commands share: argparse with one-line errors, argument types, and the rules a command is given.

Every bad argument is one line: argparse's own errors (:class:`Parser`), a
value of the wrong form (each argument type below raises argparse's
``ArgumentTypeError`` with what was wrong), and arguments that parse but do
not go together (:class:`UsageError`, raised by the commands).
"""

from __future__ import annotations

import argparse
from typing import NoReturn

from ..core.profiles import Profile, ProfileError, parse_profile

PROFILE_HELP = "profile key or canonical form, e.g. 'nepali-games(runs=on)'"


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (argparse prints the usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class UsageError(Exception):
    """Arguments that parse but do not go together, or name cards that are not in the pack."""


def add_rules(sp: argparse.ArgumentParser) -> None:
    """``--profile`` and ``--option KEY=VALUE`` (repeated): the rules a command plays or settles."""
    sp.add_argument("--profile", default="nepali-games", help=PROFILE_HELP)
    sp.add_argument("--option", action="append", metavar="KEY=VALUE", help="a house rule; repeat for more")


def profile_from_args(args: argparse.Namespace) -> Profile:
    """The profile of ``--profile``, with ``--option`` and ``--players`` applied."""
    profile = parse_profile(args.profile)
    opts: dict[str, str] = {}
    for item in args.option or []:
        if "=" not in item:
            raise ProfileError(f"option {item!r} needs the form key=value", code="bad-profile-text", params={"text": item})
        k, v = item.split("=", 1)
        opts[k.strip()] = v.strip()
    if getattr(args, "players", None) is not None:
        opts["players"] = str(args.players)
    return profile.with_options(**opts) if opts else profile


def one_line(exc: BaseException) -> str:
    """An error's message on one line, at most 300 characters."""
    return " ".join(str(exc).split())[:300]


def deals(text: str) -> int:
    """``--deals``: a whole number of deals, at least 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"give at least 1 deal, not {n}")
    return n


def counts(text: str) -> list[int]:
    """``--counts 3,3,4``: each other player's card count (1 to 5 others)."""
    parts = [p.strip() for p in text.split(",")]
    try:
        found = [int(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a list of whole numbers such as 3,3,4") from None
    if not 1 <= len(found) <= 5:
        raise argparse.ArgumentTypeError(f"give 1 to 5 card counts (one per other player), not {len(found)}")
    if any(k < 1 or k > 54 for k in found):
        raise argparse.ArgumentTypeError("each card count must be from 1 to 54")
    return found


def samples(text: str) -> int:
    """``--samples``: 1 to a million."""
    n = whole(text)
    if not 1 <= n <= 1_000_000:
        raise argparse.ArgumentTypeError(f"give 1 to 1000000 samples, not {n}")
    return n


def whole(text: str) -> int:
    """A whole number (``--seed``, ``--players``), with a readable error for anything else."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a whole number") from None
