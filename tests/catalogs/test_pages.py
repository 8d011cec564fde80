"""Every translated page says everything the English page says, with one word per concept.

The structural parity check (dhumbal_site.translation.parity) and the terminology check
(dhumbal_site.translation.terminology) hold for the project's pages and catalogs, and
each fails, naming the page and the missing piece or the rejected word, when
a defect is seeded into a temporary copy: a section removed, a marker
dropped, a list turned into prose, a page cut short, a rejected word used.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dhumbal_site.translation import parity, terminology
from tests.catalogs.catalogkit import edit as _edit
from tests.sitekit import PARTIAL_LANGUAGES, TRANSLATED_LANGUAGES, warn_of

ROOT = Path(__file__).resolve().parents[2]



#: Every language but English, as mkdocs.yml lists them.
LANGS = TRANSLATED_LANGUAGES


# -- the project's own pages ---------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_translated_page_says_everything_the_english_page_says(lang: str) -> None:
    """Every page, in a complete language; in one being translated, the markers always,
    and what is not translated yet as warnings of the run."""
    reports = parity.check_language(lang)
    assert len(reports) == len(parity.page_names("en")) >= 9
    differences = [d for r in reports for d in r.differences]
    wrong = [str(d) for d in differences if not parity.is_warning(d, lang in PARTIAL_LANGUAGES)]
    warn_of(lang, [str(d) for d in differences if parity.is_warning(d, lang in PARTIAL_LANGUAGES)])
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGS)
def test_no_rejected_variant_in_pages_catalogs_or_glossary(lang: str) -> None:
    if lang not in PARTIAL_LANGUAGES:  # a new language's glossary may not reject any word yet
        assert terminology.rules_for(lang), f"{lang} has no rejected variants to check"
    hits = terminology.check_language(lang)
    assert not hits, "\n".join(map(str, hits))


def test_the_make_target_runs_both_checks() -> None:
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = make[make.index("check-catalogs: "):]
    target = target[: target.index("\n\n")]
    assert "dhumbal_site.translation.checks" in target
    from dhumbal_site.translation.checks import CHECKS

    run = [module for _, module, _, _ in CHECKS]
    assert "dhumbal_site.translation.parity" in run and "dhumbal_site.translation.terminology" in run


# -- seeded defects in temporary copies ----------------------------------------------


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """A copy of the English and French pages."""
    out = tmp_path / "docs"
    for lang in ("en", "fr"):
        shutil.copytree(ROOT / "docs" / lang, out / lang)
    return out




def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + 1)
    return text[start:] if end == -1 else text[start : end + 1]


def _said(d: parity.Difference) -> str:
    """A difference as "page: what", without its lines (the location tests check those)."""
    return f"{d.page}: {d.text('en')}"


def test_a_missing_section_is_named_with_its_page(docs: Path) -> None:
    page = docs / "fr" / "index.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(_section(text, "## Le jeu en une minute"), ""), encoding="utf-8")
    report = parity.check_page("fr", "index.md", docs)
    assert not report.ok
    messages = [_said(d) for d in report.differences]
    assert "fr/index.md: the section “The game in one minute” is missing" in messages, messages
    # located: where the section would be in the translation, and where it is in English
    located = [str(d) for d in report.differences if d.code == "section-missing"]
    assert len(located) == 1 and re.fullmatch(r"docs/fr/index\.md:\d+: the section “The game in one minute” is missing "
                                              r"\(in English: docs/en/index\.md:\d+\)", located[0]), located


def test_a_missing_marker_is_named(docs: Path) -> None:
    _edit(docs / "fr" / "rules" / "dashain.md", "<!-- dhumbal:example dashain-runs -->\n", "")
    messages = [_said(d) for d in parity.check_page("fr", "rules/dashain.md", docs).differences]
    assert any("<!-- dhumbal:example dashain-runs --> is missing" in m for m in messages), messages


def test_a_list_turned_into_prose_is_named_with_its_section(docs: Path) -> None:
    page = docs / "fr" / "rules" / "cardrulesplus.md"
    text = page.read_text(encoding="utf-8")
    calling = _section(text, "## L'annonce")
    page.write_text(text.replace(calling, calling.replace("\n- ", "\n")), encoding="utf-8")
    messages = [_said(d) for d in parity.check_page("fr", "rules/cardrulesplus.md", docs).differences]
    assert "fr/rules/cardrulesplus.md: in “Calling”: 0 lists, in English 1" in messages, messages


def test_a_missing_note_and_a_missing_table_are_named(docs: Path) -> None:
    page = docs / "fr" / "rules" / "nepali-games.md"
    text = page.read_text(encoding="utf-8")
    note = text[text.index('!!! note "Arbitrage du site"\n    Les sources'):]
    note = note[: note.index("\n\n") + 1]
    table = _section(text, "## Valeur des cartes")
    table_lines = "\n".join(line for line in table.splitlines() if not line.startswith("|")) + "\n"
    page.write_text(text.replace(note, "").replace(table, table_lines), encoding="utf-8")
    messages = [_said(d) for d in parity.check_page("fr", "rules/nepali-games.md", docs).differences]
    assert "fr/rules/nepali-games.md: in “What may be taken”: 0 notes, in English 1" in messages, messages
    assert "fr/rules/nepali-games.md: in “Card values”: 0 tables, in English 1" in messages, messages


def test_a_page_cut_short_fails_the_word_band(docs: Path) -> None:
    page = docs / "fr" / "compare.md"
    text = page.read_text(encoding="utf-8")
    last = text.rstrip().rsplit("\n\n", 1)[1]
    page.write_text(text.replace(last, "Ce tableau vient du moteur."), encoding="utf-8")
    messages = [_said(d) for d in parity.check_page("fr", "compare.md", docs).differences]
    assert any(m.startswith("fr/compare.md: in “How to read the table”:") and "times the English word count" in m
               for m in messages), messages


def test_a_declared_difference_is_accepted_shown_and_must_stay_true(docs: Path) -> None:
    page = docs / "fr" / "rules" / "cardrulesplus.md"
    text = page.read_text(encoding="utf-8")
    calling = _section(text, "## L'annonce")
    text = text.replace(calling, calling.replace("\n- ", "\n"))
    declared = ("dhumbal_profile: cardrulesplus\ndhumbal_parity:\n  - section: calling\n    kind: lists\n"
                "    reason: Les quatre règles de l'annonce se lisent mieux d'une traite.\n")
    text = text.replace("dhumbal_profile: cardrulesplus\n", declared)
    page.write_text(text, encoding="utf-8")
    report = parity.check_page("fr", "rules/cardrulesplus.md", docs)
    # the list count is excused; the item count, which was not declared, is not
    assert [d.code for d in report.differences] == ["items"], report.differences
    assert [(d.section, d.kind, d.heading) for d in report.declared] == [("calling", "lists", "Calling")]
    assert report.declared[0].reason.startswith("Les quatre règles")

    # once the list is back, the declaration is stale and reported
    page.write_text(text.replace(_section(text, "## L'annonce"), calling), encoding="utf-8")
    messages = [_said(d) for d in parity.check_page("fr", "rules/cardrulesplus.md", docs).differences]
    assert messages == ["fr/rules/cardrulesplus.md: a declared difference (lists in “Calling”) no longer exists: "
                        "remove it from the front matter"], messages


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("  - section: calling\n    kind: lists\n", "give exactly section, kind and reason"),
        ("  - section: calling\n    kind: paragraphs\n    reason: une raison assez longue\n", "kind 'paragraphs'"),
        ("  - section: l-annonce\n    kind: lists\n    reason: une raison assez longue\n", "not an English heading id"),
        ("  - section: calling\n    kind: lists\n    reason: court\n", "needs a reason"),
    ],
)
def test_a_declaration_that_cannot_be_read_is_reported(docs: Path, entry: str, problem: str) -> None:
    _edit(docs / "fr" / "rules" / "cardrulesplus.md", "dhumbal_profile: cardrulesplus\n",
          "dhumbal_profile: cardrulesplus\ndhumbal_parity:\n" + entry)
    messages = [_said(d) for d in parity.check_page("fr", "rules/cardrulesplus.md", docs).differences]
    assert any("a declared difference cannot be read" in m and problem in m for m in messages), messages


def test_a_page_missing_in_a_language_is_reported(docs: Path) -> None:
    (docs / "fr" / "glossary.md").unlink()
    report = parity.check_page("fr", "glossary.md", docs)
    assert report.missing and not report.ok


def test_the_parity_command_fails_on_a_seeded_defect(docs: Path) -> None:
    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "dhumbal_site.translation.parity", "--docs", str(docs), "fr"],
                              cwd=ROOT, capture_output=True, text=True)

    clean = run()
    assert clean.returncode == 0, clean.stdout + clean.stderr
    page = docs / "fr" / "index.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(_section(text, "## Ses noms"), ""), encoding="utf-8")
    broken = run()
    assert broken.returncode == 1
    assert re.search(r"^error: docs/fr/index\.md:\d+: the section “Its names” is missing", broken.stdout, re.M), broken.stdout


# -- terminology: seeded defects -------------------------------------------------------


def _check(project: Path, lang: str) -> list[terminology.Hit]:
    return terminology.check_project(project, lang)


def test_a_rejected_word_in_a_page_is_found_with_its_line_and_the_right_term(project: Path) -> None:
    assert _check(project, "fr") == []
    page = project / "docs" / "fr" / "rules" / "dashain.md"
    _edit(page, "Les cartes du jet proposé que personne ne prend", "Les cartes du lancer proposé que personne ne prend")
    hits = _check(project, "fr")
    assert {(h.found, h.rule.term) for h in hits} == {("lancer proposé", "jet proposé"), ("lancer", "jeter, jet")}
    line = page.read_text(encoding="utf-8").splitlines().index(
        next(ln for ln in page.read_text(encoding="utf-8").splitlines() if "lancer proposé" in ln)) + 1
    assert all(h.path.endswith("docs/fr/rules/dashain.md") and h.line == line for h in hits)


def test_a_quoted_mention_is_allowed_but_not_code_or_a_link_target_alone(project: Path) -> None:
    page = project / "docs" / "nl" / "glossary.md"
    _edit(page, "# Woordenlijst\n", "# Woordenlijst\n\nDe bron zegt “ondersneden”, en `afleggen` staat in code.\n")
    assert _check(project, "nl") == []
    _edit(page, "De bron zegt “ondersneden”", "De roeper is ondersneden")
    assert [h.found for h in _check(project, "nl")] == ["ondersneden"]


def test_a_rejected_word_in_a_catalog_or_the_glossary_is_found(project: Path) -> None:
    po = project / "locales" / "ne" / "LC_MESSAGES" / "dhumbal.po"
    _edit(po, 'msgstr "खुला पत्ती"', 'msgstr "अघिल्लो खेलाडीले फालेका पत्ती"')
    hits = _check(project, "ne")
    assert [h.rule.concept for h in hits] == ["offer"] and hits[0].path.endswith("ne/LC_MESSAGES/dhumbal.po")
    glossary = project / "locales" / "glossary.toml"
    _edit(glossary, 'definition = "यस साइटको एउटा पृष्ठ।"', 'definition = "यस साइटको एउटा पाना।"')
    assert "पाना" in {h.found for h in _check(project, "ne")}


def test_the_terminology_command_fails_on_a_seeded_defect(project: Path) -> None:
    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "dhumbal_site.translation.terminology", "--root", str(project), "nl"],
                              cwd=ROOT, capture_output=True, text=True)

    assert run().returncode == 0
    _edit(project / "docs" / "nl" / "contribute.md", "# Meewerken\n", "# Bijdragen\n")
    broken = run()
    assert broken.returncode == 1
    heading = 1 + (project / "docs" / "nl" / "contribute.md").read_text(encoding="utf-8").splitlines().index("# Bijdragen")
    assert f"nl/contribute.md:{heading}: “Bijdragen” is not the site's word; use “Meewerken”" in broken.stdout


@pytest.mark.parametrize(
    ("variant", "text", "found"),
    [
        ("lanc*", "il lance les dés", ["lance"]),
        ("lanc*", "élancé", []),
        ("appel", "l'appel et le rappel", ["appel"]),
        ("पाना*", "पानामा र पानी", ["पानामा"]),
        ("बीउ*", "बीउ।", ["बीउ"]),
        ("zero-J", "het Zero-J-profiel", ["Zero-J"]),
        ("valet nul", "le valet  nul", ["valet  nul"]),
    ],
)
def test_rejected_variants_match_whole_words_only(variant: str, text: str, found: list[str]) -> None:
    pattern = terminology.rule_pattern(variant)
    assert [m.group(0) for m in pattern.finditer(text)] == found


# -- the glossary file ----------------------------------------------------------------


def test_the_glossary_refuses_an_also_word_without_a_known_profile(tmp_path: Path) -> None:
    from dhumbal_site.translation.glossary import load_glossary

    bad = tmp_path / "glossary.toml"
    text = (ROOT / "locales" / "glossary.toml").read_text(encoding="utf-8")
    bad.write_text(text.replace('{ word = "brelan", profile = "cardrulesplus" }', '{ word = "brelan", profile = "yaniv" }'),
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"entry 'set' in 'fr': also must be"):
        load_glossary(bad, ["en", "fr", "nl", "ne"])


def test_every_seed_word_the_issue_names_is_in_the_glossary() -> None:
    from dhumbal_site.translation.glossary import load_glossary

    also = {(lang, word) for e in load_glossary() for lang, cell in e.cells.items() for word, _ in cell.also}
    for lang, word in [("fr", "appel, appeler"), ("fr", "brelan"), ("fr", "coupé"), ("nl", "oproep"), ("nl", "afleggen"),
                       ("nl", "ondersneden")]:
        assert (lang, word) in also, (lang, word)


# -- a heading removed, a page not translated, a language being translated ------------


@pytest.mark.parametrize(("page", "heading", "named"), [
    ("rules/dashain.md", "## La donne\n", "The deal"),
    ("rules/dashain.md", "## Ce que l'on peut prendre\n", "What may be taken"),
    ("rules/dashain.md", "### Le risque d'être pris\n", "The chance of being caught"),
    ("rules/nepali-games.md", "## L'annonce\n", "Calling"),
    ("contribute.md", "## Faire tourner le site chez soi\n", "Run the site on your computer"),
])
def test_a_removed_heading_is_named_rightly_and_its_text_is_not_counted_against_the_section_before(
        docs: Path, page: str, heading: str, named: str) -> None:
    """Removing a heading (its text staying, run on into the section before) used to
    be reported as a different heading missing, with that section's counts off."""
    _edit(docs / "fr" / page, heading, "")
    messages = [_said(d) for d in parity.check_page("fr", page, docs).differences]
    sections = [m for m in messages if "the section" in m]
    assert sections == [f"fr/{page}: the section “{named}” is missing"], messages
    # at most a list that ran into the next one once the heading between them went
    assert all(m == sections[0] or (" lists, in English " in m) for m in messages), messages


