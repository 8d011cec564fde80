"""Localized text for everything the engine says.

Message templates are English gettext msgids with ``{name}`` placeholders.
Translations come from ``.mo`` catalogs compiled from ``locales/`` and shipped
inside the package (``dhumbal/locale/<lang>/LC_MESSAGES/dhumbal.mo``), so the
site build and the browser read the same files. A language without a catalog
falls back to English, never to a half-formatted string.

Numbers are written with the language's digits: Nepali text uses Devanagari
digits (०–९) everywhere, prose and generated text alike; card indices (A, 2–10,
J, Q, K) stay as printed on the cards.
"""

from __future__ import annotations

import gettext
import os
import re
from functools import lru_cache
from typing import Final, Mapping

from . import cards as C

DOMAIN: Final = "dhumbal"
LANGUAGES: Final = ("en", "fr", "nl", "ne")  # the site's four; more come with their catalogs
LOCALE_DIR: Final = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")

_DECIMAL_COMMA: Final = frozenset({"fr", "nl"})
_DEVANAGARI_DIGITS = str.maketrans("0123456789", "०१२३४५६७८९")
_LATIN_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")


def N_(message: str) -> str:
    """Mark a msgid for extraction without translating it here."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for extraction."""
    return (singular, plural)


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog for ``lang``; English (the msgids themselves) when there is none."""
    if lang == "en":
        return gettext.NullTranslations()
    # read the file ourselves: gettext.translation() keeps every catalog it ever
    # loaded, so a long-lived process would never see a recompiled one
    path = os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", DOMAIN + ".mo")
    if not os.path.exists(path):
        return gettext.NullTranslations()
    with open(path, "rb") as fh:
        return gettext.GNUTranslations(fh)


def available_languages() -> tuple[str, ...]:
    """English, the site's languages, and any other language whose compiled catalog is installed."""
    found = set(LANGUAGES)
    if os.path.isdir(LOCALE_DIR):
        found |= {d for d in os.listdir(LOCALE_DIR) if os.path.exists(os.path.join(LOCALE_DIR, d, "LC_MESSAGES", DOMAIN + ".mo"))}
    return ("en",) + tuple(sorted(found - {"en"}))


def digits(text: str, lang: str) -> str:
    """Write the Latin digits of ``text`` in the language's own digits."""
    return text.translate(_DEVANAGARI_DIGITS) if lang == "ne" else text


def number(n: int | float | str, lang: str, *, signed: bool = False) -> str:
    """A number for display: ``+38`` with ``signed``, and −12 with a real minus sign."""
    if isinstance(n, str):
        text = n
    elif signed and isinstance(n, int) and n != 0:
        text = f"{n:+d}"
    else:
        text = str(n)
    if text.startswith("-"):
        text = "−" + text[1:]
    if lang in _DECIMAL_COMMA:
        text = re.sub(r"(?<=\d)\.(?=\d)", ",", text)
    return digits(text, lang)


_THOUSANDS: Final = {"fr": "\u202f", "nl": "."}


def count_text(n: int, lang: str) -> str:
    """A whole count with the language's digit grouping: 20,000 (en), 20 000 (fr), 20.000 (nl),
    २०,००० (ne, which groups by two above the thousands: १,००,०००)."""
    digits_ = str(abs(n))
    if lang == "ne" and len(digits_) > 3:
        head, tail = digits_[:-3], digits_[-3:]
        pairs: list[str] = []
        while len(head) > 2:
            pairs.insert(0, head[-2:])
            head = head[:-2]
        grouped = ",".join([head, *pairs, tail])
    else:
        grouped = f"{abs(n):,}".replace(",", _THOUSANDS.get(lang, ","))
    return digits(("−" if n < 0 else "") + grouped, lang)


def read_decimal(text: str, lang: str) -> str:
    """A decimal number as a reader of ``lang`` types it, in the engine's form.

    ``0,05`` and ``0.05`` both read as ``0.05`` where a comma is the
    language's decimal separator (French, Dutch); Devanagari digits read as
    digits. Anything else is returned stripped, for the caller to refuse.
    """
    t = text.strip().translate(_LATIN_DIGITS)
    if lang in _DECIMAL_COMMA and t.count(",") == 1 and "." not in t:
        t = t.replace(",", ".")
    return t


class Translator:
    """One language's view of the catalogs: ``t("msgid", name=value)``."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._t = translations(lang)

    def __call__(self, msgid: str, /, **params: object) -> str:
        return format_text(self._t.gettext(msgid), params, self.lang)

    def plural(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        params.setdefault("count", n)
        return format_text(self._t.ngettext(singular, plural, n), params, self.lang)

    def raw(self, msgid: str) -> str:
        """The translated template itself (placeholders left in), with the language's typography."""
        return typography(self._t.gettext(msgid), self.lang)


@lru_cache(maxsize=None)
def translator(lang: str) -> Translator:
    return Translator(lang)


