"""Nepali register and postpositions: the two rules of the terminology check beyond the glossary's variants.

Every named seat takes the mid-honorific third person (उठाए, not उठायो), and a
postposition is written joined to the name, number, card or placeholder
before it (आशाले, ५मा, ``{seat}ले``). The forms come from the ``[[register]]``
entries of ``locales/glossary.toml``; the Contribute page shows the same
entries as a table in every language. Each rule is shown failing on a defect
seeded into a copy of the project, and passing on the project itself.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from dhumbal_site.content.render import render
from dhumbal_site.translation import terminology
from dhumbal_site.translation.glossary import load_glossary, load_register
from tests.catalogs.catalogkit import edit as _edit

ROOT = Path(__file__).resolve().parents[2]



def _check(project: Path, lang: str = "ne") -> list[terminology.Hit]:
    return terminology.check_project(project, lang)




def _po_line(po: Path, msgid: str) -> int:
    """The line of ``msgid`` in a catalog (what Babel reports for a message)."""
    return po.read_text(encoding="utf-8").splitlines().index(f'msgid "{msgid}"') + 1


# -- the project itself ------------------------------------------------------------------


def test_the_nepali_pages_catalog_and_glossary_keep_one_register_and_joined_postpositions() -> None:
    kinds = {rule.kind for rule in terminology.rules_for("ne")}
    assert kinds == {"term", "register", "postposition"}
    hits = terminology.check_language("ne")
    assert not hits, "\n".join(map(str, hits))


def test_the_register_rule_is_nepali_only() -> None:
    for lang in ("en", "fr", "nl"):
        assert {rule.kind for rule in terminology.rules_for(lang)} <= {"term"}


def test_every_register_verb_pairs_each_refused_form_with_an_honorific_one() -> None:
    verbs = load_register()
    assert {v.verb for v in verbs} >= {"उठाउनु", "फाल्नु", "कल गर्नु", "बाँड्नु", "समातिनु"}
    register = [r for r in terminology.rules_for("ne") if r.kind == "register"]
    for verb in verbs:
        assert verb.lang == "ne" and len(verb.refused) == len(verb.use)
        for refused, use in zip(verb.refused, verb.use):
            assert refused != use
            # the honorific form is never itself refused, even after the reader's तपाईं
            assert not terminology.scan([(1, f"तपाईं {use}")], "x", register), use


# -- register: seeded defects ----------------------------------------------------------


def test_a_non_honorific_verb_for_a_seat_in_a_page_is_found_with_its_line_and_the_form_to_use(project: Path) -> None:
    page = project / "docs" / "ne" / "rules" / "nepali-games.md"
    line = _edit(page, "बाँड्नेले हरेक खेलाडीलाई घोप्टो पारेर एक-एक गरी **५ पत्ती** बाँड्छन्।",
                 "बाँड्नेले हरेक खेलाडीलाई घोप्टो पारेर एक-एक गरी **५ पत्ती** बाँड्छ।")
    hits = _check(project)
    assert [(h.found, h.fix, h.rule.kind, h.line) for h in hits] == [("बाँड्छ", "बाँड्छन्", "register", line)]
    assert hits[0].path.endswith("docs/ne/rules/nepali-games.md")
    assert str(hits[0]).endswith("“बाँड्छ” is not the register for a named seat; use “बाँड्छन्” (style notes: बाँड्नु)")


def test_a_non_honorific_verb_in_a_catalog_message_is_found(project: Path) -> None:
    po = project / "locales" / "ne" / "LC_MESSAGES" / "dhumbal.po"
    _edit(po, 'msgstr "{cards} फाले"', 'msgstr "{cards} फाल्यो"')
    hits = _check(project)
    assert [(h.found, h.fix, h.line) for h in hits] == [("फाल्यो", "फाले", _po_line(po, "threw {cards}"))]


@pytest.mark.parametrize("typed", ["कल गर्‍यो", "कल गर्यो"])
def test_a_multi_word_form_is_found_typed_with_or_without_the_joiner(project: Path, typed: str) -> None:
    po = project / "locales" / "ne" / "LC_MESSAGES" / "dhumbal.po"
    _edit(po, 'msgstr "{total}मा कल गरे"', f'msgstr "{{total}}मा {typed}"')
    assert [(h.found, h.fix) for h in _check(project)] == [("कल गर्यो", "कल गरे")]


def test_a_refused_form_in_a_glossary_definition_is_found(project: Path) -> None:
    glossary = project / "locales" / "glossary.toml"
    _edit(glossary, "र सबैभन्दा हलुका हात भएका खेलाडी जित्छन्।", "र सबैभन्दा हलुका हात जित्छ।")
    assert [(h.found, h.fix) for h in _check(project)] == [("जित्छ", "जित्छन्")]


def test_a_quoted_refused_form_is_a_mention(project: Path) -> None:
    page = project / "docs" / "ne" / "contribute.md"
    _edit(page, "पाठकलाई भने सधैं तपाईं भनिन्छ।", "पाठकलाई भने सधैं तपाईं भनिन्छ; “समातियो” लेखिँदैन।")
    assert _check(project) == []
    _edit(page, "“समातियो” लेखिँदैन।", "A समातियो।")
    assert [h.found for h in _check(project)] == ["समातियो"]


# -- postpositions: seeded defects -----------------------------------------------------


def test_a_postposition_apart_from_a_placeholder_is_found(project: Path) -> None:
    po = project / "locales" / "ne" / "LC_MESSAGES" / "dhumbal.po"
    _edit(po, 'msgstr "{seat}ले {cards} फाल्छन्।"', 'msgstr "{seat} ले {cards} फाल्छन्।"')
    hits = _check(project)
    assert [(h.rule.kind, h.fix, h.line) for h in hits] == [("postposition", "…ले", _po_line(po, "{seat} throws {cards}."))]
    assert "“… ले”: write the postposition joined to the word before it, “…ले”" in str(hits[0])


@pytest.mark.parametrize(
    ("page", "old", "new", "found"),
    [
        # after a Nepali name
        ("rules/dashain.md", "एक जना होस्टले टेबल", "एक जना होस्ट ले टेबल", "होस्ट ले"),
        # after a number and after a card
        ("rules/nepali-games.md", "ठ्याक्कै ५मा कल गर्दा", "ठ्याक्कै ५ मा कल गर्दा", "५ मा"),
        ("rules/cardrulesplus.md", "J♠ A♣ 3♥को जम्मा", "J♠ A♣ 3♥ को जम्मा", "♥ को"),
        # after a one-letter seat name
        ("contribute.md", "बाँड्नेको देब्रेपट्टिका Aले पहिले", "बाँड्नेको देब्रेपट्टिका A ले पहिले", None),
    ],
    ids=["after-a-name", "after-a-number", "after-a-card", "in-a-code-block"],
)
def test_a_postposition_apart_in_a_page_is_found(project: Path, page: str, old: str, new: str, found: str | None) -> None:
    path = project / "docs" / "ne" / page
    line = _edit(path, old, new)
    hits = _check(project)
    if found is None:  # the last case sits in a code block, which the check leaves alone
        assert hits == []
        return
    assert [(h.rule.kind, h.found, h.line) for h in hits] == [("postposition", found, line)]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("{seat} ले", ["§ ले"]),
        ("A को पालो", ["A को"]),
        ("२५ लाई", ["५ लाई"]),
        ("आशा सँग", ["आशा सँग"]),
        ("Python को", []),          # a word in Latin letters is not a seat name
        ("¤ ले", []),                # a code span
        ("यो को हो", []),            # को after a Nepali word can be "who"
        ("यो की त्यो", []),          # की after a Nepali word can be "or"
        ("आशाले, विकासको, ५मा", []),
    ],
)
def test_postposition_rules_match_only_a_postposition_standing_apart(text: str, found: list[str]) -> None:
    rules = terminology.postposition_rules()
    got = [m.group(0) for rule in rules for m in rule.pattern.finditer(terminology.prose(text) if "{" in text else text)]
    assert got == found


@pytest.mark.parametrize(
    ("form", "text", "found"),
    [
        ("फाल्छ", "उनी फाल्छन्, ऊ फाल्छ।", ["फाल्छ"]),
        ("उठायो", "उठायो र उठाए", ["उठायो"]),
        ("समातियो", "समातियोस्", []),
        ("कल गर्छ", "कल  गर्छ", ["कल  गर्छ"]),
    ],
)
def test_register_forms_match_whole_words_only(form: str, text: str, found: list[str]) -> None:
    assert [m.group(0) for m in terminology.rule_pattern(form).finditer(text)] == found


def test_the_terminology_command_reports_a_register_defect(project: Path) -> None:
    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "dhumbal_site.translation.terminology", "--root", str(project), "ne"],
                              cwd=ROOT, capture_output=True, text=True)

    assert run().returncode == 0
    _edit(project / "docs" / "ne" / "index.md", "समातिनुहुन्छ", "समातियो")
    broken = run()
    assert broken.returncode == 1
    assert re.search(r"docs/ne/index\.md:\d+: “समातियो” is not the register for a named seat; use “समातिए”", broken.stdout)


# -- the table on the Contribute page ----------------------------------------------------


def _section(text: str, start: str) -> str:
    at = text.index(start)
    end = text.find("\n## ", at)
    return text[at:end]


@pytest.mark.parametrize(("lang", "heading"), [("en", "### Style notes"), ("fr", "### Conseils de style"),
                                                ("nl", "### Stijlafspraken"), ("ne", "### लेखनशैलीका टिप्पणी")])
def test_every_contribute_page_shows_the_register_table_in_its_style_notes(lang: str, heading: str) -> None:
    text = (ROOT / "docs" / lang / "contribute.md").read_text(encoding="utf-8")
    notes = _section(text, heading)
    assert "<!-- dhumbal:register ne -->" in notes
    # the note names the rule with honorific examples and a joined postposition
    for word in ("बाँड्छन्", "समातिए", "आशाले", "`{seat}ले`"):
        assert word in notes, (lang, word)


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_register_table_lists_every_refused_form_and_the_form_to_use(lang: str) -> None:
    verbs = [v for v in load_register() if v.lang == "ne"]
    html = render("register.html", lang, verbs=verbs, verb_lang="ne")
    for verb in verbs:
        label = f"{verb.subject} … {verb.verb}" if verb.subject else verb.verb
        row = next(r for r in html.split("<tr>") if f">{label}</th>" in r)
        for refused, use in zip(verb.refused, verb.use):
            assert refused in row and use in row
    assert html.count('lang="ne"') == 3 * len(verbs)


# -- the glossary file -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ('[[register]]\nlang = "ne"\nverb = "हेर्नु"\nrefused = ["हेर्छ", "हेर्‍यो"]\nuse = ["हेर्छन्"]\n',
         "register entry 13 (हेर्नु): refused and use must be lists of forms of the same length"),
        ('[[register]]\nlang = "ne"\nverb = "हेर्नु"\nrefused = ["हेर्छ"]\n', "register entry 13: give exactly lang, verb, refused and use"),
    ],
)
def test_a_malformed_register_entry_is_refused_naming_it(tmp_path: Path, entry: str, problem: str) -> None:
    bad = tmp_path / "glossary.toml"
    bad.write_text((ROOT / "locales" / "glossary.toml").read_text(encoding="utf-8") + "\n" + entry, encoding="utf-8")
    problem = problem.replace("register entry 13", f"register entry {len(load_register()) + 1}")
    with pytest.raises(ValueError, match=re.escape(problem)):
        load_register(bad)


def test_the_game_is_dhumbal_in_devanagari_with_the_other_spelling_recognised() -> None:
    game = next(e for e in load_glossary() if e.id == "game")
    assert game["ne"].term == "धुम्बल" and game["ne"].variants == ("ढुम्बल",)
    # the other spelling is listed, not used: the pages and catalogs may not write it
    assert any(r.variant == "ढुम्बल*" for r in terminology.rules_for("ne"))


def test_glossary_variants_must_be_a_list_of_spellings(tmp_path: Path) -> None:
    bad = tmp_path / "glossary.toml"
    text = (ROOT / "locales" / "glossary.toml").read_text(encoding="utf-8")
    bad.write_text(text.replace('variants = ["ढुम्बल"]', 'variants = "ढुम्बल"'), encoding="utf-8")
    with pytest.raises(ValueError, match=r"entry 'game' in 'ne': variants must be a list of spellings"):
        load_glossary(bad, ["en", "fr", "nl", "ne"])


def test_a_code_span_showing_a_comment_opener_hides_nothing_after_it() -> None:
    # the Contribute page writes `<!--` in code; the prose after it is still read, real comments are not
    text = "intro\n- copy lines that start with `<!--` as they are.\n- A समातियो।\n<!-- dhumbal:x -->\n<!-- a\nउठायो -->\nend\n"
    lines = dict(terminology.page_lines(text))
    assert "समातियो" in lines[3] and "उठायो" not in lines[6] and "dhumbal" not in lines[4]
