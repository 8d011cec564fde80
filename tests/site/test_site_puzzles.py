"""The Puzzles page: grades reproduced by the engine, the page in four languages, answering in the browser.

- Every puzzle's grade is what the engine computes (the kept grade read back,
  a few of them recomputed from scratch and compared figure for figure), its
  best move is legal and is the file's answer, clearly ahead of every other.
- The kept grades are named by every engine module a grade runs: the list is
  the import closure of the grading modules, so an engine change cannot
  leave a stale grade behind.
- The built page: at least twelve puzzles in each language, in the three
  profiles and every theme, each root marked ``data-dhumbal-puzzle``, an
  answer for every move of its grade, the words in the page's language
  (Nepali numbers in Devanagari); linked from the home page and every rules
  page.
- In Chromium with the engine's files blocked: a puzzle answered by marking
  cards and pressing Throw (and by keyboard), the engine's reason for cards
  that cannot go together, progress kept across a reload, "Play from here"
  moving the table beside the puzzle, no serious axe-core violation.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from dhumbal import cards as C
from htmltree import parse
from axescan import axe_here
from sitecheck import LANGUAGES, lang_prefix
from sitekit import ROOT


PUZZLE_DIR = ROOT / "puzzles"
PHONE = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True}
WIDE = {"viewport": {"width": 1366, "height": 900}}
ENGINE_FILES = ("/assets/pyodide/", "/assets/engine/", "dhumbal-worker.mjs")


# -- the grades ---------------------------------------------------------------------------


def _puzzles():
    from dhumbal.puzzles import load_file, puzzle_files

    return [(path, load_file(path, name=path.relative_to(ROOT).as_posix())) for path in puzzle_files([PUZZLE_DIR])]


def test_every_puzzle_grade_is_the_engine_s_and_its_answer_is_clearly_best() -> None:
    from dhumbal.grading import CLEAR_MARGIN, move_key
    from dhumbal.puzzles import MIN_LEAD, check
    from dhumbal_site.puzzles import cached_grade

    found = _puzzles()
    assert len(found) >= 12
    for path, puzzle in found:
        graded = cached_grade(puzzle, path)  # kept by the build (or graded now, and kept)
        check(puzzle, graded)
        best = graded.best
        assert puzzle.deal.is_legal(best.action, puzzle.seat), path
        assert move_key(best.action) == move_key(puzzle.answer), path
        assert graded.margin() >= CLEAR_MARGIN, path
        assert all(m.diff >= MIN_LEAD for m in graded.moves[1:]), path
        legal = {move_key(a) for a in puzzle.deal.legal_actions()}
        assert {move_key(m.action) for m in graded.moves} == legal, path


@pytest.mark.parametrize("name", ["da-three-of-clubs", "ng-three-single-cards", "crp-ace-discard"])
def test_a_kept_grade_is_exactly_what_the_engine_computes_now(name: str) -> None:
    from dhumbal.puzzles import grade_puzzle, load_file
    from dhumbal_site.puzzles import cached_grade

    path = PUZZLE_DIR / f"{name}.toml"
    puzzle = load_file(path)
    assert cached_grade(puzzle, path).to_json() == grade_puzzle(puzzle).to_json()


def test_the_kept_grades_are_named_by_every_engine_module_a_grade_runs() -> None:
    from dhumbal_site.puzzles import GRADE_ROOTS, engine_sources

    spec = importlib.util.spec_from_file_location("engine_imports", ROOT / "tests" / "engine" / "test_engine_imports.py")
    assert spec is not None and spec.loader is not None
    imports = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(imports)
    graph = imports.import_graph(ROOT / "engine", "dhumbal")
    modules = imports.engine_modules(ROOT / "engine", "dhumbal")
    seen: set[str] = set()
    todo = [f"dhumbal.{r}" for r in GRADE_ROOTS]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += graph.get(name, ())
    expected = {modules[name].relative_to(ROOT / "engine" / "dhumbal").as_posix() for name in seen}
    assert set(engine_sources()) == expected
    assert {"grading.py", "puzzles.py", "bots.py", "sampler.py", "deal.py", "examples.py"} <= expected


def test_a_kept_grade_changes_name_with_the_puzzle_file(tmp_path: Path) -> None:
    from dhumbal_site.puzzles import fingerprint

    a = tmp_path / "a.toml"
    a.write_text("x", encoding="utf-8")
    first = fingerprint(a)
    a.write_text("y", encoding="utf-8")
    assert fingerprint(a) != first


# -- the built page -------------------------------------------------------------------------


def puzzle_page(site, lang: str):
    return parse((site.directory / lang_prefix(lang) / "puzzles" / "index.html").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_holds_every_puzzle_with_an_answer_for_every_move(site, lang: str) -> None:
    from dhumbal.puzzles import THEMES
    from dhumbal_site.puzzles import PUZZLE_SET, move_code

    root = puzzle_page(site, lang)
    puzzles = root.find_all(lambda n: "data-dhumbal-puzzle" in n.attrs)
    assert len(puzzles) >= 12
    assert {p.attrs["data-profile"] for p in puzzles} == {"nepali-games", "dashain", "cardrulesplus"}
    assert {p.attrs["data-theme"] for p in puzzles} == set(THEMES)
    by_id = {p.id: p for p in PUZZLE_SET.load_all()}
    for node in puzzles:
        puzzle = by_id[node.attrs["data-dhumbal-puzzle"]]
        graded = PUZZLE_SET.grade(puzzle.id)
        answers = node.find_all(lambda n: "data-answer" in n.attrs)
        assert len(answers) == len(graded.moves)
        best = [a for a in answers if "dh-pz-verdict--best" in a.classes]
        assert len(best) == 1
        hand = sorted(puzzle.deal.hands[puzzle.seat], key=C.sort_key)
        assert best[0].attrs["data-answer"] == move_code(puzzle.answer, hand)
        # every move the reader can make on the page has its answer: the buttons name them
        moves = {b.attrs["data-move"] for b in node.find_all(lambda n: "data-move" in n.attrs) if b.attrs["data-move"]}
        assert moves <= {a.attrs["data-answer"] for a in answers}
        assert node.find("dh-play-from").attrs["data-example"] == f"puzzle-{puzzle.id}"
        state = json.loads(node.find("dh-play-from").attrs["data-state-json"])
        assert state["state"]["turn"] == puzzle.seat


def test_the_nepali_page_writes_its_numbers_in_devanagari(site) -> None:
    root = puzzle_page(site, "ne")
    for node in root.find_all(lambda n: "data-dhumbal-puzzle" in n.attrs):
        for part in ("dh-puzzle__prompt", "dh-pz-verdict__best", "dh-pz-verdict__why", "dh-pz-verdict__note"):
            for el in node.find_all(part):
                text = el.text(skip=lambda n: "dhc" in n.classes)  # card badges print their Latin index
                assert not re.search(r"[0-9]", text), (part, text)
                assert re.search(r"[०-९]", text), (part, text)
    progress = root.find("dh-puzzles__count").attrs["data-template"]
    assert "{solved}" in progress and "{total}" in progress
    assert root.find(lambda n: "data-digits" in n.attrs).attrs["data-digits"] == "०१२३४५६७८९"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_page_and_every_rules_page_link_to_the_puzzles(site, lang: str) -> None:
    home = (site.directory / lang_prefix(lang) / "index.html").read_text(encoding="utf-8")
    assert 'href="puzzles/"' in home
    for key in ("nepali-games", "dashain", "cardrulesplus"):
        rules = (site.directory / lang_prefix(lang) / "rules" / key / "index.html").read_text(encoding="utf-8")
        assert f'href="../../puzzles/#puzzles-{key}"' in rules, (lang, key)
    page = (site.directory / lang_prefix(lang) / "puzzles" / "index.html").read_text(encoding="utf-8")
    for key in ("nepali-games", "dashain", "cardrulesplus"):
        assert f'id="puzzles-{key}"' in page


# -- in the browser ---------------------------------------------------------------------------


def blocked_engine(page) -> list[str]:
    """Refuse the engine's files (Pyodide, the wheel, the worker); return what was asked for."""
    asked: list[str] = []

    def refuse(route) -> None:
        asked.append(route.request.url)
        route.abort()

    for part in ENGINE_FILES:
        page.route(f"**{part}**", refuse)
    return asked


