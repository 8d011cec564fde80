"""Helpers of the mini-table tests: an independent replay of a shared game,
a simple reader policy, and readers of the rendered HTML.

The reference replay rebuilds a deal from a URL hash with the engine's own
pieces (``Deal.new``, ``botlevels.choose``, ``Deal.apply``), not through
``dhumbal.table.web``, so a test comparing the two catches a session that plays
anything other than what the engine says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from dhumbal.bots.botlevels import choose
from dhumbal.core import cards as C
from dhumbal.core.profiles import parse_profile
from dhumbal.matches.match import Match
from dhumbal.play.deal import Action, Deal, Outcome
from dhumbal.play.share import decode_hash, decode_move, read_actions
from tests.sitekit import ROOT as ROOT_DIR
from tests.sitekit import SITE_LANGUAGES

#: The site's languages, from mkdocs.yml (English first).
LANGS = SITE_LANGUAGES


#: The page side's bundles every page loads (sitegen/dhumbal_site/runtime/frontend.py), and the table's on intent.
PAGE_ASSETS = ("assets/dhumbal/head.js", "assets/dhumbal/site.css", "assets/dhumbal/site.js")
TABLE_ASSETS = ("assets/dhumbal/table.js", "assets/dhumbal/table.css", "assets/dhumbal/runtime.js")


def build_page_code(directory: Any) -> list[str]:
    """The page side's bundles, built into ``directory``/assets/dhumbal/ (as the site build does)."""
    from dhumbal_site.runtime import fonts, frontend

    (directory / fonts.DEST).mkdir(parents=True, exist_ok=True)
    for font in fonts.font_sources(ROOT_DIR):  # site.css names the Devanagari font
        (directory / fonts.DEST / font.name).write_bytes(font.read_bytes())
    out = directory / frontend.DEST
    built = frontend.build(ROOT_DIR, ROOT_DIR / "build" / "frontend")  # (the site build's cache)
    for name, path in built.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(path.read_bytes())
    return [f"{frontend.DEST}/{name}" for name in built]


@dataclass
class Reference:
    """A match replayed from a hash: its deals and the ledger after each."""

    match: Match
    outcomes: list[Outcome]
    deal: Deal


def reference_replay(hash_text: str) -> Reference:
    """Replay a seeded (non-position) game from its hash with engine calls only.

    A version-2 or 3 link holds every action: each is applied through the engine's
    checks, and every bot's action is checked against what that bot chooses
    there (so the link holds the game that was played, not just a legal one).
    A version-1 link holds the reader's moves: the bots choose theirs again.
    """
    data = decode_hash(hash_text)
    profile = parse_profile(data["p"])
    match = Match(profile, seed=data["s"])
    outcomes = []
    deal: Deal | None = None
    per_deal = data["m"] if data["v"] == 1 else data["a"]
    for k, moves in enumerate(per_deal):
        deal = match.start_deal()
        me = match.seating.index(0) if 0 in match.seating else None
        if data["v"] != 1:
            for action in read_actions(deal, moves):
                if deal.turn != me:
                    assert action == choose(deal, data["d"]), (k, len(deal.history))
                deal.apply(action, seat=deal.turn)
        else:
            codes = [c for c in moves.split(",") if c]
            for code in codes:
                while deal.turn != me:
                    deal.apply(choose(deal, data["d"]))
                deal.apply(decode_move(code), seat=me)
        while not deal.is_over:
            if deal.turn == me:
                break
            assert data["v"] == 1, "a link of every action stops where the reader is to play, or at the end of a deal"
            deal.apply(choose(deal, data["d"]))
        if deal.is_over:
            assert deal.outcome is not None
            outcomes.append(deal.outcome)
            match.finish_deal()
    assert deal is not None
    return Reference(match, outcomes, deal)


def reader_moves(hash_text: str) -> list[str]:
    """The reader's moves of each deal in a link, as the first link version wrote them
    (``"s,tKS"``): read from a later link by restoring it (every action applied once)."""
    data = decode_hash(hash_text)
    if data["v"] == 1:
        return list(data["m"])
    from dhumbal.table.links import restore_session

    return [",".join(m) for m in restore_session(data, "en").moves]


