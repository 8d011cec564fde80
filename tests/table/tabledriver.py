"""Driving the mini table in a browser page, the way a reader does.

Only the rendered page is used: buttons, their ``aria-*`` and ``data-*``
attributes, and the URL hash. The policy is deliberately simple: call when
the Call button is allowed and the hand is 5 or less; take from the stock
when it is time to take; otherwise mark the highest card and throw it.

``play_deal`` plays a whole deal, so it is written for few round trips to
the browser: one evaluation reads what the policy wants and where the
control is (scrolled into view, and checked to be what the pointer reaches
there, as a reader's click would), then a real mouse click, tap or key
press, then one wait for the engine's answer. ``click`` and ``tap`` (any
locator) go through Playwright's own actionability checks instead.
"""

from __future__ import annotations

import json
from typing import Any

from tests.browserkit import stop_clock  # noqa: F401 - the table tests' helpers, in one place
from tests.table.tablekit import score_rows
from tools.pagemodules import on_page, page_condition

TABLE = "#dh-table"
BOARD = "#dh-table .dht-play-area"

#: The screens the phone tests look at: a phone upright (touch), held sideways, a desktop.
PHONE = {"viewport": {"width": 360, "height": 780}, "has_touch": True, "is_mobile": True}
LANDSCAPE = {"viewport": {"width": 780, "height": 360}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}


def prefer(context: Any, speed: str, save_data: bool = False, guide: bool = False) -> None:
    """The reader's stored pace for the bots' moves (tests play "instant" unless they
    watch the moves), a browser that asks to save data, and the first-run guide
    seen already (it lies over the felt until put away) unless ``guide``."""
    context.add_init_script(
        "try { if (!localStorage.getItem('dhumbal:table')) "
        f"localStorage.setItem('dhumbal:table', JSON.stringify({{speed: {json.dumps(speed)}}})); }} catch (e) {{}}"
    )
    if not guide:
        context.add_init_script("try { localStorage.setItem('dhumbal:guide', 'seen'); } catch (e) {}")
    if save_data:
        context.add_init_script(
            "Object.defineProperty(navigator, 'connection', "
            "{value: {saveData: true, effectiveType: '4g'}, configurable: true});"
        )


def answers(page: Any) -> int:
    return int(page.locator(TABLE).get_attribute("data-answers") or 0)


def wait_answer(page: Any, before: int) -> None:
    """Wait for the next answer, for the bots' moves it brings to finish playing,
    and for the cards to land (a reader taps a card where it lies, not where it
    is flying past)."""
    page.wait_for_function(
        "n => { const t = document.querySelector('#dh-table');"
        " return +(t.dataset.answers || 0) > n && !t.hasAttribute('data-busy')"
        " && !(t.getAnimations ? t.getAnimations({subtree: true}) : [])"
        ".some(a => a.id === 'dht-flight' && a.playState === 'running'); }", arg=before
    )


def wait_ready(page: Any) -> None:
    """Wait for the live table (its first answer shown); fail at once, saying why, if it errs."""
    page.wait_for_function(
        "() => { const t = document.querySelector('#dh-table');"
        " return !!t && (t.dataset.state === 'error' || (t.dataset.state === 'ready' && t.hasAttribute('data-answers'))); }"
    )
    state = page.evaluate(on_page("({state: document.querySelector('#dh-table').dataset.state, error: runtime.error})"))
    assert state["state"] == "ready", f"the table went to the error state instead of ready: {state}"


def press_play(page: Any) -> None:
    """Click Play (a reader's click, at its centre), unless the table has started
    already; then wait until it has (the pointer reaching the table may start it
    first, and take Play away under the click: either way it starts)."""
    if page.locator(TABLE).get_attribute("data-state") == "static":
        press(page, f"{TABLE} [data-dht-play]", answer=False)
    page.wait_for_function("() => document.querySelector('#dh-table').dataset.state !== 'static'")


#: Seeds of deals that the reader's policy ends in 12 to 14 moves (the cardrulesplus
#: one by the reader's own call), for tests on the real site that play a whole
#: deal: a fresh random deal may take a hundred moves.
SHORT_DEALS = {"nepali-games": "17", "dashain": "9", "cardrulesplus": "13"}


