"""``python -m dhumbal``: profiles, play, check, puzzles, simulate, odds, score, bench.

One module per command (:mod:`dhumbal.cli.play` and the others), each adding
its parser and the function that runs it; :mod:`dhumbal.cli.app` holds the
frame. Every bad input ends in a one-line message and a non-zero exit, never
a traceback: arguments are checked by argparse (whose errors are one line
here), engine errors are caught by type, an example file that cannot be
checked is reported and the next one checked, a terminal that cannot show
the output's characters is said so before anything is played, and a closed
output pipe (``| head``) or Ctrl-C stop the command quietly.
"""

from .app import build_parser, main

__all__ = ["build_parser", "main"]
