"""The one card renderer: named faces in the page's language, backs, marks."""

from __future__ import annotations

import re

import pytest

from dhumbal.core.cards import parse_card
from dhumbal.view import cardface


def test_a_face_is_an_image_named_in_the_page_language() -> None:
    en = cardface.face(parse_card("K♠"), "en")
    fr = cardface.face(parse_card("K♠"), "fr")
    assert 'role="img"' in en and 'aria-label="King of spades"' in en
    assert 'aria-label="roi de pique"' in fr
    # the printed glyphs are hidden from assistive technology
    assert all('aria-hidden="true"' in part for part in re.findall(r'<span class="dhc__(?:i|pip)[^>]*>', en))


@pytest.mark.parametrize("size", cardface.SIZES)
def test_every_size_prints_rank_and_suit_in_text_presentation(size: str) -> None:
    html = cardface.face(parse_card("10♥"), "en", size=size)  # type: ignore[arg-type]
    assert f"dhc--{size}" in html and "dhc--h" in html
    assert ">10<" in html and "♥\ufe0e" in html


def test_jokers_and_backs() -> None:
    joker = cardface.face(parse_card("Jk1"), "en")
    assert "dhc--j" in joker and "JOKER" in joker and 'aria-label="Joker"' in joker
    assert cardface.back() == '<span class="dhc dhc--md dhc--back" aria-hidden="true"></span>'
    assert 'role="img" aria-label="5 cards"' in cardface.back(label="5 cards")


def test_marks_become_classes_and_unknown_marks_are_refused() -> None:
    html = cardface.face(parse_card("A♣"), "en", marks=("takable", "new"))
    assert "dhc--take" in html and "dhc--new" in html
    with pytest.raises(ValueError, match="unknown card mark 'glow'"):
        cardface.face(parse_card("A♣"), "en", marks=("glow",))


def test_labels_and_attributes_are_escaped() -> None:
    html = cardface.face(parse_card("A♣"), "en", label='x" onload="y', attrs={"data-x": "<b>"})
    assert 'aria-label="x&quot; onload=&quot;y"' in html and 'data-x="&lt;b&gt;"' in html


def test_backs_draw_one_back_per_card_named_as_a_group() -> None:
    html = cardface.backs(5, label="5 cards")
    assert html.count("dhc--back") == 5 and 'role="img" aria-label="5 cards"' in html and 'data-count="5"' in html
    assert html.count('aria-hidden="true"') == 5  # each back is decoration; the group has the name
    assert cardface.backs(0, label="0 cards").count("dhc--back") == 0
    assert 'aria-hidden="true" data-count="3"' in cardface.backs(3)
    with pytest.raises(ValueError):
        cardface.backs(-1)
