"""The score pad's sheet: a match played with real cards, every deal settled by the engine.

A :class:`Sheet` is only what the table typed: the rules (a profile with
its house rules), the players' names in the order they sit, the first
dealer, and for each deal who called and each hand's total (``None`` for a
player already out), plus whether the table ended the match early.
:func:`settle_sheet` settles it from the start, deal by deal, through
:func:`dhumbal.matches.tally.tally_next`: the dealer moves on, scores run,
players go out, exactly as in a match the engine plays. So an edit or a
removal anywhere settles everything after it again, and a change that
would leave a later deal impossible (a player who is now out has a total
there, or one still in has none, or the match is now over before it) is
refused, naming that deal, with the sheet unchanged.

:func:`read_sheet` reads a sheet from JSON data (the page's storage, a
shared link), bounded and checked by type and range; :func:`change_sheet`
applies one change (add, edit, remove, end, reopen); :func:`change_setup` corrects
the names and the first dealer, :mod:`dhumbal.matches.seats` seats a player joining or
leaving between deals (:func:`settle_sheet` applies those moves). They raise
:class:`dhumbal.matches.tally.TallyError` or :class:`SheetError`. :func:`player_stats`
and :func:`csv_text` give the end of a match and its export.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Final

from ..core.errors import Refusal
from ..core.i18n import N_, number, translator
from ..core.profiles import Profile, ProfileError, parse_profile
from .match import Match, Standing
from .tally import Tally, TallyError, tally_next

SHEET_FORMAT: Final = 1
MAX_DEALS: Final = 300
MAX_NAME: Final = 24
MAX_TOTAL_TEXT: Final = 3  # digits of a typed hand total

ERRORS: Final[Mapping[str, str]] = {
    "bad": N_("This score sheet cannot be read: it is damaged or incomplete."),
    "names": N_("Give the names of {low} to {high} players."),
    "name-empty": N_("Player {number} has no name yet."),
    "name-long": N_("The name of player {number} is longer than {max} characters."),
    "name-bad": N_("The name of player {number} holds a character that cannot be shown."),
    "name-twice": N_("Two players are called {name}: give each player a name of their own."),
    "too-many": N_("A score sheet holds at most {max} deals."),
    "no-deal": N_("There is no deal {number} to change."),
    "later-out": N_("After this change {seat} is out before deal {number}, which has a total for them: change or remove deal {number} first."),
    "later-in": N_("After this change {seat} is still in the match at deal {number}, which has no total for them: change or remove deal {number} first."),
    "later-over": N_("After this change the match is over before deal {number}: remove deal {number} and the deals after it first."),
    "seats-full": N_("A match here has room for {max} players in all, counting those who left: start a new match to seat someone else."),
    "no-move": N_("Nobody has joined or left this match."),
    "not-ended": N_("The rules have ended this match: start a new match to score more deals."),
}


class SheetError(Refusal):
    """A sheet or a change that cannot be read (``code`` a key of :data:`ERRORS`)."""

    def template(self) -> str:
        return ERRORS[self.code]


@dataclass(frozen=True)
class Entry:
    """One deal as the table typed it: the caller (a match seat, or ``None``: nobody
    called) and each match seat's hand total (``None``: out of the match)."""

    caller: int | None
    hands: tuple[int | None, ...]

    def to_json(self) -> dict[str, Any]:
        return {"c": self.caller, "h": list(self.hands)}


@dataclass(frozen=True)
class Move:
    """A player joining (``join``) or leaving the table before deal ``deal`` (from 1): a
    match seat. A seat whose first move is a join is away from the first deal."""

    deal: int
    seat: int
    join: bool

    def to_json(self) -> dict[str, Any]:
        return {"d": self.deal, "s": self.seat, "j": self.join}


@dataclass(frozen=True)
class Sheet:
    profile: Profile  # with players = len(names): everyone who sat at the table in the match
    names: tuple[str, ...]
    first_dealer: int
    entries: tuple[Entry, ...] = ()
    ended: bool = False
    moves: tuple[Move, ...] = ()  # in the order they were made

    def to_json(self) -> dict[str, Any]:
        data = {
            "v": SHEET_FORMAT, "profile": self.profile.with_options(players=self.profile.spec("players").default).canonical(),
            "names": list(self.names), "dealer": self.first_dealer,
            "deals": [e.to_json() for e in self.entries], "end": self.ended,
        }
        if self.moves:  # a sheet nobody joined or left is written as before (its links, its kept facts)
            data["moves"] = [m.to_json() for m in self.moves]
        return data


