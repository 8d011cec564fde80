"""The score pad's HTML: the page's set-up form and texts (build time), the settled sheet (the worker).

:func:`render_pad` draws the pad as the page carries it, before any engine
runs: the set-up form (the rules and their house rules, made from the
profiles' option specs as the table's settings are; the players' names;
the first dealer), the empty places the sheet goes into, the tools, and
every text the page's script shows (``data-strings``, from the catalogs:
the script holds no reader-visible text and decides no rule).
:func:`render_parts` draws a sheet the engine settled
(:mod:`dhumbal.matches.scoresheet`): the running totals and who deals next, each
deal (one line per seat with Hand, Took, Paid, Total or the profile's rows,
the engine's sentences on how it ended, and one line per seat saying why),
and at the end the standings and each player's figures.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Final

from ..core.compare import rules_in_words
from ..core.i18n import N_, Translator, available_languages, digits, number, translator
from ..core.profiles import PROFILE_KEYS, OptionSpec, Profile, find_profile
from ..matches.match import money_text
from ..matches.scoresheet import Settled, average_text, money_totals, payments, player_stats
from ..matches.tally import Tally
from .markup import esc, signed

# -- the set-up form ------------------------------------------------------------------------
SETUP: Final = N_("A new match")
SETUP_RULES: Final = N_("Rules")
SETUP_HOUSE: Final = N_("House rules")
SETUP_PLAYERS: Final = N_("Players")
SETUP_ORDER: Final = N_("Write the names in the order you sit, going clockwise (to the left).")
PLAYER_N: Final = N_("Player {number}")
ADD_PLAYER: Final = N_("Add a player")
REMOVE_PLAYER: Final = N_("Remove the last player")
FIRST_DEALER: Final = N_("Who deals first?")
START: Final = N_("Start the match")
NO_SCRIPT: Final = N_("The score pad needs JavaScript to take the scores; the rules engine settles every deal in this browser, and nothing is sent anywhere.")
# -- the sheet ---------------------------------------------------------------------------------
TOTALS: Final = N_("Totals after deal {number}")
TOTALS_NONE: Final = N_("Totals")
NEXT_DEAL: Final = N_("Next: deal {number}, dealt by {name}.")
DEAL_TITLE: Final = N_("Deal {number} · {name} deals")
PLAYER: Final = N_("Player")
ROW_HAND: Final = N_("Hand")
ROW_TOOK: Final = N_("Took")
ROW_PAID: Final = N_("Paid")
ROW_POINTS: Final = N_("Points")
ROW_MONEY: Final = N_("Money")
ROW_TOTAL: Final = N_("Total")
ROW_MONEY_TOTAL: Final = N_("Total money")
BADGE_DEALER: Final = N_("deals next")
BADGE_CALLED: Final = N_("called")
BADGE_CAUGHT: Final = N_("caught")
BADGE_WINNER: Final = N_("winner")
BADGE_OUT: Final = N_("out")
WHY: Final = N_("Why")
EDIT: Final = N_("Change deal {number}")
UNDO: Final = N_("Remove deal {number}")
EARLIER: Final = N_("Earlier deals")
OVER: Final = N_("The match is over.")
STANDINGS: Final = N_("Standings")
PLACE: Final = N_("Place")
SCORE: Final = N_("Score")
STATS: Final = N_("The players' match")
STATS_NOTE: Final = N_("Worked out in this browser from the sheet; nothing leaves this device.")
STAT_WON: Final = N_("Deals won")
STAT_CALLS: Final = N_("Calls")
STAT_CAUGHT: Final = N_("Caught")
STAT_AVERAGE: Final = N_("Average hand at a show")
MONEY_ROUNDED: Final = N_("Money is rounded to the cent so that each deal still adds up to zero: a cent left over goes to the amount rounded furthest.")
PAY_TITLE: Final = N_("Who pays whom")
PAY_FROM: Final = N_("Pays")
PAY_TO: Final = N_("To")
PAY_NOTE: Final = N_("The fewest payments that settle the match: after them every player's total is zero.")
PAY_NONE: Final = N_("Nobody owes anything.")
EVENING: Final = N_("The evening")
EVENING_MATCHES: Final = N_("Matches")
EVENING_TOTAL: Final = N_("Total over the evening")
EVENING_NOTE: Final = N_("This match and the {count} before it, played again with the same players; totals add up by name.")
SETTLED: Final = N_("Deal {number} is settled.")
REMOVED: Final = N_("Deal {number} is removed; the deals after it are settled again.")
ENDED: Final = N_("The match is ended here.")
REOPENED: Final = N_("The match goes on.")
JOINED: Final = N_("{name} joins the table from deal {number}, with a total of {zero}.")
BACK: Final = N_("{name} is back at the table from deal {number}, with the total they left with.")
LEFT: Final = N_("{name} leaves the table before deal {number}; their total stays as it is.")
UNMOVED: Final = N_("The last player to join or leave is taken back; every deal is settled again.")
BADGE_AWAY: Final = N_("away")
SETUP_CHANGED: Final = N_("The names and the first dealer are changed; every deal is settled again.")
LINK_DAMAGED: Final = N_("The score sheet in this link is damaged or incomplete, so it was not opened. Your own sheet is unchanged.")
LINK_CHANGED: Final = N_("This link was changed after it was made (its check value does not match), so it was not opened. Your own sheet is unchanged.")
TOTAL_LOW: Final = N_("Lower is better; {limit} points puts a player out.")
TOTAL_HIGH: Final = N_("Higher is better; the totals always add up to {zero}.")
# -- the tools ---------------------------------------------------------------------------------
TOOLS: Final = N_("This sheet")
SHARE: Final = N_("Share as a link")
CSV: Final = N_("Export as CSV")
END_MATCH: Final = N_("End the match here")
REOPEN: Final = N_("Go on with the match")
NEW_MATCH: Final = N_("New match")
AGAIN: Final = N_("Play again with the same players")
FIX: Final = N_("Correct the names or the first dealer")
SEATS: Final = N_("A player joins or leaves")

#: The texts the page's script shows, by key (each a msgid; ``{…}`` filled by the script
#: with a name or a number already written in the page's digits).
SCRIPT_TEXTS: Final[Mapping[str, str]] = {
    "deal_title": DEAL_TITLE,
    "deal_plain": N_("Deal {number}"),
    "who_called": N_("Who called?"),
    "nobody": N_("Nobody called ({count} turns)"),
    "hands": N_("Each hand at the show"),
    "hand_of": N_("Hand total of {name}"),
    "settle": N_("Settle deal {number}"),
    "settle_again": N_("Settle deal {number} again"),
    "editing": N_("Changing deal {number}: every deal after it is settled again."),
    "cancel": N_("Cancel the change"),
    "backspace": N_("Delete the last digit"),
    "next_field": N_("Next player"),
    "keypad": N_("Number pad"),
    "no_caller": N_("Choose who called first."),
    "loading": N_("The rules engine is starting. You can type the deal meanwhile; it is settled as soon as the engine is ready."),
    "waiting": N_("Deal {number} is settled as soon as the rules engine is ready."),
    "failed": N_("The rules engine could not start, so nothing is settled yet. Your entries are kept."),
    "retry": N_("Try again"),
    "confirm_undo": N_("Remove deal {number}? The deals after it are settled again."),
    "confirm_new": N_("Start a new match? This sheet is deleted from this device."),
    "confirm_new_evening": N_("Start a new match? This sheet and the evening's earlier matches are deleted from this device."),
    "yes_undo": N_("Remove it"),
    "yes_new": N_("Delete the sheet"),
    "no": N_("Keep it"),
    "copied": N_("The link to this sheet is copied."),
    "copy_this": N_("Copy this link to share the sheet:"),
    "link_bad": LINK_DAMAGED,
    "link_ask": N_("This link holds another score sheet. Open it in place of yours?"),
    "link_open": N_("Open the shared sheet"),
    "link_keep": N_("Keep mine"),
    "link_opened": N_("The shared score sheet is open."),
    "store_bad": N_("The score sheet kept on this device could not be read, so a new one starts. The damaged one is set aside on this device, unchanged."),
    "store_frozen": N_("The score sheet kept on this device could not be read. It is left as it was, so nothing typed here is kept on this device until you start a new match."),
    "store_part": N_("Part of what was kept on this device (the deal being typed, or a change not yet settled) could not be read and was left out. The sheet itself is kept."),
    "store_full": N_("This device would not keep the sheet (its storage is full or refused): it lasts while this page is open. Share it as a link or export it to keep it."),
    "sheet_kept": N_("Your sheet is kept as it was."),
    "other_tab": N_("This sheet was changed in another tab or window. It is shown here as it is now."),
    "other_tab_lost": N_("This sheet was changed in another tab or window before deal {number} was settled here, so it was not. Check the sheet, then settle the deal again."),
    "deal_changed": N_("Deal {number} has changed since you began to change it (in another tab, or it was removed), so this change is cancelled."),
    "file_name": N_("dhumbal-scores"),
    "player_n": PLAYER_N,
    "name_empty": N_("Player {number} has no name yet."),
    "first_dealer": FIRST_DEALER,
    "evening_full": N_("An evening keeps at most {count} matches on this device: start a new match to begin another evening."),
    "again_said": N_("A new match with the same players and rules: the deal passes on to {name}."),
    "setup_hidden": N_("These rules seat at most {count} players, so the names after them are set aside: they come back if you choose other rules."),
    "fix_title": N_("Names and first dealer"),
    "fix_note": N_("Correct a name, or who dealt the first deal: every deal is settled again with the dealers that follow from it."),
    "fix_apply": N_("Settle every deal again"),
    "fix_keep": N_("Leave them as they were"),
    "fix_undo": N_("Undo this change"),
    "totals_after": TOTALS,
    "totals_none": TOTALS_NONE,
    "player": PLAYER,
    "total": ROW_TOTAL,
    "badge_dealer": BADGE_DEALER,
    "seats_title": N_("A player joins or leaves"),
    "seats_note": N_("Between deals: from the next deal on. Whether a newcomer may join, and at what score, is the rules' say."),
    "join_name": N_("Name of the player who joins"),
    "join_left_of": N_("Sits on the left of"),
    "join_apply": N_("Join the table"),
    "leave_who": N_("Who leaves"),
    "leave_apply": N_("Leave the table"),
    "seats_keep": N_("Close"),
    "seats_undo": N_("Undo this change"),
    "hand_bad": N_("“{text}” is not a hand total, so it was not taken: type a whole number from 0 to {max}."),
}


def _option_control(fid: str, spec: OptionSpec, t: Translator) -> str:
    """One house rule as the table's settings show it (the same specs, labels and values)."""
    name = f"opt:{spec.key}"
    current = spec.text(spec.default)
    if spec.kind == "money":
        return (f'<input id="{esc(fid)}" name="{esc(name)}" type="text" inputmode="decimal" '
                f'value="{esc(number(current, t.lang))}" autocomplete="off" size="6">')
    if spec.kind == "bool":
        choices = ["on", "off"]
    elif spec.kind == "choice":
        choices = list(spec.choices)
    else:
        choices = (["none"] if spec.kind == "int-or-none" else []) + [str(n) for n in range(spec.low, spec.high + 1)]

    def shown(choice: str) -> str:
        value: object = choice == "on" if spec.kind == "bool" else None if choice == "none" else choice
        return digits(spec.value_words(value, t), t.lang)

    opts = "".join(f'<option value="{esc(c)}"{" selected" if c == current else ""}>{esc(shown(c))}</option>'
                   for c in choices)
    return f'<select id="{esc(fid)}" name="{esc(name)}">{opts}</select>'


