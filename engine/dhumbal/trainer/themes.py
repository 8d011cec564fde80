"""Puzzle themes: what a position is about, tagged by the engine from the seat's view and the graded moves.

A theme names the idea a puzzle turns on ("the tie at the limit", "catching
a caller"), so that a reader can pick the puzzles of one idea and see how
well they do at it. :func:`tag` reads only what the reader's seat knows (a
:class:`dhumbal.play.deal.SeatView`: its hand, the pile, the counts, the cards
others were seen to pick up) and the position's :class:`dhumbal.trainer.grading.Grade`
(the best move, the runner-up, how often each caught a caller): a theme can
never tell the reader anything about a card it cannot see.

Each tagger is one small rule in :data:`TAGGERS`, named by its key, and
each theme has a name and a one-line explanation, both catalog messages
(:data:`THEMES`, in the order a page lists them). A position may have
several themes or none; the puzzle generator keeps only positions with at
least one. The rules are deliberately plain (a call is allowed; a pair is
kept while another move breaks it; the best throw is a run), so that a
reader who is told the theme recognises it in the position. A theme about a
later turn (keeping a pair, the race to a call) is tagged only where the
deal usually reaches that turn after the best move (:data:`LATER`, read from
the grade's play-outs against the expert's seats); where it usually ends
first, the theme is "last".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ..bots.expert import turns_to_call
from ..core.cards import Card
from ..core.i18n import N_
from ..core.profiles import Profile
from ..play.action import Action
from ..play.deal import SeatView
from ..play.groups import group_kind, throwable_groups
from .grading import Grade, MoveGrade

__all__ = ["THEMES", "TAGGERS", "Theme", "tag"]


@dataclass(frozen=True)
class Theme:
    """A theme's name and its one-line explanation (catalog messages)."""

    name: str
    explanation: str


#: Every theme, in the order the page lists them.
THEMES: Final = {
    "call": Theme(N_("When to call"),
                  N_("A call is allowed: weigh how often it would be caught against what playing on may bring.")),
    "tie": Theme(N_("The tie at the limit"),
                 N_("Your hand is exactly on the call limit: a hand that ties with yours catches your call.")),
    "catch": Theme(N_("Catching a caller"),
                   N_("Someone may call soon: a hand as light as theirs catches the call and wins the deal.")),
    "pair": Theme(N_("Keeping a pair"),
                  N_("Two cards of one rank leave together later: keeping them can beat throwing one now.")),
    "take": Theme(N_("Stock or pile"),
                  N_("A face-up card you know, or a blind card from the stock.")),
    "barred": Theme(N_("The pile card that cannot go back"),
                    N_("A card taken from the pile stays in your hand for the rest of that turn.")),
    "runs": Theme(N_("Throwing a run"),
                  N_("Three or more cards in a row of one suit go out in one throw.")),
    "joker": Theme(N_("The joker"),
                   N_("A joker counts nothing and goes out with other cards: whether to take, keep or throw it is the question.")),
    "race": Theme(N_("The race to a call"),
                  N_("You may not call yet and others are close to it: the move that brings your call soonest counts.")),
    "pickup": Theme(N_("Reading a pick-up"),
                    N_("A card picked up in plain view tells you what that player holds.")),
    "group": Theme(N_("Which group to throw"),
                   N_("Several throws are possible, and the heaviest one is not always the best.")),
    "last": Theme(N_("Before the deal ends"),
                  N_("Someone is likely to call before your next turn: the hand you hold when they do is what counts.")),
}

#: A total at or under this is a tempting call where the profile has no call limit.
TEMPTING_TOTAL: Final = 7
#: The share of deals in which the best move caught a caller that makes it a catch ...
CATCH_SHARE: Final = 0.15
#: ... when it catches this much more often than the runner-up.
CATCH_LEAD: Final = 0.05
#: An opponent down to this many cards or fewer may call soon (the race).
CLOSE_TO_CALL: Final = 2
#: A plan for a later turn is a theme only when the best move reached another turn of the
#: reader's own in at least this share of the deals played out against the expert's seats;
#: below half, the deal is more likely to end first, which is the theme "last".
LATER: Final = 0.5


