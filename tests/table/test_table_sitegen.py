"""Build-time pre-rendering of each page's table (sitegen/dhumbal_site/content/table.py)
and its place in the built pages."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from mkdocs.exceptions import PluginError

from dhumbal.worked.examples import load_file
from dhumbal_site.content import table
from tests.table.tablekit import LANGS, PAGE_ASSETS, TABLE_ASSETS, parse_html

ROOT = Path(__file__).resolve().parents[2]


def fake_page(src: str, meta: dict[str, Any]) -> Any:
    return SimpleNamespace(file=SimpleNamespace(src_uri=src), meta=meta)


@pytest.fixture
def tables(monkeypatch: pytest.MonkeyPatch) -> Any:
    def render(src: str, meta: dict[str, Any], lang: str = "en") -> str:
        monkeypatch.setattr(table, "current_language", lambda config: lang)
        return table.PageTables(repo_root=ROOT).render(fake_page(src, meta), config=None)  # type: ignore[arg-type]

    return render


def root_attrs(html: str) -> dict[str, str | None]:
    return parse_html(html).elements[0][1]


def test_the_seed_is_the_pages_own_and_the_same_in_every_language() -> None:
    seeds = {table.page_seed(f"{lang}/rules/dashain.md") for lang in LANGS}
    assert len(seeds) == 1
    assert table.page_seed("en/rules/dashain.md") != table.page_seed("en/index.md")
    assert table.page_seed("rules/dashain.md") == table.page_seed("fr/rules/dashain.md")


@pytest.mark.parametrize("profile", ["nepali-games", "dashain", "cardrulesplus"])
def test_a_rules_page_plays_its_profile(tables: Any, profile: str) -> None:
    html = tables(f"fr/rules/{profile}.md", {"dhumbal_profile": profile}, "fr")
    attrs = root_attrs(html)
    assert attrs["data-profile"] == profile and attrs["data-lang"] == "fr" and attrs["lang"] == "fr"
    assert attrs["data-state"] == "static" and attrs["id"] == table.TABLE_ID
    # a fresh deal on every visit: no seed for the page, and the preview's cards face down
    assert "data-seed" not in attrs
    assert 'data-card="' not in html and "dhc--back" in html


def test_other_pages_play_nepali_games(tables: Any) -> None:
    assert root_attrs(tables("ne/glossary.md", {}, "ne"))["data-profile"] == "nepali-games"


def test_front_matter_can_choose_rules_options_seed_and_bots(tables: Any) -> None:
    meta = {"dhumbal_profile": "nepali-games",
            "dhumbal_table": {"profile": "dashain", "options": {"players": 3, "limit": 8}, "seed": 5, "difficulty": "hard"}}
    attrs = root_attrs(tables("en/index.md", meta))
    assert attrs["data-profile"] == "dashain(players=3,limit=8)"
    assert attrs["data-seed"] == "5" and attrs["data-difficulty"] == "hard"
    # an author's seed is exact: its cards show
    assert 'data-card="' in tables("en/index.md", meta)


def test_front_matter_can_start_from_a_worked_example(tables: Any) -> None:
    html = tables("en/index.md", {"dhumbal_table": {"example": "k-pair-discard"}})
    attrs = root_attrs(html)
    walk = load_file(ROOT / "examples" / "k-pair-discard.toml")
    assert attrs["data-profile"] == walk.profile.canonical()
    assert "data-position-state" in attrs and "data-seed" not in attrs
    for card in ("KS", "KH", "AD", "AC", "AH"):
        assert f'data-card="{card}"' in html


@pytest.mark.parametrize("meta,words", [
    ({"dhumbal_profile": "poker"}, "no rule profile"),
    ({"dhumbal_table": {"options": {"players": 12}}}, "not allowed"),
    ({"dhumbal_table": {"options": {"colour": "red"}}}, "no setting"),
    ({"dhumbal_table": {"difficulty": "wizard"}}, "easy, medium, hard or expert"),
    ({"dhumbal_table": {"example": "no-such-example"}}, "no worked example"),
    ({"dhumbal_table": {"seed": "abc"}}, "seed"),
    ({"dhumbal_table": {"colour": 1}}, "unknown key"),
    ({"dhumbal_table": [1]}, "mapping"),
])
def test_bad_front_matter_fails_the_build_naming_the_page(tables: Any, meta: dict[str, Any], words: str) -> None:
    with pytest.raises(PluginError) as err:
        tables("nl/rules/dashain.md", meta, "nl")
    assert "nl/rules/dashain.md" in str(err.value) and words in str(err.value)


def test_every_built_page_ends_with_its_table_outside_the_searchable_content(real_site: Any) -> None:
    real_site.require()
    site = Path(real_site.server.directory)
    pages = [p for p in site.glob("**/index.html") if "assets" not in p.parts]
    assert len(pages) >= 4 * 8
    for path in pages:
        html = path.read_text(encoding="utf-8")
        rel = path.relative_to(site).as_posix()
        lang = rel.split("/")[0] if rel.split("/")[0] in LANGS[1:] else "en"
        tables = re.findall(r'<section class="dh-table"[^>]*>', html)
        assert len(tables) == 1, rel
        attrs = root_attrs(tables[0] + "</section>")
        assert attrs["data-lang"] == lang, rel
        expected = next((k for k in ("nepali-games", "dashain", "cardrulesplus") if f"rules/{k}/" in rel), "nepali-games")
        assert str(attrs["data-profile"]).split("(")[0] == expected, rel
        # inside the article, after the page's own content
        article = html[html.index('<article class="md-content__inner'):]
        assert article.index("<h1") < article.index('<section class="dh-table"') < article.index("</article>")
    # the page code, built: every page loads its own part, the table's comes on intent
    for name in [*PAGE_ASSETS, *TABLE_ASSETS, "assets/dhumbal/worker.js"]:
        assert (site / name).exists(), name
    index_html = (site / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="assets/dhumbal/site.js"></script>' in index_html
    assert 'href="assets/dhumbal/site.css"' in index_html
    assert not any(name.rsplit("/", 1)[1] in index_html for name in TABLE_ASSETS)


@pytest.mark.parametrize("lang", LANGS)
def test_rules_pages_and_the_home_page_get_a_play_link_near_the_top(lang: str) -> None:
    from dhumbal.core.i18n import translator

    page = '<header><h1>x</h1></header><article class="md-content__inner"><h1 id="t">Title</h1><p>Text</p></article>'
    src = "rules/dashain.md" if lang == "en" else f"{lang}/rules/dashain.md"
    out = table.play_link(page, {"dhumbal_profile": "dashain"}, src, lang)
    link = out.split('<h1 id="t">Title</h1>')[1].split("<p>Text</p>")[0]
    # the table's Play address: a press before the page's scripts run still starts the table
    assert 'href="#dh-table-play"' in link and 'data-dh-play-profile="dashain"' in link
    assert translator(lang)(table.PLAY_PROFILE) in link.replace("&#x27;", "'")
    home = table.play_link(page, {}, "index.md" if lang == "en" else f"{lang}/index.md", lang)
    assert translator(lang)(table.PLAY_HOME) in home.replace("&#x27;", "'")
    assert table.play_link(page, {}, f"{lang}/glossary.md", lang) == page