def render_pad(lang: str) -> str:
    """The whole pad as the page carries it (see the module docstring)."""
    t = translator(lang)
    rules = []
    house = []
    for i, key in enumerate(PROFILE_KEYS):
        p = find_profile(key)
        rid = f"dhp-profile-{key}"
        rules.append(f'<div class="dhp-choice"><input type="radio" name="profile" id="{rid}" value="{esc(key)}"'
                     f'{" checked" if i == 0 else ""}><label for="{rid}">{esc(t(p.name))}</label></div>')
        fields = []
        for spec in p.option_specs:
            if spec.key == "players":
                continue
            fid = f"dhp-{key}-{spec.key}"
            fields.append(f'<div class="dhp-field"><label for="{esc(fid)}">{esc(t(spec.label))}</label>'
                          f"{_option_control(fid, spec, t)}</div>")
        players = p.spec("players")
        house.append(f'<fieldset class="dhp-house" data-pad-options="{esc(key)}" data-players-low="{players.low}" '
                     f'data-players-high="{players.high}" data-turn-cap="{p.turn_cap or ""}"{"" if i == 0 else " hidden"}>'
                     f'<legend>{esc(t(SETUP_HOUSE))} · {esc(t(p.name))}</legend>{"".join(fields)}</fieldset>')
    names = "".join(
        f'<li class="dhp-name"{" hidden" if k >= 4 else ""}><label for="dhp-name-{k}">{esc(t(PLAYER_N, number=k + 1))}</label>'
        f'<input type="text" id="dhp-name-{k}" name="name" autocomplete="off" '
        f'autocapitalize="words" spellcheck="false"></li>'
        for k in range(6)
    )
    texts = {key: t.raw(msgid) for key, msgid in SCRIPT_TEXTS.items()}
    setup = (
        f'<form class="dhp-setup" data-pad-setup novalidate><h2 class="dhp-h">{esc(t(SETUP))}</h2>'
        f'<fieldset class="dhp-rules"><legend>{esc(t(SETUP_RULES))}</legend>{"".join(rules)}</fieldset>'
        f'{"".join(house)}'
        f'<fieldset class="dhp-players"><legend>{esc(t(SETUP_PLAYERS))}</legend>'
        f'<p class="dhp-hint">{esc(t(SETUP_ORDER))}</p><ol class="dhp-names">{names}</ol>'
        f'<p class="dhp-row"><button type="button" class="md-button dhp-btn" data-pad-add>{esc(t(ADD_PLAYER))}</button>'
        f'<button type="button" class="md-button dhp-btn" data-pad-remove>{esc(t(REMOVE_PLAYER))}</button></p></fieldset>'
        f'<div class="dhp-field dhp-first"><label for="dhp-dealer">{esc(t(FIRST_DEALER))}</label>'
        f'<select id="dhp-dealer" name="dealer"></select></div>'
        f'<p class="dhp-row"><button type="submit" class="md-button md-button--primary dhp-btn">{esc(t(START))}</button></p>'
        f"</form>"
    )
    tools = (
        f'<div class="dhp-tools" role="group" aria-label="{esc(t(TOOLS))}">'
        f'<button type="button" class="md-button dhp-btn" data-pad-share>{esc(t(SHARE))}</button>'
        f'<button type="button" class="md-button dhp-btn" data-pad-csv>{esc(t(CSV))}</button>'
        f'<button type="button" class="md-button dhp-btn" data-pad-end>{esc(t(END_MATCH))}</button>'
        f'<button type="button" class="md-button dhp-btn" data-pad-reopen hidden>{esc(t(REOPEN))}</button>'
        f'<button type="button" class="md-button md-button--primary dhp-btn" data-pad-again hidden>{esc(t(AGAIN))}</button>'
        f'<button type="button" class="md-button dhp-btn" data-pad-fix>{esc(t(FIX))}</button>'
        f'<button type="button" class="md-button dhp-btn" data-pad-seats>{esc(t(SEATS))}</button>'
        f'<button type="button" class="md-button dhp-btn" data-pad-new>{esc(t(NEW_MATCH))}</button></div>'
        f'<div class="dhp-fixbox" data-pad-fix-box hidden></div>'
        f'<div class="dhp-ask" data-pad-ask hidden></div>'
        f'<p class="dhp-link" data-pad-link hidden><label for="dhp-link-text">{esc(texts["copy_this"])}</label>'
        f'<input id="dhp-link-text" type="text" readonly></p>'
    )
    match = (
        f'<section class="dhp-match" data-pad-match hidden aria-label="{esc(t(TOOLS))}">'
        f'<div data-pad-head></div><div data-pad-totals></div><div data-pad-end-parts></div>'
        # the strip sticks to the top only as far as the entry's end
        f'<div class="dhp-live"><div class="dhp-stripplace" data-pad-strip></div><div data-pad-latest></div>'
        f'<form class="dhp-entry" data-pad-entry novalidate></form></div>'
        f'<div data-pad-earlier></div><div data-pad-evening></div>{tools}</section>'
    )
    strings = json.dumps(texts, ensure_ascii=False, separators=(",", ":"))
    return (
        f'<div class="dhp" data-dhumbal-scorepad data-lang="{esc(lang)}" data-strings="{esc(strings)}" '
        f'data-digits="{esc(digits("0123456789", lang))}">'
        f'<p class="dhp-status" role="status" aria-live="polite" data-pad-status></p>'
        f'<div class="dhp-ask" data-pad-link-ask hidden></div>'
        f"{setup}{match}"
        f'<noscript><p class="dhp-hint">{esc(t(NO_SCRIPT))}</p></noscript></div>'
    )


