"""A deal from outside and back: an explicit position, the whole state as JSON, and the transcript that replays it.

The rules live in :mod:`dhumbal.play.deal`; this module writes a ``Deal`` out
(:func:`state_to_json`, :func:`transcript`) and builds one from what comes
from outside (:func:`from_position`, :func:`state_from_json`,
:func:`replay`), refusing anything malformed, and any state no real deal can
reach (:func:`check_integrity`), with a ``PositionError`` that names the
field.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final, Literal

from ..core import cards as C
from ..core.cards import Card
from ..core.profiles import Profile, ProfileError, parse_profile
from .action import Action, parse_action
from .deal import Deal, IllegalAction, PositionError
from .groups import classify_group, group_kind
from .scoring import Outcome, settle

STATE_FORMAT: Final = 1
#: The longest text a state's seed may be (an example's name; numbers are seeds too).
MAX_SEED_TEXT: Final = 200


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
    """Load a state written by :func:`state_to_json`; anything malformed raises ``PositionError`` naming the field."""
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
    if not profile.players_min <= len(hands_raw) <= profile.players_max:
        raise PositionError(f"state field 'hands': {len(hands_raw)} seats is not allowed for {profile.key}")
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
    # The seed decides the deal's reshuffles and the deals after it: a state without
    # one is not one state_to_json wrote, and is refused rather than given seed 0.
    if "seed" not in data:
        raise PositionError("state field 'seed' is missing")
    seed = data["seed"]
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise PositionError("state field 'seed' must be a number or text")
    if isinstance(seed, str) and (len(seed) > MAX_SEED_TEXT or not seed.isprintable()) or isinstance(seed, int) and not 0 <= seed < 2**63:
        raise PositionError("state field 'seed' is out of range")
    tfp = data.get("took_from_pile")
    history_raw = need("history", list)
    history: list[tuple[int, Action]] = []
    for item in history_raw:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)
                and not isinstance(item[0], bool) and isinstance(item[1], str)):
            raise PositionError("state field 'history' must hold [seat, action] pairs")
        try:
            history.append((item[0], parse_action(item[1])))
        except IllegalAction:
            raise PositionError(f"state field 'history' holds an unreadable action {item[1]!r}") from None
    outcome_raw = data.get("outcome")
    outcome = _read_outcome(outcome_raw, n) if outcome_raw is not None else None
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


#: The largest number an outcome may hold, either sign: far beyond any real
#: settlement (a hand is at most a few hundred points, a penalty at most 200).
MAX_OUTCOME_NUMBER: Final = 1_000_000


def _read_outcome(raw: Any, players: int) -> Outcome:
    """A state's ``outcome`` object, every field checked by type and range before it is
    built (a non-finite or unbounded number, a missing or extra field: ``PositionError``).
    Whether it is the outcome of the hands shown is :func:`check_integrity`'s question."""
    fields = {"reason", "caller", "caught", "winner", "hands", "took", "paid", "points", "penalty"}
    if not isinstance(raw, dict) or set(raw) - fields or not fields - {"penalty"} <= set(raw):
        raise PositionError("state field 'outcome' is malformed")

    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and -MAX_OUTCOME_NUMBER <= v <= MAX_OUTCOME_NUMBER

    def seat(v: Any) -> bool:
        return v is None or (whole(v) and 0 <= v < players)

    if raw["reason"] not in ("call", "cap") or not isinstance(raw["caught"], bool):
        raise PositionError("state field 'outcome' is malformed")
    for key in ("caller", "winner"):
        if not seat(raw[key]):
            raise PositionError(f"state field 'outcome.{key}' names no seat of {players}")
    if not whole(raw.get("penalty", 0)):
        raise PositionError("state field 'outcome.penalty' must be a whole number in range")
    for key in ("hands", "took", "paid", "points"):
        v = raw[key]
        if not isinstance(v, list) or len(v) != players or not all(whole(x) for x in v):
            raise PositionError(f"state field 'outcome.{key}' must hold one whole number per seat")
    return Outcome.from_json(raw)


