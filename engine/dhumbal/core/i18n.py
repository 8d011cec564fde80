"""Localized text for everything the engine says.

Message templates are English gettext msgids with ``{name}`` placeholders.
Translations come from ``.mo`` catalogs compiled from ``locales/`` and shipped
inside the package (``dhumbal/locale/<lang>/LC_MESSAGES/dhumbal.mo``), so the
site build and the browser read the same files. A language without a catalog
falls back to English, never to a half-formatted string.

Numbers go through one formatter, :func:`number`, with each language's rules:
the decimal sign (0,05 in French and Dutch), the thousands sign (20 000 with a
narrow no-break space in French, 20.000 in Dutch, २०,००० in Nepali), and the
digits (Nepali text uses Devanagari digits, ०–९, everywhere); card indices (A,
2–10, J, Q, K) stay as printed on the cards in every language, and one
function writes cards for running text (:func:`cards_in_words`). French text
also gets its typography (see :func:`typography`).
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Final

from . import cards as C

DOMAIN: Final = "dhumbal"
#: The language of the msgids, which needs no catalog.
SOURCE_LANGUAGE: Final = "en"
LOCALE_DIR: Final = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "locale")

_DEVANAGARI_DIGITS = str.maketrans("0123456789", "०१२३४५६७८९")
_LATIN_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")


def N_(message: str) -> str:
    """Mark a msgid for extraction without translating it here."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for extraction."""
    return (singular, plural)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog for ``lang``; English (the msgids themselves) when there is none."""
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    # read the file ourselves: gettext.translation() keeps every catalog it ever
    # loaded, so a long-lived process would never see a recompiled one
    path = os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", DOMAIN + ".mo")
    if not os.path.exists(path):
        return gettext.NullTranslations()
    with open(path, "rb") as fh:
        return gettext.GNUTranslations(fh)


@lru_cache(maxsize=1)
def available_languages() -> tuple[str, ...]:
    """English, then every language whose compiled catalog is installed, in code order.

    The one list of the engine's languages: a language is accepted (by the
    table's requests, the command line) as soon as its catalog ships, with no
    list to edit. Compiling the catalogs clears this (and the translations)
    for a long-lived process.
    """
    found: set[str] = set()
    if os.path.isdir(LOCALE_DIR):
        found = {d for d in os.listdir(LOCALE_DIR) if os.path.exists(os.path.join(LOCALE_DIR, d, "LC_MESSAGES", DOMAIN + ".mo"))}
    return (SOURCE_LANGUAGE,) + tuple(sorted(found - {SOURCE_LANGUAGE}))


def digits(text: str, lang: str) -> str:
    """Write the Latin digits of ``text`` in the language's own digits (no other change)."""
    return text.translate(_DEVANAGARI_DIGITS) if lang == "ne" else text


# -- numbers ---------------------------------------------------------------------------
#
# Every number a reader sees goes through number(): scores, totals, counts, money,
# percentages, rates, sample sizes, in messages (format_text fills int and float
# placeholders with it), in the table's view and in the site's generated pages.
# One set of rules per language: the decimal sign, the thousands sign (Nepali
# groups by two above the thousands: १,००,०००), the digits, and a real minus sign.

#: Decimal separator by language (others: ".").
DECIMAL_SIGN: Final = {"fr": ",", "nl": ","}
#: Thousands separator by language (others: ","): French a narrow no-break space.
GROUP_SIGN: Final = {"fr": "\u202f", "nl": "."}
#: Whole parts of at least this many digits are grouped (1,000; 1 000; 1.000; १,०००).
GROUP_FROM: Final = 4
_NUMBER_TOKEN = re.compile(r"(?<![\w.,])([+\-−]?)(\d+)(?:\.(\d+))?(?![\w])")


def _group(whole: str, lang: str) -> str:
    if len(whole) < GROUP_FROM:
        return whole
    sign = GROUP_SIGN.get(lang, ",")
    if lang == "ne":
        head, tail = whole[:-3], whole[-3:]
        pairs: list[str] = []
        while len(head) > 2:
            pairs.insert(0, head[-2:])
            head = head[:-2]
        return sign.join([head, *pairs, tail])
    groups: list[str] = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    return sign.join([whole, *groups])


