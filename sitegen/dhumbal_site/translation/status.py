"""The translation status page: per language and per page, whether the page
says everything the English page says (:mod:`dhumbal_site.translation.parity`), whether
it follows the current English page (:mod:`dhumbal_site.translation.freshness`) and
whether the catalog is complete; a language is complete only when all hold.

Computed at build time from ``locales/`` and ``docs/``, so it is never out of
date, and it counts content, not files: a page whose sections are missing is
not "translated" because a file of that name exists. Deliberate differences
declared in a page's front matter are listed with their reasons.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import catalogs, freshness, parity
from ..content.generated import language_name, page_link
from ..content.markers import MarkerContext
from ..content.render import block

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
DEFAULT = parity.REFERENCE


@dataclass
class LanguageStatus:
    lang: str
    strings_done: int
    strings_total: int
    missing_strings: list[str]
    pages: list[parity.PageReport] = field(default_factory=list)
    #: Translated pages by English page name, with whether they follow the current English page.
    freshness: dict[str, freshness.Freshness] = field(default_factory=dict)
    #: Still being translated (``dhumbal_partial`` in its mkdocs.yml block).
    partial: bool = False

    @property
    def stale(self) -> list[freshness.Freshness]:
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
        missing = sorted({p.msgid for p in problems})
        fresh = {f.name: f for f in freshness.check_language(lang, docs)}
        out.append(LanguageStatus(lang, done, count, missing, parity.check_language(lang, docs), fresh, lang in partial))
    return out


def _title(lang: str, page: str, docs: Path) -> str:
    """The page's title in ``lang`` (its front matter), else in English, else its path."""
    for code in (lang, DEFAULT):
        path = docs / code / page
        if path.exists():
            try:
                front, _, _ = parity.split_front_matter(path.read_text(encoding="utf-8"))
            except ValueError:
                continue
            if front.get("title"):
                return str(front["title"])
    return page


def _nav_order(nav: Any) -> dict[str, int]:
    """Page file -> its place in ``mkdocs.yml``'s nav, so the status lists pages as the site does."""
    order: dict[str, int] = {}

    def walk(item: Any) -> None:
        if isinstance(item, str):
            order.setdefault(item, len(order))
        elif isinstance(item, dict):
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(nav)
    return order


def render_status(ctx: MarkerContext) -> str:
    if ctx.args:
        raise ValueError("the translation-status marker takes no arguments")
    from dhumbal.core.i18n import translator

    t = translator(ctx.lang)
    docs = Path(ctx.config["docs_dir"]) if ctx.config.get("docs_dir") else DOCS
    entries = status(docs=docs)
    page_names = parity.page_names(DEFAULT, docs)
    languages = []
    for entry in entries:
        by_page = {r.page.split("/", 1)[1]: r for r in entry.pages}
        languages.append({
            "lang": entry.lang,
            "name": language_name(ctx, entry.lang),
            "reference": entry.lang == DEFAULT,
            "strings_done": entry.strings_done,
            "strings_total": entry.strings_total,
            "pct_strings": 100 * entry.strings_done // max(1, entry.strings_total),
            "pages_ok": entry.pages_ok,
            "pages_total": len(entry.pages),
            "complete": entry.complete,
            "partial": entry.partial,
            "catalog_complete": entry.catalog_complete,
            "missing_strings": entry.missing_strings,
            "pages": {
                name: {
                    "ok": report.ok,
                    "missing": report.missing,
                    "differences": [d.text(ctx.lang) for d in report.differences],
                    "declared": [
                        {"kind": t(parity.KIND_LABELS[d.kind]), "heading": d.heading, "reason": d.reason}
                        for d in report.declared
                    ],
                }
                for name, report in by_page.items()
            },
            "stale": {f.name: {"state": f.state, "text": f.text(ctx.lang)} for f in entry.stale},
        })
    order = _nav_order(ctx.config.get("nav"))
    page_names = sorted(page_names, key=lambda name: (order.get(name, len(order)), name))
    pages: list[dict[str, Any]] = [
        {"path": name, "title": _title(ctx.lang, name, docs), "href": page_link(ctx, name)} for name in page_names
    ]
    return block("status.html", ctx.lang, languages=languages, pages=pages)