def from_position(
    profile: Profile,
    *,
    hands: Sequence[Sequence[Card]],
    pile: Sequence[Card],
    stock: Sequence[Card] | None = None,
    stock_top: Sequence[Card] = (),
    out_of_play: Sequence[Card] = (),
    dealer: int = 0,
    turn: int | None = None,
    offer: int | None = None,
    turns: int = 0,
    seed: int | str = 0,
    rest: Literal["stock", "pile"] = "stock",
) -> Deal:
    """An explicit position at the start of a turn. ``stock`` lists the whole
    stock from the top; or give ``stock_top`` (from the top) and the rest of
    the pack follows in pack order (or, with ``rest="pile"``, lies face up
    under the pile). ``out_of_play`` cards lie under the pile (dashain).

    The position must be one a real deal can reach (see
    :func:`check_integrity`), else ``PositionError``."""
    n = len(hands)
    if not profile.players_min <= n <= profile.players_max:
        raise PositionError(f"{profile.key} is for {profile.players_min}–{profile.players_max} players, not {n}")
    if not 0 <= dealer < n:
        raise PositionError(f"dealer {dealer} is not a seat of {n}")
    placed: list[Card] = [c for h in hands for c in h] + list(pile) + list(out_of_play)
    if stock is not None:
        placed += list(stock)
    else:
        placed += list(stock_top)
    seen: set[Card] = set()
    for c in placed:
        if not 0 <= c < profile.deck_size:
            raise PositionError(f"{C.card_text(c)} is not in a {profile.deck_size}-card pack for {profile.key}")
        if c in seen:
            raise PositionError(f"{C.card_text(c)} appears twice in the position")
        seen.add(c)
    under: list[Card] = []
    if stock is None:
        filler = [c for c in C.full_deck(jokers=profile.jokers) if c not in seen]
        if rest == "pile":
            under = filler
            top_first = list(stock_top)
        else:
            top_first = list(stock_top) + filler
    else:
        top_first = list(stock)
        if len(seen) != profile.deck_size:
            missing = [C.card_text(c) for c in C.full_deck(jokers=profile.jokers) if c not in seen]
            raise PositionError(
                f"the position holds {len(seen)} cards, not {profile.deck_size}: missing {' '.join(missing)}"
            )
    if not pile:
        raise PositionError("the pile needs at least one face-up card")
    if offer is not None and not 1 <= offer <= len(pile):
        raise PositionError(f"the offer of {offer} cards is more than the {len(pile)} face-up cards given")
    t = (dealer + 1) % n if turn is None else turn
    if not 0 <= t < n:
        raise PositionError(f"turn {t} is not a seat of {n}")
    full_pile = under + list(out_of_play) + list(pile)
    k = len(pile) if (offer is None and profile.take_rule == "offer-any-or-run-end") else (offer or 1)
    kind = classify_group(profile, full_pile[-k:]) if k > 1 else "single"
    deal = Deal(
        profile=profile, seed=seed, dealer=dealer, hands=[list(h) for h in hands],
        stock=list(reversed(top_first)), pile=full_pile, offer=k, offer_kind=kind, turn=t,
        turns=turns, known=[[] for _ in range(n)],
    )
    check_integrity(deal)
    return deal


# A bound on the turn count where a profile has no turn cap: far beyond any deal the
# bots play (they close a deal after a few hundred turns), far below anything costly.
MAX_TURNS: Final = 1_000_000


def check_integrity(deal: Deal) -> None:
    """Refuse a state that no real deal can reach (``PositionError`` naming the field).

    Checked: seats; every card of the pack exactly once; the turn count within
    the cap; the phase against the pending throw, the card taken from the pile,
    the cards known to have been picked and the outcome; each hand's size
    against what the profile's turn allows in that phase; the previous throw
    on offer; and that the seat to play has a legal action. Hands are bounded
    by the hand size, so nothing that reads a valid state (the bots above
    all) ever meets a hand of more than a few cards.
    """
    p = deal.profile
    n = deal.players
    if not p.players_min <= n <= p.players_max:
        raise PositionError(f"{n} seats is not allowed for {p.key}")
    for name, v in (("dealer", deal.dealer), ("turn", deal.turn)):
        if not 0 <= v < n:
            raise PositionError(f"state field {name!r} is not a seat")
    _check_cards(deal)
    _check_counts(deal)
    _check_phase(deal)
    _check_hand_sizes(deal)
    _check_offer(deal)
    _check_outcome(deal)
    if not deal.is_over and not deal.legal_actions():
        raise PositionError(
            f"state fields 'phase' and 'hands': seat {deal.turn} is to play in phase {deal.phase!r} but has no legal action"
        )


