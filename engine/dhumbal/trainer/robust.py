"""Robust grades: a puzzle's answer played out against several kinds of opponent, the reader's seat played on by the expert.

A grade read under one opponent model teaches that model's habits: the hard
bot calls two under the limit, so a grade whose every seat is a hard bot
assumes that a seat sitting on the limit will not call, and its best move
can be the worst against any player who would. :func:`robust_grade` plays
every move of a position out on the same sampled deals (dealt anew from the
reader's view, :mod:`dhumbal.bots.sampler`) under each model of
:data:`OPPONENTS`, the other seats all playing that model and the reader's
own seat played on by the expert, and keeps a puzzle's answer only if it
leads every other move under *every* model: by :data:`CLEAR` standard errors
of the paired difference, and by a lead a player can feel (:data:`FEEL_LEAD`,
per profile), the least lead the page then states ("at least 2 points").

**Affordable.** The expert is a hundred times dearer than the fast bots, and
it plays the reader's seat in every model. So the work is cut three ways,
none of which changes a figure:

- *Shared play-outs.* The fast models (:data:`FAST`) are played out together:
  a deal is copied only where two models' seats choose differently, so the
  moves they agree on (the reader's own above all) are worked out once.
- *Cheap models first.* The fast models are graded before the expert's
  seats (:data:`SLOW`); an answer that fails against them is never played
  out against the expert (without a call limit, the calling models, whose
  deals end at once, go even before the hard seats).
- *Looks.* Each model is graded at :data:`LOOKS` samples in turn: a move
  already clearly behind the answer (:data:`SETTLED` standard errors, the
  lead a player can feel one standard error lower) is played no further in
  that model, and an answer clearly not best (:data:`FAILED`) stops the
  grade. The last look applies the rule above to every move still open.

Each model's figures are a :class:`dhumbal.trainer.grading.Grade` (each move
with its own sample count, as moves leave at different looks), and the share
of deals in which the reader's seat reached another turn of its own after
the move (:attr:`MoveGrade.later`): what tells a plan for a later turn from
one the deal cannot reach. Deterministic like every grade: seeded samples,
deterministic bots, sums in a fixed order.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from ..bots import heuristic
from ..bots.expert import decide
from ..bots.odds import measure_of
from ..bots.sampler import Sampler
from ..core.profiles import Profile
from ..play.action import Action
from ..play.deal import Deal, SeatView
from .grading import Grade, GradeError, MoveGrade, move_key, moves

__all__ = [
    "CLEAR", "FAILED", "FAST", "FEEL_LEAD", "LOOKS", "OPPONENTS", "READER", "RobustGrade", "SETTLED", "SLOW",
    "caller", "feel_lead", "holds", "needs_confirming", "robust_grade", "verdict",
]

Model = Literal["hard", "caller", "aggressive", "expert"]
#: The opponent models, cheapest first: every other seat plays the hard bot, the hard bot
#: that calls whenever the rules let it, the aggressive reference bot, or the expert.
OPPONENTS: Final[tuple[Model, ...]] = ("hard", "caller", "aggressive", "expert")
FAST: Final[tuple[Model, ...]] = ("hard", "caller", "aggressive")
SLOW: Final[tuple[Model, ...]] = ("expert",)
#: The models whose seats call whenever the rules let them.
CALLING: Final[tuple[Model, ...]] = ("caller", "aggressive")
#: The level that plays the reader's seat on after the move.
READER: Final = "expert"
#: Samples at which each model is looked at; the last is the most a model is given.
LOOKS: Final = (50, 100, 200, 400)
#: The answer must lead every other move by this many standard errors of the paired difference ...
CLEAR: Final = 3.0
#: ... and by this lead, in the profile's measure: a lead a player can feel. In `cardrulesplus`
#: a point is a point on the score, where 100 is out; in the money-way profiles a point is one
#: paid, and `dashain`'s cards weigh up to 13. (The grade that keeps a puzzle is the second of
#: two independent ones, each held to it: a lead kept by chance on one is rarely kept on both.)
FEEL_LEAD: Final = {"nepali-games": 2.0, "dashain": 3.0, "cardrulesplus": 2.0}
FEEL_LEAD_OTHER: Final = 2.0
#: A regrade that holds a kept puzzle to the rule (``make puzzles-check``) asks this many standard
#: errors, and the felt lead within one standard error: a kept answer that is still best, by about
#: as much, passes on chance alone far more often than at the keeping rule's edge.
CHECK_CLEAR: Final = 2.0
#: A passed grade whose every other move is this many times the felt lead and this many standard
#: errors behind under every model is kept without a confirming grade (:func:`needs_confirming`).
FAR: Final = 2.0
FAR_CLEAR: Final = 6.0
#: A move this many standard errors behind, and behind by a felt lead one standard error
#: lower, is settled at a look before the last.
SETTLED: Final = 4.5
#: An answer behind another move (or short of a felt lead) by this many standard errors fails at once.
FAILED: Final = 2.5
#: The most actions a play-out may take (a guard: no bot deal comes near it).
MAX_ACTIONS: Final = 20_000

_CALL: Final = Action.call()


def feel_lead(profile: Profile) -> float:
    """The least lead a player can feel in ``profile``, in its measure."""
    return FEEL_LEAD.get(profile.key, FEEL_LEAD_OTHER)


def caller(deal: Deal) -> Action:
    """The seat that calls whenever the rules let it, and otherwise plays as the hard bot."""
    if deal.phase == "start" and deal.can_call():
        return _CALL
    return heuristic.choose(deal, "hard")


def _expert(deal: Deal) -> Action:
    return decide(deal, clock=time.process_time).action


_POLICIES: Final[dict[str, Callable[[Deal], Action]]] = {
    "hard": heuristic.policy("hard"), "caller": caller, "aggressive": heuristic.aggressive, "expert": _expert,
}


@dataclass(frozen=True)
class RobustGrade:
    """A position graded under every opponent model: one grade per model, the answer first in each."""

    answer: Action
    grades: dict[str, Grade]
    passed: bool
    reason: str = ""  # why it failed, for the generator's and the regrade's reports

    def least_lead(self) -> float:
        """The answer's smallest lead over any other move, under any model."""
        return min((m.diff for g in self.grades.values() for m in g.moves[1:]), default=math.inf)

    @property
    def reference(self) -> Grade:
        """The grade the page's figures come from: the expert's seats where graded, else the last model graded."""
        return self.grades.get("expert") or list(self.grades.values())[-1]


