"""Puzzles ("What would you do?"): positions in files, each with the move the engine finds best.

A puzzle file is a worked-example file (:mod:`dhumbal.worked.examples`: the same
header, position and steps, read by the same bounded reader, with the same
``file:line`` errors) with a ``[puzzle]`` table. A puzzle written by hand::

    [puzzle]
    seat = "Asha"              # the reader's seat: on turn once the steps are played
    theme = "catch"            # one of dhumbal.trainer.themes.THEMES
    lead = "…"                 # a short lead, in the reader's words (a catalog msgid)
    answer = "throw 5♦"        # the best move, as the engine must find it

A puzzle found by the generator (:mod:`dhumbal.lab.puzzlegen`) has no title,
theme or lead (the page composes its title from the position,
:mod:`dhumbal.worked.puzzletext`, so no free text reaches the catalogs) and
names its origin (``[puzzle.generated]``: the generator's version, its seed
and the deal mined). Every puzzle carries its grade (``[puzzle.grade]``,
:mod:`dhumbal.worked.puzzlegrades`: every move against every opponent model,
and the levels whose own move is the answer), written by the generator or by
``python -m dhumbal puzzles grade``, so that a site build reads it.

The steps (optional here) lead into the puzzle: the moves the table saw
before it, which the reader's seat knows of. A seat whose cards the reader
cannot see may be given as a number of cards (``Chandra = 4``): they are
dealt at random from what the position leaves (seeded by the file's name).
Nothing the page holds depends on them, or on a generated file's real
hidden hands: a grade deals them anew on every sample, and "Play from here"
starts from a deal dealt anew from the reader's view (:meth:`Puzzle.state`).

:func:`check` holds a puzzle to its grade: under every opponent model the
``answer`` must lead every other move by the rule of
:mod:`dhumbal.trainer.robust`, else the file is refused at the ``answer``
line. :func:`recheck` grades a puzzle again with a seed of its own (``python
-m dhumbal check``, ``make puzzles-check``).

:func:`prompt` says the position in the reader's language ("You hold …;
the pile shows …; what do you do?"), from the position itself.
"""

from __future__ import annotations

import re
import time
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..bots.botlevels import choose
from ..bots.expert import decide
from ..bots.sampler import Sampler
from ..core import cards as C
from ..core.i18n import N_, NP_, translator
from ..core.profiles import Profile
from ..play.action import Action, parse_action
from ..play.deal import Deal, IllegalAction, SeatView
from ..play.records import state_from_json, state_to_json
from ..trainer.grading import Grade, move_key
from ..trainer.rating import rating
from ..trainer.robust import CLEAR, OPPONENTS, RobustGrade, feel_lead, holds, robust_grade
from ..trainer.themes import THEMES, tag
from .examples import ExampleError, Walkthrough, example_files, load_parsed, read_text
from .puzzlegrades import SOLVER_LEVELS, read_grades

__all__ = [
    "Generated", "Puzzle", "THEMES", "babel_extract", "check", "find_solvers", "grade_puzzle", "is_puzzle",
    "load_file", "load_text", "prompt", "puzzle_files", "puzzle_rating", "puzzle_themes", "recheck",
]

#: The keys of a hand-written puzzle's ``[puzzle]`` table, and of a generated one's.
PUZZLE_KEYS: Final = {"seat", "theme", "lead", "answer", "grade"}
GENERATED_KEYS: Final = {"seat", "answer", "generated", "grade"}
GENERATED_INFO_KEYS: Final = {"version", "seed", "deal", "move"}
#: The longest lead, in characters.
MAX_LEAD: Final = 600
#: The seed of a regrade (python -m dhumbal check): never one a puzzle was graded with.
RECHECK_SEED: Final = "recheck"


@dataclass(frozen=True)
class Generated:
    """What made a generated puzzle: the generator's version, its seed, the deal mined and the move."""

    version: int
    seed: int | str
    deal: str
    move: int


