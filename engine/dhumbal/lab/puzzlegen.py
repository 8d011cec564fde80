"""The puzzle generator: positions mined from bot-played deals, kept when one move is best against every kind of opponent.

``python -m dhumbal puzzles generate --profile P --count N --seed S`` plays
seeded deals whose seats are the expert and the hard bot, turn about, and
looks at every decision of every seat (that seat is the reader). Each check
is cheaper than the next, so most positions are set aside before anything
costly runs:

1. a forced move (one distinct move) or a position of the same ranks as one
   the folder already has (:func:`position_key`: the hand and the face-up
   cards, suits aside) is skipped; the deal's decisions are ranked by the
   themes they might have (rarer themes first, so that the set covers them)
   and by how much the fast bots disagree on them; :data:`PER_DEAL` go on;
2. a quick grade (:data:`QUICK_SAMPLES` deals, the hard bot in every seat) must
   show one move ahead of every other by a point and :data:`QUICK_MARGIN`
   standard errors;
3. the position is written as a puzzle file and read back (what the file says
   is what is graded), then held to the rule of :mod:`dhumbal.trainer.robust`:
   every move played out against each opponent model, the reader's seat played
   on by the expert; the best move against the hard seats must lead every other
   under every model, clearly and by a lead a player can feel (the fast models
   first, so that most failures never meet the expert's seats). Its answer
   known, a near-duplicate of a puzzle the folder has
   (:func:`~dhumbal.lab.puzzleset.cluster_key`) or one of a family it has enough
   of (:data:`~dhumbal.lab.puzzleset.FAMILY_CAP`: calls on the limit) is set aside;
4. unless the first grade is far past the rule (:func:`~dhumbal.trainer.robust.needs_confirming`),
   it is graded again with another seed, the same answer held to the same rule,
   and the file keeps that second grade, which chose nothing: a grade that
   passed a test near its edge is biased upward, an independent one is not;
5. the engine must find a theme in it (:func:`dhumbal.trainer.themes.tag`) that the
   run does not have enough of yet (a theme is enough at :data:`THEME_SHARE`
   of the count: calls, above all, are everywhere), and the naive rule and the
   four bot levels each make their move there (the ``solvers``, which rate it).

One puzzle at most comes from a deal. A file holds the position at the start
of the turn from which every card the table saw picked up (and still held) was
picked, then the moves since as steps, so the reader's seat knows what it knew.
The run is reproducible: the same version, profile, seed and count give the same
files. Progress goes to a stream as one line per kept puzzle and a summary.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final, TextIO

from ..bots.expert import decide
from ..bots.heuristic import LEVELS, PATIENCE
from ..bots.heuristic import choose as bot_choose
from ..core import cards as C
from ..core.profiles import Profile
from ..play.action import Action
from ..play.deal import Deal
from ..play.groups import group_kind
from ..trainer.grading import Grade, grade, move_key, moves
from ..trainer.robust import RobustGrade, feel_lead, needs_confirming, robust_grade
from ..trainer.themes import tag
from ..worked.examples import ExampleError
from ..worked.puzzlegrades import grade_toml
from ..worked.puzzles import Puzzle, find_solvers, load_file, load_text, puzzle_files
from .puzzleset import FAMILY_CAP, ClusterKey, PositionKey, cluster_key, family, position_key

__all__ = ["GENERATOR_VERSION", "Miner", "Stats", "position_key", "puzzle_text"]  # position_key: from puzzleset

#: The generator's version, written in every file it makes (a change to what it keeps bumps it).
GENERATOR_VERSION: Final = 2
#: Positions of one deal that go on to the quick grade.
PER_DEAL: Final = 2
#: What each distinct move beyond the first among the bots' own (easy, medium, hard and the
#: move played) adds to a position's rank: positions the bots disagree on come first.
DISAGREEMENT: Final = 0.5
QUICK_SAMPLES: Final = 100
QUICK_MARGIN: Final = 2.0
#: The least lead of the quick grade, in points.
QUICK_LEAD: Final = 1.0
#: A run keeps a position only if one of its themes is held by fewer than this share of the
#: puzzles asked for (at least :data:`THEME_LEAST`), so that no theme crowds out the others.
THEME_SHARE: Final = 0.3
THEME_LEAST: Final = 3
#: Deals played per puzzle asked for, at most, before the run gives up.
MAX_DEALS_PER_PUZZLE: Final = 60
#: The seats' names (a table has at most six), and as the Nepali page writes them.
SEAT_NAMES: Final = ("Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal")
SEAT_NAMES_NE: Final = ("आशा", "विकास", "चन्द्रा", "दीपा", "ईशा", "गोपाल")


@dataclass
class Stats:
    """What a run did, for its summary."""

    deals: int = 0
    decisions: int = 0
    forced: int = 0
    repeated: int = 0
    quick: int = 0
    unwritable: int = 0
    graded: int = 0
    unclear: int = 0
    unconfirmed: int = 0
    untagged: int = 0
    crowded: int = 0
    capped: int = 0
    kept: int = 0
    themes: dict[str, int] = field(default_factory=dict)
    cpu: float = 0.0

    def summary(self) -> str:
        themes = ", ".join(f"{k} {v}" for k, v in sorted(self.themes.items(), key=lambda kv: -kv[1]))
        return (f"{self.kept} kept from {self.deals} deals ({self.decisions} decisions: {self.forced} forced, "
                f"{self.repeated} repeated, {self.quick} quick grades, {self.unwritable} not readable back, "
                f"{self.graded} full grades, {self.unclear} not best against every opponent, {self.unconfirmed} not confirmed, "
                f"{self.untagged} without a theme, {self.crowded} of themes the run had enough of, "
                f"{self.capped} of a family the folder had enough of); themes: {themes or 'none'}; {self.cpu:.0f} s of CPU")


def _passes(graded: Grade, margin: float) -> bool:
    """Whether the best move leads every other by ``margin`` standard errors and by :data:`QUICK_LEAD` points."""
    if len(graded.moves) < 2 or not graded.is_clear(margin):
        return False
    return all(m.diff >= QUICK_LEAD for m in graded.moves[1:])


def _possible_themes(deal: Deal) -> set[str]:
    """The themes a position might have, from the position alone (cheap: no grade)."""
    p = deal.profile
    me = deal.turn
    hand = deal.hands[me]
    acts = deal.legal_actions()
    found: set[str] = set()
    if any(a.kind == "call" for a in acts):
        found.add("call")
        if p.call_limit is not None and deal.total(me) == p.call_limit:
            found.add("tie")
    takes = {a.source for a in acts if a.kind == "take"}
    if takes == {"stock", "pile"}:
        found.add("take")
    throws = [a for a in acts if a.kind == "throw"]
    if throws:
        found.add("group")
        ranks = [c % 13 for c in hand if c < 52]
        if len(ranks) != len(set(ranks)):
            found.add("pair")
        if any(len(a.cards) >= 3 and group_kind(p, a.cards) == "run" for a in throws):
            found.add("runs")
    if any(c >= 52 for c in hand) or any(c >= 52 for c in deal.takable_cards()):
        found.add("joker")
    if any(deal.known[s] for s in range(deal.players) if s != me):
        found.add("pickup")
    if p.draw_first and (deal.took_from_pile is not None or "take" in found):
        found.add("barred")
    if min(len(deal.hands[s]) for s in range(deal.players) if s != me) <= 2:
        found.add("catch")
        if p.call_limit is not None and deal.total(me) > p.call_limit and throws:
            found.add("race")
    return found


def _taken_card(before: Deal, action: Action) -> C.Card | None:
    """The face-up card ``action`` (a take from the pile) took from ``before``."""
    if action.kind != "take" or action.source != "pile":
        return None
    if action.cards:
        return action.cards[0]
    if before.profile.take_rule == "pile-top":
        return before.pile_top
    return before.pile[len(before.pile) - before.offer]


def _toml_text(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def puzzle_text(start: Deal, steps: list[tuple[int, Action]], seat: int, answer: Action, *, origin: dict[str, object],
                graded: RobustGrade | None = None, grade_seed: str = "", solvers: tuple[str, ...] = ()) -> str:
    """A generated puzzle's file: ``start`` (a position at the start of a turn), the ``steps``
    that lead to the reader's decision, and the ``[puzzle]`` table (the grade and solvers once known)."""
    p = start.profile
    n = start.players
    names = SEAT_NAMES[:n]
    out = [f"# Found by `python -m dhumbal puzzles generate` (version {origin['version']}) in deal {origin['deal']}.",
           f"profile = {_toml_text(p.key)}"]
    changed = [(s.key, s.text(p.option(s.key))) for s in p.option_specs
               if s.key != "players" and p.option(s.key) != s.default]
    if changed:
        out.append("options = { " + ", ".join(f"{_toml_text(k)} = {_toml_text(v)}" for k, v in changed) + " }")
    out.append("seats = [" + ", ".join(_toml_text(x) for x in names) + "]")
    out.append("names.ne = { " + ", ".join(f"{a} = {_toml_text(b)}" for a, b in zip(names, SEAT_NAMES_NE)) + " }")
    out.append(f"dealer = {_toml_text(names[start.dealer])}")
    out += ["", "[position]"]
    for s in range(n):
        out.append(f"{names[s]} = {_toml_text(C.cards_text(start.hands[s]))}")
    offer = start.offer
    if p.take_rule == "offer-any-or-run-end":
        under, shown = start.pile[:len(start.pile) - offer], start.pile[len(start.pile) - offer:]
        out.append(f"pile = {_toml_text(C.cards_text(shown))}")
        if under:
            out.append(f"out_of_play = {_toml_text(C.cards_text(under))}")
    else:
        out.append(f"pile = {_toml_text(C.cards_text(start.pile))}")
    out.append(f"stock = {_toml_text(C.cards_text(reversed(start.stock)))}")
    out.append(f"offer = {offer}")
    out.append(f"turn = {_toml_text(names[start.turn])}")
    out.append(f"turns = {start.turns}")
    for actor, action in steps:
        out += ["", "[[steps]]", f"act = {_toml_text(f'{names[actor]}: {action.text()}')}"]
    out += ["", "[puzzle]", f"seat = {_toml_text(names[seat])}", f"answer = {_toml_text(answer.text())}"]
    out += ["", "[puzzle.generated]", f"version = {origin['version']}",
            f"seed = {origin['seed'] if isinstance(origin['seed'], int) else _toml_text(str(origin['seed']))}",
            f"deal = {_toml_text(str(origin['deal']))}", f"move = {origin['move']}"]
    text = "\n".join(out) + "\n"
    if graded is not None:
        text += "\n" + grade_toml(graded, grade_seed, solvers)
    return text


