"""``python -m dhumbal odds``: the chance that a call is caught, from a hand and the others' card counts."""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from ..core import cards as C
from ..core.profiles import parse_profile
from .common import UsageError, add_rules, counts, profile_from_args, samples, whole


def add(sub: Any) -> None:
    sp = sub.add_parser("odds", help="the chance that a call is caught, from a hand and the others' card counts")
    add_rules(sp)
    sp.add_argument("--hand", required=True, help="the caller's cards, e.g. 'A♠ 2♥' or 'AS 2H' (\"\" for an empty hand)")
    sp.add_argument("--counts", type=counts, required=True, metavar="N,N,…", help="each other player's card count, e.g. 3,3,4")
    sp.add_argument("--seen", help="other cards known to be out of their hands (the pile, say)")
    sp.add_argument("--samples", type=samples, default=20_000, help="sampled deals (default 20000)")
    sp.add_argument("--seed", type=whole, default=0)
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO | None) -> int:
    """The chance that a call on ``--hand`` is caught when the others hold ``--counts`` cards."""
    from ..bots.odds import caught_chance

    try:
        hand = C.parse_cards(args.hand)
    except C.CardError as exc:
        raise UsageError(f"--hand: {exc}") from None
    try:
        seen = C.parse_cards(args.seen) if args.seen else []
    except C.CardError as exc:
        raise UsageError(f"--seen: {exc}") from None
    counts = args.counts
    players = len(counts) + 1
    # Name the counts, not the option they imply, when they make a table the
    # profile does not play (five counts are six players).
    base = parse_profile(args.profile)
    low, high = base.spec("players").low, base.spec("players").high
    if not low <= players <= high:
        raise UsageError(f"--counts: {len(counts)} counts make a table of {players} players (you and {len(counts)} others); "
                         f"{base.key} is played by {low} to {high}, so give {low - 1} to {high - 1} counts")
    args.players = players
    profile = profile_from_args(args)
    if len(hand) > profile.hand_size:
        raise UsageError(f"--hand: {len(hand)} cards, but a player of {profile.canonical()} holds at most {profile.hand_size}")
    if max(counts) > profile.hand_size:
        raise UsageError(f"--counts: {max(counts)} cards, but a player of {profile.canonical()} holds at most {profile.hand_size}")
    try:
        r = caught_chance(profile, hand, counts, seen=seen, samples=args.samples, seed=args.seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    limit = profile.call_limit
    allowed = limit is None or r.total <= limit
    if args.json:
        out.write(json.dumps({**r.to_json(), "profile": profile.canonical(), "hand": [C.card_text(c) for c in hand],
                              "seen": [C.card_text(c) for c in seen], "call_allowed": allowed}, ensure_ascii=False) + "\n")
        return 0
    out.write(f"profile   {profile.canonical()}\n")
    out.write(f"hand      {C.cards_text(hand) or '(empty)'} (total {r.total}"
              + ("" if allowed else f"; over the call limit of {limit}") + ")\n")
    out.write(f"others    {', '.join(str(k) for k in counts)} cards\n")
    out.write(f"caught    {r.caught:.1%} of {r.samples} sampled deals\n")
    what = "points scored" if r.measure == "points" else "settlement"
    out.write(f"calling   {r.call_value:+.2f} {what} on average\n")
    return 0
