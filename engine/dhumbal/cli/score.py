"""``python -m dhumbal score``: one deal played with real cards, settled exactly as the engine settles its own."""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from ..core import cards as C
from ..core.i18n import available_languages, number
from ..matches.match import money_text
from .common import UsageError, add_rules, profile_from_args, whole


def add(sub: Any) -> None:
    sp = sub.add_parser("score", help="settle a deal played with real cards, from who dealt, who called and each hand",
                        description="Settle one deal played with real cards, exactly as the engine settles a deal it "
                                    "plays. Seats are numbered from 0, clockwise as the players sit.")
    add_rules(sp)
    sp.add_argument("--players", type=whole, required=True)
    sp.add_argument("--dealer", type=whole, required=True, help="the dealer's seat")
    sp.add_argument("--caller", type=_caller, required=True, metavar="SEAT|none",
                    help="the seat that called, or none (nobody called: the turn cap ended the deal)")
    sp.add_argument("--hands", required=True, metavar="N,N,…",
                    help="each seat's hand total at the show, in seat order (e.g. 4,12,19,7), or its cards ('A♠ 3♠,2♥ 2♦')")
    sp.add_argument("--scores", type=_scores, metavar="N,N,…",
                    help="each seat's running score before the deal (all 0 when left out)")
    sp.add_argument("--lang", choices=available_languages(), default="en", help="the language of the sentences saying why")
    sp.add_argument("--json", action="store_true",
                    help="print an object: caught, winner, hands, took, paid, points, money (dashain), "
                         "scores (after the deal), eliminated, said and why")
    sp.set_defaults(func=run)


def _hands(text: str) -> list[int | list[int]]:
    """``--hands 4,12,19,7``: each seat's hand total, or its cards (``"A♠ 3♠,2♥ 2♦"``)."""
    items = [p.strip() for p in text.split(",")]
    hands: list[int | list[int]] = []
    for seat, item in enumerate(items):
        if not item:
            raise UsageError(f"--hands: seat {seat} has no hand total (give a whole number or the cards)")
        if item.lstrip("-+").isdigit():
            if len(item) > 7:
                raise UsageError(f"--hands: seat {seat}: {item[:12]!r} is no hand total")
            hands.append(int(item))
            continue
        try:
            hands.append(C.parse_cards(item.split()))
        except C.CardError as exc:
            raise UsageError(f"--hands: seat {seat}: {item[:20]!r} is neither a whole number nor cards ({exc})") from None
    return hands


def _scores(text: str) -> list[int]:
    """``--scores 10,20,30``: each seat's running score before the deal."""
    try:
        return [int(p) for p in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a list of whole numbers such as 10,20,30") from None


def _caller(text: str) -> int | None:
    """``--caller 2`` or ``--caller none`` (nobody called: the turn cap ended the deal)."""
    if text.strip().lower() in ("none", "nobody"):
        return None
    return whole(text)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO | None) -> int:
    """Settle a deal played with real cards (:func:`dhumbal.matches.tally.settle_deal`)."""
    from ..matches.tally import TallyError, settle_deal

    profile = profile_from_args(args)
    hands = _hands(args.hands)
    if len(hands) != profile.players:
        raise UsageError(f"--hands: {len(hands)} hands for {profile.players} players (--players): "
                         f"give exactly one total for each seat, 0 to {profile.players - 1}")
    if args.scores is not None and len(args.scores) != profile.players:
        raise UsageError(f"--scores: {len(args.scores)} running scores for {profile.players} players: give one for each seat")
    names = [f"Seat {i}" for i in range(profile.players)]
    try:
        tally = settle_deal(profile, args.dealer, args.caller, hands, args.scores)
    except TallyError as exc:
        raise UsageError(exc.text("en", names)) from None
    lang = args.lang
    said = [m.text(lang, names) for m in tally.messages()]
    why = [text for _, text in tally.reasons(lang, names)]
    if args.json:
        data = tally.to_json()
        if profile.money_per_point is not None:
            data["scores_money"] = [money_text(v, profile.money_per_point) for v in tally.after]
        data["said"] = said
        data["why"] = why
        out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return 0
    o = tally.to_json()
    columns: list[tuple[str, list[str]]] = [("hand", [number(v, lang) for v in o["hands"]])]
    signed = profile.settlement != "cumulative"
    if profile.settlement == "collect":
        columns.append(("took", [number(v, lang) for v in o["took"]]))
        columns.append(("paid", [number(v, lang, signed=True) for v in o["paid"]]))
    elif profile.settlement == "pay-caller":
        columns.append(("paid", [number(v, lang, signed=True) for v in o["paid"]]))
        columns.append(("money", [number(v, lang, signed=not v.startswith("-")) for v in o["money"]]))
    else:
        columns.append(("points", [number(v, lang) for v in o["points"]]))
    columns.append(("total", [number(v, lang, signed=signed) for v in tally.after]))
    if profile.elimination is not None:
        columns.append(("out", ["out" if s in tally.eliminated else "" for s in range(profile.players)]))
    caller = "nobody called" if args.caller is None else f"seat {args.caller} called"
    out.write(f"profile  {profile.canonical()}\n")
    out.write(f"deal     seat {args.dealer} dealt; {caller}\n\n")
    widths = [max(len(head), *(len(v) for v in values)) for head, values in columns]
    out.write("seat" + "".join(f"  {head:>{w}}" for (head, _), w in zip(columns, widths)).rstrip() + "\n")
    for s in range(profile.players):
        out.write(f"{s:<4}" + "".join(f"  {values[s]:>{w}}" for (_, values), w in zip(columns, widths)).rstrip() + "\n")
    out.write("\n")
    for line in said:
        out.write(line + "\n")
    for s, line in enumerate(why):
        out.write(f"{names[s]}: {line}\n")
    return 0
