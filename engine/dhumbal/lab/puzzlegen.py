"""The puzzle generator: positions mined from bot-played deals, kept when one move is clearly best.

``python -m dhumbal puzzles generate --profile P --count N --seed S`` plays
seeded deals whose seats are the expert and the hard bot, turn about, and
looks at every decision of every seat (that seat is the reader). Each check
is cheaper than the next, so most positions are set aside before anything
costly runs:

1. a forced move (one distinct move) or a hand and offer that another puzzle
   already has (:func:`position_key`) is skipped; the deal's decisions are
   ranked by the themes they might have (rarer themes first, so that the set
   covers them) and by how much the fast bots disagree on them, and
   :data:`PER_DEAL` at most go on;
2. a quick grade (:data:`QUICK_SAMPLES` deals) must show the best move ahead of
   every other by a point and :data:`QUICK_MARGIN` standard errors;
3. the position is written as a puzzle file and read back (the same reader as
   every puzzle: what the file says is what is graded), then graded on
   :data:`SAMPLES` deals: the best move must lead every other by
   :data:`~dhumbal.worked.puzzles.MIN_LEAD` point and
   :data:`~dhumbal.worked.puzzles.GENERATED_MARGIN` standard errors; a position short
   of that margin only for want of deals is graded on :data:`MORE_SAMPLES`;
4. it is graded again with another seed: the same best move must lead by
   :data:`CONFIRM_MARGIN` standard errors, and its lead less :data:`CONFIRM_SE`
   standard errors must still be a point. That second grade, which chose
   nothing, is the one the file keeps: a mined grade that passed a test is
   biased upward, an independent one is not; and its margin leaves room for
   any later regrade (``make puzzles-check``) to find the same;
5. the engine must find a theme in it (:func:`dhumbal.trainer.themes.tag`) that the
   run does not have enough of yet (a theme is enough at :data:`THEME_SHARE`
   of the count: calls, above all, are everywhere), and the four bot levels
   each make their move there (the ``solvers``, which rate it).

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
from ..trainer.themes import tag
from ..worked.examples import ExampleError
from ..worked.puzzles import (
    GENERATED_MARGIN,
    MIN_LEAD,
    Puzzle,
    find_solvers,
    load_file,
    load_text,
    puzzle_files,
)

__all__ = ["GENERATOR_VERSION", "Miner", "Stats", "position_key", "puzzle_text"]

#: The generator's version, written in every file it makes (a change to what it keeps bumps it).
GENERATOR_VERSION: Final = 1
#: Positions of one deal that go on to the quick grade.
PER_DEAL: Final = 2
#: What each distinct move beyond the first among the bots' own (easy, medium, hard and the
#: move played) adds to a position's rank: positions the bots disagree on come first.
DISAGREEMENT: Final = 0.5
QUICK_SAMPLES: Final = 100
QUICK_MARGIN: Final = 2.0
SAMPLES: Final = 1_000
MORE_SAMPLES: Final = 4_000
#: The confirming grade's margin (standard errors), and the standard errors its lead must keep above a point.
CONFIRM_MARGIN: Final = 5.0
CONFIRM_SE: Final = 2.0
#: A run keeps a position only if one of its themes is held by fewer than this share of the
#: puzzles asked for (at least :data:`THEME_LEAST`), so that no theme crowds out the others.
THEME_SHARE: Final = 0.3
THEME_LEAST: Final = 3
#: Deals played per puzzle asked for, at most, before the run gives up.
MAX_DEALS_PER_PUZZLE: Final = 60
#: The seats' names (a table has at most six), and as the Nepali page writes them.
SEAT_NAMES: Final = ("Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal")
SEAT_NAMES_NE: Final = ("आशा", "विकास", "चन्द्रा", "दीपा", "ईशा", "गोपाल")


def position_key(deal: Deal) -> tuple[str, str, tuple[int, ...], tuple[int, ...]]:
    """What makes two puzzles the same: the profile, the phase, the reader's hand and the face-up cards on offer."""
    return (deal.profile.key, deal.phase, tuple(sorted(deal.hands[deal.turn])), tuple(sorted(deal.offer_cards)))


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
    kept: int = 0
    themes: dict[str, int] = field(default_factory=dict)
    cpu: float = 0.0

    def summary(self) -> str:
        themes = ", ".join(f"{k} {v}" for k, v in sorted(self.themes.items(), key=lambda kv: -kv[1]))
        return (f"{self.kept} kept from {self.deals} deals ({self.decisions} decisions: {self.forced} forced, "
                f"{self.repeated} repeated, {self.quick} quick grades, {self.unwritable} not readable back, "
                f"{self.graded} full grades, {self.unclear} not clear, {self.unconfirmed} not confirmed, "
                f"{self.untagged} without a theme, {self.crowded} of themes the run had enough of); themes: {themes or 'none'}; {self.cpu:.0f} s of CPU")