@dataclass(frozen=True)
class Position:
    """What the taggers read: the rules, the seat's view and the graded moves."""

    profile: Profile
    view: SeatView
    grade: Grade

    @property
    def best(self) -> Action:
        return self.grade.best.action

    @property
    def runner(self) -> MoveGrade:
        return self.grade.moves[1]

    @property
    def actions(self) -> list[Action]:
        return [m.action for m in self.grade.moves]

    def total(self, cards: Sequence[Card] | None = None) -> int:
        values = self.profile.values
        return sum(values[c] for c in (self.view.hand if cards is None else cards))

    def taken(self, action: Action) -> Card | None:
        """The face-up card a take from the pile takes (the pile top when it names none)."""
        if action.kind != "take" or action.source != "pile":
            return None
        if action.cards:
            return action.cards[0]
        return self.view.pile[-1] if self.view.pile else None

    def others(self) -> list[int]:
        v = self.view
        return [(v.seat + k) % v.players for k in range(1, v.players)]


def _can_call(pos: Position) -> bool:
    return any(a.kind == "call" for a in pos.actions)


def _call(pos: Position) -> bool:
    """A call is allowed, and it is either the best move or a tempting one (within a limit)."""
    if not _can_call(pos):
        return False
    limit = pos.profile.call_limit
    return pos.best.kind == "call" or limit is not None or pos.total() <= TEMPTING_TOTAL


def _tie(pos: Position) -> bool:
    """A call is allowed on exactly the limit."""
    limit = pos.profile.call_limit
    return _can_call(pos) and limit is not None and pos.total() == limit


def _catch(pos: Position) -> bool:
    """The best move caught a caller in a telling share of the deals, clearly more than the runner-up."""
    best, runner = pos.grade.best, pos.runner
    return best.catch >= CATCH_SHARE and best.catch - runner.catch >= CATCH_LEAD


def _pairs(profile: Profile, cards: Sequence[Card]) -> dict[int, list[Card]]:
    """The ranks of which ``cards`` hold two or more (jokers aside), with their cards."""
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        if c < 52:
            by_rank.setdefault(c % 13, []).append(c)
    return {r: cs for r, cs in by_rank.items() if len(cs) >= 2}


def _later(pos: Position) -> bool:
    """The deal went on to another turn of the reader's after the best move in most of the deals
    played out (a grade that does not count it, an older one, says so of every deal)."""
    best = pos.grade.best
    return best.later >= LATER or not best.samples


def _last(pos: Position) -> bool:
    """The deal ended before the reader's next turn in most of the deals played out after the best
    move, which is not a call (a call ends it by itself): someone else called first."""
    return pos.best.kind != "call" and not _later(pos)


def _pair(pos: Position) -> bool:
    """The best throw keeps a pair (or more) of one rank whole, while another throw breaks it or
    throws it, and the deal usually reaches the later turn that throws it."""
    best = pos.best
    if best.kind != "throw" or not _later(pos):
        return False
    barred = pos.view.took_from_pile
    free = [c for c in pos.view.hand if c != barred]
    for _rank, cards in _pairs(pos.profile, free).items():
        if any(c in best.cards for c in cards):
            continue
        if any(a.kind == "throw" and any(c in a.cards for c in cards) for a in pos.actions):
            return True
    return False


def _take(pos: Position) -> bool:
    """The best move is a take, chosen between the stock and a face-up card."""
    takes = [a for a in pos.actions if a.kind == "take"]
    return pos.best.kind == "take" and any(a.source == "stock" for a in takes) and any(a.source == "pile" for a in takes)


