"""The table as a phone card app (issue 19), on the real built site.

The pages are the site every suite shares (Material, instant navigation,
the site's Content-Security-Policy), with the engine answering from this
test process: ``stub-runtime.js`` is served in place of
``runtime.js`` (browser/entries/runtime.ts), so no Pyodide boots and one page session can run
many assertions cheaply. What is checked is the page side: the full table
on a phone, the hand always in sight and never covered, 44 px targets,
dragging to the pile, the cards' moves (and none under reduced motion), no
layout shift when the table goes live, "Continue your game", Back and
Forward across pages, the reader's move in the address at once, the Hint
pressed many times, and the cues.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.table.tabledriver import (
    BOARD,
    DESKTOP,
    LANDSCAPE,
    PHONE,
    TABLE,
    answers,
    follow_link,
    is_over,
    table_hash,
    wait_answer,
    wait_ready,
    wants,
)
from tests.table.tablekit import reader_moves
from tools.pagemodules import on_page

Opener = Callable[..., Any]


def url(real_site: Any, path: str = "") -> str:
    return str(real_site.server.url(path))


# -- the reader's moves -----------------------------------------------------------------


def settled(page: Any) -> None:
    """Wait for the cards in flight to land (their boxes are where they stay)."""
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")


def center(page: Any, selector: str) -> tuple[float, float]:
    settled(page)
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


#: How long the finger rests on the pile before it is lifted. A finger lifted while
#: still moving fast is a fling to Chrome, and the tap that comes while a fling runs
#: only stops it (no click: a tap 0.4 s after such a lift went unanswered in 2 of 6
#: tries); a reader's finger slows on the pile before it lets go of a card, and after
#: a rest this long and a last move on the spot no tap went unanswered (30 of 30).
REST_MS = 80


def touch_drag(page: Any, start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> None:
    """A finger pressed, moved, rested on ``end`` and lifted (real touch events: the
    browser makes the pointer events)."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = start, end
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x = x0 + (x1 - x0) * i / steps
        y = y0 + (y1 - y0) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(REST_MS)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x1, "y": y1}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def mouse_drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def heaviest(page: Any) -> str:
    cards = page.locator(f"{BOARD} .dht-card[aria-pressed]")
    values = cards.evaluate_all("els => els.map(e => [+e.dataset.value, e.dataset.card])")
    return str(max(values)[1])


def press(page: Any, selector: str, touch: bool) -> None:
    before = answers(page)
    target = page.locator(selector)
    force = target.get_attribute("aria-disabled") == "true"
    if not touch:
        target.click(force=force)
        wait_answer(page, before)
        return
    target.tap(force=force)
    wait_answer(page, before)


def move(page: Any, turn: int, *, touch: bool) -> str:
    """One reader action: "call", "take", or a throw, which is a drag onto the pile (by
    finger or mouse; returns "drag") when ``turn`` is odd, else a tap or click on the card
    and on Throw (returns "throw"). Pass the number of throws made so far to make every
    other throw a drag."""
    want = wants(page)
    if want == "call":
        press(page, f'{BOARD} [data-action="call"]', touch)
    elif want == "take":
        stock = page.locator(f'{BOARD} [data-action="take stock"]')
        empty = stock.get_attribute("data-count") == "0"  # nothing to draw: the pile's card
        press(page, f'{BOARD} [data-action^="take pile"]' if empty else f'{BOARD} [data-action="take stock"]', touch)
    else:
        card = f'{BOARD} .dht-card[data-card="{heaviest(page)}"]'
        if turn % 2:
            before = answers(page)
            (touch_drag if touch else mouse_drag)(page, center(page, card), center(page, f"{BOARD} .dht-pile"))
            wait_answer(page, before)
            want = "drag"
        else:
            page.locator(card).tap() if touch else page.locator(card).click()
            press(page, f'{BOARD} [data-action="throw"]', touch)
    return want


# -- what the screen shows -------------------------------------------------------------------

