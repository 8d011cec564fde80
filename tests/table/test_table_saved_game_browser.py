"""The reader's game in progress is never lost or replaced without their say
(issues 39 and 44), in Chromium against the stand-in runtime (this process's
engine): on the stub site for the table itself, on the real built site for
the page's top ("Continue your game" before "Play these rules") and
Material's instant navigation.

The saved game changes only by the reader's own moves in it: a shared link,
a refused link, a worked example's or a review's "Play from here", the
pointer resting on the table and the keyboard on Continue leave it as it
was; New game over it asks first; a finished match is never offered; a
review's "Play from here" is a practice deal that Back, or "Back to your
match", leaves for the match where it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from dhumbal.core.cards import card_text
from dhumbal.core.i18n import translator
from dhumbal.play.action import parse_action
from dhumbal.play.share import decode_hash
from dhumbal.table import web
from dhumbal.table.links import restore_session
from dhumbal.table.session import PROMPT_PRACTICE_OVER
from dhumbal.view.actions import BACK_TO_MATCH
from dhumbal.view.loader import ASK_TITLE, CONTINUE, NEW_GAME
from dhumbal.view.table import META_PRACTICE
from tests.axescan import axe_here
from tests.table.tabledriver import (
    BOARD,
    TABLE,
    answers,
    click,
    follow_link,
    is_over,
    play_deal,
    press_play,
    start,
    status,
    stop_clock,
    tab_to,
    table_hash,
    ui_move,
    wait_answer,
    wait_ready,
)
from tests.table.tablekit import simple_move
from tests.table.test_table_phone_browser import DESKTOP, LANDSCAPE, PHONE, move, start_here, url
from tools.pagemodules import on_page, page_condition

# (phone_page, the real site's pages with this process's engine: tests/table/conftest.py)

Opener = Callable[..., tuple[Any, Any]]
KEY = "dhumbal:last-game"
CONT = f"{TABLE} [data-dht-continue]"
PLAY = f"{TABLE} [data-dht-play]"
ASK = f"{TABLE} dialog.dht-ask"
TOP_CONTINUE = "[data-dh-play-continue]"
TOP_PLAY = ".dh-play-profile"
#: The stub pages' screens: (language, screen) pairs that cover every size and the texts that matter.
SCREENS = [("en", DESKTOP), ("fr", PHONE), ("ne", LANDSCAPE)]
SCREEN_IDS = ["en-1366x900", "fr-360x780", "ne-780x360"]


def saved(page: Any) -> str | None:
    """The saved game's link, as this browser keeps it (None: no game kept)."""
    game = page.evaluate(f"JSON.parse(localStorage.getItem({json.dumps(KEY)}) || 'null')")
    return None if game is None else str(game["hash"])


def touches(screen: dict[str, Any]) -> bool:
    return bool(screen.get("has_touch"))


def press_on(page: Any, locator: Any, touch: bool) -> None:
    locator.tap() if touch else locator.click()


def a_saved_game(stub_page: Opener, stub_site: Any, lang: str = "en", moves: int = 2,
                 **options: Any) -> tuple[Any, str]:
    """A page where the reader has played ``moves`` moves: the game is kept."""
    page, _ = stub_page(**options)
    page.goto(stub_site.url(f"{lang}/"))
    start(page)
    for _ in range(moves):
        ui_move(page)
    kept = saved(page)
    assert kept is not None and kept == table_hash(page)
    return page, kept


def engine_idle(page: Any) -> None:
    """Wait until the engine is loaded and the table has settled after it (dealt or not)."""
    page.wait_for_function(page_condition("runtime.status === 'ready'"
                                   " && document.querySelector('#dh-table').dataset.state !== 'loading'"))


