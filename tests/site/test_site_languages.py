"""Languages: Nepali interface strings, translated chrome, untranslated pages."""

from __future__ import annotations

import html as html_text
import re
from pathlib import Path

import pytest
import yaml
from mkdocs.utils.yaml import get_yaml_loader

from dhumbal_site.strings import KEYS, MSGIDS, strings_for
from dhumbal_site.translation import freshness
from tests.site.sitecheck import LANGUAGES, parse
from tests.sitekit import warn_of

ROOT = Path(__file__).resolve().parents[2]
MATERIAL_LANGUAGES = Path(__import__("material").__file__).parent / "templates" / "partials" / "languages"
NEPALI = ROOT / "overrides" / "partials" / "languages" / "ne.html"


def partial_keys(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    return dict(re.findall(r'^\s*"([\w.]+)":\s*"((?:[^"\\]|\\.)*)"', text, re.M))


def mkdocs_config() -> dict:
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=get_yaml_loader())


def i18n_languages() -> list[dict]:
    for plugin in mkdocs_config()["plugins"]:
        if isinstance(plugin, dict) and "i18n" in plugin:
            return plugin["i18n"]["languages"]
    raise AssertionError("no i18n plugin in mkdocs.yml")


def test_nepali_partial_has_every_key_of_materials_english() -> None:
    english = partial_keys(MATERIAL_LANGUAGES / "en.html")
    nepali = partial_keys(NEPALI)
    assert len(english) > 50
    assert set(nepali) == set(english)


def test_nepali_partial_says_nothing_in_english() -> None:
    english = partial_keys(MATERIAL_LANGUAGES / "en.html")
    nepali = partial_keys(NEPALI)
    technical = {"language", "direction", "search.config.lang", "search.config.pipeline", "search.config.separator"}
    same = {key for key in english if key not in technical and nepali[key] == english[key]}
    assert not same
    latin_words = {key for key in nepali if key not in technical and re.search(r"[A-Za-z]{3,}", nepali[key].replace("RSS", ""))}
    assert not latin_words
    assert nepali["language"] == "ne"


def test_glue_strings_exist_in_every_language() -> None:
    for lang in LANGUAGES:
        table = strings_for(lang)
        assert set(table) == KEYS, lang
        if lang != "en":
            untranslated = warn_of(lang, [key for key in KEYS if table[key] == MSGIDS[key]])
            assert not untranslated, (lang, untranslated)


def test_every_language_sets_its_theme_language_and_translates_chrome() -> None:
    languages = {lang["locale"]: lang for lang in i18n_languages()}
    assert list(languages) == list(LANGUAGES)
    english_toggles = [p["toggle"]["name"] for p in mkdocs_config()["theme"]["palette"]]
    for code, lang in languages.items():
        assert lang["theme"]["language"] == code
        if code == "en":
            continue
        assert set(lang["nav_translations"]) == {"Home", "Rules"}, code
        toggles = [p["toggle"]["name"] for p in lang["theme"]["palette"]]
        assert len(toggles) == len(english_toggles)
        assert not warn_of(code, [f"the colour-scheme button {name!r} is still in English"
                                  for name in set(toggles) & set(english_toggles)]), code


# -- untranslated pages -----------------------------------------------------------

GUIDE = "---\ntitle: Guide\n---\n\n# Guide\n\nThe guide, as it reads {when}.\n"
PAGES = {
    "en/index.md": "# Home\n\nWelcome.\n",
    "en/rules.md": "# Rules\n\nOnly in English so far.\n",
    "en/guide.md": GUIDE.format(when="now"),
    # copies not translated yet: one as make new-language makes it (recording the English
    # it copies, here an older English text), one by hand (the English text as it is)
    "fr/guide.md": freshness.with_hash(GUIDE.format(when="before"), freshness.source_hash(GUIDE.format(when="before"))),
    "nl/guide.md": GUIDE.format(when="now"),
    "en/contribute.md": "# Contribute\n",
    "fr/index.md": "# Accueil\n",
    "fr/contribute.md": "# Contribuer\n",
    "nl/index.md": "# Start\n",
    "ne/index.md": "# गृहपृष्ठ\n",
    "ne/rules.md": "# नियम\n\nनेपालीमा।\n",
}

NOTICE = {
    "fr": "Cette page n'est pas encore traduite en français",
    "nl": "Deze pagina is nog niet in het Nederlands vertaald",
    "ne": "यो पृष्ठ अझै नेपालीमा अनुवाद भएको छैन",
}


@pytest.fixture(scope="module")
def untranslated(module_tree):
    return module_tree.build(PAGES, nav=[{"Home": "index.md"}, {"Rules": ["rules.md"]}, "guide.md", "contribute.md"])