# Every hand card on screen, not covered at its centre nor its lower part, at
# least 44 px of it showing while it is a control (at a deal's end it is drawn
# small, to leave the shown hands room: issue 51); every control shown at least
# 44 x 44 px; no sideways scrolling.
LAYOUT = """() => {
  const out = [];
  const root = document.querySelector('#dh-table');
  const over = root.querySelector('.dht-play-area').dataset.over === 'true';
  const vw = innerWidth, vh = innerHeight;
  const cards = [...root.querySelectorAll('.dht-me .dht-cards > .dhc')];
  cards.forEach((c, i) => {
    const r = c.getBoundingClientRect();
    if (r.top < -0.5 || r.bottom > vh + 0.5 || r.left < -0.5 || r.right > vw + 0.5) {
      out.push(`card ${c.dataset.card} off screen ${Math.round(r.top)}..${Math.round(r.bottom)} of ${vh}`);
      return;
    }
    const x = r.left + r.width / 2;
    for (const y of [r.top + r.height / 2, r.bottom - 6]) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !c.contains(hit)) out.push(`card ${c.dataset.card} covered by ${hit && (hit.className || hit.tagName)}`);
    }
    const next = cards[i + 1];
    let shown = r.width;
    if (next) {
      const n = next.getBoundingClientRect();
      if (Math.abs(n.top - r.top) < r.height / 2 && n.left < r.right) shown = n.left - r.left;
    }
    if (!over && (shown < 43.5 || r.height < 43.5)) out.push(`card ${c.dataset.card} shows ${Math.round(shown)}x${Math.round(r.height)}`);
  });
  for (const el of root.querySelectorAll('button, select, input:not([type=checkbox]), summary, .dht-field--check label')) {
    if (el.closest('.dht-cards') || !el.getClientRects().length) continue;
    const st = getComputedStyle(el);
    if (st.visibility === 'hidden' || st.display === 'none') continue;
    const r = el.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) out.push(`control "${el.textContent.trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  if (document.documentElement.scrollWidth > vw) out.push(`page ${document.documentElement.scrollWidth} px wide`);
  return out;
}"""

# The deal's strip of scores: the whole strip in sight (no sideways scrolling), each seat's line shown.
SUMMARY = """() => {
  const out = [];
  const box = document.querySelector('#dh-table .dht-summary');
  if (!box) return ['no scores'];
  const table = box.querySelector('table.dht-strip');
  if (!table) return ['no strip'];
  if (table.scrollWidth > table.clientWidth + 1 || box.scrollWidth > box.clientWidth + 1) {
    out.push(`scores ${table.scrollWidth} px in ${box.clientWidth}`);
  }
  const r = table.getBoundingClientRect();
  if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push(`scores ${Math.round(r.left)}..${Math.round(r.right)} off screen`);
  return out;
}"""


# The deal's end cannot be missed: a line for every seat, each in sight and on top
# (nothing covers it: not the dock, not the page's header), the winner's among them.
SEATS_IN_SIGHT = """() => {
  const box = document.querySelector('#dh-table .dht-summary');
  if (!box) return false;
  const rows = [...box.querySelectorAll('tr.dht-score__seat')];
  const players = +document.querySelector('#dh-table .dht-play-area').dataset.players;
  if (rows.length !== players || !box.querySelector('tr.dht-score__seat--winner')) return false;
  return rows.every(row => {
    const r = row.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) return false;
    const hit = document.elementFromPoint(r.left + Math.min(30, r.width / 2), r.top + r.height / 2);
    return !!hit && row.contains(hit);
  });
}"""


def summary_problems(page: Any) -> list[str]:
    """What keeps the deal's summary from being read whole: off the screen's width, a seat out of sight."""
    problems = list(page.evaluate(SUMMARY))
    try:
        page.wait_for_function(SEATS_IN_SIGHT, timeout=4000)  # it may still be scrolling into sight
    except Exception:
        problems.append("not every seat's line of the summary is in sight")
    return problems


def layout(page: Any) -> list[str]:
    settled(page)
    return list(page.evaluate(LAYOUT))


def full(page: Any) -> bool:
    return bool(page.evaluate("document.querySelector('#dh-table').classList.contains('dh-table--full')"))


def start_here(page: Any, touch: bool) -> None:
    """Press Play (on a phone it opens the full table) and wait for the live table."""
    page.locator(TABLE).scroll_into_view_if_needed()
    play = page.locator(f"{TABLE} [data-dht-play]")
    play.tap() if touch else play.click()
    wait_ready(page)