def _passes(graded: Grade, margin: float, lead_se: float = 0.0) -> bool:
    """Whether the best move leads every other by ``margin`` standard errors and, with ``lead_se``
    standard errors taken off, by a point."""
    if len(graded.moves) < 2 or not graded.is_clear(margin):
        return False
    return all(m.diff - lead_se * m.diff_se >= MIN_LEAD for m in graded.moves[1:])


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


def _number(value: float) -> str:
    text = repr(round(value, 4))
    return "0.0" if text == "-0.0" else text


def puzzle_text(start: Deal, steps: list[tuple[int, Action]], seat: int, answer: Action, *, origin: dict[str, object],
                graded: Grade | None = None, grade_seed: str = "", solvers: tuple[str, ...] = ()) -> str:
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
    out += ["", "[puzzle]", f"seat = {_toml_text(names[seat])}", f"answer = {_toml_text(answer.text())}",
            "solvers = [" + ", ".join(_toml_text(x) for x in solvers) + "]"]
    out += ["", "[puzzle.generated]", f"version = {origin['version']}",
            f"seed = {origin['seed'] if isinstance(origin['seed'], int) else _toml_text(str(origin['seed']))}",
            f"deal = {_toml_text(str(origin['deal']))}", f"move = {origin['move']}"]
    if graded is not None:
        out += ["", "[puzzle.grade]", f"seed = {_toml_text(grade_seed)}", f"profile = {_toml_text(graded.profile)}",
                f"measure = {_toml_text(graded.measure)}", f"samples = {graded.samples}", f"level = {_toml_text(graded.level)}"]
        if graded.call_caught is not None:
            out.append(f"call_caught = {_number(graded.call_caught)}")
        out.append("moves = [")
        for m in graded.moves:
            fields = [f"action = {_toml_text(m.action.text())}"] + [
                f"{k} = {_number(getattr(m, k))}" for k in ("mean", "se", "diff", "diff_se", "won", "caught", "catch", "hand")]
            out.append("  { " + ", ".join(fields) + " },")
        out.append("]")
    return "\n".join(out) + "\n"


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
        self.keys: set[tuple[str, str, tuple[int, ...], tuple[int, ...]]] = set()
        self.themes: dict[str, int] = {}
        self.enough = THEME_LEAST  # set by run() from the count
        self.rng = random.Random(f"dhumbal/puzzlegen/{GENERATOR_VERSION}/{profile.canonical()}/{seed}")
        for path in puzzle_files([out]) if out.is_dir() else []:
            try:
                known = load_file(path)
            except ExampleError:
                continue
            self.keys.add(position_key(known.deal))

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
        first = self._grade(puzzle, f"puzzlegen/{GENERATOR_VERSION}/a/{name}", SAMPLES)
        if not _passes(first, GENERATED_MARGIN):
            if not (first.is_clear(GENERATED_MARGIN * SAMPLES ** 0.5 / MORE_SAMPLES ** 0.5) and _passes(first, 0.0)):
                self.stats.unclear += 1
                return None
            first = self._grade(puzzle, f"puzzlegen/{GENERATOR_VERSION}/a/{name}", MORE_SAMPLES)
            if not _passes(first, GENERATED_MARGIN):
                self.stats.unclear += 1
                return None
        seed = f"puzzlegen/{GENERATOR_VERSION}/b/{name}"
        confirm = self._grade(puzzle, seed, first.samples)
        if confirm.best.action != first.best.action or not _passes(confirm, CONFIRM_MARGIN, CONFIRM_SE):
            self.stats.unconfirmed += 1
            return None
        themes = tag(puzzle.profile, puzzle.view(), confirm)
        if not themes:
            self.stats.untagged += 1
            return None
        if all(self.themes.get(t, 0) >= self.enough for t in themes):
            self.stats.crowded += 1
            return None
        solvers = find_solvers(puzzle, confirm)
        text = puzzle_text(start, steps, seat, confirm.best.action, origin=origin, graded=confirm, grade_seed=seed,
                           solvers=solvers)
        load_text(text, f"{name}.toml")  # what is written reads back
        path = self.out / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        self.keys.add(position_key(at))
        for t in themes:
            self.themes[t] = self.themes.get(t, 0) + 1
            self.stats.themes[t] = self.stats.themes.get(t, 0) + 1
        self.stats.kept += 1
        self.say(f"kept {path.name}: {confirm.best.action} by {confirm.moves[1].diff:.2f} ± "
                 f"{confirm.moves[1].diff_se:.2f} ({confirm.samples} deals); themes {' '.join(themes)}; "
                 f"solved by {' '.join(solvers) or 'no level'}")
        return path

    @staticmethod
    def _grade(puzzle: Puzzle, seed: str, samples: int) -> Grade:
        return grade(puzzle.deal, samples=samples, seed=seed)

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
