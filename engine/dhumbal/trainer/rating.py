"""A puzzle's difficulty: a whole number from which bot levels find the best move, and by how much it leads.

The four levels of the table (easy, medium, hard, expert) each make their
own move in the puzzle's position; a level *solves* the puzzle when its
move is the graded best move. The more levels miss it, the harder the
puzzle: :func:`rating` starts at :data:`BASE` and adds :data:`PER_MISS` for
each level that misses. Every level counts the same: the levels do not miss
in order (the expert sometimes misses what the easy bot finds), so a count
is what a reader can understand ("three of the four computer players miss
this").

It is then refined by the best move's lead over the next best, in points:
a lead of one point (the least a puzzle may have) adds :data:`CLOSE`, a lead
of :data:`CLEAR_LEAD` points or more adds nothing, and leads between scale
with the lead's logarithm (two points take off a third of it, four points
two thirds).
A small lead is harder to feel at the table, so it rates higher; the
refinement never outweighs one more level missing.

:func:`band` puts a rating in one of the page's difficulty filters.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final, Literal

from ..bots.botlevels import DIFFICULTIES

__all__ = ["BANDS", "BASE", "CLEAR_LEAD", "CLOSE", "PER_MISS", "band", "rating"]

#: A puzzle every level solves with a clear lead.
BASE: Final = 800
#: Added for each level that misses the best move.
PER_MISS: Final = 300
#: Added at most for a small lead (at one point); never as much as one more miss.
CLOSE: Final = 200
#: A lead of this many points or more adds nothing.
CLEAR_LEAD: Final = 8.0

Band = Literal["easy", "medium", "hard"]
#: The page's difficulty filters: each band's lowest rating (the first from the bottom).
BANDS: Final[tuple[tuple[Band, int], ...]] = (("easy", 0), ("medium", 1100), ("hard", 1500))


def rating(solvers: Iterable[str], lead: float) -> int:
    """The rating of a puzzle that the levels ``solvers`` solve, its best move ``lead`` points ahead of the next."""
    found = set(solvers)
    unknown = found - set(DIFFICULTIES)
    if unknown:
        raise ValueError(f"unknown bot level {sorted(unknown)[0]!r}; levels: {', '.join(DIFFICULTIES)}")
    misses = len(DIFFICULTIES) - len(found)
    closeness = 1.0 - min(1.0, max(0.0, math.log(max(lead, 1.0)) / math.log(CLEAR_LEAD)))
    return BASE + PER_MISS * misses + round(CLOSE * closeness)


def band(value: int) -> Band:
    """The difficulty filter a rating falls in."""
    found: Band = BANDS[0][0]
    for name, low in BANDS:
        if value >= low:
            found = name
    return found
