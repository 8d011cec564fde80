"""The rules pages' table of measured bot strength.

``<!-- dhumbal:strength PROFILE -->`` shows, for one profile, the share of
deals each bot level won against three hard bots, and the expert's share
against the aggressive reference bot (head to head and against three of it),
each with its number of deals and its 95 % interval, in the reader's
language, and says what a win is: where the rules name no winner (a caught
call in ``cardrulesplus``) the seats tied for the best score share the deal
(:mod:`dhumbal.lab.arena`).

The figures come from :mod:`dhumbal.lab.strength` and are kept in
``strength.json`` beside this module, **checked into the repository** rather
than measured by the build: 2,000 deals of each of the eighteen tables take
about half an hour of CPU time, far more than a build may spend, and a clean
checkout (CI, a new contributor) must build the same pages. The file is
trusted only as far as it is checked: every row must read back
(:func:`dhumbal.lab.strength.load`), every table of every profile must be there,
and each row's fingerprint (the bots' moves in its first deals) must be what
today's bots play, so figures measured with other bots fail the build with
the command that measures them again (``make strength``) instead of showing
numbers the bots no longer earn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dhumbal.bots.levels import LEVEL_NAMES, PERCENT, percent
from dhumbal.core.i18n import N_, NP_, number, translator
from dhumbal.core.profiles import PROFILE_KEYS
from dhumbal.lab.strength import Strength, check_current, lineups, load

from .markers import MarkerContext
from .render import render

#: The stored figures (see the module docstring).
FIGURES = Path(__file__).with_name("strength.json")

CAPTION = N_("How often each bot won, measured over seeded deals")
BOT_HEAD = N_("Bot")
AGAINST_HEAD = N_("Against")
DEALS_HEAD = N_("Deals")
SHARE_HEAD = N_("Deals won")
INTERVAL_HEAD = N_("Interval ({percent})")
HARD = NP_("{count} hard bot", "{count} hard bots")
AGGRESSIVE = NP_("{count} aggressive reference bot", "{count} aggressive reference bots")
RANGE = N_("{low} to {high}")
NOTE = N_(
    "Each row is one bot playing the deals shown against the others named, at this profile's standard rules, "
    "the dealer moving one seat each deal. A bot that played no better than the others would win a quarter of "
    "the deals at a table of four and half of them head to head. The interval is where the true share lies "
    "19 times in 20 (the Wilson score interval), given the deals played."
)
WON = N_(
    "A bot wins a deal when the rules make it the deal's winner: the caller who is not caught, or the player who "
    "catches the caller."
)
SHARED = N_(
    "Under these rules a caught caller scores the penalty and everyone else scores nothing, so nobody wins that deal "
    "outright: "
    "the others share it, each counting as a third of a win at a table of four and a whole win head to head."
)
REFERENCE = N_(
    "The aggressive reference bot plays as a published study of Dhumbal agents describes its champion: it calls "
    "as soon as the rules let it, and otherwise throws its heaviest cards, picking up only a light face-up card."
)

FIRST_TURN = N_(
    "With no call limit the reference bot calls on its very first turn, so at a table of four three deals in "
    "four end before the expert has played at all."
)

_ROWS: dict[str, list[Strength]] = {}


def figures(path: Path | None = None) -> dict[str, list[Strength]]:
    """The stored rows by profile (:data:`FIGURES` by default), checked (``ValueError`` naming the file and the row otherwise)."""
    path = path or FIGURES
    if str(path) in _ROWS:
        return {k: [r for r in _ROWS[str(path)] if r.profile == k] for k in PROFILE_KEYS}
    where = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{where}: cannot be read ({exc.strerror}); measure with `make strength`") from None
    rows = load(text, where)
    have = {(r.profile, r.lineup) for r in rows}
    for key in PROFILE_KEYS:
        for lineup in lineups():
            if (key, tuple(lineup)) not in have:
                raise ValueError(f"{where}: no figures for {key} {','.join(lineup)}; measure with `make strength`")
    check_current(rows, where)
    _ROWS[str(path)] = rows
    return {k: [r for r in rows if r.profile == k] for k in PROFILE_KEYS}


def table_rows(key: str, lang: str, path: Path | None = None) -> list[dict[str, str]]:
    """The rows of ``key``'s table in the reader's language, in :func:`dhumbal.lab.strength.lineups` order."""
    t = translator(lang)
    by_lineup = {r.lineup: r for r in figures(path)[key]}
    out = []
    for lineup in lineups():
        row = by_lineup[tuple(lineup)]
        others = len(lineup) - 1
        kind = HARD if lineup[1] == "hard" else AGGRESSIVE
        low, high = row.interval()
        out.append({
            "level": lineup[0],
            "bot": t(LEVEL_NAMES[lineup[0]]),
            "against": t.plural(*kind, others, count=number(others, lang)),
            "deals": number(row.deals, lang),
            "share": percent(row.share, lang, in_words=False),
            "interval": t(RANGE, low=percent(low, lang, in_words=False), high=percent(high, lang, in_words=False)),
        })
    return out


def render_strength(ctx: MarkerContext) -> str:
    profile = ctx.profile()
    t = translator(ctx.lang)
    context: dict[str, Any] = {
        "uid": f"dh-strength-{profile.key}", "profile_key": profile.key, "caption": t(CAPTION),
        # the interval stands under the share in one column, so the table fits a phone's width
        "heads": [t(h) for h in (BOT_HEAD, AGAINST_HEAD, DEALS_HEAD)], "share_head": t(SHARE_HEAD),
        "interval_head": t(INTERVAL_HEAD, percent=t(PERCENT, percent=number(95, ctx.lang))),
        "rows": table_rows(profile.key, ctx.lang), "note": t(NOTE), "reference": t(REFERENCE),
        "won": t(SHARED) if profile.settlement == "cumulative" else t(WON),
        "first_turn": t(FIRST_TURN) if profile.call_limit is None else "",
    }
    return render("strength.html", ctx.lang, **context)