@dataclass
class _Played:
    """A deal played out, with the state before every move."""

    before: list[Deal]  # before[i]: the deal before history[i]
    deal: Deal


class Miner:
    """One run of the generator (see the module docstring)."""

    def __init__(self, profile: Profile, seed: int | str, out: Path, *, log: TextIO | None = None,
                 clock: Callable[[], float] = time.process_time) -> None:
        self.profile = profile
        self.seed = seed
        self.out = out
        self.log = log
        self.clock = clock
        self.stats = Stats()
        self.keys: set[PositionKey] = set()
        self.clusters: set[ClusterKey] = set()
        self.families: dict[str, int] = {}
        self.themes: dict[str, int] = {}
        self.enough = THEME_LEAST  # set by run() from the count
        self.rng = random.Random(f"dhumbal/puzzlegen/{GENERATOR_VERSION}/{profile.canonical()}/{seed}")
        for path in puzzle_files([out]) if out.is_dir() else []:
            try:
                known = load_file(path, graded=False)
            except ExampleError:
                continue
            self.keys.add(position_key(known.deal))
            self.clusters.add(cluster_key(known.deal, known.answer))
            name = family(known.deal, known.answer)
            if name is not None:
                self.families[name] = self.families.get(name, 0) + 1

    def say(self, line: str) -> None:
        if self.log is not None:
            self.log.write(line + "\n")
            self.log.flush()

    # -- playing ---------------------------------------------------------------------------

    def play(self, index: int) -> _Played:
        """Deal ``index`` of the run, played by the expert and the hard bot, seat about."""
        p = self.profile
        deal = Deal.new(p, f"puzzles/{self.seed}/{index}", dealer=index % p.players)
        before: list[Deal] = []
        while not deal.is_over and len(deal.history) < 4 * PATIENCE:
            before.append(deal.copy())
            expert = (deal.turn + index) % 2 == 0
            action = decide(deal, clock=self.clock).action if expert else bot_choose(deal, "hard")
            deal.play(action)
        return _Played(before, deal)

    # -- from a decision to a file ---------------------------------------------------------------

    def lead_in(self, played: _Played, move: int) -> tuple[Deal, list[tuple[int, Action]]]:
        """The position to write for the decision before ``history[move]``: the start of the
        earliest turn that holds the pick-up of every card still held in plain view (the reader's
        own turn at the latest), and the moves since."""
        history = played.deal.history
        before = played.before
        at = before[move]

        def turn_start(i: int) -> int:
            while before[i].phase != "start":
                i -= 1
            return i

        start = turn_start(move)
        for s in range(at.players):
            for card in at.known[s]:
                for j in range(move - 1, -1, -1):
                    actor, action = history[j]
                    if actor == s and _taken_card(before[j], action) == card:
                        start = min(start, turn_start(j))
                        break
        return before[start], list(history[start:move])

    def candidates(self, played: _Played) -> list[int]:
        """The decisions of a deal worth a quick grade, best first (see the module docstring)."""
        ranked = []
        for i, at in enumerate(played.before):
            self.stats.decisions += 1
            if at.turns >= PATIENCE or len(moves(at)) < 2:
                self.stats.forced += 1
                continue
            if position_key(at) in self.keys:
                self.stats.repeated += 1
                continue
            possible = _possible_themes(at)
            if all(self.themes.get(t, 0) >= self.enough for t in possible):
                self.stats.crowded += 1  # whatever it turns out to be about, the run has enough of it
                continue
            weight = sum(1.0 / (1 + self.themes.get(t, 0)) for t in possible)
            played_move = played.deal.history[i][1]
            levels = {move_key(bot_choose(at.copy(), level)) for level in LEVELS} | {move_key(played_move)}
            weight += DISAGREEMENT * (len(levels) - 1)
            ranked.append((weight + self.rng.random() * 0.5, i))
        ranked.sort(reverse=True)
        return [i for _, i in ranked[:PER_DEAL]]

    def consider(self, played: _Played, index: int, move: int) -> Path | None:
        """Grade one decision; write and return its puzzle file if it is kept."""
        at = played.before[move]
        seat = at.turn
        self.stats.quick += 1
        quick = grade(at, samples=QUICK_SAMPLES, seed=f"puzzlegen/quick/{index}/{move}")
        if not _passes(quick, QUICK_MARGIN):
            return None
        start, steps = self.lead_in(played, move)
        origin: dict[str, object] = {"version": GENERATOR_VERSION, "seed": self.seed, "deal": f"{self.seed}/{index}",
                                     "move": move}
        name = f"{self.profile.puzzles.prefix}-{self.seed}-{index}-{move}"
        text = puzzle_text(start, steps, seat, quick.best.action, origin=origin)
        try:
            puzzle = load_text(text, f"{name}.toml", graded=False)
        except ExampleError:
            self.stats.unwritable += 1
            return None
        if replace(puzzle.view(), history=()) != replace(at.public_view(seat), history=()):
            self.stats.unwritable += 1
            return None
        self.stats.graded += 1
        first = self._grade(puzzle, f"puzzlegen/{GENERATOR_VERSION}/a/{name}", None)
        if not first.passed:
            self.stats.unclear += 1
            return None
        answer = first.answer
        kin = family(at, answer)
        if cluster_key(at, answer) in self.clusters or (kin is not None and self.families.get(kin, 0) >= FAMILY_CAP[kin]):
            self.stats.capped += 1
            return None
        seed = f"puzzlegen/{GENERATOR_VERSION}/a/{name}"
        confirm = first
        if needs_confirming(first, feel_lead(self.profile)):
            seed = f"puzzlegen/{GENERATOR_VERSION}/b/{name}"
            confirm = self._grade(puzzle, seed, answer)
            if not confirm.passed:
                self.stats.unconfirmed += 1
                return None
        themes = tag(puzzle.profile, puzzle.view(), confirm.reference)
        if not themes:
            self.stats.untagged += 1
            return None
        if all(self.themes.get(t, 0) >= self.enough for t in themes):
            self.stats.crowded += 1
            return None
        puzzle.answer = answer
        solvers = find_solvers(puzzle)
        text = puzzle_text(start, steps, seat, answer, origin=origin, graded=confirm, grade_seed=seed, solvers=solvers)
        load_text(text, f"{name}.toml")  # what is written reads back
        path = self.out / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        self.keys.add(position_key(at))
        self.clusters.add(cluster_key(at, answer))
        if kin is not None:
            self.families[kin] = self.families.get(kin, 0) + 1
        for t in themes:
            self.themes[t] = self.themes.get(t, 0) + 1
            self.stats.themes[t] = self.stats.themes.get(t, 0) + 1
        self.stats.kept += 1
        self.say(f"kept {path.name}: {answer} ahead by at least {confirm.least_lead():.2f} under every model; "
                 f"themes {' '.join(themes)}; solved by {' '.join(solvers) or 'no level'}")
        return path

    @staticmethod
    def _grade(puzzle: Puzzle, seed: str, answer: Action | None) -> RobustGrade:
        return robust_grade(puzzle.profile, puzzle.view(), answer, seed=seed)

    # -- the run ----------------------------------------------------------------------------------

    def run(self, count: int) -> list[Path]:
        """Mine until ``count`` puzzles are kept (or :data:`MAX_DEALS_PER_PUZZLE` deals per puzzle are played)."""
        started = time.process_time()
        self.enough = max(THEME_LEAST, math.ceil(THEME_SHARE * count))
        kept: list[Path] = []
        index = 0
        while len(kept) < count and index < MAX_DEALS_PER_PUZZLE * count:
            played = self.play(index)
            self.stats.deals += 1
            for move in self.candidates(played):
                path = self.consider(played, index, move)
                if path is not None:
                    kept.append(path)
                    break
            index += 1
        self.stats.cpu = time.process_time() - started
        self.say(self.stats.summary())
        return kept
