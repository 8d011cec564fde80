"""The Puzzles page: each puzzle file drawn as a position to answer, graded by the engine at build time.

``<!-- dhumbal:puzzles PROFILE -->`` draws the puzzles of ``puzzles/`` in
that profile (by theme, then by name; the page puts each profile under a
heading of its own), and ``<!-- dhumbal:puzzle-progress -->`` the reader's
progress over the page's puzzles. A puzzle shows the position from the reader's seat with the one
card renderer (:mod:`dhumbal.cardface`), the prompt and the lead in the
reader's language, and the controls of the table (the hand's cards to mark,
Throw, Call, the stock and the face-up cards to take). Every legal move has
its answer built into the page (the best move with its figure against the
next, the reader's move and its figure, why, "Play from here"), so
answering needs no engine: ``dhumbal-puzzles.js`` shows the answer for the
move made and keeps the reader's progress in local storage.

**Grades at build time, kept between builds.** :func:`dhumbal.puzzles.grade_puzzle`
plays every move out on a thousand sampled deals (a second or two a puzzle).
Its figures depend only on the engine's code and the puzzle file, so each
grade is kept in ``build/puzzles/`` under a hash of both (:func:`fingerprint`:
the engine modules the grade imports, found by reading their imports, and
the file's bytes); a later build reads it back, and a changed engine or file
grades again. Every build checks every puzzle against its grade
(:func:`dhumbal.puzzles.check`): an answer the engine does not find clearly
best fails the build at the file's ``answer`` line.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from markupsafe import Markup

from dhumbal import cardface
from dhumbal import cards as C
from dhumbal.action import Action
from dhumbal.advice import best_text, samples_text, why, yours_text
from dhumbal.compare import rules_in_words
from dhumbal.examples import ExampleError
from dhumbal.grading import Grade, move_key
from dhumbal.i18n import N_, NP_, card_name, digits, number, translator
from dhumbal.profiles import PROFILE_KEYS
from dhumbal.puzzles import PUZZLE_SAMPLES, THEMES, Puzzle, check, grade_puzzle, load_file, prompt, puzzle_files
from dhumbal.view.actions import CALL_ON, throw_verdicts
from dhumbal.view.felt import CARD_COUNT, EMPTY, MAY_TAKE, NOT_TAKABLE, PILE_LABELS, STOCK, TAKE_STOCK
from dhumbal.view.felt import PICK_CARD as TAKE_CARD

from .diagram import takable
from .markers import HTMLBlock, MarkerContext
from .render import block, render

ROOT: Final = Path(__file__).resolve().parents[2]
PUZZLES: Final = ROOT / "puzzles"
#: Grades kept between builds, named by what makes them (see :func:`fingerprint`).
CACHE: Final = ROOT / "build" / "puzzles"
ENGINE: Final = ROOT / "engine" / "dhumbal"
#: The engine modules a grade runs (their imports are followed from here).
GRADE_ROOTS: Final = ("puzzles", "grading")

YOU: Final = N_("You")
CARD_POINTS: Final = NP_("{card}, {count} point", "{card}, {count} points")
BARRED: Final = N_("{card}, taken from the pile: it cannot be thrown back this turn")


# -- the grades, kept between builds ---------------------------------------------------------------


def engine_sources(roots: tuple[str, ...] = GRADE_ROOTS, engine: Path = ENGINE) -> list[str]:
    """The engine modules ``roots`` import, directly or not (imports inside functions too),
    as paths relative to the package, sorted."""
    found: set[str] = set()
    todo = [r.replace(".", "/") + ".py" for r in roots]
    while todo:
        rel = todo.pop()
        path = engine / rel
        if rel in found or not path.is_file():
            if not path.is_file() and (engine / rel[:-3] / "__init__.py").is_file():
                todo.append(rel[:-3] + "/__init__.py")
            continue
        found.add(rel)
        package = Path(rel).parent
        for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
            if isinstance(node, ast.ImportFrom):
                if node.level == 0:
                    if not (node.module or "").startswith("dhumbal"):
                        continue
                    base = Path(*(node.module or "").split(".")[1:])
                else:
                    base = package
                    for _ in range(node.level - 1):
                        base = base.parent
                    if node.module:
                        base = base / Path(*node.module.split("."))
                # ``from .x import y`` imports x; ``from . import cards`` imports cards (a module of
                # the package), else the package itself
                for alias in node.names:
                    module = (base / alias.name).as_posix() + ".py"
                    if (engine / module).is_file():
                        todo.append(module)
                    elif str(base) != ".":
                        todo.append(base.as_posix() + ".py")
                    else:
                        todo.append("__init__.py")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("dhumbal."):
                        todo.append("/".join(alias.name.split(".")[1:]) + ".py")
    return sorted(found)


@lru_cache(maxsize=1)
def _engine_digest() -> str:
    h = hashlib.sha256(f"samples={PUZZLE_SAMPLES}".encode())
    for rel in engine_sources():
        h.update(rel.encode() + b"\0" + (ENGINE / rel).read_bytes() + b"\0")
    return h.hexdigest()


def fingerprint(path: Path) -> str:
    """A hash of the engine code a grade runs (and its sample count) and of the puzzle file."""
    h = hashlib.sha256(_engine_digest().encode())
    h.update(path.read_bytes())
    return h.hexdigest()[:20]


def cached_grade(puzzle: Puzzle, path: Path, cache: Path = CACHE) -> Grade:
    """The puzzle's grade: read from ``cache`` when its fingerprint matches, else computed and kept."""
    stored = cache / f"{puzzle.id}-{fingerprint(path)}.json"
    if stored.is_file():
        try:
            return Grade.from_json(json.loads(stored.read_text(encoding="utf-8")))
        except ValueError:  # a damaged file: grade again and replace it
            pass
    graded = grade_puzzle(puzzle)
    cache.mkdir(parents=True, exist_ok=True)
    for old in cache.glob(f"{puzzle.id}-*.json"):
        old.unlink(missing_ok=True)
    scratch = stored.with_name(f".{stored.name}.{os.getpid()}")
    scratch.write_text(json.dumps(graded.to_json(), ensure_ascii=False), encoding="utf-8")
    os.replace(scratch, stored)  # whole or not at all, even with builds side by side
    return graded