def open_puzzles(site, page, lang: str = "en", *, fresh: bool = True) -> None:
    """The puzzles page in ``lang``; ``fresh``: with no progress kept from an earlier test."""
    page.goto(site.server.url + lang_prefix(lang) + "puzzles/", wait_until="load")
    page.wait_for_selector(".dh-puzzles__progress:not([hidden])")
    if fresh and page.evaluate("localStorage.getItem('dhumbal-puzzles')"):
        page.evaluate("localStorage.removeItem('dhumbal-puzzles')")
        page.reload(wait_until="load")
        page.wait_for_selector(".dh-puzzles__progress:not([hidden])")


def test_a_puzzle_is_answered_with_no_engine_and_the_progress_survives_a_reload(site, page_factory) -> None:
    page, _ = page_factory(fresh=True, **PHONE)  # routes, and no engine kept from an earlier test
    asked = blocked_engine(page)
    open_puzzles(site, page)
    kings = page.locator("#puzzle-da-two-kings")
    count = page.locator(".dh-puzzles__count")
    assert "Solved: 0 of" in count.inner_text()

    # cards that cannot go together: the engine's reason, and no answer yet
    kings.locator('.dh-pz-hand button[data-card="KS"]').click()
    kings.locator('.dh-pz-hand button[data-card="2C"]').click()
    assert "is not a run" in page.locator("#puzzle-da-two-kings-why").inner_text()
    kings.locator(".dh-pz-throw").click()
    assert kings.locator(".dh-pz-answer").is_hidden()

    # the pair of kings: the best move
    kings.locator('.dh-pz-hand button[data-card="2C"]').click()
    kings.locator('.dh-pz-hand button[data-card="KH"]').click()
    kings.locator(".dh-pz-throw").click()
    answer = kings.locator(".dh-pz-answer")
    answer.wait_for(state="visible")
    shown = answer.locator("[data-answer]:not([hidden])")
    assert shown.count() == 1
    assert shown.get_attribute("data-answer") in ("throw KS KH", "throw KH KS")
    assert "is the best one" in shown.inner_text()
    assert shown.locator(".dh-pz-verdict__best").inner_text().startswith("Best: throw")
    assert kings.get_attribute("data-result") == "best"
    assert page.evaluate("document.activeElement.id") == "puzzle-da-two-kings-answer"
    assert "Solved: 1 of" in count.inner_text()

    # a wrong answer elsewhere: tried, not solved, with the figure of the move made
    pile = page.locator("#puzzle-ng-ace-on-the-pile")
    pile.locator('.dh-pz-move[data-move="take stock"]').click()
    verdict = pile.locator(".dh-pz-answer [data-answer='take stock']")
    verdict.wait_for(state="visible")
    assert "Your move, take from the stock, averages" in verdict.inner_text()
    assert pile.get_attribute("data-result") == "other"

    page.reload(wait_until="load")
    page.wait_for_selector(".dh-puzzles__progress:not([hidden])")
    assert "Solved: 1 of" in page.locator(".dh-puzzles__count").inner_text()
    assert "Tried: 2" in page.locator(".dh-puzzles__count").inner_text()
    assert page.locator('#puzzle-da-two-kings [data-status="solved"]').is_visible()
    assert page.locator('#puzzle-ng-ace-on-the-pile [data-status="tried"]').is_visible()
    assert page.locator('#puzzle-ng-ace-on-the-pile [data-status="solved"]').is_hidden()
    assert not asked, f"the puzzles asked for the engine: {asked}"

    page.locator(".dh-puzzles__forget").click()
    assert "Solved: 0 of" in page.locator(".dh-puzzles__count").inner_text()