# -- the settled sheet --------------------------------------------------------------------------


def _rows(profile: Profile, t: Translator) -> list[tuple[str, str]]:
    """The columns of a deal's table: (key, heading)."""
    rows = [("hand", t(ROW_HAND))]
    if profile.settlement == "collect":
        rows += [("took", t(ROW_TOOK)), ("paid", t(ROW_PAID))]
    elif profile.settlement == "pay-caller":
        rows += [("paid", t(ROW_PAID)), ("money", t(ROW_MONEY))]
    else:
        rows += [("points", t(ROW_POINTS))]
    return rows + [("total", t(ROW_TOTAL))]


def _money_shown(text: str, lang: str) -> str:
    return ("+" if not text.startswith("-") and text != "0.00" else "") + number(text, lang)


def _money(points: int, rate: str, lang: str) -> str:
    text = money_text(points, rate)
    return ("+" if points > 0 else "") + number(text, lang)


def _cell(key: str, value: int | str, shown: str) -> str:
    return f'<td data-row="{esc(key)}" data-value="{esc(value)}">{esc(shown)}</td>'


def render_deal(tally: Tally, settled: Settled, lang: str, *, latest: bool) -> str:
    """One deal: its title, how it ended (the engine's sentences), the table, why, and its tools."""
    t = translator(lang)
    p = tally.profile
    names = settled.sheet.names
    o = tally.outcome
    heads = _rows(p, t)
    head = "".join(f'<th scope="col" data-row="{esc(k)}">{esc(label)}</th>' for k, label in heads)
    body = []
    for _i, seat in enumerate(sorted(tally.seating)):
        d = tally.seating.index(seat)
        cells = []
        for key, _ in heads:
            if key == "hand":
                cells.append(_cell(key, o.hands[d], number(o.hands[d], lang)))
            elif key == "took":
                cells.append(_cell(key, o.took[d], number(o.took[d], lang)))
            elif key == "paid":
                cells.append(_cell(key, o.paid[d], signed(o.paid[d], lang)))
            elif key == "money":
                cash = (tally.money() or ())[seat] or "0.00"
                cells.append(_cell(key, cash, _money_shown(cash, lang)))
            elif key == "points":
                cells.append(_cell(key, o.points[d], number(o.points[d], lang)))
            else:
                total = tally.after[seat]
                cells.append(_cell(key, total, number(total, lang) if p.settlement == "cumulative" else signed(total, lang)))
        badges = []
        if tally.caller == seat:
            badges.append(("called", t(BADGE_CALLED)))
            if o.caught:
                badges.append(("caught", t(BADGE_CAUGHT)))
        if tally.winner == seat:
            badges.append(("winner", t(BADGE_WINNER)))
        if seat in tally.newly:
            badges.append(("out", t(BADGE_OUT)))
        marks = "".join(f'<span class="dhp-badge dhp-badge--{k}">{esc(v)}</span>' for k, v in badges)
        cls = " dhp-seat--winner" if tally.winner == seat else ""
        body.append(f'<tr class="dhp-seat{cls}" data-seat="{seat}"><th scope="row"><span class="dhp-name">'
                    f'{esc(names[seat])}</span>{" " + marks if marks else ""}</th>{"".join(cells)}</tr>')
    title = t(DEAL_TITLE, number=tally.number, name=names[tally.dealer])
    said = " ".join(m.text(lang, names) for m in tally.messages())
    why = "".join(f'<li data-seat="{seat}"><span class="dhp-name">{esc(names[seat])}</span>: {esc(text)}</li>'
                  for seat, text in sorted(tally.reasons(lang, names)))
    inner = (
        f'<p class="dhp-said">{esc(said)}</p>'
        f'<div class="dhp-scroll" role="region" tabindex="0" aria-label="{esc(title)}">'
        f'<table class="dhp-score" data-settlement="{esc(p.settlement)}"><thead><tr>'
        f'<th scope="col" class="dhp-col-player">{esc(t(PLAYER))}</th>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
        f'<p class="dhp-why-h">{esc(t(WHY))}</p><ul class="dhp-why">{why}</ul>'
        f'<p class="dhp-row dhp-deal-tools">'
        f'<button type="button" class="md-button dhp-btn" data-pad-edit="{tally.number}">{esc(t(EDIT, number=tally.number))}</button>'
        f'<button type="button" class="md-button dhp-btn" data-pad-undo="{tally.number}">{esc(t(UNDO, number=tally.number))}</button></p>'
    )
    return (f'<details class="dhp-deal" data-deal="{tally.number}"{" open" if latest else ""}>'
            f'<summary><span class="dhp-deal__title">{esc(title)}</span></summary>{inner}</details>')


