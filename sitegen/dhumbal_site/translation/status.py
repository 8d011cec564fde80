"""The translation status figures: per language and per page, whether the page
says everything the English page says (:mod:`dhumbal_site.translation.parity`), whether
it follows the current English page (:mod:`dhumbal_site.translation.freshness`) and
whether the catalog is complete; a language is complete only when all hold.

Computed at build time from ``locales/`` and ``docs/``, so it is never out of
date, and it counts content, not files: a page whose sections are missing is
not "translated" because a file of that name exists. Deliberate differences
declared in a page's front matter are listed with their reasons. A language's
messages still to translate are listed with those a reader meets first at
the head (:mod:`dhumbal_site.translation.places`), then the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import ROOT
from . import catalogs, freshness, parity, places
from .freshness import Freshness

DOCS = ROOT / "docs"
DEFAULT = parity.REFERENCE


@dataclass
class LanguageStatus:
    lang: str
    strings_done: int
    strings_total: int
    #: The messages not translated: those a reader meets first (places.toml's order), then the rest.
    missing_strings: list[str]
    pages: list[parity.PageReport] = field(default_factory=list)
    #: Translated pages by English page name, with whether they follow the current English page.
    freshness: dict[str, Freshness] = field(default_factory=dict)
    #: Still being translated (``dhumbal_partial`` in its mkdocs.yml block).
    partial: bool = False
    #: How many of ``missing_strings``, from the first, a reader meets on the first page they open.
    first_missing: int = 0

    @property
    def stale(self) -> list[Freshness]:
        return [f for f in self.freshness.values() if not f.fresh]

    @property
    def pages_ok(self) -> int:
        return sum(1 for p in self.pages if p.ok)

    @property
    def catalog_complete(self) -> bool:
        return self.strings_done == self.strings_total and not self.missing_strings

    @property
    def complete(self) -> bool:
        return self.catalog_complete and self.pages_ok == len(self.pages) and not self.stale


_MEMO: dict[tuple[object, ...], list[LanguageStatus]] = {}


def _sources_key(langs: list[str] | None, docs: Path) -> tuple[object, ...]:
    """What the figures depend on: the catalogs', pages' and mkdocs.yml's names, sizes and times."""
    files = [catalogs.TEMPLATE, docs.parent / "mkdocs.yml",
             *sorted(catalogs.LOCALES.glob(f"*/LC_MESSAGES/{catalogs.DOMAIN}.po")), *sorted(docs.rglob("*.md"))]
    stats: list[tuple[str, int, int]] = []
    for path in files:
        try:
            st = path.stat()
        except OSError:
            continue
        stats.append((str(path), st.st_size, st.st_mtime_ns))
    return (tuple(langs or ()), tuple(stats))


def status(langs: list[str] | None = None, docs: Path = DOCS) -> list[LanguageStatus]:
    """One entry per language (English first, the reference) with catalog and page figures.

    Every language's page shows the same figures: they are computed once and
    kept while no catalog or page changes.
    """
    key = _sources_key(langs, docs)
    if key not in _MEMO:
        _MEMO.clear()
        _MEMO[key] = _status(langs, docs)
    return list(_MEMO[key])


def _status(langs: list[str] | None, docs: Path) -> list[LanguageStatus]:
    template = catalogs.read_catalog(catalogs.TEMPLATE)
    total = len([m for m in template if m.id])
    names = parity.page_names(DEFAULT, docs)
    out = [LanguageStatus(DEFAULT, total, total, [], [parity.PageReport(f"{DEFAULT}/{n}", [], []) for n in names])]
    partial = parity.partial_languages(docs)
    for lang in langs or catalogs.languages():
        done, count = catalogs.translated_share(lang)
        problems = catalogs.check_catalog(lang, template)
        first, rest = places.reading_order(template, sorted({p.msgid for p in problems}))
        fresh = {f.name: f for f in freshness.check_language(lang, docs)}
        out.append(LanguageStatus(lang, done, count, first + rest, parity.check_language(lang, docs), fresh,
                                  lang in partial, len(first)))
    return out
