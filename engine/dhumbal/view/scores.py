"""The scores of a finished deal: the rows, what each row means, the result table, the final standings.

:func:`score_rows` and :func:`score_notes` are one definition for the
table and the worked examples; the notes are written from the outcome the
engine settled, so the words always match the numbers.

At the table a deal's end is a showdown: every hand lies face up on the
felt with its total, and :func:`render_summary` adds a compact strip, one
line per seat with what the deal gave it and its total (money in the
profiles that pay money), narrow enough for a 360 px screen in every
language and with six seats, the winner's line lit and marked in words.
The strip folds away (a disclosure) to look at the felt; the full score
table with what each row means (:func:`render_result`) and the match's
standings sit in a details panel behind a tap, opened from the dock, and
the review of the deal opens in the summary's place over the whole table.
:func:`outcome_badges` marks called, caught and winner on the seats around
the felt and on the reader's own line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from ..core.i18n import N_, NP_, Translator, number, translator
from ..core.profiles import Profile
from ..matches.match import money_text
from ..play.deal import Deal
from ..play.scoring import Outcome
from .markup import esc, signed
from .model import TableModel

OUT: Final = N_("out")
CALLED: Final = N_("called")
RESULT: Final = N_("Deal {number}: the scores")
RESULT_PRACTICE: Final = N_("Practice deal: the scores")
ROW_HAND: Final = N_("Hand")
ROW_TOOK: Final = N_("Took")
ROW_PAID: Final = N_("Paid")
ROW_TOTAL: Final = N_("Total")
ROW_MONEY: Final = N_("Money")
ROW_MONEY_TOTAL: Final = N_("Total money")
ROW_POINTS: Final = N_("Points")
ROW_STATUS: Final = N_("Eliminated")
STANDINGS: Final = N_("Final standings")
# The strip of a deal's end: one line per seat, this deal and the total.
STRIP_TITLE: Final = N_("Deal {number}: the scores")
# TRANSLATORS: the strip's title in the profiles that settle in money (the strip shows money, not points).
STRIP_TITLE_MONEY: Final = N_("Deal {number}: the money")
STRIP_DEAL: Final = N_("This deal")
# TRANSLATORS: on the strip's bar, what a tap does: fold the strip away, or show it again (a word or two).
STRIP_HIDE: Final = N_("Hide")
STRIP_SHOW: Final = N_("Show")
DETAILS_TITLE: Final = N_("Deal {number}: every score and what it means")
CLOSE_DETAILS: Final = N_("Close the details")
CLOSE_REVIEW: Final = N_("Close the review")
# What a deal's end says on each seat (short labels beside a name, so no verb that
# must agree with the seat: "You" and "Bot 2" take the same words).
BADGE_CALLED: Final = N_("called on {total}")
BADGE_CAUGHT: Final = N_("caught")
BADGE_WINNER: Final = N_("winner")
PLACE: Final = N_("Place")
PLAYER: Final = N_("Player")
SCORE_HEAD: Final = N_("Score")
# What each row of the scores means (shown under the table, in the page's language).
NOTE_HAND: Final = N_("Hand: the points left in each hand when the cards are shown.")
NOTE_TOOK_WON: Final = N_("Took: what each player is charged. {caller}, the caller, had the lowest hand: {zero}. Every other player: their own hand.")
NOTE_TOOK_CAUGHT: Final = N_("Took: what each player is charged. {caller}, the caller, got caught: the penalty of {penalty} instead of the hand. {winner}, the lowest other hand: {zero}. Every other player: their own hand.")
NOTE_TOOK_CAP: Final = N_("Took: what each player is charged. Nobody called within {count} turns: the lowest hand, {winner}, {zero}; every other player, their own hand.")
NOTE_PAID_COLLECT: Final = N_("Paid: the winner of the deal, {winner}, collects every charge (+{sum}); each other player pays their charge (−). The row adds up to {zero}.")
NOTE_TOTAL_COLLECT: Final = N_("Total: the match score after this deal, adding up the Paid rows. The highest total wins the match.")
NOTE_PAID_WON: Final = N_("Paid: {caller}, the caller, had the lowest hand, so every other player pays the caller the points of their own hand (−), {sum} in all (+).")
NOTE_PAID_CAUGHT: Final = N_("Paid: {caller}, the caller, got caught by {winner}, so the caller pays {winner} the sum of every other hand, the caller's own included: {sum}. Nobody else pays.")
NOTE_MONEY: Final = N_("Money: the points paid, at {rate} a point.")
NOTE_TOTAL_PAY: Final = N_("Total: points received (+) and paid (−) since the table opened.")
NOTE_MONEY_TOTAL: Final = N_("Total money: the same total, in money.")
NOTE_POINTS_WON: Final = N_("Points: added to each score. {caller}, the caller, had the lowest hand: {zero}. Every other player: their own hand.")
NOTE_POINTS_CAUGHT: Final = N_("Points: added to each score. {caller}, the caller, got caught: the penalty of {penalty}. Every other player: {zero}.")
NOTE_TOTAL_CUMULATIVE: Final = N_("Total: the points so far. Lower is better: reaching {limit} points puts a player out.")
NOTE_NEAREST: Final = NP_("Nearest to {limit}: {name}, {left} point away.", "Nearest to {limit}: {name}, {left} points away.")
NOTE_ELIMINATED: Final = N_("Eliminated: out of the match, having reached {limit} points.")
#: The notes that name a seat, told to the reader when that seat is theirs: by the
#: third-person note and the role the reader holds in it (see :func:`score_notes`).
#: A note's message: one msgid, or a (singular, plural) pair chosen by a number in it.
Note = str | tuple[str, str]
NOTES_TO_READER: Final[Mapping[tuple[Note, str], Note]] = {
    (NOTE_TOOK_WON, "caller"): N_("Took: what each player is charged. You called with the lowest hand: {zero}. Every other player: their own hand."),
    (NOTE_TOOK_CAUGHT, "caller"): N_("Took: what each player is charged. You called and were caught: the penalty of {penalty} instead of your hand. {winner}, the lowest other hand: {zero}. Every other player: their own hand."),
    (NOTE_TOOK_CAUGHT, "winner"): N_("Took: what each player is charged. {caller}, the caller, got caught: the penalty of {penalty} instead of the hand. You had the lowest other hand: {zero}. Every other player: their own hand."),
    (NOTE_TOOK_CAP, "winner"): N_("Took: what each player is charged. Nobody called within {count} turns: you had the lowest hand, {zero}; every other player, their own hand."),
    (NOTE_PAID_COLLECT, "winner"): N_("Paid: you won the deal and collect every charge (+{sum}); each other player pays their charge (−). The row adds up to {zero}."),
    (NOTE_PAID_WON, "caller"): N_("Paid: you called with the lowest hand, so every other player pays you the points of their own hand (−), {sum} in all (+)."),
    (NOTE_PAID_CAUGHT, "caller"): N_("Paid: you called and were caught by {winner}, so you pay {winner} the sum of every other hand, your own included: {sum}. Nobody else pays."),
    (NOTE_PAID_CAUGHT, "winner"): N_("Paid: {caller}, the caller, got caught by you, so the caller pays you the sum of every other hand, the caller's own included: {sum}. Nobody else pays."),
    (NOTE_POINTS_WON, "caller"): N_("Points: added to each score. You called with the lowest hand: {zero}. Every other player: their own hand."),
    (NOTE_POINTS_CAUGHT, "caller"): N_("Points: added to each score. You called and were caught: the penalty of {penalty}. Every other player: {zero}."),
    (NOTE_NEAREST, "name"): NP_("Nearest to {limit}: you, {left} point away.", "Nearest to {limit}: you, {left} points away."),
}
ScoreRow = tuple[str, str, list[tuple[int | str, str]]]


def _money(points: int, rate: str, lang: str) -> str:
    """An amount in the reader's format: ``2,20`` in French and Dutch, ``−०.७०`` in Nepali."""
    return number(money_text(points, rate), lang)