def render_parts(settled: Settled, lang: str) -> dict[str, str]:
    """The settled sheet in its places on the page: ``head`` (the rules), ``totals``
    (the running totals and who deals next), ``latest`` (the last deal, open),
    ``earlier`` (the deals before it, newest first, closed) and ``end`` (at the end
    of a match: the standings and each player's figures)."""
    t = translator(lang)
    sheet = settled.sheet
    p = sheet.profile
    names = sheet.names
    m = settled.match
    n = len(settled.tallies)
    nxt = settled.next_dealer()
    cumulative = p.settlement == "cumulative"
    rate = p.money_per_point
    caption = t(TOTALS, number=n) if n else t(TOTALS_NONE)
    lines = []
    standings = {st.seat: st for st in settled.standings()}
    cash = money_totals(settled)
    order = sorted(range(len(names)), key=lambda s: standings[s].place) if settled.over else range(len(names))
    for s in order:
        st = standings[s]
        total = number(m.scores[s], lang) if cumulative else signed(m.scores[s], lang)
        marks = ""
        if nxt == s:
            marks += f'<span class="dhp-badge dhp-badge--dealer">{esc(t(BADGE_DEALER))}</span>'
        if s in m.eliminated:
            marks += f'<span class="dhp-badge dhp-badge--out">{esc(t(BADGE_OUT))}</span>'
        elif s in m.away:
            marks += f'<span class="dhp-badge dhp-badge--away" data-away>{esc(t(BADGE_AWAY))}</span>'
        place = f'<td data-row="place" data-value="{st.place}">{esc(number(st.place, lang))}</td>' if settled.over else ""
        money = (f'<td data-row="money-total" data-value="{esc(cash[s])}">'
                 f'{esc(_money_shown(cash[s], lang))}</td>') if rate is not None else ""
        out_cls = " dhp-seat--out" if s in m.eliminated or s in m.away else ""
        lines.append(f'<tr class="dhp-seat{out_cls}" data-seat="{s}">{place}<th scope="row"><span class="dhp-name">{esc(names[s])}</span>'
                     f'{" " + marks if marks else ""}</th><td data-row="total" data-value="{m.scores[s]}">{esc(total)}</td>{money}</tr>')
    place_head = f'<th scope="col">{esc(t(PLACE))}</th>' if settled.over else ""
    money_head = f'<th scope="col">{esc(t(ROW_MONEY_TOTAL))}</th>' if rate is not None else ""
    note = t(TOTAL_LOW, limit=p.elimination) if cumulative and p.elimination is not None else t(TOTAL_HIGH, zero=0)
    if rate is not None and Decimal(rate) != Decimal(rate).quantize(Decimal("0.01")):
        note += " " + t(MONEY_ROUNDED)  # a rate finer than a cent: the rounding rule, said
    if settled.over:
        state = f'<p class="dhp-next dhp-over">{esc(t(OVER))}</p>'
    elif nxt is not None:
        state = f'<p class="dhp-next">{esc(t(NEXT_DEAL, number=n + 1, name=names[nxt]))}</p>'
    else:  # pragma: no cover - a match not over always has a next dealer
        state = ""
    totals = (
        f'<table class="dhp-score dhp-totals" data-settlement="{esc(p.settlement)}"><caption>'
        f'{esc(t(STANDINGS) if settled.over else caption)}</caption><thead><tr>{place_head}'
        f'<th scope="col" class="dhp-col-player">{esc(t(PLAYER))}</th><th scope="col">{esc(t(ROW_TOTAL))}</th>{money_head}</tr></thead>'
        f'<tbody>{"".join(lines)}</tbody></table><p class="dhp-hint">{esc(note)}</p>{state}'
    )
    head = f'<p class="dhp-rules-now">{esc(rules_in_words(p, lang))}</p>'
    latest = render_deal(settled.tallies[-1], settled, lang, latest=True) if n else ""
    earlier = "".join(render_deal(tally, settled, lang, latest=False) for tally in reversed(settled.tallies[:-1]))
    if earlier:
        earlier = f'<h2 class="dhp-h">{esc(t(EARLIER))}</h2>{earlier}'
    end = ""
    if settled.over and n:
        stats = player_stats(settled)
        figures = ((STAT_WON, "won"), (STAT_CALLS, "calls"), (STAT_CAUGHT, "caught"), (STAT_AVERAGE, "average"))
        items = []
        for fig in stats:
            values = {"won": (fig.won, number(fig.won, lang)), "calls": (fig.calls, number(fig.calls, lang)),
                      "caught": (fig.caught, number(fig.caught, lang)),
                      "average": (fig.average_hand if fig.average_hand is not None else "", average_text(fig, lang))}
            cells = "".join(f'<div><dt>{esc(t(label))}</dt><dd data-row="{key}" data-value="{esc(values[key][0])}">'
                            f'{esc(values[key][1])}</dd></div>' for label, key in figures)
            items.append(f'<li data-seat="{fig.seat}"><span class="dhp-name">{esc(names[fig.seat])}</span>'
                         f'<dl class="dhp-figures">{cells}</dl></li>')
        # a list, not a table: four figures a player fit a phone's width in every language
        end = (
            _who_pays(settled, lang) +
            f'<h2 class="dhp-h">{esc(t(STATS))}</h2><ul class="dhp-stats">{"".join(items)}</ul>'
            f'<p class="dhp-hint">{esc(t(STATS_NOTE))}</p>'
        )
    return {"head": head, "totals": totals, "latest": latest, "earlier": earlier, "end": end,
            "strip": _strip(settled, lang)}