def _number_token(match: re.Match[str], lang: str, signed: bool) -> str:
    sign, whole, fraction = match.group(1), match.group(2), match.group(3)
    negative = sign in ("-", "−") and (int(whole) != 0 or bool(fraction and int(fraction)))
    text = _group(whole, lang)
    if fraction is not None:
        text += DECIMAL_SIGN.get(lang, ".") + fraction
    if negative:
        text = "−" + text
    elif sign == "+" or (signed and (int(whole) != 0 or bool(fraction and int(fraction)))):
        text = "+" + text
    return text


def number(n: int | float | str, lang: str, *, signed: bool = False, decimals: int | None = None) -> str:
    """A number as a reader of ``lang`` writes it: ``number(-2.2, "fr", decimals=2) == "−2,20"``,
    ``number(20000, "fr") == "20\u202f000"``, ``number("0.05", "nl") == "0,05"``,
    ``number(100000, "ne") == "१,००,०००"``; ``signed`` writes ``+`` before a positive value.

    A text may hold several numbers and other signs ("11/12/13", "<1", "0.05"):
    each number in it is formatted, the rest kept. Negative zero is zero.
    """
    if isinstance(n, bool):
        n = int(n)
    if isinstance(n, float):
        text = f"{n:.{decimals}f}" if decimals is not None else repr(n)
    elif isinstance(n, int):
        text = f"{n:.{decimals}f}" if decimals else str(n)
    else:
        text = n
    first = [signed]  # ``signed`` concerns the value, written first

    def token(match: re.Match[str]) -> str:
        shown = _number_token(match, lang, first[0])
        first[0] = False
        return shown

    return digits(_NUMBER_TOKEN.sub(token, text), lang)


def count_text(n: int, lang: str) -> str:
    """:func:`number` under its former name (the engine and the site call ``number``)."""
    return number(n, lang)


def read_decimal(text: str, lang: str) -> str:
    """A decimal number as a reader of ``lang`` types it, in the engine's form.

    ``0,05`` and ``0.05`` both read as ``0.05`` where a comma is the
    language's decimal separator (French, Dutch); Devanagari digits read as
    digits. Anything else is returned stripped, for the caller to refuse.
    """
    t = text.strip().translate(_LATIN_DIGITS)
    if DECIMAL_SIGN.get(lang) == "," and t.count(",") == 1 and "." not in t:
        t = t.replace(",", ".")
    return t


class Translator:
    """One language's view of the catalogs: ``t("msgid", name=value)``."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._t = translations(lang)

    def __call__(self, msgid: str, /, **params: object) -> str:
        template = self._t.gettext(msgid)
        return format_text(template, _lone_jokers(msgid, template, params, self.lang), self.lang)

    def plural(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        params.setdefault("count", n)
        template = self._t.ngettext(singular, plural, n)
        return format_text(template, _lone_jokers(singular, template, params, self.lang), self.lang)

    def raw(self, msgid: str) -> str:
        """The translated template itself (placeholders left in), with the language's typography."""
        return typography(self._t.gettext(msgid), self.lang)


@cache
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
# guillemets, a narrow one (U+202F) before ; ! ? and before the % after a
# number ("25 %"). Translations are written with
# ordinary spaces or none; every generated text passes through typography()
# (format_text, Translator.raw; the site glue passes its templates' output and
# its French pages through typography_html()), so the rule is kept in this one
# place.

NBSP: Final = "\u00a0"
NNBSP: Final = "\u202f"
# a space (or none, after a word) before : ; ! ? », when the mark ends a phrase
_FR_BEFORE = re.compile(r"(?:[ \u00a0\u202f]|(?<=[^\s(\[«“‘/:;!?]))([:;!?»])(?=[\s)\].,»]|$)")
_FR_AFTER_GUILLEMET = re.compile(r"«[ \u00a0\u202f]?")
# a space (or none) between a number and its % sign, when the sign ends the figure
_FR_PERCENT = re.compile(r"(?<=[0-9०-९])[ \u00a0\u202f]?%(?=[\s)\].,;:!?»]|$)")
_TYPOGRAPHY_LANGS: Final = frozenset({"fr"})


_ENTITY_START = re.compile(r"&#?\w+$")


def _fr_space(match: re.Match[str]) -> str:
    mark = match.group(1)
    if mark == ";" and match.group(0) == ";" and _ENTITY_START.search(match.string, 0, match.start()):
        return mark  # the end of an HTML entity (&amp;), not a semicolon
    return (NBSP if mark in ":»" else NNBSP) + mark


