"""The showdown you see, a still table, controls never covered, the first-run guide (issue 39).

On the real built site with the engine answering from this process
(``phone_page``): a phone upright (360 x 780, touch), held sideways
(780 x 360) and a desktop (1366 x 900), in English, French and Nepali.

- A deal's end: every hand face up on the felt with its total, a strip of
  scores (seat, this deal, total; money in dashain) that fits the width
  with six seats in every profile, folds away to show the hands, and keeps
  its fold through the next answer; the details and the review open over
  the whole board; nothing covers a hand, its total or a mark of the ending,
  and no two fans meet (the seats test's tabledriver.SHOWDOWN_CLEAR). The ends are restored from links made here by the
  engine (``finished``), so each costs one page load, not a deal of taps.
- A still table: over 40 turns at 360 px (takes from the stock and the
  pile, cards marked and unmarked, the Hint, the bots' moves shown one at
  a time) the stock, the pile and the hand do not move: the browser's own
  layout-shift entries (all of them, the reader's input included) and the
  same measure taken of those three boxes at every frame stay at or under
  0.01 a turn.
- Share and Close are never covered, with the Hint shown and with the
  settings open, upright, sideways and on a desktop's full table; the
  settings' name beside them is whole (in French too); Done closes the
  settings.
- The first-run guide: three steps worded for the rules' turn order, shown
  once, put away by "Got it" or the first move, remembered, and harmless
  where the browser refuses storage.
- Small things: no line starts with a dot, no focus ring after a tap, the
  card just taken says so on its face, "New match" on one line at 360 px.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from dhumbal.core.i18n import translator
from tests.axescan import axe_here
from tests.table import tabledriver
from tests.table.tabledriver import BOARD, DESKTOP, LANDSCAPE, PHONE, TABLE, answers, press, table_hash, wait_answer, wait_ready
from tests.table.tablekit import finished_link

Opener = Callable[..., Any]
SCREENS = {"phone": PHONE, "sideways": LANDSCAPE, "desktop": DESKTOP}
PROFILES = ("nepali-games", "dashain", "cardrulesplus")


def most(profile: str) -> int:
    """The most seats ``profile`` plays with (six, or five in cardrulesplus)."""
    from dhumbal.core.profiles import find_profile

    return find_profile(profile).spec("players").high


def url(real_site: Any, path: str = "") -> str:
    return str(real_site.server.url(path))


@functools.cache
def finished(profile: str, players: int, *, match: bool = False) -> str:
    """A link to a deal of ``profile`` just over (the whole match over, with ``match``)."""
    return finished_link(profile, players, until="match" if match else "deal")


def open_end(phone_page: Opener, real_site: Any, screen: str, lang: str, link: str, **settings: Any) -> Any:
    """The page of ``lang`` opened on ``link``: the table restores the game (on a phone, full screen)."""
    page = phone_page(SCREENS[screen], **settings)
    page.goto(url(real_site, f"{lang}#{link}"))
    wait_ready(page)
    page.wait_for_function(f"() => document.querySelector('{BOARD}').dataset.over === 'true'")
    return page


# Every seat's hand face up with its total on the felt (the reader's under its cards),
# and where each is: on screen and on top (not covered) or not (``scroll``: once the
# page is scrolled to it, as on a desktop's page, where the table is longer than the screen).
HANDS = """(scroll) => {
  const board = document.querySelector('#dh-table .dht-play-area');
  const seen = (el) => {
    if (scroll) el.scrollIntoView({block: 'center', behavior: 'instant'});
    const r = el.getBoundingClientRect();
    if (!r.width || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  };
  const seats = [...board.querySelectorAll('.dht-seats > .dht-seat, .dht-me')];
  return seats.map(seat => {
    const hand = seat.querySelector('.dht-seat__hand');
    const faces = hand ? hand.querySelectorAll('.dhc:not(.dhc--back)') : [];
    const total = hand ? hand.querySelector('.dht-seat__total') : null;
    return {seat: seat.dataset.seat, faces: faces.length, backs: seat.querySelectorAll('.dhc--back').length,
            total: total ? total.textContent : null, value: hand ? hand.dataset.total : null,
            inSight: !!total && seen(total) && [...faces].every(seen)};
  });
}"""

# The strip: one line per seat, each whole on screen and on top, nothing wider than the
# screen or its box (no sideways scrolling anywhere).
STRIP = """(scroll) => {
  const out = [];
  const box = document.querySelector('#dh-table .dht-summary');
  const strip = box && box.querySelector('table.dht-strip');
  if (!strip) return ['no strip'];
  if (scroll) strip.scrollIntoView({block: 'center', behavior: 'instant'});
  const players = +document.querySelector('#dh-table .dht-play-area').dataset.players;
  const rows = [...strip.querySelectorAll('tbody tr.dht-score__seat')];
  if (rows.length !== players) out.push(`${rows.length} lines for ${players} seats`);
  if (strip.getBoundingClientRect().right > box.getBoundingClientRect().right + 0.5) out.push('the strip is wider than its box');
  if (box.scrollWidth > box.clientWidth + 1) out.push(`the summary scrolls sideways: ${box.scrollWidth} in ${box.clientWidth}`);
  if (document.documentElement.scrollWidth > innerWidth) out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  for (const cell of strip.querySelectorAll('th, td')) {
    if (cell.scrollWidth > cell.clientWidth + 1) out.push(`cut: ${cell.textContent}`);
  }
  rows.forEach(row => {
    const r = row.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight + 0.5 || r.left < -0.5 || r.right > innerWidth + 0.5) {
      out.push(`seat ${row.dataset.seat}'s line off screen`);
      return;
    }
    for (const cell of row.children) {
      const c = cell.getBoundingClientRect();
      const hit = document.elementFromPoint(c.left + Math.min(12, c.width / 2), c.top + c.height / 2);
      if (!hit || !cell.contains(hit)) out.push(`seat ${row.dataset.seat}'s line covered by ${hit && hit.className}`);
    }
  });
  return out;
}"""

STRIP_CELLS = """() => [...document.querySelectorAll('#dh-table table.dht-strip tbody tr')].map(r =>
  [...r.querySelectorAll('td')].map(td => [td.dataset.strip, td.dataset.value, td.textContent]))"""


def fold(page: Any, touch: bool) -> None:
    bar = page.locator(f"{BOARD} .dht-fold > summary")
    bar.tap() if touch else bar.click()


@pytest.mark.parametrize("lang", ["", "fr/", "ne/"], ids=["en", "fr", "ne"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_showdown_shows_every_hand_and_a_strip_that_fits(
    phone_page: Opener, real_site: Any, screen: str, lang: str
) -> None:
    from dhumbal.core.profiles import find_profile
    from dhumbal.matches.match import money_text

    touch = screen != "desktop"
    assert [p for p, _ in tabledriver.SHOWDOWN_ENDS[:3]] == list(PROFILES) and all(n == most(p) for p, n in tabledriver.SHOWDOWN_ENDS[:3])
    problems: list[str] = []
    for profile, players in tabledriver.SHOWDOWN_ENDS:
        page = open_end(phone_page, real_site, screen, lang, finished(profile, players))
        where = f"{profile}, {players} seats"
        scroll = screen == "desktop"  # the table on the page, longer than the screen
        # nothing covers a hand, a total or a mark, and no two fans meet (the seats test's
        # measure, taken here on this page load, before the strip is folded)
        problems += [f"{where}: {p}" for p in page.evaluate(tabledriver.SHOWDOWN_CLEAR, scroll)]
        problems += [f"{where}: {p}" for p in page.evaluate(STRIP, scroll)]
        hands = page.evaluate(HANDS, scroll)
        assert len(hands) == players, (where, hands)
        for h in hands:
            # face up, every card, with its total in the page's language
            assert h["faces"] >= 1 and h["backs"] == 0 and h["total"], (where, h)
        if profile == "dashain":
            # the strip is in money: this deal's and the total, each as the engine settles it
            rate = find_profile("dashain").money_per_point or "0"
            cells = page.evaluate(STRIP_CELLS)
            assert all(float(deal[1]) == float(money_text(round(float(deal[1]) / float(rate)), rate))
                       for deal, _ in cells), cells
            assert translator(lang.strip("/") or "en")("Deal {number}: the money", number=1).split(":")[0] in \
                page.locator(f"{BOARD} .dht-fold__title").inner_text()
        if screen == "phone" and players == 4:
            # the strip lies where the stock and the pile were: every hand in sight beside it
            assert all(h["inSight"] for h in hands), (where, hands)
        # folded away, every hand is in sight, on top
        fold(page, touch)
        page.wait_for_function(f"() => !document.querySelector('{BOARD} .dht-fold').open")
        unseen = [h for h in page.evaluate(HANDS, scroll) if not h["inSight"]]
        problems += [f"{where}, folded: seat {h['seat']}'s hand out of sight" for h in unseen]
        if screen == "phone" and lang == "ne/" and profile == "dashain":
            assert axe_here(page, TABLE) == []
    assert problems == []


def test_the_strip_folds_the_details_and_the_review_open_over_the_table(phone_page: Opener, real_site: Any) -> None:
    page = open_end(phone_page, real_site, "phone", "fr/", finished("nepali-games", 6))  # six seats
    fold_el = page.locator(f"{BOARD} .dht-fold")
    assert fold_el.evaluate("d => d.open")
    fold(page, True)
    assert not fold_el.evaluate("d => d.open")
    assert page.locator(f"{BOARD} table.dht-strip").is_hidden()
    # the details: every score row and what it means, over the whole board
    details = page.locator(f"{BOARD} [data-dht-details]")
    assert details.get_attribute("aria-expanded") == "false"
    details.tap()
    panel = page.locator(f"{BOARD} .dht-details")
    assert panel.is_visible() and details.get_attribute("aria-expanded") == "true"
    assert page.evaluate("() => document.activeElement.classList.contains('dht-panel__title')")
    assert panel.locator("table.dht-score--deal td[data-row='paid']").count() == 6
    # over the whole board (the felt, the strip, the hand) down to the dock, which stays
    covers = """sel => { const r = document.querySelector('#dh-table .dht-play-area').getBoundingClientRect();
      const d = document.querySelector('#dh-table .dht-dock').getBoundingClientRect();
      const p = document.querySelector(sel).getBoundingClientRect();
      return p.top <= r.top + 1 && Math.abs(p.bottom - d.top) <= 1 && p.left <= r.left + 1 && p.right >= r.right - 1; }"""
    assert page.evaluate(covers, f"{BOARD} .dht-details"), "the details lie over the whole board"
    assert axe_here(page, TABLE) == []
    page.keyboard.press("Escape")
    assert panel.is_hidden()
    assert page.locator(TABLE).evaluate("t => t.classList.contains('dh-table--full')"), "Escape shut the details only"
    # the review: over the whole table, with its Close; the strip keeps its fold through the answer
    before = answers(page)
    page.locator(f"{BOARD} .dht-review-btn").tap()
    wait_answer(page, before)
    page.wait_for_selector(f"{BOARD} .dht-review")
    assert page.evaluate(covers, f"{BOARD} .dht-review"), "the review lies over the whole board"
    # Details puts the review away (one of the two at a time), and Escape the details
    details.tap()
    assert page.locator(f"{BOARD} .dht-review").count() == 0 and panel.is_visible()
    page.keyboard.press("Escape")
    assert panel.is_hidden()
    before = answers(page)
    page.locator(f"{BOARD} .dht-review-btn").tap()
    wait_answer(page, before)
    page.wait_for_selector(f"{BOARD} .dht-review")
    assert not page.locator(f"{BOARD} .dht-fold").evaluate("d => d.open"), "the strip stayed folded"
    close = page.locator(f"{BOARD} [data-dht-review-close]")
    assert close.is_visible()
    assert axe_here(page, TABLE) == []
    close.tap()
    assert page.locator(f"{BOARD} .dht-review").count() == 0
    # the next deal's strip is open again
    press(page, f'{BOARD} [data-op="next-deal"]', touch=True)
    assert page.locator(BOARD).get_attribute("data-over") == "false"


# -- a still table -----------------------------------------------------------------------------

#: Per reader action ("turn"), two measures of the table's stillness: the browser's layout-shift
#: entries (every one: those that follow the reader's own input count too), and the same
#: measure (the moved area's share of the screen times the distance's share of its larger
#: side) taken of the stock, the pile and the hand at every frame, transforms included
#: (the cards' glides are not layout, but a place that moves is seen to move).
STILL = """
window.__still = {turn: 0, shifts: {}, moves: {}, seen: []};
(function () {
  var prev = null;
  function boxes() {
    var b = document.querySelector('#dh-table.dh-table--full .dht-play-area');
    if (!b || b.getAttribute('data-over') !== 'false') return null;
    var out = {};
    [['stock', '.dht-stock'], ['pile', '.dht-pile'], ['hand', '.dht-me .dht-cards']].forEach(function (p) {
      var el = b.querySelector(p[1]);
      if (el) { var r = el.getBoundingClientRect(); out[p[0]] = [r.left, r.top, r.width, r.height]; }
    });
    return out;
  }
  function tick() {
    var now = boxes(), S = window.__still;
    if (now && prev && S.turn > 0) {
      var area = 0, dist = 0, moved = [];
      for (var k in now) {
        var a = prev[k], c = now[k];
        if (!a) continue;
        var d = Math.max(Math.abs(a[0] - c[0]), Math.abs(a[1] - c[1]));
        if (d < 0.5) continue;
        moved.push(k + ' ' + Math.round(c[0] - a[0]) + ',' + Math.round(c[1] - a[1]));
        var w = Math.max(a[0] + a[2], c[0] + c[2]) - Math.min(a[0], c[0]);
        var h = Math.max(a[1] + a[3], c[1] + c[3]) - Math.min(a[1], c[1]);
        area += w * h;
        dist = Math.max(dist, d);
      }
      if (moved.length) {
        S.moves[S.turn] = (S.moves[S.turn] || 0) + Math.min(1, area / (innerWidth * innerHeight)) * dist / Math.max(innerWidth, innerHeight);
        S.seen.push(S.turn + ' ' + S.what + ': ' + moved.join(', '));
      }
    }
    prev = now;
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
  try {
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (e) {
        var S = window.__still;
        if (S.turn > 0) S.shifts[S.turn] = (S.shifts[S.turn] || 0) + e.value;
      });
    }).observe({ type: 'layout-shift', buffered: true });
  } catch (e) {}
})();
"""

# What the reader may do now: the controls' states, read in one evaluation.
NOW = """() => {
  const b = document.querySelector('#dh-table .dht-play-area');
  if (b.dataset.over === 'true') return {over: true};
  const ok = (sel) => { const el = b.querySelector(sel); return !!el && el.getAttribute('aria-disabled') === null; };
  const call = b.querySelector('[data-action="call"]');
  const total = +b.querySelector('.dht-hand__total').dataset.total;
  const pile = b.querySelector('[data-action^="take pile"]:not([aria-disabled])');
  return {over: false, call: ok('[data-action="call"]') && total <= 5, pile: pile && pile.dataset.action,
          stock: ok('[data-action="take stock"]'), hint: ok('[data-op="hint"]') && b.querySelector('[data-op="hint"]').getAttribute('aria-pressed') !== 'true',
          cards: [...b.querySelectorAll('.dht-card[aria-pressed]:not(.dhc--barred)')].map(e => [+e.dataset.value, e.dataset.card])};
}"""


def mark(page: Any, what: str, turn: int) -> None:
    page.evaluate("([t, w]) => { window.__still.turn = t; window.__still.what = w; }", [turn, what])


@pytest.mark.parametrize("lang,profile,turns", [("", "nepali-games", 40), ("fr/", "dashain", 20)], ids=["en-draw-first", "fr-throw-first"])
def test_the_stock_the_pile_and_the_hand_stay_still_through_every_turn(
    phone_page: Opener, real_site: Any, lang: str, profile: str, turns: int
) -> None:
    page = phone_page({**PHONE, "reduced_motion": "no-preference"}, speed="fast", init=STILL)
    page.goto(url(real_site, f"{lang}rules/{profile}/"))
    page.locator(TABLE).scroll_into_view_if_needed()
    page.locator(f"{TABLE} [data-dht-play]").tap()
    wait_ready(page)
    assert page.locator(TABLE).evaluate("t => t.classList.contains('dh-table--full')")
    turn = takes = hints = piles = 0
    while turn < turns:
        now = page.evaluate(NOW)
        if now["over"]:
            mark(page, "next deal", 0)  # a deal's end and the next deal are not a turn's
            press(page, f'{BOARD} [data-op="next-deal"], {BOARD} [data-op="new-match"]', touch=True)
            continue
        turn += 1
        if now["hint"] and turn % 4 == 1:
            mark(page, "hint", turn)
            press(page, f'{BOARD} [data-op="hint"]', touch=True)
            hints += 1
        if now["call"]:
            mark(page, "call", turn)
            press(page, f'{BOARD} [data-action="call"]', touch=True)
        elif now["pile"] and takes % 2:
            takes += 1
            piles += 1
            mark(page, "pile", turn)
            press(page, f'{BOARD} [data-action="{now["pile"]}"]', touch=True)
        elif now["stock"]:
            takes += 1
            mark(page, "stock", turn)
            press(page, f'{BOARD} [data-action="take stock"]', touch=True)
        else:
            # mark the lightest and the heaviest, unmark the lightest, throw the heaviest
            # (never the card just taken from the pile, which may not go back)
            cards = sorted(now["cards"])
            mark(page, "mark", turn)
            for _, code in (cards[0], cards[-1], cards[0]):
                press(page, f'{BOARD} .dht-card[data-card="{code}"]', touch=True, answer=False)
            mark(page, "throw", turn)
            press(page, f'{BOARD} [data-action="throw"]', touch=True)
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    still = page.evaluate("window.__still")
    assert hints >= 3 and piles >= 2, (hints, piles)
    shifts = {t: v for t, v in still["shifts"].items() if v > 0.01}
    moves = {t: v for t, v in still["moves"].items() if v > 0.01}
    assert shifts == {} and moves == {}, still["seen"][:20]


# -- Share and Close never covered; Done ------------------------------------------------------

# Share and Close: each on screen and on top at its centre.
TOOLS = """() => ['[data-dht-share]', '[data-dht-close]'].map(sel => {
  const el = document.querySelector('#dh-table .dht-tools ' + sel);
  const r = el.getBoundingClientRect();
  if (!r.width) return sel + ' not shown';
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit && (hit === el || el.contains(hit)) ? null : `${sel} covered by ${hit && (hit.className || hit.tagName)}`;
}).filter(Boolean)"""


@pytest.mark.parametrize("screen", list(SCREENS))
def test_share_and_close_are_never_covered_and_done_closes_the_settings(
    phone_page: Opener, real_site: Any, screen: str
) -> None:
    touch = screen != "desktop"
    page = phone_page(SCREENS[screen])
    page.goto(url(real_site, "fr/"))
    page.locator(TABLE).scroll_into_view_if_needed()
    play = page.locator(f"{TABLE} [data-dht-play]")
    play.tap() if touch else play.click()
    wait_ready(page)
    if not touch:
        page.locator(f"{TABLE} [data-dht-full]").click()  # the full table, on a desktop too
    assert page.locator(TABLE).evaluate("t => t.classList.contains('dh-table--full')")
    assert page.evaluate(TOOLS) == []
    # the settings' name whole beside them (D10: "Réglages de la t…" at 360 px)
    label = page.evaluate("""() => { const l = document.querySelector('#dh-table .dht-settings__label');
      const r = l.getBoundingClientRect();
      return {text: l.textContent, bottom: r.bottom, head: document.querySelector('#dh-table .dht-head').getBoundingClientRect().bottom,
              cut: l.scrollWidth > l.clientWidth + 1 || l.scrollHeight > l.clientHeight + 1}; }""")
    assert not label["cut"] and label["bottom"] <= label["head"] + 0.5, label
    press(page, f'{BOARD} [data-op="hint"]', touch=touch)
    assert page.locator(f'{BOARD} [data-op="hint"]').get_attribute("aria-pressed") == "true"
    assert page.evaluate(TOOLS) == [], "with the Hint shown"
    summary = page.locator(f"{TABLE} .dht-settings > summary")
    summary.tap() if touch else summary.click()
    assert page.locator(f"{TABLE} details.dht-settings").evaluate("d => d.open")
    assert page.evaluate(TOOLS) == [], "with the settings open"
    done = page.locator(f"{TABLE} [data-dht-done]")
    assert done.is_visible()
    box = done.bounding_box()
    assert box and box["y"] + box["height"] <= SCREENS[screen]["viewport"]["height"] + 0.5, "Done is on screen"
    done.tap() if touch else done.click()
    assert not page.locator(f"{TABLE} details.dht-settings").evaluate("d => d.open")
    assert page.evaluate("() => document.activeElement.matches('.dht-settings > summary')")
    assert page.evaluate(TOOLS) == []


# -- the first-run guide -------------------------------------------------------------------------

GUIDE = f"{TABLE} [data-dht-guide]"


def guide_text(page: Any) -> str:
    return str(page.locator(GUIDE).inner_text())


@pytest.mark.parametrize("screen", ["phone", "sideways"])
def test_the_first_run_guide_is_shown_once_and_remembered(phone_page: Opener, real_site: Any, screen: str) -> None:
    from dhumbal.view.guide import GUIDE_CALL, GUIDE_DRAG, GUIDE_MARK

    t = translator("ne")
    page = phone_page(SCREENS[screen], fresh=True, guide=True)
    page.goto(url(real_site, "ne/"))
    page.locator(TABLE).scroll_into_view_if_needed()
    page.locator(f"{TABLE} [data-dht-play]").tap()
    wait_ready(page)
    guide = page.locator(GUIDE)
    assert guide.is_visible()
    text = guide_text(page)
    # three steps; the call's for a draw-first profile (Nepali Games takes a card first)
    assert t(GUIDE_MARK) in text and t(GUIDE_DRAG) in text
    assert t(GUIDE_CALL["draw-first"]) in text and t(GUIDE_CALL["throw-first"]) not in text
    # it lies over the felt: never over the hand, the controls, Share or Close
    over = page.evaluate("""() => {
      const g = document.querySelector('#dh-table [data-dht-guide]').getBoundingClientRect();
      return [...document.querySelectorAll('#dh-table .dht-me .dht-card, #dh-table .dht-actions .dht-btn:not(.dht-skip), #dh-table .dht-tools .dht-btn')]
        .filter(el => { const r = el.getBoundingClientRect();
          return r.width && r.left < g.right && r.right > g.left && r.top < g.bottom && r.bottom > g.top; })
        .map(el => el.className);
    }""")
    assert over == []
    assert axe_here(page, TABLE) == []
    page.locator(f"{GUIDE} [data-dht-guide-done]").tap()
    assert guide.is_hidden()
    # remembered: not shown again on this device
    page.reload()
    if page.locator(TABLE).get_attribute("data-state") == "static":
        page.locator(f"{TABLE} [data-dht-play]").tap()
    wait_ready(page)
    assert guide.is_hidden()


def test_the_guide_words_the_call_for_throw_first_rules_and_goes_with_the_first_move(
    phone_page: Opener, real_site: Any
) -> None:
    from dhumbal.view.guide import GUIDE_CALL

    t = translator("fr")
    page = phone_page(PHONE, fresh=True, guide=True)
    page.goto(url(real_site, "fr/rules/dashain/"))
    page.locator(TABLE).scroll_into_view_if_needed()
    page.locator(f"{TABLE} [data-dht-play]").tap()
    wait_ready(page)
    text = guide_text(page)
    assert t(GUIDE_CALL["throw-first"]) in text and t(GUIDE_CALL["draw-first"]) not in text
    # the reader's first move (a card dragged or thrown) puts it away, for good
    cards = page.locator(f"{BOARD} .dht-card[aria-pressed]")
    cards.first.tap()
    press(page, f'{BOARD} [data-action="throw"]', touch=True)
    assert page.locator(GUIDE).is_hidden()
    assert page.evaluate("localStorage.getItem('dhumbal:guide')") == "seen"


def test_the_guide_is_harmless_where_storage_is_refused(phone_page: Opener, real_site: Any) -> None:
    refuse = ("Storage.prototype.getItem = Storage.prototype.setItem = function () {"
              " throw new DOMException('refused', 'SecurityError'); };")
    page = phone_page(PHONE, fresh=True, guide=True, init=refuse)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url(real_site, ""))
    page.locator(TABLE).scroll_into_view_if_needed()
    page.locator(f"{TABLE} [data-dht-play]").tap()
    wait_ready(page)
    assert page.locator(GUIDE).is_visible()
    page.locator(f"{GUIDE} [data-dht-guide-done]").tap()
    assert page.locator(GUIDE).is_hidden()
    press(page, f'{BOARD} [data-action="take stock"]', touch=True)
    assert page.locator(GUIDE).is_hidden() and errors == []


# -- small things ----------------------------------------------------------------------------------

# The line over the felt and the line above the hand: a dot that starts a line, in the
# text (the first ink of its line) or drawn before a part that starts a line and not
# cut off by the line's box (the part's box at the left of the box that clips it).
DOTS_AT_LINE_START = """() => {
  const out = [];
  const clipOf = (el) => {
    for (let a = el.parentElement; a; a = a.parentElement) {
      const m = /inset\\(([^)]*)\\)/.exec(getComputedStyle(a).clipPath);
      const box = a.getBoundingClientRect();
      if (!box.width) continue;
      if (!m) return {box, cut: box.left};
      const v = m[1].trim().split(/\\s+/).map(parseFloat);
      return {box, cut: box.left + (v.length === 4 ? v[3] : v.length >= 2 ? v[1] : v[0])};
    }
    return null;
  };
  for (const line of document.querySelectorAll('#dh-table .dht-meta, #dh-table .dht-hand__label')) {
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const i = n.data.indexOf('\u00b7');
      if (i < 0) continue;
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const dot = r.getBoundingClientRect(), c = clipOf(n.parentElement.firstChild || n.parentElement);
      if (c && dot.left - c.box.left < 6) out.push(`a dot in the text starts a line: ${line.textContent}`);
    }
    for (const part of line.querySelectorAll('*')) {
      const before = getComputedStyle(part, '::before');
      if (!before.content.includes('\u00b7') || !part.getClientRects().length) continue;
      if (getComputedStyle(part).visibility === 'hidden') continue;
      const r = part.getClientRects()[0], c = clipOf(part);
      if (!c || r.left - c.box.left > 1) continue;  // not the start of a line
      const x = before.position === 'absolute' ? r.left + parseFloat(before.left) : r.left;
      if (x >= c.cut - 0.5) out.push(`a dot starts the line of "${part.textContent}"`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["fr/", "ne/", "nl/"], ids=["fr", "ne", "nl"])
def test_no_line_starts_with_a_dot(phone_page: Opener, real_site: Any, lang: str) -> None:
    for screen in ("phone", "sideways"):
        page = phone_page(SCREENS[screen])
        page.goto(url(real_site, lang))
        page.locator(TABLE).scroll_into_view_if_needed()
        page.locator(f"{TABLE} [data-dht-play]").tap()
        wait_ready(page)
        assert page.evaluate(DOTS_AT_LINE_START) == [], screen


def test_a_tap_on_sort_hand_leaves_no_ring_and_the_keyboard_s_focus_has_one(phone_page: Opener, real_site: Any) -> None:
    page = phone_page(PHONE)
    page.goto(url(real_site, ""))
    page.locator(TABLE).scroll_into_view_if_needed()
    page.locator(f"{TABLE} [data-dht-play]").tap()
    wait_ready(page)
    # what the focused control looks like: its outline, any ring drawn by a shadow, its mark
    ring = """() => { const a = document.activeElement, st = getComputedStyle(a);
      return [a.dataset.key || a.className, a.getAttribute('aria-pressed'), st.outlineStyle, st.boxShadow,
              getComputedStyle(a, '::before').content]; }"""
    before = answers(page)
    page.locator(f"{BOARD} [data-op='sort']").tap()
    wait_answer(page, before)
    key, pressed, outline, shadow, mark = page.evaluate(ring)
    # sorted, and said so by a check mark: no ring, neither an outline nor a shadow's
    assert key == "sort" and pressed == "true" and outline == "none" and shadow == "none", (key, outline, shadow)
    assert "\u2713" in mark, mark
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    key, _, outline, _, _ = page.evaluate(ring)
    assert key == "sort" and outline != "none", (key, outline)


def test_the_card_just_taken_says_so_on_its_face(phone_page: Opener, real_site: Any) -> None:
    from dhumbal.view.hand import NEW_CARD, NEW_TAG

    t = translator("ne")
    page = phone_page(PHONE)
    page.goto(url(real_site, "ne/"))
    page.locator(TABLE).scroll_into_view_if_needed()
    page.locator(f"{TABLE} [data-dht-play]").tap()
    wait_ready(page)
    press(page, f'{BOARD} [data-action="take stock"]', touch=True)
    card = page.locator(f"{BOARD} .dht-card.dhc--new")
    assert card.count() == 1
    tag = card.locator(".dht-new-tag")
    assert tag.inner_text() == t(NEW_TAG) and tag.is_visible()
    inside = page.evaluate("""() => { const c = document.querySelector('#dh-table .dht-card.dhc--new');
      const t = c.querySelector('.dht-new-tag').getBoundingClientRect(), r = c.getBoundingClientRect();
      const hit = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
      return t.left >= r.left - 1 && t.right <= r.right + 1 && !!hit && c.contains(hit); }""")
    assert inside, "the tag is on the card, in sight"
    # its name says it too, in words
    assert t(NEW_CARD, card="").strip(" ,،") in card.locator(".dh-visually-hidden").inner_text()


def test_new_match_and_next_deal_read_on_one_line_at_360_px(phone_page: Opener, real_site: Any) -> None:
    lines = """sel => { const b = document.querySelector(sel); const r = document.createRange(); r.selectNodeContents(b);
      return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }"""
    page = open_end(phone_page, real_site, "phone", "", finished("nepali-games", 4, match=True))
    assert page.evaluate(lines, f'{BOARD} [data-op="new-match"]') == 1
    for lang in ("", "fr/", "ne/"):
        page = open_end(phone_page, real_site, "phone", lang, finished("nepali-games", 4))
        assert page.evaluate(lines, f'{BOARD} [data-op="next-deal"]') <= 2
    assert table_hash(page)
