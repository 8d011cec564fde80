"""Card tokens in page text (``K♠``, ``10♥``) rendered as accessible cards.

A screen reader reads "K♠" as "K black spade suit" or not at all, so each
token becomes the engine's inline card badge (``dhumbal.view.cardface``, the one
card renderer of prose, examples and table): an image-role span whose
accessible name is the card's name in the language of the surrounding text,
with the printed glyphs hidden from assistive technology and coloured by suit.

Only text is rewritten: never attributes, code (``code``, ``pre``, ``kbd``,
``samp``), ``script``/``style``/``textarea``, the permalink anchors of
headings, a table of contents, or anything inside an element carrying the
``dh-no-cards`` class or a ``data-dh-no-cards`` attribute (for generated
markup that draws its own cards).

The page HTML comes from Python-Markdown, so a small tokenizer that copies
every tag through unchanged is enough and keeps the output byte-identical
outside the rewritten text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

#: Card name lookup: ``(card_text, lang) -> name``, e.g. ("K♠", "en") -> "King of spades".
CardNamer = Callable[[str, str], str]

#: Outline suit symbols mapped to the solid ones the engine parses.
_SUIT_NORMAL = {"♤": "♠", "♡": "♥", "♢": "♦", "♧": "♣"}

#: A card token: rank then suit, not glued to a preceding letter or digit.
#: An emoji/text variation selector after the suit is absorbed.
CARD_TOKEN = re.compile(r"(?<![\w])(?P<rank>10|[2-9]|[AJQK])(?P<suit>[♠♥♦♣♤♡♢♧])[\ufe0e\ufe0f]?")

_VOID = frozenset(
    "area base br col embed hr img input link meta param source track wbr".split()
)
#: Elements whose text is never rewritten.
_SKIP_TAGS = frozenset("code pre kbd samp script style textarea svg math template title".split())
#: Elements whose content is raw text (may contain ``<`` unescaped).
_RAW_TEXT = frozenset("script style textarea title".split())
#: Classes that exclude an element's content.
_SKIP_CLASSES = frozenset({"headerlink", "toc", "dhc", "dh-no-cards"})

_TAG = re.compile(
    r"""
    (?P<comment><!--.*?-->)
  | (?P<decl><![^>]*>|<\?.*?>)
  | (?P<end></(?P<end_name>[A-Za-z][\w:.-]*)\s*>)
  | (?P<start><(?P<start_name>[A-Za-z][\w:.-]*)
        (?P<attrs>(?:\s+[^\s/>"'=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)
        \s*/?>)
    """,
    re.S | re.X,
)
_ATTR = re.compile(r"""([^\s/>"'=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
_HEADERLINK_TITLE = re.compile(r'(\stitle=")[^"]*(")')


@dataclass
class _Open:
    name: str
    skip: bool
    lang: str


def parse_attrs(text: str) -> dict[str, str]:
    """Attributes of a start tag's attribute text (entities decoded)."""
    attrs: dict[str, str] = {}
    for match in _ATTR.finditer(text):
        value = match.group(2)
        if value is None:
            value = match.group(3)
        if value is None:
            value = match.group(4) or ""
        attrs.setdefault(match.group(1).lower(), html.unescape(value))
    return attrs


def card_markup(token: str, name: str) -> str:
    """The markup of one card: the engine's inline card badge, named ``name``."""
    from dhumbal.core.cards import parse_card
    from dhumbal.view.cardface import face

    return face(parse_card(normalize_card(token)), "en", size="inline", label=name)


def normalize_card(token: str) -> str:
    """``K♤`` -> ``K♠`` (and drop a variation selector): the text the engine parses."""
    match = CARD_TOKEN.fullmatch(token)
    if match is None:
        raise ValueError(f"not a card token: {token!r}")
    return match.group("rank") + _SUIT_NORMAL.get(match.group("suit"), match.group("suit"))


def _primary_lang(value: str) -> str:
    return value.strip().split("-")[0].split("_")[0].lower()


def _tokens(source: str) -> Iterator[tuple[str, re.Match[str] | None, str]]:
    """Yield ``(kind, match, text)``; kind is ``text``, ``tag`` or ``raw``."""
    pos = 0
    while pos < len(source):
        match = _TAG.search(source, pos)
        if match is None:
            yield "text", None, source[pos:]
            return
        if match.start() > pos:
            yield "text", None, source[pos : match.start()]
        yield "tag", match, match.group(0)
        pos = match.end()
        name = match.group("start_name")
        if name and name.lower() in _RAW_TEXT and not match.group(0).endswith("/>"):
            close = re.compile(rf"</{re.escape(name)}\s*>", re.I).search(source, pos)
            end = close.start() if close else len(source)
            if end > pos:
                yield "raw", None, source[pos:end]
            pos = end


def rewrite_cards(
    source: str,
    *,
    lang: str,
    namer: CardNamer,
    languages: frozenset[str],
    permalink_title: str | None = None,
) -> str:
    """Rewrite the card tokens of an HTML fragment.

    ``lang`` is the language of the fragment's text; a ``lang`` attribute on
    an element overrides it for the element's content if it is one of
    ``languages``. ``permalink_title``, if given, replaces the ``title`` of
    heading permalink anchors (Python-Markdown writes it in English).
    """
    out: list[str] = []
    stack: list[_Open] = []
    names: dict[tuple[str, str], str] = {}

    def current_lang() -> str:
        return stack[-1].lang if stack else lang

    def skipping() -> bool:
        return bool(stack) and stack[-1].skip

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        card = normalize_card(token)
        key = (card, current_lang())
        if key not in names:
            names[key] = namer(*key)
        return card_markup(token, names[key])

    for kind, match, text in _tokens(source):
        if kind == "raw":
            out.append(text)
        elif kind == "text":
            out.append(text if skipping() else CARD_TOKEN.sub(replace, text))
        else:
            assert match is not None
            if match.group("start"):
                name = match.group("start_name").lower()
                attrs = parse_attrs(match.group("attrs") or "")
                classes = set(attrs.get("class", "").split())
                if (
                    permalink_title is not None
                    and name == "a"
                    and "headerlink" in classes
                    and "title" in attrs
                ):
                    text = _HEADERLINK_TITLE.sub(
                        lambda m: m.group(1) + html.escape(permalink_title, quote=True) + m.group(2),
                        text,
                        count=1,
                    )
                if name not in _VOID and not text.endswith("/>"):
                    element_lang = _primary_lang(attrs.get("lang", ""))
                    stack.append(
                        _Open(
                            name=name,
                            skip=skipping()
                            or name in _SKIP_TAGS
                            or bool(classes & _SKIP_CLASSES)
                            or "data-dh-no-cards" in attrs,
                            lang=element_lang if element_lang in languages else current_lang(),
                        )
                    )
            elif match.group("end"):
                name = match.group("end_name").lower()
                # Pop to the matching element; ignore a stray end tag.
                for depth in range(len(stack) - 1, -1, -1):
                    if stack[depth].name == name:
                        del stack[depth:]
                        break
            out.append(text)
    return "".join(out)


def text_with_cards(text: str, lang: str) -> str:
    """``text`` escaped as HTML, its card tokens drawn as inline cards named in ``lang``.

    For generated content that is placed after the page's card pass (the
    worked examples, the comparison): the same badges, made where the text is.
    """
    out: list[str] = []
    pos = 0
    for match in CARD_TOKEN.finditer(text):
        out.append(html.escape(text[pos : match.start()], quote=False))
        out.append(_badge(normalize_card(match.group(0)), lang))
        pos = match.end()
    out.append(html.escape(text[pos:], quote=False))
    return "".join(out)


@lru_cache(maxsize=1024)
def _badge(card: str, lang: str) -> str:
    from dhumbal.core.cards import parse_card
    from dhumbal.view.cardface import inline

    return inline(parse_card(card), lang)


def clear_badges() -> None:
    """Forget the drawn badges (their names come from the catalogs)."""
    _badge.cache_clear()
