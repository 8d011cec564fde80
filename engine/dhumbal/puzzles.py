"""Puzzles ("What would you do?"): positions in files, each with the move the engine finds best.

A puzzle file is a worked-example file (:mod:`dhumbal.examples`: the same
header, position and steps, read by the same bounded reader, with the same
``file:line`` errors) with a ``[puzzle]`` table::

    [puzzle]
    seat = "Asha"              # the reader's seat: on turn once the steps are played
    theme = "catch"            # one of THEMES
    lead = "…"                 # a short lead, in the reader's words (a catalog msgid)
    answer = "throw 5♦"        # the best move, as the engine must find it

The steps (optional here) lead into the puzzle: the moves the table saw
before it, which the reader's seat knows of. A seat whose cards the reader
cannot see may be given as a number of cards (``Chandra = 4``): they are
dealt at random from what the position leaves (seeded by the file's name),
so "Play from here" has a whole deal to play, while the grade deals them
anew on every sample (:mod:`dhumbal.grading`, from the reader's view only).

:func:`load_file` reads and runs a file; :func:`check` holds it to its grade:
the ``answer`` must be the grade's best move, ahead of every other move by
at least :data:`dhumbal.grading.CLEAR_MARGIN` standard errors of the
difference and by :data:`MIN_LEAD` points, else the file is refused at the
``answer`` line. ``python -m dhumbal check`` grades puzzle files (it tells
them from examples by their ``[puzzle]`` table); the site grades them once
per engine and puzzle and keeps the figures.

:func:`prompt` says the position in the reader's language ("You hold …;
the pile shows …; what do you do?"), from the position itself.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Iterator

from . import cards as C
from .action import Action, parse_action
from .deal import Deal, IllegalAction, SeatView
from .examples import ExampleError, Walkthrough, example_files, load_text as load_example, read_text
from .grading import CLEAR_MARGIN, Grade, grade, move_key
from .i18n import N_, NP_, translator
from .profiles import Profile
from .records import state_from_json, state_to_json

__all__ = [
    "MIN_LEAD", "PUZZLE_SAMPLES", "Puzzle", "THEMES", "babel_extract", "check", "grade_puzzle", "is_puzzle",
    "load_file", "load_text", "prompt", "puzzle_files",
]

#: The puzzles' themes, in the order the page lists them, with their names.
THEMES: Final = {
    "call": N_("When to call"),
    "group": N_("Which group to throw"),
    "take": N_("Stock or pile"),
    "pair": N_("Keeping a pair"),
    "catch": N_("Catching a caller"),
    "barred": N_("The pile card that cannot go back"),
    "runs": N_("Runs and jokers"),
}
PUZZLE_KEYS: Final = {"seat", "theme", "lead", "answer"}
#: The longest lead, in characters.
MAX_LEAD: Final = 600
#: Sampled deals behind a puzzle's grade.
PUZZLE_SAMPLES: Final = 1_000
#: The least lead, in points, that the best move must have over every other.
MIN_LEAD: Final = 1.0


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
    """The line of ``[puzzle]`` (or of ``key`` inside it, or in an inline ``puzzle = { … }``)."""
    lines = text.splitlines()
    head = None
    for i, ln in enumerate(lines, start=1):
        if re.match(r"^\s*\[\s*puzzle\s*\]", ln) or re.match(r"^\s*puzzle\s*=", ln):
            head = i
            break
    if head is None or key is None:
        return head
    for i in range(head, len(lines) + 1):
        ln = lines[i - 1]
        if i > head and re.match(r"^\s*\[", ln):
            break
        if re.search(rf"(^|[\s{{,.]){re.escape(key)}\s*=", ln if i > head else ln.split("=", 1)[-1]):
            return i
    return head


def load_text(text: str, path: str) -> Puzzle:
    """Read and run the puzzle in ``text`` (``path`` names it in errors)."""
    walk = load_example(text, path, extra_keys=frozenset({"puzzle"}), min_steps=0)
    data = tomllib.loads(text)  # the example reader has read and bounded it already
    raw = data.get("puzzle")

    def fail(key: str | None, message: str) -> ExampleError:
        return ExampleError(path, _puzzle_line(text, key), message)

    if not isinstance(raw, dict):
        raise ExampleError(path, _puzzle_line(text), "a puzzle needs a [puzzle] table: seat, theme, lead and answer")
    unknown = set(raw) - PUZZLE_KEYS
    if unknown:
        k = sorted(unknown)[0]
        raise fail(k, f"unknown puzzle key {k!r}; allowed: {', '.join(sorted(PUZZLE_KEYS))}")
    for key in sorted(PUZZLE_KEYS):
        if key not in raw:
            raise fail(None, f"the [puzzle] table needs {key!r}")
        if not isinstance(raw[key], str):
            raise fail(key, f"puzzle {key} must be text in quotes")
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
    return Puzzle(
        id=Path(path).stem, path=path, title=walk.title, lead=lead, theme=raw["theme"], profile=walk.profile,
        names=names, seat=seat, deal=deal, answer=answer, answer_line=_puzzle_line(text, "answer"),
        display=dict(walk.display),
    )


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


def grade_puzzle(puzzle: Puzzle, *, samples: int = PUZZLE_SAMPLES) -> Grade:
    """Every move of the puzzle graded from the reader's view (seeded by the puzzle's name)."""
    return grade(puzzle.deal, samples=samples, seed=f"puzzle/{puzzle.id}")


def check(puzzle: Puzzle, graded: Grade) -> None:
    """Refuse (at the ``answer`` line) a puzzle whose answer is not clearly the best move."""
    best = graded.best
    if move_key(best.action) != move_key(puzzle.answer):
        mine = graded.of(puzzle.answer)
        behind = "" if mine is None else f" ({mine.diff:.2f} ± {mine.diff_se:.2f} points behind)"
        raise ExampleError(puzzle.path, puzzle.answer_line,
                           f"the engine's best move is {best.action} ({best.mean:+.2f}), not the answer {puzzle.answer}{behind}")
    if len(graded.moves) < 2:
        raise ExampleError(puzzle.path, puzzle.answer_line, "the answer is the only legal move: there is nothing to decide")
    runner = min(graded.moves[1:], key=lambda m: m.diff / m.diff_se if m.diff_se else float("inf"))
    if not graded.is_clear():
        raise ExampleError(puzzle.path, puzzle.answer_line,
                           f"the answer leads {runner.action} by only {runner.diff:.2f} ± {runner.diff_se:.2f} points "
                           f"(at least {CLEAR_MARGIN:g} standard errors needed)")
    close = min(graded.moves[1:], key=lambda m: m.diff)
    if close.diff < MIN_LEAD:
        raise ExampleError(puzzle.path, puzzle.answer_line,
                           f"the answer leads {close.action} by only {close.diff:.2f} points (at least {MIN_LEAD:g} needed)")


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
    out = [t.plural(*PROMPT_HAND, deal.total(me), cards=C.cards_text(hand))]
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
