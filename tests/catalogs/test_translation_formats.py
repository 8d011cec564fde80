"""The formats the fourth translation review asked for stay as agreed, in every
catalog message and in the prose of every page:

- one style of quotation marks per language: « … » in French, ‘ … ’ in Dutch,
  “ … ” in Nepali, never the typewriter's "…"; French writes its apostrophe
  straight (l'as), as in every other French string;
- French writes the ranks in lower case inside a sentence (le valet, un roi, l'as);
- Nepali writes a percentage as 42% (as the table does) and the progressive
  with its auxiliary apart (खुल्दै छ, not खुल्दैछ).

Each rule is shown finding a seeded defect and passing the project itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("fr", "nl", "ne")

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_MARKUP = [re.compile(p) for p in (r"`[^`\n]*`", r"<!--.*?-->", r"<[^>]+>", r"\]\([^)\s]*\)", r"\{[^{}\n]*\}")]


def page_prose(text: str) -> Iterator[tuple[int, str]]:
    """(line, text) of a page that a reader reads: no front matter keys but the description,
    no code, comments, tags, link targets or attribute lists, no admonition titles."""
    fence = None
    front = text.startswith("---\n")
    for number, line in enumerate(text.splitlines(), start=1):
        if front:
            if number > 1 and line.strip() == "---":
                front = False
            elif line.startswith(("title:", "description:")):
                value = line.split(":", 1)[1].strip()
                yield number, value[1:-1] if value[:1] == value[-1:] == '"' else value
            continue
        match = _FENCE.match(line)
        if fence is not None:
            if match and match.group(1)[0] == fence[0]:
                fence = None
            continue
        if match:
            fence = match.group(1)
            continue
        if line.lstrip().startswith("!!!"):
            continue
        for pattern in _MARKUP:
            line = pattern.sub(" ", line)
        yield number, line


def catalog_strings(lang: str) -> Iterator[tuple[int, str]]:
    with (ROOT / "locales" / lang / "LC_MESSAGES" / "dhumbal.po").open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    for message in catalog:
        if message.id:
            strings = message.string if isinstance(message.string, (tuple, list)) else [message.string]
            for s in strings:
                yield message.lineno, re.sub(r"\{[^{}]*\}", " ", s)


def everything(lang: str) -> Iterator[tuple[str, int, str]]:
    for page in sorted((ROOT / "docs" / lang).rglob("*.md")):
        for number, line in page_prose(page.read_text(encoding="utf-8")):
            yield page.relative_to(ROOT).as_posix(), number, line
    for number, s in catalog_strings(lang):
        yield f"locales/{lang}/LC_MESSAGES/dhumbal.po", number, s


# -- quotation marks -----------------------------------------------------------------

#: The quotation marks a language does not use (its own are « », ‘ ’ and “ ”).
FOREIGN_QUOTES = {"fr": "\"“”‘’", "nl": "\"“”", "ne": "\"‘’"}


def quote_problems(text: str, lang: str) -> list[str]:
    return [ch for ch in text if ch in FOREIGN_QUOTES[lang]]


@pytest.mark.parametrize(
    ("lang", "text", "found"),
    [
        ("fr", "on crie « Jhyap » en annonçant", []),
        ("fr", "l'as vaut 1", []),
        ("fr", "Cette page n’est pas traduite", ["’"]),
        ("fr", 'le guide dit "coupé"', ['"', '"']),
        ("nl", "de spelregels zeggen ‘ondersneden’; Asha's hand", []),
        ("nl", "een bewering: \"mijn hand is de lichtste\"", ['"', '"']),
        ("nl", "een “gemiddeld” spel", ["“", "”"]),
        ("ne", "“खेल्नुहोस्” थिच्नुहोस्", []),
        ("ne", "‘अर्को बाजी’ थिच्नुहोस्", ["‘", "’"]),
        ("ne", 'पत्ती बाँड्न "खेल्नुहोस्" थिच्नुहोस्', ['"', '"']),
    ],
)
def test_quotation_marks_of_another_style_are_found(lang: str, text: str, found: list[str]) -> None:
    assert quote_problems(text, lang) == found


@pytest.mark.parametrize("lang", LANGS)
def test_each_language_keeps_one_style_of_quotation_marks(lang: str) -> None:
    problems = [f"{where}:{n}: {text.strip()[:80]}" for where, n, text in everything(lang) if quote_problems(text, lang)]
    assert not problems, "\n".join(problems)


def test_an_admonition_title_and_code_are_not_prose() -> None:
    page = '---\ntitle: "Règles"\n---\n\n!!! note "Arbitrage du site"\n    Le `make translated PAGES="fr/x.md"` suffit.\n'
    assert [line for _, line in page_prose(page) if quote_problems(line, "fr")] == []
    assert [line.strip() for _, line in page_prose(page + 'Le guide dit "coupé".\n') if quote_problems(line, "fr")] == [
        'Le guide dit "coupé".']


# -- French rank names -----------------------------------------------------------------

_RANK = re.compile(r"\b(As|Valets?|Dames?|Rois?)\b")


def capitalised_ranks(text: str) -> list[str]:
    """Rank names written with a capital where a sentence, a list item or a cell does not begin."""
    found = []
    for match in _RANK.finditer(text):
        before = re.sub(r"[\s*_]+$", "", text[: match.start()])
        if before and not re.search(r"(?:[.!?|]|^\s*(?:[-+]|\d+\.))$", before):
            found.append(match.group(0))
    return found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("l'as vaut 1, le valet 0", []),
        ("As = 1, 2 à 10 = valeur inscrite, valet = 11", []),
        ("- **Valet** : 11", []),
        ("| Roi | 13 |", []),
        ("Les figures pèsent lourd : **Valet 11, Dame 12, Roi 13**.", ["Valet", "Dame", "Roi"]),
        ("sauf dans un profil où le Valet vaut 0", ["Valet"]),
        ("Une paire de Rois jetée", ["Rois"]),
    ],
)
def test_a_capitalised_rank_inside_a_sentence_is_found(text: str, found: list[str]) -> None:
    assert capitalised_ranks(text) == found


def test_french_writes_rank_names_in_lower_case() -> None:
    problems = [f"{where}:{n}: {capitalised_ranks(text)}" for where, n, text in everything("fr") if capitalised_ranks(text)]
    assert not problems, "\n".join(problems)


# -- Nepali percentages and the progressive ------------------------------------------------


def nepali_format_problems(text: str) -> list[str]:
    return re.findall(r"\S+\s+%|[\u0900-\u097F]+दैछ\b", text)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("{percent}% ({total}मध्ये {done})", []),
        ("४२ % डाउनलोड भयो", ["४२ %"]),
        ("खेल इन्जिन खुल्दै छ…", []),
        ("खेल इन्जिन खुल्दैछ…", ["खुल्दैछ"]),
    ],
)
def test_a_spaced_percent_or_a_joined_progressive_is_found(text: str, found: list[str]) -> None:
    assert nepali_format_problems(text) == found


def test_nepali_writes_percentages_and_the_progressive_as_agreed() -> None:
    raw = (ROOT / "locales" / "ne" / "LC_MESSAGES" / "dhumbal.po").read_text(encoding="utf-8")
    problems = [line for line in raw.splitlines() if line.startswith("msgstr") and nepali_format_problems(line)]
    problems += [f"{where}:{n}" for where, n, text in everything("ne") if nepali_format_problems(text)]
    assert not problems, "\n".join(problems)