def author_seed(page: Any, profile: str) -> None:
    """Fix the next fresh deal of the page's table to a short one of ``profile``, as
    a page whose front matter fixes a seed does (``data-seed``, read on Play)."""
    page.locator(TABLE).evaluate("(t, seed) => t.setAttribute('data-seed', seed)", SHORT_DEALS[profile])


def start(page: Any) -> None:
    """Press Play and wait for the live table."""
    press_play(page)
    wait_ready(page)


def click(page: Any, locator: Any) -> None:
    """Click and wait for the engine's answer. A control marked aria-disabled
    can still be clicked (the engine then says why it is not allowed), which
    Playwright only does when forced."""
    before = answers(page)
    locator.click(force=locator.get_attribute("aria-disabled") == "true")
    wait_answer(page, before)


def board_attr(page: Any, name: str) -> str | None:
    value = page.locator(BOARD).get_attribute(name)
    return None if value is None else str(value)


def is_over(page: Any) -> bool:
    return board_attr(page, "data-over") == "true"


def highest_card(page: Any) -> Any:
    cards = page.locator(f"{BOARD} .dht-card[aria-pressed]")
    values = [int(v) for v in cards.evaluate_all("els => els.map(e => e.dataset.value)")]
    return cards.nth(values.index(max(values)))


def tap(page: Any, locator: Any) -> None:
    """A touch on a control, waiting for the engine's answer."""
    before = answers(page)
    locator.tap(force=locator.get_attribute("aria-disabled") == "true")
    wait_answer(page, before)


# What the reader's policy wants now, and where the control it needs is: one
# evaluation. ``control`` is a selector and an index among its matches.
_NEXT = """() => {
  const board = document.querySelector('#dh-table .dht-play-area');
  const over = board.getAttribute('data-over') === 'true';
  const answers = +(document.querySelector('#dh-table').dataset.answers || 0);
  if (over) return {over, answers};
  const call = board.querySelector('[data-action="call"]');
  const total = board.querySelector('.dht-hand__total');
  if (call && call.getAttribute('aria-disabled') === null && +total.getAttribute('data-total') <= 5) {
    return {over, answers, move: 'call', control: ['#dh-table .dht-play-area [data-action="call"]', 0]};
  }
  const phase = board.getAttribute('data-phase');
  const drawFirst = board.getAttribute('data-profile-key') === 'nepali-games';
  if ((drawFirst && phase === 'start') || (!drawFirst && phase === 'take')) {
    return {over, answers, move: 'take', control: ['#dh-table .dht-play-area [data-action="take stock"]', 0]};
  }
  const values = [...board.querySelectorAll('.dht-card[aria-pressed]')].map(e => +e.dataset.value);
  return {over, answers, move: 'throw', card: values.indexOf(Math.max(...values))};
}"""

# Bring a control into view and say where a pointer reaches it: its centre, if
# that point is the control (or inside it); else the middle of the part a
# reader sees (a fanned hand's next card covers the right of each card);
# else the control is centred in the view and measured again (a sticky dock
# may cover the bottom edge).
_AIM = """([selector, index, marked]) => {
  const el = document.querySelectorAll(selector)[index];
  if (!el) return {found: false};
  const aim = (block) => {
    el.scrollIntoView({block, inline: 'nearest', behavior: 'instant'});
    const r = el.getBoundingClientRect();
    const reaches = (x, y) => {
      const hit = document.elementFromPoint(x, y);
      return {hit, ok: !!hit && (hit === el || el.contains(hit))};
    };
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const centre = reaches(x, y);
    if (centre.ok) return {x, y, reached: true, under: null};
    const seen = [];
    for (let i = 1; i < 20; i++) {
      const px = r.left + r.width * i / 20;
      if (reaches(px, y).ok) seen.push(px);
    }
    if (seen.length) return {x: (seen[0] + seen[seen.length - 1]) / 2, y, reached: true, under: null};
    return {x, y, reached: false, under: centre.hit ? centre.hit.outerHTML.slice(0, 160) : null};
  };
  let at = aim('nearest');
  if (!at.reached) at = aim('center');
  const t = document.querySelector('#dh-table');
  const card = marked === null ? null : document.querySelectorAll(marked[0])[marked[1]];
  return {found: true, ...at, answers: +(t.dataset.answers || 0),
          marked: card ? card.getAttribute('aria-pressed') : null};
}"""

