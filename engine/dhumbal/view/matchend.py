"""The match's end at the table: who won the match, where the reader finished, the final standings.

Once the last deal of a match is over, the summary's strip stops being one
deal's scores: its bar says the match is over, a headline names the
match's winner (or the seats that share first place) and the reader's
place ("You finished in place 2 of 5"), and the strip's lines are the final
standings in place order, each with its total in the profile's unit (money
in dashain, as on the seats' plates and in the details panel). The match's
winners are lit and marked "match winner" in words; the last deal's winner
is no longer marked on the strip (its seat on the felt says "won the last
deal"). Places come from :meth:`dhumbal.matches.match.Match.standings`, so
ties share a place and, in cardrulesplus, players out of the match rank
after those still in.
"""

from __future__ import annotations

from typing import Final

from ..core.i18n import N_, Translator, number
from ..matches.match import Standing
from .markup import esc, signed
from .model import TableModel
from .scores import OUT, PLACE, PLAYER, ROW_TOTAL, SCORE_HEAD, STANDINGS, signed_money

WINNER_ONE: Final = N_("{name} wins the match.")
WINNER_YOU: Final = N_("You win the match!")
# TRANSLATORS: {names} is a list of players, joined by commas.
WINNER_SHARED: Final = N_("First place is shared by {names}.")
# TRANSLATORS: the reader's own seat in a list of players who share first place.
YOU: Final = N_("you")
YOUR_PLACE: Final = N_("You finished in place {place} of {count}.")
YOUR_PLACE_SHARED: Final = N_("You share place {place} of {count}.")
YOUR_PLACE_OUT: Final = N_("You went out of the match: place {place} of {count}.")
# A short mark beside a name on the final standings (like "winner" on a deal's strip).
BADGE_MATCH_WINNER: Final = N_("match winner")
PLAY_AGAIN: Final = N_("Play again")


def final_total(model: TableModel, score: int) -> str:
    """A final total in the profile's unit: points, signed points, or money (dashain)."""
    p = model.profile
    if p.settlement == "cumulative":
        return number(score, model.lang)
    if p.settlement == "pay-caller":
        return signed_money(score, p, model.lang)
    return signed(score, model.lang)


def winner_text(model: TableModel, t: Translator) -> str:
    """Who won the match: "Bot 3 wins the match.", "You win the match!", or the seats sharing first place."""
    assert model.scoreboard is not None
    first = [st for st in model.scoreboard.standings if st.place == 1]
    if len(first) == 1:
        return t(WINNER_YOU) if first[0].seat == model.me else t(WINNER_ONE, name=model.names[first[0].seat])
    names = ", ".join(t(YOU) if st.seat == model.me else model.names[st.seat] for st in first)
    return t(WINNER_SHARED, names=names)


def place_text(model: TableModel, t: Translator) -> str:
    """Where the reader finished ("You finished in place 2 of 5."), or nothing when they alone won."""
    assert model.scoreboard is not None
    standings = model.scoreboard.standings
    mine = next((st for st in standings if st.seat == model.me), None)
    shared = mine is not None and sum(1 for st in standings if st.place == mine.place) > 1
    if mine is None or (mine.place == 1 and not shared):
        return ""
    count = len(standings)
    if mine.eliminated:
        return t(YOUR_PLACE_OUT, place=mine.place, count=count)
    if shared:
        return t(YOUR_PLACE_SHARED, place=mine.place, count=count)
    return t(YOUR_PLACE, place=mine.place, count=count)


def headline(model: TableModel, t: Translator) -> str:
    """Who won the match and where the reader finished, as one or two sentences."""
    return " ".join(x for x in (winner_text(model, t), place_text(model, t)) if x)


def _line(model: TableModel, st: Standing, t: Translator) -> str:
    cls = ["dht-score__seat"]
    if st.place == 1:
        cls.append("dht-score__seat--winner")
    if st.seat == model.me:
        cls.append("dht-score__seat--me")
    badges = ""
    if st.place == 1:
        badges += f'<span class="dht-badge dht-badge--winner">{esc(t(BADGE_MATCH_WINNER))}</span>'
    if st.eliminated:
        badges += f'<span class="dht-badge">{esc(t(OUT))}</span>'
    return (f'<tr class="{" ".join(cls)}" data-match-seat="{st.seat}">'
            f'<td data-strip="place" data-value="{st.place}">{esc(number(st.place, model.lang))}</td>'
            f'<th scope="row"><span class="dht-score__name">{esc(model.names[st.seat])}</span>{badges}</th>'
            f'<td data-strip="total" data-value="{st.score}">{esc(final_total(model, st.score))}</td></tr>')


def render_final_strip(model: TableModel, t: Translator) -> str:
    """Where the reader finished, then the final standings in place order (place, player, total).

    (Who won the match is the strip's title: :func:`winner_text`.)"""
    assert model.scoreboard is not None
    lines = "".join(_line(model, st, t) for st in model.scoreboard.standings)
    place = place_text(model, t)
    return ((f'<p class="dht-final__place" data-dht-final>{esc(place)}</p>' if place else "") +
            f'<table class="dht-score dht-strip dht-strip--final" data-settlement="{esc(model.profile.settlement)}" '
            f'aria-labelledby="{esc(model.table_id)}-scores"><thead><tr>'
            f'<th scope="col">{esc(t(PLACE))}</th><th scope="col">{esc(t(PLAYER))}</th><th scope="col">{esc(t(ROW_TOTAL))}</th>'
            f'</tr></thead><tbody>{lines}</tbody></table>')


def render_standings(model: TableModel, t: Translator) -> str:
    assert model.scoreboard is not None
    lang = model.lang
    rows = []
    for st in model.scoreboard.standings:
        score = final_total(model, st.score)
        out = f' <span class="dht-badge">{esc(t(OUT))}</span>' if st.eliminated else ""
        rows.append(f'<tr data-seat="{st.seat}" data-place="{st.place}" data-score="{st.score}">'
                    f"<td>{esc(number(st.place, lang))}</td><th scope=\"row\">{esc(model.names[st.seat])}{out}</th>"
                    f"<td>{esc(score)}</td></tr>")
    return (f'<div class="dht-standings"><table class="dht-score dht-score--standings"><caption>{esc(t(STANDINGS))}</caption>'
            f'<thead><tr><th scope="col">{esc(t(PLACE))}</th><th scope="col">{esc(t(PLAYER))}</th>'
            f'<th scope="col">{esc(t(SCORE_HEAD))}</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>')