def simple_move(deal: Deal, seat: int) -> str:
    """Call at 5 or less when allowed; else take from the stock; else throw the highest card."""
    if deal.is_legal(Action.call()) and deal.total(seat) <= 5:
        return "call"
    p = deal.profile
    if (p.draw_first and deal.phase == "start") or (not p.draw_first and deal.phase == "take"):
        return "take stock"
    best = max(deal.hands[seat], key=lambda c: (p.value(c), c))
    return "throw " + C.card_text(best)


def finished_link(profile: str, players: int, *, until: str = "deal", seed: int = 1) -> str:
    """A link to a game of ``profile`` at ``players`` seats (easy bots, the reader playing
    :func:`simple_move`) just as its first deal ends (``until="match"``: the whole match)."""
    from dhumbal.core.profiles import find_profile
    from dhumbal.play.action import parse_action
    from dhumbal.table.links import link_of
    from dhumbal.table.protocol import Settings
    from dhumbal.table.session import Session

    s = Session(Settings(find_profile(profile).with_options(players=players), "easy", seed), lang="en")
    s.start()
    for _ in range(5000):
        deal = s.deal
        assert deal is not None
        if deal.is_over:
            if until == "deal" or s.match_over():
                return link_of(s)
            s.next_deal()
            continue
        me = s.my_deal_seat()
        assert me is not None and s.is_my_turn()
        s.act(parse_action(simple_move(deal, me)))
    raise AssertionError(f"the {until} did not end")


class Tags(HTMLParser):
    """Checks that HTML is well formed (every element closed, in order) and collects it."""

    VOID = {"input", "br", "img", "meta", "link", "hr", "wbr", "source", "col", "area", "base", "track"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.ids: list[str] = []
        self.text: list[str] = []
        self.printed: list[str] = []  # what card faces print (indices and pips), not page text
        self._print_depth = 0
        self._printing: list[bool] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.elements.append((tag, a))
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag not in self.VOID:
            printed = self._print_depth > 0 or any(c.startswith("dhc__") for c in str(a.get("class") or "").split())
            self.stack.append(tag)
            self._printing.append(printed)
            self._print_depth += printed

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> with open {self.stack[-3:]}")
            return
        self.stack.pop()
        self._print_depth -= self._printing.pop()

    def handle_data(self, data: str) -> None:
        if data.strip():
            (self.printed if self._print_depth else self.text).append(data.strip())


def parse_html(html: str) -> Tags:
    t = Tags()
    t.feed(html)
    t.close()
    return t


_CELL = re.compile(r'<td data-row="([a-z-]+)" data-value="([^"]*)">([^<]*)</td>')
SCORE_COLUMNS = re.compile(r'<th scope="col" data-row="([a-z-]+)">')


def score_rows(html: str) -> dict[str, list[tuple[str, str]]]:
    """``{row key: [(machine value, shown text), …]}`` of the rendered result table
    (one line per seat, in seat order; a column per row of the engine's scores)."""
    rows: dict[str, list[tuple[str, str]]] = {}
    for key, value, shown in _CELL.findall(html):
        rows.setdefault(key, []).append((value, shown))
    return rows


def expected_rows(match: Match, outcome: Outcome) -> dict[str, list[Any]]:
    """The score rows the engine's settlement gives, as machine values (by deal seat)."""
    p = match.profile
    seats = match.seating
    rows: dict[str, list[Any]] = {"hand": list(outcome.hands)}
    if p.settlement == "collect":
        rows["took"] = list(outcome.took)
        rows["paid"] = list(outcome.paid)
    elif p.settlement == "pay-caller":
        from dhumbal.matches.match import money_text

        rows["paid"] = list(outcome.paid)
        rows["money"] = [money_text(v, p.money_per_point or "0") for v in outcome.paid]
    else:
        rows["points"] = list(outcome.points)
    rows["total"] = [match.scores[m] for m in seats]
    return rows