#: The deal ends (profile, seats) that test_table_showdown_browser.py opens on every screen
#: and in English, French and Nepali: the most seats of each profile, and four. Each is
#: measured there with :data:`SHOWDOWN_CLEAR` too, on the same page load, and
#: test_table_seats_browser.py measures the other seat counts.
SHOWDOWN_ENDS = (("nepali-games", 6), ("dashain", 6), ("cardrulesplus", 5), ("nepali-games", 4))

# Every box that must stay in sight at a deal's end, by seat: the shown hand's cards,
# its total and the marks of the ending; then what covers what: the strip of scores over
# none of them, each on screen and on top, each fan inside its seat, no two fans meeting
# (issue 51). ``scroll``: each scrolled into view first (a desktop's page).
SHOWDOWN_CLEAR = """(scroll) => {
  const out = [];
  const board = document.querySelector('#dh-table .dht-play-area');
  const box = (el) => el.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const name = (el) => `${el.closest('[data-seat]') ? 'seat ' + el.closest('[data-seat]').dataset.seat : '?'} ${el.className || el.textContent}`;
  const summary = board.querySelector('.dht-summary');
  const seats = [...board.querySelectorAll('.dht-seats > .dht-seat, .dht-me')];
  const parts = seats.flatMap(seat => [...seat.querySelectorAll(
    '.dht-seat__faces > .dhc, .dht-cards .dhc, .dht-seat__total, .dht-seat__outcome .dht-badge, .dht-me__head .dht-badge')]);
  if (parts.length < seats.length * 2) out.push(`only ${parts.length} parts for ${seats.length} seats`);
  for (const part of parts) {
    if (scroll) part.scrollIntoView({block: 'center', behavior: 'instant'});
    const r = box(part);
    if (summary && meets(r, box(summary))) out.push(`${name(part)} under the strip`);
    if (!r.width || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {
      out.push(`${name(part)} off screen`);
      continue;
    }
    // a card is on top where its index is (its top left corner); the others at their middle
    const x = part.classList.contains('dhc') ? r.left + 3 : r.left + r.width / 2;
    const y = part.classList.contains('dhc') ? r.top + 4 : r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === part || part.contains(hit))) out.push(`${name(part)} covered by ${hit && hit.className}`);
  }
  // each fan inside its seat, and no seat's cards over another's
  const others = [...board.querySelectorAll('.dht-seats > .dht-seat')];
  for (const seat of others) {
    const s = box(seat);
    for (const card of seat.querySelectorAll('.dht-seat__faces > .dhc')) {
      const c = box(card);
      if (c.left < s.left - 0.5 || c.right > s.right + 0.5) out.push(`${name(card)} outside its seat`);
    }
  }
  others.forEach((a, i) => others.slice(i + 1).forEach(b => {
    const fa = a.querySelector('.dht-seat__faces'), fb = b.querySelector('.dht-seat__faces');
    if (fa && fb && meets(box(fa), box(fb))) out.push(`seat ${a.dataset.seat}'s cards meet seat ${b.dataset.seat}'s`);
  }));
  return out;
}"""

_CARDS = f"{BOARD} .dht-card[aria-pressed]"


def wants(page: Any) -> str:
    """What the reader's simple policy does now: "call", "take" or "throw"."""
    step: dict[str, Any] = page.evaluate(_NEXT)
    assert not step["over"], "the deal is over: no move to make"
    return str(step["move"])