def _heaviest(profile: Profile, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The group of ``cards`` worth most (then the longest)."""
    values = profile.values
    groups = throwable_groups(profile, cards)
    return max(groups, key=lambda g: (sum(values[c] for c in g), len(g)), default=())


def _groups_with(profile: Profile, hand: Sequence[Card], card: Card) -> bool:
    """Whether ``card`` would make a group of two or more with cards of ``hand``."""
    return any(card in g and len(g) > 1 for g in throwable_groups(profile, [*hand, card]))


def _barred(pos: Position) -> bool:
    """Draw-first only. After a take from the pile: the heaviest throw would hold the card just
    taken, which may not go back. Before the take: the best move is the stock although the
    face-up card would go with the hand."""
    p, v = pos.profile, pos.view
    if not p.draw_first:
        return False
    if v.phase == "throw" and v.took_from_pile is not None:
        return v.took_from_pile in _heaviest(p, v.hand)
    if pos.best.kind == "take" and pos.best.source == "stock":
        card = pos.taken(pos.runner.action)
        return card is not None and _groups_with(p, v.hand, card)
    return False


def _runs(pos: Position) -> bool:
    """The best move throws a run."""
    best = pos.best
    return best.kind == "throw" and len(best.cards) >= 3 and group_kind(pos.profile, best.cards) == "run"


def _joker(pos: Position) -> bool:
    """A joker is in play: the reader holds one or may take one, and not every move uses it
    (the joker counts nothing and goes with other cards, so keeping, throwing or taking it is a choice)."""
    def involves(a: Action) -> bool:
        taken = pos.taken(a)
        return any(c >= 52 for c in a.cards) or (taken is not None and taken >= 52)

    held = any(c >= 52 for c in pos.view.hand)
    involved = [involves(a) for a in pos.actions]
    return (held or any(involved)) and not all(involved)


def _race(pos: Position) -> bool:
    """Over the limit while another seat is close to a call: the best throw leaves a hand
    that needs fewer turns to a legal call than the runner-up's."""
    p, v = pos.profile, pos.view
    runner = pos.runner.action
    if p.call_limit is None or p.jokers or pos.total() <= p.call_limit:
        return False
    if pos.best.kind != "throw" or runner.kind != "throw" or not _later(pos):
        return False
    if min(v.hand_counts[s] for s in pos.others()) > CLOSE_TO_CALL:
        return False

    def turns(a: Action) -> int:
        rest = [c for c in v.hand if c not in a.cards]
        return turns_to_call(p, rest, pos.total(rest))

    return turns(pos.best) < turns(runner)


def _pickup(pos: Position) -> bool:
    """A pick-up read: the next seat picked up a card, and the best throw offers it no card of
    that rank while the runner-up would; or another hand is wholly known (every card of it
    picked up in plain view), so its total is known."""
    v = pos.view
    nxt = (v.seat + 1) % v.players
    ranks = {c % 13 for c in v.known[nxt] if c < 52}
    runner = pos.runner.action
    if ranks and pos.best.kind == "throw" and runner.kind == "throw":
        if not any(c % 13 in ranks for c in pos.best.cards if c < 52) and \
                any(c % 13 in ranks for c in runner.cards if c < 52):
            return True
    return any(v.known[s] and len(v.known[s]) == v.hand_counts[s] for s in pos.others())


def _group(pos: Position) -> bool:
    """A throw chosen among several: the best one is not the heaviest, or it is one of two or
    more groups of several cards."""
    best = pos.best
    if best.kind != "throw":
        return False
    throws = [a for a in pos.actions if a.kind == "throw"]
    if len(throws) < 2:
        return False
    values = pos.profile.values
    shed = max(sum(values[c] for c in a.cards) for a in throws)
    if sum(values[c] for c in best.cards) < shed:
        return True
    return len(best.cards) > 1 and sum(1 for a in throws if len(a.cards) > 1) >= 2


#: Each theme's rule, by key (the same keys as :data:`THEMES`).
TAGGERS: Final[dict[str, Callable[[Position], bool]]] = {
    "call": _call, "tie": _tie, "catch": _catch, "pair": _pair, "take": _take, "barred": _barred,
    "runs": _runs, "joker": _joker, "race": _race, "pickup": _pickup, "group": _group, "last": _last,
}


def tag(profile: Profile, view: SeatView, grade: Grade) -> list[str]:
    """The themes of the position ``view`` shows (the seat on turn's), given its ``grade``: keys of
    :data:`THEMES`, in its order. A position with a single move has none."""
    if len(grade.moves) < 2:
        return []
    pos = Position(profile, view, grade)
    return [key for key, rule in TAGGERS.items() if rule(pos)]
