"""A new contributor adds a fifth language (Hindi) by following the Contribute page,
translates a little of it, and everything works while the rest is still English.

The language is added to a copy of the project once per run (tests/fifthlanguage.py:
``make new-language``, a few catalog messages, three glossary entries and one page
translated and recorded, ``make check-catalogs``, the strict build), and served as
the site variant ``fifth-language``; tests/table/test_table_fifth_language_browser.py
plays a deal at its table. Here: what the commands said, and the built pages.
"""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path
from typing import Any

import pytest

from tests.fifthlanguage import CODE, GLOSSARY, MESSAGES, REPOSITORY, built

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def fifth(shared_site: Any) -> tuple[Any, Path, dict[str, Any]]:
    # ``shared_site``: the run's build of the real site, done (passed or not), has filled
    # the checkout's build caches, which the copy starts with
    site, project, said = built()
    assert site.ok, site.log[-4000:]
    return site, project, said


def _page(site: Any, path: str) -> str:
    return (site.directory / path / "index.html").read_text(encoding="utf-8")


def test_the_contribute_page_names_the_one_command(fifth: Any) -> None:
    page = (ROOT / "docs" / "en" / "contribute.md").read_text(encoding="utf-8")
    section = page[page.index("## Add a language"):page.index("## Terminology")]
    for needle in ("make new-language CODE=<code>", "docs/<code>/", "mkdocs.yml", "locales/glossary.toml",
                   "make translated PAGES=<code>/<page>", "dhumbal_partial"):
        assert needle in section, needle


def test_a_fifth_language_is_added_in_one_command_listing_every_glossary_entry(fifth: Any) -> None:
    _, project, said = fifth
    out = said["new-language"]
    assert f"wrote locales/{CODE}/LC_MESSAGES/dhumbal.po" in out
    assert f"copied {len(list((ROOT / 'docs' / 'en').rglob('*.md')))} English pages to docs/{CODE}/" in out
    assert f"added the {CODE} block to mkdocs.yml" in out
    entries = len(re.findall(r"^\[\[term\]\]", (ROOT / "locales" / "glossary.toml").read_text(encoding="utf-8"), re.M))
    # every missing glossary entry at once, each with its line
    listed = re.findall(r"^  locales/glossary\.toml:(\d+): ([\w-]+)$", out, re.M)
    assert len(listed) == entries >= 30
    lines = (project / "locales" / "glossary.toml").read_text(encoding="utf-8").splitlines()
    for line, entry in listed:
        if entry not in GLOSSARY:
            assert lines[int(line) - 1] == f'{CODE} = {{ term = "", definition = "" }}', (line, entry)
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"- locale: {CODE}\n          name: हिन्दी" in config and "dhumbal_partial: true" in config
    assert f"lang: {CODE}\n" in config  # the header's language list too
    assert said["translated-status"] == 0, said["translated"]


def test_the_checks_pass_with_a_partial_fifth_language_and_warn_of_what_is_left(fifth: Any) -> None:
    _, _, said = fifth
    out, status = said["check-catalogs"], said["status"]
    assert status == 0, out[-4000:]
    assert "Traceback" not in out
    mine = [line for line in out.splitlines() if f"/{CODE}/" in line or line.startswith((f"{CODE}:", f"warning: docs/{CODE}/"))]
    problems = [line for line in mine if f"locales/{CODE}/" in line and line.startswith("error: ")]
    assert not problems, problems
    # what is left: messages, pages, glossary entries, each a warning naming its place
    assert re.search(rf"^warning: locales/{CODE}/LC_MESSAGES/dhumbal\.po:\d+: not translated: 'Hint'$", out, re.M)
    assert f"warning: docs/{CODE}/index.md:1: the page is not translated yet: it is still the English text" in out
    assert f"warning: docs/{CODE}/glossary.md" not in out  # translated, recorded, at parity with English
    assert re.search(rf"^warning: locales/glossary\.toml:\d+: call: no {CODE} line \(term and definition\)$", out, re.M)
    entries = len(re.findall(r"^\[\[term\]\]", (ROOT / "locales" / "glossary.toml").read_text(encoding="utf-8"), re.M))
    assert re.search(rf"^{CODE}: {entries - len(GLOSSARY)} glossary entries to write$", out, re.M)
    assert re.search(rf"^{CODE}: {len(MESSAGES)}/\d+ translated, 0 problem\(s\), \d+ warning\(s\)", out, re.M)
    # the complete languages are held complete: no warning of theirs
    assert not re.search(r"^warning: (?:locales/)?(?:fr|nl|ne)/", out, re.M)