def format_text(template: str, params: Mapping[str, object], lang: str) -> str:
    """Fill ``{name}`` placeholders (ints become localized numbers), in the language's typography."""
    shown = {k: _show(v, lang) for k, v in params.items()}
    try:
        return typography(template.format_map(shown), lang)
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"message {template!r} cannot be filled with {sorted(params)}: {exc}") from exc


# -- typography -------------------------------------------------------------------------
#
# French puts a space before a colon, a semicolon, an exclamation or question
# mark and a closing guillemet, and after an opening guillemet, and that space
# never breaks the line: a no-break space (U+00A0) before the colon and inside
# guillemets, a narrow one (U+202F) before ; ! ?. Translations are written with
# ordinary spaces or none; every generated text passes through typography()
# (format_text, Translator.raw; the site glue passes its templates' output and
# its French pages through typography_html()), so the rule is kept in this one
# place.

NBSP: Final = "\u00a0"
NNBSP: Final = "\u202f"
# a space (or none, after a word) before : ; ! ? », when the mark ends a phrase
_FR_BEFORE = re.compile(r"(?:[ \u00a0\u202f]|(?<=[\w)\]»%’'\u2026]))([:;!?»])(?=[\s)\].,»]|$)")
_FR_AFTER_GUILLEMET = re.compile(r"«[ \u00a0\u202f]?")
_TYPOGRAPHY_LANGS: Final = frozenset({"fr"})


_ENTITY_START = re.compile(r"&#?\w+$")


def _fr_space(match: re.Match[str]) -> str:
    mark = match.group(1)
    if mark == ";" and match.group(0) == ";" and _ENTITY_START.search(match.string, 0, match.start()):
        return mark  # the end of an HTML entity (&amp;), not a semicolon
    return (NBSP if mark in ":»" else NNBSP) + mark


def typography(text: str, lang: str) -> str:
    """``text`` with the language's spacing around punctuation ("Pris\u00a0: 25", "«\u00a0Jhyap\u00a0»")."""
    if lang not in _TYPOGRAPHY_LANGS or not text:
        return text
    text = _FR_BEFORE.sub(_fr_space, text)
    return _FR_AFTER_GUILLEMET.sub("«" + NBSP, text)


_HTML_PART = re.compile(r"(<[^>]*>|&#?\w+;)")
_VERBATIM = frozenset({"code", "pre", "kbd", "samp", "script", "style", "textarea", "svg:style"})


def typography_html(html: str, lang: str) -> str:
    """:func:`typography` applied to the text of an HTML fragment: tags, attribute values,
    entities and code (``code``, ``pre``, ``kbd``, ``samp``, ``script``, ``style``) are left alone."""
    if lang not in _TYPOGRAPHY_LANGS or not html:
        return html
    out: list[str] = []
    verbatim: list[str] = []
    previous = " "  # the last character of text seen, across tags
    for part in _HTML_PART.split(html):
        if not part:
            continue
        if part.startswith("<"):
            name = re.match(r"</?\s*([\w:-]+)", part)
            tag = name.group(1).lower() if name else ""
            if tag in _VERBATIM and not part.endswith("/>"):
                if part.startswith("</"):
                    if tag in verbatim:
                        del verbatim[len(verbatim) - 1 - verbatim[::-1].index(tag):]
                else:
                    verbatim.append(tag)
            out.append(part)
            continue
        if part.startswith("&"):
            out.append(part)
            previous = "x"
            continue
        if verbatim:
            out.append(part)
            previous = part[-1]
            continue
        # a mark at the start of this text follows the text before the last tag
        fixed = typography(previous + part, lang)[1:] if previous.strip() else typography(part, lang)
        out.append(fixed)
        previous = part[-1]
    return "".join(out)


def _show(value: object, lang: str) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return number(value, lang)
    if isinstance(value, (list, tuple)):
        return " ".join(_show(v, lang) for v in value)
    return str(value)


# Card names. Ranks and suits are separate msgids, joined by a template that each
# language orders its own way ("King of spades", "roi de pique", "schoppenheer",
# "हुकुमको बादशाह").
RANK_NAMES: Final = (
    "", N_("Ace"), N_("Two"), N_("Three"), N_("Four"), N_("Five"), N_("Six"), N_("Seven"),
    N_("Eight"), N_("Nine"), N_("Ten"), N_("Jack"), N_("Queen"), N_("King"),
)
SUIT_NAMES: Final = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))
CARD_NAME: Final = N_("{rank} of {suit}")
JOKER_NAME: Final = N_("Joker")


def card_name(card: C.Card | str, lang: str) -> str:
    """The card's spoken name in ``lang``, e.g. ``card_name("K♠", "fr") == "roi de pique"``."""
    c = C.parse_card(card) if isinstance(card, str) else card
    t = translator(lang)
    if C.is_joker(c):
        return t(JOKER_NAME)
    return t(CARD_NAME, rank=t.raw(RANK_NAMES[C.rank_of(c)]), suit=t.raw(SUIT_NAMES[C.suit_of(c)]))

