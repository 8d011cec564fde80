"""The real site, built with ``mkdocs build --strict``: structure, links, resources,
Nepali chrome, per-language search indexes and sitemaps.

These need the writers' pages and the lead's marker handlers; until both are
in place the build fails and so do these tests, with the build log.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.site.sitecheck import (
    LANGUAGES,
    content_pages,
    css_urls,
    html_pages,
    is_external,
    lang_prefix,
    parse,
    resolve,
    urls_of,
)
from tests.sitekit import TEST_REPOSITORY

MATERIAL_LANGUAGES = Path(__import__("material").__file__).parent / "templates" / "partials" / "languages"


def english_chrome() -> dict[str, str]:
    text = (MATERIAL_LANGUAGES / "en.html").read_text(encoding="utf-8")
    strings = dict(re.findall(r'^\s*"([\w.]+)":\s*"((?:[^"\\]|\\.)*)"', text, re.M))
    for key in ("language", "direction", "search.config.lang", "search.config.pipeline", "search.config.separator"):
        strings.pop(key)
    strings["palette.dark"] = "Switch to dark mode"
    strings["palette.light"] = "Switch to light mode"
    strings["permalink"] = "Permanent link"
    strings["generator"] = "Made with"
    return strings


def test_the_site_builds_with_strict(real_site) -> None:
    real_site.require()
    warnings = [line for line in real_site.log.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert not warnings, "\n".join(warnings)


def test_every_page_exists_in_all_four_languages(site) -> None:
    pages = {lang: content_pages(site.directory, lang) for lang in LANGUAGES}
    assert pages["en"], "no English pages"
    for lang in LANGUAGES:
        assert pages[lang] == pages["en"], lang
    for expected in ["", "rules/nepali-games/", "rules/dashain/", "rules/cardrulesplus/", "compare/",
                     "examples/", "glossary/", "contribute/"]:
        assert expected in pages["en"]


def test_every_internal_link_and_resource_resolves(site) -> None:
    broken = []
    for page in html_pages(site.directory):
        parsed = parse(page.file.read_text(encoding="utf-8"))
        for element, attribute, url in urls_of(parsed):
            if is_external(url, site.server.origin) or url.startswith(("#", "data:")):
                continue
            if resolve(site.directory, page.path, url, site.server.origin) is None:
                broken.append(f"{page.path or '/'}: <{element.tag} {attribute}={url!r}>")
    assert not broken, "\n".join(broken[:50])


def test_no_page_refers_to_another_host(site) -> None:
    """Nothing loads from another host; the one way out is the reader's own click on a
    page's "Edit this page" or "Report a problem" link, to the project's repository."""
    external, repository = [], 0
    for page in html_pages(site.directory):
        parsed = parse(page.file.read_text(encoding="utf-8"))
        for element, attribute, url in urls_of(parsed):
            if not is_external(url, site.server.origin):
                continue
            if (element.tag == "a" and attribute == "href" and url.startswith(TEST_REPOSITORY + "/")
                    and (element.attrs.get("rel") == "edit" or element.attrs.get("class") == "dh-page-links__report")):
                repository += 1
                continue
            external.append(f"{page.path or '/'}: <{element.tag} {attribute}={url!r}>")
    assert not external, "\n".join(external[:50])
    assert repository > 0  # the test build links to a repository (sitekit.TEST_REPOSITORY)


def test_no_stylesheet_or_script_loads_from_another_host(site) -> None:
    offending = []
    for file in sorted(site.directory.rglob("*.css")):
        text = file.read_text(encoding="utf-8", errors="replace")
        for url in css_urls(text):
            if url.startswith("data:") or url.startswith("#"):
                continue
            rel = file.relative_to(site.directory).as_posix()
            if is_external(url, site.server.origin):
                offending.append(f"{rel}: url({url})")
            elif resolve(site.directory, rel, url, site.server.origin) is None:
                offending.append(f"{rel}: url({url}) does not exist")
    for file in sorted(site.directory.rglob("*.js")):
        text = file.read_text(encoding="utf-8", errors="replace")
        for match in re.finditer(r"""url\(\s*['"]?((?:https?:)?//[^'")\s]+)""", text):
            offending.append(f"{file.relative_to(site.directory).as_posix()}: url({match.group(1)})")
    assert not offending, "\n".join(offending[:50])


def test_pages_link_no_palette_css_and_site_css_holds_the_dark_scheme(site) -> None:
    css = (site.directory / "assets" / "dhumbal" / "site.css").read_text(encoding="utf-8")
    assert css.startswith("@media screen{[data-md-color-scheme=slate]{")
    for page in (site.directory / "index.html", site.directory / "ne" / "rules" / "dashain" / "index.html"):
        html = page.read_text(encoding="utf-8")
        sheets = re.findall(r'<link rel="stylesheet" href="([^"]*)">', html)
        assert [s.rsplit("/", 2)[-2] for s in sheets[:2]] == ["stylesheets", "dhumbal"], (page, sheets)
        assert sheets[0].rsplit("/", 1)[-1].startswith("main.") and sheets[1].endswith("assets/dhumbal/site.css")
        assert "palette." not in " ".join(sheets) and "&lt;link" not in html, page


def test_fonts_are_served_by_the_site(site) -> None:
    css = (site.directory / "assets" / "dhumbal" / "site.css").read_text(encoding="utf-8")
    assert '"Noto Sans Devanagari"' in css
    # One file, the regular weight, for every weight (the browser draws bold); laid out
    # once in it when it is at hand within 100 ms, not swapped in after a first layout.
    fonts = sorted(p.name for p in (site.directory / "assets" / "fonts").iterdir())
    assert fonts == ["noto-sans-devanagari-devanagari-400-normal.woff2"]
    assert (site.directory / "assets" / "fonts" / fonts[0]).read_bytes()[:4] == b"wOF2"
    faces = re.findall(r"@font-face\{([^}]*)\}", css)
    assert len(faces) == 1 and "font-family:Noto Sans Devanagari" in faces[0], faces
    assert "font-weight:400;" in faces[0] and "font-display:fallback" in faces[0], faces
    home = (site.directory / "ne" / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis.com" not in home and "fonts.gstatic.com" not in home


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_declare_their_language(site, lang) -> None:
    for path in content_pages(site.directory, lang):
        html = (site.directory / lang_prefix(lang) / path / "index.html").read_text(encoding="utf-8")
        assert parse(html).html_lang == lang, path


def test_nepali_pages_have_no_english_interface_text(site) -> None:
    chrome = english_chrome()
    values = set(chrome.values())
    found = []
    for path in content_pages(site.directory, "ne"):
        html = (site.directory / "ne" / path / "index.html").read_text(encoding="utf-8")
        parsed = parse(html)
        for element in parsed.elements:
            for name in ("aria-label", "title", "placeholder", "alt"):
                if element.attrs.get(name, "").strip() in values:
                    found.append(f"ne/{path}: {name}={element.attrs[name]!r}")
        for text, in_article in parsed.texts:
            if not in_article and text in values:
                found.append(f"ne/{path}: text {text!r}")
        translations = json.loads(parsed.config_json or "{}").get("translations", {})
        for key, value in translations.items():
            if value == chrome.get(key):
                found.append(f"ne/{path}: script translation {key}={value!r}")
    assert not found, "\n".join(sorted(set(found))[:40])
    # A few keys checked by name, in case Material renames its strings.
    home = (site.directory / "ne" / "index.html").read_text(encoding="utf-8")
    assert 'placeholder="खोज्नुहोस्"' in home
    assert "Search" not in re.findall(r'placeholder="([^"]*)"', home)


def test_language_switcher_keeps_the_reader_on_the_same_page(site) -> None:
    for lang in LANGUAGES:
        for path in content_pages(site.directory, lang):
            here = lang_prefix(lang) + path
            html = (site.directory / here / "index.html").read_text(encoding="utf-8")
            links = re.findall(r'<a href="([^"]+)" hreflang="(\w+)" lang="\w+" class="md-select__link"', html)
            assert {target for _, target in links} == set(LANGUAGES), here
            for href, target in links:
                file = resolve(site.directory, here, href, site.server.origin)
                assert file == site.directory / lang_prefix(target) / path / "index.html", (here, href)


def search_index(site, lang: str) -> dict:
    return json.loads((site.directory / lang_prefix(lang) / "search" / "search_index.json").read_text(encoding="utf-8"))


def test_each_language_has_its_own_search_index(site) -> None:
    for lang in LANGUAGES:
        index = search_index(site, lang)
        locations = [doc["location"] for doc in index["docs"]]
        assert locations, lang
        assert not any(loc.split("/", 1)[0] in set(LANGUAGES[1:]) for loc in locations if "/" in loc), lang
        paths = {loc.split("#", 1)[0] for loc in locations}
        assert paths == content_pages(site.directory, lang), lang


def test_the_search_index_holds_no_chart_labels_nor_table_figures(site) -> None:
    """Fetched before Play by every page, the index held each odds chart's thirty dot labels
    ("Others hold 1 card each: 17%") and its figures and the bots' strength tables as runs
    of numbers ("Easy3 hard bots2,00021% 19% to 23%"), which no reader searches for; the
    sentences around them stay."""
    for lang in LANGUAGES:
        docs = search_index(site, lang)["docs"]
        text = " ".join(doc["text"] for doc in docs)
        assert "each: 17%" not in text and "2,00021%" not in text and "2,000 21%" not in text, lang
        assert "<svg" not in text, lang
    english = {doc["location"]: doc["text"] for doc in search_index(site, "en")["docs"]}
    # The Contribute page's terminology table repeats the glossary's terms: the glossary page is found by them.
    assert "défausse" not in english["contribute/#terminology"] and "défausse" in english["glossary/"]
    assert "Wilson score interval" in english["rules/nepali-games/#the-computer-opponents"]
    assert "10,000 deals" in english["rules/nepali-games/#the-chance-of-being-caught"]


def test_nepali_search_index_finds_thupro_on_the_glossary_page(site) -> None:
    index = search_index(site, "ne")
    assert index["config"]["lang"] == ["en"]  # plain lunr: there is no Nepali lunr
    assert index["config"]["pipeline"] == []  # no stemmer, no English trimmer or stop words
    assert "।" in index["config"]["separator"]
    glossary = [doc for doc in index["docs"] if doc["location"].split("#")[0] == "glossary/"]
    assert any("थुप्रो" in doc["text"] or "थुप्रो" in doc["title"] for doc in glossary)
    separator = re.compile(index["config"]["separator"])
    tokens = {token.lower() for doc in glossary for token in separator.split(re.sub(r"<[^>]+>", " ", doc["text"]))}
    assert "थुप्रो" in tokens


def test_each_language_sitemap_lists_only_its_pages(site) -> None:
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    for lang in LANGUAGES:
        root = ET.parse(site.directory / lang_prefix(lang) / "sitemap.xml").getroot()
        locs = [loc.text or "" for loc in root.findall("s:url/s:loc", ns)]
        expected = {site.server.url + lang_prefix(lang) + path for path in content_pages(site.directory, lang)}
        assert set(locs) == expected, lang
        for url in root.findall("s:url", ns):
            assert {link.get("hreflang") for link in url.findall("x:link", ns)} == set(LANGUAGES)


def test_material_configuration_points_each_page_at_its_language_root(site) -> None:
    for page in html_pages(site.directory):
        if page.path.endswith(".html"):
            continue
        parsed = parse(page.file.read_text(encoding="utf-8"))
        base = json.loads(parsed.config_json or "{}")["base"]
        root = resolve(site.directory, page.path, base.rstrip("/") + "/", site.server.origin)
        assert root == site.directory / lang_prefix(page.lang) / "index.html", (page.path, base)


def test_root_404_page_is_in_the_default_language(site) -> None:
    assert parse((site.directory / "404.html").read_text(encoding="utf-8")).html_lang == "en"
