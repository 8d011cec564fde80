"""The Weblate configuration is one Weblate accepts, and it describes this repository.

``weblate/`` holds three things Weblate's API takes: the catalog's component, the
page titles' and descriptions' component, and the component discovery add-on that
makes one Markdown component per page. Each is validated with check-jsonschema
against a schema of Weblate's own rules (``weblate/schemas/``: the component's
documented settings, and the discovery add-on's form), and each schema is shown
refusing what Weblate refuses: the empty-matching language filter ``^$`` that
Weblate's form rejects ("The regular expression can not match an empty string."),
a file expression without its language group, a Markdown component without its
base file. What JSON Schema cannot say is checked here with Python's regular
expressions: the filter matches no empty string and, as shipped, no language (the
pages translated in git stay out of Weblate), and opening it to one language being
added (``^hi$``) lets that language in alone; every page and every catalog is found.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEBLATE = ROOT / "weblate"
SCHEMAS = WEBLATE / "schemas"


def _validate(schema: str, document: Path) -> subprocess.CompletedProcess[str]:
    command = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent)) or "check-jsonschema"
    return subprocess.run([command, "--regex-variant", "python", "--schemafile", str(SCHEMAS / schema), str(document)],
                          capture_output=True, text=True, check=False)


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEBLATE / name).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(("document", "schema"), [
    ("catalog.json", "component.schema.json"),
    ("pagemeta.json", "component.schema.json"),
    ("pages.json", "discovery.schema.json"),
])
def test_each_file_is_valid_against_weblates_rules(document: str, schema: str) -> None:
    result = _validate(schema, WEBLATE / document)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(("change", "refused"), [
    (lambda c: c.update(language_regex="^$"), "language_regex"),
    (lambda c: c.update(match=r"docs/(?P<component>.+)\.md"), "match"),
    (lambda c: c.pop("base_file_template"), "base_file_template"),
    (lambda c: c.update(name_template="Page"), "name_template"),
    (lambda c: c.update(file_format="markdown-ish"), "file_format"),
], ids=["empty-matching filter", "no language group", "monolingual without base", "name without component", "unknown format"])
def test_the_discovery_schema_refuses_what_weblate_refuses(tmp_path: Path, change: Any, refused: str) -> None:
    addon = _load("pages.json")
    change(addon["configuration"])
    bad = tmp_path / "pages.json"
    bad.write_text(json.dumps(addon), encoding="utf-8")
    result = _validate("discovery.schema.json", bad)
    assert result.returncode != 0 and refused in result.stdout, result.stdout


@pytest.mark.parametrize(("change", "refused"), [
    (lambda c: c.update(new_lang="automatic"), "new_lang"),
    (lambda c: c.update(filemask="locales/fr/LC_MESSAGES/dhumbal.po"), "filemask"),
    (lambda c: c.update(push_on_commit="yes"), "push_on_commit"),
    (lambda c: c.update(langauge_regex="^[^.]+$"), "langauge_regex"),
], ids=["unknown new-language mode", "file mask without *", "a flag as text", "a misspelt setting"])
def test_the_component_schema_refuses_what_weblate_refuses(tmp_path: Path, change: Any, refused: str) -> None:
    component = _load("catalog.json")
    change(component)
    bad = tmp_path / "catalog.json"
    bad.write_text(json.dumps(component), encoding="utf-8")
    result = _validate("component.schema.json", bad)
    assert result.returncode != 0 and refused in result.stdout, result.stdout


def _languages_in_git() -> set[str]:
    return {p.name for p in (ROOT / "docs").iterdir() if p.is_dir() and any(p.glob("*.md"))} | {
        p.parent.parent.name for p in (ROOT / "locales").glob("*/LC_MESSAGES/*.po")}


@pytest.mark.parametrize("name", ["pagemeta.json", "pages.json"])
def test_the_pages_filters_match_no_empty_string_and_no_language_until_opened(name: str) -> None:
    data = _load(name)
    pattern = (data.get("configuration") or data)["language_regex"]
    compiled = re.compile(pattern)
    assert compiled.match("") is None, "Weblate refuses a language filter that matches an empty string"
    assert not [lang for lang in _languages_in_git() if compiled.match(lang)]
    opened = re.compile("^hi$")  # what CONTRIBUTING.md says to write for a language being added
    assert opened.match("") is None and opened.match("hi") and not opened.match("fr")


def test_the_discovery_finds_every_page_with_its_english_base() -> None:
    config = _load("pages.json")["configuration"]
    match = re.compile(config["match"])
    pages = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))
    found = [match.fullmatch(page) for page in pages]
    assert all(found), [p for p, f in zip(pages, found) if not f]
    for hit in found:
        assert hit is not None
        for key in ("base_file_template", "new_base_template"):
            base = re.sub(r"\{\{ *component *\}\}", hit.group("component"), config[key])
            assert (ROOT / base).is_file(), base


def test_the_catalog_component_reads_every_catalog_and_starts_a_language_from_the_template() -> None:
    catalog = _load("catalog.json")
    assert catalog["file_format"] == "po" and catalog["new_lang"] == "add"
    assert (ROOT / catalog["new_base"]).is_file()
    found = sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob(catalog["filemask"]))
    assert found == sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "locales").glob("*/LC_MESSAGES/dhumbal.po"))
    assert len(found) >= 3 and "python_brace_format" in catalog["enforced_checks"]
    assert all(re.match(catalog["language_regex"], p.split("/")[1]) for p in found)
    # Weblate opens or updates its pull request by itself once it has committed
    assert catalog["push_on_commit"] is True


def test_the_page_titles_component_starts_a_language_from_the_pages_template() -> None:
    meta = _load("pagemeta.json")
    assert meta["file_format"] == "po" and (ROOT / meta["new_base"]).is_file()
    assert meta["filemask"].replace("*", "xx") != _load("catalog.json")["filemask"].replace("*", "xx")
