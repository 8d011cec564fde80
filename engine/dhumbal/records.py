"""A deal as JSON: the whole state, and the transcript that replays it.

The rules live in :mod:`dhumbal.deal`; this module only writes a ``Deal`` out
and reads one back, refusing anything malformed with a ``PositionError`` that
names the field. ``Deal.to_json``, ``Deal.from_json`` and ``Deal.transcript``
delegate here.
"""

from __future__ import annotations

import re
from typing import Any, Final

from . import cards as C
from .cards import Card
from .deal import Action, Deal, IllegalAction, Outcome, PositionError, parse_action
from .profiles import parse_profile

STATE_FORMAT: Final = 1


def state_to_json(deal: Deal) -> dict[str, Any]:
    """The whole state of ``deal``; :func:`state_from_json` gives an equal deal back."""
    t = C.card_text
    return {
        "format": STATE_FORMAT,
        "profile": deal.profile.canonical(),
        "seed": deal.seed,
        "dealer": deal.dealer,
        "turn": deal.turn,
        "phase": deal.phase,
        "hands": [[t(c) for c in h] for h in deal.hands],
        "stock": [t(c) for c in deal.stock],
        "pile": [t(c) for c in deal.pile],
        "offer": deal.offer,
        "offer_kind": deal.offer_kind,
        "pending": [t(c) for c in deal.pending],
        "turns": deal.turns,
        "reshuffles": deal.reshuffles,
        "took_from_pile": None if deal.took_from_pile is None else t(deal.took_from_pile),
        "known": [[t(c) for c in k] for k in deal.known],
        "history": [[s, a.text()] for s, a in deal.history],
        "outcome": deal.outcome.to_json() if deal.outcome else None,
    }

def state_from_json(data: Any) -> Deal:
    """Load a state written by ``to_json``; anything malformed raises ``PositionError`` naming the field."""
    if not isinstance(data, dict):
        raise PositionError("a deal state must be a JSON object")
    if data.get("format") != STATE_FORMAT:
        raise PositionError(f"unknown state format {data.get('format')!r}; expected {STATE_FORMAT}")

    def need(key: str, kind: type | tuple[type, ...]) -> Any:
        if key not in data:
            raise PositionError(f"state field {key!r} is missing")
        v = data[key]
        if not isinstance(v, kind) or isinstance(v, bool) and kind is int:
            raise PositionError(f"state field {key!r} has the wrong type")
        return v

    def cards(key: str, v: Any) -> list[Card]:
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise PositionError(f"state field {key!r} must be a list of card texts")
        try:
            return [C.parse_card(x) for x in v]
        except C.CardError as exc:
            raise PositionError(f"state field {key!r}: {exc}") from None

    try:
        profile = parse_profile(need("profile", str))
    except ValueError as exc:
        raise PositionError(f"state field 'profile': {exc}") from None
    hands_raw = need("hands", list)
    hands = [cards(f"hands[{i}]", h) for i, h in enumerate(hands_raw)]
    n = len(hands)
    known_raw = need("known", list)
    if len(known_raw) != n:
        raise PositionError("state field 'known' must have one list per seat")
    phase = need("phase", str)
    if phase not in ("start", "throw", "take", "over"):
        raise PositionError(f"state field 'phase' is {phase!r}")
    offer_kind = need("offer_kind", str)
    if offer_kind not in ("single", "set", "run"):
        raise PositionError(f"state field 'offer_kind' is {offer_kind!r}")
    seed = data.get("seed", 0)
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise PositionError("state field 'seed' must be a number or text")
    tfp = data.get("took_from_pile")
    history_raw = need("history", list)
    history: list[tuple[int, Action]] = []
    for item in history_raw:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and isinstance(item[1], str)):
            raise PositionError("state field 'history' must hold [seat, action] pairs")
        try:
            history.append((item[0], parse_action(item[1])))
        except IllegalAction:
            raise PositionError(f"state field 'history' holds an unreadable action {item[1]!r}") from None
    outcome_raw = data.get("outcome")
    try:
        outcome = Outcome.from_json(outcome_raw) if outcome_raw is not None else None
    except (KeyError, TypeError, ValueError):
        raise PositionError("state field 'outcome' is malformed") from None
    deal = Deal(
        profile=profile,
        seed=seed,
        dealer=need("dealer", int),
        hands=hands,
        stock=cards("stock", data.get("stock")),
        pile=cards("pile", data.get("pile")),
        offer=need("offer", int),
        offer_kind=offer_kind,
        pending=cards("pending", data.get("pending", [])),
        turn=need("turn", int),
        phase=phase,
        turns=need("turns", int),
        reshuffles=need("reshuffles", int),
        took_from_pile=None if tfp is None else cards("took_from_pile", [tfp])[0],
        known=[cards(f"known[{i}]", k) for i, k in enumerate(known_raw)],
        history=history,
        outcome=outcome,
    )
    check_integrity(deal)
    return deal

def check_integrity(deal: Deal) -> None:
    """Refuse a state whose parts cannot belong together (``PositionError``)."""
    n = deal.players
    if not deal.profile.players_min <= n <= deal.profile.players_max:
        raise PositionError(f"{n} seats is not allowed for {deal.profile.key}")
    for name, v in (("dealer", deal.dealer), ("turn", deal.turn)):
        if not 0 <= v < n:
            raise PositionError(f"state field {name!r} is not a seat")
    every = [c for h in deal.hands for c in h] + deal.stock + deal.pile + deal.pending
    seen: set[Card] = set()
    for c in every:
        if c in seen:
            raise PositionError(f"{C.card_text(c)} appears twice in the state")
        seen.add(c)
    if len(every) != deal.profile.deck_size or any(c >= deal.profile.deck_size for c in every):
        raise PositionError(f"the state holds {len(every)} cards, not the {deal.profile.deck_size} of the pack")
    if not 0 <= deal.offer <= len(deal.pile):
        raise PositionError("state field 'offer' is out of range")
    if (deal.phase == "over") != (deal.outcome is not None):
        raise PositionError("state fields 'phase' and 'outcome' disagree")

def transcript(deal: Deal) -> dict[str, Any]:
    """The deal as (profile, seed, dealer, players, actions): ``replay`` rebuilds it exactly."""
    return {
        "format": STATE_FORMAT,
        "profile": deal.profile.canonical(),
        "seed": deal.seed,
        "dealer": deal.dealer,
        "players": deal.players,
        "actions": [f"{s}: {a.text()}" for s, a in deal.history],
        "outcome": deal.outcome.to_json() if deal.outcome else None,
    }


_SEAT_ACTION = re.compile(r"^\s*(\d+)\s*:\s*(.+)$")


def replay(transcript: dict[str, Any]) -> Deal:
    """Rebuild a deal from ``Deal.transcript()``; every action is checked again."""
    profile = parse_profile(str(transcript["profile"]))
    deal = Deal.new(profile, transcript["seed"], dealer=int(transcript["dealer"]), players=int(transcript["players"]))
    for line in transcript["actions"]:
        m = _SEAT_ACTION.match(str(line))
        if not m:
            raise IllegalAction("bad-action", text=str(line))
        deal.apply(m.group(2), seat=int(m.group(1)))
    return deal