def _check_cards(deal: Deal) -> None:
    p = deal.profile
    every = [c for h in deal.hands for c in h] + deal.stock + deal.pile + deal.pending
    seen: set[Card] = set()
    for c in every:
        if c in seen:
            raise PositionError(f"{C.card_text(c)} appears twice in the state")
        seen.add(c)
    if len(every) != p.deck_size or any(c >= p.deck_size for c in every):
        raise PositionError(f"the state holds {len(every)} cards, not the {p.deck_size} of the pack")
    if len(deal.known) != deal.players:
        raise PositionError("state field 'known' must have one list per seat")
    for s, known in enumerate(deal.known):
        if len(set(known)) != len(known) or not set(known) <= set(deal.hands[s]):
            raise PositionError(f"state field 'known[{s}]' names a card that seat {s} does not hold")


def _check_counts(deal: Deal) -> None:
    p = deal.profile
    turns = deal.turns
    if turns < 0:
        raise PositionError("state field 'turns' is negative")
    cap = p.turn_cap
    if cap is not None:
        if turns > cap:
            raise PositionError(f"state field 'turns' is {turns}, past the cap of {cap} turns of {p.key}")
        capped = deal.outcome is not None and deal.outcome.reason == "cap"
        if turns == cap and not capped:
            raise PositionError(f"state field 'turns' is {turns}: a deal of {p.key} ends at {cap} turns")
    elif turns > MAX_TURNS:
        raise PositionError(f"state field 'turns' is {turns}, more than {MAX_TURNS}")
    # every reshuffle feeds one draw, and a turn holds one draw
    if not 0 <= deal.reshuffles <= turns + 1:
        raise PositionError(f"state field 'reshuffles' is {deal.reshuffles}; {turns} turns allow 0 to {turns + 1}")
    for seat, _ in deal.history:
        if not 0 <= seat < deal.players:
            raise PositionError(f"state field 'history' names seat {seat}, not a seat of {deal.players}")


def _check_phase(deal: Deal) -> None:
    p = deal.profile
    phase = deal.phase
    if (phase == "over") != (deal.outcome is not None):
        raise PositionError("state fields 'phase' and 'outcome' disagree")
    if p.draw_first:
        if deal.pending:
            raise PositionError(f"state field 'pending' must be empty: in {p.key} a throw lands at once")
        if phase == "take":
            raise PositionError(f"state field 'phase' is 'take', which {p.key} does not have (it takes, then throws)")
    else:
        if phase == "throw":
            raise PositionError(f"state field 'phase' is 'throw', which {p.key} does not have (it throws, then takes)")
        if (phase == "take") != bool(deal.pending):
            if phase == "take":
                raise PositionError("state fields 'phase' and 'pending' disagree: in phase 'take' the turn's throw is pending")
            raise PositionError(f"state fields 'phase' and 'pending' disagree: only in phase 'take' is a throw pending, not in {phase!r}")
        if deal.pending and group_kind(p, deal.pending) is None:
            raise PositionError(f"state field 'pending' is no throw under {p.key}: {C.cards_text(deal.pending)}")
    card = deal.took_from_pile
    if card is not None:
        if p.take_rule != "pile-top":
            raise PositionError(f"state field 'took_from_pile' must be null: {p.key} takes no card from a pile top")
        capped = deal.outcome is not None and deal.outcome.reason == "cap"
        if phase != "throw" and not capped:
            raise PositionError("state fields 'took_from_pile' and 'phase' disagree: a card taken this turn is known only until the throw")
        if card not in deal.hands[deal.turn] or card not in deal.known[deal.turn]:
            raise PositionError("state field 'took_from_pile' names a card the seat on turn did not pick up")


