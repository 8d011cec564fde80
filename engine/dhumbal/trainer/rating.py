"""A puzzle's difficulty: a whole number from what it takes to solve it, and how much its answer leads.

**What it takes.** The simplest player is the naive rule (the aggressive
reference bot: call whenever allowed, else throw the heaviest group, and
take a face-up card only when it is worth 5 or less). A puzzle that rule
solves is in the Easy band whatever the bots do: the "call on exactly the
limit" puzzles that the medium and hard bots miss only because they call
under the limit by design are solved by any beginner who calls when allowed.
A puzzle the naive rule misses starts at the Medium band's floor
(:data:`THINKING`) and adds :data:`PER_MISS` for each of the table's four
bot levels (easy, medium, hard, expert) whose own move misses it: every
level counts the same, as they do not miss in order, and a count is what a
reader can understand ("three of the four computer players miss this").

**The lead.** Then a small lead adds up to :data:`CLOSE` (:data:`CLOSE_EASY`
in the Easy band): a lead of the least a player can feel (a ratio of 1 to
the profile's felt lead, :data:`dhumbal.trainer.robust.FEEL_LEAD`) adds it all,
:data:`CLEAR_RATIO` times that or more adds nothing, and between it scales
with the logarithm. A small lead is harder to see at the table; it never
outweighs one more level missing, nor lifts an Easy puzzle out of its band.

:func:`band` puts a rating in one of the page's difficulty filters.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final, Literal

from ..bots.botlevels import DIFFICULTIES

__all__ = ["BANDS", "BASE", "CLEAR_RATIO", "CLOSE", "CLOSE_EASY", "NAIVE", "PER_MISS", "THINKING", "band", "rating"]

#: The naive rule's name among a puzzle's solvers.
NAIVE: Final = "naive"
#: An Easy puzzle with a clear lead.
BASE: Final = 800
#: Added at most for a small lead in the Easy band (it stays under the Medium band's floor).
CLOSE_EASY: Final = 250
#: A puzzle the naive rule misses and every bot level solves with a clear lead: the Medium band's floor.
THINKING: Final = 1100
#: Added for each of the four bot levels that misses the answer.
PER_MISS: Final = 200
#: Added at most for a small lead above the Easy band; less than one more miss.
CLOSE: Final = 150
#: A lead of this many times the felt lead or more adds nothing.
CLEAR_RATIO: Final = 4.0

Band = Literal["easy", "medium", "hard"]
#: The page's difficulty filters: each band's lowest rating (the first from the bottom).
BANDS: Final[tuple[tuple[Band, int], ...]] = (("easy", 0), ("medium", THINKING), ("hard", 1500))


def rating(solvers: Iterable[str], lead: float) -> int:
    """The rating of a puzzle that the levels ``solvers`` solve (:data:`NAIVE` among them or not),
    its answer ``lead`` felt leads ahead of the next move (the least lead over the felt lead)."""
    found = set(solvers)
    unknown = found - set(DIFFICULTIES) - {NAIVE}
    if unknown:
        raise ValueError(f"unknown level {sorted(unknown)[0]!r}; levels: {NAIVE}, {', '.join(DIFFICULTIES)}")
    closeness = 1.0 - min(1.0, max(0.0, math.log(max(lead, 1.0)) / math.log(CLEAR_RATIO)))
    if NAIVE in found:
        return BASE + round(CLOSE_EASY * closeness)
    misses = sum(1 for level in DIFFICULTIES if level not in found)
    return THINKING + PER_MISS * misses + round(CLOSE * closeness)


def band(value: int) -> Band:
    """The difficulty filter a rating falls in."""
    found: Band = BANDS[0][0]
    for name, low in BANDS:
        if value >= low:
            found = name
    return found
