"""The rules pages' "chance of being caught" chart and bot levels come from the engine.

On every rules page in every language: an inline SVG chart (an image with a
title and a description in the page's language), its figures as a table
equal to :func:`dhumbal.bots.odds.chart` with the sample size stated, and the four
bot levels with the numbers the bots play by. Unit tests check the marker
handlers and the cache of chart figures between builds.
"""

from __future__ import annotations

import html as htmllib
import json
import re
from typing import Any

import pytest

from dhumbal.bots import expert, odds
from dhumbal.bots.levels import call_total, level_notes, percent
from dhumbal.core.i18n import count_text, number, translator
from dhumbal.core.profiles import PROFILE_KEYS, find_profile
from dhumbal_site.content.markers import MarkerContext
from tests.sitekit import SITE_LANGUAGES

#: The site's languages, from mkdocs.yml (English first).
LANGS = SITE_LANGUAGES


def _text(fragment: str) -> str:
    no_hidden = re.sub(r'<span class="dh-visually-hidden">.*?</span>', "", fragment, flags=re.S)
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", "", no_hidden)).split())


def _plain(text: str) -> str:
    """Text as :func:`_text` reads it (runs of spaces, narrow ones too, as one space)."""
    return " ".join(text.split())


def _page(site: Any, path: str) -> str:
    return (site.directory / path / "index.html").read_text(encoding="utf-8")


def _figure(page: str, key: str) -> str:
    start = page.index(f'<figure class="dh-odds" id="dh-odds-{key}"')
    return page[start: page.index("</figure>", start)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", PROFILE_KEYS)
def test_each_rules_page_charts_the_engine_s_odds_in_its_language(site: Any, lang: str, key: str) -> None:
    prefix = "" if lang == "en" else f"{lang}/"
    page = _page(site, f"{prefix}rules/{key}/")
    figure = _figure(page, key)
    data = odds.chart(find_profile(key))
    t = translator(lang)
    # an image with a name and a description, in the page's language
    svg = re.search(r'<svg class="dh-odds-chart"[^>]*role="img"[^>]*aria-labelledby="([^"]+)"', figure)
    assert svg is not None
    for ident in svg.group(1).split():
        assert f'id="{ident}"' in figure
    desc = _text(re.search(r"<desc[^>]*>(.*?)</desc>", figure, re.S).group(1))  # type: ignore[union-attr]
    assert _plain(t("A line chart: across, the caller's total from {low} to {high}; up, the chance that the call is caught; one line for each number of cards the other {others} players hold.",
                    low=data.totals[0], high=data.totals[-1], others=data.players - 1)) in desc
    # one line per count, one point per total
    assert len(re.findall(r"<polyline ", figure)) == len(data.counts)
    assert len(re.findall(r"<circle ", figure)) == len(data.counts) * len(data.totals)
    # the table holds the engine's figures, rounded as the page says
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', figure, re.S)
    assert [_text(r[0]) for r in rows] == [number(x, lang) for x in data.totals]
    for (_, cells), expected in zip(rows, data.caught):
        shown = [_text(c) for c in re.findall(r"<td>(.*?)</td>", cells, re.S)]  # the example hand has its own class
        assert shown == [_plain(percent(x, lang, in_words=False)) for x in expected]
    # the sample size is stated, in the language's own digits and grouping
    note = _text(figure[figure.index('class="dh-odds-note"'):])
    assert _plain(count_text(odds.CHART_SAMPLES, lang)) in note


@pytest.mark.parametrize("lang", LANGS)
def test_each_rules_page_says_how_each_bot_level_plays(site: Any, lang: str) -> None:
    prefix = "" if lang == "en" else f"{lang}/"
    for key in PROFILE_KEYS:
        page = _page(site, f"{prefix}rules/{key}/")
        block = page[page.index(f'<ul class="dh-bots" data-profile="{key}">'):]
        block = block[: block.index("</ul>")]
        items = re.findall(r'<li data-level="(\w+)">(.*?)</li>', block, re.S)
        assert [level for level, _ in items] == ["easy", "medium", "hard", "expert"]
        for (_level, body), (_, _, text) in zip(items, level_notes(find_profile(key), lang)):
            assert _plain(text) in _text(body)


def test_the_level_notes_carry_the_bots_own_numbers() -> None:
    ng, crp = find_profile("nepali-games"), find_profile("cardrulesplus")
    assert [call_total(ng, lv) for lv in ("easy", "medium", "hard")] == [5, 4, 3]
    assert [call_total(crp, lv) for lv in ("easy", "medium", "hard")] == [7, 5, 4]
    notes = dict((lv, text) for lv, _, text in level_notes(crp, "en"))
    assert "at 5 or less" in notes["medium"] and "30%" in notes["expert"] and "300 times" in notes["expert"]
    ne = dict((lv, text) for lv, _, text in level_notes(ng, "ne"))
    assert "२५%" in ne["expert"] and count_text(expert.SAMPLES, "ne") in ne["expert"]
    assert percent(0.0004, "fr") == "moins de 1\u202f%" and percent(0.9996, "en") == "more than 99%"
    assert percent(0.0004, "fr", in_words=False) == "<1\u202f%" and percent(0.9996, "en", in_words=False) == ">99%"
    assert percent(1.0, "en") == "100%" and percent(0.0, "en") == "0%"


def _ctx(args: tuple[str, ...], lang: str = "en") -> Any:
    return MarkerContext(name="call-odds", args=args, options={}, raw_args=" ".join(args), lang=lang, source_lang=lang,
                         src_path=f"{lang}/rules/x.md", lineno=1, page=None, config=None, files=None)  # type: ignore[arg-type]


def test_markers_refuse_a_missing_or_unknown_profile() -> None:
    from dhumbal_site.content.odds_chart import render_bots, render_call_odds

    for render in (render_bots, render_call_odds):
        with pytest.raises(ValueError, match="PROFILE one of"):
            render(_ctx(()))
        with pytest.raises(ValueError, match="unknown profile"):
            render(_ctx(("poker",)))


def test_chart_figures_are_kept_between_builds_and_recomputed_when_damaged(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from dhumbal_site.content import odds_chart

    calls: list[str] = []
    real = odds_chart.chart

    def counting(profile: Any) -> Any:
        calls.append(profile.canonical())
        return real(profile, samples=200)

    monkeypatch.setattr(odds_chart, "CACHE", tmp_path)
    monkeypatch.setattr(odds_chart, "chart", counting)
    monkeypatch.setattr(odds_chart, "_CHARTS", {})
    p = find_profile("dashain")
    first = odds_chart.profile_chart(p)
    files = list(tmp_path.glob("*-dashain.json"))
    assert calls == ["dashain"] and len(files) == 1 and files[0].name.startswith(odds_chart.fingerprint())
    monkeypatch.setattr(odds_chart, "_CHARTS", {})  # a new build process
    assert odds_chart.profile_chart(p) == first and calls == ["dashain"]
    files[0].write_text('{"profile": "dashain", "caught": "nonsense"}', encoding="utf-8")
    monkeypatch.setattr(odds_chart, "_CHARTS", {})
    assert odds_chart.profile_chart(p) == first and calls == ["dashain", "dashain"]
    assert json.loads(files[0].read_text(encoding="utf-8"))["samples"] == 200
