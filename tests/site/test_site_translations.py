"""The built site speaks each reader's language in its numbers, names and
pages: money with the locale's separator, Nepali digits in lists and search
counts, Nepali seat names in Devanagari, a 404 page per language, the
sources' own words findable in the glossary, and an honest status page."""

from __future__ import annotations

import html as htmllib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from dhumbal_site.strings import strings_for
from tests.site.sitecheck import LANGUAGES, lang_prefix, parse
from tests.sitekit import PARTIAL_LANGUAGES, ROOT

WIDE = {"viewport": {"width": 1280, "height": 900}}


def _text(fragment: str) -> str:
    no_hidden = re.sub(r'<span class="dh-visually-hidden">.*?</span>', "", fragment, flags=re.S)
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", no_hidden)).split())


def _page(site: Any, path: str) -> str:
    return (site.directory / path / "index.html").read_text(encoding="utf-8")


def _example(page: str, example_id: str) -> str:
    section = page[page.index(f'id="example-{example_id}"'):]
    return section[: section.index("</section>")]


# -- money and names in the worked examples ------------------------------------------


@pytest.mark.parametrize(("lang", "collected", "paid"), [
    ("en", "+2.20", "−2.20"), ("fr", "+2,20", "−2,20"), ("nl", "+2,20", "−2,20"), ("ne", "+२.२०", "−२.२०"),
])
def test_money_rows_use_the_readers_format(site: Any, lang: str, collected: str, paid: str) -> None:
    section = _example(_page(site, lang_prefix(lang) + "rules/dashain/"), "dashain-chandra-caught")
    money = re.search(r'<tr data-row="money">(.*?)</tr>', section, re.S).group(1)
    cells = [_text(c) for c in re.findall(r"<td>(.*?)</td>", money, re.S)]
    assert cells[0] == collected and paid in cells, cells
    if lang != "en":
        assert "2.20" not in _text(section)


def test_nepali_pages_show_the_seats_names_in_devanagari(site: Any) -> None:
    page = _page(site, "ne/rules/dashain/")
    for example in ("dashain-asha-calls", "dashain-chandra-caught", "dashain-first-round-call", "dashain-run-ends"):
        text = _text(_example(page, example))
        assert "आशा" in text and "विकास" in text, example
        assert not re.search(r"Asha|Bikash|Chandra|Dipa", text), (example, text[:300])
        # the position the table starts from carries the same names (the positions wait beside the page code)
        names = json.loads(htmllib.unescape(re.search(r'data-names="([^"]+)"', _example(page, example)).group(1)))
        assert names[0] == "आशा"
    # other languages keep the file's names
    assert "Asha" in _text(_example(_page(site, "fr/rules/dashain/"), "dashain-asha-calls"))


def test_the_money_field_of_a_french_table_starts_at_0_05_with_a_comma(site: Any) -> None:
    page = _page(site, "fr/rules/dashain/")
    field = re.search(r'<input[^>]*name="opt:money"[^>]*>', page).group(0)
    assert 'value="0,05"' in field


# -- 404 pages ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_its_own_404_page(site: Any, lang: str) -> None:
    path = site.directory / lang_prefix(lang) / "404.html"
    html = path.read_text(encoding="utf-8")
    parsed = parse(html)
    assert parsed.html_lang == lang
    strings = strings_for(lang)
    body = _text(html[html.index('<article'):html.index('</article>')])
    assert all(" ".join(strings[key].split()) in body for key in ("notfound.title", "notfound.body"))
    if lang != "en" and lang not in PARTIAL_LANGUAGES:  # a language being translated may still read English
        assert "Not found" not in body and strings["notfound.title"] != strings_for("en")["notfound.title"]
    links = dict((htmllib.unescape(text), href) for href, text in re.findall(r'<a href="([^"]+)">([^<]+)</a>', html))
    home = links[strings["notfound.home"]]
    assert home.endswith("/" + lang_prefix(lang))
    # search and instant navigation on the 404 page stay in its language
    assert json.loads(parsed.config_json or "{}")["base"].endswith("/" + lang_prefix(lang))


def test_the_root_404_page_is_english_and_sends_other_languages_to_theirs(site: Any) -> None:
    html = (site.directory / "404.html").read_text(encoding="utf-8")
    assert parse(html).html_lang == "en"
    marker = re.search(r"<div hidden data-dh-notfound data-roots='([^']*)' data-langs='([^']*)'>", html)
    assert marker is not None, "the root 404 page lists the language roots for dhumbal.js"
    assert json.loads(htmllib.unescape(marker.group(1))) == ["/" + lang_prefix(lang) for lang in LANGUAGES]
    assert json.loads(htmllib.unescape(marker.group(2))) == list(LANGUAGES)


