"""A player joining or leaving the score pad's match between deals, or that taken back.

The sheet keeps each move as data (:class:`dhumbal.matches.scoresheet.Move`: before
deal ``d``, seat ``s`` joins or leaves) and :func:`dhumbal.matches.scoresheet.settle_sheet`
applies them as it settles, where the rules allow (its ``_move``: a ledger lets anyone
join at 0 and anyone leave with their total kept; CardRulesPlus lets nobody join once a
deal is played). Here a move is added at the next deal, a newcomer's seat inserted where
they sit (the later seats one up), or the last move taken back with the seat it brought.
"""

from __future__ import annotations

from dataclasses import replace

from .scoresheet import Entry, Move, Settled, Sheet, SheetError, read_names, read_whole, settle_changed, settle_sheet
from .tally import TallyError


def change_seats(sheet: Sheet, kind: str, *, name: object = None, seat: object = None) -> tuple[Sheet, Settled]:
    """``sheet`` with a player joining or leaving before its next deal, or the last such
    move taken back, and settled (refused as :func:`change_sheet` refuses).

    ``join``: ``name`` sits down at match seat ``seat`` (0 to the number of names: the
    players from there on move one seat up; the new player sits on the left of the one
    before), at 0 in a ledger. A ``name`` that is a player's who left brings that player
    back to their own seat and total. ``leave``: match seat ``seat`` leaves the table.
    ``unmove``: the last join or leave is taken back (a new player's seat goes again,
    refused while a deal has their total). The rules' limits are :func:`_move`'s."""
    deal = len(sheet.entries) + 1
    if kind in ("join", "leave") and (sheet.ended or settle_sheet(sheet).over):
        raise TallyError("match-over", deal=deal)
    if kind == "leave":
        new = replace(sheet, moves=(*sheet.moves, Move(deal, read_whole(seat, 0, len(sheet.names) - 1), False)))
    elif kind == "join":
        if not isinstance(name, str):
            raise SheetError("bad")
        (clean,) = read_names([name], 1, 1)
        back = [s for s, n in enumerate(sheet.names) if n.casefold() == clean.casefold()]
        if back and back[0] not in settle_sheet(sheet).match.away:
            raise TallyError("join-there", deal=deal, seat=back[0])
        if back:
            new = replace(sheet, moves=(*sheet.moves, Move(deal, back[0], True)))
        else:
            spec = sheet.profile.spec("players")
            if len(sheet.names) >= spec.high:
                raise SheetError("seats-full", max=spec.high)
            new = _seat_inserted(sheet, read_whole(seat, 0, len(sheet.names)), clean, deal)
    elif kind == "unmove":
        if not sheet.moves:
            raise SheetError("no-move")
        last = sheet.moves[-1]
        new = replace(sheet, moves=sheet.moves[:-1])
        if last.join and not any(m.seat == last.seat for m in new.moves):
            # the seat came with the move: it goes with it, unless a deal has the player's total
            had = next((k + 1 for k, e in enumerate(sheet.entries) if e.hands[last.seat] is not None), None)
            if had is not None:
                raise SheetError("later-out", seat=last.seat, number=had)
            new = _seat_removed(new, last.seat)
    else:
        raise SheetError("bad")
    return settle_changed(new, kind, None, None)


def _seat_inserted(sheet: Sheet, seat: int, name: str, deal: int) -> Sheet:
    """``sheet`` with a new player at match seat ``seat`` (the later seats one up), away until ``deal``."""
    def up(s: int) -> int:
        return s + 1 if s >= seat else s

    names = (*sheet.names[:seat], name, *sheet.names[seat:])
    entries = tuple(Entry(None if e.caller is None else up(e.caller), (*e.hands[:seat], None, *e.hands[seat:]))
                    for e in sheet.entries)
    moves = (*(replace(m, seat=up(m.seat)) for m in sheet.moves), Move(deal, seat, True))
    profile = sheet.profile.with_options(players=len(names))
    return replace(sheet, profile=profile, names=names, entries=entries, moves=moves, first_dealer=up(sheet.first_dealer))


def _seat_removed(sheet: Sheet, seat: int) -> Sheet:
    """``sheet`` without match seat ``seat`` (no deal has its total, no move names it)."""
    def down(s: int) -> int:
        return s - 1 if s > seat else s

    names = sheet.names[:seat] + sheet.names[seat + 1:]
    entries = tuple(Entry(None if e.caller is None else down(e.caller), e.hands[:seat] + e.hands[seat + 1:])
                    for e in sheet.entries)
    moves = tuple(replace(m, seat=down(m.seat)) for m in sheet.moves)
    profile = sheet.profile.with_options(players=len(names))
    return replace(sheet, profile=profile, names=names, entries=entries, moves=moves, first_dealer=down(sheet.first_dealer))
