"""Every translated page records which English text it follows, and a change
to the English page makes the translation stale until a translator updates it.

A stale page is a warning, never a failure (its readers are told by the
page's notice): the project's own stale pages are warnings of the run. In
temporary copies, an edited English page is reported stale (naming the page
and the command that records an update) while the check still passes, a
rewrapped one is not stale, recording clears it, recording refuses a page
that did not change since its English page did (unless forced) and a page
that is still the English text, and the date of the change comes from git
when git can tell (not from a working copy that differs from the last
commit, nor from the boundary of a shallow clone).
"""

from __future__ import annotations

import datetime
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from dhumbal_site.translation import catalogs, freshness, parity
from dhumbal_site.translation.pagestructure import split_front_matter
from tests import todo
from tests.catalogs.catalogkit import edit as _edit
from tests.sitekit import TRANSLATED_LANGUAGES

ROOT = Path(__file__).resolve().parents[2]


LANGS = TRANSLATED_LANGUAGES


@pytest.fixture(scope="module", autouse=True)
def compiled_catalogs() -> None:
    """The messages below are read from the compiled catalogs."""
    from dhumbal.core import i18n

    catalogs.compile_catalogs()
    i18n.translations.cache_clear()
    i18n.translator.cache_clear()


# -- the project's own pages ---------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_translated_page_follows_the_current_english_page_or_is_noted(lang: str) -> None:
    """A page out of date is no failure (its readers are told): the run's summary counts
    them, as make check-catalogs lists them."""
    reports = freshness.check_language(lang)
    assert len(reports) == len(parity.page_names("en")) >= 9
    todo.note("stale", lang, [str(report) for report in reports if not report.fresh])


def test_make_check_catalogs_reports_stale_pages_and_make_translated_records() -> None:
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    check = make[make.index("check-catalogs: "):]
    assert "dhumbal_site.translation.checks" in check[: check.index("\n\n")]
    from dhumbal_site.translation.checks import CHECKS

    assert ("dhumbal_site.translation.freshness", ("check",)) in [(module, args) for _, module, args, _ in CHECKS]
    record = make[make.index("\ntranslated: "):]
    assert "dhumbal_site.translation.freshness record $(if $(FORCE),--force) $$PAGES" in record[: record.index("\n\n")]


# -- seeded changes in temporary copies ------------------------------------------------


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    out = tmp_path / "docs"
    for lang in ("en", "fr", "nl"):
        shutil.copytree(ROOT / "docs" / lang, out / lang)
    freshness.record(["fr", "nl"], out)  # the copies follow their English pages
    assert all(r.fresh for lang in ("fr", "nl") for r in freshness.check_language(lang, out))
    return out




def _states(docs: Path, lang: str) -> dict[str, str]:
    return {r.name: r.state for r in freshness.check_language(lang, docs)}


