"""The four-language glossary (``locales/glossary.toml``): its entries, what each
language still lacks, and the Nepali register's verbs.

One file gives every concept's term and definition in each language, the
words a source uses instead, the variants the terminology check rejects and
the verbs of the register rule; the glossary page, the terminology check,
``make new-language`` and the build's check for a complete language all read
it here. ``python -m dhumbal_site.translation.glossary`` (``make
check-catalogs``) lists every entry a language lacks.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from dhumbal.core.profiles import PROFILE_KEYS

from .. import ROOT
from ..languages import configured
from .commandline import arguments, parser

GLOSSARY = ROOT / "locales" / "glossary.toml"


def site_languages() -> list[str]:
    """English first, then every language that has a catalog in ``locales/``."""
    from . import catalogs

    return ["en"] + [lang for lang in catalogs.languages() if lang != "en"]


@dataclass(frozen=True)
class GlossaryCell:
    """One concept in one language: the site's term, its definition, a source's
    own word where it differs (``also``: word and profile key) and the variants
    the terminology check rejects."""

    term: str
    definition: str
    also: tuple[tuple[str, str], ...] = ()
    rejected: tuple[str, ...] = ()
    #: Other spellings of the term itself that readers know (ढुम्बल for धुम्बल);
    #: the glossary shows them, the pages use the term.
    variants: tuple[str, ...] = ()


#: What a concept has in a language whose line is missing: nothing to show, nothing to reject.
NO_CELL = GlossaryCell(term="", definition="")


@dataclass(frozen=True)
class GlossaryEntry:
    id: str
    site: bool
    #: Only the languages whose line gives a term and a definition.
    cells: dict[str, GlossaryCell]
    #: The line of the entry's ``[[term]]`` in the file.
    line: int = 0

    def __getitem__(self, lang: str) -> GlossaryCell:
        """The concept in ``lang``; an empty cell where the language has no line yet."""
        return self.cells.get(lang, NO_CELL)


def load_glossary(path: Path = GLOSSARY, langs: list[str] | None = None) -> list[GlossaryEntry]:
    """The glossary entries. A language may lack an entry (a language being translated:
    :func:`glossary_gaps` lists them); what an entry gives must be well formed, or
    ``ValueError`` names the entry, the language and what is wrong."""
    langs = langs or site_languages()
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path.name}: not valid TOML: {exc}") from None
    terms = data.get("term")
    if not isinstance(terms, list) or not terms:
        raise ValueError(f"{path.name}: expected [[term]] entries")
    starts = [number for number, line in enumerate(text.splitlines(), start=1) if line.strip() == "[[term]]"]
    out = []
    seen: set[str] = set()
    for i, entry in enumerate(terms, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise ValueError(f"{path.name}: entry {i} needs an id")
        name = entry["id"]
        if name in seen:
            raise ValueError(f"{path.name}: entry {name!r} appears twice")
        seen.add(name)
        cells: dict[str, GlossaryCell] = {}
        for lang in langs:
            cell = entry.get(lang)
            if cell is None or (isinstance(cell, dict) and not cell.get("term") and not cell.get("definition")
                                and set(cell) <= {"term", "definition"}):
                continue  # not written yet (make new-language writes empty ones)
            if not isinstance(cell, dict) or not cell.get("term") or not cell.get("definition"):
                raise ValueError(f"{path.name}: entry {name!r} needs a term and a definition in {lang!r}")
            unknown = set(cell) - {"term", "definition", "also", "rejected", "variants"}
            if unknown:
                raise ValueError(f"{path.name}: entry {name!r} in {lang!r}: unknown key {sorted(unknown)[0]!r}")
            also = cell.get("also", [])
            if not isinstance(also, list) or not all(
                isinstance(a, dict) and set(a) == {"word", "profile"} and a["profile"] in PROFILE_KEYS and str(a["word"]).strip()
                for a in also
            ):
                raise ValueError(f"{path.name}: entry {name!r} in {lang!r}: also must be a list of {{ word = \"…\", profile = \"{'|'.join(PROFILE_KEYS)}\" }}")
            rejected = cell.get("rejected", [])
            if not isinstance(rejected, list) or not all(isinstance(r, str) and r.strip("* ") for r in rejected):
                raise ValueError(f"{path.name}: entry {name!r} in {lang!r}: rejected must be a list of words")
            variants = cell.get("variants", [])
            if not isinstance(variants, list) or not all(isinstance(v, str) and v.strip() for v in variants):
                raise ValueError(f"{path.name}: entry {name!r} in {lang!r}: variants must be a list of spellings")
            cells[lang] = GlossaryCell(
                term=str(cell["term"]), definition=str(cell["definition"]),
                also=tuple((str(a["word"]), str(a["profile"])) for a in also),
                rejected=tuple(rejected), variants=tuple(variants),
            )
        line = starts[i - 1] if i <= len(starts) else 0
        out.append(GlossaryEntry(id=name, site=bool(entry.get("site", False)), cells=cells, line=line))
    return out


def glossary_gaps(path: Path = GLOSSARY, langs: list[str] | None = None) -> dict[str, list[str]]:
    """Every entry each language lacks, all at once: ``{lang: ["glossary.toml:20: game", …]}``
    (languages that lack none are left out)."""
    langs = langs or site_languages()
    lines = path.read_text(encoding="utf-8").splitlines()
    gaps: dict[str, list[str]] = {}
    entries = load_glossary(path, langs)
    for index, entry in enumerate(entries):
        end = entries[index + 1].line - 1 if index + 1 < len(entries) else len(lines)
        for lang in langs:
            if lang not in entry.cells:
                # the language's (empty) line in the entry, else the entry's [[term]] line
                line = next((n for n in range(entry.line, end + 1) if lines[n - 1].startswith(f"{lang} = ")), entry.line)
                gaps.setdefault(lang, []).append(f"{path.name}:{line}: {entry.id}")
    return gaps


@dataclass(frozen=True)
class RegisterVerb:
    """A verb a named seat does, in one language: the forms the terminology check
    refuses for a named seat (``refused``) and the form to write for each (``use``).
    With ``subject`` (e.g. तपाईं), the forms are refused only in a clause where that
    word stands alone, as the subject, before them."""

    lang: str
    verb: str
    refused: tuple[str, ...]
    use: tuple[str, ...]
    subject: str = ""


def load_register(path: Path = GLOSSARY) -> list[RegisterVerb]:
    """The ``[[register]]`` entries of the glossary file (Nepali: one register for named seats)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path.name}: not valid TOML: {exc}") from None
    entries = data.get("register", [])
    if not isinstance(entries, list):
        raise ValueError(f"{path.name}: expected [[register]] entries")
    out = []
    for i, entry in enumerate(entries, start=1):
        where = f"{path.name}: register entry {i}"
        if not isinstance(entry, dict) or not {"lang", "verb", "refused", "use"} <= set(entry) <= {
                "lang", "verb", "refused", "use", "subject"}:
            raise ValueError(f"{where}: give exactly lang, verb, refused and use (and, if the forms are refused "
                             "only after one subject, subject)")
        subject = entry.get("subject", "")
        if not isinstance(subject, str):
            raise ValueError(f"{where}: subject must be a word")
        refused, use = entry["refused"], entry["use"]
        if not (isinstance(entry["lang"], str) and isinstance(entry["verb"], str) and entry["verb"].strip()):
            raise ValueError(f"{where}: lang and verb must be words")
        if not (isinstance(refused, list) and isinstance(use, list) and refused and len(refused) == len(use)
                and all(isinstance(w, str) and w.strip() for w in refused + use)):
            raise ValueError(f"{where} ({entry['verb']}): refused and use must be lists of forms of the same length")
        out.append(RegisterVerb(entry["lang"], entry["verb"], tuple(refused), tuple(use), subject.strip()))
    return out



def main(argv: list[str] | None = None) -> int:
    """``python -m dhumbal_site.translation.glossary [--root DIR]``: every glossary entry each
    language lacks, all at once; exit 1 if a complete language lacks one (a language being
    translated, marked ``dhumbal_partial`` in mkdocs.yml, gets warnings)."""
    options = arguments(parser("glossary", "Every glossary entry each language lacks.", root=ROOT), argv)
    if options is None:
        return 2
    root = options.root
    languages = configured(root / "mkdocs.yml")
    try:
        gaps = glossary_gaps(root / "locales" / "glossary.toml", [lang.code for lang in languages])
    except ValueError as error:
        print(f"error: locales/{error}")
        return 1
    bad = 0
    for lang in languages:
        missing = gaps.get(lang.code, [])
        for gap in missing:
            print(f"{'warning' if lang.partial else 'error'}: locales/{gap}: no {lang.code} line (term and definition)")
        bad += 0 if lang.partial else len(missing)
        print(f"{lang.code}: {len(missing)} glossary entr{'y' if len(missing) == 1 else 'ies'} to write")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
