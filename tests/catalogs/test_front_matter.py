"""No page's front matter can inject markup, in any language (issue 21, item 3).

Material writes front-matter fields into the page unescaped (the description
into ``<meta name="description">``, the title into the header, the
navigation and the search index). The content check
(``dhumbal_site.translation.frontmatter``, run by ``make check-catalogs`` and by the build
on every page of every language) refuses markup there, and the site's own
head template escapes every front-matter field it writes, with the
Content-Security-Policy as the first element of ``<head>``.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from mkdocs.exceptions import PluginError

from dhumbal_site.plugin import build
from dhumbal_site.translation import frontmatter

ROOT = Path(__file__).resolve().parents[2]


PAYLOADS = [
    'x"><script>alert(1)</script>',  # the case, in a description
    "</title><script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    'Règles" autofocus onfocus="alert(1)',
    "`${alert(1)}`",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&#60;script&#62;",
    "&#x3C;script",
]


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("field", ["description", "title", "author", "subtitle"])
def test_markup_in_any_field_is_refused_naming_the_field(field: str, payload: str) -> None:
    found = frontmatter.problems({"title": "Règles", field: payload})
    assert len(found) == 1 and f"field '{field}' holds markup" in found[0], found


def test_markup_nested_in_lists_and_mappings_and_in_keys_is_refused() -> None:
    meta = {"dhumbal_parity": [{"section": "page", "kind": "lists", "reason": "ok <b>bold</b>"}]}
    assert frontmatter.problems(meta) == [
        frontmatter.problems({"x": "<b>"})[0].replace("'x'", "'dhumbal_parity[0].reason'")
    ]
    found = frontmatter.problems({"<script>": "x"})
    assert len(found) == 1 and "(the key)" in found[0]


@pytest.mark.parametrize("text", ["a\x00b", "a\x1bb[31m", "a\u2028b", "a\x85b"])
def test_control_characters_are_refused(text: str) -> None:
    found = frontmatter.problems({"description": text})
    assert len(found) == 1 and "control character" in found[0]
    assert "\x00" not in found[0] and "\x1b" not in found[0]  # the message shows them escaped


def test_sizes_and_depth_are_bounded() -> None:
    assert "characters long" in frontmatter.problems({"description": "x" * (frontmatter.MAX_TEXT + 1)})[0]
    assert frontmatter.problems({"description": "x" * frontmatter.MAX_TEXT}) == []
    deep: Any = "x"
    for _ in range(frontmatter.MAX_DEPTH + 2):
        deep = [deep]
    assert "nested more than" in frontmatter.problems({"d": deep})[0]
    wide = {f"k{i}": "v" for i in range(frontmatter.MAX_ITEMS)}
    assert "more than" in frontmatter.problems(wide)[0]


@pytest.mark.parametrize(
    "text",
    [
        "Le Dhumbal, où la main la plus légère l'emporte",
        "Q&A, rules & variants",
        "दशैं प्रोफाइलका नियम (झ्याप): १० वा कममा कल",
        "« Les règles » et “the rules”",
    ],
)
def test_plain_text_passes(text: str) -> None:
    assert frontmatter.problems({"title": text, "description": text, "n": 3, "flags": [True, None]}) == []


def test_front_matter_is_read_as_mkdocs_reads_it_yaml_and_multimarkdown() -> None:
    assert frontmatter.check_text("---\ndescription: '<b>x</b>'\n---\n# Page\n")
    # MkDocs also reads "key: value" lines at the top of a page without fences
    assert frontmatter.check_text('description: x"><script>alert(1)</script>\n\n# Page\n')
    assert frontmatter.check_text("# Page\n\ndescription: <b>x</b> is body text here\n") == []


def test_every_page_of_every_language_passes() -> None:
    report = frontmatter.check_docs()
    assert report == []
    langs = {p.relative_to(frontmatter.DOCS).parts[0] for p in frontmatter.DOCS.rglob("*.md")}
    assert {"en", "fr", "nl", "ne"} <= langs


def test_the_check_names_the_page_in_any_language_with_its_name_escaped(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "ne").mkdir(parents=True)
    (docs / "en").mkdir()
    (docs / "en" / "index.md").write_text("---\ntitle: Home\n---\n# Home\n", encoding="utf-8")
    (docs / "ne" / "index.md").write_text(
        "---\ntitle: गृहपृष्ठ\ndescription: 'x\"><script>alert(1)</script>'\n---\n", encoding="utf-8"
    )
    (docs / "ne" / "bad\x1b[2Jname.md").write_text("---\ntitle: '<i>'\n---\n", encoding="utf-8")
    (docs / "ne" / "latin1.md").write_bytes(b"---\ntitle: caf\xe9\n---\n")
    report = frontmatter.check_docs(docs)
    assert any(r.startswith("docs/ne/index.md:3: field 'description' holds markup") for r in report), report
    assert any(r.startswith("docs/ne/bad\\x1b[2Jname.md:2: field 'title'") for r in report), report
    assert any(r.startswith("docs/ne/latin1.md:1: not UTF-8") for r in report), report
    assert not any("\x1b" in r for r in report)
    assert len(report) == 3
    assert frontmatter.main([str(docs)]) == 1
    (docs / "ne" / "index.md").unlink()
    (docs / "ne" / "bad\x1b[2Jname.md").unlink()
    (docs / "ne" / "latin1.md").unlink()
    assert frontmatter.main([str(docs)]) == 0


def test_an_oversized_page_is_refused_before_it_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = tmp_path / "docs"
    (docs / "fr").mkdir(parents=True)
    (docs / "fr" / "big.md").write_text("---\ntitle: x\n---\n" + "a" * 2000, encoding="utf-8")
    monkeypatch.setattr(frontmatter, "MAX_PAGE_BYTES", 1000)
    assert frontmatter.check_docs(docs) == ["docs/fr/big.md:1: the page file is larger than 1000 bytes"]


def test_the_build_refuses_the_page_naming_file_and_field() -> None:
    page = SimpleNamespace(
        meta={"title": "Accueil", "description": 'x"><script>alert(1)</script>'},
        file=SimpleNamespace(src_uri="fr/index.md"),
    )
    with pytest.raises(PluginError, match=r"dhumbal: docs/fr/index\.md: field 'description' holds markup"):
        build.SiteBuild.on_page_markdown(object.__new__(build.SiteBuild), "# Accueil\n", page, {}, None)  # type: ignore[arg-type]


def _page_with(source: str) -> SimpleNamespace:
    from mkdocs.utils.meta import get_data

    return SimpleNamespace(meta=get_data(source)[1], file=SimpleNamespace(src_uri="hi/translation-status.md", content_string=source))


def test_front_matter_yaml_cannot_read_stops_the_build_naming_its_own_file_and_line() -> None:
    """A description holding ": " broke the YAML: MkDocs dropped the front matter without
    a word, the error blamed another page, and the check said "0 problem(s)"."""
    source = "---\ntitle: स्थिति\ndescription: हर भाषा: उसका कैटलॉग\n---\n\n# स्थिति\n"
    with pytest.raises(PluginError) as caught:
        build.SiteBuild.on_page_markdown(object.__new__(build.SiteBuild), "# स्थिति\n", _page_with(source), {}, None)  # type: ignore[arg-type]
    assert str(caught.value).startswith("dhumbal: docs/hi/translation-status.md:3: the value of 'description' holds \": \"")
    # the same quoted builds past the front matter check (to the language, which this stand-in has none of)
    quoted = source.replace("description: हर भाषा: उसका कैटलॉग", 'description: "हर भाषा: उसका कैटलॉग"')
    with pytest.raises(AttributeError):
        build.SiteBuild.on_page_markdown(object.__new__(build.SiteBuild), "# स्थिति\n", _page_with(quoted), {}, None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("front", "line", "said"), [
    ("title: A\ndescription: How to run: the site", 3, "the value of 'description' holds \": \", which YAML reads as the start of another key"),
    ("title: A\ndescription: The pile # and the stock", 3, "the value of 'description' holds \" #\", which YAML reads as the start of a comment"),
    ("title: A\ndhumbal_parity:\n  - section: page\n    kind: words\n    reason: Plus court: voilà", 6, "the value of 'reason' holds \": \""),
    ("title: [A\ndescription: B", 2, "the front matter is not valid YAML"),
    ("title: A\n  description: B", 3, "the front matter is not valid YAML"),
    # a quote never closed: YAML blames the next line's quote, or the end; the check names the opening one
    ('title: "Dhumbal (Jhyap)\ndescription: "Les règles"', 2,
     "the double quote that opens the value of 'title' is never closed: close the quote on line 2"),
    ('title: A\ndescription: "Les règles du jeu', 3,
     "the double quote that opens the value of 'description' is never closed: close the quote on line 3"),
    ("title: 'L''as\ndescription: B", 2, "the single quote that opens the value of 'title' is never closed"),
    ("title: [A\ndescription: B", 2, "the front matter is not valid YAML (expected ',' or ']', but got ':'): the [ "
                                      "that opens the value of 'title' on line 2 is never closed; close it with ]"),
    ('title: "A" and B', 2, "the front matter is not valid YAML (expected <block end>, but found '<scalar>'): the value "
                            "on line 2 goes on after its closing quote; put the whole value inside the quotes"),
])
def test_the_check_names_the_line_of_front_matter_yaml_would_misread(front: str, line: int, said: str) -> None:
    found = frontmatter.located(f"---\n{front}\n---\n\n# Page\n")
    assert found and found[0][0] == line and found[0][1].startswith(said), found


@pytest.mark.parametrize("front", [
    'title: A\ndescription: "How to run: the site"',
    "title: A\ndescription: 'How to run: the site'",
    "title: A\ndescription: >-\n  How to run: the site,\n  and more # not a comment in a block\n",
    "title: A\ndescription: Le 10#, l'as et le C#",
    "title: A\ndescription: http://example.org/x is an address",
    "title: Accueil\ndhumbal_parity:\n  - section: page\n    kind: words\n    reason: Le français est plus long ici.",
    "title: 'L''as de pique'\ndescription: \"Le jeu\"",
])
def test_front_matter_yaml_reads_as_written_passes(front: str) -> None:
    assert frontmatter.located(f"---\n{front}\n---\n\n# Page\n") == []


def test_the_docs_check_names_file_and_line(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "hi").mkdir(parents=True)
    (docs / "hi" / "translation-status.md").write_text("---\ntitle: स्थिति\ndescription: हर भाषा: उसका कैटलॉग\n---\n# स्थिति\n", encoding="utf-8")
    (report,) = frontmatter.check_docs(docs)
    assert report.startswith("docs/hi/translation-status.md:3: the value of 'description' holds")
    assert frontmatter.main([str(docs)]) == 1


def test_the_make_target_runs_the_front_matter_check() -> None:
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = make[make.index("check-catalogs: "):]
    assert "dhumbal_site.translation.checks" in target[: target.index("\n\n")]
    from dhumbal_site.translation.checks import CHECKS

    assert "dhumbal_site.translation.frontmatter" in [module for _, module, _, _ in CHECKS]


def _head(meta: dict[str, str]) -> str:
    """The site's head fields and title as overrides/main.html writes them for a page with ``meta``."""
    from mkdocs.theme import Theme

    template = Theme(name="material", custom_dir=str(ROOT / "overrides")).get_env().get_template("main.html")
    page = SimpleNamespace(
        meta=meta, canonical_url=None, previous_page=None, next_page=None, title="t", is_homepage=False, url="x/"
    )
    config = {
        "extra": {"dhumbal_csp": "default-src 'none'", "alternate": [{"link": "/", "lang": "en"}]},
        "theme": {"favicon": "x.png", "language": "en"},
        "site_name": "Dhumbal",
        "site_description": None,
        "site_author": None,
    }
    context = template.new_context(
        {"page": page, "config": config, "base_url": ".", "lang": SimpleNamespace(t=lambda key: "en")}
    )
    return "".join(template.blocks["site_meta"](context)) + "".join(template.blocks["htmltitle"](context))


def test_the_head_template_escapes_every_front_matter_field_and_states_the_policy_first() -> None:
    # even if a hostile field slipped past the check, the head writes it inert
    head = _head({"description": PAYLOADS[0], "author": 'a"b<i>', "title": PAYLOADS[1]})
    assert "<script" not in head and "<i>" not in head and 'a"b' not in head
    assert 'content="x&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in head
    assert "<title>&lt;/title&gt;&lt;script&gt;" in head
    assert head.lstrip().startswith('<meta http-equiv="Content-Security-Policy"')