# -- reading ------------------------------------------------------------------------------


def read_whole(value: object, low: int, high: int) -> int:
    """A whole number from low to high (never a bool), or :class:`SheetError` ``bad``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SheetError("bad")
    return value


def read_names(value: object, low: int, high: int) -> tuple[str, ...]:
    """The players' names, in the order they sit: ``low`` to ``high`` of them, each
    printable, at most :data:`MAX_NAME` characters, no two alike (ignoring case)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SheetError("bad")
    if not low <= len(value) <= high:
        raise SheetError("names", low=low, high=high)
    names: list[str] = []
    for i, raw in enumerate(value):
        name = " ".join(raw.split())
        if not name:
            raise SheetError("name-empty", number=i + 1)
        if len(name) > MAX_NAME:
            raise SheetError("name-long", number=i + 1, max=MAX_NAME)
        # joiners shape Devanagari (र्‍य): the only invisible characters a name may hold
        if not name.replace("\u200c", "").replace("\u200d", "").isprintable():
            raise SheetError("name-bad", number=i + 1)
        if name.casefold() in (n.casefold() for n in names):
            raise SheetError("name-twice", name=name)
        names.append(name)
    return tuple(names)


def read_entry(value: object, players: int) -> Entry:
    """One deal's entry: ``{"c": seat or null, "h": [total or null, …]}``, one total per player."""
    if not isinstance(value, dict) or set(value) - {"c", "h"}:
        raise SheetError("bad")
    caller = value.get("c")
    hands = value.get("h")
    if caller is not None:
        caller = read_whole(caller, 0, players - 1)
    if not isinstance(hands, list) or len(hands) != players:
        raise SheetError("bad")
    totals: list[int | None] = []
    for h in hands:
        totals.append(None if h is None else read_whole(h, 0, 10 ** MAX_TOTAL_TEXT - 1))
    return Entry(caller, tuple(totals))


def read_sheet(data: object, profile: Profile | None = None) -> Sheet:
    """A sheet from its JSON data (see :meth:`Sheet.to_json`); ``profile``, when given,
    replaces the data's (the set-up form's rules, read by the caller with its own checks)."""
    if not isinstance(data, dict) or data.get("v") != SHEET_FORMAT:
        raise SheetError("bad")
    if profile is None:
        text = data.get("profile")
        if not isinstance(text, str) or len(text) > 400:
            raise SheetError("bad")
        try:
            profile = parse_profile(text)
        except ProfileError:
            raise SheetError("bad") from None
    spec = profile.spec("players")
    names = read_names(data.get("names"), spec.low, spec.high)
    try:
        profile = profile.with_options(players=len(names))
    except ProfileError:  # pragma: no cover - read_names keeps to the range
        raise SheetError("bad") from None
    dealer = read_whole(data.get("dealer"), 0, len(names) - 1)
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise SheetError("bad")
    if len(deals) > MAX_DEALS:
        raise SheetError("too-many", max=MAX_DEALS)
    ended = data.get("end", False)
    if not isinstance(ended, bool):
        raise SheetError("bad")
    moves = data.get("moves", [])
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise SheetError("bad")
    return Sheet(profile, names, dealer, tuple(read_entry(d, len(names)) for d in deals), ended,
                 tuple(_read_move(m, len(names), len(deals)) for m in moves))


#: Players joining or leaving over one match (far beyond a real evening's).
MAX_MOVES: Final = 60


def _read_move(value: object, players: int, deals: int) -> Move:
    """One move: ``{"d": deal, "s": seat, "j": joins}``, between deal 1 and the next deal.
    Whether it can happen there is the settling's to say (:func:`settle_sheet`)."""
    if not isinstance(value, dict) or set(value) != {"d", "s", "j"} or not isinstance(value["j"], bool):
        raise SheetError("bad")
    return Move(read_whole(value["d"], 1, deals + 1), read_whole(value["s"], 0, players - 1), value["j"])


# -- settling -------------------------------------------------------------------------------


@dataclass
class Settled:
    """A sheet settled: each deal's :class:`~dhumbal.matches.tally.Tally`, and the match after the last."""

    sheet: Sheet
    match: Match
    tallies: list[Tally] = field(default_factory=list)

    @property
    def over(self) -> bool:
        """The match is over: by its rules (the deals played, one player left) or by the table's say."""
        return self.sheet.ended or self.match.is_over()

    @property
    def over_by_rules(self) -> bool:
        return self.match.is_over()

    def next_dealer(self) -> int | None:
        return None if self.over else self.match.next_dealer()

    def active(self) -> list[int]:
        """The players in the next deal, by match seat, in the order they sit."""
        return sorted(self.match.active())

    def standings(self) -> list[Standing]:
        return self.match.standings()


