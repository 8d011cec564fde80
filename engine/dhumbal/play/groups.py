"""Throwable groups: what some cards make together, and every group a hand holds.

A group is a single card, a set (cards of one rank, with jokers where the
profile makes them wild) or a run (consecutive ranks of one suit, ace low, no
wrap; jokers fill gaps or extend it where the profile allows). Groups are
tuples of card codes in pack order.

Two kinds of callers need different things:

- The checked path (an action from outside) wants to know *why* some cards
  are no group: :func:`group_refusal` gives the ``IllegalAction`` with its
  message parameters, :func:`classify_group` raises it.
- Everything that generates moves wants speed: :func:`group_kind` answers
  without exceptions or text; :func:`throwable_groups` lists every group of a
  hand by building sets from each rank and runs by scanning each suit in
  order (no subset of a suit is tried and rejected, so the work grows with the
  number of groups, not with 2 to the power of the hand size);
  :func:`best_group_value` and :func:`heaviest_group` find the most valuable
  group without listing the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Literal

from ..core import cards as C
from ..core.cards import Card
from ..core.errors import IllegalAction
from ..core.profiles import Profile

GroupKind = Literal["single", "set", "run"]
Group = tuple[Card, ...]

MAX_RUN = 13  # a run never holds more cards than there are ranks


def group_kind(profile: Profile, cards: Sequence[Card]) -> GroupKind | None:
    """``single``, ``set`` or ``run`` for distinct ``cards``; ``None`` if they make no group."""
    n = len(cards)
    if n < 2:
        return "single" if n == 1 else None
    a = cards[0]
    if n == 2 and a < 52 and cards[1] < 52:  # the common case: two real cards
        return "set" if a % 13 == cards[1] % 13 and (profile.set_max is None or profile.set_max >= 2) else None
    reals = [c for c in cards if c < 52]
    k = len(reals)
    if k == 0 or all(c % 13 == reals[0] % 13 for c in reals):
        if k < n and not profile.jokers_in_sets:
            return None
        if profile.set_max is not None and n > profile.set_max:
            return None
        return "set"
    if not profile.runs or (k < n and not profile.jokers_in_runs) or n < 3 or n > MAX_RUN:
        return None
    suit = reals[0] // 13
    if any(c // 13 != suit for c in reals):
        return None
    ranks = {c % 13 for c in reals}
    if len(ranks) != k or max(ranks) - min(ranks) + 1 > n:
        return None
    return "run"


def landed_kind(profile: Profile, cards: Sequence[Card]) -> GroupKind:
    """The kind of a throw already known to be a group (the trusted path)."""
    if len(cards) == 1:
        return "single"
    kind = group_kind(profile, cards)
    if kind is None:
        raise ValueError(f"{C.cards_text(cards)} is not a group under {profile.key}")
    return kind


def group_refusal(profile: Profile, cards: Sequence[Card]) -> IllegalAction | None:
    """Why ``cards`` (distinct) make no throw under ``profile``, or ``None`` if they make one."""
    n = len(cards)
    if n == 0:
        return IllegalAction("empty-throw")
    if group_kind(profile, cards) is not None:
        return None
    reals = [c for c in cards if c < 52]
    ranks = {c % 13 for c in reals}
    if len(ranks) <= 1:
        if len(reals) < n and not profile.jokers_in_sets:
            return IllegalAction("mixed-ranks")
        return IllegalAction("set-too-large", max=profile.set_max)
    if not profile.runs:
        return IllegalAction("mixed-ranks")
    if len(reals) < n and not profile.jokers_in_runs:
        return IllegalAction("joker-in-run")
    return IllegalAction("not-a-run", cards=C.cards_text(cards))


def classify_group(profile: Profile, cards: Sequence[Card]) -> GroupKind:
    """What a throw of ``cards`` is under ``profile``, or ``IllegalAction`` why it is none."""
    kind = group_kind(profile, cards)
    if kind is None:
        refusal = group_refusal(profile, cards)
        assert refusal is not None
        raise refusal
    return kind


def run_ends(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The two end cards of a run (lowest and highest real rank)."""
    reals = sorted((c for c in cards if c < 52), key=lambda c: c % 13)
    if not reals:
        return tuple(cards)
    return (reals[0], reals[-1]) if len(reals) > 1 else (reals[0],)


# -- every group of a hand ------------------------------------------------------------