def _plus(n: int) -> str:
    return "+" if n > 0 else ""


def score_rows(
    outcome: Outcome,
    profile: Profile,
    lang: str,
    *,
    totals: Sequence[int] | None = None,
    eliminated: Sequence[bool] | None = None,
) -> list[ScoreRow]:
    """The score rows of a finished deal, as (key, label, [(value, shown)…]).

    One definition for the table and the worked examples: Hand / Took / Paid
    (and the running Total) for the ledger profile, payments and money for
    dashain, points (and the cumulative total, eliminations) for
    cardrulesplus. ``totals`` are the running match scores after the deal.
    """
    t = translator(lang)
    o = outcome
    rows: list[ScoreRow] = [("hand", t(ROW_HAND), [(v, number(v, lang)) for v in o.hands])]
    if profile.settlement == "collect":
        rows.append(("took", t(ROW_TOOK), [(v, number(v, lang)) for v in o.took]))
        rows.append(("paid", t(ROW_PAID), [(v, signed(v, lang)) for v in o.paid]))
        if totals is not None:
            rows.append(("total", t(ROW_TOTAL), [(v, signed(v, lang)) for v in totals]))
    elif profile.settlement == "pay-caller":
        rate = profile.money_per_point or "0"
        rows.append(("paid", t(ROW_PAID), [(v, signed(v, lang)) for v in o.paid]))
        # money carries its sign like the points it pays (+2.20 received, −2.20 paid)
        rows.append(("money", t(ROW_MONEY), [(money_text(v, rate), _plus(v) + _money(v, rate, lang)) for v in o.paid]))
        if totals is not None:
            rows.append(("total", t(ROW_TOTAL), [(v, signed(v, lang)) for v in totals]))
            rows.append(("money-total", t(ROW_MONEY_TOTAL), [(money_text(v, rate), _plus(v) + _money(v, rate, lang)) for v in totals]))
    else:
        rows.append(("points", t(ROW_POINTS), [(v, number(v, lang)) for v in o.points]))
        if totals is not None:
            rows.append(("total", t(ROW_TOTAL), [(v, number(v, lang)) for v in totals]))
        if eliminated is not None and any(eliminated):
            rows.append(("eliminated", t(ROW_STATUS), [(1 if out else 0, t(OUT) if out else "") for out in eliminated]))
    return rows


