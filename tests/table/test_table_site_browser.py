"""The mini table on the built site, end to end: the page's pre-rendered
table, the real runtime (Pyodide in a module Web Worker, the engine wheel),
the table script, and the engine answering in the page's language.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dhumbal.core.i18n import translator
from dhumbal.play import share
from dhumbal.play.deal import IllegalAction
from dhumbal.play.records import replay
from dhumbal.table import session, web
from dhumbal.view.loader import STATIC_NOTE
from dhumbal.view.table import TITLE
from dhumbal_site.content.table import PLAY_PROFILE
from dhumbal_site.runtime.assets import manifest_of
from tests.axescan import axe_here
from tests.table.tabledriver import (
    BOARD,
    TABLE,
    answers,
    author_seed,
    click,
    highest_card,
    no_horizontal_overflow,
    play_deal,
    shown_rows,
    start,
    status,
    stop_clock,
    table_hash,
    ui_move,
    wait_answer,
    wait_ready,
)
from tests.table.tablekit import LANGS, expected_rows, reader_moves, reference_replay
from tools.pagemodules import on_page, page_condition

Opener = Callable[..., tuple[Any, Any]]
RULES = {
    "en": ("rules/nepali-games/", "nepali-games"),
    "fr": ("fr/rules/dashain/", "dashain"),
    "nl": ("nl/rules/cardrulesplus/", "cardrulesplus"),
    "ne": ("ne/rules/nepali-games/", "nepali-games"),
}


def open_page(site_page: Opener, real_site: Any, path: str, **options: Any) -> tuple[Any, Any]:
    page, watch = site_page(**options)
    page.goto(real_site.server.url(path))
    return page, watch


def engine_requests(watch: Any) -> list[str]:
    return [u for u in watch.requested if "/assets/pyodide/" in u or "/assets/engine/" in u or u.endswith(".wasm")]


def test_reading_a_page_downloads_no_webassembly(site_page: Opener, real_site: Any) -> None:
    page, watch = site_page(fresh=True)
    page.clock.install()
    page.goto(real_site.server.url("ne/"))
    page.wait_for_load_state("networkidle")
    stop_clock(page)
    page.clock.run_for(60_000)  # a minute of reading, on the page's own clock
    root = page.locator(TABLE)
    assert root.get_attribute("data-state") == "static"
    assert root.get_attribute("data-lang") == "ne" and root.get_attribute("data-profile") == "nepali-games"
    # a fresh deal comes with Play: until then the reader's five cards lie face down
    assert page.locator(f"{BOARD} .dht-cards .dhc--back").count() == 5
    assert page.locator(f"{BOARD} :is([data-action], [data-op], .dht-card):not([disabled])").count() == 0
    # the note says what Play downloads: the runtime's size, as built
    total = manifest_of(Path(real_site.server.directory))["download"]["total"]
    megabytes = -(-total // 1_000_000)
    assert page.locator(f"{TABLE} .dht-when--static").inner_text() == translator("ne")(STATIC_NOTE, megabytes=megabytes)
    # the pointer passing over the table while the page scrolls is not intent either:
    # a turn of the wheel every 80 ms of the page's clock, each one seen to scroll
    page.mouse.move(180, 400)
    for _ in range(12):
        y = page.evaluate("scrollY")
        page.mouse.wheel(0, 600)
        page.wait_for_function("y => scrollY !== y || innerHeight + scrollY >= document.documentElement.scrollHeight - 1", arg=y)
        page.clock.run_for(80)
    page.clock.run_for(300)
    page.wait_for_load_state("networkidle")
    assert engine_requests(watch) == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_deal_against_the_bots_on_a_rules_page(site_page: Opener, real_site: Any, lang: str) -> None:
    path, profile = RULES.get(lang, (f"{lang}/rules/nepali-games/", "nepali-games"))
    page, watch = open_page(site_page, real_site, path, fresh=True)
    assert page.locator(TABLE).get_attribute("data-profile") == profile
    author_seed(page, profile)  # a short deal: the whole of it is played
    start(page)
    assert any(u.endswith(".wasm") for u in watch.requested)
    played = play_deal(page)
    assert played > 0
    # the rows shown are the engine's settlement of this game, recomputed here
    # from the shared link (engine calls only) and from the deal's transcript
    h = table_hash(page)
    ref = reference_replay(h)
    shown = shown_rows(page)
    for key, values in expected_rows(ref.match, ref.outcomes[0]).items():
        assert [v for v, _ in shown[key]] == [str(v) for v in values], key
    state = page.evaluate(
        on_page("runtime.request({op: 'state', table: 'dh-table', lang: lang})", 'lang'), lang
    )
    assert state["hash"] == h
    assert replay(state["summary"]["transcript"]).outcome == ref.outcomes[0]
    assert translator(lang)(session.PROMPT_DEAL_OVER) in status(page) or translator(lang)(session.PROMPT_MATCH_OVER) in status(page)


def test_keyboard_turn_refusal_and_shared_link(site_page: Opener, real_site: Any) -> None:
    page, _ = open_page(site_page, real_site, "rules/nepali-games/")
    page.locator(TABLE).scroll_into_view_if_needed()
    page.locator(f"{TABLE} [data-dht-play]").focus()  # focus on Play: the engine starts, nothing is dealt under it
    page.keyboard.press("Enter")
    wait_ready(page)
    assert page.evaluate("document.activeElement.dataset.key") == "take-stock"
    before = answers(page)
    page.keyboard.press("Enter")
    wait_answer(page, before)
    assert page.evaluate("document.activeElement.matches('.dht-card[aria-pressed]')")
    page.keyboard.press("Space")
    marked = page.evaluate("document.activeElement.dataset.card")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action === 'throw'"):
            break
    before = answers(page)
    page.keyboard.press("Enter")
    wait_answer(page, before)
    assert reader_moves(table_hash(page)) == ["s,t" + marked]
    # a refusal: throwing before taking a card
    if page.locator(BOARD).get_attribute("data-over") == "false":
        highest_card(page).click()
        click(page, page.locator(f'{BOARD} [data-action="throw"]'))
        assert status(page) == IllegalAction("must-take-first").text("en")
        ui_move(page)
    # the shared link opens the same position in a new page
    url = page.url
    cards = "els => els.map(e => e.dataset.card)"
    hand = page.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all(cards)
    log = page.locator(f"{BOARD} .dht-log").inner_text()
    seats = page.locator(f"{BOARD} .dht-seats").inner_html()
    other, _ = open_page(site_page, real_site, url.split(real_site.server.origin)[1])
    wait_ready(other)
    assert other.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all(cards) == hand
    assert other.locator(f"{BOARD} .dht-log").inner_text() == log
    assert other.locator(f"{BOARD} .dht-seats").inner_html() == seats
    assert table_hash(other) == table_hash(page)


def test_the_table_is_accessible_and_fits_360_px(site_page: Opener, real_site: Any) -> None:
    page, _ = open_page(site_page, real_site, "ne/rules/nepali-games/", viewport={"width": 360, "height": 740})
    assert no_horizontal_overflow(page)
    assert axe_here(page, TABLE) == []
    author_seed(page, "nepali-games")
    start(page)  # on a phone: the full table
    page.locator(f"{TABLE} .dht-settings summary").click()
    assert axe_here(page, TABLE) == []
    assert no_horizontal_overflow(page)
    page.locator(f"{TABLE} .dht-settings summary").click()  # the settings, open over the full table, closed
    play_deal(page)
    assert axe_here(page, TABLE) == []
    assert no_horizontal_overflow(page)


def test_play_from_a_worked_example(site_page: Opener, real_site: Any) -> None:
    page, _ = open_page(site_page, real_site, "examples/")
    buttons = page.locator(".dh-play-from")
    assert buttons.count() > 0, "the worked examples must offer 'play from here'"
    button = buttons.first
    example = button.evaluate("b => b.parentElement.closest('.dh-example, [data-example]').id")
    # (its position at the first step, as the build wrote it beside the page code)
    state = page.evaluate("async (id) => (await (await fetch('/assets/dhumbal/examples/' + id + '.json')).json())"
                          ".states[0]", button.get_attribute("data-example"))
    button.click()
    wait_ready(page)
    page.wait_for_function("() => document.querySelector('#dh-table .dht-play-area[data-your-turn=\"true\"]')")
    # the table opens right after the example, and Back takes it home and the reader to the example
    assert page.evaluate("id => document.getElementById(id).nextElementSibling.id", example) == "dh-table"
    me = state["turn"]
    from dhumbal.core.cards import card_text, parse_card

    cards = page.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert [card_text(parse_card(c)) for c in cards] == state["hands"][me]
    data = share.decode_hash(table_hash(page))
    assert share.expand_state(data["x"])["hands"] == state["hands"]
    page.go_back()
    page.wait_for_function("() => !document.querySelector('#dh-table').classList.contains('dh-table--docked')")
    # the example comes back into view (the page may scroll smoothly there)
    page.wait_for_function("id => { const r = document.getElementById(id).getBoundingClientRect();"
                           " return r.top < innerHeight && r.bottom > 0; }", arg=example)
    assert page.evaluate("document.activeElement.matches('.dh-play-from')")


def test_a_page_whose_table_was_not_played_gets_no_game_in_its_address(site_page: Opener, real_site: Any) -> None:
    if os.environ.get("DHUMBAL_TABLE_SITE"):
        pytest.skip("a prebuilt site's sitemap does not name the test server, so instant navigation is off")
    page, _ = site_page()
    page.clock.install()
    page.goto(real_site.server.url("glossary/"))
    start(page)
    assert table_hash(page) == ""  # loaded, not played
    ui_move(page)
    assert table_hash(page)  # played: the game is in the address
    page.evaluate("document.querySelector('#dh-table').__left = true")
    page.locator('a[href$="/compare/"]').first.click()
    page.wait_for_function("() => location.pathname.endsWith('/compare/')")
    # the address changes before the content is swapped: wait for the new page's table,
    # which finds the engine loaded and offers the game played on the glossary (dealing nothing)
    page.wait_for_function(page_condition("{ const t = document.querySelector('#dh-table');"
                                   " return !!t && !t.__left && site.tableSetUp(t) && t.hasAttribute('data-resumable'); }"))
    page.clock.run_for(2000)  # whatever the page had yet to do in the next two seconds of its clock
    assert "#table=" not in page.url


def test_two_visits_deal_different_first_hands(site_page: Opener, real_site: Any) -> None:
    hands = []
    for _ in range(2):
        page, _ = open_page(site_page, real_site, "")
        start(page)
        hands.append(page.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all("els => els.map(e => e.dataset.card)"))
        page.close()
    assert hands[0] != hands[1]


def test_switching_language_keeps_the_game(site_page: Opener, real_site: Any) -> None:
    page, _ = open_page(site_page, real_site, "rules/dashain/")
    start(page)
    for _ in range(3):
        ui_move(page)
    hand = page.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all("els => els.map(e => e.dataset.card)")
    own = table_hash(page)
    page.evaluate("document.querySelector('.md-select__link[hreflang=\"ne\"]').click()")
    page.wait_for_function("() => location.pathname.startsWith('/ne/rules/dashain')")
    wait_ready(page)
    assert page.locator(TABLE).get_attribute("data-lang") == "ne"
    assert table_hash(page) == own
    assert page.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all("els => els.map(e => e.dataset.card)") == hand
    assert translator("ne")(web.NOTICE_RESTORED) not in status(page)  # the reader's own game, not a shared one
    box = page.locator(TABLE).bounding_box()
    assert box is not None and box["y"] < 780


@pytest.mark.parametrize("width", [360, 1366])
def test_play_these_rules_near_the_top_starts_the_table(site_page: Opener, real_site: Any, width: int) -> None:
    page, watch = site_page(fresh=True, viewport={"width": width, "height": 780})
    page.clock.install()
    page.goto(real_site.server.url("nl/rules/cardrulesplus/"))
    link = page.locator(".dh-play-profile")
    assert link.count() == 1 and str(link.get_attribute("href")).endswith("#dh-table-play")  # the table's Play address
    assert link.bounding_box()["y"] < 400  # type: ignore[index]
    assert link.inner_text() == translator("nl")(PLAY_PROFILE)
    link.click()
    wait_ready(page)
    assert page.locator(BOARD).get_attribute("data-profile-key") == "cardrulesplus"
    assert page.evaluate("document.querySelector('#dh-table').contains(document.activeElement)")
    box = page.locator(TABLE).bounding_box()
    assert box is not None
    if width < 600:
        # A phone: the table opens over the whole screen, and nothing of the page is over it.
        assert page.evaluate("document.querySelector('#dh-table').classList.contains('dh-table--full')")
        assert (box["x"], box["y"], box["width"], box["height"]) == (0, 0, width, 780)
        page.clock.run_for(2000)
        assert page.evaluate("getComputedStyle(document.querySelector('.md-top')).display") == "none"
        return
    assert 0 <= box["y"] < 200
    # Material's "back to top" button keeps off the table
    y = page.evaluate("scrollY")
    page.mouse.wheel(0, -200)
    page.wait_for_function("y => scrollY < y", arg=y)
    page.clock.run_for(2000)  # the page's reactions to the scroll, on its own clock
    assert page.evaluate("getComputedStyle(document.querySelector('.md-top')).display") == "none"


def test_loading_shows_the_share_of_bytes_received(site_page: Opener, real_site: Any) -> None:
    page, _ = open_page(site_page, real_site, "fr/glossary/", fresh=True)
    # A connection of 8 MB/s (the engine's worker fetches through it too): from
    # the local server the whole download would otherwise land between two reports.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions",
             {"offline": False, "latency": 0, "downloadThroughput": 8_000_000, "uploadThroughput": 8_000_000})
    page.evaluate("""() => { window.__seen = [];
        const bar = document.querySelector('#dh-table .dht-progress__bar');
        new MutationObserver(() => window.__seen.push(bar.value)).observe(bar, {attributes: true});
        const tick = () => { if (bar.value) window.__seen.push(bar.value);
            if (document.querySelector('#dh-table').dataset.state !== 'ready') requestAnimationFrame(tick); };
        tick(); }""")
    start(page)
    seen = page.evaluate("window.__seen")
    assert any(0 < v < 100 for v in seen), seen
    assert seen == sorted(seen)


def test_instant_navigation_keeps_the_engine(site_page: Opener, real_site: Any) -> None:
    if os.environ.get("DHUMBAL_TABLE_SITE"):
        pytest.skip("a prebuilt site's sitemap does not name the test server, so instant navigation is off")
    page, watch = open_page(site_page, real_site, "rules/dashain/", fresh=True)
    start(page)
    wasm = [u for u in watch.requested if u.endswith(".wasm")]
    assert len(wasm) == 1
    page.locator('a[href$="cardrulesplus/"]').first.click()
    page.wait_for_function("() => location.pathname.endsWith('/rules/cardrulesplus/')")
    # the new page's table finds the engine ready and starts at once (the URL
    # may change before the content is swapped: wait for the new table)
    page.wait_for_selector(f'{TABLE}[data-profile="cardrulesplus"][data-state="ready"][data-answers]')
    assert page.evaluate("document.querySelectorAll('[data-dhumbal-table]').length") == 1
    assert [u for u in watch.requested if u.endswith(".wasm")] == wasm


def test_play_pressed_before_the_new_page_s_table_is_set_up_still_starts_it(site_page: Opener, real_site: Any) -> None:
    # Instant navigation swaps the content in before it tells the page's scripts;
    # here the table is swapped for the page's own static markup, as it does,
    # and Play is pressed before anything has set the new table up.
    page, _ = open_page(site_page, real_site, "rules/dashain/")
    page.wait_for_function(page_condition("site.tableSetUp(document.querySelector('#dh-table'))"))
    swapped = page.evaluate(on_page("""{
        const html = await (await fetch(location.href)).text();
        const fresh = new DOMParser().parseFromString(html, 'text/html').querySelector('#dh-table');
        const old = document.querySelector('#dh-table');
        old.replaceWith(document.importNode(fresh, true));
        const now = document.querySelector('#dh-table');
        return now !== old && !site.tableSetUp(now) && now.dataset.state === 'static';
    }"""))
    assert swapped
    start(page)
    assert page.locator(TABLE).get_attribute("data-profile") == "dashain"


def test_the_table_is_not_in_the_search_index(real_site: Any) -> None:
    real_site.require()
    site = real_site.server.directory
    indexes = list(Path(site).glob("**/search/search_index.json"))
    assert indexes
    for index in indexes:
        docs = json.loads(index.read_text(encoding="utf-8"))["docs"]
        for doc in docs:
            if doc["location"].startswith("translation-status/"):
                continue  # that page lists the catalog's strings, the table's among them
            text = doc["text"]
            assert "dht-" not in text and "data-dhumbal-table" not in text, doc["location"]
            for lang in LANGS:
                assert translator(lang).raw(STATIC_NOTE).split("{")[0] not in text, doc["location"]
                assert translator(lang)(TITLE) not in text, doc["location"]


# -- a match's end on a wide screen ----------------------------------------------------------------

#: Where the deal's scores, the reader's hand and the dock lie on screen.
SUMMARY_GEOMETRY = """() => {
  const box = (el) => el ? el.getBoundingClientRect() : null;
  const board = document.querySelector('#dh-table .dht-play-area');
  const rows = [...board.querySelectorAll('.dht-summary tr.dht-score__seat')];
  return {header: box(document.querySelector('.md-header')).bottom, hand: box(board.querySelector('.dht-me')).top,
          seats: rows.length, lastSeat: rows.length ? box(rows[rows.length - 1]).bottom : null,
          dock: box(board.querySelector('.dht-dock')).top, scrolled: scrollY};
}"""


def last_move_of_a_match(profile: str, seed: int) -> tuple[str, Any]:
    """A match played by the reader's first legal move each turn: the link to the
    position just before the reader's move that ends it, and that move."""
    from dhumbal.core.profiles import parse_profile
    from dhumbal.table.links import link_of
    from dhumbal.table.protocol import Settings

    s = session.Session(Settings(parse_profile(profile), "easy", seed), lang="en")
    s.start()
    for _ in range(2000):
        deal = s.deal
        assert deal is not None
        if deal.is_over:
            s.next_deal()
            continue
        assert s.is_my_turn()
        action = deal.legal_actions()[0]
        link = link_of(s)
        s.act(action)
        if s.match_over():
            return link, action
    raise AssertionError("the match did not end")