def new_match(page: Any, players: int, touch: bool) -> None:
    """Settings: this many players, "Start a new match"; the new deal comes into view."""
    summary = page.locator(f"{TABLE} .dht-settings > summary")
    summary.tap() if touch else summary.click()
    page.select_option(f"{TABLE} select[name='opt:players']", str(players))
    submit = page.locator(f"{TABLE} .dht-settings__submit button")
    before = answers(page)
    submit.tap() if touch else submit.click()
    wait_answer(page, before)
    assert page.locator(BOARD).get_attribute("data-players") == str(players)
    top = page.locator(f"{TABLE} .dht-board").bounding_box()
    assert top is not None and -1 <= top["y"] < page.viewport_size["height"] / 2, "the new deal is in view"
    assert not page.locator(f"{TABLE} .dht-settings").evaluate("d => d.open && d.getBoundingClientRect().height > 300") \
        or not full(page), "the settings closed over the full table"


# -- the tests -------------------------------------------------------------------------------------

CASES = [
    # the phone flow as most readers see it, cards gliding (tests/sitekit.py TEST_DEFAULTS)
    pytest.param({**PHONE, "reduced_motion": "no-preference"}, "", 4, id="phone-en-4"),
    pytest.param(PHONE, "ne/", 6, id="phone-ne-6"),
    pytest.param(DESKTOP, "", 6, id="desktop-en-6"),
    pytest.param(DESKTOP, "ne/", 4, id="desktop-ne-4"),
]


@pytest.mark.parametrize("options,lang,players", CASES)
def test_forty_turns_with_the_hand_in_sight_and_every_target_a_finger_wide(
    phone_page: Opener, real_site: Any, options: dict[str, Any], lang: str, players: int
) -> None:
    touch = bool(options.get("has_touch"))
    page = phone_page(options)
    page.goto(url(real_site, lang))
    start_here(page, touch)
    assert full(page) is touch, "Play opens the full table on a phone, not on a wide screen"
    new_match(page, players, touch)
    # Every other throw is a drag, the others a tap on the card and on Throw (``move`` is
    # given the throws made so far, not the turns: on a draw-first profile every second
    # action is a throw). The reader's turn is a take and a throw, or a call, which ends
    # the deal, so 40 actions make at least 16 throws unless the reader calls 8 times:
    # at least 8 drags and 8 taps.
    turns = drags = taps = deals = 0
    problems: list[str] = []
    while turns < 40:
        if is_over(page):
            deals += 1
            problems += [f"deal {deals}: {p}" for p in summary_problems(page)]
            problems += [f"deal {deals} over: {p}" for p in layout(page)]
            nxt = page.locator(f'{BOARD} [data-op="next-deal"], {BOARD} [data-op="new-match"]')
            press(page, f'{BOARD} [data-op="next-deal"], {BOARD} [data-op="new-match"]', touch) if nxt.count() else None
            continue
        problems += [f"turn {turns}: {p}" for p in layout(page)]
        done = move(page, drags + taps, touch=touch)
        drags += done == "drag"
        taps += done == "throw"
        turns += 1
    assert problems == []
    assert drags >= 8 and taps >= 8, f"cards thrown by {drags} drags onto the pile and {taps} taps on Throw"
    assert page.evaluate("document.documentElement.scrollWidth") <= options["viewport"]["width"]