def settle_sheet(sheet: Sheet) -> Settled:
    """Settle every deal of ``sheet`` from the start; :class:`TallyError` (with its deal) on bad input.

    Before each deal (and before the next one) the players who join or leave there do
    (:func:`_move`): a seat whose first move is a join is away until then."""
    match = Match(sheet.profile, first_dealer=sheet.first_dealer)
    for i, m in enumerate(sheet.moves):
        if m.join and not any(o.seat == m.seat for o in sheet.moves[:i]):
            match.away.add(m.seat)
    for m in sheet.moves:
        if m.deal == 1:
            _move(match, m, sheet.profile)
    if sheet.moves and sheet.first_dealer in match.away:
        raise TallyError("away-dealer", deal=1, seat=sheet.first_dealer)
    settled = Settled(sheet, match)
    for k, entry in enumerate(sheet.entries):
        for m in sheet.moves:
            if m.deal == k + 1 and k:
                _move(match, m, sheet.profile)
        settled.tallies.append(tally_next(match, entry.caller, list(entry.hands), number=k + 1))
    for m in sheet.moves:
        if m.deal == len(sheet.entries) + 1 > 1:
            _move(match, m, sheet.profile)
    return settled


def _move(match: Match, move: Move, profile: Profile) -> None:
    """A player joins or leaves ``match`` before its deal ``move.deal``, where the rules allow it.

    A ledger (Nepali Games, Dashain) lets anyone join, at 0 (so the scores still add up
    to zero), or leave, their total kept as it stands for the settling up. A race to a
    limit (CardRulesPlus) lets a player leave (they are out of the race) but lets nobody
    join once a deal is played: a newcomer at 0 would be far from the limit the others
    near, and the rules give no entry score; they join the next match."""
    seat = move.seat
    if match.is_over():
        raise TallyError("match-over", deal=move.deal)
    if move.join:
        if seat not in match.away:
            raise TallyError("join-there", deal=move.deal, seat=seat)
        if profile.elimination is not None and move.deal > 1:
            raise TallyError("join-race", deal=move.deal, seat=seat)
        spec = profile.spec("players")
        if len(match.active()) >= spec.high:
            raise TallyError("join-full", deal=move.deal, seat=seat, max=spec.high)
        match.away.discard(seat)
    else:
        if seat not in match.active():
            raise TallyError("leave-gone", deal=move.deal, seat=seat)
        if len(match.active()) <= 2:
            raise TallyError("leave-two", deal=move.deal, seat=seat)
        match.away.add(seat)


#: What a change is: add the next deal, change deal ``index`` (from 1), remove it,
#: end the match here, take up an ended match again, or correct the set-up (names and
#: first dealer: :func:`change_setup`; a player joining or leaving, and that taken back:
#: :func:`dhumbal.matches.seats.change_seats`).
CHANGES: Final = ("add", "edit", "undo", "end", "reopen", "setup", "join", "leave", "unmove")


def change_sheet(sheet: Sheet, kind: str, *, index: int | None = None, entry: Entry | None = None) -> tuple[Sheet, Settled]:
    """``sheet`` with one change applied, and settled. A refused change raises
    (:class:`TallyError` for the deal typed, :class:`SheetError` for what it would
    do to the deals after it) and leaves ``sheet`` as it was: sheets are values."""
    entries = list(sheet.entries)
    changed: int | None = None  # the deal typed, from 1
    if kind == "add":
        if entry is None:
            raise SheetError("bad")
        if len(entries) >= MAX_DEALS:
            raise SheetError("too-many", max=MAX_DEALS)
        if sheet.ended:
            raise TallyError("match-over", deal=len(entries) + 1)
        entries.append(entry)
        changed = len(entries)
    elif kind in ("edit", "undo"):
        if index is None or not 1 <= index <= len(entries):
            raise SheetError("no-deal", number=index if index is not None else 0)
        if kind == "edit":
            if entry is None:
                raise SheetError("bad")
            entries[index - 1] = entry
            changed = index
        else:
            del entries[index - 1]
            # a player who joined or left after the deal removed did so one deal earlier now
            moves = tuple(replace(m, deal=m.deal - 1) if m.deal > index else m for m in sheet.moves)
            sheet = replace(sheet, moves=moves)
    elif kind in ("end", "reopen"):
        if kind == "reopen" and settle_sheet(replace(sheet, ended=False)).match.is_over():
            raise SheetError("not-ended")
        new = replace(sheet, ended=kind == "end")
        return new, settle_sheet(new)
    else:
        raise SheetError("bad")
    return settle_changed(replace(sheet, entries=tuple(entries)), kind, index, changed)


