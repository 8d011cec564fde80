"""The terminology check's rules from the fourth translation review, each shown
finding a defect seeded into a copy of the project and leaving the right form alone.

- One term per concept: the glossary names the site's term and the variants it
  rejects ("annoncer avec 6", not "annoncer sur 6" or "annonce à 5"; "roepgrens",
  not "roeplimiet"; "स्कोर" for a score, not "अङ्कमा जोडिन्छ"), and the check
  finds a rejected variant in a page, a page's description, a catalog message
  (the puzzles' and examples' text among them) or the glossary, with its file and
  line. ``#`` in a variant stands for a number or a placeholder.
- Nepali postpositions standing apart: बिना, पछि(को), देखि, भन्दा, सम्म, मध्ये, जत्तिकै
  as well as the first list, and any of them after a closing bracket.
- The register: the past-habitual forms (रोज्थ्यो, चल्थ्यो) for a named seat,
  and the reader's तपाईं with a third-person form (तपाईं … रहेछ).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dhumbal_site.translation import terminology
from dhumbal_site.translation.glossary import load_glossary, load_register
from tests.catalogs.catalogkit import catalog as _po
from tests.catalogs.catalogkit import edit as _edit

ROOT = Path(__file__).resolve().parents[2]



def _check(project: Path, lang: str) -> list[terminology.Hit]:
    return terminology.check_project(project, lang)






def _msgid_line(po: Path, msgid: str) -> int:
    return po.read_text(encoding="utf-8").splitlines().index(f'msgid "{msgid}"') + 1


# -- one term per concept: every glossary rule finds its variant, never the term -------------


def _sample(variant: str) -> str:
    """A text the variant must match: its words, "*" dropped and "#" a number."""
    return " ".join("5" if part == "#" else part.rstrip("*") for part in variant.split())


@pytest.mark.parametrize("lang", ["fr", "nl", "ne"])
def test_every_rejected_variant_matches_itself_and_never_the_sites_term(lang: str) -> None:
    rules = [r for r in terminology.rules_for(lang) if r.kind == "term"]
    assert rules
    for rule in rules:
        assert rule.pattern.search(_sample(rule.variant)), (lang, rule.variant)
    for entry in load_glossary():
        cell = entry[lang]
        for rule in rules:
            assert not rule.pattern.search(cell.term), (lang, entry.id, rule.variant)


@pytest.mark.parametrize(
    ("variant", "text", "found"),
    [
        ("annonc* sur #", "Asha annonce sur 6 et encaisse 44", ["annonce sur 6"]),
        ("annonc* sur #", "on peut annoncer sur **5**", ["annoncer sur **5"]),
        ("annonc* sur #", "Annoncer sur §", ["Annoncer sur §"]),
        ("annonc* sur #", "on compte sur 5 joueurs", []),
        ("annonc* sur #", "une annonce sur le tard", []),
        ("annonc* sur #", "Annoncer avec 6", []),
        ("annonc* à #", "on annonce à 5 points ou moins", ["annonce à 5"]),
        ("annonc* à #", "l'annonce à Dashain", []),
        ("annonc* à #", "on annonce jusqu'à 10", []),
        ("roep* nu op #", "Een roep nu op § wordt betrapt", ["roep nu op §"]),
        ("roep* op #", "kun je roepen op 0", ["roepen op 0"]),
        ("roep* op #", "roep op tijd", []),
        ("अङ्कमा जोड*", "हरेकको अङ्कमा जोडिन्छ", ["अङ्कमा जोडिन्छ"]),
        ("अङ्कमा जोड*", "हरेकको स्कोरमा जोडिन्छ", []),
    ],
)
def test_a_variant_spanning_words_with_a_number_matches_only_that_use(variant: str, text: str, found: list[str]) -> None:
    assert [m.group(0) for m in terminology.rule_pattern(variant).finditer(text)] == found


@pytest.mark.parametrize(
    ("lang", "where", "old", "new", "found", "term"),
    [
        # a page, and a page's description in its front matter
        ("fr", "docs/fr/rules/nepali-games.md", "vous pouvez annoncer avec 0,", "vous pouvez annoncer sur 0,",
         "annoncer sur 0", "annoncer avec 6"),
        ("fr", "docs/fr/rules/nepali-games.md", "on annonce avec 5 points ou moins", "on annonce à 5 points ou moins",
         "annonce à 5", "annoncer avec 6"),
        ("fr", "docs/fr/puzzles.md", "ouvre la petite table sur", "ouvre la mini-table sur", "mini-table", "petite table"),
        ("fr", "docs/fr/index.md", "quand on prend une seule carte", "quand on ramasse une seule carte", "ramasse", "prendre"),
        ("nl", "docs/nl/puzzles.md", "opent de kleine speeltafel op", "opent de minitafel op", "minitafel", "kleine speeltafel"),
        ("nl", "docs/nl/rules/nepali-games.md", "**Gelijke stand bij het laagste totaal.**",
         "**Gelijkspel om het laagste totaal.**", "Gelijkspel", "gelijke stand"),
        ("ne", "docs/ne/puzzles.md", "(कठिन तहको बोट, जसले", "(कम्प्युटरको कडा खेलाडी, जसले", "कडा खेलाडी", "बोटको तह"),
        ("ne", "docs/ne/rules/dashain.md", "*पहिलो घेरोमै कल* सेटिङले", "*पहिलो घेरोमै झ्याप* सेटिङले",
         "घेरोमै झ्याप", "पहिलो घेरोमै कल"),
    ],
    ids=["fr-page", "fr-description", "fr-mini-table", "fr-take", "nl-mini-table", "nl-tie", "ne-level", "ne-option"],
)
def test_a_rejected_variant_in_a_page_is_found_with_its_line(project: Path, lang: str, where: str, old: str, new: str,
                                                          found: str, term: str) -> None:
    assert _check(project, lang) == []
    line = _edit(project / where, old, new)
    hits = _check(project, lang)
    assert [(h.line, h.found, h.fix) for h in hits] == [(line, found, term)]
    assert hits[0].path.endswith(where)


@pytest.mark.parametrize(
    ("lang", "msgid", "old", "new", "found", "term"),
    [
        # an example's title, the table's button, a puzzle's lead
        ("fr", "Asha calls on 6 and collects 44", "Asha annonce avec 6", "Asha annonce sur 6", "annonce sur 6", "annoncer avec 6"),
        ("fr", "Call on {total}", "Annoncer avec {total}", "Annoncer sur {total}", "Annoncer sur §", "annoncer avec 6"),
        ("nl", "You are right on the limit of 5, and every other player holds a single card.", "op de roepgrens van 5",
         "op de limiet van 5", "limiet", "roepgrens"),
        ("nl", "A call now on {total} is caught in {caught} of the deals that fit what you have seen.",
         "Als je nu met {total} roept, word je", "Een roep nu op {total} wordt", "roep nu op §", "roepen met 6"),
        ("ne", "Share", "साझा गर्नुहोस्", "सेयर गर्नुहोस्", "सेयर", "साझा गर्नु"),
        ("ne", "Points: added to each score. You called with the lowest hand: {zero}. Every other player: their own hand.",
         "हरेकको स्कोरमा जोडिन्छ। तपाईंले सबैभन्दा कम हातमा", "हरेकको अङ्कमा जोडिन्छ। तपाईंले सबैभन्दा कम हातमा",
         "अङ्कमा जोडिन्छ", "स्कोर"),
        ("ne", "The aggressive reference bot plays as a published study of Dhumbal agents describes its champion: it calls "
               "as soon as the rules let it, and otherwise throws its heaviest cards, picking up only a light face-up card.",
         "उत्तानो पत्ती हलुका भए", "उत्तानो पत्ती हल्का भए", "हल्का", "हलुका हात"),
    ],
    ids=["fr-example-title", "fr-button", "nl-puzzle-lead", "nl-hint", "ne-share", "ne-score", "ne-light"],
)
def test_a_rejected_variant_in_a_catalog_is_found_with_its_message(project: Path, lang: str, msgid: str, old: str,
                                                                 new: str, found: str, term: str) -> None:
    po = _po(project, lang)
    _edit(po, old, new)
    hits = _check(project, lang)
    assert [(h.line, h.found, h.fix) for h in hits] == [(_msgid_line(po, msgid), found, term)]
    assert hits[0].path.endswith(f"{lang}/LC_MESSAGES/dhumbal.po")


# -- Nepali postpositions standing apart -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("इन्टरनेट जडान बिना पनि", ["जडान बिना"]),
        ("इन्टरनेट जडानबिना पनि", []),
        ("धुम्बल (झ्याप) का नियम", [") का"]),
        ("धुम्बल (झ्याप)का नियम", []),
        ("चरण {number} पछिको टेबल", ["§ पछिको"]),
        ("चरण {number}पछिको टेबल", []),
        ("बाजी ३ पछि", ["३ पछि"]),
        ("{group} भने पछि सँगै फाल्न", []),      # पछि after a word is also "later": left alone
        ("पछि सँगै फाल्न", []),
        ("२ देखि ४", ["२ देखि"]),
        ("२देखि ४", []),
        ("अरू सबैको भन्दा कम", ["सबैको भन्दा"]),
        ("अरू सबैकोभन्दा कम", []),
        ("तपाईंको भन्दा भारी", ["तपाईंको भन्दा"]),
        ("{low}देखि {high} सम्म", ["§ सम्म"]),
        ("ती मध्ये एउटा", ["ती मध्ये"]),
        ("तीमध्ये एउटा", []),
        ("(हुकुम, पान)ले", []),
        ("हात तपाईंको जत्तिकै हलुका", ["तपाईंको जत्तिकै"]),
        ("हात तपाईंको हातजत्तिकै हलुका", []),
    ],
)
def test_the_new_postpositions_are_found_apart_and_left_alone_joined(text: str, found: list[str]) -> None:
    line = terminology.prose(text)
    got = [m.group(0) for rule in terminology.postposition_rules() for m in rule.pattern.finditer(line)]
    assert [g.replace(terminology.NAME_MARK, "§") for g in got] == found


def test_a_postposition_apart_in_a_catalog_is_found_with_the_joined_form(project: Path) -> None:
    po = _po(project, "ne")
    _edit(po, "सानो टेबल जडानबिना पनि चल्छ", "सानो टेबल जडान बिना पनि चल्छ")
    hits = _check(project, "ne")
    assert [(h.line, h.found, h.fix) for h in hits] == [
        (_msgid_line(po, "The card table plays without a connection too, once you have started it here with one."),
         "जडान बिना", "जडानबिना")]
    assert "“जडान बिना”: write the postposition joined to the word before it, “जडानबिना”" in str(hits[0])


def test_a_postposition_after_a_bracket_in_a_page_is_found(project: Path) -> None:
    page = project / "docs" / "ne" / "rules" / "nepali-games.md"
    line = _edit(page, "रङ (हुकुम, पान, इँट, चिडी)ले", "रङ (हुकुम, पान, इँट, चिडी) ले")
    assert [(h.line, h.found, h.fix) for h in _check(project, "ne")] == [(line, ") ले", ")ले")]


# -- the register: past-habitual forms and the reader ----------------------------------------


@pytest.mark.parametrize(
    ("msgid", "old", "new", "found", "fix"),
    [
        ("Move {number}: the expert's move was better", "विज्ञ बोटको चाल राम्रो थियो", "विज्ञ बोटले अर्कै चाल रोज्थ्यो",
         "रोज्थ्यो", "रोज्थे"),
        ("The expert would have made the same move.", "यही चाल चल्थे", "यही चाल चल्थ्यो", "चाल चल्थ्यो", "चाल चल्थे"),
    ],
)
def test_a_past_habitual_form_for_the_expert_is_found(project: Path, msgid: str, old: str, new: str, found: str,
                                                      fix: str) -> None:
    po = _po(project, "ne")
    _edit(po, old, new)
    assert [(h.line, h.found, h.fix, h.rule.kind) for h in _check(project, "ne")] == [
        (_msgid_line(po, msgid), found, fix, "register")]


@pytest.mark.parametrize(
    ("form", "text", "found"),
    [
        ("फाल्थ्यो", "बोटले यही पत्ती फाल्थ्यो।", ["फाल्थ्यो"]),
        ("फाल्थ्यो", "बोटले यही पत्ती फाल्थे।", []),
        ("समातिन्थ्यो", "तपाईं समातिनुहुन्थ्यो।", []),     # the reader's honorific form
        ("कल गर्थ्यो", "उनी कल गर्थ्यो", ["कल गर्थ्यो"]),
        ("चाल चल्थ्यो", "इन्जिन चल्थ्यो", []),              # a thing's verb, not a seat's move
    ],
)
def test_past_habitual_forms_match_whole_words_only(form: str, text: str, found: list[str]) -> None:
    assert [m.group(0) for m in terminology.rule_pattern(form).finditer(text)] == found


def test_every_seat_verb_refuses_its_past_habitual_form() -> None:
    verbs = {v.verb: v for v in load_register() if not v.subject}
    for verb in ("उठाउनु", "फाल्नु", "कल गर्नु", "बाँड्नु", "समातिनु", "जित्नु", "तिर्नु", "खेल्नु", "रोज्नु", "चाल चल्नु"):
        assert any(form.endswith("थ्यो") for form in verbs[verb].refused), verb
        assert all(not use.endswith("थ्यो") for use in verbs[verb].use), verb


def test_a_third_person_form_after_the_readers_tapain_is_found(project: Path) -> None:
    page = project / "docs" / "ne" / "index.md"
    line = _edit(page, "तपाईंको हात साँच्चै सबैभन्दा हलुका रहेछ भने", "तपाईं साँच्चै सबैभन्दा कम रहेछ भने")
    hits = _check(project, "ne")
    assert [(h.line, h.found, h.fix) for h in hits] == [(line, "रहेछ", "हुनुहुन्छ")]
    assert "is not the register for the reader" in str(hits[0])


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("तपाईं साँच्चै सबैभन्दा कम रहेछ भने", ["रहेछ"]),
        ("तपाईंको हात साँच्चै सबैभन्दा हलुका रहेछ भने", []),    # the hand is the subject
        ("तपाईं जित्नुहुन्छ। उनको हात कम रहेछ।", []),            # तपाईं is in the clause before
        ("एक पालो खेल्न तपाईं जति समय लिए पनि हुन्छ", ["लिए पनि"]),
        ("एक पालो खेल्न तपाईंले जति समय लिनुभए पनि हुन्छ", []),
        ("जति पत्ती लिए पनि", []),                              # no तपाईं: an impersonal form
    ],
)
def test_a_form_refused_after_tapain_needs_tapain_alone_in_its_clause(text: str, found: list[str]) -> None:
    rules = [r for r in terminology.rules_for("ne") if r.kind == "register" and r.subject is not None]
    assert {r.variant for r in rules} >= {"रहेछ", "लिए पनि"}
    hits = terminology.scan([(1, terminology.prose(text))], "x", rules)
    assert [h.found for h in hits] == found