def throwable_groups(profile: Profile, hand: Sequence[Card]) -> list[Group]:
    """Every group ``hand`` holds, each in pack order, in a fixed order: singles,
    then sets rank by rank (smaller first), the two jokers together, then runs
    suit by suit (fewer real cards first, then in pack order, fewer jokers first)."""
    hs = sorted(hand)
    groups: list[Group] = [(c,) for c in hs]
    if len(hs) < 2:
        return groups
    jokers = [c for c in hs if c >= 52]
    reals = hs[: len(hs) - len(jokers)] if jokers else hs
    by_rank: dict[int, list[Card]] = {}
    for c in reals:
        same = by_rank.get(c % 13)
        if same is None:
            by_rank[c % 13] = [c]
        else:
            same.append(c)
    wild = jokers if profile.jokers_in_sets else []
    set_max = profile.set_max
    for rank in sorted(by_rank):
        pool = by_rank[rank] + wild
        top = len(pool) if set_max is None else min(len(pool), set_max)
        for size in range(2, top + 1):
            # the pool lists real cards first, so a combination holds one iff it starts with one
            groups.extend(g for g in combinations(pool, size) if g[0] < 52)
    if len(jokers) >= 2 and profile.jokers_in_sets:
        groups.append((jokers[0], jokers[1]))
    if profile.runs:
        by_suit: list[list[Card]] = [[], [], [], []]
        for c in reals:
            by_suit[c // 13].append(c)
        jk = jokers if profile.jokers_in_runs else []
        for suited in by_suit:
            if len(suited) + len(jk) >= 3 and len(suited) >= 2:
                groups.extend(_runs_with_jokers(suited, jk) if jk else _runs(suited))
    return groups


def _runs(suited: list[Card]) -> list[Group]:
    """The runs of one suit's cards (in pack order, so consecutive codes are consecutive ranks):
    every stretch of three or more consecutive ranks, shorter first, then lower first."""
    m = len(suited)
    out: list[Group] = []
    for size in range(3, m + 1):
        for start in range(m - size + 1):
            if suited[start + size - 1] - suited[start] == size - 1:
                out.append(tuple(suited[start:start + size]))
    return out


def _runs_with_jokers(suited: list[Card], jokers: list[Card]) -> list[Group]:
    """The runs of one suit's cards with up to ``len(jokers)`` jokers filling gaps or extending.

    A run is fixed by its lowest and highest real card, the real cards between
    them that it leaves out (a joker may stand for a card the hand holds) and
    the jokers it uses; at most as many cards can be left out as there are
    jokers, so this is polynomial in the hand size.
    """
    ranks = [c % 13 for c in suited]
    m = len(suited)
    most = len(jokers)
    found: list[tuple[tuple[int, tuple[int, ...], int, Group], Group]] = []
    for a in range(m):
        for b in range(a + 1, m):
            middle = range(a + 1, b)
            missing = ranks[b] - ranks[a] + 1 - (b - a + 1)  # ranks in the span the hand lacks
            if missing > most:
                break  # a wider span lacks at least as many
            for left_out in range(most - missing + 1):
                for omitted in combinations(middle, left_out):
                    kept = (a,) + tuple(i for i in middle if i not in omitted) + (b,)
                    k = len(kept)
                    for j in range(max(missing + left_out, 3 - k), most + 1):
                        if k + j > MAX_RUN:
                            break
                        for jc in combinations(jokers, j):
                            found.append(((k, kept, j, jc), tuple(suited[i] for i in kept) + jc))
    found.sort(key=lambda item: item[0])
    return [g for _, g in found]


# -- the most valuable group -------------------------------------------------------------


def best_group_value(profile: Profile, hand: Sequence[Card]) -> int:
    """The most points any one group of ``hand`` sheds (0 for an empty hand).

    Card values are never negative, so the best set takes every real card of
    its rank (up to the set limit) and the best run every real card between
    its ends; no group needs to be listed.
    """
    values = profile.values
    best = 0
    by_rank: dict[int, int] = {}
    for c in hand:
        v = values[c]
        if v > best:
            best = v
        if c < 52:
            by_rank[c % 13] = by_rank.get(c % 13, 0) + 1
    cap = profile.set_max
    for rank, count in by_rank.items():
        v = values[rank] * (count if cap is None else min(count, cap))
        if v > best:
            best = v
    if profile.runs:
        most = sum(1 for c in hand if c >= 52) if profile.jokers_in_runs else 0
        for suit in range(4):
            suited = sorted(c for c in hand if c < 52 and c // 13 == suit)
            m = len(suited)
            for a in range(m):
                total = values[suited[a]]
                for b in range(a + 1, m):
                    total += values[suited[b]]
                    k = b - a + 1
                    if suited[b] - suited[a] + 1 - k > most:
                        break
                    if k + most >= 3 and total > best:
                        best = total
    return best


def heaviest_group(profile: Profile, hand: Sequence[Card]) -> Group:
    """The group worth most, then the longest, then the first in pack order, for a
    profile without jokers (``hand`` must not be empty).

    Values are never negative, so a group that holds another is worth at least
    as much and is longer: only whole ranks (the lowest cards up to the set
    limit) and maximal runs of consecutive ranks can be best. This is exactly
    ``max(throwable_groups(...), key=(value, length, lowest cards first))``.
    """
    if profile.jokers:
        raise ValueError("heaviest_group is for profiles without jokers")
    values = profile.values
    hs = sorted(hand)
    n = len(hs)
    best: list[Card] = []
    best_v = best_n = -1
    by_rank: dict[int, list[Card]] = {}
    runs = profile.runs
    start = 0
    for i in range(n + 1):
        if i < n:
            c = hs[i]
            same = by_rank.get(c % 13)
            if same is None:
                by_rank[c % 13] = [c]
            else:
                same.append(c)
            if i and c == hs[i - 1] + 1 and c % 13:
                continue  # the stretch of consecutive ranks in one suit goes on
        if runs and i - start >= 3:
            run = hs[start:i]
            v = sum([values[c] for c in run])
            size = i - start
            if v > best_v or (v == best_v and (size > best_n or (size == best_n and run < best))):
                best, best_v, best_n = run, v, size
        start = i
    cap = profile.set_max
    for same in by_rank.values():
        if cap is not None and len(same) > cap:
            same = same[:cap]
        size = len(same)
        v = values[same[0]] * size
        if v > best_v or (v == best_v and (size > best_n or (size == best_n and same < best))):
            best, best_v, best_n = same, v, size
    return tuple(best)