def test_an_untranslated_page_is_the_english_page_marked_english_with_a_notice(fifth: Any) -> None:
    site, _, _ = fifth
    page = _page(site, f"{CODE}/rules/dashain")
    assert re.search(rf'<html lang="{CODE}"', page)  # the page is in the reader's language...
    notice = re.search(r'<div class="admonition info dh-untranslated"[^>]*>(.*?)</div>', page, re.S)
    assert notice is not None and f'lang="{CODE}"' in notice.group(0)
    assert 'href="../../contribute/"' in notice.group(1)  # a link to help
    # ...its text is English, and says so (screen readers, search engines)
    content = page[notice.end():]
    assert content.lstrip().startswith('<div lang="en">')
    english = _page(site, "rules/dashain")
    first = re.search(r"<h1[^>]*>(.*?)<", english).group(1)  # type: ignore[union-attr]
    assert f">{first}<" in content


def test_a_translated_page_is_shown_in_its_language_without_a_notice(fifth: Any) -> None:
    site, _, _ = fifth
    page = _page(site, f"{CODE}/glossary")
    assert "dh-untranslated" not in page and '<div lang="en">' not in page
    assert "<h1" in page and "शब्दावली" in page
    # the glossary: the entries written in Hindi, the rest in English, marked, with a note
    for term, _definition in GLOSSARY.values():
        assert f'<td lang="{CODE}"><strong>{term}</strong>' in page
    todo = re.findall(r'<td class="dh-glossary-todo"><strong lang="en">([^<]+)</strong> <em>\(([^)]+)\)</em>', page)
    glossary = (ROOT / "locales" / "glossary.toml").read_text(encoding="utf-8")
    game_words = len(re.findall(r"^\[\[term\]\]$", glossary, re.M)) - len(re.findall(r"^site = true$", glossary, re.M))
    assert len(todo) == game_words - len(GLOSSARY) and {note for _, note in todo} == {"not translated yet"}


def test_every_page_links_to_its_own_source_file_and_to_a_report(fifth: Any) -> None:
    site, _, _ = fifth
    for path, source in [(f"{CODE}/rules/dashain", f"{CODE}/rules/dashain.md"), (f"{CODE}/glossary", f"{CODE}/glossary.md"),
                         ("fr/compare", "fr/compare.md"), ("", "en/index.md")]:
        page = _page(site, path)
        edit = re.search(r'<a href="([^"]+)" rel="edit"', page)
        assert edit is not None and htmllib.unescape(edit.group(1)) == f"{REPOSITORY}/edit/main/docs/{source}", path
        report = re.search(r'<a href="([^"]+)" class="dh-page-links__report">([^<]+)</a>', page)
        assert report is not None and htmllib.unescape(report.group(1)).startswith(f"{REPOSITORY}/issues/new?title="), path
        assert f"docs%2F{source.replace('/', '%2F')}" in report.group(1)
    # no repository drawn in the header (Material would fetch its figures from the host)
    assert "md-source" not in _page(site, CODE)


def test_the_other_languages_and_the_status_page_know_the_fifth(fifth: Any) -> None:
    site, _, _ = fifth
    assert f"/{CODE}/" in _page(site, "fr")
    status = _page(site, "translation-status")
    row = re.search(rf'<tr data-lang="{CODE}" data-complete="no">(.*?)</tr>', status, re.S)
    assert row is not None and "being translated" in row.group(1)
    assert re.search(rf'<td data-lang="{CODE}" data-parity="missing"', status)  # pages not translated yet
    assert re.search(rf'<tr data-page="glossary.md">.*?<td data-lang="{CODE}" data-parity="yes"', status, re.S)
