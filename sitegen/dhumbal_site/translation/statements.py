"""Rules said the same way on every page and in every message: the wording check.

A rule that the pages and the catalogs put in their own words can be said wrongly while
every word is the glossary's: "roepen vanaf 10" (from 10 up) for a call limit of 10,
"the player who wins the most deals" for a match won by the lowest total. Each
``[[statement]]`` of ``locales/glossary.toml`` names such a rule and, per language,
three lists of regular expressions (case ignored):

* ``about`` finds a sentence on the subject (a page's sentence, or a catalog message's,
  placeholders kept as written, so ``\\{limit\\}`` finds the call limit's field);
* ``refused`` are wordings that state the rule wrongly: each is an error in a sentence
  on the subject, with its file and line;
* ``says`` is how the site states the rule: a page, or a catalog message, that speaks of
  the subject must say it in at least one of its sentences on the subject, so a page
  cannot state the rule in one place and leave another sentence on it unanchored.

It reads every language's pages (``docs/<lang>/``, titles and descriptions included;
quoted words are mentions, not uses), its catalog (``locales/<lang>/…/dhumbal.po``), and
for English the pages and the template's msgids. A language the glossary gives no
wording for is not checked. Run ``python -m dhumbal_site.translation.statements
[LANG…]`` (``make check-catalogs`` does); it exits 1 on any finding.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

from .commandline import arguments, parser
from .glossary import GLOSSARY
from .terminology import page_lines

ROOT = Path(__file__).resolve().parents[3]
#: Where one sentence ends and the next begins.
_SENTENCE_END = re.compile(r"(?<=[.!?।])\s+")


@dataclass(frozen=True)
class Wording:
    """How one language says one rule: what finds the subject, what states it, what is refused."""

    about: tuple[re.Pattern[str], ...]
    says: tuple[re.Pattern[str], ...]
    refused: tuple[re.Pattern[str], ...]


@dataclass(frozen=True)
class Statement:
    id: str
    #: The subject, in English words ("a match of an agreed number of deals").
    subject: str
    #: The rule itself, as the site states it (shown with every finding).
    rule: str
    wordings: dict[str, Wording]


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    statement: Statement
    #: The refused wording found, or "" when a text on the subject never states the rule.
    found: str

    def __str__(self) -> str:
        if self.found:
            return (f"{self.path}:{self.line}: “{self.found}” says {self.statement.subject} wrongly: "
                    f"{self.statement.rule} (wording check: {self.statement.id})")
        return (f"{self.path}:{self.line}: speaks of {self.statement.subject} without stating its rule anywhere: "
                f"{self.statement.rule} (wording check: {self.statement.id})")


def load_statements(path: Path = GLOSSARY) -> list[Statement]:
    """The ``[[statement]]`` entries; ``ValueError`` naming the entry if one is malformed."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for entry in data.get("statement", []):
        sid = str(entry.get("id", "?"))
        wordings = {}
        for lang, table in entry.items():
            if not isinstance(table, dict):
                continue
            try:
                wordings[lang] = Wording(*(tuple(re.compile(p, re.I) for p in table.get(key, []))
                                           for key in ("about", "says", "refused")))
            except re.error as exc:
                raise ValueError(f"{path.name}: statement {sid!r}, {lang}: a pattern is not a regular expression ({exc})") from None
            if not wordings[lang].about:
                raise ValueError(f"{path.name}: statement {sid!r}, {lang}: no `about` pattern")
        out.append(Statement(sid, str(entry.get("subject", sid)), str(entry.get("rule", "")), wordings))
    return out


def sentences(lines: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """Each sentence of ``lines`` with its line, emphasis marks left out."""
    for number, line in lines:
        for sentence in _SENTENCE_END.split(line.replace("*", "")):
            if sentence.strip():
                yield number, sentence


def check_text(units: Iterable[tuple[str, list[tuple[int, str]]]], wording: Wording,
               statement: Statement) -> list[Finding]:
    """Findings in ``units``: (path, its sentences with their lines), each a page or a message."""
    found: list[Finding] = []
    for path, unit in units:
        on_subject = [(line, s) for line, s in unit if any(p.search(s) for p in wording.about)]
        if not on_subject:
            continue
        for line, sentence in on_subject:
            for pattern in wording.refused:
                hit = pattern.search(sentence)
                if hit:
                    found.append(Finding(path, line, statement, hit.group(0)))
        if wording.says and not any(p.search(s) for _, s in on_subject for p in wording.says):
            found.append(Finding(path, on_subject[0][0], statement, ""))
    return found


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def page_units(lang: str, root: Path = ROOT) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    base = root / "docs" / lang
    for page in sorted(base.rglob("*.md")) if base.is_dir() else []:
        yield _rel(page, root), list(sentences(page_lines(page.read_text(encoding="utf-8"))))


def catalog_units(lang: str, root: Path = ROOT) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    """Each message of ``lang``'s catalog (for English: the template's msgids) as a unit of its own."""
    english = lang == "en"
    path = root / "locales" / ("dhumbal.pot" if english else f"{lang}/LC_MESSAGES/dhumbal.po")
    if not path.is_file():
        return
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=None if english else lang)
    shown = _rel(path, root)
    for message in catalog:
        if not message.id:
            continue
        found = message.id if english else message.string
        texts: list[str] = [t for t in (found if isinstance(found, (tuple, list)) else [found]) if t]
        line = message.lineno or 0
        yield shown, list(sentences((line, t) for t in texts))


def check_language(lang: str, root: Path = ROOT) -> list[Finding]:
    found: list[Finding] = []
    for statement in load_statements(root / "locales" / "glossary.toml"):
        wording = statement.wordings.get(lang)
        if wording is None:
            continue
        found += check_text(page_units(lang, root), wording, statement)
        found += check_text(catalog_units(lang, root), wording, statement)
    return found


def languages(root: Path = ROOT) -> list[str]:
    """English, then every language with pages or a catalog."""
    found = {p.name for p in (root / "docs").iterdir() if p.is_dir() and any(p.rglob("*.md"))}
    found |= {p.parent.parent.name for p in (root / "locales").glob("*/LC_MESSAGES/dhumbal.po")}
    return ["en"] + sorted(found - {"en", "assets"})


def main(argv: Iterable[str] | None = None) -> int:
    """``python -m dhumbal_site.translation.statements [--root DIR] [LANG…]``: exit 1 on any finding."""
    options = arguments(parser("statements", "The rules said the same way in every page of a language.",
                               root=ROOT, languages=True), argv)
    if options is None:
        return 2
    root, args = options.root, options.languages
    try:
        statements = load_statements(root / "locales" / "glossary.toml")
    except (ValueError, tomllib.TOMLDecodeError) as error:
        print(f"error: locales/glossary.toml: {error}")
        return 1
    bad = 0
    for lang in args or languages(root):
        found = check_language(lang, root)
        for finding in found:
            print(f"error: {finding}")
        bad += len(found)
        checked = sum(lang in s.wordings for s in statements)
        print(f"{lang}: {checked} rule(s) said the same way checked, {len(found)} found")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