def test_a_puzzle_is_answered_by_keyboard_in_nepali(site, page_factory) -> None:
    page, _ = page_factory(**WIDE)
    asked = blocked_engine(page)
    open_puzzles(site, page, "ne")
    six = page.locator("#puzzle-da-third-six")
    first = six.locator('.dh-pz-hand button[tabindex="0"]')
    first.focus()
    cards = six.locator(".dh-pz-hand button[data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)")
    target = cards.index("KD")
    for _ in range(target):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "KD"
    page.keyboard.press("Space")
    assert six.locator('button[data-card="KD"]').get_attribute("aria-pressed") == "true"
    six.locator(".dh-pz-throw").focus()
    page.keyboard.press("Enter")
    six.locator(".dh-pz-answer").wait_for(state="visible")
    assert six.get_attribute("data-result") == "best"
    text = six.locator(".dh-pz-answer [data-answer]:not([hidden])").inner_text()
    assert "सबैभन्दा राम्रो" in text and re.search(r"[०-९]", text)
    assert re.search(r"[०-९]", page.locator(".dh-puzzles__count").inner_text())
    # Try again: the hand is back, unmarked, and the answer hidden
    six.locator(".dh-pz-again").click()
    assert six.locator(".dh-pz-answer").is_hidden()
    assert six.locator('button[aria-pressed="true"]').count() == 0
    assert not asked