def test_a_missing_french_address_shows_the_french_404_page(site: Any, page_factory: Any) -> None:
    page, _ = page_factory(fresh=True, **WIDE)  # a route
    root_404 = (site.directory / "404.html").read_text(encoding="utf-8")
    # a host that serves only the root 404 page, whatever the address (served here with
    # status 200, since the page fixture fails a test on any error status)
    page.route("**/fr/no-such-page/", lambda route: route.fulfill(status=200, body=root_404, content_type="text/html"))
    page.goto(site.server.url + "fr/no-such-page/", wait_until="load")
    page.wait_for_url("**/fr/404.html")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.inner_text("article h1") == strings_for("fr")["notfound.title"]


# -- Nepali digits ------------------------------------------------------------------------


def test_nepali_ordered_lists_use_devanagari_numbers(site: Any, page_factory: Any) -> None:
    page, _ = page_factory(**WIDE)
    page.goto(site.server.url + "ne/rules/nepali-games/", wait_until="load")
    styles = page.eval_on_selector_all(
        "article ol", "lists => lists.map(ol => getComputedStyle(ol).listStyleType)")
    # every numbered list counts in Devanagari (the worked examples' steps, which
    # number themselves in their labels, show no list numbers at all)
    assert "devanagari" in styles and set(styles) <= {"devanagari", "none"}, styles
    page.goto(site.server.url + "fr/rules/nepali-games/", wait_until="load")
    assert page.eval_on_selector("article ol", "ol => getComputedStyle(ol).listStyleType") == "decimal"


def test_the_nepali_table_log_numbers_its_lines_in_devanagari(site: Any, page_factory: Any) -> None:
    page, _ = page_factory(**WIDE)
    page.goto(site.server.url + "ne/", wait_until="load")
    # the log is drawn by the engine's renderer; give the pre-rendered table a log line to style
    style = page.evaluate("""() => {
        const table = document.querySelector('.dh-table');
        const ol = document.createElement('ol');
        ol.className = 'dht-log__list';
        ol.innerHTML = '<li>x</li>';
        table.appendChild(ol);
        return getComputedStyle(ol).listStyleType;
    }""")
    assert style == "devanagari"


def test_nepali_search_counts_are_in_devanagari_digits(site: Any, page_factory: Any) -> None:
    page, _ = page_factory(**WIDE)
    page.goto(site.server.url + "ne/glossary/", wait_until="load")
    if not page.is_visible("input.md-search__input"):
        page.click('label.md-header__button[for="__search"]')
    page.click("input.md-search__input")
    page.fill("input.md-search__input", "थुप्रो")
    page.press("input.md-search__input", "End")
    page.wait_for_selector(".md-search-result__item")  # the index is built in a worker
    page.wait_for_function("() => /[०-९]/.test(document.querySelector('.md-search-result__meta').textContent)")
    meta = page.inner_text(".md-search-result__meta")
    assert "पृष्ठ" in meta and not re.search(r"[0-9]", meta), meta


def test_the_nepali_interface_strings_write_numbers_in_devanagari() -> None:
    root = Path(__file__).resolve().parents[2]
    text = (root / "overrides" / "partials" / "languages" / "ne.html").read_text(encoding="utf-8")
    values = dict(re.findall(r'^\s*"([\w.]+)":\s*"((?:[^"\\]|\\.)*)"', text, re.M))
    for key, value in values.items():
        if not key.startswith("search.config"):
            assert not re.search(r"[0-9]", value), (key, value)


# -- the glossary and the status page ---------------------------------------------------


@pytest.mark.parametrize(("lang", "words"), [
    ("fr", ["brelan", "appel", "coupé"]), ("nl", ["oproep", "afleggen", "ondersneden"]), ("en", ["discard", "beaten"]),
])
def test_the_sources_words_are_in_the_glossary_and_its_search_index(site: Any, lang: str, words: list[str]) -> None:
    prefix = lang_prefix(lang)
    page = _text(_page(site, prefix + "glossary/"))
    index = json.loads((site.directory / prefix / "search" / "search_index.json").read_text(encoding="utf-8"))
    glossary_text = " ".join(d["text"] for d in index["docs"] if d["location"].startswith("glossary/"))
    for word in words:
        assert word in page, word
        assert word in glossary_text, word


def test_the_status_page_reports_parity_per_language_and_page(site: Any) -> None:
    page = _page(site, "translation-status/")
    complete = [lang for lang in LANGUAGES[1:] if lang not in PARTIAL_LANGUAGES]
    cells = re.findall(r'<td data-lang="([\w-]+)" data-parity="(\w+)" data-fresh="(\w*)">', page)
    for lang in complete:
        current = all(fresh == "fresh" for code, _, fresh in cells if code == lang)
        assert f'<tr data-lang="{lang}" data-complete="{"yes" if current else "no"}">' in page, lang
    pages = len(list((ROOT / "docs" / "en").rglob("*.md")))  # every English page has a row
    assert len(cells) == (len(LANGUAGES) - 1) * pages
    # a complete language: every page at parity; out of date is no failure (its readers are told,
    # and the run's summary counts those pages: tests/catalogs/test_freshness.py)
    assert {parity for lang, parity, _ in cells if lang in complete} == {"yes"}, cells
    fr = _page(site, "fr/translation-status/")
    assert "Pages qui disent tout ce que dit la page anglaise" in fr and "complète" in fr
