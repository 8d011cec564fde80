"""The rules pages' "chance of being caught" chart and the list of bot levels.

``<!-- dhumbal:call-odds PROFILE -->`` draws, from :func:`dhumbal.bots.odds.chart`,
a line chart (inline SVG, one line per card count, no script and no library)
with a text description, and the same figures as a table beside it, in the
reader's language. The figures are computed once per profile for a given
engine and kept in ``build/call-odds/`` (see :func:`profile_chart`), so a
build only pays for them after the engine changed.

``<!-- dhumbal:bots PROFILE -->`` lists the four bot levels with the numbers
they play by (:func:`dhumbal.bots.levels.level_notes`).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from typing import Any

from dhumbal.bots.levels import PERCENT, level_notes, percent
from dhumbal.bots.odds import CHART_COUNTS, CHART_SAMPLES, Chart, chart
from dhumbal.core.i18n import N_, NP_, number, translator
from dhumbal.core.profiles import Profile

from .. import ROOT
from .markers import MarkerContext
from .render import render

# Layout of the chart, in SVG user units (it scales to the page's width).
WIDTH, HEIGHT = 440, 280
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 46
GRID = (0, 25, 50, 75, 100)

TITLE = N_("How often a call is caught, at a table of {players}")
X_LABEL = N_("Caller's total")
Y_LABEL = N_("Chance of being caught")
HAND_HEAD = N_("Caller's cards")
COUNTS_HEAD = N_("Cards each other player holds")
EMPTY_HAND = N_("no cards")
COUNT = NP_("Others hold {count} card each", "Others hold {count} cards each")
LINE_DESC = NP_(
    "With {count} card each: {first} on a total of {low}, {last} on {high}.",
    "With {count} cards each: {first} on a total of {low}, {last} on {high}.",
)
CHART_DESC = N_("A line chart: across, the caller's total from {low} to {high}; up, the chance that the call is caught; one line for each number of cards the other {others} players hold.")
NOTE = N_("Each row comes from {samples} deals sampled by the game engine when this page was built: the other players' cards are drawn at random from every card the caller does not hold, and nothing else is known. A tie goes against the caller. The caller's cards are the fewest that make the total (shown in the table). The figures are rounded to whole percent; 19 times in 20 each is within one point of the exact chance.")
NOTE_LINK = N_("The table's Hint gives the same figure for the position in play, from what you have seen there.")

_CHARTS: dict[str, Chart] = {}
#: Chart figures kept between builds, named by what makes them (see :func:`fingerprint`).
CACHE = ROOT / "build" / "call-odds"
#: The engine modules the figures depend on.
SOURCES = ("core/cards.py", "core/profiles.py", "play/groups.py", "play/deal.py", "bots/sampler.py", "bots/odds.py")


def fingerprint() -> str:
    """A hash of the engine code the figures come from and of the chart's sizes."""
    h = hashlib.sha256(f"{CHART_SAMPLES}/{CHART_COUNTS}".encode())
    engine = ROOT / "engine" / "dhumbal"
    for name in SOURCES:
        h.update(name.encode() + b"\0" + (engine / name).read_bytes())
    return h.hexdigest()[:20]


def profile_chart(profile: Profile) -> Chart:
    """The chart figures of ``profile``: computed once for a given engine (about half a second
    a profile), then read from ``build/call-odds/`` by later builds and shared by the languages."""
    key = profile.canonical()
    if key in _CHARTS:
        return _CHARTS[key]
    path = CACHE / f"{fingerprint()}-{key}.json"
    found: Chart | None = None
    if path.is_file():
        try:
            found = Chart.from_json(json.loads(path.read_text(encoding="utf-8")))
        except ValueError:  # a damaged file: compute again and replace it
            found = None
    if found is None or found.profile != key:
        found = chart(profile)
        CACHE.mkdir(parents=True, exist_ok=True)
        for old in CACHE.glob(f"*-{key}.json"):
            old.unlink(missing_ok=True)
        scratch = path.with_name(f".{path.name}.{os.getpid()}")
        scratch.write_text(json.dumps(found.to_json()), encoding="utf-8")
        os.replace(scratch, path)  # whole or not at all, even with builds side by side
    _CHARTS[key] = found
    return found


@dataclass(frozen=True)
class Line:
    count: int
    label: str
    points: str  # "x,y x,y …"
    dots: list[tuple[float, float, str]]  # x, y, the figure in words


def render_call_odds(ctx: MarkerContext) -> str:
    profile = ctx.profile()
    data = profile_chart(profile)
    lang = ctx.lang
    t = translator(lang)
    totals = data.totals
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    step = plot_w / max(1, len(totals) - 1)

    def x(i: int) -> float:
        return round(LEFT + i * step, 1)

    def y(share: float) -> float:
        return round(TOP + plot_h * (1 - share), 1)

    lines = []
    for j, k in enumerate(data.counts):
        col = [row[j] for row in data.caught]
        lines.append(Line(
            count=k,
            label=t.plural(*COUNT, k),
            points=" ".join(f"{x(i)},{y(v)}" for i, v in enumerate(col)),
            dots=[(x(i), y(v), percent(v, lang, in_words=False)) for i, v in enumerate(col)],
        ))
    descriptions = [
        t.plural(*LINE_DESC, k, first=percent(row_first, lang), last=percent(row_last, lang),
                 low=totals[0], high=totals[-1])
        for k, row_first, row_last in zip(
            data.counts, data.caught[0], data.caught[-1],
        )
    ]
    ticks_x = [(x(i), number(tot, lang)) for i, tot in enumerate(totals)]
    ticks_y = [(y(g / 100), t(PERCENT, percent=number(g, lang))) for g in GRID]
    rows = []
    for tot, hand, figures in zip(totals, data.hands, data.caught):
        rows.append({
            "total": number(tot, lang),
            "hand": " ".join(_card(c) for c in hand) if hand else t(EMPTY_HAND),
            "cells": [percent(v, lang, in_words=False) for v in figures],
        })
    others = data.players - 1
    return render(
        "call_odds.html", lang,
        uid=f"dh-odds-{profile.key}",
        profile_key=profile.key,
        title=t(TITLE, players=data.players),
        chart_desc=t(CHART_DESC, low=totals[0], high=totals[-1], others=others),
        descriptions=descriptions,
        width=WIDTH, height=HEIGHT, left=LEFT, right=WIDTH - RIGHT, top=TOP, bottom=HEIGHT - BOTTOM,
        ticks_x=ticks_x, ticks_y=ticks_y, lines=lines,
        x_label=t(X_LABEL), y_label=t(Y_LABEL), hand_head=t(HAND_HEAD),
        counts_head=t(COUNTS_HEAD),
        count_heads=[{"short": number(k, lang)} for k in data.counts],
        rows=rows,
        note=t(NOTE, samples=number(data.samples, lang)),
        note_link=t(NOTE_LINK),
    )


def _card(card: int) -> str:
    from dhumbal.core.cards import card_text

    return card_text(card)


def render_bots(ctx: MarkerContext) -> str:
    profile = ctx.profile()
    notes: list[dict[str, Any]] = [
        {"level": level, "name": name[:1].upper() + name[1:], "text": text}
        for level, name, text in level_notes(profile, ctx.lang)
    ]
    return render("bots.html", ctx.lang, profile_key=profile.key, levels=notes)