def someone_elses_link() -> str:
    """Another reader's game, two moves in (a shared link)."""
    def ask(**request: Any) -> dict[str, Any]:
        return dict(json.loads(web.handle(json.dumps({"table": "elsewhere", "lang": "en", **request}))))

    answer = ask(op="new", profile="nepali-games", seed=4242)
    for _ in range(2):
        session = web.table("elsewhere").playing()
        assert session.deal is not None
        answer = ask(op="act", action=simple_move(session.deal, session.my_deal_seat() or 0))
    return str(answer["hash"])


# -- New game over a saved game ---------------------------------------------------------------


@pytest.mark.parametrize(("lang", "screen"), SCREENS, ids=SCREEN_IDS)
def test_new_game_over_a_saved_game_asks_and_keeping_it_changes_nothing(
        stub_page: Opener, stub_site: Any, lang: str, screen: dict[str, Any]) -> None:
    touch = touches(screen)
    first, kept = a_saved_game(stub_page, stub_site, lang, **screen)
    page = first.context.new_page()  # another tab, the same browser
    page.goto(stub_site.url(f"{lang}/"))
    t = translator(lang)
    cont, play = page.locator(CONT), page.locator(PLAY)
    # "Continue your game" is the primary choice, New game a quieter one after it
    assert cont.is_visible() and cont.inner_text() == t(CONTINUE)
    assert "dht-btn--primary" in (cont.get_attribute("class") or "")
    assert play.inner_text() == t(NEW_GAME) and "dht-btn--primary" not in (play.get_attribute("class") or "")
    assert page.evaluate("(() => { const [c, p] = [...document.querySelectorAll("
                         "'#dh-table [data-dht-continue], #dh-table [data-dht-play]')]; return c.matches('[data-dht-continue]'); })()")
    # New game asks; Escape closes the question, keeps the game and deals nothing
    press_on(page, play, touch)
    dialog = page.locator(ASK)
    dialog.wait_for(state="visible")
    assert dialog.locator(".dht-ask__title").inner_text() == t(ASK_TITLE)
    assert page.evaluate("document.activeElement.dataset.dhtAsk") == "keep"
    assert axe_here(page, ASK) == []
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.locator(TABLE).get_attribute("data-state") == "static" and answers(page) == 0
    assert cont.is_visible() and saved(page) == kept
    # "Start a new game": a fresh deal; the saved game stays until the first move in the new one
    press_on(page, play, touch)
    press_on(page, page.locator(f'{ASK} [data-dht-ask="new"]'), touch)
    wait_ready(page)
    fresh = page.evaluate(on_page("site.controllerOf(document.querySelector('#dh-table')).state.core.lastHash"))
    assert fresh and fresh != kept and saved(page) == kept
    ui_move(page)
    assert saved(page) == table_hash(page) != kept
    # a new match from the settings over that game asks as well
    mine = saved(page)
    page.locator(f"{TABLE} .dht-settings > summary").click()
    page.locator(f'{TABLE} .dht-settings button[type="submit"]').click()
    page.locator(ASK).wait_for(state="visible")
    page.keyboard.press("Escape")
    page.locator(ASK).wait_for(state="hidden")
    assert table_hash(page) == mine == saved(page)


# -- the saved game survives what is not the reader's move in it --------------------------------


