"""No word agrees with a field whose number or gender the sentence cannot know.

Some fields of the engine's messages hold a list, or a card, that the sentence cannot
count or gender: ``{cards}`` may be one card or four, ``{names}`` one player or two of
any gender, ``{card}`` a card (« carte », feminine) or a joker (masculine). A plural
message chooses its form by ``{count}``, which may count something else (a hand of four
cards, of which ``{cards}`` are the two picked up). A word that takes the number or the
gender of such a field is then wrong as soon as the field holds the other kind:
"Dipa a 4 cartes, dont 2♠ 6♦, prise à la vue de tous", "Éliminés : A", "Le joker ne
pourrait pas être rejetée". The translation must be worded so that nothing agrees
with the field ("que tout le monde a pu voir prendre", "A quitte la partie").

``[[agreement]]`` entries of ``locales/glossary.toml`` give, per language, the words
that agree (``agrees``, a regular expression: the past participles the game's messages
use) and the nouns that take the agreement themselves (``stops``: "{card}, carte prise
sur la défausse" agrees with « carte »). The check reads every message of the
language's catalog, and reports a word of ``agrees`` in the clause right after one of
:data:`UNKNOWN` (up to a noun of ``stops``; not after a field set off by commas, which
describes the noun before it), or a label that opens the sentence and introduces the
field ("Éliminés : {names}"), with the catalog's file and line. Run ``python -m
dhumbal_site.translation.agreement [LANG…]`` (``make check-catalogs`` does).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

from .commandline import arguments, parser

ROOT = Path(__file__).resolve().parents[3]
#: The fields whose number or gender a translation cannot know: lists of cards or
#: names, and a card that may be a joker (dhumbal.core.i18n.CARD_FIELDS and the lists).
UNKNOWN = ("cards", "names", "ends", "group", "card", "top", "exposed")
#: Where a clause ends after a field.
_CLAUSE_END = re.compile(r"[.;:!?()«»—]")


@dataclass(frozen=True)
class Agreement:
    lang: str
    agrees: re.Pattern[str]
    stops: re.Pattern[str] | None


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    field: str
    word: str
    text: str

    def __str__(self) -> str:
        return (f"{self.path}:{self.line}: “{self.word}” agrees with {{{self.field}}}, whose number or gender the "
                f"sentence cannot know (a list of any length, or a card that may be a joker): word it so that "
                f"nothing agrees with the field: {self.text!r}")


def load_agreements(path: Path) -> dict[str, Agreement]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = {}
    for entry in data.get("agreement", []):
        lang = str(entry["lang"])
        stops = entry.get("stops")
        out[lang] = Agreement(lang, re.compile(rf"\b(?:{entry['agrees']})\b", re.I),
                              re.compile(rf"\b(?:{'|'.join(map(re.escape, stops))})\b", re.I) if stops else None)
    return out


def find(text: str, rule: Agreement) -> list[tuple[str, str]]:
    """(field, word) for every word of ``text`` that agrees with a field of :data:`UNKNOWN`."""
    found = []
    for field in UNKNOWN:
        token = "{" + field + "}"
        start = text.find(token)
        while start != -1:
            # a field set off by commas ("la carte du dessus, {top}, peut être prise") is an
            # apposition: what follows agrees with the noun before it, not with the field
            apposition = re.search(r",\s*$", text[:start]) is not None
            after = text[start + len(token):]
            after = after[1:] if after.startswith(",") else after  # "dont {cards}, prise …"
            end = _CLAUSE_END.search(after)
            clause = after[:end.start()] if end else after
            if rule.stops is not None:
                stop = rule.stops.search(clause)
                clause = clause[:stop.start()] if stop else clause
            hit = None if apposition else rule.agrees.search(clause)
            if hit:
                found.append((field, hit.group(0)))
            # a label that opens its sentence and introduces the field: "Éliminés : {names}"
            before = re.search(r"(?:^|[.!?]\s+)(\w+)\s*:\s*$", text[:start])
            if before and rule.agrees.fullmatch(before.group(1)):
                found.append((field, before.group(1)))
            start = text.find(token, start + 1)
    return found


def check_language(lang: str, root: Path = ROOT) -> list[Finding]:
    rules = load_agreements(root / "locales" / "glossary.toml")
    rule = rules.get(lang)
    po = root / "locales" / lang / "LC_MESSAGES" / "dhumbal.po"
    if rule is None or not po.is_file():
        return []
    with po.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    shown = po.relative_to(root).as_posix() if po.is_relative_to(root) else str(po)
    out = []
    for message in catalog:
        strings = message.string if isinstance(message.string, (tuple, list)) else [message.string]
        for text in strings:
            for field, word in find(text or "", rule):
                out.append(Finding(shown, message.lineno or 0, field, word, text or ""))
    return out


def main(argv: Iterable[str] | None = None) -> int:
    """``python -m dhumbal_site.translation.agreement [--root DIR] [LANG…]``: exit 1 on any finding."""
    options = arguments(parser("agreement", "Words that agree with a field of unknown number or gender.",
                               root=ROOT, languages=True), argv)
    if options is None:
        return 2
    root, args = options.root, options.languages
    try:
        rules = load_agreements(root / "locales" / "glossary.toml")
    except (KeyError, re.error, tomllib.TOMLDecodeError) as error:
        print(f"error: locales/glossary.toml: an [[agreement]] entry cannot be read ({error})")
        return 1
    bad = 0
    for lang in args or sorted(rules):
        found = check_language(lang, root)
        for finding in found:
            print(f"error: {finding}")
        bad += len(found)
        print(f"{lang}: words that agree with a field of unknown number or gender checked, {len(found)} found")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
