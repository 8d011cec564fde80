"""The Puzzles page: a trainer over every puzzle file, one puzzle at a time, and the daily puzzle.

``<!-- dhumbal:puzzles -->`` draws the trainer: filters (the profile, the
theme, the difficulty), the stage where one puzzle at a time is shown, Next
and Previous, and the list of every puzzle (its number, title, profile,
themes and rating, on the entry as data attributes, which the filters read).
``<!-- dhumbal:puzzle-progress -->`` draws the reader's progress (solved,
tried, the streak, the daily streak, each theme's success rate), and
``<!-- dhumbal:daily-puzzle -->`` the daily puzzle on another page (the home
page). ``browser/puzzles/`` does the rest on the reader's device.

**One file per puzzle, fetched when shown.** A puzzle drawn in full (the
position with the one card renderer, :mod:`dhumbal.view.cardface`; the controls of
the table; an answer for every legal move, with its figures and why, from
:mod:`dhumbal.trainer.advice`) is 10 to 30 kB: a page holding hundreds would be
megabytes. So each puzzle is written once per language to
``<language>/puzzles/p/<id>.html`` (:meth:`PuzzleSet.write_fragments`, at the
end of the build) and the page fetches the one it shows; the service worker
keeps them with the language's pages. Answering still needs no engine.

**Grades.** Every puzzle file carries its grade (every move played out
against four kinds of opponent, :mod:`dhumbal.trainer.robust`), written by the
generator or by ``python -m dhumbal puzzles grade``: the build grades nothing.
Every build checks every puzzle against its grade
(:func:`dhumbal.worked.puzzles.check`): an answer not best under every
opponent model fails the build at the file's ``answer`` line.

**Fair play.** Nothing a puzzle's file holds depends on a card the reader
cannot see: the answers are said from the reader's view and the grades, and
"Play from here" carries a deal dealt anew from that view
(:meth:`dhumbal.worked.puzzles.Puzzle.state`) and asks the table's worker to
deal it anew again, afresh each time (``data-redeal``).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any, Final

from markupsafe import Markup

from dhumbal.bots.levels import PERCENT
from dhumbal.core import cards as C
from dhumbal.core.compare import rules_in_words
from dhumbal.core.i18n import N_, NP_, card_name, digits, number, translator
from dhumbal.core.profiles import PROFILE_KEYS, find_profile
from dhumbal.play.action import Action
from dhumbal.trainer.grading import Grade, move_key
from dhumbal.trainer.rating import BANDS, band
from dhumbal.view import cardface
from dhumbal.view.actions import CALL_ON, throw_verdicts
from dhumbal.view.felt import CARD_COUNT, EMPTY, MAY_TAKE, NOT_TAKABLE, PILE_LABELS, STOCK, TAKE_STOCK
from dhumbal.view.felt import PICK_CARD as TAKE_CARD
from dhumbal.worked.examples import ExampleError
from dhumbal.worked.puzzleanswer import answer_lines
from dhumbal.worked.puzzles import (
    THEMES,
    Puzzle,
    check,
    load_file,
    prompt,
    puzzle_files,
    puzzle_rating,
    puzzle_themes,
)
from dhumbal.worked.puzzletext import lead_text, title_text

from .. import ROOT
from .diagram import takable
from .markers import HTMLBlock, MarkerContext
from .render import block, render

PUZZLES: Final = ROOT / "puzzles"

YOU: Final = N_("You")
CARD_POINTS: Final = NP_("{card}, {count} point", "{card}, {count} points")
BARRED: Final = N_("{card}, taken from the pile: it cannot be thrown back this turn")
#: The difficulty filters' names, by band (dhumbal.trainer.rating.BANDS).
BAND_NAMES: Final = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard")}
#: Where a language's puzzles are written, under its root, and the page that shows them.
FRAGMENTS: Final = "puzzles/p"
PAGE: Final = "puzzles.md"


# -- the set of puzzles ---------------------------------------------------------------------


class Entry:
    """One puzzle of the set, read with its grade: what every page shows of it in any language."""

    __slots__ = ("puzzle", "grade", "solvers", "themes", "rating", "number")

    def __init__(self, puzzle: Puzzle) -> None:
        assert puzzle.grade is not None and puzzle.solvers is not None
        self.puzzle = puzzle
        self.grade: Grade = puzzle.grade  # against the expert's seats: the figures the page shows
        self.solvers = puzzle.solvers
        self.themes = puzzle_themes(puzzle, puzzle.grade)
        self.rating = puzzle_rating(puzzle)
        self.number = 0

    @property
    def id(self) -> str:
        return self.puzzle.id


class PuzzleSet:
    """Puzzles read, graded and numbered once per build (they do not depend on the language);
    each puzzle and each block rendered once per language."""

    def __init__(self, root: Path = PUZZLES) -> None:
        self.root = root
        self._entries: list[Entry] = []
        self._by_id: dict[str, Entry] = {}
        self._rendered: dict[tuple[str, ...], HTMLBlock] = {}
        self._fragments: dict[tuple[str, str], str] = {}
        self._languages: set[str] = set()  # the languages whose pages show puzzles

    def clear(self) -> None:
        self._entries.clear()
        self._by_id.clear()
        self._rendered.clear()
        self._fragments.clear()
        self._languages.clear()

    def paths(self) -> list[Path]:
        return puzzle_files([self.root]) if self.root.is_dir() else []

    def entries(self) -> list[Entry]:
        """Every puzzle, read, run and checked against its grade, in the page's order and numbered
        (a failure raises ``ValueError`` naming file and line)."""
        if not self._entries:
            found = []
            for path in self.paths():
                name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
                try:
                    puzzle = load_file(path, name=name)
                    assert puzzle.grades is not None  # a puzzle without its grade does not load
                    check(puzzle, puzzle.grades)
                except ExampleError as exc:
                    raise ValueError(f"puzzle failed: {exc}") from None
                found.append(Entry(puzzle))
            self._entries = ordered(found)
            for i, entry in enumerate(self._entries):
                entry.number = i + 1
            self._by_id = {e.id: e for e in self._entries}
        return self._entries

    def entry(self, puzzle_id: str) -> Entry:
        self.entries()
        return self._by_id[puzzle_id]

    def grade(self, puzzle_id: str) -> Grade:
        return self.entry(puzzle_id).grade

    def validate_all(self) -> None:
        """Forget earlier runs, then read and check every puzzle; the first failure raises ``PluginError``."""
        from mkdocs.exceptions import PluginError

        self.clear()
        try:
            self.entries()
        except ValueError as exc:
            raise PluginError(f"dhumbal: {exc}") from None

    def daily_order(self) -> list[str]:
        """The order the daily puzzle goes through the set: day ``d`` (counted in days since
        1970-01-01, UTC) shows entry ``d mod n``. A fixed shuffle, so that days in a row differ in
        profile and theme, and the same for every reader and every language."""
        return [e.id for e in sorted(self.entries(), key=lambda e: hashlib.sha256(f"daily/{e.id}".encode()).hexdigest())]

    # -- what the pages show -------------------------------------------------------------------

    def fragment(self, puzzle_id: str, lang: str) -> str:
        """One puzzle drawn in full in ``lang``: the file the page fetches when it shows it."""
        key = (puzzle_id, lang)
        if key not in self._fragments:
            entry = self.entry(puzzle_id)
            self._fragments[key] = render("puzzle.html", lang, pz=puzzle_context(entry, lang))
        return self._fragments[key]

    def fragments(self, lang: str) -> dict[str, str]:
        """Every puzzle drawn in ``lang``, by id."""
        return {e.id: self.fragment(e.id, lang) for e in self.entries()}

    def write_fragments(self, site: Path, prefixes: dict[str, str]) -> int:
        """Write every puzzle of every language a page showed (``prefixes``: each language's
        folder under ``site``) to ``<folder>/puzzles/p/<id>.html``; how many files were written."""
        written = 0
        for lang in sorted(self._languages):
            if lang not in prefixes:
                continue
            folder = site / prefixes[lang] / FRAGMENTS
            folder.mkdir(parents=True, exist_ok=True)
            for puzzle_id, html in self.fragments(lang).items():
                (folder / f"{puzzle_id}.html").write_text(html + "\n", encoding="utf-8")
                written += 1
        return written

    def trainer(self, lang: str) -> HTMLBlock:
        """The trainer in ``lang``: filters, the stage, Next, and the list of every puzzle."""
        key = ("trainer", lang)
        self._languages.add(lang)
        if key not in self._rendered:
            t = translator(lang)
            entries = self.entries()
            themes = [{"key": k, "name": t(th.name), "explanation": t(th.explanation),
                       "count": sum(1 for e in entries if k in e.themes)} for k, th in THEMES.items()]
            profiles = [{"key": k, "name": t(find_profile(k).name),
                         "count": sum(1 for e in entries if e.puzzle.profile.key == k)} for k in PROFILE_KEYS]
            bands = [{"key": b, "name": t(BAND_NAMES[b]), "low": low,
                      "count": sum(1 for e in entries if band(e.rating) == b)} for b, low in BANDS]
            rows = [list_entry(e, lang) for e in entries]
            self._rendered[key] = block(
                "puzzle_trainer.html", lang, entries=rows, themes=themes, profiles=profiles, bands=bands,
                total=len(entries), daily=" ".join(self.daily_order()), src="p/",
                digits=digits("0123456789", lang), card_tokens=False,
                search=render("puzzles_search.html", lang, themes=themes, total=len(entries)),
            )
        return self._rendered[key]

    def progress(self, lang: str) -> HTMLBlock:
        """The reader's progress (filled by the page's script): solved and tried, the streaks,
        each theme's success rate."""
        key = ("progress", lang)
        if key not in self._rendered:
            t = translator(lang)
            themes = [{"key": k, "name": t(th.name)} for k, th in THEMES.items()]
            self._rendered[key] = block("puzzle_progress.html", lang, total=len(self.entries()), themes=themes,
                                        percent=t(PERCENT, percent="{n}"), digits=digits("0123456789", lang),
                                        card_tokens=False, search="")
        return self._rendered[key]

    def daily(self, lang: str, src: str, page: str) -> HTMLBlock:
        """The daily puzzle on another page: ``src`` the folder of the puzzles' files, ``page`` the
        Puzzles page, both relative to that page."""
        key = ("daily", lang, src, page)
        self._languages.add(lang)
        if key not in self._rendered:
            self._rendered[key] = block("puzzle_daily.html", lang, daily=" ".join(self.daily_order()), src=src,
                                        page=page, digits=digits("0123456789", lang), card_tokens=False, search="")
        return self._rendered[key]


