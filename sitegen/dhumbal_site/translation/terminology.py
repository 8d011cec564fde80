"""One word per concept in each language: the terminology check.

``locales/glossary.toml`` gives, for every concept and language, the site's
term and the variants the site does not use (``rejected``). This check reads
a language's pages (``docs/<lang>/``), its catalog
(``locales/<lang>/LC_MESSAGES/dhumbal.po``), its Material interface strings
(``overrides/partials/languages/<lang>.html``, where the project supplies
them) and the glossary's own definitions, and reports every rejected variant
with its file and line and the term to use instead.

A variant may span words, and ``#`` in it stands for a number or a
placeholder: "annonc* sur #" finds "annonce sur 5" and "annoncer sur {total}"
(the site writes "annoncer avec"), while "sur" elsewhere is left alone.

Two more rules hold for Nepali, from the same file and the Contribute
page's style notes. **Register**: every named seat (A, B, आशा, a bot, a
``{seat}`` in a message) takes the mid-honorific third person, so the
non-honorific forms of the verbs a seat does (``[[register]]`` entries:
उठायो for उठाए, रोज्थ्यो for रोज्थे, समातियो for समातिए, …) are refused
wherever they stand; an entry with a ``subject`` (the reader's तपाईं) is
refused only in a clause where that word stands alone before it (तपाईं …
रहेछ). The style notes show the same table, generated from the same entries
(``<!-- dhumbal:register ne -->``). **Postpositions** are written joined to
the name, number, card, placeholder or closing bracket they follow (आशाले,
Aको, ५मा, ``{seat}ले``, "(झ्याप)का"): any of POSTPOSITIONS standing apart
after one of those is refused, and so is any of ALWAYS_JOINED standing apart
after a Nepali word (जडान बिना, सबैको भन्दा).

What is not prose is skipped: code blocks and code spans, link targets, HTML
comments, tag attributes, and a page's front matter but for its title and
description (read as the text the reader sees, YAML quotes and all). A ``{placeholder}`` counts as a name (so
``{seat} ले`` is found) and nothing else. A variant inside quotation
marks (“…”, ‘…’, «…», „…”, "…") is a mention of the word, not a use of it,
and is allowed: a page may say that a source calls a caught caller “coupé”.

Run ``python -m dhumbal_site.translation.terminology [LANG…]`` (``make check-catalogs``
does); it exits 1 on any hit. ``make test`` runs the same check.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

from .. import ROOT
from .commandline import arguments, parser
from .glossary import GLOSSARY, load_glossary, load_register, site_languages
from .pagestructure import _CODE_SPAN, _COMMENT, _FENCE, _TAG

DOCS = ROOT / "docs"
LOCALES = ROOT / "locales"
PARTIALS = ROOT / "overrides" / "partials" / "languages"

#: Letters of a word: \w, plus Devanagari vowel signs and marks (which \w lacks), not the danda.
_LETTER = r"\w\u0900-\u0963\u0966-\u097F"
_QUOTED = re.compile(r"“[^”\n]*”|‘[^’\n]*’|«[^»\n]*»|„[^”“\n]*[”“]|\"[^\"\n]*\"")
_LINK_TARGET = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_LINE_CODE_SPAN = re.compile(r"`[^`\n]+`")
#: What a placeholder and a code span leave in a line of prose: a placeholder
#: stands for a name (a postposition must join it), a code span for nothing.
NAME_MARK = "§"
CODE_MARK = "¤"
#: Joiners that keyboards put into Devanagari conjuncts (गर्‍यो): not part of the word.
_JOINERS = re.compile("[\u200c\u200d]")
#: Postpositions, and those that are never a word of their own after another
#: word (को is also "who", की also "or", का and मा words too, and पछि also
#: "later": they are checked only after a name, a number, a card or a bracket).
POSTPOSITIONS = ("ले", "लाई", "को", "का", "की", "मा", "बाट", "सँग", "बिना", "पछि", "पछिको", "पछिका", "पछिकी",
                 "देखि", "भन्दा", "सम्म", "मध्ये", "जत्तिकै")
ALWAYS_JOINED = ("ले", "लाई", "बाट", "सँग", "बिना", "पछिको", "पछिका", "पछिकी", "देखि", "भन्दा", "सम्म", "मध्ये",
                 "जत्तिकै")
#: What a postposition must join: a placeholder, a one-letter seat name (A, B),
#: a number, a card (K♠), or a closing bracket ("धुम्बल (झ्याप)का").
_NAME_END = rf"(?:{NAME_MARK}|(?<![A-Za-z])[A-Z]|[0-9\u0966-\u096F]|[♠♥♦♣]|\))"
#: What ``#`` in a rejected variant stands for: a number (in bold or not) or a placeholder.
_NUMBER = rf"\**(?:[0-9\u0966-\u096F]+(?:[.,][0-9\u0966-\u096F]+)?|{NAME_MARK})"
#: Where a clause ends, for a register form refused only after its subject.
_CLAUSE_END = re.compile(r"[।.;:?!]")
#: The reader-visible keys of a page's front matter.
_FRONT_VALUE = re.compile(r"^(?:title|description)\s*:\s*(.*)$")
_PARTIAL_VALUE = re.compile(r'^\s*"[\w.]+":\s*"((?:[^"\\]|\\.)*)"', re.M)


@dataclass(frozen=True)
class Rule:
    """A rejected variant and the term to use instead.

    ``kind`` is ``term`` (a glossary variant), ``register`` (a non-honorific
    form for a named seat; ``concept`` is the verb) or ``postposition`` (one
    written apart; ``term`` is empty, the fix is the match without its space).
    """

    variant: str
    term: str
    concept: str
    pattern: re.Pattern[str]
    kind: str = "term"
    #: For a register form refused only after a subject: that subject, standing alone.
    subject: re.Pattern[str] | None = None


@dataclass(frozen=True)
class Hit:
    path: str
    line: int
    found: str
    rule: Rule

    @property
    def fix(self) -> str:
        """What to write instead."""
        if self.rule.kind == "postposition":
            return re.sub(r"\s+", "", self.found).replace(NAME_MARK, "…")
        return self.rule.term

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        if self.rule.kind == "register":
            whom = "the reader" if self.rule.subject is not None else "a named seat"
            return (f"{where}: “{self.found}” is not the register for {whom}; "
                    f"use “{self.fix}” (style notes: {self.rule.concept})")
        if self.rule.kind == "postposition":
            found = self.found.replace(NAME_MARK, "…")
            return f"{where}: “{found}”: write the postposition joined to the word before it, “{self.fix}”"
        return (f"{where}: “{self.found}” is not the site's word; "
                f"use “{self.fix}” (glossary: {self.rule.concept})")


def rule_pattern(variant: str) -> re.Pattern[str]:
    """Whole words: "word*" also matches longer words, "#" a number or a placeholder."""
    pieces = []
    for part in variant.split():
        if part == "#":
            pieces.append(_NUMBER)
        elif part.endswith("*"):
            pieces.append(re.escape(part.rstrip("*")) + f"[{_LETTER}]*")
        else:
            pieces.append(re.escape(part) + f"(?![{_LETTER}])")
    return re.compile(f"(?<![{_LETTER}])" + r"\s+".join(pieces), re.I)


def rules_for(lang: str, glossary: Path = GLOSSARY) -> list[Rule]:
    """Every rule for ``lang``: rejected variants, and for Nepali the register and the postpositions."""
    langs = site_languages()
    if lang not in langs:
        langs = langs + [lang]
    out = []
    for entry in load_glossary(glossary, langs):
        cell = entry[lang]
        for variant in cell.rejected:
            out.append(Rule(variant, cell.term, entry.id, rule_pattern(variant)))
    for verb in load_register(glossary):
        if verb.lang == lang:
            subject = rule_pattern(verb.subject) if verb.subject else None
            concept = f"{verb.subject} … {verb.verb}" if verb.subject else verb.verb
            for form, use in zip(verb.refused, verb.use):
                out.append(Rule(form, use, concept, rule_pattern(_JOINERS.sub("", form)), kind="register",
                                subject=subject))
    if lang == "ne":
        out += postposition_rules()
    return out


def postposition_rules() -> list[Rule]:
    """A Nepali postposition standing apart from the name (or word) it belongs to."""
    tail = f"(?![{_LETTER}])"
    after_name = "|".join(POSTPOSITIONS)
    after_word = "|".join(ALWAYS_JOINED)
    return [
        Rule("NAME POSTPOSITION", "", "postposition",
             re.compile(rf"{_NAME_END}[ \t\u00a0]+(?:{after_name}){tail}"), kind="postposition"),
        Rule("WORD POSTPOSITION", "", "postposition",
             re.compile(rf"[\u0900-\u0963\u0971-\u097F]+[ \t\u00a0]+(?:{after_word}){tail}"), kind="postposition"),
    ]


def prose(text: str) -> str:
    """The reader-visible words of a line, mentions in quotation marks left out."""
    text = _JOINERS.sub("", text)
    text = _CODE_SPAN.sub(CODE_MARK, text)
    text = _LINK_TARGET.sub("] ", text)
    text = _COMMENT.sub(" ", text)
    text = _TAG.sub(" ", text)
    text = _PLACEHOLDER.sub(NAME_MARK, text)
    return _QUOTED.sub(" ", text)


def _yaml_text(value: str) -> str:
    """A front-matter value as the reader sees it: the quotes of a quoted YAML scalar are not a mention."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    return value


