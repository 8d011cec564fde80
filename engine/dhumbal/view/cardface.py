"""Playing cards drawn as HTML: the one card renderer of the site and the table.

Prose badges (``K♠`` in running text), the worked examples' diagrams and the
mini table all draw cards with these functions, so a card looks and reads the
same everywhere. The look is in ``browser/styles/cards.css``
(faces, backs, sizes, four-colour suits and the marks a card can carry); the
markup is plain text glyphs, no image or font from elsewhere.

A card is an image with a name: ``role="img"`` and an ``aria-label`` with the
card's name in the page's language (from the catalogs), while its printed
indices are hidden from assistive technology. Where a card is a control (a
hand card the reader marks, a pile card to take), the caller wraps
:func:`face_inner` in its own button and gives the button its name.

Face-down cards: :func:`back` (one card) and :func:`backs` (a hidden hand
or a stack, one back per card, named as a group: "5 cards").

Sizes: ``inline`` (a badge in a line of text: rank and suit side by side),
``sm`` (diagrams), ``md`` (the table's hand and pile), ``lg``. Marks are CSS
modifier classes (see :data:`MARKS`), so the renderer stays free of any rule:
whoever knows that a card may be taken or may not be thrown back says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Final, Literal

from ..core import cards as C
from ..core.i18n import card_name

Size = Literal["inline", "sm", "md", "lg"]
SIZES: Final = ("inline", "sm", "md", "lg")

#: Suit letter used in class names, by suit index; ``j`` is a joker.
SUIT_CLASS: Final = ("s", "h", "d", "c")
#: Text presentation selector: keeps ♥ ♦ ♣ ♠ from turning into emoji pictures.
TEXT_VS: Final = "\ufe0e"

#: The marks a card can carry (modifier classes, styled in cards.css).
MARKS: Final[Mapping[str, str]] = {
    "selected": "dhc--sel",  # marked by the reader for a throw
    "takable": "dhc--take",  # may be taken now
    "dim": "dhc--dim",  # part of the last throw that may not be taken
    "new": "dhc--new",  # just taken this turn
    "barred": "dhc--barred",  # may not be thrown back this turn
    "changed": "dhc--changed",  # moved since the previous step (diagrams)
}


def suit_class(card: C.Card) -> str:
    """``s``, ``h``, ``d``, ``c`` or ``j`` (joker)."""
    return "j" if C.is_joker(card) else SUIT_CLASS[C.suit_of(card)]


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _classes(base: Iterable[str], marks: Iterable[str], extra: Iterable[str]) -> str:
    out = list(base)
    for m in marks:
        try:
            out.append(MARKS[m])
        except KeyError:
            raise ValueError(f"unknown card mark {m!r}; known: {', '.join(MARKS)}") from None
    out.extend(c for c in extra if c)
    return " ".join(out)


def _attrs(values: Mapping[str, str | None]) -> str:
    return "".join(f' {k}="{_e(v)}"' if v != "" else f" {k}" for k, v in values.items() if v is not None)


def index_text(card: C.Card) -> tuple[str, str]:
    """The printed index: (rank, suit glyph); a joker prints ``★`` over ``JOKER``."""
    if C.is_joker(card):
        return "★", ""
    return C.RANK_TEXT[C.rank_of(card)], C.SUIT_SYMBOLS[C.suit_of(card)] + TEXT_VS


def face_inner(card: C.Card, size: Size = "md") -> str:
    """The printed face of ``card`` (hidden from assistive technology), for a wrapper to name.

    The index (rank over suit) sits in the top-left corner, where it stays
    readable when cards overlap in a fanned hand; a large pip fills the
    lower right. A joker prints a star and the word JOKER.
    """
    rank, suit = index_text(card)
    if size == "inline":
        return (f'<span class="dhc__r" aria-hidden="true">{_e(rank)}</span>'
                f'<span class="dhc__s" aria-hidden="true">{_e(suit)}</span>')
    if C.is_joker(card):
        return (f'<span class="dhc__i" aria-hidden="true"><span class="dhc__r">{_e(rank)}</span></span>'
                '<span class="dhc__pip dhc__pip--joker" aria-hidden="true">JOKER</span>')
    return (f'<span class="dhc__i" aria-hidden="true"><span class="dhc__r">{_e(rank)}</span>'
            f'<span class="dhc__s">{_e(suit)}</span></span>'
            f'<span class="dhc__pip" aria-hidden="true">{_e(suit)}</span>')


def face_classes(card: C.Card, size: Size = "md", *, marks: Iterable[str] = (), extra: Iterable[str] = ()) -> str:
    """The class list of a card face (for a caller that draws its own wrapper, e.g. a button)."""
    return _classes(("dhc", f"dhc--{size}", f"dhc--{suit_class(card)}"), marks, extra)


def face(
    card: C.Card,
    lang: str,
    *,
    size: Size = "md",
    marks: Iterable[str] = (),
    label: str | None = None,
    extra_classes: Iterable[str] = (),
    attrs: Mapping[str, str | None] | None = None,
) -> str:
    """A card shown face up: an image named in ``lang`` (or by ``label``)."""
    a: dict[str, str | None] = {
        "class": face_classes(card, size, marks=marks, extra=extra_classes),
        "role": "img",
        "aria-label": label if label is not None else card_name(card, lang),
        "data-card": C.card_text(card, ascii=True),
    }
    a.update(attrs or {})
    return f"<span{_attrs(a)}>{face_inner(card, size)}</span>"


def faces(cards: Iterable[C.Card], lang: str, *, size: Size = "md", sep: str = "") -> str:
    return sep.join(face(c, lang, size=size) for c in cards)


def back(
    *,
    size: Size = "md",
    label: str | None = None,
    extra_classes: Iterable[str] = (),
    attrs: Mapping[str, str | None] | None = None,
) -> str:
    """A card face down. Without ``label`` it is decoration (hidden): name the group it is in."""
    a: dict[str, str | None] = {"class": _classes(("dhc", f"dhc--{size}", "dhc--back"), (), extra_classes)}
    if label is None:
        a["aria-hidden"] = "true"
    else:
        a["role"] = "img"
        a["aria-label"] = label
    a.update(attrs or {})
    return f"<span{_attrs(a)}></span>"


def backs(
    count: int,
    *,
    size: Size = "sm",
    label: str | None = None,
    extra_classes: Iterable[str] = (),
    attrs: Mapping[str, str | None] | None = None,
) -> str:
    """``count`` cards face down, overlapping: a hidden hand, or a stack.

    The group is one image named by ``label`` (e.g. "5 cards"), its backs
    decoration; without a label the whole group is hidden from assistive
    technology. ``data-count`` holds the number, so a script or a test can
    read it without counting.
    """
    if count < 0:
        raise ValueError(f"a count of cards cannot be negative: {count}")
    a: dict[str, str | None] = {"class": " ".join(["dhc-fan", f"dhc-fan--{size}", *[c for c in extra_classes if c]])}
    if label is None:
        a["aria-hidden"] = "true"
    else:
        a["role"] = "img"
        a["aria-label"] = label
    a["data-count"] = str(count)
    a.update(attrs or {})
    return f"<span{_attrs(a)}>{back(size=size) * count}</span>"


def inline(card: C.Card, lang: str) -> str:
    """A card named in running text: a small badge that keeps rank and suit together."""
    return face(card, lang, size="inline")
