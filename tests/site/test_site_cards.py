"""Card tokens in text become named, coloured cards; nothing else is touched."""

from __future__ import annotations

import re

import pytest
from mkdocs.exceptions import Abort

from dhumbal_site.content.cards import rewrite_cards
from tests.site.sitecheck import fake_card_name

LANGS = frozenset({"en", "fr", "nl", "ne"})


def cards(html: str, lang: str = "en", **kwargs: object) -> str:
    return rewrite_cards(html, lang=lang, namer=fake_card_name, languages=LANGS, **kwargs)  # type: ignore[arg-type]


def test_a_card_token_becomes_an_image_named_by_the_engine() -> None:
    assert cards("<p>Lead K♠ now.</p>") == (
        '<p>Lead <span class="dhc dhc--inline dhc--s" role="img" aria-label="King of spades (en)" data-card="KS">'
        '<span class="dhc__r" aria-hidden="true">K</span><span class="dhc__s" aria-hidden="true">♠\ufe0e</span>'
        '</span> now.</p>'
    )


def test_every_rank_and_suit_is_recognised_and_red_suits_are_red() -> None:
    out = cards("<p>A♠ 2♥ 3♦ 4♣ 5♠ 6♥ 7♦ 8♣ 9♠ 10♥ J♦ Q♣ K♠</p>")
    assert len(re.findall(r'role="img"', out)) == 13
    assert out.count("dhc--h") + out.count("dhc--d") == 6 and out.count("dhc--s") + out.count("dhc--c") == 7
    assert 'aria-label="10 of hearts (en)"' in out


def test_outline_suits_and_variation_selectors_are_the_same_cards() -> None:
    out = cards("<p>Q♡ 7♢ J♤ 4♧ K♥\ufe0f</p>")
    for name, glyphs in [("Queen of hearts", "Q♥"), ("7 of diamonds", "7♦"), ("Jack of spades", "J♠"),
                         ("4 of clubs", "4♣"), ("King of hearts", "K♥")]:
        rank, suit = glyphs[:-1], glyphs[-1]
        assert (f'aria-label="{name} (en)" data-card="{rank}{"SHDC"["♠♥♦♣".index(suit)]}">'
                f'<span class="dhc__r" aria-hidden="true">{rank}</span>'
                f'<span class="dhc__s" aria-hidden="true">{suit}\ufe0e</span>') in out
    assert "\ufe0f" not in out


def test_tokens_glued_to_letters_or_digits_are_not_cards() -> None:
    assert cards("<p>XK♠ 110♠ 1♠ K♠Q♥</p>").count('role="img"') == 2  # K♠ and Q♥ only


@pytest.mark.parametrize(
    "html",
    [
        "<p><code>K♠</code></p>",
        "<pre><code>10♥ Q♦</code></pre>",
        "<p><kbd>A♣</kbd></p>",
        '<p title="K♠"><a href="#K♠" data-x="Q♥">text</a></p>',
        "<script>var c = 'K♠'; if (a < b) {}</script>",
        "<style>.x::after { content: 'K♠' }</style>",
        '<h2 id="k">Hand<a class="headerlink" href="#k" title="Permanent link">K♠</a></h2>',
        '<div class="toc"><ul><li><a href="#a">Lead K♠</a></li></ul></div>',
        '<div class="dh-no-cards"><p>K♠</p></div>',
        '<table data-dh-no-cards><tr><td>K♠</td></tr></table>',
        "<!-- K♠ -->",
        "<p>x &amp; y &lt;K&gt; &#9824;</p>",
    ],
)
def test_code_attributes_scripts_anchors_and_tocs_are_left_alone(html: str) -> None:
    assert cards(html) == html


def test_heading_text_is_rewritten_but_not_its_permalink() -> None:
    html = '<h2 id="k">Lead K♠<a class="headerlink" href="#k" title="Permanent link">¶</a></h2>'
    out = cards(html, permalink_title="Lien permanent")
    assert 'aria-label="King of spades (en)"' in out
    assert '<a class="headerlink" href="#k" title="Lien permanent">¶</a>' in out


def test_card_names_follow_the_lang_of_the_enclosing_element() -> None:
    out = cards('<div lang="ne"><p>K♠ <span lang="fr-FR">K♠</span></p></div><p>K♠</p>', lang="en")
    assert [m for m in re.findall(r"\((\w+)\)", out)] == ["ne", "fr", "en"]


def test_unknown_lang_attributes_keep_the_page_language() -> None:
    out = cards('<p lang="de">K♠</p>', lang="nl")
    assert "(nl)" in out


def test_markup_outside_the_cards_is_unchanged_byte_for_byte() -> None:
    html = '<p class="x"  data-a=\'1\'>A <b>bold</b> &amp; K♠<br/>\n<img alt="K♠" src="x.png"></p>'
    out = cards(html)
    assert out.replace(re.search(r'<span class="dhc .*?</span></span>', out).group(0), "K♠") == html


def test_an_engine_error_names_the_card() -> None:
    def broken(card: str, lang: str) -> str:
        raise KeyError(card)

    with pytest.raises(KeyError, match="K♠"):
        rewrite_cards("<p>K♠</p>", lang="en", namer=broken, languages=LANGS)


# -- in a build -------------------------------------------------------------------

PAGES = {
    "en/index.md": "# Home\n\nHold K♠ and 10♥; type `Q♦`.\n\n## Lead A♣\n",
    "fr/index.md": "# Accueil\n\nTenez K♠.\n",
    "en/hands.md": "# Hands\n\nDiscard J♦.\n",
    "en/contribute.md": "# Contribute\n",
}


def test_cards_in_built_pages_are_named_in_the_text_language(tree, card_names) -> None:
    built = tree.build(PAGES, nav=[{"Home": "index.md"}, "hands.md", "contribute.md"])
    home = built.html("")
    assert 'aria-label="King of spades (en)"' in home and 'aria-label="10 of hearts (en)"' in home
    assert "<code>Q♦</code>" in home
    assert 'aria-label="Ace of clubs (en)"' in home  # heading text
    assert 'aria-label="King of spades (fr)"' in built.html("fr/")
    # An untranslated page shows English text, so its cards are named in English
    # (the text is marked lang="en" inside the Dutch page).
    dutch = built.html("nl/hands/")
    assert 'aria-label="Jack of diamonds (en)"' in dutch
    assert '<div lang="en">' in dutch
    # Permalink titles are translated.
    assert 'title="Permanent link"' not in built.html("fr/")


def test_a_failing_card_name_fails_the_build_naming_the_page(tree, monkeypatch) -> None:
    from dhumbal_site.plugin import build

    def broken(card: str, lang: str) -> str:
        raise ValueError("no such card")

    monkeypatch.setattr(build, "engine_card_name", lambda: broken)
    with pytest.raises(Abort):
        tree.build({"en/index.md": "# Home\n\nK♠\n", "en/contribute.md": "# C\n"})
    assert "en/index.md: dhumbal.core.i18n.card_name('K♠', 'en') failed (ValueError): no such card" in tree.errors()
