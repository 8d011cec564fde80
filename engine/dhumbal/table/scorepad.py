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
from .protocol import ERROR_BAD_REQUEST, RequestError, read_pad_change, read_profile


def error(code: str, text: str, lang: str) -> ErrorResponse:
    """An answer that serves nothing: a stable code and why."""
    return {"ok": False, "error": {"code": code, "text": text}, "lang": lang}


def settle(req: Mapping[str, Any], lang: str) -> ScorepadResponse | ErrorResponse:
    """Settle a score sheet, with one change when the request has one (see the module docstring).

    ``sheet`` is the sheet as the page keeps it (:meth:`dhumbal.matches.scoresheet.Sheet.to_json`;
    a new one from the set-up form has ``setup``: the profile and its options, read as
    the table's settings are)."""
    from ..matches.scoresheet import Sheet as SheetData
    from ..matches.scoresheet import change_sheet, csv_text, read_sheet, settle_sheet
    from ..view.padview import ENDED, REMOVED, REOPENED, SETTLED, render_parts

    t = translator(lang)
    setup = req.get("setup")
    profile = None
    if setup is not None:
        if not isinstance(setup, dict):
            raise RequestError("bad-request", ERROR_BAD_REQUEST)
        profile = read_profile(setup.get("profile"), setup.get("options"), lang=lang)
    sheet: SheetData | None = None
    try:
        sheet = read_sheet(req.get("sheet"), profile)
        settled = settle_sheet(sheet)
    except Refusal as exc:
        return error("bad-sheet", exc.text(lang, None if sheet is None else sheet.names), lang)
    said = ""
    refusal: SheetRefusal | None = None
    if req.get("change") is not None:
        kind, index, entry = read_pad_change(req.get("change"), len(sheet.names))
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
        "parts": cast(SheetParts, render_parts(settled, lang)),
        "next": following,
        "deals": len(settled.tallies),
        "over": settled.over, "over_by_rules": settled.over_by_rules,
        "names": list(sheet.names),
        "csv": csv_text(settled, lang),
        "said": said,
        "refusal": refusal,
    }
