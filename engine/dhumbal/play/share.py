"""The shareable link: a game as a short ``#table=`` hash.

A session is reproduced exactly from (profile, seed, difficulty, every action
of every deal and, for a position, its start state): this module writes that
and reads it back, refusing anything that is not one with a ``ValueError``.
It decides nothing about the rules; :mod:`dhumbal.table.session` applies what it
reads through the engine's checked path.

**Version 3** (written now): ``table=3.``, a check value, ``.`` and base64url
(no padding) of the raw-deflated compact JSON ``{"v": 3, "p": profile, "s":
seed, "d": level, "n": deals, "a": [actions of each deal], …}``. The check
value (:func:`link_check`, 48 bits of SHA-256 of the data) makes a link
damaged in transit fail instead of restoring another game, and a version-3
link without it is refused. **Version 2** (still read) is the same data
behind ``table=2.``, with the check value or, written before it, without:
a version-2 link stripped of its check cannot be told from one of those,
which is why the check came with a version of its own. Every action of a deal, the
bots' as well as the reader's, is one symbol of the base64url alphabet
(:func:`action_code`), read against the deal as it stands: a take from the
stock or the pile, a call, a single card thrown (its place in the hand,
heaviest first), or a group (a count, then the places two by two, in throw order,
since the order decides the pile). So a link restores by applying each
action once, checked by the engine, and never asks a bot to decide again: a
60-deal six-player game with expert bots restores in a fraction of a second
where replaying the bots' searches took over twenty.

**Version 1** (still read): ``table=`` and base64url of the JSON
``{"v": 1, …, "m": [the reader's moves of each deal]}``, which restores by
replaying the bots; :mod:`dhumbal.table.session` bounds that work and refuses a
link that would cost more.

Both are bounded before anything is parsed: the hash's length, the inflated
JSON's length (so a small link cannot inflate into a large one), its depth,
and, in :mod:`dhumbal.core.boundedjson`, numbers that are not finite or have more
digits than any field needs.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from collections.abc import Iterator, Mapping
from typing import Any, Final

from ..core import boundedjson
from ..core import cards as C
from .action import Action
from .deal import Deal

HASH_VERSION: Final = 3
HASH_PREFIX: Final = "table="
#: What follows ``table=`` in a version-3 link (check value required) and a version-2
#: link (check value or not), before the check value or the data.
V3_MARK: Final = "3."
V2_MARK: Final = "2."
MAX_HASH: Final = 16_000  # characters of a URL hash
#: The check value's length, in base64url characters (6 bytes of SHA-256), and its end.
CHECK_CHARS: Final = 8
CHECK_END: Final = "."
#: The longest ``table=…`` text the engine reads (the page sends no more of a longer one).
MAX_LINK: Final = len(HASH_PREFIX) + len(V3_MARK) + CHECK_CHARS + len(CHECK_END) + MAX_HASH
#: The longest JSON text a version-2 or 3 link may inflate into.
MAX_LINK_JSON: Final = 120_000

# -- one action as one symbol (versions 2 and 3) ---------------------------------------

ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_VALUE: Final = {ch: i for i, ch in enumerate(ALPHABET)}
_CALL_CODE: Final = 0
_STOCK_CODE: Final = 1
_PILE_CODE: Final = 2  # take from the pile, naming no card
_PILE_CARD: Final = 3  # .. 10: take the offer's card at 0..7
_SINGLE: Final = 11  # .. 26: throw the card at 0..15 of the hand, heaviest first
_GROUP: Final = 27  # .. 33: throw a group of 2..8 cards, places follow two to a symbol
_MAX_GROUP: Final = 8
ACTIONS_CHARS: Final = frozenset(ALPHABET)


def _hand(deal: Deal) -> list[C.Card]:
    """The seat on turn's hand in the order throws are written: heaviest first (by the
    profile's values), then by card. Bots and readers mostly throw their heaviest
    cards, so the first places come up most and the link compresses well (a 60-deal
    game with six seats: about 4,000 characters, against 6,300 for pack order)."""
    values = deal.profile.values
    return sorted(deal.hands[deal.turn], key=lambda c: (-values[c], c))


def action_code(deal: Deal, action: Action) -> str:
    """``action`` for the seat on turn of ``deal`` (before it is applied), as link symbols."""
    if action.kind == "call":
        return ALPHABET[_CALL_CODE]
    if action.kind == "take":
        if action.source == "stock":
            return ALPHABET[_STOCK_CODE]
        if not action.cards:
            return ALPHABET[_PILE_CODE]
        offer = deal.offer_cards
        index = offer.index(action.cards[0]) if action.cards[0] in offer else -1
        if not 0 <= index < _SINGLE - _PILE_CARD:
            raise ValueError(f"no code for taking {C.card_text(action.cards[0])} from the pile")
        return ALPHABET[_PILE_CARD + index]
    hand = _hand(deal)
    try:
        places = [hand.index(c) for c in action.cards]
    except ValueError:
        raise ValueError("a throw of cards not in the hand has no code") from None
    if len(places) == 1 and places[0] < _GROUP - _SINGLE:
        return ALPHABET[_SINGLE + places[0]]
    if not 2 <= len(places) <= _MAX_GROUP or max(places) >= 8:
        raise ValueError(f"no code for a throw of {len(places)} cards")
    pairs = places + [0] * (len(places) % 2)
    return ALPHABET[_GROUP + len(places) - 2] + "".join(
        ALPHABET[pairs[i] * 8 + pairs[i + 1]] for i in range(0, len(pairs), 2)
    )


def read_action(deal: Deal, codes: str, at: int) -> tuple[Action, int]:
    """The action whose symbols start at ``codes[at]``, for the seat on turn of ``deal``,
    and where the next one starts; ``ValueError`` for symbols that name no action there.
    The action still goes through the engine's checks when it is applied."""
    value = _VALUE.get(codes[at], -1) if at < len(codes) else -1
    if value < 0:
        raise ValueError(f"no action at symbol {at}")
    if value == _CALL_CODE:
        return Action.call(), at + 1
    if value == _STOCK_CODE:
        return Action.take_stock(), at + 1
    if value == _PILE_CODE:
        return Action.take_pile(), at + 1
    hand = _hand(deal)
    if value < _SINGLE:
        offer = deal.offer_cards
        index = value - _PILE_CARD
        if index >= len(offer):
            raise ValueError(f"symbol {at} takes a card the pile does not offer")
        return Action.take_pile(offer[index]), at + 1
    if value < _GROUP:
        place = value - _SINGLE
        if place >= len(hand):
            raise ValueError(f"symbol {at} throws a card the hand does not hold")
        return Action.throw(hand[place]), at + 1
    count = value - _GROUP + 2
    if count > _MAX_GROUP:
        raise ValueError(f"symbol {at} is no action")
    width = (count + 1) // 2
    if at + 1 + width > len(codes):
        raise ValueError(f"the group at symbol {at} is cut short")
    places: list[int] = []
    for ch in codes[at + 1: at + 1 + width]:
        v = _VALUE.get(ch, -1)
        if v < 0:
            raise ValueError(f"the group at symbol {at} is not symbols")
        places += [v // 8, v % 8]
    if count % 2 and places[-1] != 0:
        raise ValueError(f"the group at symbol {at} is not written as the engine writes it")
    places = places[:count]
    if len(set(places)) != count or max(places) >= len(hand):
        raise ValueError(f"the group at symbol {at} names cards the hand does not hold")
    return Action.throw(*(hand[i] for i in places)), at + 1 + width


def read_actions(deal: Deal, codes: str) -> Iterator[Action]:
    """Each action of ``codes`` in turn, read against ``deal`` as it stands when it is asked
    for: apply each one before asking for the next."""
    at = 0
    while at < len(codes):
        action, at = read_action(deal, codes, at)
        yield action


# -- the reader's moves as text (version 1) ---------------------------------------------

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


def link_check(body: str) -> str:
    """The check value of a link's data (its base64url text): 6 bytes of its
    SHA-256, as base64url. Any change to the data, the check or the dot between them
    fails it, but for one change in about 2**48."""
    digest = hashlib.sha256(body.encode("ascii", "replace")).digest()[:6]
    return base64.urlsafe_b64encode(digest).decode("ascii")


def encode_hash(payload: Mapping[str, Any]) -> str:
    """The link of ``payload``: version 3 (``payload["v"] == 3``) deflated behind ``table=3.``
    and its check value; version 1 as ``table=`` and base64url (no padding) of the compact JSON
    (version 2 is read, never written)."""
    raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if payload.get("v") == HASH_VERSION:
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        raw = packer.compress(raw) + packer.flush()
        body = base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")
        return HASH_PREFIX + V3_MARK + link_check(body) + CHECK_END + body
    if payload.get("v") != 1:
        raise ValueError(f"links are written in version 1 or {HASH_VERSION}, not {payload.get('v')!r}")
    return HASH_PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _base64(body: str) -> bytes:
    if len(body) > MAX_HASH or not re.fullmatch(r"[A-Za-z0-9_-]*", body) or len(body) % 4 == 1:
        raise ValueError("the hash is not base64url")
    try:
        return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ValueError(f"the hash is not base64url: {exc}") from None


def decode_hash(text: str) -> dict[str, Any]:
    """The JSON object in a ``#table=…`` hash (any version); ``ValueError`` if it is not one.

    A link with a check value is refused unless its data match it, before
    anything is inflated, and a version-3 link without one is refused. A
    version-2 or 3 link is inflated at most to :data:`MAX_LINK_JSON` bytes,
    so a short link that would inflate into a long text is refused, not
    inflated.
    """
    if not isinstance(text, str):
        raise ValueError("a hash is text")
    t = text.strip()
    if t.startswith("#"):
        t = t[1:]
    if not t.startswith(HASH_PREFIX):
        raise ValueError("not a table hash")
    body = t[len(HASH_PREFIX):]
    if len(t) > MAX_LINK:
        raise ValueError("the hash is longer than any link the engine writes")
    version = 1
    if body.startswith((V3_MARK, V2_MARK)):
        version, body = (3 if body.startswith(V3_MARK) else 2), body[len(V3_MARK):]
        if CHECK_END in body:
            # A link written with its check value (a version-2 one written before it has no dot).
            check, _, body = body.partition(CHECK_END)
            if len(check) != CHECK_CHARS or check != link_check(body):
                raise ValueError("the link does not match its check value: it was changed or cut short")
        elif version == 3:
            raise ValueError("the link has lost its check value: it was changed or cut short")
    raw = _base64(body)
    if version > 1:
        unpacker = zlib.decompressobj(-15)
        try:
            raw = unpacker.decompress(raw, MAX_LINK_JSON + 1)
        except zlib.error as exc:
            raise ValueError(f"the hash is not deflated data: {exc}") from None
        if len(raw) > MAX_LINK_JSON or unpacker.unconsumed_tail or not unpacker.eof or unpacker.unused_data:
            raise ValueError("the hash inflates into more than a link holds, or is cut short")
    try:
        # Bounded: a link nested thousands deep must not reach the recursive parser.
        data = boundedjson.loads(raw, max_chars=MAX_LINK_JSON if version > 1 else MAX_HASH)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"the hash does not hold JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("the hash does not hold an object")
    if data.get("v") != version:
        raise ValueError(f"the hash says version {data.get('v')!r} in a version-{version} link")
    return data
