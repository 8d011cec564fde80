"""``python -m dhumbal play``: a game against bots in the terminal, in any of the site's languages.

Each input line is one command (:data:`PROMPT_HELP`); a line the rules
refuse is answered with the engine's reason and changes nothing. At most
:data:`MAX_COMMAND` characters of a line are read as a command, and at most
:data:`ECHOED` of a refused one are quoted back.
"""

from __future__ import annotations

import argparse
from typing import Any, Final, TextIO

from ..bots.botlevels import DIFFICULTIES, choose
from ..core import cards as C
from ..core.i18n import N_, NP_, available_languages, number, translator
from ..core.messages import render
from ..matches.match import Match
from ..play.action import Action, parse_action
from ..play.deal import Deal, IllegalAction
from ..worked.examples import shown_name
from .common import add_rules, profile_from_args, whole


def add(sub: Any) -> None:
    sp = sub.add_parser("play", help="play against bots in the terminal")
    add_rules(sp)
    sp.add_argument("--players", type=whole)
    sp.add_argument("--seed", type=whole, default=1)
    sp.add_argument("--difficulty", choices=DIFFICULTIES, default="medium")
    sp.add_argument("--lang", choices=available_languages(), default="en")
    sp.set_defaults(func=run)


PROMPT_HELP = N_("Commands: c = call, s = take from the stock, p [card] = take from the pile, t CARDS = throw (e.g. t K♠ K♥ or t 1 2), q = quit")
PROMPT_YOUR_TURN = N_("Your turn. Your hand: {hand} (total {total}; call at {limit} or less)")
PROMPT_YOUR_TURN_NO_LIMIT = N_("Your turn. Your hand: {hand} (total {total}; no call limit)")
PROMPT_TABLE = NP_("Pile: {pile} | Stock: {stock} card | Cards held: {counts}", "Pile: {pile} | Stock: {stock} cards | Cards held: {counts}")
PROMPT_YOU = N_("You")
PROMPT_BOT = N_("Bot {number}")
PROMPT_SCORES = N_("Scores after deal {number}: {scores}")
PROMPT_STANDINGS = N_("Final standings:")
PROMPT_PLACE = N_("{place}. {name}: {score}")


def _seat_names(n: int, lang: str) -> list[str]:
    t = translator(lang)
    return [t(PROMPT_YOU)] + [t(PROMPT_BOT, number=i) for i in range(1, n)]


def _read_action(text: str, deal: Deal) -> Action:
    words = text.strip().split()
    if not words:
        raise IllegalAction("bad-action", text=text.strip())
    head = words[0].lower()
    hand = deal.hands[deal.turn]
    if head == "c":
        return Action.call()
    if head == "s":
        return Action.take_stock()
    if head == "p":
        return Action.take_pile(C.parse_card(words[1])) if len(words) > 1 else Action.take_pile()
    if head == "t":
        picked: list[int] = []
        for w in words[1:]:
            # A position in the hand: decimal digits only ("²" is a digit but no number).
            if w.isdecimal() and len(w) <= 3 and 1 <= int(w) <= len(hand):
                picked.append(hand[int(w) - 1])
            else:
                try:
                    picked.append(C.parse_card(w))
                except C.CardError:
                    raise IllegalAction("bad-action", text=text.strip()) from None
        return Action.throw(*picked)
    return parse_action(text)


#: The longest line ``play`` reads as a command (a throw of eight cards by name is
#: about 40 characters); the rest of a longer line is read and dropped. And the most of
#: a refused line that is echoed back, so that a line of megabytes is not written back.
MAX_COMMAND: Final = 200
ECHOED: Final = 40


def _read_command(inp: TextIO) -> tuple[str, bool]:
    """The next input line and whether it is whole; an overlong line's rest is read in
    pieces and dropped (never held whole)."""
    line = inp.readline(MAX_COMMAND + 1)
    if len(line) <= MAX_COMMAND or line.endswith("\n"):
        return line, True
    while True:
        rest = inp.readline(65_536)
        if not rest or rest.endswith("\n"):
            return line, False


def _echoed(text: str) -> str:
    """A refused input as the reply quotes it: its first characters, unprintable ones escaped."""
    text = " ".join(text.split())
    return shown_name(text if len(text) <= ECHOED else text[:ECHOED] + "...")


def run(args: argparse.Namespace, out: TextIO, inp: TextIO | None) -> int:
    assert inp is not None  # the command line refuses play without standard input
    lang = args.lang
    t = translator(lang)
    profile = profile_from_args(args)
    match = Match(profile, seed=args.seed)
    names = _seat_names(profile.players, lang)
    out.write(t(PROMPT_HELP) + "\n")
    while not match.is_over():
        deal = match.start_deal()
        seat_names = [names[s] for s in match.seating]
        me = match.seating.index(0) if 0 in match.seating else None
        while not deal.is_over:
            if deal.turn == me:
                hand = " ".join(f"{i + 1}:{C.card_text(c)}" for i, c in enumerate(deal.hands[me]))
                if profile.call_limit is None:
                    out.write(t(PROMPT_YOUR_TURN_NO_LIMIT, hand=hand, total=deal.total(me)) + "\n")
                else:
                    out.write(t(PROMPT_YOUR_TURN, hand=hand, total=deal.total(me), limit=profile.call_limit) + "\n")
                pile = C.cards_text(deal.offer_cards if not profile.draw_first else deal.pile[-1:])
                stock = len(deal.stock)
                out.write(t.plural(*PROMPT_TABLE, stock, pile=pile, stock=stock, counts=" ".join(number(len(h), lang) for h in deal.hands)) + "\n")
                out.write("> ")
                out.flush()
                line, whole = _read_command(inp)
                if not line or line.strip().lower() == "q":
                    return 0
                try:
                    if not whole:
                        raise IllegalAction("bad-action")
                    events = deal.apply(_read_action(line, deal), seat=me)
                except IllegalAction as exc:
                    if exc.code == "bad-action":  # it quotes the input: only its start
                        exc = IllegalAction("bad-action", text=_echoed(line))
                    out.write("  " + exc.text(lang, seat_names) + "\n")
                    continue
                except C.CardError:
                    out.write("  " + render("bad-action", {"text": _echoed(line)}, lang) + "\n")
                    continue
            else:
                events = deal.apply(choose(deal, args.difficulty))
            for e in events:
                out.write("  " + e.text(lang, seat_names, viewer=me if me is not None else -1) + "\n")
        for e in match.finish_deal():
            out.write("  " + e.text(lang, names, viewer=0) + "\n")
        scores = ", ".join(f"{names[s]} {number(match.scores[s], lang, signed=profile.settlement != 'cumulative')}" for s in range(profile.players))
        out.write(t(PROMPT_SCORES, number=len(match.deals), scores=scores) + "\n")
    out.write(t(PROMPT_STANDINGS) + "\n")
    for st in match.standings():
        out.write("  " + t(PROMPT_PLACE, place=st.place, name=names[st.seat], score=st.score) + "\n")
    return 0
