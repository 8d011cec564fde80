"""Every translated page records which English text it follows, and a change
to the English page makes the translation stale until a translator updates it.

The project's own pages must all follow their English pages; in temporary
copies, an edited English page is reported stale (naming the page and the
command that records an update), a rewrapped one is not, recording clears
it, and the date of the change comes from git when git can tell (not from a
working copy that differs from the last commit, nor from the boundary of a
shallow clone).
"""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITEGEN = ROOT / "sitegen"
if str(SITEGEN) not in sys.path:
    sys.path.insert(0, str(SITEGEN))

from dhumbal_site import catalogs, freshness, parity  # noqa: E402

LANGS = ("fr", "nl", "ne")


@pytest.fixture(scope="module", autouse=True)
def compiled_catalogs() -> None:
    """The messages below are read from the compiled catalogs."""
    from dhumbal import i18n

    catalogs.compile_catalogs()
    i18n.translations.cache_clear()
    i18n.translator.cache_clear()


# -- the project's own pages ---------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_translated_page_follows_the_current_english_page(lang: str) -> None:
    reports = freshness.check_language(lang)
    assert len(reports) == len(parity.page_names("en")) >= 9
    stale = [str(r) for r in reports if not r.fresh]
    assert not stale, "\n".join(stale)


def test_make_check_catalogs_reports_stale_pages_and_make_translated_records() -> None:
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    check = make[make.index("check-catalogs: "):]
    assert "dhumbal_site.freshness check" in check[: check.index("\n\n")]
    record = make[make.index("\ntranslated: "):]
    assert "dhumbal_site.freshness record $(PAGES)" in record[: record.index("\n\n")]


# -- seeded changes in temporary copies ------------------------------------------------


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    out = tmp_path / "docs"
    for lang in ("en", "fr", "nl"):
        shutil.copytree(ROOT / "docs" / lang, out / lang)
    freshness.record(["fr", "nl"], out)  # the copies follow their English pages
    assert all(r.fresh for lang in ("fr", "nl") for r in freshness.check_language(lang, out))
    return out


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _states(docs: Path, lang: str) -> dict[str, str]:
    return {r.name: r.state for r in freshness.check_language(lang, docs)}


def test_an_english_change_makes_every_translation_of_that_page_stale(docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert set(_states(docs, "fr").values()) == {"fresh"}
    _edit(docs / "en" / "rules" / "dashain.md", "you call on 10 or less", "you call on 10 or fewer")
    for lang in ("fr", "nl"):
        states = _states(docs, lang)
        assert states.pop("rules/dashain.md") == "stale"
        assert set(states.values()) == {"fresh"}
    assert freshness.main(["check", "--docs", str(docs), "fr"]) == 1
    out = capsys.readouterr().out
    assert "fr/rules/dashain.md: the English page changed since this translation was last updated" in out
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
    before = page.read_text(encoding="utf-8")
    assert _states(docs, "fr")["index.md"] == "stale"
    assert freshness.main(["record", "--docs", str(docs), "fr/index.md"]) == 0
    after = page.read_text(encoding="utf-8")
    assert _states(docs, "fr")["index.md"] == "fresh"
    assert _states(docs, "nl")["index.md"] == "stale"  # only the named translation
    # one line of the front matter changed, nothing else
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert len(changed) == 1 and changed[0][1].startswith("dhumbal_source: ")
    front, _, _ = parity.split_front_matter(after)
    assert front["title"] and front["dhumbal_source"] == freshness.source_hash((docs / "en" / "index.md").read_text(encoding="utf-8"))
    # recording again changes nothing
    assert freshness.record(["fr/index.md"], docs) == []


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
    (docs / "fr" / "p.md").write_text("---\ndhumbal_source: 0123456789abcdef\n---\n# P\n", encoding="utf-8")
    report = freshness.check_page("fr", "p.md", docs)
    assert report is not None and report.state == "stale" and report.changed is None


@pytest.mark.parametrize(("lang", "shown"), [
    ("en", "March 12, 2025"), ("fr", "12 mars 2025"), ("nl", "12 maart 2025"), ("ne", "२०२५ मार्च १२"),
])
def test_dates_are_written_as_each_language_writes_them(lang: str, shown: str) -> None:
    assert freshness.date_text(datetime.date(2025, 3, 12), lang) == shown
