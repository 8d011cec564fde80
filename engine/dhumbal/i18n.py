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
        return self._t.gettext(msgid)


@lru_cache(maxsize=None)
def translator(lang: str) -> Translator:
    return Translator(lang)


def format_text(template: str, params: Mapping[str, object], lang: str) -> str:
    """Fill ``{name}`` placeholders; ints become localized numbers."""
    shown = {k: _show(v, lang) for k, v in params.items()}
    try:
        return template.format_map(shown)
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"message {template!r} cannot be filled with {sorted(params)}: {exc}") from exc


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

