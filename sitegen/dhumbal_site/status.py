"""The translation status page: per language, how much of the catalogs and of
the pages is translated, and what is missing. Computed at build time from
``locales/`` and ``docs/``, so it is never out of date."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import catalogs
from .generated import language_name, page_link
from .markers import MarkerContext
from .render import block

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DEFAULT = "en"


def _pages(lang: str) -> set[str]:
    base = DOCS / lang
    return {p.relative_to(base).as_posix() for p in base.rglob("*.md")}


_MEMO: dict[tuple[object, ...], list[dict[str, Any]]] = {}


def _sources_key(langs: list[str] | None) -> tuple[object, ...]:
    """What the figures depend on: the catalogs' and pages' names, sizes and times."""
    files = [catalogs.TEMPLATE, *sorted(catalogs.LOCALES.glob(f"*/LC_MESSAGES/{catalogs.DOMAIN}.po")), *sorted(DOCS.rglob("*.md"))]
    stats: list[tuple[str, int, int]] = []
    for path in files:
        try:
            st = path.stat()
        except OSError:
            continue
        stats.append((str(path), st.st_size, st.st_mtime_ns))
    return (tuple(langs or ()), tuple(stats))


def status(langs: list[str] | None = None) -> list[dict[str, Any]]:
    """One entry per language with catalog and page figures.

    Every language's page shows the same figures: they are computed once and
    kept while no catalog or page changes.
    """
    key = _sources_key(langs)
    if key not in _MEMO:
        _MEMO.clear()
        _MEMO[key] = _status(langs)
    return [dict(entry) for entry in _MEMO[key]]


def _status(langs: list[str] | None) -> list[dict[str, Any]]:
    reference = _pages(DEFAULT)
    template = catalogs.read_catalog(catalogs.TEMPLATE)
    out = [{"lang": DEFAULT, "strings_done": len([m for m in template if m.id]), "strings_total": len([m for m in template if m.id]),
            "missing_strings": [], "pages_done": len(reference), "pages_total": len(reference), "missing_pages": []}]
    for lang in langs or catalogs.languages():
        done, total = catalogs.translated_share(lang)
        problems = catalogs.check_catalog(lang, template)
        missing = sorted({p.msgid for p in problems if "not translated" in p.what or "missing" in p.what or "fuzzy" in p.what})
        pages = _pages(lang) if (DOCS / lang).is_dir() else set()
        out.append({
            "lang": lang,
            "strings_done": done,
            "strings_total": total,
            "missing_strings": missing,
            "pages_done": len(reference & pages),
            "pages_total": len(reference),
            "missing_pages": sorted(reference - pages),
        })
    return out


def render_status(ctx: MarkerContext) -> str:
    if ctx.args:
        raise ValueError("the translation-status marker takes no arguments")
    rows = []
    for entry in status():
        pct_strings = 100 * entry["strings_done"] // max(1, entry["strings_total"])
        pct_pages = 100 * entry["pages_done"] // max(1, entry["pages_total"])
        rows.append({
            **entry,
            "name": language_name(ctx, entry["lang"]),
            "pct_strings": pct_strings,
            "pct_pages": pct_pages,
            "missing_links": [
                {"path": p, "href": page_link(ctx, p)} for p in entry["missing_pages"]
            ],
        })
    return block("status.html", ctx.lang, rows=rows)