def test_dragging_a_card_to_the_pile_throws_it_and_a_marked_card_takes_the_marked_ones(
    phone_page: Opener, real_site: Any
) -> None:
    page = phone_page(DESKTOP)
    page.goto(url(real_site, "rules/dashain/"))  # throw first: the hand may go at once
    start_here(page, False)
    hand = page.locator(f"{BOARD} .dht-card[aria-pressed]")
    codes = hand.evaluate_all("els => els.map(e => e.dataset.card)")
    # let go away from the pile: nothing is thrown, the card is back in the hand
    before = answers(page)
    mouse_drag(page, center(page, f'{BOARD} .dht-card[data-card="{codes[0]}"]'), (20, 20))
    page.wait_for_timeout(150)
    assert answers(page) == before and hand.count() == len(codes)
    assert page.locator(f"{TABLE} .dht-ghost").count() == 0
    # while dragging: a card follows the pointer and the pile is the drop target
    page.mouse.move(*center(page, f'{BOARD} .dht-card[data-card="{codes[1]}"]'))
    page.mouse.down()
    pile = center(page, f"{BOARD} .dht-pile")
    page.mouse.move(*pile, steps=6)
    assert page.locator(f"{TABLE} .dht-ghost").count() == 1
    assert page.locator(f"{BOARD} .dht-pile.dht-pile--over").count() == 1
    page.mouse.up()
    wait_answer(page, before)
    thrown = page.locator(f"{BOARD} .dht-pending [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert thrown == [codes[1]]
    assert reader_moves(table_hash(page))[-1]


def test_the_phone_table_fills_the_screen_and_back_closes_it_with_the_game_kept(
    phone_page: Opener, real_site: Any
) -> None:
    page = phone_page(PHONE)
    page.goto(url(real_site, ""))
    y = page.evaluate("scrollY")
    start_here(page, True)
    assert full(page)
    box = page.locator(TABLE).bounding_box()
    assert box == {"x": 0, "y": 0, "width": 360, "height": 780}
    move(page, 0, touch=True)
    h = table_hash(page)
    assert h.startswith("table=")
    page.go_back()
    page.wait_for_function("() => !document.querySelector('#dh-table').classList.contains('dh-table--full')")
    assert table_hash(page) == h, "the address keeps the game"
    assert abs(page.evaluate("scrollY") - y) < 2 or page.locator(TABLE).is_visible()
    # the "Full table" button opens it again (on any screen), Escape closes it
    page.locator(f"{TABLE} [data-dht-full]").tap()
    assert full(page)
    page.keyboard.press("Escape")
    assert not full(page)
    assert table_hash(page) == h


def test_held_sideways_the_hand_and_the_controls_are_beside_the_felt(phone_page: Opener, real_site: Any) -> None:
    page = phone_page(LANDSCAPE)
    page.goto(url(real_site, ""))
    start_here(page, True)
    assert full(page)
    beside = 0
    for turn in range(6):
        assert layout(page) == [], turn
        # (while the deal runs: a call may end it, and the deal's end is laid out otherwise)
        if page.locator(f"{TABLE} .dht-play-area").get_attribute("data-over") != "true":
            felt = page.locator(f"{BOARD} .dht-felt").bounding_box()
            hand = page.locator(f"{BOARD} .dht-me").bounding_box()
            assert felt and hand and hand["x"] >= felt["x"] + felt["width"] - 1, turn
            beside += 1
        move(page, turn, touch=True)
    assert beside >= 1


def test_no_layout_shift_when_the_table_goes_live(phone_page: Opener, real_site: Any) -> None:
    for options in (PHONE, DESKTOP):
        touch = bool(options.get("has_touch"))
        # the engine answers 1.2 s after Play: its shifts are not the press's
        page = phone_page({**options, "reduced_motion": "no-preference"}, speed="normal", delay=1200, fresh=True)
        page.goto(url(real_site, ""))
        start_here(page, touch)
        for turn in range(3):
            move(page, turn * 2, touch=touch)
        shifts = page.evaluate("window.__shifts")
        assert sum(shifts) <= 0.05, (options["viewport"], shifts)


def test_the_moves_glide_and_stand_still_under_reduced_motion(phone_page: Opener, real_site: Any) -> None:
    moving = phone_page({**DESKTOP, "reduced_motion": "no-preference"}, speed="fast")
    moving.goto(url(real_site, ""))
    start_here(moving, False)
    move(moving, 0, touch=False)
    assert moving.evaluate("window.__animations") > 0
    still = phone_page({**DESKTOP, "reduced_motion": "reduce"}, speed="fast")
    still.goto(url(real_site, ""))
    start_here(still, False)
    for turn in range(4):
        move(still, turn, touch=False)
    assert still.evaluate("window.__animations") == 0
    assert still.locator(f"{BOARD} .dht-card").first.evaluate("e => getComputedStyle(e).transitionDuration") == "0s"


def test_the_move_is_in_the_address_before_the_bots_have_played_and_a_tap_shows_the_next(
    phone_page: Opener, real_site: Any
) -> None:
    page = phone_page(PHONE, speed="slow")  # a second between two bot moves
    page.goto(url(real_site, ""))
    start_here(page, True)
    press(page, f'{BOARD} [data-action="take stock"]', True)
    page.locator(f'{BOARD} .dht-card[data-card="{heaviest(page)}"]').tap()
    page.locator(f'{BOARD} [data-action="throw"]').tap()
    page.wait_for_selector(f'{TABLE}[data-busy="true"]')
    moves = reader_moves(table_hash(page))[0].split(",")
    assert len(moves) == 2, "the throw is in the address while the bots still play"
    # a tap on the felt shows the next move there and then (within the one task of the tap)
    shown = page.evaluate("""() => {
      const table = document.querySelector('#dh-table');
      const log = () => table.querySelectorAll('.dht-log__list > li').length;
      if (!table.hasAttribute('data-busy')) return null;
      const before = log();
      table.querySelector('.dht-felt').click();
      return [before, log()];
    }""")
    assert shown is not None and shown[1] > shown[0], shown
    page.locator(f"{TABLE} [data-dht-skip]").tap()
    page.wait_for_selector(f"{TABLE}:not([data-busy])")
    assert reader_moves(table_hash(page))[0].split(",") == moves


def test_continue_your_game_brings_back_the_last_position_played_here(phone_page: Opener, real_site: Any) -> None:
    page = phone_page(PHONE)
    page.goto(url(real_site, "rules/dashain/"))
    start_here(page, True)
    for turn in range(3):
        move(page, turn, touch=True)
    h = table_hash(page)
    hand = page.locator(f"{BOARD} .dht-cards").inner_html()
    # the next day, another page of the site: the same browser's storage
    other = page.context.new_page()
    other.goto(url(real_site, ""))
    cont = other.locator(f"{TABLE} [data-dht-continue]")
    assert cont.is_visible()
    # the note beside the buttons speaks of them (not of Play, which reads New game now)
    assert other.locator(f"{TABLE} .dht-resume-note").is_visible()
    assert not other.locator(f"{TABLE} .dht-when--static").is_visible()
    assert other.locator(f"{TABLE} [data-dht-play]").inner_text() == other.locator(
        f"{TABLE} [data-dht-play]").get_attribute("data-label-new")
    cont.tap()
    wait_ready(other)
    assert table_hash(other) == h
    assert other.locator(f"{BOARD} .dht-cards").inner_html() == hand
    assert other.locator(BOARD).get_attribute("data-profile-key") == "dashain"


def test_back_and_forward_across_pages_show_each_page_with_its_game(phone_page: Opener, real_site: Any) -> None:
    page = phone_page(DESKTOP)
    page.goto(url(real_site, ""))
    start_here(page, False)
    move(page, 0, touch=False)
    home = table_hash(page)
    # to the Dashain rules by the navigation (instant navigation: the table's script stays)
    follow_link(page, page.locator('.md-nav a[href$="rules/dashain/"]').first, "/rules/dashain/")
    # the home page's game is offered there; a new game of these rules is asked for
    page.locator(f"{TABLE} [data-dht-play]").click()
    page.locator(f'{TABLE} dialog.dht-ask [data-dht-ask="new"]').click()
    page.wait_for_selector(f'{TABLE}[data-state="ready"]')
    page.wait_for_function("() => document.querySelector('#dh-table .dht-play-area').dataset.profileKey === 'dashain'")
    move(page, 0, touch=False)
    dashain = table_hash(page)
    assert dashain != home
    page.go_back()
    page.wait_for_function("() => location.pathname === '/'")
    page.wait_for_function(
        "h => location.hash === '#' + h && document.querySelector('#dh-table .dht-play-area')"
        " && document.querySelector('#dh-table .dht-play-area').dataset.profileKey === 'nepali-games'", arg=home)
    assert "dashain" not in page.locator("article h1").first.inner_text().lower()
    page.go_forward()
    page.wait_for_function("() => location.pathname.endsWith('/rules/dashain/')")
    page.wait_for_function(
        "h => location.hash === '#' + h && document.querySelector('#dh-table .dht-play-area')"
        " && document.querySelector('#dh-table .dht-play-area').dataset.profileKey === 'dashain'", arg=dashain)


def test_many_presses_of_hint_are_one_request_at_a_time(phone_page: Opener, real_site: Any) -> None:
    page = phone_page(DESKTOP)
    page.goto(url(real_site, ""))
    start_here(page, False)
    before = page.evaluate(on_page('runtime.calls.request'))
    page.evaluate("() => { const b = document.querySelector('#dh-table [data-op=hint]'); for (let i = 0; i < 50; i++) b.click(); }")
    page.wait_for_function("() => document.querySelector('#dh-table [data-op=hint]').getAttribute('aria-pressed') === 'true'")
    page.wait_for_timeout(200)
    assert page.evaluate(on_page('runtime.calls.request')) - before == 1


def test_sound_and_vibration_are_off_until_chosen_and_then_kept(phone_page: Opener, real_site: Any) -> None:
    page = phone_page(DESKTOP, fresh=True, init="navigator.vibrate = function (p) { (window.__buzz = window.__buzz || []).push(p); return true; };")
    page.goto(url(real_site, ""))
    start_here(page, False)
    assert page.locator(f"{TABLE} [data-dht-sound]").is_checked() is False
    assert page.locator(f"{TABLE} [data-dht-vibrate]").is_checked() is False
    for turn in range(2):
        move(page, turn, touch=False)
    assert page.evaluate(on_page('table.cueLog.every(c => !c.sound && !c.vibrate)'))
    assert page.evaluate("!window.__buzz")
    page.locator(f"{TABLE} .dht-settings > summary").click()
    page.locator(f"{TABLE} [data-dht-vibrate]").check()
    page.reload()
    wait_ready(page) if page.locator(TABLE).get_attribute("data-state") != "static" else start_here(page, False)
    assert page.locator(f"{TABLE} [data-dht-vibrate]").is_checked()
    for turn in range(2):
        move(page, turn, touch=False)
    assert page.evaluate(on_page("table.cueLog.some(c => c.cue === 'turn' && c.vibrate)"))
    assert page.evaluate("window.__buzz && window.__buzz.length >= 1")


def test_play_from_here_starts_at_the_step_on_screen_with_the_example_in_sight(
    phone_page: Opener, real_site: Any
) -> None:
    page = phone_page(DESKTOP)
    page.goto(url(real_site, "examples/"))
    example = page.locator("#example-k-pair-discard")
    example.scroll_into_view_if_needed()
    nxt = example.locator('[data-step-go="next"]')
    nxt.click()
    nxt.click()
    step = example.locator(".dh-steps > .dh-step:not([hidden])")
    state = page.evaluate("async (i) => (await (await fetch('/assets/dhumbal/examples/k-pair-discard.json')).json())"
                          ".states[i]", int(step.get_attribute("data-step") or 0))
    reader = state["turn"]
    expected = sorted(state["hands"][reader])
    example.locator(".dh-play-from").click()
    wait_ready(page)
    page.wait_for_function("() => document.querySelectorAll('#dh-table .dht-card[aria-pressed]').length > 0")
    shown = page.locator(f"{BOARD} .dht-card[aria-pressed]").evaluate_all("els => els.map(e => e.dataset.card)")
    from dhumbal.core import cards as C

    assert sorted(C.card_text(C.parse_card(c)) for c in shown) == expected, "the position of step 3, not of the start"
    # the table right under the example, the example's step still in sight above it
    box = step.bounding_box()
    assert box is not None and box["y"] + box["height"] > 0
    # beside an example in the page's folded prose (content/prose.py), the full table
    # still covers the whole screen, not the part it sits in
    page.locator(f"{TABLE} [data-dht-full]").click()
    page.wait_for_function("() => document.querySelector('#dh-table').classList.contains('dh-table--full')")
    assert page.locator("#dh-table").evaluate("t => t.parentElement.classList.contains('dh-prose')")
    covered = page.evaluate("() => { const r = document.querySelector('#dh-table').getBoundingClientRect();"
                            " return [r.left, r.top, r.width - innerWidth, r.height - innerHeight].map(Math.round); }")
    assert covered == [0, 0, 0, 0], covered
