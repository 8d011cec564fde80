"""How each bot level plays, in words, from the numbers the bots themselves use.

The rules pages list the four levels for each profile (``<!-- dhumbal:bots
PROFILE -->``); every figure in the text (the totals each level calls at,
how many deals the expert samples, the risk it accepts) is read from
:mod:`dhumbal.bots.heuristic` and :mod:`dhumbal.bots.expert`, so the words cannot drift
from the play.
"""

from __future__ import annotations

from typing import Final

from ..core.i18n import N_, number, translator
from ..core.profiles import Profile
from . import botlevels, expert, heuristic

LEVEL_NAMES: Final = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard"), "expert": N_("Expert")}

EASY: Final = N_("calls as soon as its total is {total} or less, picks up only the lightest face-up cards, and throws its heaviest card or pair.")
MEDIUM: Final = N_("calls at {total} or less, throws its heaviest cards, and picks up a face-up card when it is light or makes a pair.")
HARD: Final = N_("calls at {total} or less, or sooner when every other hand is sure to be heavier; it remembers the cards the others picked up and throws with an eye on what it keeps.")
EXPERT: Final = N_("thinks about the cards it cannot see. Before each decision it deals them again {samples} times, in every way that fits what it has seen, and counts for less the deals where a player would have kept a card heavier than a single card it threw. It calls when at most {risk} of those deals would catch it, and it takes and throws for the hand they are likely to leave it.")
PERCENT: Final = N_("{percent}%")
# TRANSLATORS: a share over 99 % but under 100 %, in a sentence
# ("caught in more than 99% of 2,000 deals"); {percent} is "99%" as
# your language writes it.
MORE_THAN: Final = N_("more than {percent}")
# TRANSLATORS: a share under 1 % but over 0 %, in a sentence ("caught
# in less than 1% of the deals"); {percent} is "1%" as your language
# writes it.
LESS_THAN: Final = N_("less than {percent}")


def call_total(profile: Profile, level: str) -> int | None:
    """The highest total a level calls at on its own (``None`` for the expert, which weighs the risk)."""
    if level == "expert":
        return None
    limit = profile.call_limit
    return heuristic.NO_LIMIT_CALL[level] if limit is None else max(0, limit - heuristic.MARGIN[level])


def percent(share: float, lang: str, *, in_words: bool = True) -> str:
    """``25%`` in the reader's language, in whole percent. A share under 1 % (but not 0) and
    one over 99 % (but not all) are said so: in words for a sentence ("more than 99%",
    "plus de 99 %"), or, with ``in_words=False``, as ``>99%`` and ``<1%`` for a table's
    cell or a chart's label."""
    t = translator(lang)
    whole = round(share * 100)
    bound = LESS_THAN if share > 0 and whole == 0 else MORE_THAN if share < 1 and whole == 100 else None
    if bound is None:
        return t(PERCENT, percent=number(whole, lang))
    edge = 1 if bound == LESS_THAN else 99
    if not in_words:
        return t(PERCENT, percent=number(("<" if bound == LESS_THAN else ">") + str(edge), lang))
    return t(bound, percent=t(PERCENT, percent=number(edge, lang)))


def level_notes(profile: Profile, lang: str) -> list[tuple[str, str, str]]:
    """``(level, name, how it plays)`` for every level, in the reader's language."""
    t = translator(lang)
    out = []
    for level in botlevels.DIFFICULTIES:
        if level == "expert":
            risk = expert.risk(profile)
            text = t(EXPERT, samples=number(expert.SAMPLES, lang), risk=percent(risk / 100, lang))
        else:
            total = call_total(profile, level)
            text = t({"easy": EASY, "medium": MEDIUM, "hard": HARD}[level], total=total or 0)
        out.append((level, t(LEVEL_NAMES[level]), text))
    return out
