"""The rules pages' bot strength table: rendered from the stored figures in every language, refused when they are bad."""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path
from typing import Any

import pytest

from dhumbal.bots.levels import percent
from dhumbal.core.i18n import number, translator
from dhumbal.core.profiles import PROFILE_KEYS
from dhumbal.lab.strength import Strength, dump, fingerprint, lineups
from dhumbal_site.content.markers import MarkerContext
from tests.sitekit import PARTIAL_LANGUAGES, SITE_LANGUAGES

#: The site's languages, from mkdocs.yml (English first).
LANGS = SITE_LANGUAGES


def _text(fragment: str) -> str:
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def _ctx(args: tuple[str, ...], lang: str = "en") -> Any:
    return MarkerContext(name="strength", args=args, options={}, raw_args=" ".join(args), lang=lang, source_lang=lang,
                         src_path=f"{lang}/rules/x.md", lineno=1, page=None, config=None, files=None)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def rows() -> list[Strength]:
    """A complete figures file with made-up wins (1,234 deals a table) and the bots' true fingerprints."""
    out = []
    for key in PROFILE_KEYS:
        for i, lineup in enumerate(lineups()):
            out.append(Strength(key, tuple(lineup), 1234, 100 * (i + 1), "1", fingerprint(key, lineup, "1")))
    return out


@pytest.fixture()
def figures(tmp_path: Path, rows: list[Strength], monkeypatch: pytest.MonkeyPatch) -> Path:
    from dhumbal_site.content import strength_table

    path = tmp_path / "strength.json"
    path.write_text(dump(rows), encoding="utf-8")
    monkeypatch.setattr(strength_table, "FIGURES", path)
    monkeypatch.setattr(strength_table, "_ROWS", {})
    return path


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_shows_the_stored_figures_in_the_page_language(figures: Path, lang: str) -> None:
    from dhumbal_site.content.strength_table import render_strength

    t = translator(lang)
    for key in PROFILE_KEYS:
        out = render_strength(_ctx((key,), lang))
        assert f'<div class="dh-strength" data-profile="{key}">' in out
        rows = re.findall(r'<tr data-level="(\w+)"><th scope="row">(.*?)</th>(.*?)</tr>', out, re.S)
        assert [level for level, _, _ in rows] == [lineup[0] for lineup in lineups()]
        for i, (_, _, cells) in enumerate(rows):
            shown = [_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)]
            share = 100 * (i + 1) / 1234
            assert shown[1] == _text(number(1234, lang)) and len(shown) == 3
            # the share, and its interval under it in the same cell (the table fits a phone)
            spans = re.findall(r'<span class="dh-strength-(share|ci)">(.*?)</span>', cells, re.S)
            assert [k for k, _ in spans] == ["share", "ci"] and _text(spans[0][1]) == _text(percent(share, lang, in_words=False))
        caption = _text(re.search(r"<caption[^>]*>(.*?)</caption>", out).group(1))  # type: ignore[union-attr]
        assert caption == _text(t("How often each bot won, measured over seeded deals"))
        if lang != "en" and lang not in PARTIAL_LANGUAGES:  # a language being translated may still read English
            assert caption != "How often each bot won, measured over seeded deals"
        if lang == "ne":
            assert "१,२३४" in out and not re.search(r"[0-9]", _text(out))  # Devanagari digits only
        won = _text(t("A bot wins a deal when the rules make it the deal's winner: the caller who is not caught, "
                      "or the player who catches the caller."))
        shared = _text(t("Under these rules a caught caller scores the penalty and everyone else scores nothing, so "
                         "nobody wins that deal outright: the others share it, each counting as a third of a win at "
                         "a table of four and a whole win head to head."))
        note = _text(re.search(r'<p class="dh-strength-note">(.*?)</p>', out, re.S).group(1))  # type: ignore[union-attr]
        # what a win is, said on each page: a caught call in cardrulesplus names no winner and is shared
        assert (shared in note) == (key == "cardrulesplus") and (won in note) == (key != "cardrulesplus")
        first = _text(t("With no call limit the reference bot calls on its very first turn, so at a table of four "
                        "three deals in four end before the expert has played at all."))
        assert (first in note) == (key == "cardrulesplus")
    en = render_strength(_ctx(("dashain",), "en"))
    assert "3 hard bots" in en and "1 aggressive reference bot" in en and "3 aggressive reference bots" in en


def test_the_committed_figures_are_complete_and_come_from_today_s_bots() -> None:
    from dhumbal_site.content import strength_table

    by_profile = strength_table.figures()
    for key in PROFILE_KEYS:
        assert sorted(r.lineup for r in by_profile[key]) == sorted(tuple(x) for x in lineups())


def test_bad_figures_are_refused_with_the_file_and_the_fix(figures: Path, rows: list[Strength]) -> None:
    from dhumbal_site.content import strength_table
    from dhumbal_site.content.strength_table import render_strength

    figures.write_text(dump(rows[1:]), encoding="utf-8")
    with pytest.raises(ValueError, match=r"strength.json: no figures for .*make strength"):
        render_strength(_ctx(("dashain",)))
    stale = [Strength(r.profile, r.lineup, r.deals, r.wins, r.seed, "f" * 16) if i == 3 else r for i, r in enumerate(rows)]
    figures.write_text(dump(stale), encoding="utf-8")
    with pytest.raises(ValueError, match=r"strength.json: .* was measured with bots that played differently"):
        render_strength(_ctx(("dashain",)))
    figures.write_text('{"format": 1, "rows": [{"profile": "dashain"}]}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"strength.json: row 1"):
        render_strength(_ctx(("dashain",)))
    figures.unlink()
    with pytest.raises(ValueError, match=r"strength.json: cannot be read"):
        render_strength(_ctx(("dashain",)))
    assert strength_table._ROWS == {}  # nothing half-read is kept


def test_the_marker_refuses_a_missing_or_unknown_profile() -> None:
    from dhumbal_site.content.strength_table import render_strength

    with pytest.raises(ValueError, match="PROFILE one of"):
        render_strength(_ctx(()))
    with pytest.raises(ValueError, match="unknown profile"):
        render_strength(_ctx(("poker",)))


@pytest.mark.parametrize("lang", LANGS)
def test_each_rules_page_shows_the_strength_table(site: Any, lang: str) -> None:
    prefix = "" if lang == "en" else f"{lang}/"
    for key in PROFILE_KEYS:
        page = (site.directory / f"{prefix}rules/{key}" / "index.html").read_text(encoding="utf-8")
        block = page[page.index(f'<div class="dh-strength" data-profile="{key}">'):]
        block = block[: block.index("</table>")]
        assert len(re.findall(r'<tr data-level="', block)) == len(lineups())


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_table_fits_a_phone_without_scrolling_sideways(site: Any, page_factory: Any, lang: str) -> None:
    page, _ = page_factory(viewport={"width": 360, "height": 780})
    prefix = "" if lang == "en" else f"{lang}/"
    for key in PROFILE_KEYS:
        page.goto(site.server.url + f"{prefix}rules/{key}/", wait_until="load")
        wrap = page.locator(f'.dh-strength[data-profile="{key}"] .dh-strength-table')
        width, room = wrap.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert width <= room, (lang, key, width, room)  # the share and its interval are on screen
        share = wrap.locator("tbody tr").last.locator(".dh-strength-ci")
        box, view = share.bounding_box(), wrap.bounding_box()
        assert box is not None and view is not None and box["x"] + box["width"] <= view["x"] + view["width"] + 1
