"""A translator sees the reader's first strings first, and every entry says where it shows.

``locales/places.toml`` places every source file's messages on the site. Each entry of the
template and of every catalog carries a ``#. Where: …`` comment from it; a message from a
file no place names stops ``make catalogs``. ``make new-language`` lists, after the
glossary, the messages a reader meets on the first page (the notice of a page not
translated yet, the edit link, the mini table's heading, Play, its guide and controls),
each with its line in the new catalog, before anything else of the catalog; the status
page lists a language's missing messages the same way, those first.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from dhumbal_site.translation import catalogs, newlanguage, places, status

ROOT = Path(__file__).resolve().parents[2]
#: What the German translator found only by chance among 934 entries, and what else a
#: reader meets on opening a page: each must be among the first strings.
MET_FIRST = ["Not translated yet", "This page has not been translated yet, so it is shown in its original language.",
             "Help translate it", "Edit this page", "Play a deal against the bots", "Play", "Three things to know",
             "Got it", "Throw", "Hint", "Call on {total}", "Your turn: take a card from the stock or the pile.",
             "Take from the stock"]


def _read(path: Path) -> list:  # type: ignore[type-arg]
    with path.open("rb") as fh:
        return [m for m in read_po(fh) if m.id]


@pytest.mark.parametrize("path", ["locales/dhumbal.pot", *sorted(
    p.relative_to(ROOT).as_posix() for p in (ROOT / "locales").glob("*/LC_MESSAGES/dhumbal.po"))])
def test_every_entry_says_where_it_shows(path: str) -> None:
    unsaid = [m.id for m in _read(ROOT / path) if not any(c.startswith(places.WHERE) for c in m.auto_comments)]
    assert not unsaid, f"{path}: {len(unsaid)} entries without a “Where:” comment (run make catalogs): {unsaid[:5]}"


def test_every_source_of_the_template_has_a_place() -> None:
    with catalogs.TEMPLATE.open("rb") as fh:
        template = read_po(fh)
    assert places.unplaced(template, places.load()) == []


def test_a_message_from_a_file_without_a_place_stops_make_catalogs(tmp_path: Path) -> None:
    pot = tmp_path / "dhumbal.pot"
    text = catalogs.TEMPLATE.read_text(encoding="utf-8")
    pot.write_text(text + '\n#: engine/dhumbal/view/newpart.py\nmsgid "A new part"\nmsgstr ""\n', encoding="utf-8")
    assert places.annotate(pot) == ["engine/dhumbal/view/newpart.py"]
    assert pot.read_text(encoding="utf-8").endswith('msgid "A new part"\nmsgstr ""\n')  # left as it was


def test_the_places_comment_is_what_places_toml_says_and_named_messages_take_their_own() -> None:
    by_id = {m.id: m for m in _read(catalogs.TEMPLATE)}
    where = {msgid: " ".join(c for c in by_id[msgid].auto_comments if not c.startswith("TRANSLATORS")) for msgid in
             ("Not translated yet", "Page not found", "Play")}
    assert where["Not translated yet"] == "Where: the notice at the top of a page that is not translated yet."
    assert where["Page not found"].startswith("Where: every page's frame")  # the same file, its own place
    assert "Play" in where["Play"] and "mini table" in where["Play"]


def test_what_a_reader_meets_first_comes_first_in_the_files_order() -> None:
    with catalogs.TEMPLATE.open("rb") as fh:
        template = read_po(fh)
    first = places.first_messages(template)
    assert all(m in first for m in MET_FIRST), [m for m in MET_FIRST if m not in first]
    assert set(first[:3]) == set(MET_FIRST[:3])  # the notice of a page not translated yet, before all
    assert first.index("Edit this page") < first.index("Play") < first.index("Three things to know") < first.index("Throw")
    assert "Eliminated: {names}" not in first and "The joker" not in first
    assert 80 <= len(first) <= 160  # a first sitting's work, not the catalog


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(ROOT / "locales", root / "locales")
    shutil.copytree(ROOT / "docs", root / "docs", ignore=shutil.ignore_patterns("assets"))
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    return root


def test_make_new_language_lists_the_first_strings_with_their_lines_after_the_glossary(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert newlanguage.main(["--root", str(project), "de"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("The ") and "messages a reader meets first" in line)
    assert head > next(i for i, line in enumerate(lines) if "glossary entries to write" in line)
    listed = [line.strip() for line in lines[head + 1:] if line.startswith("    locales/de/")]
    po = (project / "locales" / "de" / "LC_MESSAGES" / "dhumbal.po").read_text(encoding="utf-8").splitlines()
    for line in listed:
        where, _, shown = line.partition(": ")
        number = int(where.rsplit(":", 1)[1])
        msgid = ast.literal_eval(shown)
        assert po[number - 1] == 'msgid "' + msgid.replace("\\", "\\\\").replace('"', '\\"') + '"', line
    named = [line.partition(": ")[2] for line in listed]
    assert repr("Not translated yet") in named and repr("Edit this page") in named and repr("Got it") in named
    assert named.index(repr("Not translated yet")) < named.index(repr("Got it"))
    assert lines[head].startswith(f"The {len(listed)} messages a reader meets first")


def test_the_status_page_lists_a_languages_first_strings_first(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    newlanguage.add("de", project)
    po = project / "locales" / "de" / "LC_MESSAGES" / "dhumbal.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgid "Play"\nmsgstr ""', 'msgid "Play"\nmsgstr "Spielen"'),
                  encoding="utf-8")
    monkeypatch.setattr(catalogs, "LOCALES", project / "locales")
    monkeypatch.setattr(catalogs, "TEMPLATE", project / "locales" / "dhumbal.pot")
    monkeypatch.setattr(catalogs, "ROOT", project)
    (german,) = [entry for entry in status._status(["de"], project / "docs") if entry.lang == "de"]
    first = german.missing_strings[:german.first_missing]
    assert german.first_missing > 80 and "Play" not in german.missing_strings
    assert first[0] in MET_FIRST[:3] and "Edit this page" in first and "Got it" in first
    assert all(m not in first for m in german.missing_strings[german.first_missing:])
