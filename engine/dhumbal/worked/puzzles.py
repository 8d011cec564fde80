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
carries what the generator measured: ``solvers`` (the bot levels whose own
move is the answer, for :mod:`dhumbal.trainer.rating`), ``[puzzle.generated]``
(the generator's version, its seed and the deal mined) and
``[puzzle.grade]`` (every move's figures and the seed they were graded
with), so that a site build reads the grade instead of computing it.

The steps (optional here) lead into the puzzle: the moves the table saw
before it, which the reader's seat knows of. A seat whose cards the reader
cannot see may be given as a number of cards (``Chandra = 4``): they are
dealt at random from what the position leaves (seeded by the file's name),
so "Play from here" has a whole deal to play, while the grade deals them
anew on every sample (:mod:`dhumbal.trainer.grading`, from the reader's view only).

:func:`check` holds a puzzle to a grade: the ``answer`` must be the grade's
best move, ahead of every other move by at least :attr:`Puzzle.margin`
standard errors of the difference (four for a hand-written puzzle, three
for a generated one, whose generator asked for more) and by :data:`MIN_LEAD`
points, else the file is refused at the ``answer`` line. :func:`recheck`
grades a puzzle again with a seed of its own and checks it (``python -m
dhumbal check``, ``make puzzles-check``); the site reads a generated
puzzle's grade and grades a hand-written one once per engine.

:func:`prompt` says the position in the reader's language ("You hold …;
the pile shows …; what do you do?"), from the position itself.
"""

from __future__ import annotations

import re
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..bots.botlevels import DIFFICULTIES, choose
from ..bots.expert import decide
from ..core import cards as C
from ..core.i18n import N_, NP_, translator
from ..core.profiles import Profile
from ..play.action import Action, parse_action
from ..play.deal import Deal, IllegalAction, SeatView
from ..play.records import state_from_json, state_to_json
from ..trainer.grading import CLEAR_MARGIN, MAX_GRADE_SAMPLES, Grade, grade, move_key
from ..trainer.rating import rating
from ..trainer.themes import THEMES, tag
from .examples import ExampleError, Walkthrough, example_files, load_parsed, read_text

__all__ = [
    "GENERATED_MARGIN", "MIN_LEAD", "PUZZLE_SAMPLES", "Generated", "Puzzle", "THEMES", "babel_extract", "check",
    "find_solvers", "grade_puzzle", "is_puzzle", "load_file", "load_text", "prompt", "puzzle_files", "puzzle_rating",
    "puzzle_themes", "recheck",
]

#: The keys of a hand-written puzzle's ``[puzzle]`` table, and of a generated one's.
PUZZLE_KEYS: Final = {"seat", "theme", "lead", "answer"}
GENERATED_KEYS: Final = {"seat", "answer", "solvers", "generated", "grade"}
GENERATED_INFO_KEYS: Final = {"version", "seed", "deal", "move"}
#: The longest lead, in characters.
MAX_LEAD: Final = 600
#: Sampled deals behind a hand-written puzzle's grade.
PUZZLE_SAMPLES: Final = 1_000
#: The least lead, in points, that the best move must have over every other.
MIN_LEAD: Final = 1.0
#: The standard errors a generated puzzle's best move must lead by (its generator asks
#: for more, on two grades with different seeds: see dhumbal.lab.puzzlegen).
GENERATED_MARGIN: Final = 3.0
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
    #: A generated puzzle's: what made it, its grade (and the grade's seed) and the levels that solve it.
    generated: Generated | None = None
    grade: Grade | None = None
    grade_seed: str | None = None
    solvers: tuple[str, ...] | None = None

    @property
    def margin(self) -> float:
        """The standard errors of the difference by which the answer must lead every other move."""
        return GENERATED_MARGIN if self.generated is not None else CLEAR_MARGIN

    def names_in(self, lang: str) -> list[str]:
        """The seats' names as shown in ``lang``."""
        return self.display.get(lang, self.names)

    def view(self) -> SeatView:
        """What the reader's seat knows: all a grade reads."""
        return self.deal.public_view(self.seat)

    def state(self) -> dict[str, Any]:
        """The whole position, as a table starts from it ("Play from here")."""
        return state_to_json(self.deal)


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
    generated puzzle not graded yet (its generator reads it back before grading it)."""
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
        if key not in raw and (graded or key not in ("grade", "solvers")):
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
    if generated and (graded or "grade" in raw):
        _read_generated(puzzle, raw, text, path)
    return puzzle


def _read_generated(puzzle: Puzzle, raw: dict[str, Any], text: str, path: str) -> None:
    """Fill a generated puzzle's solvers, origin and grade from its ``[puzzle]`` table."""
    def fail(key: str, message: str) -> ExampleError:
        return ExampleError(path, _puzzle_line(text, key), message)

    solvers = raw["solvers"]
    if not isinstance(solvers, list) or not all(isinstance(s, str) and s in DIFFICULTIES for s in solvers) \
            or len(set(solvers)) != len(solvers):
        raise fail("solvers", f"solvers must list bot levels, each at most once, from {', '.join(DIFFICULTIES)}")
    info = raw["generated"]
    if not isinstance(info, dict) or set(info) != GENERATED_INFO_KEYS:
        raise fail("generated", f"[puzzle.generated] needs exactly {', '.join(sorted(GENERATED_INFO_KEYS))}")
    if not (isinstance(info["version"], int) and isinstance(info["move"], int) and isinstance(info["deal"], str)
            and isinstance(info["seed"], (int, str)) and not isinstance(info["seed"], bool)):
        raise fail("generated", "[puzzle.generated]: version and move are whole numbers, deal is text, seed a number or text")
    stored = raw["grade"]
    if not isinstance(stored, dict) or not isinstance(stored.get("seed"), str):
        raise fail("grade", "[puzzle.grade] needs the seed it was graded with, as text")
    try:
        graded = Grade.from_json(stored)
    except ValueError as exc:
        raise fail("grade", f"[puzzle.grade]: {exc}") from None
    if graded.profile != puzzle.profile.canonical():
        raise fail("grade", f"the grade is for {graded.profile}, not {puzzle.profile.canonical()}")
    if not 1 <= graded.samples <= MAX_GRADE_SAMPLES:
        raise fail("grade", f"the grade's samples must be 1 to {MAX_GRADE_SAMPLES}")
    puzzle.generated = Generated(info["version"], info["seed"], info["deal"], info["move"])
    puzzle.grade = graded
    puzzle.grade_seed = stored["seed"]
    puzzle.solvers = tuple(s for s in DIFFICULTIES if s in solvers)


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


def load_file(path: str | Path, *, name: str | None = None) -> Puzzle:
    """Read and run the puzzle file at ``path`` (errors name it as ``name``, default the path)."""
    shown = name or str(path)
    return load_text(read_text(path, shown), shown)


def is_puzzle(text: str) -> bool:
    """Whether ``text`` (an example-format file) is a puzzle: it has a ``[puzzle]`` table."""
    return _puzzle_line(text) is not None


def puzzle_files(paths: list[str | Path]) -> list[Path]:
    """The ``.toml`` files named or found (sorted) under the given paths."""
    return example_files(paths)


# -- grading ------------------------------------------------------------------------------------


def grade_puzzle(puzzle: Puzzle, *, samples: int | None = None, seed: str | None = None) -> Grade:
    """Every move of the puzzle graded from the reader's view: by default on the puzzle's own
    number of samples (a generated puzzle's grade's, else :data:`PUZZLE_SAMPLES`) and seeded by
    the puzzle's name."""
    if samples is None:
        samples = puzzle.grade.samples if puzzle.grade is not None else PUZZLE_SAMPLES
    return grade(puzzle.deal, samples=samples, seed=f"puzzle/{puzzle.id}" if seed is None else seed)


def check(puzzle: Puzzle, graded: Grade) -> None:
    """Refuse (at the ``answer`` line) a puzzle whose answer is not clearly the best move of
    ``graded``, or whose grade does not grade exactly the position's legal moves."""
    if len(graded.moves) < 2:
        raise ExampleError(puzzle.path, puzzle.answer_line, "the answer is the only legal move: there is nothing to decide")
    legal = {move_key(a) for a in puzzle.deal.legal_actions()}
    if {move_key(m.action) for m in graded.moves} != legal:
        raise ExampleError(puzzle.path, puzzle.answer_line,
                           "the grade's moves are not the position's legal moves: grade the puzzle again")
    best = graded.best
    if move_key(best.action) != move_key(puzzle.answer):
        mine = graded.of(puzzle.answer)
        behind = "" if mine is None else f" ({mine.diff:.2f} ± {mine.diff_se:.2f} points behind)"
        raise ExampleError(puzzle.path, puzzle.answer_line,
                           f"the engine's best move is {best.action} ({best.mean:+.2f}), not the answer {puzzle.answer}{behind}")
    runner = min(graded.moves[1:], key=lambda m: m.diff / m.diff_se if m.diff_se else float("inf"))
    if not graded.is_clear(puzzle.margin):
        raise ExampleError(puzzle.path, puzzle.answer_line,
                           f"the answer leads {runner.action} by only {runner.diff:.2f} ± {runner.diff_se:.2f} points "
                           f"(at least {puzzle.margin:g} standard errors needed)")
    close = min(graded.moves[1:], key=lambda m: m.diff)
    if close.diff < MIN_LEAD:
        raise ExampleError(puzzle.path, puzzle.answer_line,
                           f"the answer leads {close.action} by only {close.diff:.2f} points (at least {MIN_LEAD:g} needed)")


def recheck(puzzle: Puzzle) -> Grade:
    """Grade the puzzle again with a seed it was never graded with (:data:`RECHECK_SEED`) and
    check it; a generated puzzle's stored grade and solvers are checked too. Returns the new grade."""
    if puzzle.grade is not None:
        check(puzzle, puzzle.grade)
    graded = grade_puzzle(puzzle, seed=f"{RECHECK_SEED}/{puzzle.id}")
    check(puzzle, graded)
    if puzzle.solvers is not None:
        found = find_solvers(puzzle, graded)
        if found != puzzle.solvers:
            raise ExampleError(puzzle.path, _solvers_line(puzzle),
                               f"the levels that find the answer are now {', '.join(found) or 'none'}, "
                               f"not {', '.join(puzzle.solvers) or 'none'}: generate the puzzle again")
    return graded


def _solvers_line(puzzle: Puzzle) -> int | None:
    try:
        text = Path(puzzle.path).read_text(encoding="utf-8")
    except OSError:
        return None
    return _puzzle_line(text, "solvers")


def find_solvers(puzzle: Puzzle, graded: Grade) -> tuple[str, ...]:
    """The bot levels (of :data:`dhumbal.bots.botlevels.DIFFICULTIES`) whose own move in the puzzle's
    position is the graded best move. The expert's time cap is read on the CPU clock, so that
    a busy machine cannot change its move."""
    best = move_key(graded.best.action)
    found = []
    for level in DIFFICULTIES:
        deal = puzzle.deal.copy()
        action = decide(deal, clock=time.process_time).action if level == "expert" else choose(deal, level)
        if move_key(action) == best:
            found.append(level)
    return tuple(found)


def puzzle_themes(puzzle: Puzzle, graded: Grade) -> list[str]:
    """The puzzle's themes: those the engine tags (:func:`dhumbal.trainer.themes.tag`, from the reader's
    view and the grade) and a hand-written puzzle's own, in the order of :data:`THEMES`."""
    found = set(tag(puzzle.profile, puzzle.view(), graded))
    if puzzle.theme:
        found.add(puzzle.theme)
    return [key for key in THEMES if key in found]


def puzzle_rating(graded: Grade, solvers: tuple[str, ...]) -> int:
    """The puzzle's difficulty (:func:`dhumbal.trainer.rating.rating`): the levels that solve it and the best move's lead."""
    lead = min((m.diff for m in graded.moves[1:]), default=0.0)
    return rating(solvers, lead)


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
