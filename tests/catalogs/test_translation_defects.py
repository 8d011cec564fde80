"""The translators' defects of the fifth translation review stay fixed.

The classes of defect have checks of their own (the call limit worded as a
bound, a plural chosen by the wrong count, French typography in composed
text, one word per concept, the win rule of a quick game): this file holds
the single defects no class covers, each as the words that were wrong and
the words that replaced them, in a page or in a catalog entry, so that a
later edit that brings the old words back fails here with the review's
item.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]

#: (review item, page, the words that were wrong, the words that replaced them)
PAGES = [
    ("FR-N4", "fr/rules/cardrulesplus.md", "typiquement", "En famille, une partie dure en général"),
    ("FR-N4", "fr/rules/cardrulesplus.md", "au meilleur de", "Une partie rapide se joue en 5 ou 7 donnes"),
    ("FR-N5", "fr/index.md", "moteur de règles règle", "le moteur de règles fait les comptes de chaque donne"),
    ("FR-N5", "fr/scorepad.md", "moteur de règles règle", "Le moteur de règles fait les comptes de la donne"),
    ("FR-N5", "fr/rules/dashain.md", "règle chaque donne", "fait les comptes de chaque donne selon ces règles"),
    ("FR-N5", "fr/rules/nepali-games.md", "règle chaque donne", "fait les comptes de chaque donne selon ces règles"),
    ("NL-N7", "nl/index.md", "terugpakken", "eindigt met het pakken van één kaart"),
    ("NL-N8", "nl/contribute.md", "getrokken rondes", "duizend gesimuleerde rondes"),
    ("NL-N10", "nl/rules/nepali-games.md", "(en haar motor)", "deze site (en zijn motor)"),
    ("NL-N10", "nl/rules/dashain.md", "(en haar motor)", "deze site (en zijn motor)"),
    ("NL-N10", "nl/rules/cardrulesplus.md", "(en haar motor)", "deze site (en zijn motor)"),
    ("NL-N11", "nl/index.md", "van deze soort", "Spellen van dit soort"),
    ("NE-N5", "ne/scorepad.md", "आफैँ", "बाँड्ने आफैं सर्छन्"),
    ("NE-N6", "ne/puzzles.md", "नयाँ आजको", "आजको पहेली फेरिन्छ"),
    ("NE-N7", "ne/contribute.md", "Python ३", "Python 3.11"),
]

#: (review item, language, msgid, the words that were wrong, the words that replaced them)
ENTRIES = [
    ("FR-N5", "fr", "The score pad needs JavaScript to take the scores; the rules engine settles every deal in this browser, and nothing is sent anywhere.",
     "règles règle", "fait les comptes de chaque donne"),
    ("FR-N6", "fr", "10 each", "chacune", "10 chacun"),
    ("FR-N7", "fr", "When one may call", "Quand annoncer", "Quand peut-on annoncer"),
    ("FR-N8", "fr", "What to throw from {cards}?", "Que jeter de", "Que jeter parmi {cards} ?"),
    # the table's meta line is the setting's head noun ("Niveau des robots"): the full name
    # wraps the line on a phone held sideways and pushes a sixth hand out of sight
    ("FR-N9", "fr", "Bots: {level}", "Robots :", "Niveau : {level}"),
    # (the Hint's line and the share behind its "Why?" are two messages since issue 51)
    ("FR-N11", "fr", "The expert's move: {move}, then most likely {then}.", "{then} :", "puis sans doute {then}."),
    ("FR-N11", "fr", "That throw is its choice for {share} of the cards you might draw: ask for a hint again once you hold the card.",
     "{then} :", "C'est ce qu'il jette pour {share}"),
    ("FR-N12", "fr", "Played out, the expert's move came out {cost} points ahead (± {se}; {samples} deal after each): within the uncertainty, so yours is not a mistake.",
     "d'avance", "a fait mieux que le vôtre"),
    ("NL-N9", "nl", "Played out, the expert's move came out {cost} points ahead (± {se}; {samples} deal after each): within the uncertainty, so yours is not a mistake.",
     "na elk)", "na elke zet)"),
    ("NL-N9", "nl", "Played out, your move did as well as the expert's or better ({gain} points ± {se}; {samples} deal after each).",
     "na elk)", "na elke zet)"),
    ("NE-N3", "ne", "reaches {score} and is out of the match", "{score} पुगे", "अङ्क {score} पुग्यो"),
    ("NE-N4", "ne", "dhumbal-scores", "anka", "score-kapi"),
]


def _page(path: str) -> str:
    return (ROOT / "docs" / path).read_text(encoding="utf-8")


@pytest.mark.parametrize(("item", "path", "wrong", "right"), PAGES, ids=[f"{p[0]}-{p[1]}" for p in PAGES])
def test_a_page_defect_stays_fixed(item: str, path: str, wrong: str, right: str) -> None:
    text = _page(path)
    assert wrong not in text, f"{item}: docs/{path} says “{wrong}” again"
    assert right in text, f"{item}: docs/{path} no longer says “{right}”"


def _translation(lang: str, msgid: str) -> list[str]:
    with (ROOT / "locales" / lang / "LC_MESSAGES" / "dhumbal.po").open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    message = catalog.get(msgid)
    assert message is not None, f"{msgid!r} is no longer a message: move its check"
    return list(message.string) if isinstance(message.string, (tuple, list)) else [message.string]


@pytest.mark.parametrize(("item", "lang", "msgid", "wrong", "right"), ENTRIES, ids=[f"{e[0]}-{e[1]}" for e in ENTRIES])
def test_a_catalog_defect_stays_fixed(item: str, lang: str, msgid: str, wrong: str, right: str) -> None:
    for text in _translation(lang, msgid):
        shown = text.replace("\u202f", " ").replace("\u00a0", " ")
        assert wrong not in shown, f"{item}: {lang} says “{wrong}” again: {text}"
        assert right in shown, f"{item}: {lang} no longer says “{right}”: {text}"


def test_house_rules_have_one_nepali_name_in_the_options() -> None:
    """NE-N2: the score pad's and the comparison's "house rules" are घरेलु नियम, like the
    options tables; घरायसी stays for an operator's own house rules on the pages."""
    assert _translation("ne", "House rules") == ["घरेलु नियम"]
    assert "घरेलु नियम" in _translation("ne", "House rules of each profile")[0]