@dataclass
class _Tally:
    """One move's results under one model, sample by sample (paired with the answer's)."""

    values: list[float] = field(default_factory=list)
    won: int = 0
    caught: int = 0
    catch: int = 0
    hand: int = 0
    later: int = 0


def _outcome(deal: Deal, seat: int, cumulative: bool, tally: _Tally, later: bool) -> None:
    end = deal.outcome
    assert end is not None
    tally.values.append(float(end.points[seat] if cumulative else end.paid[seat]))
    if end.winner == seat:
        tally.won += 1
    if end.caller == seat and end.caught:
        tally.caught += 1
    elif end.caught and end.caller is not None and end.hands[seat] <= end.hands[end.caller]:
        tally.catch += 1
    tally.hand += end.hands[seat]
    tally.later += later


def play_models(deal: Deal, seat: int, models: Sequence[str]) -> list[tuple[str, Deal, bool]]:
    """``deal`` played to its end once per model of ``models`` (the other seats playing it, ``seat``
    the expert), sharing every stretch on which the models' seats agree: each model's finished
    deal, and whether ``seat`` reached another turn of its own."""
    done: list[tuple[str, Deal, bool]] = []
    stack: list[tuple[Deal, list[str], bool]] = [(deal, list(models), False)]
    while stack:
        d, ms, later = stack.pop()
        for _ in range(MAX_ACTIONS):
            if d.phase == "over":
                break
            if d.turn == seat:
                if d.phase == "start":
                    later = True
                d.play(_expert(d))
                continue
            if len(ms) == 1:
                d.play(_POLICIES[ms[0]](d))
                continue
            chosen: dict[Action, list[str]] = {}
            for m in ms:
                chosen.setdefault(_POLICIES[m](d), []).append(m)
            branches = list(chosen.items())
            for action, group in branches[1:]:
                other = d.copy()
                other.play(action)
                stack.append((other, group, later))
            d.play(branches[0][0])
            ms = branches[0][1]
        if d.phase != "over":
            raise RuntimeError(f"a play-out did not end within {MAX_ACTIONS} actions")
        done.extend((m, d, later) for m in ms)
    return done


