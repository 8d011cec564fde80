"""``make new-language`` does every mechanical step at once, and the checks read a
language being translated (``dhumbal_partial`` in its mkdocs.yml block) with warnings
where a complete language fails: steps and checks on a copy of the files they touch
(tests/catalogs/test_new_language.py builds and plays a whole fifth language)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dhumbal_site import languages
from dhumbal_site.translation import freshness, glossary, newlanguage, parity

ROOT = Path(__file__).resolve().parents[2]



@pytest.fixture
def project(tmp_path: Path) -> Path:
    """What the command reads and writes: the template, the pages, mkdocs.yml, the glossary."""
    root = tmp_path / "project"
    (root / "locales").mkdir(parents=True)
    shutil.copy(ROOT / "locales" / "dhumbal.pot", root / "locales")
    shutil.copy(ROOT / "locales" / "glossary.toml", root / "locales")
    shutil.copy(ROOT / "locales" / "places.toml", root / "locales")
    shutil.copytree(ROOT / "docs" / "en", root / "docs" / "en")
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    return root


def test_every_mechanical_step_in_one_command(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert newlanguage.main(["--root", str(project), "hi"]) == 0
    out = capsys.readouterr().out
    # the catalog, with the language's plural rule
    po = (project / "locales" / "hi" / "LC_MESSAGES" / "dhumbal.po").read_text(encoding="utf-8")
    assert '"Language: hi\\n"' in po and '"Language-Team: Hindi\\n"' in po and "Plural-Forms:" in po
    # every page copied, each still the English text: not translated yet
    names = parity.page_names("en", project / "docs")
    assert parity.page_names("hi", project / "docs") == names
    assert all(parity.check_page("hi", name, project / "docs").missing for name in names)
    # the mkdocs.yml block: the language, its own name, its theme, marked as being translated
    (hindi,) = [lang for lang in languages.configured(project / "mkdocs.yml") if lang.code == "hi"]
    assert hindi.name == "हिन्दी" and hindi.partial and hindi.prefix == "hi/"
    block = languages.i18n_block(languages.read_config(project / "mkdocs.yml"))["languages"][-1]
    assert block["theme"]["language"] == "hi" and block["site_name"] and set(block["nav_translations"]) == {"Home", "Rules"}
    assert {"name": "हिन्दी", "link": "/hi/", "lang": "hi"} in languages.read_config(project / "mkdocs.yml")["extra"]["alternate"]
    # the glossary skeleton, and every entry to write listed at once, with its line
    gaps = glossary.glossary_gaps(project / "locales" / "glossary.toml", ["en", "hi"])["hi"]
    entries = len(glossary.load_glossary(project / "locales" / "glossary.toml", ["en"]))
    assert len(gaps) == entries and all(f"  locales/{gap}" in out for gap in gaps)
    lines = (project / "locales" / "glossary.toml").read_text(encoding="utf-8").splitlines()
    assert all(lines[int(gap.split(":")[1]) - 1] == 'hi = { term = "", definition = "" }' for gap in gaps)


def test_run_again_it_keeps_what_exists(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    newlanguage.add("hi", project)
    (project / "docs" / "hi" / "index.md").write_text("# घर\n", encoding="utf-8")
    again = newlanguage.add("hi", project)
    pages = len(parity.page_names("en", project / "docs"))
    assert again[0].startswith("kept locales/hi/") and again[1].startswith(f"copied 0 English pages to docs/hi/, kept {pages} that exist")
    assert "kept the mkdocs.yml block" in again[2] and again[4] == "kept the glossary (every entry has a line)"
    assert (project / "docs" / "hi" / "index.md").read_text(encoding="utf-8") == "# घर\n"
    assert (project / "mkdocs.yml").read_text(encoding="utf-8").count("- locale: hi") == 1


@pytest.mark.parametrize(("code", "said"), [
    ("en", "English is the site's reference language"),
    ("../x", "is not a language code"),
    ("HI", "is not a language code"),
    ("qq", "is not a language code the Unicode CLDR knows"),
])
def test_a_code_that_cannot_be_a_language_is_refused_in_one_sentence(project: Path, code: str, said: str,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert newlanguage.main(["--root", str(project), code]) == 2
    out = capsys.readouterr().out
    assert out.startswith("new-language: ") and said in out and "Traceback" not in out
    assert not (project / "locales" / code).exists()


def test_a_material_language_needs_no_interface_strings_and_another_gets_them_to_translate(project: Path) -> None:
    (project / "overrides" / "partials" / "languages").mkdir(parents=True)
    assert "nothing to copy" in newlanguage.add("hi", project)[3]
    step = newlanguage.add("ks", project)[3]  # Kashmiri: no strings in Material
    assert step.startswith("copied Material's English interface strings to overrides/partials/languages/ks.html")


def test_glossary_gaps_fail_a_complete_language_and_warn_for_one_being_translated(project: Path,
                                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    newlanguage.add("hi", project)
    assert glossary.main(["--root", str(project)]) == 0  # hi is marked dhumbal_partial
    out = capsys.readouterr().out
    assert "warning: locales/glossary.toml:" in out and "no hi line (term and definition)" in out
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("            dhumbal_partial: true\n", ""), encoding="utf-8")
    assert glossary.main(["--root", str(project)]) == 1
    out = capsys.readouterr().out
    assert "\nerror: locales/glossary.toml:" in "\n" + out and "warning:" not in out
    # a complete glossary line is no gap; a half one is an error naming the entry
    text = (project / "locales" / "glossary.toml").read_text(encoding="utf-8")
    text = text.replace('hi = { term = "", definition = "" }', 'hi = { term = "x", definition = "y" }')
    (project / "locales" / "glossary.toml").write_text(text, encoding="utf-8")
    assert glossary.glossary_gaps(project / "locales" / "glossary.toml", ["en", "hi"]) == {}
    (project / "locales" / "glossary.toml").write_text(text.replace('hi = { term = "x", definition = "y" }',
                                                                     'hi = { term = "x", definition = "" }', 1), encoding="utf-8")
    with pytest.raises(ValueError, match=r"entry 'game' needs a term and a definition in 'hi'"):
        glossary.load_glossary(project / "locales" / "glossary.toml", ["en", "hi"])


def test_a_copy_recorded_by_the_command_stays_untranslated_when_the_english_changes(project: Path) -> None:
    newlanguage.add("hi", project)
    page = project / "docs" / "en" / "compare.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nOne more English sentence.\n", encoding="utf-8")
    report = freshness.check_page("hi", "compare.md", project / "docs")
    assert report is not None and report.state == "untranslated"