def typography(text: str, lang: str) -> str:
    """``text`` with the language's spacing around punctuation ("Pris\u00a0: 25", "«\u00a0Jhyap\u00a0»",
    "25\u202f%")."""
    if lang not in _TYPOGRAPHY_LANGS or not text:
        return text
    text = _FR_BEFORE.sub(_fr_space, text)
    text = _FR_PERCENT.sub(NNBSP + "%", text)
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
    if isinstance(value, (int, float)):
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



# Cards in running text. The engine's messages carry cards as printed (``K♠``,
# ``10♥``, ``Jk1``): a page that draws them as card badges finds them there.
# Where the text is read as it is (the table's status line, its log, the hint,
# a refusal, the review), every language writes a card as printed on it, with
# its Latin index (``K♠``, ``10♥``; never ``१०♥``: the glossary's rule), and a
# joker, which has no index, by its name in the reader's language with a
# capital, as a card's name on its face (``Joker``, ``जोकर``), never its token.
# A joker that fills a message's field alone is a noun of the sentence, with
# its article ("You draw a joker", "The joker is not in your hand"): the
# translator writes it so when it fills the field (``_lone_jokers``).
_JOKER_TOKEN = re.compile(r"(?<![A-Za-z0-9])Jk([12])(?![A-Za-z0-9])")


#: A joker standing alone in running text, with the language's article: "The joker" where
#: the sentence opens with the card (a sentence about that card: "The joker is not in your
#: hand"), "a joker" elsewhere ("You draw a joker from the stock"). A joker in a list of
#: printed cards keeps its printed name ("You throw 5♠ Joker").
JOKER_OPENING: Final = N_("The joker")
# TRANSLATORS: a joker standing alone inside a sentence ("You draw a
# joker from the stock.", "Only the top card of the pile, a joker, may
# be taken."), with the article your language puts there; a sentence
# that opens with the joker uses "The joker".
JOKER_RUNNING: Final = N_("a joker")
#: The fields of the engine's messages that hold cards (a card's token, or a list of them).
CARD_FIELDS: Final = frozenset({"card", "cards", "top", "exposed"})
_SENTENCE_OPENING = re.compile(r"(?:^|[.!?।]\s+)$")


def _lone_jokers(msgid: str, template: str, params: Mapping[str, object], lang: str) -> Mapping[str, object]:
    """``params`` with each field that holds one joker token alone (``Jk1``, or a list of just
    that card) as the joker in running text: the opening form where ``template`` (the
    translation of ``msgid``) opens a sentence or a title with the field, the running form
    elsewhere (:data:`JOKER_RUNNING`), and in a phrase that goes inside another sentence (a
    msgid that starts with a small letter, "take {card} from the pile") wherever it stands."""
    lone = [k for k, v in params.items() if k in CARD_FIELDS and _joker_token(v)]
    if not lone:
        return params
    t = translator(lang)
    out = dict(params)
    phrase = msgid[:1].islower()
    for key in lone:
        at = template.find("{" + key + "}")
        opening = at >= 0 and not phrase and _SENTENCE_OPENING.search(template, 0, at) is not None
        out[key] = t(JOKER_OPENING if opening else JOKER_RUNNING)
    return out


def _joker_token(value: object) -> bool:
    if isinstance(value, (list, tuple)) and len(value) == 1:
        value = value[0]
    return isinstance(value, str) and _JOKER_TOKEN.fullmatch(value.strip()) is not None


def card_words(card: C.Card | str, lang: str) -> str:
    """One card as running text in ``lang`` writes it: as printed (``K♠``, ``10♥``), a joker
    by its name (``Joker`` in English, ``जोकर`` in Nepali)."""
    c = C.parse_card(card) if isinstance(card, str) else card
    if not C.is_joker(c):
        return C.card_text(c)
    name = translator(lang)(JOKER_NAME)
    return name[:1].upper() + name[1:]


def cards_in_words(text: str, lang: str) -> str:
    """``text`` (an engine message) with each card in it as running text writes it
    (:func:`card_words`): the printed cards as they are, a joker's token as its name.
    The one place that writes cards for running text: every text the table reads out
    goes through it."""
    if not text:
        return text
    return _JOKER_TOKEN.sub(lambda m: card_words(C.JOKERS[int(m.group(1)) - 1], lang), text)