@pytest.mark.parametrize("how", ["shared-link", "refused-link", "example", "hover", "keyboard"])
def test_the_saved_game_survives_what_is_not_a_move_in_it(stub_page: Opener, stub_site: Any, how: str) -> None:
    first, kept = a_saved_game(stub_page, stub_site)
    page = first.context.new_page()
    if how == "shared-link":
        link = someone_elses_link()
        page.goto(stub_site.url(f"en/#{link}"))
        wait_ready(page)
        assert translator("en")(web.NOTICE_RESTORED) in status(page)
        assert saved(page) == kept, "restoring someone's link is not a move in the reader's game"
        ui_move(page)
        assert table_hash(page) != link
    elif how == "refused-link":
        page.goto(stub_site.url("en/#table=2.damagedbeyondrepair"))
        wait_ready(page)
        assert translator("en")(web.NOTICE_BAD_HASH) in status(page)
        assert saved(page) == kept
        ui_move(page)
    elif how == "example":
        page.goto(stub_site.url("en/example/"))
        before = answers(page)
        page.locator(".dh-play-from").click()
        wait_answer(page, before)
        assert saved(page) == kept
        ui_move(page)
    elif how == "hover":
        page.goto(stub_site.url("en/"))
        page.locator(TABLE).scroll_into_view_if_needed()
        box = page.locator(f"{TABLE} .dht-felt").bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + 20, box["y"] + 20)
        page.mouse.move(box["x"] + 30, box["y"] + 25)
        page.wait_for_function(page_condition('runtime.calls.ensure > 0'))  # the rest was intent: the engine loads
        engine_idle(page)
        # nothing dealt: "Continue your game" is still offered, until the reader chooses
        assert page.locator(TABLE).get_attribute("data-state") == "static" and answers(page) == 0
        assert page.locator(CONT).is_visible()
    else:
        page.goto(stub_site.url("en/"))
        tab_to(page, "a.matches('#dh-table [data-dht-continue]')")
        engine_idle(page)  # focus in the table is intent: the engine loads
        # the focus stays where the reader put it, and nothing is dealt under it
        assert page.evaluate("document.activeElement.matches('#dh-table [data-dht-continue]')")
        assert answers(page) == 0 and page.locator(CONT).is_visible()
        page.keyboard.press("Enter")
        wait_ready(page)
        assert table_hash(page) == kept  # Enter continued the game, no move was made
        assert page.evaluate("document.querySelector('#dh-table .dht-board').contains(document.activeElement)")
    assert saved(page) == kept
    # and the next page still offers the reader's own game
    later = first.context.new_page()
    later.goto(stub_site.url("nl/"))
    assert later.locator(CONT).is_visible()
    later.locator(CONT).click()
    wait_ready(later)
    assert table_hash(later) == kept


# -- a finished match is never offered ------------------------------------------------------------


def _last_move() -> tuple[str, str]:
    """A link one reader move before the end of a match (the bots end it after that
    move), and that move."""
    def ask(**request: Any) -> dict[str, Any]:
        return dict(json.loads(web.handle(json.dumps({"table": "last", "lang": "en", **request}))))

    answer = ask(op="new", profile="nepali-games", seed=1)
    while True:
        if answer["summary"]["is_over"]:
            answer = ask(op="next-deal")
            continue
        session = web.table("last").playing()
        assert session.deal is not None
        action = simple_move(session.deal, session.my_deal_seat() or 0)
        then = ask(op="act", action=action)
        if then["summary"]["match_over"]:
            assert then["playback"]["frames"], "the bots end the match"
            return str(answer["hash"]), action
        answer = then


def test_a_match_ended_while_the_bots_play_is_never_offered(stub_page: Opener, stub_site: Any) -> None:
    link, action = _last_move()
    page, _ = stub_page(fresh=True, speed="slow")
    page.clock.install()
    page.goto(stub_site.url(f"en/#{link}"))
    wait_ready(page)
    stop_clock(page)  # the bots' last moves wait: the tab is closed while they play
    # the reader's last move, by clicks (the page's clock stands still: no waiting for motion)
    thrown = [card_text(c, ascii=True) for c in parse_action(action).cards]
    assert parse_action(action).kind == "throw" and thrown
    before = answers(page)
    page.evaluate("""codes => {
      for (const code of codes) document.querySelector(`#dh-table .dht-card[data-card="${code}"]`).click();
      document.querySelector('#dh-table [data-action="throw"]').click();
    }""", thrown)
    page.wait_for_function("n => +document.querySelector('#dh-table').dataset.answers > n"
                           " && document.querySelector('#dh-table').hasAttribute('data-busy')", arg=before)
    game = saved(page)
    assert game is None or not restore_session(decode_hash(game), "en").match_over(), \
        "a finished match is kept as the game in progress"
    context = page.context
    page.close()
    again = context.new_page()
    again.goto(stub_site.url("en/"))
    assert again.locator(TABLE).get_attribute("data-resumable") is None
    assert not again.locator(CONT).is_visible()