def press(page: Any, selector: str, index: int = 0, *, touch: bool = False, answer: bool = True,
          marked: tuple[str, int] | None = None) -> dict[str, Any]:
    """A reader's click (or tap) on the ``index``-th match of ``selector``, at its centre;
    with ``answer``, wait for the engine's answer. Returns where it was pressed, and
    (``marked``: a selector and index) whether that card was marked just before."""
    aim: dict[str, Any] = page.evaluate(_AIM, [selector, index, list(marked) if marked else None])
    assert aim["found"], f"no {selector} [{index}] to press"
    assert aim["reached"], f"{selector} [{index}] is covered where a reader would press it, by {aim['under']}"
    if touch:
        page.touchscreen.tap(aim["x"], aim["y"])
    else:
        page.mouse.click(aim["x"], aim["y"])
    if answer:
        wait_answer(page, aim["answers"])
    return aim


def ui_move(page: Any, *, touch: bool = False) -> str:
    """One reader action through the interface (by mouse, or by touch); returns which."""
    step: dict[str, Any] = page.evaluate(_NEXT)
    assert not step["over"], "the deal is over: no move to make"
    return _act(page, step, touch)


def _act(page: Any, step: dict[str, Any], touch: bool) -> str:
    move = str(step["move"])
    if move != "throw":
        press(page, *step["control"], touch=touch)
        return move
    press(page, _CARDS, step["card"], touch=touch, answer=False)
    throw = press(page, f'{BOARD} [data-action="throw"]', touch=touch, marked=(_CARDS, step["card"]))
    assert throw["marked"] == "true", "the card pressed was not marked"
    return move


def focused(page: Any, js: str) -> bool:
    return bool(page.evaluate(f"(() => {{ const a = document.activeElement; return !!a && ({js}); }})()"))


def tab_to(page: Any, js: str, limit: int = 60) -> None:
    """Press Tab until the focused element matches ``js`` (``a`` is the element)."""
    for _ in range(limit):
        if focused(page, js):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {js}")


def key_move(page: Any, step: dict[str, Any] | None = None) -> str:
    """One reader action with the keyboard only; returns which."""
    if step is None:
        step = page.evaluate(_NEXT)
        assert not step["over"], "the deal is over: no move to make"
    move = str(step["move"])
    if move == "call":
        tab_to(page, "a.dataset.action === 'call'")
        page.keyboard.press("Enter")
    elif move == "take":
        tab_to(page, "a.dataset.action === 'take stock'")
        page.keyboard.press("Enter")
    else:
        tab_to(page, "a.matches('.dht-card[aria-pressed]')")
        page.keyboard.press("Home")
        for _ in range(step["card"]):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Space")
        assert focused(page, "a.getAttribute('aria-pressed') === 'true'")
        tab_to(page, "a.dataset.action === 'throw'")
        page.keyboard.press("Enter")
    wait_answer(page, step["answers"])
    return move


def play_deal(page: Any, limit: int = 800, *, how: str = "mouse") -> int:
    """Play until the deal is over ("mouse", "touch" or "keyboard"); returns the number of reader actions."""
    for n in range(limit):
        step: dict[str, Any] = page.evaluate(_NEXT)
        if step["over"]:
            return n
        if how == "keyboard":
            key_move(page, step)
        else:
            _act(page, step, how == "touch")
    raise AssertionError("the deal did not end")


def shown_rows(page: Any) -> dict[str, list[tuple[str, str]]]:
    return score_rows(page.locator(BOARD).evaluate("el => el.outerHTML"))


def follow_link(page: Any, link: Any, path_end: str) -> None:
    """Click ``link`` (a locator) to another page of the site and wait for that
    page's table to be set up. Material's instant navigation changes the address
    before it fetches the page, and the old page, table and all, stays on screen
    until the new one is swapped in: waiting for the address alone reads the old
    table."""
    page.evaluate("() => { const t = document.querySelector('#dh-table'); if (t) t.__left = true; }")
    link.click()
    page.wait_for_function("p => location.pathname.endsWith(p)", arg=path_end)
    page.wait_for_function(page_condition("{ const t = document.querySelector('#dh-table');"
                                   " return !!t && !t.__left && site.tableSetUp(t); }"))


def table_hash(page: Any) -> str:
    return str(page.evaluate("location.hash")).lstrip("#")


def status(page: Any) -> str:
    return str(page.locator(f"{TABLE} .dht-status").inner_text())


def no_horizontal_overflow(page: Any) -> bool:
    return bool(page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth"
        " && document.body.scrollWidth <= window.innerWidth"
    ))
