"""One sitemap per language, at each language's root.

Material's instant navigation only takes over a click if the target is in the
sitemap found at the site's base, and a language switch must be a full page
load (the header, the search index and ``<html lang>`` belong to the
language). So each language's sitemap lists that language's pages only, with
``hreflang`` alternates to the others for search engines.
"""

from __future__ import annotations

import gzip
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr


@dataclass(frozen=True)
class SitemapPage:
    """One page of one language and its versions in every language."""

    url: str
    alternates: Mapping[str, str]


def _path(url: str) -> str:
    """MkDocs writes the home page's URL as "./" (File.url) or "" (Page.url)."""
    return "" if url in ("", ".", "./") else url


def render_sitemap(site_url: str, pages: Sequence[SitemapPage]) -> str:
    """The sitemap XML; URLs are site-root relative, made absolute with ``site_url``."""
    base = site_url if site_url.endswith("/") else site_url + "/"
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ]
    for page in pages:
        lines.append("  <url>")
        lines.append(f"    <loc>{escape(base + _path(page.url))}</loc>")
        for lang, url in page.alternates.items():
            lines.append(
                f"    <xhtml:link rel=\"alternate\" hreflang={quoteattr(lang)} "
                f"href={quoteattr(base + _path(url))}/>"
            )
        lines.append("  </url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def write_sitemap(directory: Path, xml: str) -> None:
    """Write ``sitemap.xml`` and ``sitemap.xml.gz`` into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "sitemap.xml").write_text(xml, encoding="utf-8")
    with gzip.GzipFile(directory / "sitemap.xml.gz", "wb", mtime=0) as handle:
        handle.write(xml.encode("utf-8"))
