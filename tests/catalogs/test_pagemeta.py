"""Page titles and descriptions are translatable on Weblate, whose Markdown format copies
front matter as it is (translate-toolkit reads it as a header, never as units).

``locales/pages.pot`` holds every English page's title and description, one entry per page
and field, with its line; ``make catalogs`` merges it into the page catalogs Weblate starts;
the build gives a page Weblate translated (its text translated, its front matter still
English) the catalog's title and description, and leaves a page translated in git, whose
front matter is its own, as it is; a catalog's translation that front matter could not hold
is an error of the checks.
"""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.pofile import read_po

from dhumbal_site.translation import pagemeta

ROOT = Path(__file__).resolve().parents[2]


def test_the_template_holds_every_english_title_and_description_and_is_current(tmp_path: Path) -> None:
    committed = pagemeta.template_path().read_text(encoding="utf-8")
    (tmp_path / "locales").mkdir()
    shutil.copytree(ROOT / "docs" / "en", tmp_path / "docs" / "en")
    pagemeta.extract(tmp_path)
    assert (tmp_path / "locales" / "pages.pot").read_text(encoding="utf-8") == committed, "run make catalogs"
    with pagemeta.template_path().open("rb") as fh:
        entries = {m.context: m for m in read_po(fh) if m.id}
    pages = sorted(p.relative_to(ROOT / "docs" / "en").as_posix() for p in (ROOT / "docs" / "en").rglob("*.md"))
    assert set(entries) == {f"{page} {key}" for page in pages for key in pagemeta.FIELDS}
    dashain = entries["rules/dashain.md title"]
    assert dashain.id == "Dashain rules (Jhyaap)" and dashain.locations == [("docs/en/rules/dashain.md", 2)]
    assert any(c.startswith("Where: the title of the page rules/dashain.md") for c in dashain.auto_comments)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """English pages, a Hindi page catalog as Weblate starts one from the template, one translation."""
    root = tmp_path / "project"
    shutil.copytree(ROOT / "docs" / "en", root / "docs" / "en")
    (root / "locales").mkdir(parents=True)
    pagemeta.extract(root)
    po = pagemeta.catalog_path("hi", root)
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Language: hi\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  + pagemeta.template_path(root).read_text(encoding="utf-8"), encoding="utf-8")
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace('msgctxt "rules/dashain.md title"\nmsgid "Dashain rules (Jhyaap)"\nmsgstr ""',
                               'msgctxt "rules/dashain.md title"\nmsgid "Dashain rules (Jhyaap)"\nmsgstr "दशैंके नियम (झ्याप)"'),
                  encoding="utf-8")
    return root


def test_make_catalogs_keeps_a_translation_and_adds_a_new_page(project: Path) -> None:
    new = project / "docs" / "en" / "history.md"
    new.write_text("---\ntitle: History\ndescription: Where the game comes from.\n---\n\n# History\n", encoding="utf-8")
    pagemeta.extract(project)
    with pagemeta.catalog_path("hi", project).open("rb") as fh:
        catalog = read_po(fh, locale="hi")
    assert catalog.get("Dashain rules (Jhyaap)", context="rules/dashain.md title").string == "दशैंके नियम (झ्याप)"
    assert catalog.get("History", context="history.md title").string == ""


def _build_page(project: Path, monkeypatch: pytest.MonkeyPatch, source: str) -> dict[str, object]:
    """The front matter a Hindi page ends the build's markdown step with (the build's own hook)."""
    from mkdocs.utils.meta import get_data

    from dhumbal_site.plugin import build

    (project / "docs" / "hi" / "rules").mkdir(parents=True, exist_ok=True)
    (project / "docs" / "hi" / "rules" / "dashain.md").write_text(source, encoding="utf-8")
    monkeypatch.setattr(pagemeta, "ROOT", project)
    monkeypatch.setattr(build, "current_language", lambda config: "hi")
    site = object.__new__(build.SiteBuild)
    site.default, site.text_langs, site.blocks, site.block_numbers = "en", {}, {}, itertools.count(1)
    markdown, meta = get_data(source)
    page = SimpleNamespace(meta=meta, file=SimpleNamespace(src_uri="hi/rules/dashain.md", content_string=source))
    config = SimpleNamespace(docs_dir=str(project / "docs"))
    build.SiteBuild.on_page_markdown(site, markdown, page, config, None)  # type: ignore[arg-type]
    return meta


def test_a_page_translated_on_weblate_gets_its_catalogs_title(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    english = (project / "docs" / "en" / "rules" / "dashain.md").read_text(encoding="utf-8")
    front, _, body = english[4:].partition("\n---\n")
    # Weblate's Markdown output: the English front matter, the text translated (here: its first heading)
    weblate = "---\n" + front + "\n---\n" + body.replace("# Dashain rules (Jhyaap)", "# दशैंके नियम (झ्याप)", 1)
    meta = _build_page(project, monkeypatch, weblate)
    assert meta["title"] == "दशैंके नियम (झ्याप)"
    assert meta["description"] == front.split("description: ", 1)[1].split("\n", 1)[0]  # not translated yet: English


def test_a_page_translated_in_git_keeps_its_own_front_matter(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    english = (project / "docs" / "en" / "rules" / "dashain.md").read_text(encoding="utf-8")
    own = english.replace("title: Dashain rules (Jhyaap)", "title: दशैं प्रोफाइलका नियम", 1).replace(
        "# Dashain rules (Jhyaap)", "# दशैं प्रोफाइलका नियम", 1)
    assert _build_page(project, monkeypatch, own)["title"] == "दशैं प्रोफाइलका नियम"


def test_a_translation_front_matter_could_not_hold_is_an_error(project: Path) -> None:
    po = pagemeta.catalog_path("hi", project)
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "दशैंके नियम (झ्याप)"', 'msgstr "दशैं <b>नियम</b>"'),
                  encoding="utf-8")
    errors, warnings = pagemeta.check(project)
    assert len(errors) == 1 and errors[0].startswith("locales/hi/LC_MESSAGES/pages.po:") and "markup" in errors[0]
    assert warnings and all(": not translated: " in w for w in warnings)
    assert pagemeta.meta_translation("hi", "rules/dashain.md", "title", "Dashain rules (Jhyaap)", project) is None
