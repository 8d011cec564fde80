"""The bot levels: their names, and which module plays each one.

Easy, medium and hard are played by :mod:`dhumbal.bots.heuristic`; the expert by
:mod:`dhumbal.bots.expert`, which builds on the hard bot. This module sits above
both, so neither imports the other's caller: everything that lets a bot
move at a level the reader chose (the table, the command line, the arena,
the benchmark) asks here.

The expert is imported on its first move only: a table whose bots are not
experts never loads the sampler.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Literal

from ..play.action import Action
from ..play.deal import Deal
from ..play.playout import play_out
from . import heuristic

Difficulty = Literal["easy", "medium", "hard", "expert"]
#: The levels of the table's settings.
DIFFICULTIES: Final = ("easy", "medium", "hard", "expert")
Bot = Literal["easy", "medium", "hard", "expert", "aggressive"]
#: Every bot: the table's four levels and the published reference bot
#: (:func:`dhumbal.bots.heuristic.aggressive`), which plays in mixed tables only.
BOTS: Final[tuple[Bot, ...]] = ("easy", "medium", "hard", "expert", "aggressive")


def choose(deal: Deal, difficulty: Bot = "medium") -> Action:
    """The bot's action at ``difficulty`` for the seat on turn: always one of ``deal.legal_actions()``."""
    if difficulty == "expert":
        from .expert import choose as expert_choose

        return expert_choose(deal)
    if difficulty == "aggressive":
        return heuristic.aggressive(deal)
    return heuristic.choose(deal, difficulty)


def _expert(deal: Deal) -> Action:
    from .expert import choose as expert_choose

    return expert_choose(deal)


def policy(difficulty: Bot = "medium") -> Callable[[Deal], Action]:
    """``choose`` at one level, as a policy for :func:`dhumbal.play.playout.play_out`.

    The three levels of :mod:`dhumbal.bots.heuristic` are its own policies (no call in
    between, as simulations play hundreds of thousands of moves).
    """
    if difficulty == "expert":
        return _expert
    if difficulty == "aggressive":
        return heuristic.aggressive
    return heuristic.policy(difficulty)


def play_deal(
    deal: Deal, difficulty: Bot | Sequence[Bot] = "medium", *, max_actions: int = 20000, checked: bool = False,
) -> Deal:
    """Let bots play ``deal`` to its end (a bound guards against a runaway deal).

    Bot moves are legal by construction and go through the trusted path;
    ``checked=True`` sends each one through ``apply`` instead (for tests).
    """
    levels = [difficulty] * deal.players if isinstance(difficulty, str) else list(difficulty)
    play_out(deal, [policy(level) for level in levels], max_actions=max_actions, checked=checked)
    return deal
