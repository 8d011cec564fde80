"""The worked examples and the comparison in headless Chromium, on a phone
(360 × 780) and a laptop (1366 × 900), in every language: stepping through an
example with the mouse and the keyboard, every step readable without
JavaScript, the comparison without sideways scrolling and its "differences
only" switch, instant navigation, and axe-core on the narrow layouts.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from dhumbal.core.i18n import translator
from tests.axescan import axe_here
from tests.site.sitecheck import LANGUAGES, lang_prefix

PHONE = {"viewport": {"width": 360, "height": 780}}
LAPTOP = {"viewport": {"width": 1366, "height": 900}}
SIZES = {"phone": PHONE, "laptop": LAPTOP}
EXAMPLE = "#example-k-pair-discard"
#: What a step says when its diagram cannot be fetched (example.html).
FAILED = "The table for this step could not be loaded: you are offline and it was not kept. The step is told in words; try again once online."

VISIBLE_STEPS = f"""() => [...document.querySelectorAll('{EXAMPLE} .dh-step')]
  .map((li, i) => [i, li.getClientRects().length > 0]).filter(x => x[1]).map(x => x[0])"""
STEP_LABEL = f"i => document.querySelectorAll('{EXAMPLE} .dh-step')[i].querySelector('.dh-step__label').textContent"
WHERE = f"{EXAMPLE} .dh-stepper__where"


def _open(page_factory: Any, site: Any, path: str, size: dict[str, Any], **options: Any) -> Any:
    page, _ = page_factory(**size, **options)
    page.goto(site.server.url + path, wait_until="load")
    return page


def _shown(page: Any) -> list[int]:
    return page.evaluate(VISIBLE_STEPS)


def _at(page: Any, index: int) -> None:
    assert _shown(page) == [index]
    assert page.locator(WHERE).text_content() == page.evaluate(STEP_LABEL, index)


def _drawn(page: Any, index: int) -> None:
    """Step ``index``'s diagram is on screen (after the first, once fetched: boards.ts)."""
    page.wait_for_selector(f"{EXAMPLE}-step-{index} .dh-diagram .dh-dseats")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_step_through_an_example_by_mouse_and_keyboard(site: Any, page_factory: Any, lang: str, size: str) -> None:
    page = _open(page_factory, site, lang_prefix(lang) + "rules/nepali-games/", SIZES[size])
    page.wait_for_selector(f"{EXAMPLE}[data-stepper=on]")
    count = page.locator(f"{EXAMPLE} .dh-step").count()
    assert count == 7
    prev, nxt, every = (page.locator(f"{EXAMPLE} [data-step-go={go}]") for go in ("prev", "next", "all"))
    assert page.locator(f"{EXAMPLE} .dh-stepper").is_visible()
    _at(page, 0)
    assert prev.is_disabled() and nxt.is_enabled()

    nxt.click()  # mouse
    _at(page, 1)
    _drawn(page, 1)
    # the card just drawn is highlighted in the step shown
    assert page.locator(f"{EXAMPLE} .dh-step:not([hidden]) .dhc--changed").count() >= 1
    nxt.click()
    _at(page, 2)
    _drawn(page, 2)
    # the pile top is the last king thrown, and it is the card that may be taken
    top = page.locator(f"{EXAMPLE} .dh-step:not([hidden]) .dh-dpile .dhc--take")
    assert top.count() == 1 and top.get_attribute("data-card") == "KH"

    nxt.focus()  # keyboard
    page.keyboard.press("ArrowRight")
    _at(page, 3)
    assert "dh-step--refused" in (page.locator(f"{EXAMPLE} .dh-step:not([hidden])").get_attribute("class") or "")
    page.keyboard.press("ArrowLeft")
    _at(page, 2)
    page.keyboard.press("End")
    _at(page, count - 1)
    assert nxt.is_disabled()
    # the focus moved off the disabled button, so the keys still work
    page.keyboard.press("ArrowLeft")
    _at(page, count - 2)
    page.keyboard.press("Home")
    _at(page, 0)
    assert prev.is_disabled()

    every.click()
    assert _shown(page) == list(range(count))
    assert every.get_attribute("aria-pressed") == "true"
    every.click()
    _at(page, 0)
    assert no_sideways_scroll(page)


