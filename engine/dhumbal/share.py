"""The shareable link: a game as a short ``#table=`` hash, and the reader's moves as codes.

A session is reproduced exactly from (profile, seed, difficulty, the reader's
moves and, for a position, its start state): this module writes that as
base64url JSON and reads it back, refusing anything that is not one with a
``ValueError``. It decides nothing about the rules; :mod:`dhumbal.session`
replays what it reads through the engine.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any, Final, Mapping

from . import boundedjson
from . import cards as C
from .action import Action

HASH_VERSION: Final = 1
HASH_PREFIX: Final = "table="
MAX_HASH: Final = 16_000  # characters of a URL hash

_CARD_CODE = re.compile(r"10[SHDC]|[A2-9JQK][SHDC]|Jk[12]")


def encode_move(action: Action) -> str:
    """``c``, ``s``, ``p`` / ``pKS``, ``tKSKH``: one reader move, ASCII, no separators."""
    if action.kind == "call":
        return "c"
    if action.kind == "take":
        if action.source == "stock":
            return "s"
        return "p" + "".join(C.card_text(c, ascii=True) for c in action.cards)
    return "t" + "".join(C.card_text(c, ascii=True) for c in action.cards)


def _codes(text: str) -> list[C.Card]:
    out: list[C.Card] = []
    pos = 0
    while pos < len(text):
        m = _CARD_CODE.match(text, pos)
        if not m:
            raise ValueError(f"bad card code at {text[pos:]!r}")
        out.append(C.parse_card(m.group(0)))
        pos = m.end()
    return out


def decode_move(code: str) -> Action:
    """The inverse of :func:`encode_move`; ``ValueError`` for anything else."""
    if code == "c":
        return Action.call()
    if code == "s":
        return Action.take_stock()
    if code.startswith("p"):
        cs = _codes(code[1:])
        if len(cs) > 1:
            raise ValueError("a take names at most one card")
        return Action.take_pile(cs[0] if cs else None)
    if code.startswith("t") and len(code) > 1:
        return Action.throw(*_codes(code[1:]))
    raise ValueError(f"not a move: {code!r}")


_STATE_CARD_LISTS: Final = ("stock", "pile", "pending")
_STATE_CARD_LIST_LISTS: Final = ("hands", "known")


def compact_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """A ``records.state_to_json`` state with its cards written as ASCII codes (``KS``), for short URLs."""
    out = dict(state)

    def ascii_text(t: Any) -> Any:
        return C.card_text(C.parse_card(t), ascii=True) if isinstance(t, str) else t

    for key in _STATE_CARD_LISTS:
        if isinstance(out.get(key), list):
            out[key] = "".join(ascii_text(t) for t in out[key])
    for key in _STATE_CARD_LIST_LISTS:
        if isinstance(out.get(key), list):
            out[key] = ["".join(ascii_text(t) for t in h) if isinstance(h, list) else h for h in out[key]]
    if isinstance(out.get("took_from_pile"), str):
        out["took_from_pile"] = ascii_text(out["took_from_pile"])
    return out


def expand_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The inverse of :func:`compact_state` (the result still goes through ``records.state_from_json``)."""
    out = dict(state)

    def cards(v: Any) -> Any:
        return [C.card_text(c) for c in _codes(v)] if isinstance(v, str) else v

    for key in _STATE_CARD_LISTS:
        out[key] = cards(out.get(key))
    for key in _STATE_CARD_LIST_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [cards(h) for h in out[key]]
    return out


def encode_hash(payload: Mapping[str, Any]) -> str:
    """``table=`` + base64url (no padding) of the compact JSON ``payload``."""
    raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return HASH_PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_hash(text: str) -> dict[str, Any]:
    """The JSON object in a ``#table=…`` hash; ``ValueError`` if it is not one."""
    t = text.strip()
    if t.startswith("#"):
        t = t[1:]
    if not t.startswith(HASH_PREFIX):
        raise ValueError("not a table hash")
    body = t[len(HASH_PREFIX):]
    if len(body) > MAX_HASH or not re.fullmatch(r"[A-Za-z0-9_-]*", body):
        raise ValueError("the hash is not base64url")
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        # Bounded: a link nested thousands deep must not reach the recursive parser.
        data = boundedjson.loads(raw, max_chars=MAX_HASH)
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"the hash does not hold JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("the hash does not hold an object")
    return data
