"""Two to six seats at the showdown and mid-deal: nothing covers a hand, a mark or a seat (issue 51).

On the real built site with the engine answering from this process
(``phone_page``), a phone upright (360 x 780, touch), held sideways
(780 x 360, touch) and a desktop (1366 x 900), in English, French and
Nepali, measured by bounding boxes:

- A deal's end: the strip of scores never lies over a shown hand, a
  hand's total or a seat's marks of the ending (the caller's "called on
  N", "caught", "winner"); every one of them is on screen and on top
  (``elementFromPoint`` finds it); each fan of cards lies inside its own
  seat and no two seats' cards overlap, so whose card is whose is plain.
  Two to six seats here; the ends test_table_showdown_browser.py opens
  (tabledriver.SHOWDOWN_ENDS) are measured there, on the same screens and
  languages, with the same measure, saving a page load each.
- Mid-deal with five seats, while bots show the cards they picked up:
  every seat whole inside the felt (none cut by the stock and pile's row).
- While the bots play, the "to play" mark on a seat's edge leaves its name
  in sight (it covered half of "Bot 1").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from tests.table.tabledriver import (
    _NEXT,
    BOARD,
    DESKTOP,
    LANDSCAPE,
    PHONE,
    SHOWDOWN_CLEAR,
    SHOWDOWN_ENDS,
    TABLE,
    _act,
    press,
    wait_ready,
)
from tests.table.tablekit import finished_link, simple_move

Opener = Callable[..., Any]
SCREENS = {"phone": PHONE, "sideways": LANDSCAPE, "desktop": DESKTOP}
LANGS = {"en": "", "fr": "fr/", "ne": "ne/"}
CASES = [("nepali-games", n) for n in (2, 3, 4, 5, 6)] + [("dashain", 6), ("cardrulesplus", 5)]


@functools.cache
def finished(profile: str, players: int) -> str:
    return finished_link(profile, players)


@functools.cache
def picked_up(profile: str, players: int, least: int = 2) -> str:
    """A link to a deal of ``profile`` in play where ``least`` other seats show cards they picked up."""
    from dhumbal.core.profiles import find_profile
    from dhumbal.play.action import parse_action
    from dhumbal.table.links import link_of
    from dhumbal.table.protocol import Settings
    from dhumbal.table.session import Session

    for seed in range(1, 60):
        s = Session(Settings(find_profile(profile).with_options(players=players), "easy", seed), lang="en")
        s.start()
        for _ in range(400):
            deal = s.deal
            assert deal is not None
            if deal.is_over:
                break
            me = s.my_deal_seat()
            assert me is not None
            if sum(1 for seat, known in enumerate(deal.known) if known and seat != me) >= least and s.is_my_turn():
                return link_of(s)
            s.act(parse_action(simple_move(deal, me)))
    raise AssertionError(f"no deal where {least} seats picked up a card")


# Mid-deal: every other seat whole inside the felt's seats (nothing scrolled or cut away).
SEATED = """() => {
  const out = [];
  const felt = document.querySelector('#dh-table .dht-felt');
  const list = felt.querySelector('.dht-seats');
  const f = felt.getBoundingClientRect(), l = list.getBoundingClientRect();
  if (list.scrollHeight > list.clientHeight + 1) out.push(`the seats scroll: ${list.scrollHeight} in ${list.clientHeight}`);
  for (const seat of list.querySelectorAll('.dht-seat')) {
    const r = seat.getBoundingClientRect();
    if (r.top < Math.max(f.top, l.top) - 0.5 || r.bottom > Math.min(f.bottom, l.bottom) + 0.5) out.push(`seat ${seat.dataset.seat} cut`);
  }
  const known = list.querySelectorAll('.dht-seat__known').length;
  return {out, known};
}"""


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_strip_never_covers_a_hand_and_fans_never_overlap(
    phone_page: Opener, real_site: Any, screen: str, lang: str
) -> None:
    # the ends test_table_showdown_browser.py opens on the same screens and in the same
    # languages are measured there, on its own page load (tabledriver.SHOWDOWN_ENDS)
    assert set(SHOWDOWN_ENDS) <= set(CASES)
    problems: list[str] = []
    for profile, players in [case for case in CASES if case not in SHOWDOWN_ENDS]:
        page = phone_page(SCREENS[screen])
        page.goto(str(real_site.server.url(f"{LANGS[lang]}#{finished(profile, players)}")))
        wait_ready(page)
        page.wait_for_function(f"() => document.querySelector('{BOARD}').dataset.over === 'true'")
        problems += [f"{profile}, {players} seats: {p}" for p in page.evaluate(SHOWDOWN_CLEAR, screen == "desktop")]
    assert problems == []


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_no_seat_is_cut_mid_deal_with_five_seats(phone_page: Opener, real_site: Any, lang: str) -> None:
    for profile, players, least in (("dashain", 5, 2), ("dashain", 6, 2)):
        page = phone_page(PHONE)
        page.goto(str(real_site.server.url(f"{LANGS[lang]}#{picked_up(profile, players, least)}")))
        wait_ready(page)
        seated = page.evaluate(SEATED)
        assert seated["known"] >= 1, seated
        assert seated["out"] == [], (profile, seated)


# The seat to play while the bots' moves show: its "to play" mark and its name do not meet.
TURN_MARK = """() => {
  const seat = document.querySelector('#dh-table .dht-seats > .dht-seat--turn');
  const badge = seat && seat.querySelector('.dht-badge--turn');
  if (!badge) return null;
  const b = badge.getBoundingClientRect(), n = seat.querySelector('.dht-seat__name').getBoundingClientRect();
  return {meets: b.bottom > n.top + 0.5 && b.top < n.bottom - 0.5 && b.left < n.right && n.left < b.right,
          badge: [b.top, b.bottom], name: [n.top, n.bottom]};
}"""


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_to_play_mark_leaves_the_name_in_sight(phone_page: Opener, real_site: Any, lang: str) -> None:
    page = phone_page(PHONE, speed="slow")
    page.goto(str(real_site.server.url(f"{LANGS[lang]}#{picked_up('dashain', 6)}")))
    wait_ready(page)
    for _ in range(3):
        step = page.evaluate(_NEXT)
        if step["move"] == "throw":
            _act(page, step, True)
            continue
        press(page, *step["control"], touch=True, answer=False)  # the bots play after this one
        break
    page.wait_for_selector(f"{TABLE}[data-busy] .dht-seat--turn .dht-badge--turn")
    mark = page.evaluate(TURN_MARK)
    assert mark is not None and not mark["meets"], mark