def _who_pays(settled: Settled, lang: str) -> str:
    """At the end of a zero-sum match (not CardRulesPlus's running totals): who pays whom,
    in the fewest payments (:func:`dhumbal.matches.scoresheet.payments`), in points and,
    at a money rate, in money."""
    p = settled.sheet.profile
    if p.settlement == "cumulative":
        return ""
    t = translator(lang)
    names = settled.sheet.names
    rate = p.money_per_point
    rows = []
    if rate is None:
        for payer, payee, points in payments(list(settled.match.scores)):
            rows.append(f'<tr data-payer="{payer}" data-payee="{payee}"><td><span class="dhp-name">{esc(names[payer])}</span></td>'
                        f'<td><span class="dhp-name">{esc(names[payee])}</span></td>'
                        f'<td data-row="pay" data-value="{points}">{esc(number(points, lang))}</td></tr>')
    else:
        # in money: the totals as shown (each deal to the cent), paid in cents
        cents = [int(Decimal(c) * 100) for c in money_totals(settled)]
        for payer, payee, amount in payments(cents):
            cash = f"{Decimal(amount) / 100:.2f}"
            rows.append(f'<tr data-payer="{payer}" data-payee="{payee}"><td><span class="dhp-name">{esc(names[payer])}</span></td>'
                        f'<td><span class="dhp-name">{esc(names[payee])}</span></td>'
                        f'<td data-row="pay-money" data-value="{cash}">{esc(number(cash, lang))}</td></tr>')
    title = f'<h2 class="dhp-h">{esc(t(PAY_TITLE))}</h2>'
    if not rows:
        return f'{title}<p class="dhp-pays">{esc(t(PAY_NONE))}</p>'
    amount_head = t(ROW_POINTS) if rate is None else t(ROW_MONEY)
    return (
        f'{title}<table class="dhp-score dhp-pays"><thead><tr><th scope="col">{esc(t(PAY_FROM))}</th>'
        f'<th scope="col">{esc(t(PAY_TO))}</th><th scope="col">{esc(amount_head)}</th></tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table><p class="dhp-hint">{esc(t(PAY_NOTE))}</p>'
    )


