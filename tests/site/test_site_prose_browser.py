"""The article's prose parts in Chromium: drawn when the reader nears them, never lost.

A rules page's long runs of prose are laid out only near the screen
(content/prose.py): the first layout, which Material's script forces as the
page loads, is then only what the reader sees. Their text must still be
there for an anchor, the table of contents and print.
"""

from __future__ import annotations

PHONE = {"viewport": {"width": 360, "height": 780}}
#: Whether the first element of each part is drawn (false while the part is skipped).
DRAWN = """() => [...document.querySelectorAll('.dh-prose')].map(
    part => part.firstElementChild.checkVisibility({contentVisibilityAuto: true}))"""


def test_the_prose_far_down_a_page_is_drawn_only_when_the_reader_nears_it(site, page_factory) -> None:
    page, _ = page_factory(**PHONE)
    page.goto(site.server.url + "ne/rules/nepali-games/", wait_until="load")
    drawn = page.evaluate(DRAWN)
    assert len(drawn) >= 8, drawn
    # only what is near the screen is drawn: the last parts are not, yet their words are there
    assert drawn[-3:] == [False, False, False], drawn
    last = page.locator(".dh-prose").last
    assert "".join(last.text_content().split())
    last.scroll_into_view_if_needed()
    page.wait_for_function(f"() => ({DRAWN})().at(-1)")
    # printed, every part is drawn
    page.emulate_media(media="print")
    page.wait_for_function(f"() => ({DRAWN})().every(Boolean)")


def test_a_link_to_a_heading_far_down_lands_on_it_with_its_prose_drawn(site, page_factory) -> None:
    for lang in ("", "ne/"):
        page, _ = page_factory(fresh=True, **PHONE)
        page.goto(site.server.url + lang + "rules/nepali-games/#the-computer-opponents", wait_until="load")
        page.wait_for_function(
            "() => { const top = document.getElementById('the-computer-opponents').getBoundingClientRect().top;"
            " return top >= 0 && top < innerHeight / 3; }")
        # the part right after the heading is drawn
        drawn = page.evaluate("""() => {
            const heading = document.getElementById('the-computer-opponents');
            const next = heading.nextElementSibling;
            return next.classList.contains('dh-prose') && next.firstElementChild.checkVisibility({contentVisibilityAuto: true}); }""")
        assert drawn, lang
        page.context.close()