def test_a_section_removed_whole_is_still_named(docs: Path) -> None:
    """The same check with the heading's text gone too: the right section, nothing else."""
    page = docs / "fr" / "rules" / "dashain.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(_section(text, "## Règlement"), ""), encoding="utf-8")
    messages = [_said(d) for d in parity.check_page("fr", "rules/dashain.md", docs).differences]
    assert "fr/rules/dashain.md: the section “Settlement” is missing" in messages, messages
    assert not any("“Resolving a call”" in m or "“The end of a match”" in m for m in messages), messages


def test_a_copy_of_the_english_page_is_not_translated_yet(docs: Path) -> None:
    english = (docs / "en" / "compare.md").read_text(encoding="utf-8")
    (docs / "fr" / "compare.md").write_text(english, encoding="utf-8")
    report = parity.check_page("fr", "compare.md", docs)
    assert report.missing and [d.code for d in report.differences] == ["page-untranslated"]
    assert str(report.differences[0]) == "docs/fr/compare.md:1: the page is not translated yet: it is still the English text"


def test_a_language_being_translated_warns_of_what_is_left_but_fails_on_a_lost_marker(docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (docs / "fr" / "compare.md").write_text((docs / "en" / "compare.md").read_text(encoding="utf-8"), encoding="utf-8")
    (docs / "fr" / "index.md").unlink()
    config = docs.parent / "mkdocs.yml"
    block = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config.write_text(block.replace("        - locale: fr\n          name: Français\n          build: true\n",
                                    "        - locale: fr\n          name: Français\n          build: true\n"
                                    "          extra:\n            dhumbal_partial: true\n"), encoding="utf-8")
    assert parity.partial_languages(docs) == {"fr"} | PARTIAL_LANGUAGES
    assert parity.main(["--docs", str(docs), "fr"]) == 0
    out = capsys.readouterr().out
    assert "warning: docs/fr/compare.md:1: the page is not translated yet: it is still the English text" in out
    assert "warning: docs/fr/index.md:1: the page is not translated" in out
    pages = len(list((docs / "en").rglob("*.md")))  # two of them left untranslated above
    assert f"fr: {pages - 2}/{pages} pages at parity with English, 0 declared difference(s) (being translated" in out
    # a marker lost is a failure even there
    _edit(docs / "fr" / "rules" / "dashain.md", "<!-- dhumbal:example dashain-runs -->\n", "")
    assert parity.main(["--docs", str(docs), "fr"]) == 1
    assert re.search(r"^error: docs/fr/rules/dashain\.md:\d+: the generated content <!-- dhumbal:example dashain-runs --> "
                     r"is missing \(in English: docs/en/rules/dashain\.md:\d+\)$", capsys.readouterr().out, re.M)
    # without the mark, what was a warning is a failure
    config.write_text(block, encoding="utf-8")
    _edit(docs / "fr" / "rules" / "dashain.md", "\n\n", "\n\n<!-- dhumbal:example dashain-runs -->\n\n")
    assert parity.main(["--docs", str(docs), "fr"]) == 1