def _stats(answer: list[float], other: list[float], gain: float) -> tuple[float, float]:
    """The mean paired lead of the answer over the other move (more is better) and its standard error."""
    n = min(len(answer), len(other))
    diffs = [gain * (a - b) for a, b in zip(answer[:n], other[:n])]
    mean = math.fsum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = math.fsum((x - mean) ** 2 for x in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def verdict(diff: float, se: float, feel: float, *, final: bool, check: bool = False) -> str:
    """``"pass"``, ``"fail"`` or ``"open"``: a move ``diff`` ± ``se`` behind the answer, at the last
    look or before it; ``check``: the regrade's rule (:data:`CHECK_CLEAR`) rather than the keeping one."""
    if not final and check:
        # a regrade fails nothing before its last look: on the first deals a skewed result's
        # standard error is often too small, and a kept answer must not fail on that alone
        return "pass" if diff >= SETTLED * se and diff - se >= feel else "open"
    if diff < 0 and -diff >= FAILED * se:
        return "fail"
    if diff + FAILED * se < feel:
        return "fail"
    if final:
        if check:
            return "pass" if diff >= CHECK_CLEAR * se and diff + se >= feel else "fail"
        return "pass" if diff >= CLEAR * se and diff >= feel else "fail"
    return "pass" if diff >= SETTLED * se and diff - se >= feel else "open"


def needs_confirming(graded: RobustGrade, feel: float) -> bool:
    """Whether a passed grade is near enough the rule that only an independent second grade may
    keep it: a grade that chose what it kept is biased upward near the rule's edge, not far past it
    (every other move :data:`FAR` times the felt lead and :data:`FAR_CLEAR` standard errors behind,
    under every model)."""
    return not all(m.diff >= FAR * feel and m.diff >= FAR_CLEAR * m.diff_se
                   for g in graded.grades.values() for m in g.moves[1:])


def holds(grade: Grade, feel: float, *, check: bool = False) -> str | None:
    """Why one model's ``grade`` (its answer first) fails the rule, or None when every other move
    is clearly and feelably behind its answer."""
    if len(grade.moves) < 2:
        return "a single move: there is nothing to decide"
    for m in grade.moves[1:]:
        if verdict(m.diff, m.diff_se, feel, final=True, check=check) != "pass":
            return f"{grade.moves[0].action} leads {m.action} by {m.diff:.2f} ± {m.diff_se:.2f}"
    return None


def robust_grade(profile: Profile, view: SeatView, answer: Action | None = None, *, seed: int | str = 0,
                 looks: Sequence[int] | None = None, models: Sequence[str] = OPPONENTS, check: bool = False
                 ) -> RobustGrade:
    """Every move of the seat on turn of ``view`` graded under each opponent model (see the module
    docstring); ``answer`` the move to hold to the rule (by default the best move under the first
    model at the first look); ``check``: the regrade's rule at the last look (:func:`verdict`);
    ``looks``: :data:`LOOKS` unless given."""
    looks = LOOKS if looks is None else looks
    if view.phase == "over" or view.seat != view.turn:
        raise GradeError("grade a live position, on the reader's turn")
    sampler = Sampler(profile, view)
    ref = sampler.deal_from(sampler.pool)
    options = moves(ref)
    if len(options) < 2:
        raise GradeError("the position has a single move: there is nothing to decide")
    seat = view.seat
    cumulative = profile.settlement == "cumulative"
    measure = measure_of(profile)
    gain = 1.0 if measure == "paid" else -1.0
    feel = feel_lead(profile)
    rng = sampler.rng(seed, "robust")
    bases: list[Deal] = []

    def base(k: int) -> Deal:
        while len(bases) <= k:
            d = sampler.sample(rng, f"{seed}/{len(bases)}")
            d.history = list(view.history)
            bases.append(d)
        return bases[k]

    keys = [move_key(a) for a in options]
    answer_i: int | None = None if answer is None else keys.index(move_key(answer)) if move_key(answer) in keys else -1
    if answer_i == -1:
        raise GradeError(f"{answer} is not a move here")
    grades: dict[str, Grade] = {}
    stages = [tuple(m for m in stage if m in models) for stage in _stages(profile)]
    for stage in [s for s in stages if s]:
        tallies = {m: [_Tally() for _ in options] for m in stage}
        open_moves = {m: set(range(len(options))) for m in stage}
        done = 0
        for look_i, look in enumerate(looks):
            final = look_i == len(looks) - 1
            for k in range(done, look):
                b = base(k)
                for i in range(len(options)):
                    wanted = [m for m in stage if i in open_moves[m]]
                    if not wanted:
                        continue
                    d = b.copy()
                    d.play(options[i])
                    if d.phase == "over":
                        for m in wanted:
                            _outcome(d, seat, cumulative, tallies[m][i], False)
                        continue
                    for m, end, later in play_models(d, seat, wanted):
                        _outcome(end, seat, cumulative, tallies[m][i], later)
            done = look
            if answer_i is None:
                first = tallies[stage[0]]
                answer_i = max(range(len(options)), key=lambda i: (gain * math.fsum(first[i].values) / done, -i))
            for m in stage:
                for i in sorted(open_moves[m] - {answer_i}):
                    diff, se = _stats(tallies[m][answer_i].values, tallies[m][i].values, gain)
                    state = verdict(diff, se, feel, final=final, check=check)
                    if state == "fail":
                        grades[m] = _grade(profile, measure, tallies[m], options, answer_i, gain)
                        return RobustGrade(options[answer_i], grades, False,
                                           f"{m}: {options[answer_i]} leads {options[i]} by {diff:.2f} ± {se:.2f} "
                                           f"after {done} deals")
                    if state == "pass":
                        open_moves[m].discard(i)
                if open_moves[m] == {answer_i}:
                    open_moves[m] = set()
            if not any(open_moves.values()):
                break
        assert answer_i is not None
        for m in stage:
            grades[m] = _grade(profile, measure, tallies[m], options, answer_i, gain)
    assert answer_i is not None
    return RobustGrade(options[answer_i], grades, True)


def _stages(profile: Profile) -> list[tuple[str, ...]]:
    """The models graded together, cheapest first (the same figures in any order: only the cost
    differs). Without a call limit the calling models end the deal at the next seat's turn, so
    they go before the hard seats' long play-outs, which would otherwise share their stage."""
    if profile.call_limit is None:
        return [CALLING, tuple(m for m in FAST if m not in CALLING), SLOW]
    return [FAST, SLOW]


def _grade(profile: Profile, measure: str, tallies: list[_Tally], options: list[Action], answer_i: int,
           gain: float) -> Grade:
    """One model's figures as a :class:`Grade`: the answer first, then every other move by its lead."""
    top = tallies[answer_i].values
    rows = []
    for i, t in enumerate(tallies):
        n = len(t.values)
        if n == 0:
            continue
        mean = math.fsum(t.values) / n
        se = _se(t.values)
        diff, diff_se = (0.0, 0.0) if i == answer_i else _stats(top, t.values, gain)
        rows.append((i != answer_i, diff, i, MoveGrade(
            action=options[i], mean=mean, se=se, diff=diff, diff_se=diff_se if math.isfinite(diff_se) else 0.0,
            won=t.won / n, caught=t.caught / n, catch=t.catch / n, hand=t.hand / n, samples=n, later=t.later / n)))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    samples = len(top)
    return Grade(profile.canonical(), "paid" if gain > 0 else "points", samples, READER, tuple(r[3] for r in rows))


def _se(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1) / n)
