"""The command line's frame: the parser of every command, and every failure as one line and an exit code.

Each command is a module of this package that adds its parser and sets
``func`` (``set_defaults``); :func:`main` parses, checks the terminal, runs
``args.func`` and turns whatever goes wrong into one line on standard error:
2 for bad input, 1 when the output cannot be written, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Sequence
from typing import Final, TextIO

from ..core import cards as C
from ..core.i18n import translator
from ..core.profiles import PROFILE_KEYS, ProfileError, find_profile
from ..worked.examples import shown_name
from . import bench, check, odds, play, profiles, puzzles, score, simulate
from .common import Parser, UsageError, one_line
from .simulate import SimulationError


def build_parser() -> argparse.ArgumentParser:
    """Every command's parser, in the order ``--help`` lists them."""
    ap = Parser(prog="python -m dhumbal", description="Dhumbal (Jhyap) rules engine")
    sub = ap.add_subparsers(dest="command", required=True)
    for command in (profiles, check, puzzles, simulate, play, odds, score, bench):
        command.add(sub)
    return ap


class TerminalError(Exception):
    """The output cannot show what the command would print."""


def _encodable(text: str, stream: TextIO) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _check_terminal(args: argparse.Namespace, out: TextIO) -> None:
    """Refuse at once, in one line, to play or list in characters the output cannot show."""
    encoding = getattr(out, "encoding", None) or "utf-8"
    hint = "use a UTF-8 terminal (or set PYTHONIOENCODING=utf-8)"
    lang = getattr(args, "lang", "en")
    if args.command == "play" and not _encodable("".join(C.SUIT_SYMBOLS), out):
        raise TerminalError(f"this terminal's encoding ({encoding}) cannot show the card suits; {hint}")
    if args.command in ("play", "profiles", "score") and lang != "en":
        t = translator(lang)
        sample = " ".join([t(play.PROMPT_HELP)] + [t(find_profile(k).name) for k in PROFILE_KEYS])
        if not _encodable(sample, out):
            raise TerminalError(f"this terminal's encoding ({encoding}) cannot show text in '{lang}'; {hint}, or use --lang en")


def _tolerant(stream: TextIO, errors: str) -> None:
    """Let a real console stream replace what it cannot encode or decode rather than raise."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors=errors)
        except (ValueError, OSError):  # a stream that cannot change now: it keeps its own rule
            pass


def _error(message: str) -> None:
    stream = sys.stderr
    if stream is None:  # started with standard error closed: nowhere to say it
        return
    try:
        # a file name or a value read from input may hold terminal escapes
        stream.write(f"error: {shown_name(message)}\n")
        stream.flush()
    except (OSError, ValueError):
        pass


def _quiet_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's own flush
    at exit finds nothing left to fail on (a closed pipe, a full disk)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


#: What writing to a full disk, a vanished terminal or a closed descriptor raises.
_OUTPUT_ERRORS: Final = frozenset({errno.ENOSPC, errno.EIO, errno.EBADF, errno.EPIPE, errno.EFBIG, errno.EDQUOT, errno.ENXIO})


class StreamClosed(Exception):
    """A standard stream the command needs was closed when the command started;
    ``status`` is the exit code (2: no input to read, 1: nowhere to write)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    """Run the command line; every failure is one line on standard error and an exit code:
    2 for bad input, 1 when the output cannot be written, 130 on Ctrl-C."""
    try:
        return _main(argv, out, inp)
    except KeyboardInterrupt:  # Ctrl-C before or after the command's own handling
        _error("interrupted")
        return 130


def _main(argv: Sequence[str] | None, out: TextIO | None, inp: TextIO | None) -> int:
    out = out or sys.stdout
    inp = inp or sys.stdin
    try:
        if out is None:
            raise StreamClosed("the standard output is closed: give the command somewhere to write", 1)
        args = build_parser().parse_args(score.values_joined(sys.argv[1:] if argv is None else list(argv)))
        if args.command == "play" and inp is None:
            raise StreamClosed("the standard input is closed: play reads your moves from it", 2)
        _tolerant(out, "replace")
        if inp is not None:
            _tolerant(inp, "replace")
        _check_terminal(args, out)
        rc: int = args.func(args, out, inp)
        out.flush()  # a closed pipe or a full disk shows up here, not at interpreter exit
        return rc
    except ProfileError as exc:
        _error(one_line(exc))
        return 2
    except (TerminalError, UsageError) as exc:
        _error(str(exc))
        return 2
    except SimulationError as exc:
        _error(str(exc))
        return 1
    except StreamClosed as exc:
        _error(str(exc))
        return exc.status
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): say so once, and keep the
        # interpreter from failing again when it flushes at exit.
        if out is sys.stdout:
            _quiet_stdout()
        _error("the output was closed before the command finished")
        return 1
    except UnicodeError as exc:
        _error(f"cannot read or write the terminal's text: {one_line(exc)}")
        return 2
    except OSError as exc:
        # Standard output on a full disk (``> /dev/full``), a vanished
        # terminal, a stream closed under the command; or a file the
        # command was given that cannot be read.
        if exc.errno not in _OUTPUT_ERRORS:
            _error(one_line(exc))
            return 1
        if out is sys.stdout:
            _quiet_stdout()
        _error(f"cannot write the output ({exc.strerror or one_line(exc)})")
        return 1
    except ValueError as exc:
        if "closed file" not in str(exc):
            raise
        _error("a standard stream was closed before the command finished")
        return 1