def test_play_from_here_moves_the_table_beside_the_puzzle(site, page_factory) -> None:
    page, _ = page_factory(**WIDE)
    blocked_engine(page)  # the table's own loader is not what this test is about
    open_puzzles(site, page)
    puzzle = page.locator("#puzzle-ng-call-on-four")
    puzzle.locator(".dh-pz-call").click()
    puzzle.locator(".dh-pz-answer .dh-play-from").click()
    page.wait_for_selector('[data-dhumbal-table][data-docked="puzzle-ng-call-on-four"]')
    docked = page.evaluate(
        "document.querySelector('#puzzle-ng-call-on-four').nextElementSibling.matches('[data-dhumbal-table]')"
    )
    assert docked
    assert page.evaluate("location.hash").endswith("puzzle-ng-call-on-four")


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_no_serious_accessibility_violations_once_answered(site, page_factory, lang: str) -> None:
    page, _ = page_factory(**PHONE)
    blocked_engine(page)
    open_puzzles(site, page, lang)
    page.locator("#puzzle-crp-jack-stays .dh-pz-hand button[data-card='KD']").click()
    page.locator("#puzzle-crp-jack-stays .dh-pz-throw").click()
    page.locator("#puzzle-da-call-on-four .dh-pz-call").click()
    problems = axe_here(page)
    assert not problems, problems


def test_every_control_of_a_puzzle_is_a_finger_wide(site, page_factory) -> None:
    page, _ = page_factory(**PHONE)
    blocked_engine(page)
    open_puzzles(site, page)
    small = page.evaluate("""() => [...document.querySelectorAll(
        '[data-dhumbal-puzzle] button, [data-dhumbal-puzzle] summary')]
      .filter(b => b.offsetParent !== null)
      .map(b => [b.className, b.getBoundingClientRect()])
      .filter(([, r]) => r.width < 44 || r.height < 44)
      .map(([c, r]) => `${c}: ${Math.round(r.width)}x${Math.round(r.height)}`)""")
    assert not small, small
    wide = page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert wide, "the page scrolls sideways at 360 px"
