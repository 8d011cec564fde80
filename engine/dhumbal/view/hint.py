"""The hint: the reader's call odds in words, for the table's status line."""

from __future__ import annotations

from typing import Final

from ..i18n import N_, number, translator
from ..odds import CallOdds

HINT_CAUGHT: Final = N_("A call now on {total} would be caught in {caught} of {samples} deals that fit what you have seen.")
HINT_CAUGHT_IF: Final = N_("If you could call now on {total}, you would be caught in {caught} of {samples} deals that fit what you have seen.")
HINT_VALUE_PAID: Final = N_("Calling is worth {call} points to you on average; playing on, {play_on} ({playouts} of those deals played out to the end).")
HINT_VALUE_POINTS: Final = N_("Calling scores you {call} points on average; playing on, {play_on} (fewer points are better; {playouts} of those deals played out to the end).")


def hint_text(odds: CallOdds, lang: str, allowed: bool = True) -> str:
    """The reader's call odds in words, for the status line.

    ``allowed``: whether a call is allowed now; when it is not, the figure is
    what a call would risk if it were (the standing reason under the Call
    button says why it is not).
    """
    from ..levels import percent

    t = translator(lang)
    caught = t(HINT_CAUGHT if allowed else HINT_CAUGHT_IF, total=odds.total, caught=percent(odds.caught, lang),
               samples=number(odds.samples, lang))
    if not allowed or odds.play_on_value is None:
        return caught
    signed = odds.measure == "paid"
    value = t(HINT_VALUE_PAID if signed else HINT_VALUE_POINTS,
              call=_decimal(odds.call_value, lang, signed), play_on=_decimal(odds.play_on_value, lang, signed),
              playouts=number(odds.playouts, lang))
    return caught + " " + value


def _decimal(x: float, lang: str, signed: bool) -> str:
    return number(x, lang, signed=signed, decimals=1)