BOARDS = "**/assets/dhumbal/examples/*.*.*.json"


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_next_fetches_the_later_diagrams_once_and_says_so_in_the_page_language_when_it_cannot(
    site: Any, page_factory: Any, lang: str
) -> None:
    """Only the first step's diagram is in the page; Next fetches the others (once). If the
    file cannot be had, each step says so in the page's language, in the room the diagram
    keeps, with the step's words still there; the next move tries again."""
    page = _open(page_factory, site, lang_prefix(lang) + "rules/nepali-games/", PHONE, fresh=True)
    page.wait_for_selector(f"{EXAMPLE}[data-stepper=on]")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/assets/dhumbal/examples/" in r.url else None)
    assert page.locator(f"{EXAMPLE} .dh-dseats").count() == 1  # the first step's only
    page.route(BOARDS, lambda route: route.abort())
    first = page.evaluate(f"document.querySelector('{EXAMPLE}-step-0 .dh-diagram').getBoundingClientRect().height")
    prev, nxt = (page.locator(f"{EXAMPLE} [data-step-go={go}]") for go in ("prev", "next"))
    nxt.click()
    _at(page, 1)
    failed = page.locator(f"{EXAMPLE}-step-1 .dh-dlater__failed")
    failed.wait_for()
    text = failed.text_content() or ""
    assert text == translator(lang)(FAILED) and text == page.locator(f"{EXAMPLE} .dh-stepper").get_attribute("data-failed")
    assert page.locator(f"{EXAMPLE}-step-1 .dh-act").is_visible()  # the step told in words
    room = page.evaluate(f"document.querySelector('{EXAMPLE}-step-1 .dh-diagram').getBoundingClientRect().height")
    assert room >= first - 1, (room, first)  # the diagram's room is kept: nothing below jumps when it comes
    page.unroute(BOARDS)
    prev.click()
    _at(page, 0)
    nxt.click()
    _at(page, 1)
    _drawn(page, 1)
    came = len(asked)
    assert failed.count() == 0
    slot = page.locator(f"{EXAMPLE}-step-1 .dh-diagram")
    assert slot.get_attribute("role") == "group"
    assert slot.get_attribute("aria-label") == translator(lang)("The table after step {number}", number=1)
    nxt.click()
    _at(page, 2)
    _drawn(page, 2)
    prev.click()
    _at(page, 1)
    _drawn(page, 1)
    assert len(asked) == came, asked  # fetched once for the example, not once per step
    assert all(f".{lang}." in u for u in asked), asked
    assert no_sideways_scroll(page)


@pytest.mark.parametrize(
    "body",
    [
        '{"id": "k-pair-discard", "lang": "en", "boards": ["<img src=x onerror=alert(1)>"]}',
        '{"id": "turn-cap", "lang": "en", "boards": []}',
        '{"id": "k-pair-discard", "lang": "en", "boards": ["<p onclick=\\"x()\\">a</p>", "", "", "", "", ""]}',
        "[" * 5000,
        '{"id": "k-pair-discard", "lang": "en", "boards": ["' + "a" * 600_000 + '"]}',
    ],
)
def test_a_boards_file_not_of_the_builds_shape_is_refused_whole(site: Any, page_factory: Any, body: str) -> None:
    page = _open(page_factory, site, "rules/nepali-games/", PHONE, fresh=True)
    page.wait_for_selector(f"{EXAMPLE}[data-stepper=on]")
    page.route(BOARDS, lambda route: route.fulfill(status=200, content_type="application/json", body=body))
    page.locator(f"{EXAMPLE} [data-step-go=next]").click()
    page.locator(f"{EXAMPLE}-step-1 .dh-dlater__failed").wait_for()
    assert page.locator(f"{EXAMPLE} .dh-dseats").count() == 1
    assert page.locator(f"{EXAMPLE} img, {EXAMPLE} [onclick]").count() == 0


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_link_to_a_step_opens_that_step(site: Any, page_factory: Any) -> None:
    page = _open(page_factory, site, "rules/nepali-games/#example-k-pair-discard-step-5", PHONE)
    page.wait_for_selector(f"{EXAMPLE}[data-stepper=on]")
    _at(page, 5)