# -- the set of puzzles ---------------------------------------------------------------------


class PuzzleSet:
    """Puzzles read and graded once per build (they do not depend on the language), the page
    rendered once per language."""

    def __init__(self, root: Path = PUZZLES, cache: Path = CACHE) -> None:
        self.root = root
        self.cache = cache
        self._puzzles: dict[str, Puzzle] = {}
        self._grades: dict[str, Grade] = {}
        self._rendered: dict[tuple[str, str], HTMLBlock] = {}

    def clear(self) -> None:
        self._puzzles.clear()
        self._grades.clear()
        self._rendered.clear()

    def paths(self) -> list[Path]:
        return puzzle_files([self.root]) if self.root.is_dir() else []

    def load_all(self) -> list[Puzzle]:
        """Every puzzle, read, run, graded and checked (a failure raises ``ValueError`` naming file and line)."""
        if not self._puzzles:
            for path in self.paths():
                name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
                try:
                    puzzle = load_file(path, name=name)
                    graded = cached_grade(puzzle, path, self.cache)
                    check(puzzle, graded)
                except ExampleError as exc:
                    raise ValueError(f"puzzle failed: {exc}") from None
                self._puzzles[puzzle.id] = puzzle
                self._grades[puzzle.id] = graded
        return ordered(list(self._puzzles.values()))

    def grade(self, puzzle_id: str) -> Grade:
        self.load_all()
        return self._grades[puzzle_id]

    def validate_all(self) -> None:
        """Forget earlier runs, then read, grade and check every puzzle; the first failure raises ``PluginError``."""
        from mkdocs.exceptions import PluginError

        self.clear()
        try:
            self.load_all()
        except ValueError as exc:
            raise PluginError(f"dhumbal: {exc}") from None

    def rendered(self, profile_key: str, lang: str) -> HTMLBlock:
        """The puzzles of one profile in ``lang``, numbered as on the whole page."""
        if (profile_key, lang) not in self._rendered:
            puzzles = self.load_all()
            mine = [puzzle_context(p, self._grades[p.id], lang, i + 1)
                    for i, p in enumerate(puzzles) if p.profile.key == profile_key]
            self._rendered[(profile_key, lang)] = block(
                "puzzles.html", lang, puzzles=mine, card_tokens=False,
                search=render("puzzles_search.html", lang, puzzles=mine),
            )
        return self._rendered[(profile_key, lang)]

    def progress(self, lang: str) -> HTMLBlock:
        """The line that counts the reader's solved and tried puzzles (filled by the page's script)."""
        return block("puzzle_progress.html", lang, total=len(self.load_all()), digits=digits("0123456789", lang),
                     card_tokens=False, search="")


