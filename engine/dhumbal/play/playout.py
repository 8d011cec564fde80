"""Playing deals out fast: the API that simulations and search bots build on.

Everything here runs on the trusted path of :mod:`dhumbal.play.deal`: moves come
from the engine itself, so they are played without checks or messages. The
pieces, all on ``Deal`` except the last two:

``deal.copy()``
    An independent copy in a few microseconds (lists of small ints).
``deal.legal_actions()``
    Every legal move now, built from the rules rather than by trying
    candidates; ``deal.legal_groups()`` and ``deal.pickable()`` answer the
    narrower questions a policy usually asks.
``deal.play(action)``
    Apply a legal move: no check, no message.
``deal.public_view(seat)``
    What one seat may know (:class:`dhumbal.play.deal.SeatView`): its hand, the
    table, the others' public picks, and the cards it cannot place, from
    which a sampler deals the hidden hands anew.
:func:`play_out`
    Play a deal to its end with a policy per seat.
:func:`random_policy`
    A policy choosing uniformly among the legal moves (seeded).

A policy is any callable from a ``Deal`` to one of its legal actions; the
bots' levels are policies through :func:`dhumbal.bots.botlevels.policy`.

Determinism: ``play_out`` adds no randomness of its own, so a seeded deal,
deterministic policies and the same engine give the same result on CPython
and on Pyodide.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .action import Action
from .deal import Deal
from .scoring import Outcome

Policy = Callable[[Deal], Action]


def play_out(
    deal: Deal,
    policy: Policy | Sequence[Policy],
    *,
    max_actions: int = 20_000,
    checked: bool = False,
) -> Outcome:
    """Play ``deal`` to its end, each seat by ``policy`` (one for all, or one per seat).

    ``checked=True`` sends every move through ``apply`` (full check and
    messages), for tests that hold a policy to the rules. A deal still live
    after ``max_actions`` moves raises ``RuntimeError``.
    """
    policies = [policy] * deal.players if callable(policy) else list(policy)
    if len(policies) != deal.players:
        raise ValueError(f"{len(policies)} policies for {deal.players} seats")
    move = deal.apply if checked else deal.play
    if all(q is policies[0] for q in policies):
        one = policies[0]
        for _ in range(max_actions):
            if deal.phase == "over":
                break
            move(one(deal))
    else:
        for _ in range(max_actions):
            if deal.phase == "over":
                break
            move(policies[deal.turn](deal))
    if deal.phase != "over":
        raise RuntimeError(f"deal did not end within {max_actions} actions")
    assert deal.outcome is not None
    return deal.outcome


def random_policy(rng: random.Random) -> Policy:
    """A policy that picks uniformly among ``legal_actions()`` with ``rng``."""
    return lambda deal: rng.choice(deal.legal_actions())
