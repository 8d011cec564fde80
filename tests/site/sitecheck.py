"""Reading a built site: its pages, their links and resources, per language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urljoin, urlsplit

from tests.sitekit import SITE_LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
#: The site's languages, from mkdocs.yml (English first).
LANGUAGES = SITE_LANGUAGES
DEFAULT = "en"

#: Attributes that name a URL the browser may load or go to.
URL_ATTRIBUTES = {"href", "src", "poster", "data", "action", "formaction"}


def lang_prefix(lang: str) -> str:
    return "" if lang == DEFAULT else f"{lang}/"


def site_path_lang(path: str) -> str:
    """The language of a site path such as ``fr/glossary/``."""
    first = path.split("/", 1)[0]
    return first if first in LANGUAGES and first != DEFAULT else DEFAULT


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]


@dataclass
class ParsedPage:
    """What the checks need from one HTML file."""

    elements: list[Element] = field(default_factory=list)
    #: (text, inside_article) for every text node.
    texts: list[tuple[str, bool]] = field(default_factory=list)
    html_lang: str | None = None
    config_json: str | None = None


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = ParsedPage()
        self._article_depth = 0
        self._stack: list[str] = []
        self._in_config = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        self.page.elements.append(Element(tag, values))
        if tag == "html":
            self.page.html_lang = values.get("lang")
        if tag == "script" and values.get("id") == "__config":
            self._in_config = True
        if tag in {"br", "img", "input", "link", "meta", "hr", "source", "wbr", "area", "col", "embed", "track", "param", "base"}:
            return
        self._stack.append(tag)
        if tag == "article" or self._article_depth:
            self._article_depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_config = False
        if tag in self._stack:
            while self._stack:
                popped = self._stack.pop()
                if self._article_depth:
                    self._article_depth -= 1
                if popped == tag:
                    break

    def handle_data(self, data: str) -> None:
        if self._in_config:
            self.page.config_json = (self.page.config_json or "") + data
        elif data.strip():
            self.page.texts.append((data.strip(), self._article_depth > 0))


def parse(html: str) -> ParsedPage:
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return parser.page


@dataclass(frozen=True)
class SitePage:
    """One built HTML page."""

    file: Path
    #: Site path of the page's URL ("", "fr/glossary/", "404.html").
    path: str

    @property
    def lang(self) -> str:
        return site_path_lang(self.path)


def html_pages(site: Path) -> list[SitePage]:
    pages = []
    for file in sorted(site.rglob("*.html")):
        rel = file.relative_to(site).as_posix()
        path = rel[: -len("index.html")] if rel.endswith("index.html") else rel
        pages.append(SitePage(file, path))
    return pages


def content_pages(site: Path, lang: str) -> set[str]:
    """Paths of one language's pages, relative to its root (no 404)."""
    prefix = lang_prefix(lang)
    result = set()
    for page in html_pages(site):
        if page.path.endswith(".html") or page.lang != lang:
            continue
        result.add(page.path[len(prefix) :])
    return result


def urls_of(page: ParsedPage) -> Iterator[tuple[Element, str, str]]:
    """(element, attribute, URL) of every URL-valued attribute, srcset included."""
    for element in page.elements:
        for name, value in element.attrs.items():
            if name in URL_ATTRIBUTES and value:
                if element.tag == "meta":
                    continue
                yield element, name, value.strip()
            elif name in {"srcset", "imagesrcset"}:
                for candidate in value.split(","):
                    url = candidate.strip().split(" ")[0]
                    if url:
                        yield element, name, url
        if element.tag == "meta" and element.attrs.get("name") == "dhumbal:alternate":
            yield element, "content", element.attrs.get("content", "")


def is_external(url: str, origin: str) -> bool:
    """A URL that would leave the site (another host, or a non-web scheme)."""
    parts = urlsplit(url)
    if parts.scheme in {"", "http", "https"} and not parts.netloc:
        return False
    if parts.scheme == "data" or url.startswith("#"):
        return False
    if parts.scheme in {"http", "https", ""} and parts.netloc:
        return f"{parts.scheme or 'http'}://{parts.netloc}" != origin
    return True  # mailto:, tel:, javascript:, ...


def resolve(site: Path, page_path: str, url: str, origin: str) -> Path | None:
    """The file a same-site URL on the page at ``page_path`` points to, or None."""
    absolute = urljoin(f"{origin}/{page_path}", url)
    parts = urlsplit(absolute)
    path = unquote(parts.path)
    target = site / PurePosixPath(path.lstrip("/"))
    if path.endswith("/"):
        target = target / "index.html"
    if target.is_file():
        return target
    if target.is_dir() and (target / "index.html").is_file():
        return target / "index.html"
    return None


_CSS_URL = re.compile(r"""url\(\s*(?P<q>['"]?)(?P<url>.*?)(?P=q)\s*\)""", re.S)
_CSS_IMPORT = re.compile(r"""@import\s+(?P<q>['"])(?P<url>[^'"]+)(?P=q)""")


def css_urls(text: str) -> Iterator[str]:
    for match in _CSS_URL.finditer(text):
        yield match.group("url").strip()
    for match in _CSS_IMPORT.finditer(text):
        yield match.group("url").strip()


def fake_card_name(card: str, lang: str) -> str:
    """A stand-in for dhumbal.core.i18n.card_name that shows what it was asked."""
    ranks = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
    suits = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}
    return f"{ranks.get(card[:-1], card[:-1])} of {suits[card[-1]]} ({lang})"
