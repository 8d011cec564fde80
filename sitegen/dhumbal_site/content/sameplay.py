"""The comparison page's "same deal under three rule sets" section.

:func:`dhumbal.lab.samedeal.same_deal` plays one seeded opening under every
profile with bots of one level and finds where play parts; this module puts
that into the page's language: the dealt position (drawn like a worked
example's), the sentences saying where and why play parts, and a table of
the turns, one column per profile, whose cells are the engine's own event
messages.
"""

from __future__ import annotations

from typing import Any, Final

from dhumbal.core.i18n import N_, number, translator
from dhumbal.lab.samedeal import SameDeal, divergence_text, same_deal, seat_names
from dhumbal.view.settings import LEVELS

from .diagram import TOTAL, diagram
from .render import render

INTRO: Final = N_("One shuffle, dealt to the same {count} players ({names}), and played for the first {turns} turns under each profile's standard rules by bots of one level ({level}). The rules engine plays all three while the site is built: the cards are the same, only the rules differ.")
DEALT: Final = N_("The deal, the same under every rule set")
FACE_UP: Final = N_("Face-up card")
TURN_OF: Final = N_("Turn {number}: {seat}")
TURN: Final = N_("Turn {number}")
PARTS_HERE: Final = N_("play parts here")
OVER: Final = N_("The deal is over.")
CAPTION: Final = N_("Turn by turn: what each profile's bots did, and the player's hand total after the turn.")
NAMES_SEPARATOR: Final = N_(", ")

_CACHE: dict[tuple[int | str, int, str, int], SameDeal] = {}


def _played() -> SameDeal:
    """The opening, played once per process (it does not depend on the language)."""
    from dhumbal.lab import samedeal

    key = (samedeal.SEED, samedeal.PLAYERS, samedeal.DIFFICULTY, samedeal.TURNS)
    if key not in _CACHE:
        _CACHE[key] = same_deal()
    return _CACHE[key]


def context(result: SameDeal, lang: str) -> dict[str, Any]:
    t = translator(lang)
    names = seat_names(result.players, lang)
    profiles = [{"key": p.key, "name": t(p.name)} for p in result.profiles]
    turns = max(len(ts) for ts in result.turns)
    start = diagram(result.start, names=names, lang=lang, show_takable=False, show_totals=False)
    start["pile_label"] = t(FACE_UP)
    parts: dict[int, set[int]] = {}
    for d in result.divergences:
        if d.turn:
            parts.setdefault(d.turn, set()).update(d.profiles)
    rows = []
    for n in range(1, turns + 1):
        seats = {ts[n - 1].seat for ts in result.turns if len(ts) >= n}
        if len(seats) != 1:
            raise ValueError(f"turn {n} of the sample deal falls to different seats under different profiles")
        seat = seats.pop()
        cells = []
        for i, ts in enumerate(result.turns):
            turn = ts[n - 1] if len(ts) >= n else None
            cells.append({
                "events": [m.text(lang, names) for m in turn.events] if turn else [],
                "total": t(TOTAL, total=turn.total) if turn else "",
                "empty": t(OVER),
                "parts": i in parts.get(n, set()),
            })
        rows.append({
            "number": n,
            "label": t(TURN_OF, number=n, seat=names[seat]),
            "parts": t(PARTS_HERE) if n in parts else "",
            "cells": cells,
        })
    return {
        "intro": t(INTRO, count=result.players, names=t.raw(NAMES_SEPARATOR).join(names), turns=turns,
                   level=t(LEVELS[result.difficulty])),
        "start_panel": {"diagram": start, "diagram_label": t(DEALT), "score": None},
        "profiles": profiles,
        "divergences": [
            {"turn": d.turn, "turn_label": t(TURN, number=d.turn), "code": d.code,
             "profiles": [result.profiles[i].key for i in d.profiles],
             "text": divergence_text(result, d, lang, names)}
            for d in sorted(result.divergences, key=lambda d: (d.turn == 0, d.turn))
        ],
        "rows": rows,
        "caption": t(CAPTION),
        "turns": number(turns, lang),
    }


def same_deal_context(lang: str) -> dict[str, Any]:
    """The section's context in ``lang`` (for ``samedeal.html`` and the search text)."""
    return context(_played(), lang)


def render_same_deal(sd: dict[str, Any], lang: str) -> str:
    """The section's HTML in ``lang``."""
    return render("samedeal.html", lang, sd=sd, ex={"names": []})
