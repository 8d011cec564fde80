"""``python -m dhumbal score``: one deal played with real cards, settled exactly as the engine settles its own.

Any deal the score pad settles: ``--hands`` takes ``out`` for a player not in
the deal, out of the match (CardRulesPlus: ``--hands out,4,out,7``) or away
from the table (a player who left or joins later, in any profile), ``--scores``
takes negative running scores as written (``--scores -14,74,-60``: a zero-sum
match has them from its second deal; joined to the option by :func:`values_joined`,
not by argparse's private matcher), and ``--lang`` gives the seats, the table's
headings, the sentences and every error about the deal in that language.
"""

from __future__ import annotations

import argparse
import json
import re
from typing import Any, Final, TextIO

from ..core import cards as C
from ..core.i18n import N_, available_languages, number, translator
from ..core.messages import SEAT_DEFAULT
from ..core.profiles import ProfileError
from .common import UsageError, add_rules, profile_from_args, whole

#: What marks a seat out of the match in ``--hands``.
OUT: Final = "out"
#: A value beginning with a minus that is a number or a list of them (``-14,74,-60``, ``-5``),
#: never an option: argparse would take it for one.
_NEGATIVE_VALUE: Final = re.compile(r"^-\d[\d\s,+-]*$")
#: The score command's options whose value may begin with a minus.
_SIGNED: Final = ("--scores",)

ERR_HANDS_COUNT: Final = N_("--hands: {count} hands for {players} players (--players): give exactly one for each seat, 0 to {last}.")
ERR_HAND_EMPTY: Final = N_("--hands: {seat} has no hand total: give a whole number, the cards, or out for a player out of the match.")
ERR_HAND_BAD: Final = N_("--hands: {seat}: “{text}” is not a hand total, cards, or out.")
ERR_SCORES: Final = N_("--scores: “{text}” is not a list of whole numbers such as 10,-4,-6.")
ERR_SCORES_COUNT: Final = N_("--scores: {count} running scores for {players} players: give one for each seat.")
# TRANSLATORS: the score command's table, a terminal's plain text: the first line's label ...
HEAD_PROFILE: Final = N_("profile")
# TRANSLATORS: ... the second line's label, and what it says (seats numbered from 0, as typed)
HEAD_DEAL: Final = N_("deal")
DEALT: Final = N_("seat {dealer} dealt; seat {caller} called")
DEALT_NOBODY: Final = N_("seat {dealer} dealt; nobody called")
# TRANSLATORS: the score command's column headings (one short word each, lower case where the language has it)
HEAD_SEAT: Final = N_("seat")
HEAD_HAND: Final = N_("hand")
HEAD_TOOK: Final = N_("took")
HEAD_PAID: Final = N_("paid")
HEAD_POINTS: Final = N_("points")
HEAD_MONEY: Final = N_("money")
HEAD_TOTAL: Final = N_("total")
HEAD_OUT: Final = N_("out")


def add(sub: Any) -> None:
    sp = sub.add_parser("score", help="settle a deal played with real cards, from who dealt, who called and each hand",
                        description="Settle one deal played with real cards, exactly as the engine settles a deal it "
                                    "plays (any deal the score pad settles). Seats are numbered from 0, clockwise as "
                                    "the players sit.",
                        epilog="example, CardRulesPlus with seats 0 and 2 out: score --profile cardrulesplus "
                               "--players 4 --dealer 3 --caller 1 --hands out,4,out,4 --scores 100,14,100,20")
    add_rules(sp)
    sp.add_argument("--players", type=whole, required=True)
    sp.add_argument("--dealer", type=whole, required=True, help="the dealer's seat")
    sp.add_argument("--caller", type=_caller, required=True, metavar="SEAT|none",
                    help="the seat that called, or none (nobody called: the turn cap ended the deal)")
    sp.add_argument("--hands", required=True, metavar="N,N,…",
                    help="each seat's hand at the show, in seat order: its total (4,12,19,7), its cards "
                         "('A♠ 3♠,2♥ 2♦'), or out for a player not in the deal: out of the match "
                         "(CardRulesPlus: out,4,out,7) or away from the table (a player who left or joins later; "
                         "their running score is kept)")
    sp.add_argument("--scores", metavar="N,N,…",
                    help="each seat's running score before the deal, negative ones as written "
                         "(--scores -14,74,-60); all 0 when left out")
    sp.add_argument("--lang", choices=available_languages(), default="en",
                    help="the language of the seats, the headings, the sentences saying why and the errors")
    sp.add_argument("--json", action="store_true",
                    help="print an object: caught, winner, hands (null: out), took, paid, points, money (dashain), "
                         "scores (after the deal), eliminated, said and why")
    sp.set_defaults(func=run)


def values_joined(argv: list[str]) -> list[str]:
    """``argv`` with ``--scores -14,74,-60`` written ``--scores=-14,74,-60`` in the score
    command, so argparse reads the value as written, not as an unknown option; every other
    argument as it was. Only a value shaped like numbers is joined: ``--scores --json``
    still says the value is missing."""
    if "score" not in argv:
        return argv
    out: list[str] = []
    after = argv.index("score")
    k = 0
    while k < len(argv):
        arg = argv[k]
        if k > after and arg in _SIGNED and k + 1 < len(argv) and _NEGATIVE_VALUE.match(argv[k + 1]):
            out.append(f"{arg}={argv[k + 1]}")
            k += 2
            continue
        out.append(arg)
        k += 1
    return out