@dataclass
class Puzzle:
    """A puzzle read and run: the position at the reader's turn and the expected best move."""

    id: str
    path: str
    title: str
    lead: str
    theme: str
    profile: Profile
    names: list[str]
    seat: int
    deal: Deal  # the position of the puzzle: the reader's seat on turn
    answer: Action
    answer_line: int | None
    display: dict[str, list[str]] = field(default_factory=dict)
    #: A generated puzzle's origin.
    generated: Generated | None = None
    #: The kept grade (every opponent model's), its seed, the levels that solve it, and the
    #: grade against the expert's seats, whose figures the page shows.
    grades: dict[str, Grade] | None = None
    grade_seed: str | None = None
    solvers: tuple[str, ...] | None = None
    grade: Grade | None = None

    def names_in(self, lang: str) -> list[str]:
        """The seats' names as shown in ``lang``."""
        return self.display.get(lang, self.names)

    def view(self) -> SeatView:
        """What the reader's seat knows: all a grade reads."""
        return self.deal.public_view(self.seat)

    def state(self) -> dict[str, Any]:
        """A position to play on from ("Play from here"): the reader's view, the cards it cannot
        see dealt anew from it (seeded by the puzzle's name and the view, so that nothing
        the page holds depends on the hidden cards of the file)."""
        view = self.view()
        sampler = Sampler(self.profile, view)
        deal = sampler.sample(sampler.rng(f"puzzle/{self.id}", "play"), seed=f"puzzle/{self.id}")
        deal.history = list(view.history)
        return state_to_json(deal)


def _puzzle_line(text: str, key: str | None = None) -> int | None:
    """The line of ``[puzzle]`` (or of ``key`` inside it, in an inline ``puzzle = { … }``, or of
    its own ``[puzzle.key]`` table)."""
    lines = text.splitlines()
    head = None
    for i, ln in enumerate(lines, start=1):
        if re.match(r"^\s*\[\s*puzzle\s*\]", ln) or re.match(r"^\s*puzzle\s*=", ln):
            head = i
            break
    if head is None or key is None:
        return head
    for i, ln in enumerate(lines, start=1):  # a table of its own: [puzzle.grade]
        if re.match(rf"^\s*\[\s*puzzle\s*\.\s*{re.escape(key)}\s*\]", ln):
            return i
    for i in range(head, len(lines) + 1):
        ln = lines[i - 1]
        if i > head and re.match(r"^\s*\[", ln):
            break
        if re.search(rf"(^|[\s{{,.]){re.escape(key)}\s*=", ln if i > head else ln.split("=", 1)[-1]):
            return i
    return head


def load_text(text: str, path: str, *, graded: bool = True) -> Puzzle:
    """Read and run the puzzle in ``text`` (``path`` names it in errors). ``graded=False``: a
    puzzle not graded yet, or graded again (its generator, or ``puzzles grade``, reads it back
    before grading it): a ``[puzzle.grade]`` table is then neither needed nor read."""
    walk, data = load_parsed(text, path, extra_keys=frozenset({"puzzle"}), min_steps=0, needs_title=False)
    raw = data.get("puzzle")
    generated = isinstance(raw, dict) and "generated" in raw
    if not generated and "title" not in data:
        raise ExampleError(walk.path, None, "missing key 'title'")

    def fail(key: str | None, message: str) -> ExampleError:
        return ExampleError(path, _puzzle_line(text, key), message)

    if not isinstance(raw, dict):
        raise ExampleError(path, _puzzle_line(text), "a puzzle needs a [puzzle] table: seat, theme, lead and answer")
    keys = GENERATED_KEYS if generated else PUZZLE_KEYS
    unknown = set(raw) - keys
    if unknown:
        k = sorted(unknown)[0]
        raise fail(k, f"unknown puzzle key {k!r}; allowed: {', '.join(sorted(keys))}")
    for key in sorted(keys):
        if key not in raw and (graded or key != "grade"):
            if key == "grade":
                raise fail(None, "the [puzzle] table needs its grade: python -m dhumbal puzzles grade "
                                 "writes it into the file")
            raise fail(None, f"the [puzzle] table needs {key!r}")
        if key in ("seat", "theme", "lead", "answer") and not isinstance(raw[key], str):
            raise fail(key, f"puzzle {key} must be text in quotes")
    if generated and "title" in data:
        raise ExampleError(path, _top_line(text, "title"),
                           "a generated puzzle has no title: the page composes it from the position")
    lead = ""
    if not generated:
        if raw["theme"] not in THEMES:
            raise fail("theme", f"unknown theme {raw['theme']!r}; themes: {', '.join(THEMES)}")
        lead = raw["lead"].strip()
        if not lead or len(lead) > MAX_LEAD or not lead.isprintable():
            raise fail("lead", f"the lead must be printable text of 1 to {MAX_LEAD} characters on one line")
    names = walk.names
    if raw["seat"] not in names:
        raise fail("seat", f"{raw['seat']!r} is not a seat; seats are {', '.join(names)}")
    seat = names.index(raw["seat"])
    position = data.get("position")
    if isinstance(position, dict) and not isinstance(position.get(raw["seat"]), str):
        raise fail("seat", f"the reader's hand must be given as cards in [position], e.g. {raw['seat']} = \"K♠ 3♥\"")
    deal = _position(walk)
    if deal.is_over:
        raise fail("seat", "the deal is over once the steps are played: there is nothing to decide")
    if deal.turn != seat:
        raise fail("seat", f"once the steps are played it is {names[deal.turn]}'s turn, not {names[seat]}'s")
    try:
        answer = parse_action(raw["answer"])
    except (IllegalAction, C.CardError):
        raise fail("answer", f"cannot read answer {raw['answer']!r}: use call, take stock, take pile [CARD], throw CARDS") from None
    refusal = deal.refusal(answer, seat)
    if refusal is not None:
        raise fail("answer", f"the answer {answer} is not a legal move here ({refusal.code}: {refusal.text()})")
    puzzle = Puzzle(
        id=Path(path).stem, path=path, title=walk.title, lead=lead, theme=raw.get("theme", ""), profile=walk.profile,
        names=names, seat=seat, deal=deal, answer=answer, answer_line=_puzzle_line(text, "answer"),
        display=dict(walk.display),
    )
    if generated:
        _read_generated(puzzle, raw, text, path)
    if graded and "grade" in raw:  # not graded: a grade there is stale, and is about to be replaced
        try:
            kept = read_grades(raw["grade"], walk.profile.canonical())
        except ValueError as exc:
            raise fail("grade", str(exc)) from None
        puzzle.grades, puzzle.grade_seed, puzzle.solvers = kept.grades, kept.seed, kept.solvers
        puzzle.grade = kept.reference
    return puzzle