# Whether each example of the page is drawn: content-visibility
# leaves the ones far from the screen unstyled and unpainted until the reader
# comes near them.
DRAWN = """sel => [...document.querySelectorAll(sel)].map(e => e.firstElementChild.checkVisibility({contentVisibilityAuto: true}))"""
NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


@pytest.mark.parametrize("path, sel", [("rules/nepali-games/", ".dh-example")])  # the puzzles come one at a time
def test_examples_far_from_the_screen_are_drawn_when_the_reader_comes_near(
    site: Any, page_factory: Any, path: str, sel: str
) -> None:
    page = _open(page_factory, site, path, PHONE)
    page.evaluate(NEXT_FRAMES)
    drawn = page.evaluate(DRAWN, sel)
    assert len(drawn) >= 9 and not drawn[-1], drawn  # the last one waits
    last = page.locator(sel).last
    last.scroll_into_view_if_needed()
    # (an example in a part of the page's prose is drawn a frame after its part: content/prose.py)
    page.wait_for_function(f"sel => ({DRAWN})(sel).at(-1)", arg=sel)
    assert last.locator(".dhc").first.is_visible()
    # once drawn it keeps the room it took: back to the top and down again, the page is as long
    height = page.evaluate("document.documentElement.scrollHeight")
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate(NEXT_FRAMES)
    last.scroll_into_view_if_needed()
    page.wait_for_function(f"sel => ({DRAWN})(sel).at(-1)", arg=sel)
    assert page.evaluate("document.documentElement.scrollHeight") == height
    # printed, every one is drawn
    page.emulate_media(media="print")
    page.wait_for_function(f"sel => ({DRAWN})(sel).every(Boolean)", arg=sel)


@pytest.mark.parametrize("size", SIZES)
def test_a_link_to_a_step_far_down_the_page_lands_on_it(site: Any, page_factory: Any, size: str) -> None:
    page = _open(page_factory, site, "rules/nepali-games/#example-turn-cap-step-4", SIZES[size])
    page.wait_for_selector("#example-turn-cap[data-stepper=on]")
    page.evaluate(NEXT_FRAMES)
    step = page.locator("#example-turn-cap-step-4")
    assert step.is_visible()
    top = page.evaluate("document.getElementById('example-turn-cap-step-4').getBoundingClientRect().top")
    header = page.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom")
    assert header - 2 <= top <= header + 40, (top, header)


