"""Generated content comes from the engine and the data files, never from a page.

The comparison cells in every built language equal what ``dhumbal.core.compare``
computes from the profiles; changing a profile's data changes the page; the
worked examples show the engine's figures; the glossary and the translation
status come from their sources.
"""

from __future__ import annotations

import html as htmllib
import json
import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from dhumbal.core.compare import comparison, options_table
from dhumbal.core.profiles import find_profile
from tests.sitekit import SITE_LANGUAGES

#: The site's languages, from mkdocs.yml (English first).
LANGS = SITE_LANGUAGES


def _text(fragment: str) -> str:
    """Visible text of an HTML fragment (card badges keep their printed face)."""
    no_hidden = re.sub(r'<span class="dh-visually-hidden">.*?</span>', "", fragment, flags=re.S)
    no_tags = re.sub(r"<[^>]+>", "", no_hidden)
    return " ".join(htmllib.unescape(no_tags).split())


def _page(site: Any, path: str) -> str:
    return (site.directory / path / "index.html").read_text(encoding="utf-8")


def _compare_rows(page: str) -> dict[str, list[str]]:
    rows = {}
    for key, body in re.findall(r'<tr class="dh-(?:differs|same)" data-row="([^"]+)"[^>]*>(.*?)</tr>', page, re.S):
        rows[key] = [_text(c) for c in re.findall(r'<span class="dh-cell-text">(.*?)</span></td>', body, re.S)]
    return rows


@pytest.mark.parametrize("lang", LANGS)
def test_comparison_cells_equal_the_engine_profile_data(site: Any, lang: str) -> None:
    prefix = "" if lang == "en" else f"{lang}/"
    rows = _compare_rows(_page(site, f"{prefix}compare/"))
    expected = comparison(lang)
    assert list(rows) == [r.key for r in expected]
    for row in expected:
        assert rows[row.key] == [" ".join(c.split()) for c in row.cells], row.key


def test_rows_where_profiles_differ_are_marked(site: Any) -> None:
    page = _page(site, "compare/")
    for row in comparison("en"):
        css = "dh-differs" if row.differs else "dh-same"
        assert f'<tr class="{css}" data-row="{row.key}"' in page


@pytest.mark.parametrize("lang", LANGS)
def test_each_differing_row_says_which_profile_departs(site: Any, lang: str) -> None:
    from dhumbal.core.i18n import translator
    from dhumbal.core.profiles import all_profiles
    from tests.site.htmltree import parse

    t = translator(lang)
    names = [t(p.name) for p in all_profiles()]
    prefix = "" if lang == "en" else f"{lang}/"
    table = parse(_page(site, f"{prefix}compare/")).find("dh-ctable")
    rows = {tr.attrs["data-row"]: tr for tr in table.find_all(lambda n: n.tag == "tr" and "data-row" in n.attrs)}
    for row in comparison(lang):
        tr = rows[row.key]
        verdicts = tr.find_all("dh-verdict")
        if not row.differs:
            assert not verdicts and not tr.find_all("dh-departs"), row.key
            continue
        verdict = verdicts[0].text()
        if row.departs is not None:
            # the departing profile is named, and its cell is the one marked
            assert names[row.departs] in verdict, (row.key, verdict)
            assert [td.attrs["data-profile"] for td in tr.find_all("dh-departs")] == [all_profiles()[row.departs].key]
            assert len({c for i, c in enumerate(row.cells) if i != row.departs}) == 1
        else:
            assert row.all_differ and len(set(row.cells)) == 3, row.key
            assert verdict == t("all three differ"), (row.key, verdict)
    switch = parse(_page(site, f"{prefix}compare/")).find(lambda n: "data-dh-differences-only" in n.attrs)
    assert switch.tag == "input" and switch.attrs["type"] == "checkbox"


@pytest.mark.parametrize("lang", LANGS)
def test_options_tables_list_every_option_with_its_default(site: Any, lang: str) -> None:
    prefix = "" if lang == "en" else f"{lang}/"
    page = _page(site, f"{prefix}rules/cardrulesplus/")
    block = page[page.index('data-profile="cardrulesplus"'):]
    for key, label, default, allowed in options_table(find_profile("cardrulesplus"), lang):
        m = re.search(rf'<tr data-option="{re.escape(key)}"[^>]*>(.*?)</tr>', block, re.S)
        assert m, key
        cells = [_text(c) for c in re.findall(r'<span class="(?:dh-rule|dh-cell-text)">(.*?)</span>', m.group(1), re.S)]
        assert cells[:3] == [label, default, allowed]


def test_the_k_pair_discard_example_shows_the_engines_settlement(site: Any) -> None:
    page = _page(site, "rules/nepali-games/")
    section = page[page.index('id="example-k-pair-discard"'):]
    section = section[: section.index("</section>")]
    text = _text(section)
    assert "call-after-draw" in section  # the refusal's code is carried on the refusal
    assert "−25" in text and "+25" in text
    assert "+30" not in text and "−30" not in text
    assert 'class="dh-play-from' in section and "data-names=" in section
    # its positions wait beside the page code, fetched when Play from here is pressed: the page carries none
    assert "data-state-json=" not in page and "data-play-state=" not in page
    states = json.loads((Path(site.directory) / "assets/dhumbal/examples/k-pair-discard.json").read_text())["states"]
    assert states[0]["profile"].startswith("nepali-games") and len(states) == section.count('<li class="dh-step')


def test_nepali_example_numbers_use_devanagari_digits(site: Any) -> None:
    page = _page(site, "ne/rules/nepali-games/")
    section = page[page.index('id="example-settle-nobody-caught"'):]
    section = _text(section[: section.index("</section>")])
    assert "+३८" in section and "−१२" in section


def test_glossary_shows_every_language_with_thupro(site: Any) -> None:
    page = _page(site, "ne/glossary/")
    assert "थुप्रो" in page and "pioche" in page and "trekstapel" in page and "stock" in page


def _ctx(lang: str) -> Any:
    files = SimpleNamespace(get_file_from_path=lambda path: None)
    return SimpleNamespace(args=(), options={}, lang=lang, src_path=f"{lang}/compare.md", page=SimpleNamespace(url="compare/"),
                           files=files, config=SimpleNamespace(plugins={}))


def test_changing_a_profile_value_changes_the_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    from dhumbal.core import compare as compare_module
    from dhumbal_site.content.generated import render_compare

    before = render_compare(_ctx("en"))
    assert "penalty (25)" in before
    real = compare_module.all_profiles

    def patched() -> list[Any]:
        return [replace(p, penalty=40) if p.key == "nepali-games" else p for p in real()]

    monkeypatch.setattr(compare_module, "all_profiles", patched)
    after = render_compare(_ctx("en"))
    assert "penalty (40)" in after and after != before


def test_a_contradicted_example_names_file_line_and_values(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from dhumbal_site.content import walkthrough

    src = (walkthrough.EXAMPLES / "settle-caller-caught.toml").read_text(encoding="utf-8")
    (tmp_path / "examples").mkdir()
    bad = tmp_path / "examples" / "settle-caller-caught.toml"
    bad.write_text(src.replace("took.A = 25", "took.A = 30"), encoding="utf-8")
    monkeypatch.setattr(walkthrough, "EXAMPLES", tmp_path / "examples")
    monkeypatch.setattr(walkthrough, "ROOT", tmp_path)
    cache = walkthrough.ExampleCache()
    with pytest.raises(ValueError, match=r"examples/settle-caller-caught\.toml:\d+: step 1: took\.A: expected 30, found 25"):
        cache.get("settle-caller-caught")