def render_evening(settled: Settled, earlier: list[Settled], lang: str) -> str:
    """The evening so far: each player (by name, as the matches call them) with the
    matches they played and their totals added up; "" with no earlier match."""
    if not earlier:
        return ""
    t = translator(lang)
    rate = settled.sheet.profile.money_per_point
    cumulative = settled.sheet.profile.settlement == "cumulative"
    totals: dict[str, list[int]] = {}
    order: list[str] = []
    for one in [*earlier, settled]:
        for seat, name in enumerate(one.sheet.names):
            key = name.casefold()
            if key not in totals:
                totals[key] = [0, 0]
                order.append(name)
            totals[key][0] += 1
            totals[key][1] += one.match.scores[seat]
    rows = []
    for name in order:
        played, total = totals[name.casefold()]
        shown = number(total, lang) if cumulative else signed(total, lang)
        money = (f'<td data-row="evening-money" data-value="{esc(money_text(total, rate))}">'
                 f'{esc(_money(total, rate, lang))}</td>') if rate is not None else ""
        rows.append(f'<tr><th scope="row"><span class="dhp-name">{esc(name)}</span></th>'
                    f'<td data-row="evening-matches" data-value="{played}">{esc(number(played, lang))}</td>'
                    f'<td data-row="evening-total" data-value="{total}">{esc(shown)}</td>{money}</tr>')
    money_head = f'<th scope="col">{esc(t(ROW_MONEY_TOTAL))}</th>' if rate is not None else ""
    return (
        f'<table class="dhp-score dhp-evening"><caption>{esc(t(EVENING))}</caption><thead><tr>'
        f'<th scope="col" class="dhp-col-player">{esc(t(PLAYER))}</th><th scope="col">{esc(t(EVENING_MATCHES))}</th>'
        f'<th scope="col">{esc(t(EVENING_TOTAL))}</th>{money_head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
        f'<p class="dhp-hint">{esc(t(EVENING_NOTE, count=number(len(earlier), lang)))}</p>'
    )


