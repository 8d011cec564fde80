"""The hint: the expert's move and, at the start of a turn, the reader's call odds, in words.

:func:`hint_words` is everything the table's Hint says, worked out from the
reader's :class:`~dhumbal.play.deal.SeatView` alone (the odds by
:func:`dhumbal.bots.odds.call_odds`, the move by :func:`.suggest.suggest`), so it
cannot depend on a card the reader cannot see. The move and the figures
are one account:

- where the raw figures favour calling and the expert plays on, or the other
  way round, one line says why: the expert calls by its own chance of being
  caught, weighed by how the others have played, against the risk it takes
  on (:func:`dhumbal.bots.expert.risk`);
- a call open on exactly the call limit says the tie risk in words;
- after a take (or, throwing first, after the throw) there are no call odds:
  the hint is the move that finishes the turn and its why;
- where a call is not allowed there are no call odds either: the hint is the
  move alone (:func:`hint_move` gives it with the move, which the table marks).

The hint is one short line, the move and its plan (the status line says it),
and the reasons and figures behind it, sentence by sentence: the move's fact,
then the call odds and what weighs on them (the table's "Why?" shows them, one
press away, issue 51).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..bots import expert
from ..bots.levels import percent
from ..bots.odds import HINT_PLAYOUTS, CallOdds, call_odds
from ..bots.sampler import stand_in
from ..core.i18n import N_, number, translator
from ..core.profiles import Profile
from ..play.action import Action
from ..play.deal import SeatView
from .suggest import suggest

HINT_CAUGHT: Final = N_("A call now on {total} would be caught in {caught} of {samples} deals that fit what you have seen.")
HINT_CAUGHT_IF: Final = N_("If you could call now on {total}, you would be caught in {caught} of {samples} deals that fit what you have seen.")
HINT_VALUE_PAID: Final = N_("Calling is worth {call} points to you on average; playing on, {play_on} ({playouts} of those deals played out to the end).")
HINT_VALUE_POINTS: Final = N_("Calling scores you {call} points on average; playing on, {play_on} (fewer points are better; {playouts} of those deals played out to the end).")
HINT_TIE: Final = N_("{total} is exactly the call limit: a tie goes against the caller, so any other hand of {total} or less catches the call.")
HINT_PLAYS_ON: Final = N_("The expert plays on all the same: it calls only when it puts the chance of being caught at {risk} or less, and weighing how the others have played so far it puts it at {caught}.")
HINT_CALLS: Final = N_("The expert calls all the same: it calls whenever it puts the chance of being caught at {risk} or less, and weighing how the others have played so far it puts it at {caught}.")
HINT_OWN_RULE: Final = N_("The expert's move here follows its own rule for a long deal, not these figures.")


@dataclass(frozen=True)
class Hint:
    """What the Hint says: the move and its plan in one short ``line``, the reasons and
    figures behind it in ``why`` (sentence by sentence), and the move (marked on the table)."""

    line: str
    why: tuple[str, ...]
    action: Action

    @property
    def words(self) -> str:
        """The line and its reasons, as one paragraph."""
        return " ".join((self.line, *self.why))


def hint_words(profile: Profile, view: SeatView, lang: str) -> str:
    """Everything the Hint says for the seat on turn of ``view`` (see the module docstring)."""
    return hint_move(profile, view, lang).words


def hint_move(profile: Profile, view: SeatView, lang: str) -> Hint:
    """What the Hint says, and the move it suggests (marked on the table).

    The call odds are said only where a call is allowed now: where it is not,
    they would answer a question the reader cannot ask (issue 51: 101 of 105
    turn-start hints said "If you could call now…")."""
    move = suggest(profile, view, lang)
    if view.phase != "start" or not stand_in(profile, view).can_call():
        return Hint(move.line, move.why, move.action)
    odds = call_odds(profile, view, playouts=HINT_PLAYOUTS)
    out = list(move.why)
    limit = profile.call_limit
    if limit is not None and odds.total == limit:
        out.append(translator(lang)(HINT_TIE, total=odds.total))
    out += hint_sentences(odds, lang)
    if odds.play_on_value is not None:
        call_better = (odds.call_value > odds.play_on_value if odds.measure == "paid"
                       else odds.call_value < odds.play_on_value)
        calls = move.action.kind == "call"
        if call_better != calls and _decimal(odds.call_value, lang, True) != _decimal(odds.play_on_value, lang, True):
            out.append(_why_otherwise(profile, calls, move.caught, lang))
    return Hint(move.line, tuple(out), move.action)


def _why_otherwise(profile: Profile, calls: bool, caught: float | None, lang: str) -> str:
    """Why the expert's move goes against the raw figures, in one line."""
    t = translator(lang)
    if caught is None:  # decided without weighing a call (a deal run long: every bot plays to end it)
        return t(HINT_OWN_RULE)
    return t(HINT_CALLS if calls else HINT_PLAYS_ON, risk=percent(expert.risk(profile) / 100, lang),
             caught=percent(caught, lang))


def hint_text(odds: CallOdds, lang: str, allowed: bool = True) -> str:
    """The reader's call odds in words, as one paragraph (see :func:`hint_sentences`)."""
    return " ".join(hint_sentences(odds, lang, allowed))


def hint_sentences(odds: CallOdds, lang: str, allowed: bool = True) -> list[str]:
    """The reader's call odds in words: how often a call is caught, then what calling and
    playing on are worth.

    ``allowed``: whether a call is allowed now; when it is not, the figure is
    what a call would risk if it were (the standing reason under the Call
    button says why it is not).
    """
    t = translator(lang)
    caught = t(HINT_CAUGHT if allowed else HINT_CAUGHT_IF, total=odds.total, caught=percent(odds.caught, lang),
               samples=number(odds.samples, lang))
    if not allowed or odds.play_on_value is None:
        return [caught]
    signed = odds.measure == "paid"
    value = t(HINT_VALUE_PAID if signed else HINT_VALUE_POINTS,
              call=_decimal(odds.call_value, lang, signed), play_on=_decimal(odds.play_on_value, lang, signed),
              playouts=number(odds.playouts, lang))
    return [caught, value]


def _decimal(x: float, lang: str, signed: bool) -> str:
    return number(x, lang, signed=signed, decimals=1)