# -- a review's "Play from here": a practice deal; the match waits ------------------------------


@pytest.mark.parametrize(("lang", "screen"), SCREENS, ids=SCREEN_IDS)
def test_play_from_a_review_is_a_practice_deal_and_the_match_waits(
        stub_page: Opener, stub_site: Any, lang: str, screen: dict[str, Any]) -> None:
    t = translator(lang)
    page, _ = stub_page(**screen)
    page.goto(stub_site.url(f"{lang}/"))
    start(page)
    play_deal(page, how="touch" if touches(screen) else "mouse")
    finished = table_hash(page)
    assert saved(page) == finished  # the match after its first deal is the game in progress
    meta = page.locator(f"{BOARD} .dht-meta__deal").inner_text()
    click(page, page.locator(f"{BOARD} .dht-review-btn"))
    page.locator(f"{BOARD} .dht-review").wait_for()
    page.locator(f"{BOARD} [data-review-step='2']").click()
    click(page, page.locator(f"{BOARD} [data-review-panel='2'] [data-review-play]"))
    # a practice deal, said so; no "You play You"; the saved match untouched
    assert page.locator(f"{BOARD} .dht-meta__deal").inner_text() == t(META_PRACTICE)
    assert t(web.NOTICE_PRACTICE) in status(page)
    assert t(web.NOTICE_POSITION, name=t("You")) not in status(page)
    assert saved(page) == finished
    assert axe_here(page, TABLE) == []
    play_deal(page, how="touch" if touches(screen) else "mouse")
    # it ends after its one deal, with the way back to the match and no "Next deal"
    assert page.locator(BOARD).get_attribute("data-match-over") == "true"
    assert page.locator(f'{BOARD} [data-op="next-deal"]').count() == 0
    assert page.locator(f"{BOARD} .dht-standings").count() == 0
    assert t(PROMPT_PRACTICE_OVER) in status(page)
    back = page.locator(f"{BOARD} [data-dht-match]")
    assert back.is_visible() and back.inner_text() == t(BACK_TO_MATCH)
    assert saved(page) == finished
    # "Back to your match": the match where it was, its review at the step played from
    press_on(page, back, touches(screen))
    page.wait_for_selector(f"{BOARD} .dht-review[data-review-at='2']")
    assert table_hash(page) == finished and is_over(page)
    assert page.locator(f"{BOARD} .dht-meta__deal").inner_text() == meta
    assert saved(page) == finished
    # and the match goes on from there
    nxt = page.locator(f'{BOARD} [data-op="next-deal"]')
    if nxt.count():
        click(page, nxt)
        assert saved(page) == table_hash(page) != finished


def test_on_a_phone_back_after_a_practice_deal_closes_the_full_table(stub_page: Opener, stub_site: Any) -> None:
    page, _ = stub_page(**PHONE)
    page.goto(stub_site.url("en/"))
    press_play(page)
    wait_ready(page)

    def full() -> bool:
        return bool(page.evaluate("document.querySelector('#dh-table').classList.contains('dh-table--full')"))

    assert full()
    play_deal(page, how="touch")
    click(page, page.locator(f"{BOARD} .dht-review-btn"))
    page.locator(f"{BOARD} .dht-review").wait_for()
    click(page, page.locator(f"{BOARD} [data-review-panel]:not([hidden]) [data-review-play]"))
    assert full() and not is_over(page)
    page.locator(f"{TABLE} [data-dht-close]").tap()
    page.wait_for_function("() => !document.querySelector('#dh-table').classList.contains('dh-table--full')")
    page.locator(f"{TABLE} [data-dht-full]").tap()
    assert full()
    page.go_back()  # one press of Back closes the full table
    page.wait_for_function("() => !document.querySelector('#dh-table').classList.contains('dh-table--full')")
    assert not page.evaluate("document.documentElement.classList.contains('dh-full-table')")