def ordered(entries: list[Entry]) -> list[Entry]:
    """Profile by profile (in the site's order), then from the lowest rating, then by name."""
    return sorted(entries, key=lambda e: (PROFILE_KEYS.index(e.puzzle.profile.key), e.rating, e.id))


PUZZLE_SET = PuzzleSet()


def list_entry(entry: Entry, lang: str) -> dict[str, Any]:
    """One puzzle as the trainer's list shows it (and its filters read)."""
    t = translator(lang)
    p = entry.puzzle
    return {
        "id": entry.id, "number": number(entry.number, lang), "profile_key": p.profile.key,
        "profile": t(p.profile.name), "themes": " ".join(entry.themes),
        "theme_names": ", ".join(t(THEMES[k].name) for k in entry.themes),
        "rating": entry.rating, "rating_text": number(entry.rating, lang), "band": band(entry.rating),
        "title": rich(title_text(p, entry.themes, lang), lang),
    }


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


def puzzle_context(entry: Entry, lang: str) -> dict[str, Any]:
    """What ``puzzle.html`` draws for one puzzle in ``lang``."""
    t = translator(lang)
    puzzle, graded = entry.puzzle, entry.grade
    deal = puzzle.deal
    p = deal.profile
    me = puzzle.seat
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
            "lines": _answer_lines(puzzle, m.action, lang, shown_names),
        })
    state = {"state": puzzle.state(), "names": names}  # dealt anew from the reader's view
    return {
        "id": puzzle.id,
        "number": number(entry.number, lang),
        "title": rich(title_text(puzzle, entry.themes, lang), lang),
        "lead": rich(lead_text(puzzle, lang), lang),
        "themes": [{"key": k, "name": t(THEMES[k].name), "explanation": t(THEMES[k].explanation)} for k in entry.themes],
        "themes_attr": " ".join(entry.themes),
        "rating": entry.rating,
        "rating_text": number(entry.rating, lang),
        "band": t(BAND_NAMES[band(entry.rating)]),
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
        "reveal": _answer_lines(puzzle, None, lang, shown_names),
        "best_code": move_code(graded.best.action, hand),
        "state_json": json.dumps(state, ensure_ascii=False, separators=(",", ":")),
        "names_json": json.dumps(names, ensure_ascii=False),
    }


