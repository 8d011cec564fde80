"""A score sheet in a shared link (``#pad=…``), written and read by the engine only.

A link written now is ``2.`` then a check value and a dot, then the sheet's compact
JSON, raw-deflated and base64url-encoded: ``2.<check>.<data>``. The check value is
the one ``#table=`` links carry (:func:`dhumbal.play.share.link_check`: 48 bits of
SHA-256 of the data), so a link changed in one character (a messenger's mangling,
a hand typed over) opens nothing, instead of a sheet with another score: every
one-character change of real links is refused (a test). Links written before it
(the sheet's JSON as base64url, no mark) are still read, as they were.

Reading is bounded before anything is parsed: the link's length and alphabet, the
check, the inflated size (a short link that would inflate into a long text is
refused), then the JSON's length and nesting (:mod:`dhumbal.core.boundedjson`).
The sheet read is then checked value by value by
:func:`dhumbal.matches.scoresheet.read_sheet`. A link that fails raises
:class:`LinkError`, whose ``code`` says why (``changed``: its check fails;
``damaged``: anything else).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import Any, Final

from ..core import boundedjson
from ..play.share import link_check

MARK: Final = "2."
CHECK_CHARS: Final = 8
MAX_LINK: Final = 24_000  # characters of a link's payload, as the page bounds it too
MAX_JSON: Final = 120_000  # bytes a link's sheet may inflate to (300 deals of six: about 16,000)
MAX_DEPTH: Final = 6  # a sheet nests 4 deep (sheet, deals, deal, hands)
_BASE64URL: Final = re.compile(r"[A-Za-z0-9_-]*")


class LinkError(ValueError):
    """A link that holds no sheet: ``code`` is ``changed`` (its check fails) or ``damaged``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def sheet_link(data: dict[str, Any]) -> str:
    """The link payload (after ``#pad=``) of a sheet's JSON data (:meth:`Sheet.to_json`)."""
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(raw) + packer.flush()
    body = base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")
    return MARK + link_check(body) + "." + body


def _bytes(body: str) -> bytes:
    if not _BASE64URL.fullmatch(body) or len(body) % 4 == 1:
        raise LinkError("damaged")
    try:
        return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise LinkError("damaged") from None


def read_link(text: object) -> Any:
    """The JSON data of a link payload (either format); :class:`LinkError` when there is none."""
    if not isinstance(text, str) or not text or len(text) > MAX_LINK:
        raise LinkError("damaged")
    if text.startswith(MARK):
        check, dot, body = text[len(MARK):].partition(".")
        if not dot or len(check) != CHECK_CHARS or check != link_check(body):
            raise LinkError("changed")
        unpacker = zlib.decompressobj(-15)
        try:
            raw = unpacker.decompress(_bytes(body), MAX_JSON + 1)
        except zlib.error:
            raise LinkError("damaged") from None
        if len(raw) > MAX_JSON or unpacker.unconsumed_tail or not unpacker.eof or unpacker.unused_data:
            raise LinkError("damaged")
    else:
        raw = _bytes(text)  # a link written before the check value
    try:
        return boundedjson.loads(raw, max_chars=MAX_JSON, max_depth=MAX_DEPTH)
    except (UnicodeDecodeError, ValueError):
        raise LinkError("damaged") from None