def _read_generated(puzzle: Puzzle, raw: dict[str, Any], text: str, path: str) -> None:
    """Fill a generated puzzle's origin from its ``[puzzle.generated]`` table."""
    def fail(key: str, message: str) -> ExampleError:
        return ExampleError(path, _puzzle_line(text, key), message)

    info = raw["generated"]
    if not isinstance(info, dict) or set(info) != GENERATED_INFO_KEYS:
        raise fail("generated", f"[puzzle.generated] needs exactly {', '.join(sorted(GENERATED_INFO_KEYS))}")
    if not (isinstance(info["version"], int) and isinstance(info["move"], int) and isinstance(info["deal"], str)
            and isinstance(info["seed"], (int, str)) and not isinstance(info["seed"], bool)):
        raise fail("generated", "[puzzle.generated]: version and move are whole numbers, deal is text, seed a number or text")
    puzzle.generated = Generated(info["version"], info["seed"], info["deal"], info["move"])


def _top_line(text: str, key: str) -> int | None:
    for i, ln in enumerate(text.splitlines(), start=1):
        if re.match(rf"^\s*{re.escape(key)}\s*=", ln):
            return i
        if re.match(r"^\s*\[", ln):
            return None
    return None


def _position(walk: Walkthrough) -> Deal:
    """The deal once the lead-in steps are played (the position itself when there are none)."""
    return state_from_json(walk.steps[-1].state if walk.steps else walk.start_state)


def load_file(path: str | Path, *, name: str | None = None, graded: bool = True) -> Puzzle:
    """Read and run the puzzle file at ``path`` (errors name it as ``name``, default the path)."""
    shown = name or str(path)
    return load_text(read_text(path, shown), shown, graded=graded)


def is_puzzle(text: str) -> bool:
    """Whether ``text`` (an example-format file) is a puzzle: it has a ``[puzzle]`` table."""
    return _puzzle_line(text) is not None


def puzzle_files(paths: list[str | Path]) -> list[Path]:
    """The ``.toml`` files named or found (sorted) under the given paths."""
    return example_files(paths)


# -- grading ------------------------------------------------------------------------------------


