"""What every part of the table's HTML shares: escaping, attributes, card faces in text, buttons.

Every text is escaped here for where it lands (:func:`esc` quotes too, so
the same call serves text and attribute values); cards are drawn by
:mod:`dhumbal.view.cardface`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape

from ..core import cards as C
from ..core.i18n import Translator, number
from ..core.profiles import Profile
from . import cardface


def esc(text: object) -> str:
    """``text`` escaped for HTML text and for a quoted attribute value alike."""
    return escape(str(text), quote=True)


def attributes(values: Mapping[str, str | None]) -> str:
    """`` name="value"`` for each attribute (a bare name for ``""``, nothing for ``None``), values escaped."""
    return "".join(f' {k}="{esc(v)}"' if v != "" else f" {k}" for k, v in values.items() if v is not None)


def card_span(card: C.Card, lang: str) -> str:
    """A card shown (not played): the shared card face, named in ``lang``."""
    return cardface.face(card, lang, size="sm")


def cards_spans(cards: Iterable[C.Card], lang: str) -> str:
    """Cards shown side by side (see :func:`card_span`)."""
    return "".join(card_span(c, lang) for c in cards)


def signed(n: int, lang: str) -> str:
    """A score with its sign (``+5``, ``−5``; ``0`` bare), in the language's digits."""
    return number(n, lang, signed=True) if n else number(0, lang)


def with_cards(t: Translator, msgid: str, key: str, cards: Sequence[C.Card], lang: str, **params: object) -> str:
    """A translated text with small card faces in place of its ``{key}`` placeholder (escaped HTML)."""
    marker = "\x00"
    text = t(msgid, **{key: marker}, **params)
    faces = "".join(cardface.face(c, lang, size="inline") for c in cards)
    return faces.join(esc(part) for part in text.split(marker))


def with_card_in_text(text: str, card: C.Card, lang: str) -> str:
    """``text`` (already translated) with the card's printed name drawn as a small face."""
    printed = C.card_text(card)
    if printed not in text:
        return esc(text)
    return cardface.face(card, lang, size="inline").join(esc(part) for part in text.split(printed))


def button(label: str, *, action: str | None = None, op: str | None = None, cls: str = "",
            enabled: bool = True, live: bool = True, extra: Mapping[str, str | None] | None = None,
            inner: str | None = None) -> str:
    """A table button: ``data-action`` (an engine action) or ``data-op`` (a session operation);
    ``enabled=False`` marks it ``aria-disabled`` (it stays focusable), ``live=False``
    disables it (a pre-rendered table before the engine runs)."""
    a: dict[str, str | None] = {"type": "button", "class": ("dht-btn " + cls).strip()}
    if action is not None:
        a["data-action"] = action
    if op is not None:
        a["data-op"] = op
    if not enabled:
        a["aria-disabled"] = "true"
    if not live:
        a["disabled"] = ""
    a.update(extra or {})
    return f"<button{attributes(a)}>{inner if inner is not None else esc(label)}</button>"


def ordered(hand: Sequence[C.Card], sort: bool, profile: Profile) -> list[C.Card]:
    """The hand as dealt, or, sorted, lightest first under ``profile`` (a jack
    worth 0 comes first in the zero-J profile) and jokers last; cards of equal
    worth by rank, then suit."""
    if not sort:
        return list(hand)
    return sorted(hand, key=lambda c: (C.is_joker(c), profile.value(c), C.sort_key(c)))