def score_notes(
    outcome: Outcome,
    profile: Profile,
    lang: str,
    names: Sequence[str],
    *,
    totals: Sequence[int] | None = None,
    eliminated: Sequence[bool] | None = None,
    reader: int | None = None,
) -> list[tuple[str, str]]:
    """What each row of :func:`score_rows` means for this deal, as (row key, sentence).

    Written from the outcome the engine settled (who called, who was
    caught, the penalty, the sums), so the words always match the numbers;
    signs follow the rows: charges are plain numbers, payments carry + or −.
    ``reader`` is the reader's deal seat: a note that names it speaks to
    them (``NOTES_TO_READER``) instead of naming them in the third person.
    """
    o = outcome
    n = len(o.hands)

    def name(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"

    def t(msgid: Note, /, amount: int = 0, **params: object) -> str:
        """``msgid`` said of this deal's seats (a pair: its form for ``amount``)."""
        seats = {k: v for k, v in params.items() if k in ("caller", "winner", "name") and (v is None or isinstance(v, int))}
        for role, seat in seats.items():
            form = NOTES_TO_READER.get((msgid, role))
            if reader is not None and seat == reader and form is not None:
                msgid = form
                break
        shown = {k: name(seats[k]) if k in seats else v for k, v in params.items()}
        if isinstance(msgid, tuple):
            return translator(lang).plural(*msgid, amount, **shown)
        return translator(lang)(msgid, **shown)

    notes: list[tuple[str, str]] = [("hand", t(NOTE_HAND))]
    caller, winner = o.caller, o.winner
    if profile.settlement == "collect":
        if o.reason == "cap":
            notes.append(("took", t(NOTE_TOOK_CAP, count=profile.turn_cap or 0, winner=winner, zero=0)))
        elif o.caught:
            notes.append(("took", t(NOTE_TOOK_CAUGHT, caller=caller, penalty=o.penalty, winner=winner, zero=0)))
        else:
            notes.append(("took", t(NOTE_TOOK_WON, caller=caller, zero=0)))
        collected = o.paid[winner] if winner is not None else 0
        notes.append(("paid", t(NOTE_PAID_COLLECT, winner=winner, sum=collected, zero=0)))
        if totals is not None:
            notes.append(("total", t(NOTE_TOTAL_COLLECT)))
    elif profile.settlement == "pay-caller":
        if o.caught:
            owed = o.paid[winner] if winner is not None else 0
            notes.append(("paid", t(NOTE_PAID_CAUGHT, caller=caller, winner=winner, sum=owed)))
        else:
            gained = o.paid[caller] if caller is not None else 0
            notes.append(("paid", t(NOTE_PAID_WON, caller=caller, sum=gained)))
        rate = profile.money_per_point or "0"
        notes.append(("money", t(NOTE_MONEY, rate=number(rate, lang))))
        if totals is not None:
            notes.append(("total", t(NOTE_TOTAL_PAY)))
            notes.append(("money-total", t(NOTE_MONEY_TOTAL)))
    else:
        if o.caught:
            notes.append(("points", t(NOTE_POINTS_CAUGHT, caller=caller, penalty=o.penalty, zero=0)))
        else:
            notes.append(("points", t(NOTE_POINTS_WON, caller=caller, zero=0)))
        limit = profile.elimination
        if totals is not None and limit is not None:
            text = t(NOTE_TOTAL_CUMULATIVE, limit=limit)
            still = [s for s in range(n) if not (eliminated and eliminated[s])]
            if still:
                near = max(still, key=lambda s: (totals[s], -s))
                left = max(0, limit - totals[near])
                text += " " + t(NOTE_NEAREST, left, limit=limit, name=near, left=left)
            notes.append(("total", text))
            if eliminated is not None and any(eliminated):
                notes.append(("eliminated", t(NOTE_ELIMINATED, limit=limit)))
        elif totals is not None:
            notes.append(("total", t(NOTE_TOTAL_CUMULATIVE, limit="—")))
    return notes


def outcome_badges(outcome: Outcome | None, seat: int, t: Translator, *, short: bool = False) -> str:
    """A seat's part in how the deal ended: it called (and on what), was caught, won.

    ``short`` leaves out what the caller called on (the strip's narrow lines:
    the felt says it on the seat)."""
    if outcome is None:
        return ""
    out = ""
    if outcome.caller == seat and not short:
        total = outcome.hands[seat] if 0 <= seat < len(outcome.hands) else 0
        out += f'<span class="dht-badge dht-badge--called">{esc(t(BADGE_CALLED, total=total))}</span>'
    if outcome.caller == seat and outcome.caught:
        out += f'<span class="dht-badge dht-badge--caught">{esc(t(BADGE_CAUGHT))}</span>'
    if outcome.winner == seat:
        out += f'<span class="dht-badge dht-badge--winner">{esc(t(BADGE_WINNER))}</span>'
    return out


def render_result(model: TableModel, deal: Deal, t: Translator) -> str:
    """The deal's scores, one line per seat (the winner's lit), and what each column means."""
    assert model.scoreboard is not None and deal.outcome is not None
    o = deal.outcome
    p = deal.profile
    names = model.deal_names()
    seats = list(range(deal.players))
    match_seats = [model.scoreboard.seating[s] for s in seats]
    scores = model.scoreboard.scores
    totals = [scores[m] for m in match_seats]
    eliminated = [m in model.scoreboard.eliminated for m in match_seats] if p.elimination is not None else None
    rows = score_rows(o, p, model.lang, totals=totals, eliminated=eliminated)
    me = model.my_seat()
    notes = score_notes(o, p, model.lang, names, totals=totals, eliminated=eliminated, reader=me)
    head = "".join(f'<th scope="col" data-row="{esc(key)}">{esc(label)}</th>' for key, label, _ in rows)
    lines = []
    for s in seats:
        cls = ["dht-score__line"]
        if o.winner == s:
            cls.append("dht-score__line--winner")
        if s == me:
            cls.append("dht-score__line--me")
        cells = "".join(f'<td data-row="{esc(key)}" data-value="{esc(values[s][0])}">{esc(values[s][1])}</td>'
                        for key, _, values in rows)
        lines.append(f'<tr class="{" ".join(cls)}" data-seat="{s}"><th scope="row"><span class="dht-score__name">'
                     f'{esc(names[s])}</span>{outcome_badges(o, s, t)}</th>{cells}</tr>')
    caption = t(RESULT_PRACTICE) if model.practice else t(RESULT, number=model.deal_number)
    items = "".join(f'<li data-row="{esc(key)}">{esc(text)}</li>' for key, text in notes)
    return (f'<div class="dht-result"><div class="dht-scroll" tabindex="0" role="region" aria-label="{esc(caption)}">'
            f'<table class="dht-score dht-score--deal" data-settlement="{esc(p.settlement)}"><caption>{esc(caption)}</caption>'
            f'<thead><tr><th scope="col" class="dht-corner">{esc(t(PLAYER))}</th>{head}</tr></thead>'
            f'<tbody>{"".join(lines)}</tbody></table></div>'
            f'<ul class="dht-notes">{items}</ul></div>')


def render_standings(model: TableModel, t: Translator) -> str:
    assert model.scoreboard is not None
    lang = model.lang
    rows = []
    for st in model.scoreboard.standings:
        score = number(st.score, lang) if model.profile.settlement == "cumulative" else signed(st.score, lang)
        out = f' <span class="dht-badge">{esc(t(OUT))}</span>' if st.eliminated else ""
        rows.append(f'<tr data-seat="{st.seat}" data-place="{st.place}" data-score="{st.score}">'
                    f"<td>{esc(number(st.place, lang))}</td><th scope=\"row\">{esc(model.names[st.seat])}{out}</th>"
                    f"<td>{esc(score)}</td></tr>")
    return (f'<div class="dht-standings"><table class="dht-score dht-score--standings"><caption>{esc(t(STANDINGS))}</caption>'
            f'<thead><tr><th scope="col">{esc(t(PLACE))}</th><th scope="col">{esc(t(PLAYER))}</th>'
            f'<th scope="col">{esc(t(SCORE_HEAD))}</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


def _strip_values(model: TableModel, deal: Deal, lang: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Per deal seat, (value, shown) for this deal and for the total, in the strip's unit."""
    assert model.scoreboard is not None and deal.outcome is not None
    o = deal.outcome
    p = deal.profile
    totals = [model.scoreboard.scores[model.scoreboard.seating[s]] for s in range(deal.players)]
    if p.settlement == "pay-caller":
        rate = p.money_per_point or "0"

        def money(v: int) -> tuple[str, str]:
            return money_text(v, rate), _plus(v) + _money(v, rate, lang)
        return [money(v) for v in o.paid], [money(v) for v in totals]
    if p.settlement == "collect":
        return [(str(v), signed(v, lang)) for v in o.paid], [(str(v), signed(v, lang)) for v in totals]
    return [(str(v), number(v, lang)) for v in o.points], [(str(v), number(v, lang)) for v in totals]


def render_strip(model: TableModel, deal: Deal, t: Translator) -> str:
    """The deal's end in a strip: one line per seat (name, this deal, total; the place once the match is over)."""
    assert model.scoreboard is not None and deal.outcome is not None
    o = deal.outcome
    lang = model.lang
    names = model.deal_names()
    me = model.my_seat()
    this_deal, totals = _strip_values(model, deal, lang)
    places = {st.seat: st for st in model.scoreboard.standings} if model.match_over and not model.practice else {}
    eliminated = set(model.scoreboard.eliminated) if deal.profile.elimination is not None else set()
    head = (f'<th scope="col">{esc(t(PLAYER))}</th><th scope="col">{esc(t(STRIP_DEAL))}</th>'
            f'<th scope="col">{esc(t(ROW_TOTAL))}</th>')
    if places:
        head += f'<th scope="col">{esc(t(PLACE))}</th>'
    lines = []
    for s in range(deal.players):
        m = model.scoreboard.seating[s]
        cls = ["dht-score__seat"]
        if o.winner == s:
            cls.append("dht-score__seat--winner")
        if s == me:
            cls.append("dht-score__seat--me")
        out = f'<span class="dht-badge">{esc(t(OUT))}</span>' if m in eliminated else ""
        cells = (f'<td data-strip="deal" data-value="{esc(this_deal[s][0])}">{esc(this_deal[s][1])}</td>'
                 f'<td data-strip="total" data-value="{esc(totals[s][0])}">{esc(totals[s][1])}</td>')
        if places:
            cells += f'<td data-strip="place" data-value="{places[m].place}">{esc(number(places[m].place, lang))}</td>'
        lines.append(f'<tr class="{" ".join(cls)}" data-seat="{s}"><th scope="row"><span class="dht-score__name">'
                     f'{esc(names[s])}</span>{outcome_badges(o, s, t, short=True)}{out}</th>{cells}</tr>')
    return (f'<table class="dht-score dht-strip" data-settlement="{esc(deal.profile.settlement)}" '
            f'aria-labelledby="{esc(model.table_id)}-scores"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(lines)}</tbody></table>')


def render_summary(model: TableModel, deal: Deal, t: Translator) -> str:
    """A deal's end beside the shown hands: the strip (it folds away), and the details panel
    (every score row, what each means, the standings once the match is over), hidden until
    the dock's Details opens it. A review the reader asks for goes in here too, with its
    Close (browser/table/review.ts puts it in; the style sheet lays both over the table)."""
    tid = model.table_id
    if model.practice:
        title = t(RESULT_PRACTICE)
    else:
        title = t(STRIP_TITLE_MONEY if deal.profile.settlement == "pay-caller" else STRIP_TITLE, number=model.deal_number)
    bar = (f'<summary class="dht-fold__bar"><span class="dht-fold__title" id="{esc(tid)}-scores">{esc(title)}</span>'
           f'<span class="dht-fold__act" aria-hidden="true"><span class="dht-fold__hide">{esc(t(STRIP_HIDE))}</span>'
           f'<span class="dht-fold__show">{esc(t(STRIP_SHOW))}</span></span></summary>')
    standings = render_standings(model, t) if model.match_over and not model.practice else ""
    details = (f'<div class="dht-panel dht-details" id="{esc(tid)}-details" role="region" '
               f'aria-labelledby="{esc(tid)}-details-title" hidden><div class="dht-panel__bar">'
               f'<h3 class="dht-panel__title" id="{esc(tid)}-details-title" tabindex="-1">'
               f'{esc(t(RESULT_PRACTICE) if model.practice else t(DETAILS_TITLE, number=model.deal_number))}</h3>'
               f'<button type="button" class="dht-btn dht-btn--quiet dht-panel__close" data-dht-panel-close>'
               f'{esc(t(CLOSE_DETAILS))}</button></div>{render_result(model, deal, t)}{standings}</div>')
    close_review = (f'<button type="button" class="dht-btn dht-btn--quiet dht-review-close" data-dht-review-close>'
                    f'{esc(t(CLOSE_REVIEW))}</button>')
    return (f'<section class="dht-summary" aria-labelledby="{esc(tid)}-scores">'
            f'<details class="dht-fold" open data-dht-fold>{bar}{render_strip(model, deal, t)}</details>'
            f'{details}{close_review}</section>')