def ordered(puzzles: list[Puzzle]) -> list[Puzzle]:
    """Profile by profile (in the site's order), theme by theme, then by name."""
    themes = list(THEMES)
    return sorted(puzzles, key=lambda p: (PROFILE_KEYS.index(p.profile.key), themes.index(p.theme), p.id))


PUZZLE_SET = PuzzleSet()


# -- one puzzle, in one language -----------------------------------------------------------------

#: A card as the engine prints it: ``K♠``, ``10♥``, or a joker ``Jk1`` (a postposition may follow: ``8♦सँग``).
_TOKEN = re.compile(r"(?<![\w])(?:(?:10|[2-9]|[AJQK])[♠♥♦♣]|Jk[12](?![0-9]))")


def rich(text: str, lang: str) -> Markup:
    """``text`` escaped, its cards (``K♠``, ``Jk1``) drawn as inline cards named in ``lang``."""
    from html import escape

    out = []
    pos = 0
    for m in _TOKEN.finditer(text):
        out.append(escape(text[pos:m.start()], quote=False))
        out.append(cardface.inline(C.parse_card(m.group(0)), lang))
        pos = m.end()
    out.append(escape(text[pos:], quote=False))
    return Markup("".join(out))


def move_code(action: Action, hand_order: list[C.Card] | None = None) -> str:
    """The page's name of a move (what the script builds from the reader's choice): ``call``,
    ``take stock``, ``take pile`` (the pile's top), ``take pile KS``, ``throw 5D KS`` (the
    cards in the order the hand shows them)."""
    if action.kind == "call":
        return "call"
    if action.kind == "take":
        tail = "".join(" " + C.card_text(c, ascii=True) for c in action.cards)
        return f"take {action.source}{tail}"
    order = hand_order or sorted(action.cards)
    return "throw " + " ".join(C.card_text(c, ascii=True) for c in order if c in action.cards)


