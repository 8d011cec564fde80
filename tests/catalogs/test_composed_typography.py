"""French typography holds in composed text, what the engine joins included.

Every translated message passes through ``typography()``; text the engine puts together
from several messages (the score pad's "why" lines and CSV, the status line that strings
a turn's events together, a card's spoken name and its marks) must come out the same. The
check: each text a French reader gets, rendered through ``dhumbal.table.web.handle`` the
way the page's worker asks for it (matches in every profile with Hints, refused moves and
reviews; a score sheet with a caught caller, a tie, the double penalty and an
elimination), and the puzzles' and worked examples' composed sentences, is already what
``typography(text, "fr")`` makes of it: no ordinary space, or none, before : ; ! ? » and a
number's %, none missing after «. The review's defect (the "why" lines joined with "; "
outside typography) is seeded back and found.
"""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from dhumbal.core.i18n import typography

_TAG = re.compile(r"<[^>]+>")
_SPOKEN = re.compile(r'\s(?:aria-label|title|alt|placeholder|data-label-[\w-]+)="([^"]*)"')


@pytest.fixture(scope="module", autouse=True)
def compiled_catalogs() -> None:
    from dhumbal.core import i18n
    from dhumbal_site.translation import catalogs

    catalogs.compile_catalogs()
    i18n.translations.cache_clear()
    i18n.translator.cache_clear()


def _texts(value: Any) -> Iterator[str]:
    """Every piece of text in an answer: strings, and the text nodes and spoken attributes of HTML."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("hash", "sheet", "summary", "transcript", "state", "names"):
                yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, str):
        if "<" in value and ">" in value:
            body = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", value, flags=re.S)
            yield from (html.unescape(m) for m in _SPOKEN.findall(body))
            yield from (html.unescape(t).strip() for t in _TAG.split(body) if t.strip())
        else:
            yield value


def slips(texts: Iterator[str]) -> list[str]:
    """The texts French typography would change, each with the place it would change."""
    out = []
    for text in texts:
        fixed = typography(text, "fr")
        if fixed != text:
            at = next(i for i, (a, b) in enumerate(zip(text, fixed)) if a != b)
            out.append(f"…{text[max(0, at - 30):at + 10]}… in {text[:80]!r}")
    return out


def _ask(request: dict[str, Any]) -> dict[str, Any]:
    from dhumbal.table import web

    answer: dict[str, Any] = json.loads(web.handle(json.dumps(dict(request, lang="fr", table="typo"))))
    return answer


def _matches() -> Iterator[str]:
    """A short match in each profile, the reader played by a bot: every answer's text."""
    from dhumbal.bots.botlevels import choose
    from dhumbal.table import web

    rnd = random.Random(5)
    for n, (profile, options) in enumerate([("nepali-games", {"jokers": "on", "runs": "on"}), ("dashain", {}),
                                            ("cardrulesplus", {"double-penalty": "on", "limit": 5})]):
        web.close_tables()
        answer = _ask({"op": "new", "profile": profile, "options": options, "players": 3, "seed": 40 + n,
                       "difficulty": "hard"})
        yield from _texts(answer)
        for _deal in range(2):
            steps = 0
            while True:
                session = web.table("typo").session
                if session is None or session.deal is None or session.deal.is_over or not session.is_my_turn():
                    break
                steps += 1
                if steps % 4 == 1:
                    yield from _texts(_ask({"op": "hint"}))
                if rnd.random() < 0.3:
                    yield from _texts(_ask({"op": "act", "action": rnd.choice(["call", "throw K♠", "take pile A♣"])}))
                    session = web.table("typo").session
                    if session is None or session.deal is None or session.deal.is_over or not session.is_my_turn():
                        break
                yield from _texts(_ask({"op": "act", "action": choose(session.deal, "aggressive").text()}))
            yield from _texts(_ask({"op": "review"}))
            if web.table("typo").session.match_over():  # type: ignore[union-attr]
                break
            yield from _texts(_ask({"op": "next-deal"}))


def _score_sheet() -> Iterator[str]:
    """A sheet in each profile with a caught caller, a tie, the double penalty and an elimination."""
    from dhumbal.matches.scoresheet import SHEET_FORMAT

    sheets = [
        ("nepali-games", [{"c": 0, "h": [4, 4, 19, 7]}, {"c": 1, "h": [12, 3, 9, 30]}]),
        ("dashain", [{"c": 2, "h": [20, 15, 8, 11]}]),
        ("cardrulesplus(double-penalty=on)", [{"c": 0, "h": [9, 2, 40, 30]}, {"c": 1, "h": [50, 0, 45, 40]}]),
    ]
    for profile, deals in sheets:
        sheet = {"v": SHEET_FORMAT, "profile": profile, "names": ["Asha", "Bina", "Chandra", "Dipa"],
                 "dealer": 3, "deals": deals, "end": False}
        answer = _ask({"op": "scorepad", "sheet": sheet})
        assert answer.get("ok"), answer
        yield from _texts(answer)


def _puzzles_and_examples() -> Iterator[str]:
    from dhumbal.worked.puzzles import load_file, prompt, puzzle_files
    from dhumbal.worked.puzzletext import TITLE_ORDER, title_text
    from dhumbal_site.content import walkthrough

    for path in puzzle_files([walkthrough.ROOT / "puzzles"])[:40]:
        puzzle = load_file(path)
        yield from prompt(puzzle, "fr")
        yield from (title_text(puzzle, [theme], "fr") for theme in TITLE_ORDER)  # every title a position allows
    cache = walkthrough.ExampleCache()
    for example in cache.all_ids():
        yield from _texts(str(cache.rendered(example, "fr", "3")))


def test_french_composed_text_keeps_french_typography() -> None:
    found = slips(_matches()) + slips(_score_sheet()) + slips(_puzzles_and_examples())
    assert not found, f"{len(found)} text(s) out of French typography:\n" + "\n".join(found[:20])


def test_the_reviews_defect_is_found_when_seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The score pad's why lines joined with "; " outside typography, as they were (FR-N2)."""
    from dhumbal.core.i18n import translator
    from dhumbal.matches import tally

    def old_reasons(self: tally.Tally, lang: str, names: Any = None) -> list[tuple[int, str]]:
        t = translator(lang)
        return [(self.seating[i], "; ".join(t(msgid, **params) for msgid, params in parts))
                for i, parts in enumerate(tally._reasons(self, names, lang))]

    monkeypatch.setattr(tally.Tally, "reasons", old_reasons)
    found = slips(_score_sheet())
    assert found and all("; " in f for f in found), found