def totals_shown(settled: Settled) -> dict[str, list[str]]:
    """Each player's running total as every language of the site writes it, as the totals
    table does: the page keeps these with the sheet, so a reload shows the totals at once
    in any language, the engine still starting (the page formats no number itself)."""
    cumulative = settled.sheet.profile.settlement == "cumulative"
    scores = settled.match.scores
    return {lang: [number(v, lang) if cumulative else signed(v, lang) for v in scores]
            for lang in available_languages()}


def _strip(settled: Settled, lang: str) -> str:
    """The running totals in large type, the next dealer marked, for the top of the screen
    while a deal is typed (the totals table above says the same to a screen reader, so
    this is hidden from it); "" once the match is over."""
    nxt = settled.next_dealer()
    if nxt is None:
        return ""
    t = translator(lang)
    m = settled.match
    cumulative = settled.sheet.profile.settlement == "cumulative"
    items = []
    for s, name in enumerate(settled.sheet.names):
        if s in m.eliminated or s in m.away:
            continue
        total = number(m.scores[s], lang) if cumulative else signed(m.scores[s], lang)
        dealer = f' <span class="dhp-badge dhp-badge--dealer">{esc(t(BADGE_DEALER))}</span>' if s == nxt else ""
        items.append(f'<li data-seat="{s}"><span class="dhp-name">{esc(name)}</span>{dealer}'
                     f'<b data-row="strip-total" data-value="{m.scores[s]}">{esc(total)}</b></li>')
    return f'<ol class="dhp-strip" aria-hidden="true">{"".join(items)}</ol>'
