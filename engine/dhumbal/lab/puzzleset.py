"""The collection's shape: near-duplicates thinned to one, one-move families capped, and what the set covers.

A collection is worth solving when no two puzzles teach the same thing the
same way. Two puzzles are **near-duplicates** when they hold the same ranks,
suits aside, for the same decision with the same answer
(:func:`cluster_key`: four "A A 3, call on 5" are one puzzle; the face-up
cards count only when the answer takes one). A **one-move family** is an
idea many hands reach, capped at :data:`FAMILY_CAP` puzzles (the call on
exactly the limit). :func:`thin` keeps, in each cluster and each family,
the puzzles whose answer leads most clearly (the least lead under any
opponent model, over the profile's felt lead), and says why each other one
goes. ``python -m dhumbal puzzles thin FOLDER`` removes them;
:func:`summary` counts what the set covers (profiles, themes, bands).

The generator (:mod:`dhumbal.lab.puzzlegen`) skips a position whose ranks a
puzzle of the folder already has (:func:`position_key`), and a family the
folder has enough of, so a run never mines what thinning would remove.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..core.cards import Card
from ..play.action import Action
from ..play.deal import Deal
from ..trainer.rating import band
from ..trainer.robust import feel_lead
from ..worked.puzzles import Puzzle, puzzle_rating, puzzle_themes

__all__ = ["ClusterKey", "FAMILY_CAP", "PositionKey", "Thinned", "cluster_key", "family", "position_key", "summary", "thin"]

#: The most puzzles of a one-move family a collection holds: a call on exactly the limit is one
#: idea, however many hands reach it.
FAMILY_CAP: Final = {"tie-call": 8}

PositionKey = tuple[str, str, tuple[int, ...], tuple[int, ...]]
ClusterKey = tuple[str, str, tuple[int, ...], str, str, tuple[int, ...], tuple[int, ...]]


def _ranks(cards: Sequence[Card]) -> tuple[int, ...]:
    """The cards' ranks, sorted (a joker counts as a rank of its own)."""
    return tuple(sorted(c % 13 if c < 52 else 13 for c in cards))


def position_key(deal: Deal) -> PositionKey:
    """A position's ranks: the profile, the phase, the ranks of the reader's hand and of the face-up
    cards on offer, suits aside."""
    return (deal.profile.key, deal.phase, _ranks(deal.hands[deal.turn]), _ranks(deal.offer_cards))


def cluster_key(deal: Deal, answer: Action) -> ClusterKey:
    """What makes two puzzles near-duplicates: the profile, the decision (the phase), the ranks of
    the reader's hand, the answer in ranks, and the face-up cards' ranks when the answer takes one."""
    taking = answer.kind == "take"
    return (deal.profile.key, deal.phase, _ranks(deal.hands[deal.turn]), answer.kind, answer.source,
            _ranks(answer.cards), _ranks(deal.offer_cards) if taking else ())


def family(deal: Deal, answer: Action) -> str | None:
    """The one-move family a puzzle belongs to (:data:`FAMILY_CAP`), if any."""
    limit = deal.profile.call_limit
    if answer.kind == "call" and limit is not None and deal.total(deal.turn) == limit:
        return "tie-call"
    return None


def _clarity(p: Puzzle) -> float:
    """How clearly a puzzle's answer leads: its least lead under any model, over the felt lead."""
    assert p.grades is not None
    return min(m.diff for g in p.grades.values() for m in g.moves[1:]) / feel_lead(p.profile)


@dataclass(frozen=True)
class Thinned:
    """What thinning keeps, and each puzzle it drops with the reason."""

    kept: list[Puzzle]
    dropped: list[tuple[Puzzle, str]]


def thin(puzzles: Sequence[Puzzle]) -> Thinned:
    """One puzzle per near-duplicate cluster and at most :data:`FAMILY_CAP` per family, the clearest kept."""
    order = sorted(puzzles, key=lambda p: (-_clarity(p), p.id))
    seen: dict[ClusterKey, Puzzle] = {}
    families: Counter[str] = Counter()
    kept: list[Puzzle] = []
    dropped: list[tuple[Puzzle, str]] = []
    for p in order:
        key = cluster_key(p.deal, p.answer)
        if key in seen:
            dropped.append((p, f"a near-duplicate of {seen[key].id}"))
            continue
        kin = family(p.deal, p.answer)
        if kin is not None and families[kin] >= FAMILY_CAP[kin]:
            dropped.append((p, f"the {FAMILY_CAP[kin]} clearest {kin} puzzles are kept"))
            continue
        seen[key] = p
        if kin is not None:
            families[kin] += 1
        kept.append(p)
    return Thinned(sorted(kept, key=lambda p: p.id), sorted(dropped, key=lambda d: d[0].id))


def summary(puzzles: Sequence[Puzzle]) -> dict[str, Counter[str]]:
    """How many puzzles of each profile, theme and difficulty band the set holds."""
    out: dict[str, Counter[str]] = {"profiles": Counter(), "themes": Counter(), "bands": Counter(), "families": Counter()}
    for p in puzzles:
        assert p.grade is not None
        out["profiles"][p.profile.key] += 1
        out["themes"].update(puzzle_themes(p, p.grade))
        out["bands"][band(puzzle_rating(p))] += 1
        kin = family(p.deal, p.answer)
        if kin is not None:
            out["families"][kin] += 1
    return out