def grade_puzzle(puzzle: Puzzle, *, seed: str | None = None, check: bool = False) -> RobustGrade:
    """The puzzle's answer held to the rule of :mod:`dhumbal.trainer.robust` (every move played out
    against every opponent model, the reader's seat played on by the expert), seeded by the
    puzzle's name by default; ``check``: the regrade's rule."""
    return robust_grade(puzzle.profile, puzzle.view(), puzzle.answer,
                        seed=f"puzzle/{puzzle.id}" if seed is None else seed, check=check)


def check(puzzle: Puzzle, grades: Mapping[str, Grade]) -> None:
    """Refuse (at the ``answer`` line) a puzzle whose answer is not, under every opponent model of
    ``grades``, ahead of every other move clearly and by a lead a player can feel (the rule of
    :mod:`dhumbal.trainer.robust`), or whose grades do not grade exactly the position's legal moves."""
    legal = {move_key(a) for a in puzzle.deal.legal_actions()}
    if len(legal) < 2:
        raise ExampleError(puzzle.path, puzzle.answer_line, "the answer is the only legal move: there is nothing to decide")
    feel = feel_lead(puzzle.profile)
    for model in OPPONENTS:
        graded = grades.get(model)
        if graded is None:
            raise ExampleError(puzzle.path, puzzle.answer_line, f"no grade against {model} seats: grade the puzzle again")
        if {move_key(m.action) for m in graded.moves} != legal:
            raise ExampleError(puzzle.path, puzzle.answer_line,
                               "the grade's moves are not the position's legal moves: grade the puzzle again")
        if move_key(graded.best.action) != move_key(puzzle.answer):
            raise ExampleError(puzzle.path, puzzle.answer_line,
                               f"against {model} seats the grade puts {graded.best.action} first, not the answer {puzzle.answer}")
        why_not = holds(graded, feel)
        if why_not is not None:
            raise ExampleError(puzzle.path, puzzle.answer_line,
                               f"against {model} seats {why_not} points: the answer must lead every move by "
                               f"{CLEAR:g} standard errors and by {feel:g} points")


def recheck(puzzle: Puzzle) -> RobustGrade:
    """Check the puzzle's kept grade, then grade it again with a seed it was never graded with
    (:data:`RECHECK_SEED`) under the regrade's rule, and find its solvers again. Returns the new grade."""
    if puzzle.grades is None or puzzle.solvers is None:
        raise ExampleError(puzzle.path, _puzzle_line_of(puzzle, None), "the puzzle has no grade: python -m dhumbal "
                                                                        "puzzles grade writes it into the file")
    check(puzzle, puzzle.grades)
    graded = grade_puzzle(puzzle, seed=f"{RECHECK_SEED}/{puzzle.id}", check=True)
    if not graded.passed:
        raise ExampleError(puzzle.path, puzzle.answer_line, f"graded again, the answer does not hold: {graded.reason}")
    found = find_solvers(puzzle)
    if found != puzzle.solvers:
        raise ExampleError(puzzle.path, _puzzle_line_of(puzzle, "grade"),
                           f"the levels that find the answer are now {', '.join(found) or 'none'}, "
                           f"not {', '.join(puzzle.solvers) or 'none'}: grade the puzzle again")
    return graded


def _puzzle_line_of(puzzle: Puzzle, key: str | None) -> int | None:
    try:
        text = Path(puzzle.path).read_text(encoding="utf-8")
    except OSError:
        return None
    return _puzzle_line(text, key)


def find_solvers(puzzle: Puzzle, best: Action | None = None) -> tuple[str, ...]:
    """The levels of :data:`dhumbal.worked.puzzlegrades.SOLVER_LEVELS` whose own move in the puzzle's
    position is ``best`` (by default the answer): the naive rule (the aggressive reference bot)
    and the table's four levels. The expert's time cap is read on the CPU clock, so that a busy
    machine cannot change its move."""
    wanted = move_key(puzzle.answer if best is None else best)
    found = []
    for level in SOLVER_LEVELS:
        deal = puzzle.deal.copy()
        if level == "expert":
            action = decide(deal, clock=time.process_time).action
        else:
            action = choose(deal, "aggressive" if level == "naive" else level)  # type: ignore[arg-type]
        if move_key(action) == wanted:
            found.append(level)
    return tuple(found)


def puzzle_themes(puzzle: Puzzle, graded: Grade) -> list[str]:
    """The puzzle's themes: those the engine tags (:func:`dhumbal.trainer.themes.tag`, from the reader's
    view and the grade) and a hand-written puzzle's own, in the order of :data:`THEMES`."""
    found = set(tag(puzzle.profile, puzzle.view(), graded))
    if puzzle.theme:
        found.add(puzzle.theme)
    return [key for key in THEMES if key in found]


