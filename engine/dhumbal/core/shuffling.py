"""Seeded shuffles: the same cards from the same seed, on every Python version.

A deal's cards come from :func:`shuffle` with a text seed derived from the
deal's own (``dhumbal/deal/{seed}``, ``dhumbal/reshuffle/...``), so a deal
replays exactly from its seed; the sampler deals hidden cards anew with
:func:`shuffle_with` and its own seeded source.
"""

from __future__ import annotations

import random
from typing import Final

from . import cards as C
from .cards import Card


def shuffle(cards: list[Card], seed: str) -> None:
    """Shuffle ``cards`` in place from a ``random.Random`` seeded with ``seed``.

    The same draws as ``random.Random(seed).shuffle(cards)`` (Fisher–Yates
    from the end, each index drawn by rejection from ``getrandbits``), written
    out so that a deal's cards never depend on how a Python version happens to
    implement ``shuffle``, and a little faster.
    """
    shuffle_with(cards, random.Random(seed))


def shuffle_with(cards: list[Card], rng: random.Random) -> None:
    """Shuffle ``cards`` in place with draws from ``rng`` (the Fisher–Yates of :func:`shuffle`)."""
    getrandbits = rng.getrandbits
    for i, bits in STEPS[len(cards)]:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


#: How many random bits draw an index below ``n``: ``BITS[n]``.
BITS: Final = tuple(n.bit_length() for n in range(C.DECK_MAX + 1))
#: The steps of the shuffle of ``n`` cards, ``STEPS[n]``: each position ``i`` from the
#: end down to 1, and the bits its index is drawn with.
STEPS: Final = tuple(tuple((i, BITS[i + 1]) for i in range(n - 1, 0, -1)) for n in range(C.DECK_MAX + 1))
