"""The score pad's op: a match played with real cards, settled in the worker.

The page keeps only the sheet as typed and sends it whole with one change
(op ``scorepad``, :class:`dhumbal.table.messages.ScorepadRequest`); every
deal is settled again from the first (:mod:`dhumbal.matches.scoresheet`) and
drawn by :mod:`dhumbal.view.padview`. A sheet that cannot be read or settled
is an error (the page keeps its own); a change the engine refuses comes back
as ``refusal`` beside the sheet settled without it, so the page shows the
reason and keeps the sheet as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..core.errors import Refusal
from ..core.i18n import translator
from .messages import ErrorResponse, NextDeal, ScorepadResponse, Sheet, SheetParts, SheetRefusal
from .protocol import ERROR_BAD_CHANGE, ERROR_BAD_REQUEST, RequestError, read_pad_change, read_profile


def error(code: str, text: str, lang: str) -> ErrorResponse:
    """An answer that serves nothing: a stable code and why."""
    return {"ok": False, "error": {"code": code, "text": text}, "lang": lang}


def settle(req: Mapping[str, Any], lang: str) -> ScorepadResponse | ErrorResponse:
    """Settle a score sheet, with one change when the request has one (see the module docstring).

    ``sheet`` is the sheet as the page keeps it (:meth:`dhumbal.matches.scoresheet.Sheet.to_json`;
    a new one from the set-up form has ``setup``: the profile and its options, read as
    the table's settings are), or ``link`` a shared link's payload (:mod:`dhumbal.matches.padlink`:
    a link that fails its check or holds no sheet the engine settles is an error, ``bad-link``).
    The answer carries the sheet's own link (``link``)."""
    from ..core.i18n import number as number_text
    from ..matches.padlink import LinkError, read_link, sheet_link
    from ..matches.scoresheet import Sheet as SheetData
    from ..matches.scoresheet import change_setup, change_sheet, csv_text, read_sheet, settle_sheet
    from ..matches.seats import change_seats
    from ..view.padview import (
        BACK,
        ENDED,
        JOINED,
        LEFT,
        LINK_CHANGED,
        LINK_DAMAGED,
        REMOVED,
        REOPENED,
        SETTLED,
        SETUP_CHANGED,
        UNMOVED,
        render_evening,
        render_parts,
        totals_shown,
    )

    t = translator(lang)
    data = req.get("sheet")
    from_link = req.get("link") is not None
    if from_link:
        # a shared link: read and checked here, refused whole (the reader's own sheet is the page's)
        try:
            data = read_link(req.get("link"))
        except LinkError as exc:
            return error("bad-link", t(LINK_CHANGED if exc.code == "changed" else LINK_DAMAGED), lang)
    setup = req.get("setup")
    profile = None
    if setup is not None:
        if not isinstance(setup, dict):
            raise RequestError("bad-request", ERROR_BAD_REQUEST)
        profile = read_profile(setup.get("profile"), setup.get("options"), lang=lang)
    sheet: SheetData | None = None
    try:
        sheet = read_sheet(data, profile)
        settled = settle_sheet(sheet)
    except Refusal as exc:
        if from_link:
            return error("bad-link", t(LINK_DAMAGED), lang)
        return error("bad-sheet", exc.text(lang, None if sheet is None else sheet.names), lang)
    said = ""
    refusal: SheetRefusal | None = None
    change = req.get("change")
    if isinstance(change, dict) and change.get("kind") == "setup":
        # the names and the first dealer corrected mid-match: every deal settled again
        if set(change) - {"kind", "names", "dealer"}:
            raise RequestError("bad-change", ERROR_BAD_CHANGE)
        try:
            sheet, settled = change_setup(sheet, change.get("names"), change.get("dealer"))
        except Refusal as exc:
            refusal = {"code": exc.code, "text": exc.text(lang, sheet.names), "deal": None, "seat": exc.seat}
        else:
            said = t(SETUP_CHANGED)
    elif isinstance(change, dict) and change.get("kind") in ("join", "leave", "unmove"):
        # a player joins or leaves the table before the next deal, or that is taken back
        kind = str(change["kind"])
        if set(change) - {"kind", "name", "seat"}:
            raise RequestError("bad-change", ERROR_BAD_CHANGE)
        try:
            sheet, settled = change_seats(sheet, kind, name=change.get("name"), seat=change.get("seat"))
        except Refusal as exc:
            refusal = {"code": exc.code, "text": exc.text(lang, sheet.names), "deal": None, "seat": exc.seat}
        else:
            if kind == "unmove":
                said = t(UNMOVED)
            else:
                move = sheet.moves[-1]
                back = move.join and any(m.seat == move.seat for m in sheet.moves[:-1])
                said = t(BACK if back else JOINED if move.join else LEFT, name=sheet.names[move.seat],
                         number=move.deal, zero=number_text(0, lang))
    elif change is not None:
        kind, index, entry = read_pad_change(change, len(sheet.names))
        try:
            sheet, settled = change_sheet(sheet, kind, index=index, entry=entry)
        except Refusal as exc:
            refusal = {"code": exc.code, "text": exc.text(lang, sheet.names), "deal": exc.deal, "seat": exc.seat}
        else:
            if kind in ("add", "edit"):
                number = len(settled.tallies) if kind == "add" else int(index or 0)
                tally = settled.tallies[number - 1]
                said = " ".join([t(SETTLED, number=number)] + [m.text(lang, sheet.names) for m in tally.messages()])
            elif kind == "undo":
                said = t(REMOVED, number=int(index or 0))
            else:
                said = t(ENDED if kind == "end" else REOPENED)
    nxt = settled.next_dealer()
    p = sheet.profile
    following: NextDeal | None = None if nxt is None else {
        "number": len(settled.tallies) + 1, "dealer": nxt, "active": settled.active(),
        "nobody": p.turn_cap is not None, "cap": p.turn_cap,
    }
    return {
        "ok": True, "op": "scorepad", "lang": lang,
        "sheet": cast(Sheet, sheet.to_json()),
        "parts": cast(SheetParts, {**render_parts(settled, lang),
                                   "evening": render_evening(settled, _evening(req.get("evening")), lang)}),
        "next": following,
        "deals": len(settled.tallies),
        "over": settled.over, "over_by_rules": settled.over_by_rules,
        "names": list(sheet.names),
        "csv": csv_text(settled, lang),
        "link": sheet_link(sheet.to_json()),
        "scores": list(settled.match.scores), "shown": totals_shown(settled),
        "said": said,
        "refusal": refusal,
    }


#: The evening's earlier matches a request may carry (each up to 300 deals: the request's bound holds them).
MAX_EVENING = 12


def _evening(value: object) -> list[Any]:
    """The evening's earlier matches, each settled; one that cannot be read is left out alone
    (the page keeps it as it is), and none at all when the value is not a list of them."""
    from ..matches.scoresheet import read_sheet, settle_sheet

    if not isinstance(value, list):
        return []
    out = []
    for data in value[-MAX_EVENING:]:
        try:
            out.append(settle_sheet(read_sheet(data)))
        except Refusal:
            continue
    return out