def page_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, prose) of a Markdown page, outside code blocks and comments.

    In the front matter, only what a reader sees is read (``title`` and
    ``description``, the page's search and link description), as the text of
    the value: a quoted YAML value is not a quotation.

    Code spans are masked before comments are looked for, so that a page may
    write `<!--` in code (the Contribute page does) without hiding what follows.
    """
    fence: str | None = None
    in_comment = False
    front = text.startswith("---\n")
    for number, line in enumerate(text.splitlines(), start=1):
        if front:
            if number > 1 and line.strip() == "---":
                front = False
            elif key := _FRONT_VALUE.match(line):
                yield number, prose(_yaml_text(key.group(1)))
            continue
        match = _FENCE.match(line)
        if fence is not None:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
            continue
        if match and not in_comment:
            fence = match.group(1)
            continue
        rest, kept = _LINE_CODE_SPAN.sub(CODE_MARK, line), []
        while rest:
            if in_comment:
                end = rest.find("-->")
                rest, in_comment = ("", True) if end == -1 else (rest[end + 3:], False)
            else:
                start = rest.find("<!--")
                if start == -1:
                    kept.append(rest)
                    break
                kept.append(rest[:start] + " ")
                rest, in_comment = rest[start + 4:], True
        yield number, prose("".join(kept))


def after_subject(line: str, at: int, subject: re.Pattern[str]) -> bool:
    """Whether ``subject`` stands in the clause of ``line`` that runs up to ``at``."""
    start = max((m.end() for m in _CLAUSE_END.finditer(line, 0, at)), default=0)
    return subject.search(line, start, at) is not None


def scan(lines: Iterable[tuple[int, str]], path: str, rules: list[Rule]) -> list[Hit]:
    hits = []
    for number, line in lines:
        for rule in rules:
            for match in rule.pattern.finditer(line):
                if rule.subject is not None and not after_subject(line, match.start(), rule.subject):
                    continue
                hits.append(Hit(path, number, match.group(0), rule))
    return hits


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def catalog_lines(path: Path, lang: str) -> Iterator[tuple[int, str]]:
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, (tuple, list)) else [message.string]
        for s in strings:
            if s:
                yield message.lineno or 0, prose(s)


def check_language(lang: str, *, docs: Path = DOCS, locales: Path = LOCALES,
                   glossary: Path = GLOSSARY, partials: Path = PARTIALS) -> list[Hit]:
    """Every rejected variant in the language's pages, catalog, interface strings and definitions."""
    rules = rules_for(lang, glossary)
    if not rules:
        return []
    hits: list[Hit] = []
    base = docs / lang
    if base.is_dir():
        for page in sorted(base.rglob("*.md")):
            hits += scan(page_lines(page.read_text(encoding="utf-8")), _rel(page), rules)
    po = locales / lang / "LC_MESSAGES" / "dhumbal.po"
    if po.exists():
        hits += scan(catalog_lines(po, lang), _rel(po), rules)
    partial = partials / f"{lang}.html"
    if partial.exists():
        text = partial.read_text(encoding="utf-8")
        values = ((text.count("\n", 0, m.start()) + 1, prose(m.group(1))) for m in _PARTIAL_VALUE.finditer(text))
        hits += scan(values, _rel(partial), rules)
    # the glossary's own definitions (not its "also" words, which name the variants on purpose)
    lines = glossary.read_text(encoding="utf-8").splitlines()
    definitions = []
    for number, line in enumerate(lines, start=1):
        m = re.match(rf'^{re.escape(lang)}\s*=\s*\{{\s*term\s*=\s*"([^"]*)",\s*definition\s*=\s*"([^"]*)"', line)
        if m:
            definitions.append((number, prose(m.group(1) + " " + m.group(2))))
    hits += scan(definitions, _rel(glossary), rules)
    return hits


def paths_under(root: Path) -> dict[str, Path]:
    """What the check reads under ``root`` (the project, or a copy of it): pages, catalogs,
    glossary and interface strings, as keyword arguments of :func:`check_language`."""
    return {
        "docs": root / "docs", "locales": root / "locales", "glossary": root / "locales" / "glossary.toml",
        "partials": root / "overrides" / "partials" / "languages",
    }


def check_project(root: Path, lang: str) -> list[Hit]:
    """:func:`check_language` of the project (or the copy of it) at ``root``."""
    return check_language(lang, **paths_under(root))


def main(argv: Iterable[str] | None = None) -> int:
    """``python -m dhumbal_site.translation.terminology [--root DIR] [LANG…]``: exit 1 on any rejected variant.

    ``--root`` reads ``docs/``, ``locales/`` (glossary and catalogs) and
    ``overrides/`` under another directory, such as a copy of the project.
    """
    options = arguments(parser("terminology", "One word per concept: the glossary's rejected variants.",
                               root=ROOT, languages=True), argv)
    if options is None:
        return 2
    root, args = options.root, options.languages
    paths = paths_under(root)
    langs = args or site_languages()
    bad = 0
    for lang in langs:
        hits = check_language(lang, **paths)
        for hit in hits:
            print(f"error: {hit}")
        bad += len(hits)
        print(f"{lang}: {len(rules_for(lang, paths['glossary']))} rule(s) checked (glossary variants, and for Nepali register and postpositions), {len(hits)} found")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
