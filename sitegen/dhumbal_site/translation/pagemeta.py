"""Page titles and descriptions as catalog messages, for a language whose pages Weblate translates.

Weblate's Markdown format offers a page's text for translation but copies its front
matter as it is (translate-toolkit reads it as a header, not as units), so a page
translated there keeps the English ``title`` and ``description``: the browser tab, the
navigation, search results and link previews would stay English. They are offered in a
gettext component of their own instead (``weblate/pagemeta.json``):

* ``make catalogs`` writes ``locales/pages.pot`` from the English pages' front matter:
  one entry per page and field, its context the page and the field (``rules/dashain.md
  title``), its location the English page's line, a translator comment saying where it
  shows; and merges it into every ``locales/<lang>/LC_MESSAGES/pages.po`` that exists
  (Weblate starts one from the template when a language is opened to it);
* the build gives a translated page (not a copy of the English one) whose field is still
  the English value the catalog's translation of it (:func:`meta_translation`);
* ``make check-catalogs`` checks those catalogs as front matter is checked: plain text,
  no markup, no quotes or angle brackets, within its length.

A page translated in git keeps its own front matter, which wins: the catalog is read only
where the page still says what the English page says.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from . import frontmatter
from .commandline import arguments, parser

ROOT = Path(__file__).resolve().parents[3]
DOMAIN = "pages"
FIELDS = ("title", "description")
#: Where each field shows, for the translator comment.
SHOWS = {
    "title": "the title of the page {page}: its heading in the navigation, the browser's tab and search results",
    "description": "the description of the page {page}: what search engines and link previews show under its title",
}

_CACHE: dict[str, tuple[tuple[int, int], Catalog]] = {}


def template_path(root: Path = ROOT) -> Path:
    return root / "locales" / f"{DOMAIN}.pot"


def catalog_path(lang: str, root: Path = ROOT) -> Path:
    return root / "locales" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(f"{key}:"):
            return number
        if number > 1 and line.strip() == "---":
            break
    return 1


def template(root: Path = ROOT) -> Catalog:
    """The English pages' titles and descriptions, one entry per page and field."""
    catalog = Catalog(domain=DOMAIN)
    english = root / "docs" / "en"
    for path in sorted(english.rglob("*.md")):
        page = path.relative_to(english).as_posix()
        text = path.read_text(encoding="utf-8-sig")
        meta, _ = frontmatter.read(text)
        for key in FIELDS:
            value = meta.get(key)
            if isinstance(value, str) and value.strip():
                catalog.add(value, context=f"{page} {key}", locations=[(f"docs/en/{page}", _line_of(text, key))],
                            auto_comments=[f"Where: {SHOWS[key].format(page=page)}."])
    return catalog


def _write(catalog: Catalog, path: Path, *, header: bool) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=0, omit_header=not header, sort_by_file=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())


def extract(root: Path = ROOT) -> list[Path]:
    """Write ``locales/pages.pot`` and merge it into every language's ``pages.po`` that exists."""
    pot = template(root)
    _write(pot, template_path(root), header=False)
    written = [template_path(root)]
    for po in sorted((root / "locales").glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        lang = po.parent.parent.name
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        _write(catalog, po, header=True)
        written.append(po)
    return written


def _catalog(lang: str, root: Path) -> Catalog | None:
    path = catalog_path(lang, root)
    try:
        st = path.stat()
    except OSError:
        return None
    stamp = (st.st_mtime_ns, st.st_size)
    key = str(path)
    if key not in _CACHE or _CACHE[key][0] != stamp:
        with path.open("rb") as fh:
            _CACHE[key] = (stamp, read_po(fh, locale=lang))
    return _CACHE[key][1]


def meta_translation(lang: str, page: str, key: str, english: str, root: Path | None = None) -> str | None:
    """The translation of the English ``key`` field (``english``) of ``page`` in ``lang``'s
    page catalog, when it has one that is not fuzzy and is safe as front matter; else None."""
    catalog = _catalog(lang, root or ROOT)
    message = catalog.get(english, context=f"{page} {key}") if catalog is not None else None
    if message is None or message.fuzzy or not isinstance(message.string, str) or not message.string.strip():
        return None
    return None if frontmatter.problems({key: message.string}) else message.string


def translate_meta(meta: MutableMapping[str, Any], english: Mapping[str, Any], lang: str, page: str,
                   root: Path | None = None) -> None:
    """Give a translated page's ``meta`` the page catalog's translation of each field that is
    still the English page's value (as Weblate's Markdown output leaves it)."""
    for key in FIELDS:
        value = english.get(key)
        if isinstance(value, str) and meta.get(key) == value:
            found = meta_translation(lang, page, key, value, root)
            if found is not None:
                meta[key] = found


def check(root: Path = ROOT) -> tuple[list[str], list[str]]:
    """(errors, warnings) of every page catalog: a translation that front matter could not hold
    is an error; one missing is a warning (a language opened on Weblate is being translated)."""
    errors, warnings = [], []
    for po in sorted((root / "locales").glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        lang = po.parent.parent.name
        shown = po.relative_to(root).as_posix()
        catalog = _catalog(lang, root)
        assert catalog is not None
        for message in catalog:
            if not message.id:
                continue
            where = f"{shown}:{message.lineno}"
            if not isinstance(message.string, str) or not message.string.strip() or message.fuzzy:
                warnings.append(f"{where}: not translated: {message.context}")
                continue
            for problem in frontmatter.problems({message.context or "value": message.string}):
                errors.append(f"{where}: {problem}")
    return errors, warnings


def main(argv: list[str] | None = None) -> int:
    """``python -m dhumbal_site.translation.pagemeta extract|check [--root DIR]``."""
    options = arguments(parser("pagemeta", "The page titles and descriptions' catalog for Weblate.",
                               root=ROOT, commands=("extract", "check")), argv)
    if options is None:
        return 2
    command, root = options.command, options.root
    if command == "extract":
        extract(root)
        return 0
    errors, warnings = check(root)
    for line in warnings:
        print(f"warning: {line}")
    for line in errors:
        print(f"error: {line}")
    catalogs = len(list((root / "locales").glob(f"*/LC_MESSAGES/{DOMAIN}.po")))
    print(f"page titles and descriptions: {catalogs} catalog(s) of Weblate's pages, {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