@pytest.mark.xdist_group("site-untranslated")  # one build of ``untranslated`` (tests/testorder.py)
@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_a_page_still_the_english_text_is_the_current_english_page_marked_english(untranslated, lang) -> None:
    """A copy of the English page (make new-language makes one of every page) used to be
    shown as a translation: English text under lang="fr", and no notice."""
    html = untranslated.html(f"{lang}/guide/")
    assert parse(html).html_lang == lang
    assert NOTICE[lang] in html_text.unescape(html)
    notice = re.search(r'<div class="admonition info dh-untranslated" role="note" lang="(\w+)">', html)
    assert notice is not None and notice.group(1) == lang
    # the current English text, even where the copy is of an older one, marked as English
    assert re.search(r'<div lang="en">\s*<h1 id="guide">Guide.*The guide, as it reads now\.', html, re.S)
    assert "as it reads before" not in html


@pytest.mark.xdist_group("site-untranslated")  # one build of ``untranslated`` (tests/testorder.py)
@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_untranslated_page_shows_english_with_a_notice_in_the_readers_language(untranslated, lang) -> None:
    html = untranslated.html(f"{lang}/rules/")
    page = parse(html)
    assert page.html_lang == lang
    assert NOTICE[lang] in html_text.unescape(html)
    notice = re.search(r'<div class="admonition info dh-untranslated" role="note" lang="(\w+)">(.*?)</div>', html, re.S)
    assert notice and notice.group(1) == lang
    # The link goes to the Contribute page in the reader's language (or its fallback).
    href = re.search(r'<a href="([^"]+)">', notice.group(2)).group(1)
    assert href == "../contribute/"
    # The English text is there, marked as English.
    assert re.search(r'<div lang="en">.*Only in English so far\.', html, re.S)


def test_translated_pages_have_no_notice(untranslated) -> None:
    assert "dh-untranslated" not in untranslated.html("guide/")
    for path in ["", "fr/", "nl/", "ne/", "ne/rules/", "rules/", "fr/contribute/"]:
        assert "dh-untranslated" not in untranslated.html(path), path


def test_every_page_exists_in_every_language_never_a_404(untranslated) -> None:
    for lang in ["", "fr/", "nl/", "ne/"]:
        for page in ["", "rules/", "contribute/"]:
            assert (untranslated.directory / lang / page / "index.html").is_file(), lang + page
    assert NOTICE["ne"] in untranslated.html("ne/contribute/")


def test_language_switcher_links_to_the_same_page(untranslated) -> None:
    html = untranslated.html("nl/rules/")
    links = dict(re.findall(r'<a href="([^"]+)" hreflang="(\w+)" lang="\w+" class="md-select__link"', html))
    assert {lang: href for href, lang in links.items()} == {
        lang: "./" if lang == "nl" else "../../rules/" if lang == "en" else f"../../{lang}/rules/" for lang in LANGUAGES
    }
    assert 'hreflang="nl" lang="nl" class="md-select__link" aria-current="true"' in html


@pytest.mark.parametrize("lang", ["fr", "ne"])
def test_a_link_to_a_heading_a_translation_does_not_have_fails_the_strict_build(tree, lang) -> None:
    """The French and Dutch score pads linked to #settlement and #scoring, anchors of the
    English rules pages that the translated pages' headings do not give: every build logged
    it, and the strict build passed. A link to a missing anchor is now a warning, in every
    language's pass, so the strict build stops and names the page and the link."""
    from mkdocs.exceptions import Abort

    pages = {"en/index.md": "# Home\n\nSee [the settlement](rules.md#settlement).\n",
             "en/rules.md": "# Rules\n\n## Settlement\n\nText.\n", "en/contribute.md": "# Help\n",
             f"{lang}/rules.md": "# Règles\n\n## Règlement\n\nTexte.\n",
             f"{lang}/index.md": "# Accueil\n\nVoir [le règlement](rules.md#settlement).\n"}
    nav = [{"Home": "index.md"}, "rules.md", "contribute.md"]
    with pytest.raises(Abort):
        tree.build(pages, nav=nav)
    assert f"Doc file '{lang}/index.md' contains a link 'rules.md#settlement'" in tree.errors()
    tree.records.clear()
    pages[f"{lang}/index.md"] = "# Accueil\n\nVoir [le règlement](rules.md#reglement).\n"
    tree.build(pages, nav=nav)
    assert tree.errors() == ""


def test_the_translated_score_pads_link_to_their_own_rules_pages_headings() -> None:
    """The fix itself: each translated score pad's links to the rules pages name anchors that
    exist there (the strict build holds every language; this names the pages that failed)."""
    for lang in ("fr", "nl"):
        text = (ROOT / "docs" / lang / "scorepad.md").read_text(encoding="utf-8")
        assert "#settlement" not in text and "#scoring" not in text, lang