def change_setup(sheet: Sheet, names: object, dealer: object) -> tuple[Sheet, Settled]:
    """``sheet`` with its set-up corrected mid-match: the players' names (the same number,
    in the same seats) and the first dealer. Every deal is settled again with the dealers
    that follow from it (in Nepali Games the dealer breaks ties); a correction that
    would leave a later deal impossible is refused as :func:`change_sheet` refuses one."""
    spec = sheet.profile.spec("players")
    new_names = read_names(names, spec.low, spec.high)
    if len(new_names) != len(sheet.names):
        raise SheetError("names", low=len(sheet.names), high=len(sheet.names))
    first = read_whole(dealer, 0, len(new_names) - 1)
    return settle_changed(replace(sheet, names=new_names, first_dealer=first), "setup", None, None)


def settle_changed(new: Sheet, kind: str, index: int | None, changed: int | None) -> tuple[Sheet, Settled]:
    """A changed sheet settled; a deal after ``changed`` (any, when None) made impossible is named."""
    try:
        return new, settle_sheet(new)
    except TallyError as exc:
        later = exc.deal is not None and (changed is None or exc.deal > changed)
        if not later:
            raise
        assert exc.deal is not None
        if exc.code == "match-over":
            raise SheetError("later-over", number=_later(exc.deal, kind, index)) from None
        if exc.code in ("score-out", "caller-out", "away"):
            raise SheetError("later-out", seat=exc.seat, number=_later(exc.deal, kind, index)) from None
        if exc.code == "missing":
            raise SheetError("later-in", seat=exc.seat, number=_later(exc.deal, kind, index)) from None
        raise


def _later(deal: int, kind: str, index: int | None) -> int:
    """A deal's number as the reader knows it: before a removal, the deals after it were one further on."""
    return deal + 1 if kind == "undo" and index is not None and deal >= index else deal


# -- the end of a match -------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStats:
    """One player's match, beyond the score: ``won`` deals, ``calls`` made, of them
    ``caught``, and the hand totals at the shows they were in."""

    seat: int
    played: int
    won: int
    calls: int
    caught: int
    hand_sum: int

    @property
    def average_hand(self) -> Decimal | None:
        """The average hand at a show, to a tenth (``None`` before any deal)."""
        if not self.played:
            return None
        return (Decimal(self.hand_sum) / Decimal(self.played)).quantize(Decimal("0.1"))


def player_stats(settled: Settled) -> list[PlayerStats]:
    """Per player, in seat order: deals won, calls made and caught, the average hand at a show."""
    n = settled.match.players
    played = [0] * n
    won = [0] * n
    calls = [0] * n
    caught = [0] * n
    hand_sum = [0] * n
    for t in settled.tallies:
        for i, seat in enumerate(t.seating):
            played[seat] += 1
            hand_sum[seat] += t.outcome.hands[i]
        if t.winner is not None:
            won[t.winner] += 1
        if t.caller is not None:
            calls[t.caller] += 1
            caught[t.caller] += t.outcome.caught
    return [PlayerStats(s, played[s], won[s], calls[s], caught[s], hand_sum[s]) for s in range(n)]


def money_totals(settled: Settled) -> list[str]:
    """Each player's money over the match: the sum of their deals' amounts as shown (each
    deal to the cent and adding up to zero, :func:`dhumbal.matches.tally.money_split`),
    so the totals add up to zero too ("0.00" each without a money rate)."""
    sums = [Decimal(0)] * len(settled.sheet.names)
    for tally in settled.tallies:
        for seat, cash in enumerate(tally.money() or ()):
            if cash is not None:
                sums[seat] += Decimal(cash)
    return [f"{x:.2f}" if x else "0.00" for x in sums]