def _answer_lines(puzzle: Puzzle, chosen: Action | None, lang: str, names: list[str]) -> dict[str, Any]:
    """A move's answer (the best move's line is said once, for every move: see puzzle.html)."""
    lines = answer_lines(puzzle, chosen, lang, names)
    return {
        "best": rich(lines["best"], lang) if lines["best"] else None,
        "yours": rich(lines["yours"], lang) if lines["yours"] else None,
        "why": [rich(s, lang) for s in lines["why"]],
        "note": lines["note"],
    }


def render_puzzles(ctx: MarkerContext) -> HTMLBlock:
    if ctx.args:
        raise ValueError("write <!-- dhumbal:puzzles -->: the trainer takes no arguments (its filters choose the profile)")
    if not PUZZLE_SET.entries():
        raise ValueError("there is no puzzle in puzzles/")
    return PUZZLE_SET.trainer(ctx.lang)


def render_progress(ctx: MarkerContext) -> HTMLBlock:
    if ctx.args:
        raise ValueError("the puzzle-progress marker takes no arguments")
    return PUZZLE_SET.progress(ctx.lang)


def render_daily(ctx: MarkerContext) -> HTMLBlock:
    """The daily puzzle, on a page other than the Puzzles page (the home page)."""
    from .generated import page_link

    if ctx.args:
        raise ValueError("the daily-puzzle marker takes no arguments")
    page = page_link(ctx, PAGE)
    if page is None:
        raise ValueError(f"the daily puzzle needs the page {PAGE}")
    return PUZZLE_SET.daily(ctx.lang, src=page + "p/", page=page)
