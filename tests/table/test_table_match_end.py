"""The match's end at the table, and the profile's unit on the plates (issue 51).

Whole matches played by the engine (the reader following the simple policy
of ``tablekit``), then the board the reader sees once the last deal is over:

- the strip says the match is over (not "Deal N"), a headline names the
  match's winner and the reader's place, and its lines are the final
  standings in place order, the match's winners marked "match winner";
  the last deal's winner is marked as such on the felt, not as the winner;
- dashain's totals are money everywhere: the strip, the standings in the
  details, the seats' plates and the reader's own line (mid-match too);
- the primary button plays again with the same settings.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from dhumbal.core.i18n import translator
from dhumbal.core.profiles import find_profile
from dhumbal.matches.match import money_text
from dhumbal.play.action import parse_action
from dhumbal.table.protocol import Settings
from dhumbal.table.session import Session
from dhumbal.view import matchend, scores
from dhumbal.view.table import render_board
from tests.table.tablekit import parse_html, simple_move


def played(profile: str, players: int, seed: int, *, lang: str = "en", until_match: bool = True) -> Session:
    s = Session(Settings(find_profile(profile).with_options(players=players), "easy", seed), lang=lang)
    s.start()
    for _ in range(20000):
        deal = s.deal
        assert deal is not None
        if deal.is_over:
            if s.match_over() or not until_match:
                return s
            s.next_deal()
            continue
        me = s.my_deal_seat()
        assert me is not None
        s.act(parse_action(simple_move(deal, me)))
    raise AssertionError("the match did not end")


def board(s: Session) -> str:
    return render_board(s.model(live=True, table_id="t"))


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def part(html: str, start: str, end: str) -> str:
    a = html.index(start)
    return html[a:html.index(end, a)]


@pytest.mark.parametrize("profile", ["nepali-games", "dashain", "cardrulesplus"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_match_end_names_the_winner_your_place_and_the_standings(profile: str, seed: int) -> None:
    t = translator("en")
    s = played(profile, 5, seed)
    match = s.match
    assert match is not None and match.deal is not None and match.deal.outcome is not None
    html = board(s)
    assert parse_html(html).errors == []
    strip = part(html, '<details class="dht-fold"', "</details>")
    words = text(strip)
    # no deal's number: the title names the match's winner
    assert "Deal " not in words
    title = text(part(strip, 'class="dht-fold__title"', "</span>") + "</span>")
    standings = match.standings()
    first = [st for st in standings if st.place == 1]
    mine = next(st for st in standings if st.seat == s.me)
    if len(first) == 1 and first[0].seat == s.me:
        assert t(matchend.WINNER_YOU) in title
    elif len(first) == 1:
        assert t(matchend.WINNER_ONE, name=s.names[first[0].seat]) in title
    else:
        assert t(matchend.WINNER_SHARED, names="").split("{")[0].strip(" .") in title
    if mine.place != 1 or len(first) > 1:
        assert f"place {mine.place} of {len(standings)}" in words
    # the lines: the standings in place order, the match's winners (only) marked and lit
    rows = re.findall(r'<tr class="([^"]*)" data-match-seat="(\d+)">(.*?)</tr>', strip)
    assert [int(seat) for _, seat, _ in rows] == [st.seat for st in standings]
    for (cls, seat, cells), st in zip(rows, standings):
        marked = t(matchend.BADGE_MATCH_WINNER) in text(cells)
        assert marked == (st.place == 1) and ("dht-score__seat--winner" in cls) == (st.place == 1), (seat, st)
        assert f'data-strip="place" data-value="{st.place}"' in cells
    # the last deal's winner: on the felt as the last deal's, never "winner"
    felt = part(html, '<div class="dht-felt"', '<div class="dht-center"')
    assert f">{t(scores.BADGE_WINNER)}<" not in felt and "dht-seat--winner" not in felt
    winner = match.deal.outcome.winner
    if winner is not None and winner != s.my_deal_seat():
        assert t(scores.BADGE_LAST_DEAL) in text(felt)
    # the status line says it too; Play again starts a match with the same settings
    assert matchend.headline(s.model(live=True, table_id="t"), t) in s.status()
    assert re.search(r'data-op="new-match"[^>]*>' + re.escape(t(matchend.PLAY_AGAIN)), html) or \
        t(matchend.PLAY_AGAIN) in part(html, 'data-op="new-match"', "</button>")


def test_dashain_totals_are_money_on_the_strip_the_standings_and_the_plates() -> None:
    rate = find_profile("dashain").money_per_point or "0"
    # mid-match: every plate in money, as the strip shows it
    s = played("dashain", 4, 5, until_match=False)
    s.next_deal()
    assert s.match is not None
    html = board(s)
    plates = re.findall(r'<span class="dht-seat__score" data-score="(-?\d+)">([^<]*)</span>', html)
    assert len(plates) == 4
    for points, shown in plates:
        amount = money_text(int(points), rate)
        assert shown.endswith(("+" if int(points) > 0 else "") + amount.replace("-", "−")), (points, shown)
    # the match's end: the strip's and the standings' totals in money
    s = played("dashain", 4, 5)
    html = board(s)
    strip = part(html, '<details class="dht-fold"', "</details>")
    for points, shown in re.findall(r'data-strip="total" data-value="(-?\d+)">([^<]*)<', strip):
        assert shown.lstrip("+").replace("−", "-") == money_text(int(points), rate)
    standings = part(html, 'class="dht-standings"', "</table>")
    for points, shown in re.findall(r'data-score="(-?\d+)">.*?<td>([^<]*)</td></tr>', standings):
        assert shown.lstrip("+").replace("−", "-") == money_text(int(points), rate)


def test_a_tie_for_first_is_said_as_shared(monkeypatch: Any) -> None:
    t = translator("en")
    s = played("nepali-games", 3, 1)
    assert s.match is not None
    s.match.scores = [10, 10, -20]
    words = text(part(board(s), '<details class="dht-fold"', "</details>"))
    names = ", ".join(t(matchend.YOU) if seat == s.me else s.names[seat] for seat in (0, 1))
    assert t(matchend.WINNER_SHARED, names=names) in words
    assert words.count(t(matchend.BADGE_MATCH_WINNER)) == 2