def puzzle_rating(puzzle: Puzzle) -> int:
    """The puzzle's difficulty (:func:`dhumbal.trainer.rating.rating`): the levels that solve it and the
    answer's least lead under any opponent model, against the lead a player can feel."""
    if puzzle.grades is None or puzzle.solvers is None:
        raise ValueError(f"{puzzle.path}: the puzzle has no grade")
    lead = min(m.diff for g in puzzle.grades.values() for m in g.moves[1:])
    return rating(puzzle.solvers, lead / feel_lead(puzzle.profile))


# -- the prompt ---------------------------------------------------------------------------------

PROMPT_HAND: Final = NP_("You hold {cards}: {count} point.", "You hold {cards}: {count} points.")
PROMPT_DRAWN: Final = N_("You have drawn {card} from the stock.")
PROMPT_TAKEN: Final = N_("You have taken {card} from the pile: it cannot go back this turn.")
PROMPT_THROWN: Final = N_("You have thrown {cards}; now you take a card.")
PROMPT_PILE: Final = {
    "pile": N_("The pile shows {cards}."),
    "offer": N_("On offer: {cards}."),
    "discard": N_("The discard pile shows {cards}."),
}
PROMPT_SEAT: Final = NP_("{name} holds {count} card.", "{name} holds {count} cards.")
PROMPT_SEAT_KNOWN: Final = NP_(
    "{name} holds {count} card: {cards}, picked up in plain view.",
    "{name} holds {count} cards, among them {cards}, picked up in plain view.",
)
PROMPT_STOCK: Final = NP_("The stock holds {count} card.", "The stock holds {count} cards.")
PROMPT_ASK: Final = N_("It is your turn: what do you do?")
PROMPT_ASK_ON: Final = N_("What do you do now?")


def prompt(puzzle: Puzzle, lang: str) -> list[str]:
    """The position in sentences, from the reader's seat, in ``lang`` (cards as printed)."""
    t = translator(lang)
    deal = puzzle.deal
    p = deal.profile
    me = puzzle.seat
    names = puzzle.names_in(lang)
    hand = deal.hands[me]
    out = [t.plural(*PROMPT_HAND, deal.total(me), cards=C.cards_text(sorted(hand, key=C.sort_key)))]  # as drawn
    last = deal.history[-1] if deal.history else None
    if deal.phase == "throw" and last is not None and last[0] == me and last[1].kind == "take":
        if deal.took_from_pile is not None:
            out.append(t(PROMPT_TAKEN, card=C.card_text(deal.took_from_pile)))
        else:
            out.append(t(PROMPT_DRAWN, card=C.card_text(hand[-1])))
    if deal.phase == "take" and deal.pending:
        out.append(t(PROMPT_THROWN, cards=C.cards_text(deal.pending)))
    shown = deal.offer_cards or deal.pile[-1:]
    if shown:
        out.append(t(PROMPT_PILE[p.after_deal], cards=C.cards_text(shown)))
    n = deal.players
    for k in range(1, n):
        s = (me + k) % n
        count = len(deal.hands[s])
        known = deal.known[s]
        if known:
            out.append(t.plural(*PROMPT_SEAT_KNOWN, count, name=names[s], cards=C.cards_text(known)))
        else:
            out.append(t.plural(*PROMPT_SEAT, count, name=names[s]))
    out.append(t.plural(*PROMPT_STOCK, len(deal.stock)))
    out.append(t(PROMPT_ASK if deal.phase == "start" else PROMPT_ASK_ON))
    return out


# -- catalogs -----------------------------------------------------------------------------------


def babel_extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel extractor for puzzle files: each ``title`` and ``lead`` is a msgid."""
    text = fileobj.read().decode("utf-8")
    for lineno, line in enumerate(text.splitlines(), start=1):
        m = re.match(r'^\s*(title|lead)\s*=\s*(".*")\s*(#.*)?$', line)
        if m:
            try:
                value = tomllib.loads(f"v = {m.group(2)}")["v"]
            except tomllib.TOMLDecodeError:
                continue  # a broken line: `python -m dhumbal check` reports the file
            if isinstance(value, str):
                yield lineno, None, value, [f"puzzle {m.group(1)}"]