def seat_names(players: int, lang: str) -> list[str]:
    """The seats as the command names them, from 0 as on the command line, in ``lang``."""
    t = translator(lang)
    return [t(SEAT_DEFAULT, number=number(i, lang)) for i in range(players)]


def _hands(text: str, lang: str, names: list[str]) -> list[int | list[int] | None]:
    """``--hands 4,12,19,7``: each seat's hand total, its cards (``"A♠ 3♠,2♥ 2♦"``), or ``out``."""
    t = translator(lang)
    items = [p.strip() for p in text.split(",")]
    hands: list[int | list[int] | None] = []
    for seat, item in enumerate(items):
        name = names[seat] if seat < len(names) else str(seat)
        if not item:
            raise UsageError(t(ERR_HAND_EMPTY, seat=name))
        if item.lower() == OUT:
            hands.append(None)
            continue
        if item.lstrip("-+").isdigit():
            if len(item) > 7:
                raise UsageError(t(ERR_HAND_BAD, seat=name, text=item[:12]))
            hands.append(int(item))
            continue
        try:
            hands.append(C.parse_cards(item.split()))
        except C.CardError:
            raise UsageError(t(ERR_HAND_BAD, seat=name, text=item[:20])) from None
    return hands


def _scores(text: str, lang: str) -> list[int]:
    """``--scores 10,-4,-6``: each seat's running score before the deal."""
    try:
        return [int(p) for p in text.split(",")]
    except ValueError:
        raise UsageError(translator(lang)(ERR_SCORES, text=text[:40])) from None


def _caller(text: str) -> int | None:
    """``--caller 2`` or ``--caller none`` (nobody called: the turn cap ended the deal)."""
    if text.strip().lower() in ("none", "nobody"):
        return None
    return whole(text)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO | None) -> int:
    """Settle a deal played with real cards (:func:`dhumbal.matches.tally.settle_deal`)."""
    from ..matches.tally import TallyError, settle_deal

    lang = args.lang
    t = translator(lang)
    try:
        profile = profile_from_args(args)
    except ProfileError as exc:
        raise UsageError(exc.text(lang)) from None
    names = seat_names(profile.players, lang)
    hands = _hands(args.hands, lang, names)
    if len(hands) != profile.players:
        raise UsageError(t(ERR_HANDS_COUNT, count=number(len(hands), lang), players=number(profile.players, lang),
                           last=number(profile.players - 1, lang)))
    scores = None if args.scores is None else _scores(args.scores, lang)
    if scores is not None and len(scores) != profile.players:
        raise UsageError(t(ERR_SCORES_COUNT, count=number(len(scores), lang), players=number(profile.players, lang)))
    try:
        tally = settle_deal(profile, args.dealer, args.caller, hands, scores)
    except TallyError as exc:
        raise UsageError(exc.text(lang, names)) from None
    said = [m.text(lang, names) for m in tally.messages()]
    why = dict(tally.reasons(lang, names))
    if args.json:
        data = tally.to_json()
        if profile.money_per_point is not None:
            data["scores_money"] = _money_totals(tally, profile.money_per_point)
        data["said"] = said
        data["why"] = [why.get(s, "") for s in range(profile.players)]
        out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return 0
    o = tally.to_json()

    def cells(values: list[Any], signed: bool = False) -> list[str]:
        return ["–" if v is None else number(v, lang, signed=signed) for v in values]

    columns: list[tuple[str, list[str]]] = [(t(HEAD_HAND), cells(o["hands"]))]
    signed = profile.settlement != "cumulative"
    if profile.settlement == "collect":
        columns.append((t(HEAD_TOOK), cells(o["took"])))
        columns.append((t(HEAD_PAID), cells(o["paid"], True)))
    elif profile.settlement == "pay-caller":
        columns.append((t(HEAD_PAID), cells(o["paid"], True)))
        columns.append((t(HEAD_MONEY), ["–" if v is None else number(v, lang, signed=not v.startswith("-"))
                                        for v in o["money"]]))
    else:
        columns.append((t(HEAD_POINTS), cells(o["points"])))
    columns.append((t(HEAD_TOTAL), [number(v, lang, signed=signed) for v in tally.after]))
    if profile.elimination is not None:
        columns.append((t(HEAD_OUT), [t(HEAD_OUT) if s in tally.eliminated else "" for s in range(profile.players)]))
    dealer, caller = number(args.dealer, lang), None if args.caller is None else number(args.caller, lang)
    dealt = t(DEALT_NOBODY, dealer=dealer) if caller is None else t(DEALT, dealer=dealer, caller=caller)
    out.write(f"{t(HEAD_PROFILE):<8} {profile.canonical()}\n")
    out.write(f"{t(HEAD_DEAL):<8} {dealt}\n\n")
    widths = [max(len(head), *(len(v) for v in values)) for head, values in columns]
    out.write(f"{t(HEAD_SEAT):<4}" + "".join(f"  {head:>{w}}" for (head, _), w in zip(columns, widths)).rstrip() + "\n")
    for s in range(profile.players):
        out.write(f"{number(s, lang):<4}" + "".join(f"  {values[s]:>{w}}" for (_, values), w in zip(columns, widths)).rstrip() + "\n")
    out.write("\n")
    for line in said:
        out.write(line + "\n")
    for s in range(profile.players):
        if s in why:
            out.write(f"{names[s]}: {why[s]}\n")
    return 0


def _money_totals(tally: Any, rate: str) -> list[str]:
    from ..matches.match import money_text

    return [money_text(v, rate) for v in tally.after]