def test_a_match_s_end_on_a_wide_screen_keeps_the_hand_and_every_seat_s_score_in_sight(
        site_page: Opener, real_site: Any) -> None:
    """The summary at a match's end (the deal's scores, then the match's standings)
    is taller than the screen beside the felt: the page brings the scores up, but
    never so far that the reader's hand goes above the top (the hand and every
    seat's line of the deal's scores in sight; the standings a scroll away)."""
    from dhumbal.core.cards import card_text

    link, action = last_move_of_a_match("nepali-games", 1)
    assert action.kind == "throw"
    page, _ = open_page(site_page, real_site, "rules/nepali-games/#" + link, viewport={"width": 1366, "height": 900})
    wait_ready(page)
    assert translator("en")(web.NOTICE_RESTORED) in status(page)
    for card in action.cards:
        page.locator(f'{BOARD} .dht-card[data-card="{card_text(card, ascii=True)}"]').click()
    click(page, page.locator(f'{BOARD} [data-action="throw"]'))
    page.wait_for_function(f"() => document.querySelector('{BOARD}').getAttribute('data-over') === 'true'")
    page.wait_for_timeout(300)  # the page's one scroll (instant: reduced motion) has happened
    at = page.evaluate(SUMMARY_GEOMETRY)
    assert at["seats"] == 4, at
    assert at["hand"] >= at["header"] - 0.5, f"the hand went above the top: {at}"
    assert at["lastSeat"] <= at["dock"] + 0.5, f"a seat's score is under the dock: {at}"
    assert at["scrolled"] > 0, at