def test_an_english_change_makes_every_translation_of_that_page_stale(docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert set(_states(docs, "fr").values()) == {"fresh"}
    _edit(docs / "en" / "rules" / "dashain.md", "you call on 10 or less", "you call on 10 or fewer")
    for lang in ("fr", "nl"):
        states = _states(docs, lang)
        assert states.pop("rules/dashain.md") == "stale"
        assert set(states.values()) == {"fresh"}
    # a warning, not a failure
    assert freshness.main(["check", "--docs", str(docs), "fr"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^warning: docs/fr/rules/dashain\.md:\d+: the English page changed since this translation was last updated",
                     out, re.M)
    assert "make translated PAGES=fr/rules/dashain.md" in out
    pages = len(_states(docs, "fr"))
    assert f"fr: {pages - 1}/{pages} translated pages follow the current English page" in out


def test_rewrapping_the_english_page_changes_nothing(docs: Path) -> None:
    page = docs / "en" / "glossary.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(". ", ".\n", 3).replace("\n\n", "\n\n\n", 2) + "\n\n", encoding="utf-8")
    assert set(_states(docs, "fr").values()) == {"fresh"}


def test_recording_clears_the_page_and_keeps_the_rest_of_the_front_matter(docs: Path) -> None:
    _edit(docs / "en" / "index.md", "hand-reduction", "hand reduction")
    page = docs / "fr" / "index.md"
    assert _states(docs, "fr")["index.md"] == "stale"
    _edit(page, "Dhumbal", "Le Dhumbal")  # the translator updates the translation
    before = page.read_text(encoding="utf-8")
    assert freshness.main(["record", "--docs", str(docs), "fr/index.md"]) == 0
    after = page.read_text(encoding="utf-8")
    assert _states(docs, "fr")["index.md"] == "fresh"
    assert _states(docs, "nl")["index.md"] == "stale"  # only the named translation
    # one line of the front matter changed, nothing else
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert len(changed) == 1 and changed[0][1].startswith("dhumbal_source: ")
    front, _, _ = split_front_matter(after)
    english = freshness.source_hash((docs / "en" / "index.md").read_text(encoding="utf-8"))
    # the English page's hash, then the translation's own as recorded
    assert front["title"] and front["dhumbal_source"] == f"{english} {freshness.translation_hash(after)}"
    # recording again changes nothing
    assert freshness.record(["fr/index.md"], docs) == []


def test_recording_refuses_a_page_unchanged_since_its_english_page_changed(docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = docs / "fr" / "index.md"
    _edit(page, "Dhumbal", "Le Dhumbal")
    freshness.record(["fr/index.md"], docs)  # a record that keeps the translation's own hash
    recorded = page.read_text(encoding="utf-8")
    _edit(docs / "en" / "index.md", "hand-reduction", "hand reduction")  # the English page changes...
    assert freshness.main(["record", "--docs", str(docs), "fr/index.md", "nl/index.md"]) == 2  # ...the translations do not
    out = capsys.readouterr().out
    assert "fr/index.md: not recorded: the translation did not change since it was last recorded, but the English page did" in out
    assert "make translated FORCE=1 PAGES=fr/index.md" in out
    assert page.read_text(encoding="utf-8") == recorded and _states(docs, "fr")["index.md"] == "stale"
    # an English change that does not touch the meaning: forced
    assert freshness.main(["record", "--docs", str(docs), "--force", "fr/index.md"]) == 0
    assert _states(docs, "fr")["index.md"] == "fresh"
    # once the translation changes, it is recorded without force
    _edit(docs / "en" / "index.md", "hand reduction", "hand-reduction")
    _edit(page, "Le Dhumbal", "Dhumbal")
    assert freshness.record(["fr/index.md"], docs) == ["fr/index.md"]


def test_an_older_record_asks_git_whether_the_translation_changed(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record made before it kept the translation's own hash: git tells whether the
    translation changed after its English page did."""
    docs = repo / "docs"
    assert freshness.recorded_translation((docs / "fr" / "page.md").read_text(encoding="utf-8")) is None
    assert freshness.main(["record", "--docs", str(docs), "fr/page.md"]) == 2
    assert "fr/page.md: not recorded: the translation did not change" in capsys.readouterr().out
    (docs / "fr" / "page.md").write_text("---\n" + (docs / "fr" / "page.md").read_text(encoding="utf-8").split("---\n", 2)[1]
                                         + "---\n# Page\n\nUn, et deux.\n", encoding="utf-8")
    assert freshness.record(["fr/page.md"], docs) == ["fr/page.md"]


def test_a_copy_of_the_english_page_is_untranslated_and_not_recorded(docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    english = (docs / "en" / "compare.md").read_text(encoding="utf-8")
    # a copy as make new-language makes it (recording the English version it copies), or by hand
    for copy in (english, freshness.with_hash(english, freshness.source_hash(english))):
        (docs / "nl" / "compare.md").write_text(copy, encoding="utf-8")
        report = freshness.check_page("nl", "compare.md", docs)
        assert report is not None and report.state == "untranslated" and report.fresh
        assert parity.check_page("nl", "compare.md", docs).missing
        assert freshness.main(["record", "--docs", str(docs), "nl/compare.md"]) == 2
        assert "nl/compare.md: not recorded: the page is still the English text; translate it first" in capsys.readouterr().out
    # the English page changes: the untouched copy (its record names the English it copied)
    # is still untranslated, not stale
    _edit(docs / "en" / "compare.md", "The", "Each")
    assert freshness.check_page("nl", "compare.md", docs).state == "untranslated"  # type: ignore[union-attr]


def test_a_translation_without_a_recorded_hash_is_reported(docs: Path) -> None:
    page = docs / "nl" / "compare.md"
    text = page.read_text(encoding="utf-8")
    page.write_text("\n".join(line for line in text.splitlines() if not line.startswith("dhumbal_source:")) + "\n", encoding="utf-8")
    report = next(r for r in freshness.check_language("nl", docs) if r.name == "compare.md")
    assert report.state == "unrecorded" and "no dhumbal_source in its front matter" in str(report)
    # a value that is not a hash counts as none
    page.write_text(freshness.with_hash(text, "0123456789abcdef").replace("0123456789abcdef", "<script>"), encoding="utf-8")
    assert freshness.check_page("nl", "compare.md", docs).state == "unrecorded"  # type: ignore[union-attr]


def test_recording_refuses_what_is_not_a_translation(docs: Path) -> None:
    for bad, said in [("en/index.md", "English pages record nothing"), ("fr/nowhere.md", "no page docs/fr/nowhere.md"),
                      ("de", "no language folder docs/de")]:
        with pytest.raises(ValueError, match=said):
            freshness.record([bad], docs)
    (docs / "fr" / "extra.md").write_text("# En plus\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no English page docs/en/extra.md"):
        freshness.record(["fr/extra.md"], docs)


def test_a_page_without_front_matter_gets_one() -> None:
    text = freshness.with_hash("# Titre\n\nTexte.\n", "0123456789abcdef")
    assert text == "---\ndhumbal_source: 0123456789abcdef\n---\n\n# Titre\n\nTexte.\n"
    assert freshness.recorded_hash(text) == "0123456789abcdef"


# -- the date, from git -------------------------------------------------------------------


def _git(cwd: Path, *args: str, when: str | None = None) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org")
    if when:
        env.update(GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with an English page and its French translation, then a later English change."""
    root = tmp_path / "repo"
    (root / "docs" / "en").mkdir(parents=True)
    (root / "docs" / "fr").mkdir(parents=True)
    (root / "docs" / "en" / "page.md").write_text("# Page\n\nOne.\n", encoding="utf-8")
    (root / "docs" / "en" / "other.md").write_text("# Other\n", encoding="utf-8")
    (root / "docs" / "fr" / "page.md").write_text("# Page\n\nUn.\n", encoding="utf-8")
    (root / "docs" / "fr" / "other.md").write_text("# Autre\n", encoding="utf-8")
    freshness.record(["fr"], root / "docs")
    for page in (root / "docs" / "fr").glob("*.md"):  # records as made before they kept the translation's own hash
        text = page.read_text(encoding="utf-8")
        page.write_text(freshness.with_hash(text, str(freshness.recorded_hash(text))), encoding="utf-8")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "first", when="2025-01-05T10:00:00+00:00")
    (root / "docs" / "en" / "page.md").write_text("# Page\n\nOne, and two.\n", encoding="utf-8")
    _git(root, "commit", "-qam", "english change", when="2025-03-12T10:00:00+00:00")
    _git(root, "commit", "-q", "--allow-empty", "-m", "later", when="2025-04-01T10:00:00+00:00")
    return root


def test_the_date_of_the_english_change_comes_from_git(repo: Path) -> None:
    report = freshness.check_page("fr", "page.md", repo / "docs")
    assert report is not None and report.state == "stale"
    assert report.changed == datetime.date(2025, 3, 12)
    assert report.text("fr") == "la page anglaise a changé le 12 mars 2025, après la dernière mise à jour de cette traduction"
    assert freshness.check_page("fr", "other.md", repo / "docs").state == "fresh"  # type: ignore[union-attr]


def test_an_uncommitted_english_edit_has_no_date(repo: Path) -> None:
    (repo / "docs" / "en" / "page.md").write_text("# Page\n\nOne, two, three.\n", encoding="utf-8")
    report = freshness.check_page("fr", "page.md", repo / "docs")
    assert report is not None and report.state == "stale" and report.changed is None
    assert report.text("en") == "the English page changed since this translation was last updated"


def test_a_shallow_clone_gives_no_date_rather_than_a_wrong_one(repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", repo.as_uri(), str(clone)], check=True, capture_output=True)
    report = freshness.check_page("fr", "page.md", clone / "docs")
    assert report is not None and report.state == "stale" and report.changed is None


def test_no_git_no_date(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "en").mkdir(parents=True)
    (docs / "fr").mkdir()
    (docs / "en" / "p.md").write_text("# P\n", encoding="utf-8")
    (docs / "fr" / "p.md").write_text("---\ndhumbal_source: 0123456789abcdef\n---\n# P (fr)\n", encoding="utf-8")
    report = freshness.check_page("fr", "p.md", docs)
    assert report is not None and report.state == "stale" and report.changed is None


@pytest.mark.parametrize(("lang", "shown"), [
    ("en", "March 12, 2025"), ("fr", "12 mars 2025"), ("nl", "12 maart 2025"), ("ne", "२०२५ मार्च १२"),
])
def test_dates_are_written_as_each_language_writes_them(lang: str, shown: str) -> None:
    assert freshness.date_text(datetime.date(2025, 3, 12), lang) == shown