def payments(scores: list[int]) -> list[tuple[int, int, int]]:
    """Who pays whom at the end of a zero-sum match, in the fewest payments: ``(payer,
    payee, points)`` triples that bring every score to zero.

    The fewest is the players with a score other than zero, less the most groups they
    split into whose scores sum to zero (each group settles within itself in one
    payment fewer than it has players). Found over every subset (at most six players:
    64), then each group settles greedily, the largest debt to the largest credit."""
    seats = [s for s, v in enumerate(scores) if v]
    k = len(seats)
    total = [0] * (1 << k)
    for mask in range(1, 1 << k):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + scores[seats[low]]
    groups = [0] * (1 << k)  # the most zero-sum groups a set of players splits into
    for mask in range(1, 1 << k):
        groups[mask] = max(groups[mask & ~(1 << i)] for i in range(k) if mask >> i & 1) + (total[mask] == 0)
    out: list[tuple[int, int, int]] = []
    mask = (1 << k) - 1
    split: list[list[int]] = []
    current: list[int] = []
    while mask:
        i = next(i for i in range(k) if mask >> i & 1 and groups[mask & ~(1 << i)] + (total[mask] == 0) == groups[mask])
        if total[mask] == 0 and current:
            split.append(current)
            current = []
        current.append(seats[i])
        mask &= ~(1 << i)
    if current:
        split.append(current)
    for group in split:
        owed = {s: scores[s] for s in group}
        while any(owed.values()):
            payer = min(owed, key=lambda s: (owed[s], s))
            payee = max(owed, key=lambda s: (owed[s], -s))
            amount = min(-owed[payer], owed[payee])
            out.append((payer, payee, amount))
            owed[payer] += amount
            owed[payee] -= amount
    return sorted(out)


CSV_DEAL: Final = N_("Deal")
CSV_DEALER: Final = N_("Dealer")
CSV_PLAYER: Final = N_("Player")
CSV_CALLED: Final = N_("Called")
CSV_HAND: Final = N_("Hand")
CSV_TOOK: Final = N_("Took")
CSV_PAID: Final = N_("Paid")
CSV_POINTS: Final = N_("Points")
CSV_MONEY: Final = N_("Money")
CSV_TOTAL: Final = N_("Total")
CSV_OUT: Final = N_("Out")
CSV_WHY: Final = N_("Why")
CSV_YES: Final = N_("yes")


def _cell(text: str) -> str:
    """A cell a spreadsheet shows as text: one starting like a formula gets a quote first."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


#: Languages whose spreadsheets read a comma as the decimal mark, so their CSV is
#: separated by semicolons (as those spreadsheets write it themselves).
DECIMAL_COMMA: Final = frozenset({"fr", "nl"})


def csv_text(settled: Settled, lang: str) -> str:
    """The sheet as CSV, one line per player per deal: numbers in plain digits (Latin:
    every spreadsheet reads them), headings and reasons in the reader's language. In
    French and Dutch the cells are separated by semicolons and money has a decimal
    comma, as spreadsheets there expect; elsewhere commas and a decimal point."""
    t = translator(lang)
    comma = lang in DECIMAL_COMMA

    def decimal(text: str) -> str:
        return text.replace(".", ",") if comma else text

    p = settled.sheet.profile
    names = settled.sheet.names
    heads = [CSV_DEAL, CSV_DEALER, CSV_PLAYER, CSV_CALLED, CSV_HAND]
    if p.settlement == "collect":
        heads += [CSV_TOOK, CSV_PAID]
    elif p.settlement == "pay-caller":
        heads += [CSV_PAID, CSV_MONEY]
    else:
        heads += [CSV_POINTS]
    heads += [CSV_TOTAL, CSV_OUT, CSV_WHY]
    out = io.StringIO()
    w = csv.writer(out, delimiter=";" if comma else ",", lineterminator="\r\n")
    w.writerow([t(h) for h in heads])
    for tally in settled.tallies:
        reasons = dict(tally.reasons(lang, names))
        o = tally.outcome
        for i, seat in enumerate(tally.seating):
            row = [str(tally.number), _cell(names[tally.dealer]), _cell(names[seat]),
                   t(CSV_YES) if tally.caller == seat else "", str(o.hands[i])]
            if p.settlement == "collect":
                row += [str(o.took[i]), str(o.paid[i])]
            elif p.settlement == "pay-caller":
                row += [str(o.paid[i]), decimal((tally.money() or ())[seat] or "0.00")]
            else:
                row += [str(o.points[i])]
            row += [str(tally.after[seat]), t(CSV_YES) if seat in tally.newly else "", _cell(reasons[seat])]
            w.writerow(row)
    return out.getvalue()


def average_text(stats: PlayerStats, lang: str) -> str:
    avg = stats.average_hand
    return "—" if avg is None else number(str(avg), lang)
