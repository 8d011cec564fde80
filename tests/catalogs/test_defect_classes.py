"""A check for each class of defect the fifth translation review found, each shown finding
the review's own defect seeded back into a copy of the project, and passing the project.

- The call limit worded as a bound it is not: "roepen vanaf 10" (from 10 up), "roepen
  met 5" (with exactly 5), "il en faut 10" (10 are needed), an English "10 to call".
- A plural chosen by the wrong count, and the gender a sentence cannot know: "dont 2♠ 6♦,
  prise" (the form follows the hand's four cards, the participle the two picked up),
  "Éliminés : A" (one name), "Le joker … rejetée".
- One word per concept: the review and a position in Dutch (nalopen, stelling), a ruling
  (uitspraak), sampled deals ("getrokken rondes", "donnes tirées"), a Nepali position
  (स्थिति) and review ("चाल फेरि हेर्नु").
- A quick game's win rule said the same way across a page: "the best of 5", "de beste van
  5", "au meilleur de 5", "धेरै बाजी जित्ने … जित्छन्", or a page that speaks of the agreed
  number of deals without ever saying that the lowest total wins.

French typography in composed text has its own file (test_composed_typography.py): it
renders what the engine joins.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dhumbal_site.translation import agreement, statements, terminology
from tests.catalogs.catalogkit import catalog as _po
from tests.catalogs.catalogkit import edit as _edit


def _msgstr(project: Path, lang: str, msgid: str) -> tuple[int, str]:
    """The line of ``msgid`` and its (first) msgstr line."""
    lines = _po(project, lang).read_text(encoding="utf-8").splitlines()
    at = lines.index(f'msgid "{msgid}"')
    strings = [line for line in lines[at + 1:at + 4] if line.startswith("msgstr")]
    return at + 1, strings[0]


# -- the project passes every check ------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "ne"])
def test_the_project_states_every_rule_the_same_way(lang: str) -> None:
    assert not statements.check_language(lang), [str(f) for f in statements.check_language(lang)]


def test_no_french_word_agrees_with_a_field_it_cannot_count_or_gender() -> None:
    assert not agreement.check_language("fr"), [str(f) for f in agreement.check_language("fr")]


# -- the call limit worded as a bound -------------------------------------------------------


@pytest.mark.parametrize(("lang", "msgid", "wrong", "found"), [
    ("nl", "{total} points, call at {limit} or less", "{total} punten, roepen vanaf {limit}", "vanaf {limit}"),
    ("nl", "call at {limit}", "roepen met {limit}", "met {limit}"),
    ("fr", "{total} points, call at {limit} or less", "{total} points, il en faut {limit} pour annoncer", "il en faut {limit}"),
])
def test_a_call_limit_worded_as_a_bound_it_is_not_is_found(
        project: Path, lang: str, msgid: str, wrong: str, found: str) -> None:
    line, old = _msgstr(project, lang, msgid)
    _edit(_po(project, lang), old, f'msgstr "{wrong}"')
    findings = [f for f in statements.check_language(lang, project) if f.statement.id == "call-limit"]
    assert [(f.path, f.line, f.found) for f in findings if f.found] == [
        (f"locales/{lang}/LC_MESSAGES/dhumbal.po", line, found)]
    # and the entry says the bound nowhere else: the rule is not stated at all
    assert any(not f.found and f.line == line for f in findings)


def test_a_page_that_calls_from_the_limit_up_is_found(project: Path) -> None:
    page = project / "docs" / "nl" / "rules" / "dashain.md"
    line = _edit(page, "- De grens is **10** punten (een instelling van de gastheer), en hij telt mee: met 10 mag je roepen, met 11 niet.",
                 "- Je mag roepen vanaf 10 punten (een instelling van de gastheer).")
    found = [(f.path, f.line, f.found) for f in statements.check_language("nl", project) if f.found]
    assert found == [("docs/nl/rules/dashain.md", line, "vanaf 10")]


def test_the_dutch_limit_with_its_bound_and_a_call_with_a_total_pass(project: Path) -> None:
    line, old = _msgstr(project, "nl", "call at {limit}")
    _edit(_po(project, "nl"), old, 'msgstr "roepen met {limit} of minder"')
    assert not statements.check_language("nl", project)


def test_the_english_source_is_held_to_the_rule_too(project: Path) -> None:
    pot = project / "locales" / "dhumbal.pot"
    _edit(pot, 'msgid "{total} points, call at {limit} or less"', 'msgid "{total} points, {limit} to call"')
    assert [f.found for f in statements.check_language("en", project) if f.found] == ["{limit} to call"]


# -- a plural chosen by the wrong count; a gender the sentence cannot know -----------------


@pytest.mark.parametrize(("msgid", "wrong", "word", "field"), [
    ("{name} holds {count} card: {cards}, picked up in plain view.",
     'msgstr[1] "{name} a {count} cartes, dont {cards}, prise à la vue de tous."', "prise", "cards"),
    ("Eliminated: {names}", 'msgstr[0] "Éliminés : {names}"', "Éliminés", "names"),
    ("{card} could not go back on the pile this turn: it would stay in your hand, worth {value}.",
     'msgstr "{card} ne pourrait pas être rejetée ce tour-ci : elle resterait dans votre main, où elle vaut {value}."',
     "rejetée", "card"),
], ids=["FR-N1 the hand's count", "S5 one name", "a joker's gender"])
def test_a_word_that_agrees_with_a_field_of_unknown_number_or_gender_is_found(
        project: Path, msgid: str, wrong: str, word: str, field: str) -> None:
    po = _po(project, "fr")
    lines = po.read_text(encoding="utf-8").splitlines()
    at = lines.index(f'msgid "{msgid}"')
    form = wrong.split(" ", 1)[0]
    old = next(line for line in lines[at:at + 5] if line.startswith(form + " "))
    _edit(po, old, wrong)
    found = agreement.check_language("fr", project)
    assert [(f.line, f.word, f.field) for f in found] == [(at + 1, word, field)], [str(f) for f in found]
    assert str(found[0]).startswith(f"locales/fr/LC_MESSAGES/dhumbal.po:{at + 1}: “{word}” agrees with {{{field}}}")


@pytest.mark.parametrize("text", [
    "Seule la carte du dessus de la défausse, {top}, peut être prise.",  # an apposition: « carte » takes it
    "{card}, carte prise sur la défausse : elle ne peut pas être rejetée ce tour-ci",  # « carte » again
    "Vous avez pris {card} sur la défausse : vous ne pouvez pas l'y rejeter ce tour-ci.",
    "{name} a {count} cartes, dont {cards}, que tout le monde a pu voir prendre.",
])
def test_a_word_that_agrees_with_a_noun_is_left_alone(text: str) -> None:
    rule = agreement.load_agreements(Path(agreement.ROOT) / "locales" / "glossary.toml")["fr"]
    assert agreement.find(text, rule) == []


# -- one word per concept -----------------------------------------------------------------


@pytest.mark.parametrize(("lang", "msgid", "wrong", "found"), [
    ("nl", "Review your moves", "Je zetten nalopen", "nalopen"),
    ("nl", "The review is for a deal that is over.", "Nalopen kan pas als de ronde voorbij is.", "Nalopen"),
    ("nl", "worth 0, wild in sets and runs (this site's ruling)",
     "0 punten, vervangt elke kaart in sets en reeksen (uitspraak van deze site)", "uitspraak"),
    ("ne", "Review your moves", "आफ्ना चाल फेरि हेर्नुहोस्", "चाल फेरि हेर्नुहोस्"),
], ids=["NL-N4 button", "NL-N4 refusal", "NL-N5", "ne review"])
def test_a_second_word_for_a_concept_is_found_in_a_catalog(project: Path, lang: str, msgid: str, wrong: str, found: str) -> None:
    line, old = _msgstr(project, lang, msgid)
    _edit(_po(project, lang), old, f'msgstr "{wrong}"')
    hits = terminology.check_project(project, lang)
    assert [(h.path[-len(f"locales/{lang}/LC_MESSAGES/dhumbal.po"):], h.line, h.found) for h in hits] == [
        (f"locales/{lang}/LC_MESSAGES/dhumbal.po", line, found)]


@pytest.mark.parametrize(("page", "old", "new", "found"), [
    ("nl/contribute.md", "duizend gesimuleerde rondes", "duizend getrokken rondes", "getrokken rondes"),
    ("fr/contribute.md", "mille donnes simulées", "mille donnes tirées", "donnes tirées"),
    ("nl/puzzles.md", "opent de kleine speeltafel op de positie van de puzzel",
     "opent de kleine speeltafel op de stelling van de puzzel", "stelling"),
], ids=["NL-N8", "sampled deals in French", "NL-N6 on a page"])
def test_a_second_word_for_a_concept_is_found_on_a_page(project: Path, page: str, old: str, new: str, found: str) -> None:
    lang = page.split("/")[0]
    line = _edit(project / "docs" / page, old, new)
    hits = terminology.check_project(project, lang)
    assert [(h.path[-len(f"docs/{page}"):], h.line, h.found) for h in hits] == [(f"docs/{page}", line, found)]


# -- a quick game's win rule said the same way across a page -------------------------------


@pytest.mark.parametrize(("page", "old", "new", "found"), [
    ("en/rules/cardrulesplus.md", "A quick game is played over 5 or 7 deals, and the lowest total then wins.",
     "A quick game is played as the best of 5 or the best of 7 deals.", "best of"),
    ("nl/rules/cardrulesplus.md", "Een snelle partij telt 5 of 7 rondes, en dan wint het laagste totaal.",
     "Een snel spel gaat om de beste van 5 of de beste van 7 rondes.", "beste van"),
    ("fr/rules/cardrulesplus.md", "Une partie rapide se joue en 5 ou 7 donnes, et le total le plus bas l'emporte alors.",
     "Une partie rapide se joue au meilleur de 5 ou de 7 donnes.", "au meilleur de"),
    ("ne/rules/cardrulesplus.md", "छिटो खेल्नुपर्दा ५ वा ७ बाजीको मात्र खेल खेलिन्छ; अन्तिम बाजी सकिँदा सबैभन्दा कम जम्मा हुने खेलाडीले जित्छन्।",
     "छिटो खेल्नुपर्दा ५ वा ७ बाजीको खेल खेलिन्छ, र तीमध्ये धेरै बाजी जित्ने खेलाडीले खेल जित्छन्।", "धेरै बाजी जित्ने"),
], ids=["S3", "NL-N3", "FR-N4", "NE-N1"])
def test_a_quick_games_win_rule_said_wrongly_is_found_on_its_line(project: Path, page: str, old: str, new: str, found: str) -> None:
    line = _edit(project / "docs" / page, old, new)
    findings = [f for f in statements.check_language(page.split("/")[0], project) if f.statement.id == "quick-game"]
    assert [(f.path, f.line, f.found) for f in findings if f.found] == [(f"docs/{page}", line, found)]


def test_a_page_that_speaks_of_a_quick_game_must_say_who_wins_it(project: Path) -> None:
    """Both sentences on the agreed deals, the rules bullet and the quick game, lose "lowest":
    the page then states no win rule for them at all."""
    page = project / "docs" / "en" / "rules" / "cardrulesplus.md"
    _edit(page, "then the **lowest total** wins when the last deal is over", "then the match ends when the last deal is over")
    line = _edit(page, "A quick game is played over 5 or 7 deals, and the lowest total then wins.",
                 "A quick game is played over 5 or 7 deals.")
    findings = [f for f in statements.check_language("en", project) if f.statement.id == "quick-game"]
    assert [(f.path, f.found) for f in findings] == [("docs/en/rules/cardrulesplus.md", "")]
    assert findings[0].line <= line and "without stating its rule" in str(findings[0])
