"""The translation status page (``<!-- dhumbal:translation-status -->``): the
figures of :mod:`dhumbal_site.translation.status`, per language and per page,
in the site's order and in the reader's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..translation import parity
from ..translation.pagestructure import split_front_matter
from ..translation.status import DEFAULT, DOCS, status
from .generated import language_name, page_link
from .markers import MarkerContext
from .render import block


def _title(lang: str, page: str, docs: Path) -> str:
    """The page's title in ``lang`` (its front matter), else in English, else its path."""
    for code in (lang, DEFAULT):
        path = docs / code / page
        if path.exists():
            try:
                front, _, _ = split_front_matter(path.read_text(encoding="utf-8"))
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
            "first_strings": entry.missing_strings[:entry.first_missing],
            "missing_strings": entry.missing_strings[entry.first_missing:],
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