def _check_hand_sizes(deal: Deal) -> None:
    """The sizes a real deal can reach. A turn is call | take 1, throw 1+ (draw first),
    or call | throw 1+, take 1 (throw first), starting from ``hand_size`` cards."""
    p = deal.profile
    h = p.hand_size
    for s, hand in enumerate(deal.hands):
        size = len(hand)
        on_turn = s == deal.turn
        if p.draw_first:
            low, high, when = 0, h, "between turns"
            if on_turn and deal.phase == "throw":
                low, high, when = 1, h + 1, "after taking a card"
        else:
            low, high, when = 1, h, "between turns"
            if on_turn and deal.phase == "take":
                low, high, when = 0, h - len(deal.pending), "after throwing " + C.cards_text(deal.pending)
        if not low <= size <= high:
            raise PositionError(
                f"state field 'hands[{s}]' holds {size} cards: in a {h}-card deal of {p.key} a hand holds "
                f"{low} to {high} {when}"
            )


def _check_offer(deal: Deal) -> None:
    p = deal.profile
    offer = deal.offer
    if not 0 <= offer <= len(deal.pile) or (offer == 0) != (not deal.pile):
        raise PositionError("state field 'offer' is out of range")
    kind = deal.offer_kind
    if offer >= 2:
        if group_kind(p, deal.offer_cards) != kind:
            raise PositionError(f"state field 'offer_kind' is {kind!r}, but the top {offer} pile cards are no such throw")
    elif kind != "single" and not (offer == 1 and p.reshuffle_keep == "top" and deal.reshuffles > 0):
        # only a reshuffle that keeps the pile's top card leaves one card of a group on offer
        raise PositionError(f"state field 'offer_kind' is {kind!r} for an offer of {offer} card(s)")


def _check_outcome(deal: Deal) -> None:
    o = deal.outcome
    if o is None:
        return
    caller = o.caller
    if o.reason == "call":
        if not isinstance(caller, int) or isinstance(caller, bool) or not 0 <= caller < deal.players:
            raise PositionError("state field 'outcome' names no seat as the caller")
    elif o.reason != "cap" or caller is not None:
        raise PositionError("state field 'outcome' is malformed")
    if o != settle(deal.profile, deal.totals(), deal.dealer, caller):
        raise PositionError("state field 'outcome' does not match the hands shown")


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


_SEAT_ACTION = re.compile(r"^\s*(\d{1,2})\s*:\s*(.+)$")


def replay(transcript: Any) -> Deal:
    """Rebuild a deal from :func:`transcript`; every action is checked again.

    A malformed transcript raises ``PositionError`` naming the field; an
    action the rules refuse raises its ``IllegalAction`` (with a note naming
    the transcript line); an outcome that differs from the replayed one is a
    ``PositionError``.
    """
    if not isinstance(transcript, dict):
        raise PositionError("a transcript must be a JSON object")
    if transcript.get("format", STATE_FORMAT) != STATE_FORMAT:
        raise PositionError(f"unknown transcript format {transcript.get('format')!r}; expected {STATE_FORMAT}")

    def need(key: str, kind: type | tuple[type, ...]) -> Any:
        if key not in transcript:
            raise PositionError(f"transcript field {key!r} is missing")
        v = transcript[key]
        if not isinstance(v, kind) or isinstance(v, bool):
            raise PositionError(f"transcript field {key!r} has the wrong type")
        return v

    try:
        profile = parse_profile(need("profile", str))
    except ProfileError as exc:
        raise PositionError(f"transcript field 'profile': {exc}") from None
    seed = need("seed", (int, str))
    dealer = need("dealer", int)
    players = need("players", int)
    actions = need("actions", list)
    deal = Deal.new(profile, seed, dealer=dealer, players=players)
    for i, line in enumerate(actions, 1):
        if not isinstance(line, str):
            raise PositionError(f"transcript action {i} is not text")
        m = _SEAT_ACTION.match(line)
        if not m:
            unreadable = IllegalAction("bad-action", text=line.strip())
            unreadable.add_note(f"transcript action {i}: write 'SEAT: action', e.g. '0: take stock'")
            raise unreadable
        try:
            deal.apply(m.group(2), seat=int(m.group(1)))
        except IllegalAction as exc:
            exc.add_note(f"transcript action {i}: {line!r}")
            raise
    outcome = transcript.get("outcome")
    if outcome is not None and (deal.outcome is None or outcome != deal.outcome.to_json()):
        raise PositionError("transcript field 'outcome' does not match the replayed deal")
    return deal