def puzzle_context(puzzle: Puzzle, graded: Grade, lang: str, number_: int) -> dict[str, Any]:
    """What ``puzzles.html`` draws for one puzzle in ``lang``."""
    t = translator(lang)
    deal = puzzle.deal
    p = deal.profile
    me = puzzle.seat
    view = puzzle.view()
    names = puzzle.names_in(lang)
    shown_names = [t(YOU) if s == me else names[s] for s in range(deal.players)]
    hand = sorted(deal.hands[me], key=C.sort_key)
    moves = {move_key(m.action): m for m in graded.moves}

    def code_of(action: Action) -> str | None:
        m = moves.get(move_key(action))
        return move_code(m.action, hand) if m is not None else None

    # the other seats, from the reader's left
    others = []
    for k in range(1, deal.players):
        s = (me + k) % deal.players
        count = len(deal.hands[s])
        others.append({
            "name": shown_names[s], "dealer": s == deal.dealer, "turn": False,
            "count": count, "count_text": t.plural(*CARD_COUNT, count),
            "backs": Markup(cardface.backs(count, size="sm", label=t.plural(*CARD_COUNT, count))),
            "known": Markup("".join(cardface.inline(c, lang) for c in deal.known[s])),
        })
    # the middle: the stock and the face-up cards
    stock_code = code_of(Action.take_stock())
    stock_count = len(deal.stock)
    shown = deal.offer_cards or deal.pile[-1:]
    later = set(takable(deal))  # what the reader may take, now or once the throw is made
    pile_cards = []
    for c in shown:
        action = Action.take_pile() if p.take_rule == "pile-top" else Action.take_pile(c)
        code = code_of(action) if c in deal.takable_cards() else None
        pile_cards.append({
            "code": code, "card": C.card_text(c, ascii=True),
            "classes": cardface.face_classes(c, "md", marks=("takable",) if code else (), extra=("dh-pz-card",)),
            "inner": Markup(cardface.face_inner(c, "md")),
            "name": t(TAKE_CARD, card=card_name(c, lang)) if code else card_name(c, lang),
            "face": Markup(cardface.face(c, lang, size="md", marks=("takable",) if c in later else ("dim",),
                                         label=t(MAY_TAKE, card=card_name(c, lang)) if c in later
                                         else t(NOT_TAKABLE, card=card_name(c, lang)))),
        })
    # the reader's hand
    throwing = any(m.action.kind == "throw" for m in graded.moves)
    barred = deal.took_from_pile
    hand_cards = []
    for c in hand:
        spoken = t.plural(*CARD_POINTS, p.value(c), card=card_name(c, lang))
        marks = ("barred",) if c == barred else ()
        if c == barred:
            spoken = t(BARRED, card=card_name(c, lang))
        hand_cards.append({
            "card": C.card_text(c, ascii=True), "spoken": spoken, "value": p.value(c),
            "classes": cardface.face_classes(c, "md", marks=marks, extra=("dh-pz-card",)),
            "inner": Markup(cardface.face_inner(c, "md")),
            "face": Markup(cardface.face(c, lang, size="md", marks=marks, label=spoken)),
        })
    verdicts = throw_verdicts(deal, me, hand, lang, shown_names) if throwing else None
    call_code = code_of(Action.call())
    call = None
    if deal.phase == "start":
        refusal = deal.refusal(Action.call(), me)
        call = {"label": t(CALL_ON, total=deal.total(me)), "code": call_code,
                "reason": refusal.text(lang, shown_names) if refusal is not None else None}
    # the answers: one for each move, and one for a reader who only asks to see it
    answers = []
    for m in graded.moves:
        answers.append({
            "code": move_code(m.action, hand),
            "best": move_key(m.action) == move_key(graded.best.action),
            "lines": _answer_lines(puzzle, graded, view, m.action, lang),
        })
    state = {"state": puzzle.state(), "names": names}
    return {
        "id": puzzle.id,
        "number": number(number_, lang),
        "title": t.raw(puzzle.title),
        "lead": rich(t.raw(puzzle.lead), lang),
        "theme": puzzle.theme,
        "theme_name": t(THEMES[puzzle.theme]),
        "rules": rules_in_words(p, lang),
        "profile_key": p.key,
        "profile_text": p.canonical(),
        "prompt": rich(" ".join(prompt(puzzle, lang)), lang),
        "others": others,
        "stock": {"code": stock_code, "count": stock_count, "label": t(STOCK),
                  "text": t.plural(*CARD_COUNT, stock_count),
                  "name": t(TAKE_STOCK),
                  "backs": Markup(cardface.backs(min(3, stock_count), size="md"))},
        "pile_label": t(PILE_LABELS[p.after_deal]),
        "pile": pile_cards,
        "pile_empty": t(EMPTY),
        "pending": Markup("".join(cardface.face(c, lang, size="md") for c in deal.pending)) if deal.pending else None,
        "hand": hand_cards,
        "total": deal.total(me),
        "throwing": throwing,
        "verdicts": verdicts[0] if verdicts else "",
        "reasons": json.dumps(verdicts[1], ensure_ascii=False) if verdicts else "[]",
        "call": call,
        "answers": answers,
        "reveal": _answer_lines(puzzle, graded, view, None, lang),
        "best_code": move_code(graded.best.action, hand),
        "state_json": json.dumps(state, ensure_ascii=False, separators=(",", ":")),
        "names_json": json.dumps(names, ensure_ascii=False),
    }


def _answer_lines(puzzle: Puzzle, graded: Grade, view: Any, chosen: Action | None, lang: str) -> dict[str, Any]:
    profile = puzzle.deal.profile
    return {
        "best": rich(best_text(profile, view, graded, lang), lang),
        "yours": rich(yours_text(profile, view, graded, chosen, lang), lang) if chosen is not None else None,
        "why": [rich(s, lang) for s in why(profile, view, graded, chosen, lang)],
        "note": samples_text(graded, chosen, lang),
    }


def render_puzzles(ctx: MarkerContext) -> HTMLBlock:
    if len(ctx.args) != 1 or ctx.args[0] not in PROFILE_KEYS:
        raise ValueError(f"write <!-- dhumbal:puzzles PROFILE -->, PROFILE one of {', '.join(PROFILE_KEYS)}")
    if not any(p.profile.key == ctx.args[0] for p in PUZZLE_SET.load_all()):
        raise ValueError(f"no puzzle in puzzles/ is for {ctx.args[0]}")
    return PUZZLE_SET.rendered(ctx.args[0], ctx.lang)


def render_progress(ctx: MarkerContext) -> HTMLBlock:
    if ctx.args:
        raise ValueError("the puzzle-progress marker takes no arguments")
    return PUZZLE_SET.progress(ctx.lang)