@pytest.mark.parametrize(
    "address",
    ["#%", "#table=%E0%A4", "#%E0%A4", "#example-k-pair-discard-step-%ZZ", "#" + "%" * 4000, "#example-k-pair-discard-step-5%"],
)
def test_a_malformed_address_leaves_every_example_working(site: Any, page_factory: Any, address: str) -> None:
    """A bad % escape in the address used to throw an uncaught URIError and leave
    every step-through control dead (issue 21, item 11); the page's watch fails
    the test on any uncaught script error."""
    page, _ = page_factory(fresh=True, **PHONE)  # its own init script
    # a browser that saves data: the table waits for a press instead of
    # fetching the engine for the #table= address
    page.context.add_init_script(
        "Object.defineProperty(navigator, 'connection', {value: {saveData: true, effectiveType: '4g'}, configurable: true});"
    )
    page.goto(site.server.url + "rules/nepali-games/" + address, wait_until="load")
    page.wait_for_selector(f"{EXAMPLE}[data-stepper=on]")
    assert page.locator(".dh-example[data-steps]:not([data-stepper])").count() == 0  # every example has its control
    if address.startswith("#table="):
        # A game's link opens the table over the whole screen of a phone: the reader closes it.
        page.wait_for_selector("#dh-table.dh-table--full")
        page.locator("#dh-table.dh-table--full [data-dht-close]").first.click()
        page.wait_for_selector("#dh-table.dh-table--full", state="detached")
    _at(page, 0)
    page.locator(f"{EXAMPLE} [data-step-go=next]").click()
    _at(page, 1)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_without_javascript_every_step_is_shown(site: Any, page_factory: Any, lang: str) -> None:
    page = _open(page_factory, site, lang_prefix(lang) + "rules/nepali-games/", PHONE, java_script_enabled=False)
    assert not page.locator(f"{EXAMPLE} .dh-stepper").is_visible()
    assert _shown(page) == list(range(page.locator(f"{EXAMPLE} .dh-step").count()))
    labels = page.locator(f"{EXAMPLE} .dh-step__label")
    assert all(labels.nth(i).is_visible() for i in range(labels.count()))
    # every diagram, cards and all, within the phone's width
    widths = page.evaluate(f"[...document.querySelectorAll('{EXAMPLE} .dh-diagram')].map(d => d.getBoundingClientRect().right)")
    assert widths and max(widths) <= 360


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_comparison_reads_without_sideways_scrolling(site: Any, page_factory: Any, lang: str, size: str) -> None:
    page = _open(page_factory, site, lang_prefix(lang) + "compare/", SIZES[size])
    assert no_sideways_scroll(page)
    rows = page.locator(".dh-compare tbody tr")
    total = rows.count()
    differing = page.locator(".dh-compare tbody tr.dh-differs").count()
    assert 0 < differing < total

    def shown() -> int:
        return int(page.evaluate("[...document.querySelectorAll('.dh-compare tbody tr')].filter(r => r.getClientRects().length).length"))

    assert shown() == total
    page.locator(".dh-compare .dh-switch").click()
    assert shown() == differing
    assert page.locator(".dh-compare tbody tr.dh-same").first.is_hidden()
    page.locator(".dh-compare .dh-switch").click()
    assert shown() == total
    if size == "phone":
        # one card per rule: the cells stack, each labelled with its profile
        label = page.locator(".dh-compare tbody tr").first.locator(".dh-cell-label").first
        assert label.is_visible()
        assert page.locator(".dh-compare thead").is_hidden()
    else:
        # the header stays in view below Material's header while the table scrolls
        page.locator(".dh-compare tbody tr").nth(12).scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, 200)")
        header_bottom = page.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom")
        top = page.evaluate("document.querySelector('.dh-compare thead th').getBoundingClientRect().top")
        assert abs(top - header_bottom) <= 2, (top, header_bottom)
    assert no_sideways_scroll(page)
    # the same deal under three rule sets reads on this screen too
    assert page.locator(".dh-samedeal__table tbody tr").count() >= 3


@pytest.mark.skipif(bool(os.environ.get("DHUMBAL_TABLE_SITE")), reason="a prebuilt site's sitemap does not name the test server")
def test_steppers_start_after_instant_navigation(site: Any, page_factory: Any) -> None:
    page = _open(page_factory, site, "compare/", LAPTOP)
    page.evaluate("window.__dhumbalSamePage = true")
    page.locator('.md-sidebar--primary a.md-nav__link[href$="rules/dashain/"]').first.click()
    page.wait_for_selector("#example-dashain-runs[data-stepper=on]")
    assert page.evaluate("window.__dhumbalSamePage") is True, "instant navigation did not happen"
    page.locator("#example-dashain-runs [data-step-go=next]").click()
    assert page.locator("#example-dashain-runs .dh-stepper__where").text_content().startswith("Step 1")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_serious_accessibility_violations_on_a_phone(site: Any, page_factory: Any, lang: str) -> None:
    problems = []
    page, _ = page_factory(**PHONE)  # one context: both pages are loaded afresh in it
    for path in ("compare/", "rules/dashain/"):
        page.goto(site.server.url + lang_prefix(lang) + path, wait_until="load")
        if path == "rules/dashain/":
            page.locator("#example-dashain-chandra-caught [data-step-go=next]").click()
        problems += [f"{path}: {v}" for v in axe_here(page)]
    assert not problems, "\n".join(problems)