# -- the real site: the page's top, and a page reached after the engine loaded ---------------------


TOP_SCREENS = [("en", PHONE), ("en", LANDSCAPE), ("en", DESKTOP), ("fr", PHONE), ("ne", PHONE)]


@pytest.mark.parametrize(("lang", "screen"), TOP_SCREENS,
                         ids=["en-360x780", "en-780x360", "en-1366x900", "fr-360x780", "ne-360x780"])
def test_the_page_s_top_continues_the_saved_game_in_a_new_tab(
        phone_page: Callable[..., Any], real_site: Any, lang: str, screen: dict[str, Any]) -> None:
    touch = touches(screen)
    t = translator(lang)
    rules = ("" if lang == "en" else f"{lang}/") + "rules/dashain/"
    page = phone_page(screen)
    page.goto(url(real_site, rules))
    start_here(page, touch)
    for turn in range(2):
        move(page, turn, touch=touch)
    kept = table_hash(page)
    hand = page.locator(f"{BOARD} .dht-cards").inner_html()
    # a new tab of the same rules page: "Continue your game" at the top, on the first screen, the primary choice
    other = page.context.new_page()
    other.goto(url(real_site, rules))
    top = other.locator(TOP_CONTINUE)
    assert top.is_visible() and top.inner_text().strip() == t(CONTINUE)
    box = top.bounding_box()
    assert box is not None and box["y"] + box["height"] <= screen["viewport"]["height"], "reached without scrolling"
    assert box["height"] >= 44 and box["width"] >= 44
    assert "md-button--primary" in (top.get_attribute("class") or "")
    assert "md-button--primary" not in (other.locator(TOP_PLAY).get_attribute("class") or "")
    assert other.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # "Play these rules" over it asks first; closing the question deals nothing
    press_on(other, other.locator(TOP_PLAY), touch)
    other.locator(ASK).wait_for(state="visible")
    other.keyboard.press("Escape")
    other.locator(ASK).wait_for(state="hidden")
    assert answers(other) == 0 and saved(other) == kept
    # the top's Continue: the game where it was, on the table (the full table on a phone)
    press_on(other, top, touch)
    wait_ready(other)
    assert table_hash(other) == kept and saved(other) == kept
    assert other.locator(f"{BOARD} .dht-cards").inner_html() == hand
    assert not top.is_visible(), "the game on the table is not offered again"
    assert axe_here(other, TABLE) == []


def test_a_page_reached_after_the_engine_loaded_still_offers_the_game(
        phone_page: Callable[..., Any], real_site: Any) -> None:
    page = phone_page(DESKTOP)
    page.goto(url(real_site, ""))
    start_here(page, False)
    move(page, 0, touch=False)
    kept = table_hash(page)
    # to the Dashain rules by the navigation (instant navigation: the engine is loaded)
    page.evaluate("window.__samePage = true")
    follow_link(page, page.locator('.md-nav a[href$="rules/dashain/"]').first, "/rules/dashain/")
    if not page.evaluate("window.__samePage === true"):
        pytest.skip("instant navigation is off (a prebuilt site whose sitemap names another address)")
    engine_idle(page)
    # nothing dealt over the reader's game: it is offered, at the top and on the table
    assert page.locator(TABLE).get_attribute("data-state") == "static" and answers(page) == 0
    assert page.locator(CONT).is_visible() and page.locator(TOP_CONTINUE).is_visible()
    page.locator(TOP_CONTINUE).click()
    wait_ready(page)
    assert table_hash(page) == kept and saved(page) == kept
