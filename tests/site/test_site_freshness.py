"""A translation whose English page changed since it was last updated shows a
notice in its own language, linking to the English page, and the status page
lists it; an up-to-date translation, an English page and an untranslated page
show no such notice."""

from __future__ import annotations

import datetime
import html as htmllib
import re
import textwrap
from typing import Any

import pytest

from dhumbal_site.translation import freshness

#: The module's tests together on one worker: its small site (``built``) is built once (tests/testorder.py).
pytestmark = pytest.mark.xdist_group("site-freshness")

ENGLISH = {
    "en/index.md": "# Home\n\nThe English home page.\n",
    "en/rules.md": "# Rules\n\nThe rules, as they read now.\n",
    "en/contribute.md": "# Contribute\n\nHow to help.\n",
    "en/translation-status.md": "# Translation status\n\n<!-- dhumbal:translation-status -->\n",
}


def _following(english: str, translation: str) -> str:
    """``translation`` recording the hash of ``english`` as the tree builder writes it."""
    value = freshness.source_hash(textwrap.dedent(english).lstrip("\n"))
    return f"---\ndhumbal_source: {value}\n---\n\n{translation}"


STALE = "---\ndhumbal_source: 0123456789abcdef\n---\n\n"

PAGES = {
    **ENGLISH,
    "fr/index.md": _following(ENGLISH["en/index.md"], "# Accueil\n\nLa page d'accueil.\n"),
    "fr/rules.md": STALE + "# Règles\n\nLes règles, comme elles se lisaient avant.\n",
    "fr/contribute.md": _following(ENGLISH["en/contribute.md"], "# Contribuer\n\nComment aider.\n"),
    "fr/translation-status.md": _following(ENGLISH["en/translation-status.md"],
                                           "# État des traductions\n\n<!-- dhumbal:translation-status -->\n"),
    "nl/rules.md": STALE + "# Regels\n\nDe regels.\n",
    "ne/rules.md": STALE + "# नियम\n\nनियमहरू।\n",
}

NAV = [{"Home": "index.md"}, {"Rules": ["rules.md"]}, "contribute.md", "translation-status.md"]


def _notice(html: str) -> tuple[str, str] | None:
    """(the notice's opening tag, its text) or None."""
    found = re.search(r'(<div class="admonition warning dh-outdated"[^>]*>)(.*?)</div>', html, re.S)
    if found is None:
        return None
    return found.group(1), " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", found.group(2))).split())


@pytest.fixture(scope="module")
def built(module_tree: Any) -> Any:
    return module_tree.build(PAGES, nav=NAV)


def test_a_stale_translation_says_so_in_its_language_and_links_to_the_english_page(built: Any) -> None:
    html = built.html("fr/rules/")
    notice = _notice(html)
    assert notice is not None
    tag, text = notice
    assert 'data-state="stale"' in tag and "data-changed" not in tag  # no git here: no date, said gracefully
    assert text.startswith("Cette traduction n'est peut-être plus à jour")
    assert "La page anglaise a changé depuis la dernière mise à jour de cette traduction" in text
    english = re.search(r'<a href="([^"]+)" hreflang="en" class="dh-outdated__english">([^<]+)</a>', html)
    assert english and english.group(1) == "../../rules/" and english.group(2) == "Lire la page anglaise"
    assert '<a href="../contribute/">Aider à mettre à jour la traduction</a>' in html
    # the notice comes before the page's own text, which is still the French translation
    assert html.index("dh-outdated") < html.index("Les règles, comme elles se lisaient avant.")


@pytest.mark.parametrize(("lang", "words"), [
    ("nl", "Deze vertaling is misschien verouderd"),
    ("ne", "यो अनुवाद पुरानो भएको हुन सक्छ"),
])
def test_the_notice_is_in_each_languages_words(built: Any, lang: str, words: str) -> None:
    notice = _notice(built.html(f"{lang}/rules/"))
    assert notice is not None and notice[1].startswith(words), notice


def test_no_notice_where_nothing_is_stale(built: Any) -> None:
    for path in ["", "rules/", "fr/", "fr/contribute/", "nl/", "ne/contribute/"]:
        assert "dh-outdated" not in built.html(path), path
    # an untranslated page says that instead, not that it is out of date
    assert "dh-untranslated" in built.html("nl/contribute/")


def test_the_status_page_lists_the_stale_translations(built: Any) -> None:
    html = built.html("fr/translation-status/")

    def row(page: str) -> dict[str, str]:
        found = re.search(rf'<tr data-page="{page}">.*?</tr>', html, re.S)
        assert found, page
        return dict(re.findall(r'<td data-lang="(\w+)" data-parity="\w+" data-fresh="(\w*)">', found.group(0)))

    assert {lang: state for lang, state in row("rules.md").items() if lang in ("fr", "nl", "ne")} == {
        "fr": "stale", "nl": "stale", "ne": "stale"}
    assert row("index.md")["fr"] == "fresh"
    listed = {page: " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", text)).split())
              for page, text in re.findall(r'<li data-stale="([^"]+)">(.*?)</li>', html)}
    assert "la page anglaise a changé depuis la dernière mise à jour de cette traduction" in listed["rules.md"]
    assert 'data-complete="no"' in html


def test_the_date_of_the_english_change_is_shown_when_known(module_tree: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(freshness, "english_date", lambda name, docs=None: datetime.date(2025, 3, 12))
    site = module_tree.build(PAGES, nav=NAV)
    html = site.html("fr/rules/")
    tag, text = _notice(html) or ("", "")
    assert 'data-changed="2025-03-12"' in tag
    assert "La page anglaise a changé le 12 mars 2025 ; cette traduction n'est peut-être plus à jour." in text
    assert "12 mars 2025\u202f; cette" in html  # French typography: no line break before the semicolon
    assert "अङ्ग्रेजी पृष्ठ २०२५ मार्च १२मा बदलियो" in (_notice(site.html("ne/rules/")) or ("", ""))[1]
