"""The self-hosted Devanagari font, taken from node_modules at build time.

The site must make no third-party request, so instead of Google Fonts it
serves Noto Sans Devanagari itself. The files come from the npm package
``@fontsource/noto-sans-devanagari`` (installed by ``make setup``) and are
copied into the built site only, never committed.
``browser/styles/base.css`` declares them with ``@font-face``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from mkdocs.exceptions import PluginError

PACKAGE = Path("node_modules/@fontsource/noto-sans-devanagari/files")
#: Devanagari subset, the regular weight only: bold is drawn by the browser
#: (browser/styles/base.css says why).
FILES = ("noto-sans-devanagari-devanagari-400-normal.woff2",)
#: Where the CSS expects them, relative to the site root.
DEST = "assets/fonts"


@cache
def writes_devanagari(lang: str) -> bool:
    """Whether ``lang`` is written in Devanagari (Nepali, Hindi, Marathi…), from the Unicode
    CLDR's likely script of the language (through Babel), so a new language needs no list."""
    from babel.core import get_global

    likely = get_global("likely_subtags").get(lang.replace("-", "_")) or ""
    return "_Deva" in f"_{likely}_" or lang.endswith(("-Deva", "_Deva"))


def preloads(lang: str) -> list[str]:
    """The font files a page in ``lang`` fetches ahead of its first layout (site-root paths).

    A Devanagari page asks for the font in <head>, beside the stylesheets
    (overrides/main.html): found only at the first layout, it arrives after the
    text is drawn in a fallback font, and every line moves when it swaps in (a
    layout shift of 0.17 on the Nepali puzzles page, measured on a first visit).
    """
    return [f"{DEST}/{name}" for name in FILES] if writes_devanagari(lang) else []


def font_sources(repo_root: Path) -> list[Path]:
    """The font files, or a build error telling how to get them."""
    directory = repo_root / PACKAGE
    paths = [directory / name for name in FILES]
    missing = [path for path in paths if not path.is_file()]
    if missing:
        raise PluginError(
            "dhumbal: the Noto Sans Devanagari font files are missing "
            f"({', '.join(str(path) for path in missing)}): run make setup "
            "to install the npm packages"
        )
    return paths
