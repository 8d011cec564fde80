"""``python -m dhumbal``: profiles, play, check, simulate, odds, score, bench.

Every bad input ends in a one-line message and a non-zero exit, never a
traceback: arguments are checked by argparse (whose errors are one line
here), engine errors are caught by type, an example file that cannot be
checked is reported and the next one checked, a terminal that cannot show
the output's characters is said so before anything is played, and a closed
output pipe (``| head``) or Ctrl-C stop the command quietly.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import re
import statistics
import sys
import time
from typing import Any, Final, NoReturn, Sequence, TextIO

from .core import cards as C
from .play.action import Action, parse_action
from .bots.botlevels import DIFFICULTIES, Difficulty, choose, policy
from .play.deal import Deal, IllegalAction
from .worked.examples import ExampleError, example_files, load_text, read_text, shown_name
from .core.i18n import N_, NP_, available_languages, number, translator
from .matches.match import Match, money_text
from .core.messages import SEAT_DEFAULT, render
from .play.playout import play_out
from .core.profiles import PROFILE_KEYS, Profile, ProfileError, find_profile, parse_profile


def _profile_from_args(args: argparse.Namespace) -> Profile:
    profile = parse_profile(args.profile)
    opts: dict[str, str] = {}
    for item in args.option or []:
        if "=" not in item:
            raise ProfileError(f"option {item!r} needs the form key=value", code="bad-profile-text", params={"text": item})
        k, v = item.split("=", 1)
        opts[k.strip()] = v.strip()
    if getattr(args, "players", None) is not None:
        opts["players"] = str(args.players)
    return profile.with_options(**opts) if opts else profile


def cmd_profiles(args: argparse.Namespace, out: TextIO) -> int:
    t = translator(args.lang)
    for key in PROFILE_KEYS:
        p = find_profile(key)
        out.write(f"{p.key}  ({t(p.name)}; sources {', '.join(p.sources)})\n")
        for s in p.option_specs:
            out.write(f"    {s.key:<17} default {s.text(s.default):<10} allowed {s.allowed_text():<28} {t(s.label)}\n")
    return 0


def _check_puzzle(text: str, name: str) -> str:
    """Read, run and grade a puzzle file (a generated one again, with a seed of its own, and its
    solvers found again); what ``check`` says of it when its answer holds."""
    from .worked import puzzles

    puzzle = puzzles.load_text(text, name)
    graded = puzzles.recheck(puzzle) if puzzle.generated is not None else puzzles.grade_puzzle(puzzle)
    puzzles.check(puzzle, graded)
    second = graded.moves[1]
    return (f"puzzle: {graded.best.action} best, {second.diff:.2f} ± {second.diff_se:.2f} ahead of "
            f"{second.action}, {graded.samples} samples")


def cmd_puzzles(args: argparse.Namespace, out: TextIO) -> int:
    """``puzzles generate``: mine puzzles from bot-played deals into a folder (see :mod:`dhumbal.lab.puzzlegen`)."""
    from pathlib import Path

    from .lab.puzzlegen import Miner

    if args.count < 1:
        raise UsageError("--count must be at least 1")
    folder = Path(args.out)
    if not folder.is_dir():
        raise UsageError(f"--out: {shown_name(args.out)} is not a folder")
    profile = _profile_from_args(args)
    miner = Miner(profile, args.seed, folder, log=out)
    kept = miner.run(args.count)
    return 0 if len(kept) == args.count else 1


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    from .worked.puzzles import is_puzzle

    files = example_files(args.paths)
    if not files:
        out.write("no example files found\n")
        return 2
    failed = 0
    for f in files:
        try:
            text = read_text(f, str(f))
            if is_puzzle(text):
                out.write(f"ok   {shown_name(f)} ({_check_puzzle(text, str(f))})\n")
                continue
            w = load_text(text, str(f))
        except ExampleError as exc:
            failed += 1
            out.write(f"FAIL {shown_name(str(exc))}\n")
            continue
        except (RecursionError, MemoryError, ValueError, TypeError, KeyError, IndexError) as exc:
            # Not a message the loader wrote: still one line, and the next file is checked.
            failed += 1
            out.write(f"FAIL {shown_name(f)}: cannot be checked ({type(exc).__name__}: {shown_name(_one_line(exc))})\n")
            continue
        out.write(f"ok   {shown_name(f)} ({len(w.steps)} steps)\n")
    out.write(f"{len(files) - failed} passed, {failed} failed\n")
    return 1 if failed else 0


class SimulationError(Exception):
    """``simulate --check`` found a bot move that the rules refuse (an engine bug)."""


def _simulate(profile: Profile, deals: int, seed: int, difficulty: Difficulty, *, checked: bool = False) -> dict[str, Any]:
    """Bots play ``deals`` seeded deals (seeds ``{seed}/{i}``, the dealer moving round), as
    ``bench`` does: on the trusted path (:func:`dhumbal.play.playout.play_out`), or with
    ``checked`` every move through ``Deal.apply`` (full check and messages). Both paths
    play the same moves, so they give the same figures; only the rates differ."""
    bot = policy(difficulty)
    moves = turns = calls = caught = caps = 0
    hand_at_call: list[int] = []
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i in range(deals):
        d = Deal.new(profile, f"{seed}/{i}", dealer=i % profile.players)
        try:
            o = play_out(d, bot, checked=checked)
        except IllegalAction as exc:  # only with checked: apply refused a bot's move, the deal unchanged
            raise SimulationError(
                f"deal {seed}/{i}, turn {d.turns}: the {difficulty} bot of seat {d.turn} made a move "
                f"the rules refuse ({exc})"
            ) from None
        moves += len(d.history)
        turns += d.turns
        if o.reason == "call":
            calls += 1
            caught += o.caught
            assert o.caller is not None
            hand_at_call.append(o.hands[o.caller])
        else:
            caps += 1
    elapsed = max(time.perf_counter() - start, 1e-9)
    cpu = max(time.process_time() - cpu_start, 1e-9)
    return {
        "checked": checked,
        "deals": deals,
        "moves": moves,
        "turns": turns,
        "mean_turns": turns / deals,
        "calls": calls,
        "caught_rate": caught / calls if calls else 0.0,
        "caps": caps,
        "mean_hand_at_call": statistics.fmean(hand_at_call) if hand_at_call else 0.0,
        "deals_per_second": deals / cpu,
        "deals_per_wall_second": deals / elapsed,
        "moves_per_second": moves / cpu,
        "mean_move_us": cpu / moves * 1e6 if moves else 0.0,
    }


#: What ``simulate --json`` prints that depends on the machine, not on the deals.
RATE_KEYS = ("deals_per_second", "deals_per_wall_second", "moves_per_second", "mean_move_us")


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    if args.bots is not None:
        return _simulate_table(args, out)
    profile = _profile_from_args(args)
    r = _simulate(profile, args.deals, args.seed, args.difficulty, checked=args.check)
    if args.json:
        out.write(json.dumps({"profile": profile.canonical(), "difficulty": args.difficulty, **r}, indent=2) + "\n")
        return 0
    path = "checked (every move through the rules' full check)" if r["checked"] else "trusted (bot moves played unchecked, as bench does)"
    out.write(f"profile            {profile.canonical()}\n")
    out.write(f"difficulty         {args.difficulty}\n")
    out.write(f"path               {path}\n")
    out.write(f"deals              {r['deals']}\n")
    out.write(f"turns              {r['turns']} (mean {r['mean_turns']:.1f} a deal)\n")
    out.write(f"calls              {r['calls']} (caught {r['caught_rate']:.1%})\n")
    out.write(f"turn caps          {r['caps']}\n")
    out.write(f"mean hand at call  {r['mean_hand_at_call']:.2f}\n")
    out.write(f"deals per second   {r['deals_per_second']:.0f} per CPU second ({r['deals_per_wall_second']:.0f} by the clock)\n")
    out.write(f"moves              {r['moves']} ({r['moves_per_second']:.0f} per CPU second, "
              f"{r['mean_move_us']:.1f} µs each: the bot's decision and its play)\n")
    return 0


def _simulate_table(args: argparse.Namespace, out: TextIO) -> int:
    """``simulate --bots LEVEL,LEVEL,…``: one level per seat; each seat's win share and settlement."""
    from .lab.arena import play_table, read_bots

    if args.check:
        raise UsageError("--check checks tables of one level (--difficulty); a --bots table plays on the trusted path only")
    try:
        bots = read_bots(args.bots)
    except ValueError as exc:
        raise UsageError(f"--bots: {exc}") from None
    if args.players is not None and args.players != len(bots):
        raise UsageError(f"--players {args.players} and --bots name {len(bots)} seats; give one or the other")
    args.players = len(bots)
    profile = _profile_from_args(args)
    result = play_table(profile, bots, args.deals, seed=args.seed)
    if args.json:
        out.write(json.dumps(result.to_json(), indent=2) + "\n")
        return 0
    better = "fewest points" if result.measure == "points" else "highest"
    out.write(f"profile     {result.profile}\n")
    out.write(f"deals       {result.deals} (seed {result.seed}; the dealer moves one seat each deal)\n")
    out.write(f"settlement  {result.measure} per deal ({better} is best)\n\n")
    out.write(f"{'seat':<6}{'bot':<12}{'wins':>7}{'win share':>11}{'settlement':>12}{'calls':>7}{'caught':>8}\n")
    best = set(result.best_seats())
    for s, r in enumerate(result.seats):
        mark = "  best" if s in best else ""
        wins = f"{round(float(r.credit), 1):g}"  # a deal no one is named to win is shared (dhumbal.lab.arena)
        out.write(f"{s:<6}{r.bot:<12}{wins:>7}{result.win_share(s):>11.1%}{result.mean_settlement(s):>12.2f}"
                  f"{r.calls:>7}{r.caught:>8}{mark}\n")
    return 0


def cmd_odds(args: argparse.Namespace, out: TextIO) -> int:
    """The chance that a call on ``--hand`` is caught when the others hold ``--counts`` cards."""
    from .bots.odds import caught_chance

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
    profile = _profile_from_args(args)
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


#: What marks a seat out of the match in ``--hands``.
OUT: Final = "out"
#: A list of whole numbers, the first negative: argparse would read it as an option.
_NEGATIVE_LIST: Final = re.compile(r"^-\d+$|^-\d*\.\d+$|^-\d+(?:\s*,\s*[-+]?\d+)+$")

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
    return _whole(text)


def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    """Settle a deal played with real cards (:func:`dhumbal.matches.tally.settle_deal`)."""
    from .matches.tally import TallyError, settle_deal

    lang = args.lang
    t = translator(lang)
    try:
        profile = _profile_from_args(args)
    except ProfileError as exc:
        text = getattr(exc, "text", None)  # a refusal in words where the engine has them
        raise UsageError(text(lang) if callable(text) else str(exc)) from None
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
            data["scores_money"] = _score_money_totals(tally, profile.money_per_point)
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


def _score_money_totals(tally: Any, rate: str) -> list[str]:
    return [money_text(v, rate) for v in tally.after]


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    """Bot-vs-bot deals per CPU second for each profile (4 seats, medium bots), and the
    ratio of `dashain` to the lean reference loop (see :mod:`dhumbal.lab.benchmark`)."""
    from pathlib import Path

    from .lab import benchmark

    if args.deals < 1 or args.rounds < 1:
        raise UsageError("--deals and --rounds must be at least 1")
    if args.lean and not Path(args.lean).is_file():
        raise UsageError(f"no lean reference loop at {shown_name(args.lean)}")
    try:
        return benchmark.run(out, deals=args.deals, rounds=args.rounds, lean_path=Path(args.lean) if args.lean else None)
    except benchmark.LeanLoopError as exc:
        raise UsageError(str(exc)) from None


# -- terminal play ----------------------------------------------------------------

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


def cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    lang = args.lang
    t = translator(lang)
    profile = _profile_from_args(args)
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


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (argparse prints the usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _deals(text: str) -> int:
    """``--deals``: a whole number of deals, at least 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"give at least 1 deal, not {n}")
    return n


def _counts(text: str) -> list[int]:
    """``--counts 3,3,4``: each other player's card count (1 to 5 others)."""
    parts = [p.strip() for p in text.split(",")]
    try:
        counts = [int(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a list of whole numbers such as 3,3,4") from None
    if not 1 <= len(counts) <= 5:
        raise argparse.ArgumentTypeError(f"give 1 to 5 card counts (one per other player), not {len(counts)}")
    if any(k < 1 or k > 54 for k in counts):
        raise argparse.ArgumentTypeError("each card count must be from 1 to 54")
    return counts


def _samples(text: str) -> int:
    """``--samples``: 1 to a million."""
    n = _whole(text)
    if not 1 <= n <= 1_000_000:
        raise argparse.ArgumentTypeError(f"give 1 to 1000000 samples, not {n}")
    return n


class UsageError(Exception):
    """Arguments that parse but do not go together, or name cards that are not in the pack."""


def _whole(text: str) -> int:
    """A whole number (``--seed``, ``--players``), with a readable error for anything else."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a whole number") from None


def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="python -m dhumbal", description="Dhumbal (Jhyap) rules engine")
    sub = ap.add_subparsers(dest="command", required=True)

    sp = sub.add_parser("profiles", help="list the profiles, their options and defaults")
    sp.add_argument("--lang", choices=available_languages(), default="en")

    sp = sub.add_parser("check", help="run example files and report every contradicted expectation")
    sp.add_argument("paths", nargs="+")

    sp = sub.add_parser("puzzles", help="find puzzles in bot-played deals")
    puzzle_sub = sp.add_subparsers(dest="puzzles_command", required=True)
    gen = puzzle_sub.add_parser("generate", help="mine positions with one clearly best move into puzzle files")
    gen.add_argument("--profile", default="nepali-games", help="profile key or canonical form, e.g. 'nepali-games(runs=on)'")
    gen.add_argument("--option", action="append", metavar="KEY=VALUE", help="a house rule; repeat for more")
    gen.add_argument("--players", type=_whole)
    gen.add_argument("--count", type=_whole, required=True, help="how many puzzles to keep")
    gen.add_argument("--seed", type=_whole, required=True, help="the run's seed: the same seed gives the same puzzles")
    gen.add_argument("--out", default="puzzles", help="the folder of puzzle files (default: puzzles)")

    for name in ("simulate", "play"):
        sp = sub.add_parser(name, help="bot deals and a summary" if name == "simulate" else "play against bots in the terminal")
        sp.add_argument("--profile", default="nepali-games", help="profile key or canonical form, e.g. 'nepali-games(runs=on)'")
        sp.add_argument("--option", action="append", metavar="KEY=VALUE", help="a house rule; repeat for more")
        sp.add_argument("--players", type=_whole)
        sp.add_argument("--seed", type=_whole, default=1)
        sp.add_argument("--difficulty", choices=DIFFICULTIES, default="medium")
        if name == "simulate":
            sp.add_argument("--deals", type=_deals, default=1000)
            sp.add_argument("--bots", metavar="LEVEL,LEVEL,…",
                            help="a mixed table, one level per seat (e.g. expert,hard,hard,hard): "
                                 "each seat's win share and average settlement; levels: easy, medium, hard, "
                                 "expert, and aggressive (the champion agent of arXiv 2510.11736)")
            sp.add_argument("--check", action="store_true",
                            help="send every bot move through the rules' full check (slower); "
                                 "by default bots play on the trusted path, as bench does")
            sp.add_argument("--json", action="store_true")
        else:
            sp.add_argument("--lang", choices=available_languages(), default="en")

    sp = sub.add_parser("odds", help="the chance that a call is caught, from a hand and the others' card counts")
    sp.add_argument("--profile", default="nepali-games", help="profile key or canonical form, e.g. 'nepali-games(runs=on)'")
    sp.add_argument("--option", action="append", metavar="KEY=VALUE", help="a house rule; repeat for more")
    sp.add_argument("--hand", required=True, help="the caller's cards, e.g. 'A♠ 2♥' or 'AS 2H' (\"\" for an empty hand)")
    sp.add_argument("--counts", type=_counts, required=True, metavar="N,N,…", help="each other player's card count, e.g. 3,3,4")
    sp.add_argument("--seen", help="other cards known to be out of their hands (the pile, say)")
    sp.add_argument("--samples", type=_samples, default=20_000, help="sampled deals (default 20000)")
    sp.add_argument("--seed", type=_whole, default=0)
    sp.add_argument("--json", action="store_true")

    sp = sub.add_parser("score", help="settle a deal played with real cards, from who dealt, who called and each hand",
                        description="Settle one deal played with real cards, exactly as the engine settles a deal it "
                                    "plays (any deal the score pad settles). Seats are numbered from 0, clockwise as "
                                    "the players sit.",
                        epilog="example, CardRulesPlus with seats 0 and 2 out: score --profile cardrulesplus "
                               "--players 4 --dealer 3 --caller 1 --hands out,4,out,4 --scores 100,14,100,20")
    # a list of whole numbers beginning with a minus is a value, not an option (--scores -14,74,-60)
    sp._negative_number_matcher = _NEGATIVE_LIST
    sp.add_argument("--profile", default="nepali-games", help="profile key or canonical form, e.g. 'nepali-games(runs=on)'")
    sp.add_argument("--option", action="append", metavar="KEY=VALUE", help="a house rule; repeat for more")
    sp.add_argument("--players", type=_whole, required=True)
    sp.add_argument("--dealer", type=_whole, required=True, help="the dealer's seat")
    sp.add_argument("--caller", type=_caller, required=True, metavar="SEAT|none",
                    help="the seat that called, or none (nobody called: the turn cap ended the deal)")
    sp.add_argument("--hands", required=True, metavar="N,N,…",
                    help="each seat's hand at the show, in seat order: its total (4,12,19,7), its cards "
                         "('A♠ 3♠,2♥ 2♦'), or out for a player already out of the match (CardRulesPlus: out,4,out,7)")
    sp.add_argument("--scores", metavar="N,N,…",
                    help="each seat's running score before the deal, negative ones as written "
                         "(--scores -14,74,-60); all 0 when left out")
    sp.add_argument("--lang", choices=available_languages(), default="en",
                    help="the language of the seats, the headings, the sentences saying why and the errors")
    sp.add_argument("--json", action="store_true",
                    help="print an object: caught, winner, hands (null: out), took, paid, points, money (dashain), "
                         "scores (after the deal), eliminated, said and why")

    sp = sub.add_parser("bench", help="deals per CPU second for each profile (4 seats, medium bots) and against a lean loop")
    sp.add_argument("--deals", type=_deals, default=2000, help="deals per profile in each round")
    sp.add_argument("--rounds", type=int, default=5, help="interleaved rounds (the medians are printed)")
    sp.add_argument("--lean", help="the lean reference loop (default: bench/lean_dashain.py of the checkout)")
    return ap


class TerminalError(Exception):
    """The output cannot show what the command would print."""


def _encodable(text: str, stream: TextIO) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _check_terminal(args: argparse.Namespace, out: TextIO) -> None:
    """Refuse at once, in one line, to play or list in characters the output cannot show."""
    encoding = getattr(out, "encoding", None) or "utf-8"
    hint = "use a UTF-8 terminal (or set PYTHONIOENCODING=utf-8)"
    lang = getattr(args, "lang", "en")
    if args.command == "play" and not _encodable("".join(C.SUIT_SYMBOLS), out):
        raise TerminalError(f"this terminal's encoding ({encoding}) cannot show the card suits; {hint}")
    if args.command in ("play", "profiles", "score") and lang != "en":
        t = translator(lang)
        sample = " ".join([t(PROMPT_HELP)] + [t(find_profile(k).name) for k in PROFILE_KEYS])
        if not _encodable(sample, out):
            raise TerminalError(f"this terminal's encoding ({encoding}) cannot show text in '{lang}'; {hint}, or use --lang en")


def _tolerant(stream: TextIO, errors: str) -> None:
    """Let a real console stream replace what it cannot encode or decode rather than raise."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors=errors)
        except (ValueError, OSError):  # a stream that cannot change now: it keeps its own rule
            pass


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]


def _error(message: str) -> None:
    stream = sys.stderr
    if stream is None:  # started with standard error closed: nowhere to say it
        return
    try:
        # a file name or a value read from input may hold terminal escapes
        stream.write(f"error: {shown_name(message)}\n")
        stream.flush()
    except (OSError, ValueError):
        pass


def _quiet_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's own flush
    at exit finds nothing left to fail on (a closed pipe, a full disk)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


#: What writing to a full disk, a vanished terminal or a closed descriptor raises.
_OUTPUT_ERRORS: Final = frozenset({errno.ENOSPC, errno.EIO, errno.EBADF, errno.EPIPE, errno.EFBIG, errno.EDQUOT, errno.ENXIO})


class StreamClosed(Exception):
    """A standard stream the command needs was closed when the command started;
    ``status`` is the exit code (2: no input to read, 1: nowhere to write)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    """Run the command line; every failure is one line on standard error and an exit code:
    2 for bad input, 1 when the output cannot be written, 130 on Ctrl-C."""
    try:
        return _main(argv, out, inp)
    except KeyboardInterrupt:  # Ctrl-C before or after the command's own handling
        _error("interrupted")
        return 130


def _main(argv: Sequence[str] | None, out: TextIO | None, inp: TextIO | None) -> int:
    out = out or sys.stdout
    inp = inp or sys.stdin
    try:
        if out is None:
            raise StreamClosed("the standard output is closed: give the command somewhere to write", 1)
        args = build_parser().parse_args(argv)
        if args.command == "play" and inp is None:
            raise StreamClosed("the standard input is closed: play reads your moves from it", 2)
        _tolerant(out, "replace")
        if inp is not None:
            _tolerant(inp, "replace")
        _check_terminal(args, out)
        if args.command == "profiles":
            rc = cmd_profiles(args, out)
        elif args.command == "check":
            rc = cmd_check(args, out)
        elif args.command == "puzzles":
            rc = cmd_puzzles(args, out)
        elif args.command == "simulate":
            rc = cmd_simulate(args, out)
        elif args.command == "bench":
            rc = cmd_bench(args, out)
        elif args.command == "odds":
            rc = cmd_odds(args, out)
        elif args.command == "score":
            rc = cmd_score(args, out)
        else:
            rc = cmd_play(args, out, inp)
        out.flush()  # a closed pipe or a full disk shows up here, not at interpreter exit
        return rc
    except ProfileError as exc:
        _error(_one_line(exc))
        return 2
    except (TerminalError, UsageError) as exc:
        _error(str(exc))
        return 2
    except SimulationError as exc:
        _error(str(exc))
        return 1
    except StreamClosed as exc:
        _error(str(exc))
        return exc.status
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): say so once, and keep the
        # interpreter from failing again when it flushes at exit.
        if out is sys.stdout:
            _quiet_stdout()
        _error("the output was closed before the command finished")
        return 1
    except UnicodeError as exc:
        _error(f"cannot read or write the terminal's text: {_one_line(exc)}")
        return 2
    except OSError as exc:
        # Standard output on a full disk (``> /dev/full``), a vanished
        # terminal, a stream closed under the command; or a file the
        # command was given that cannot be read.
        if exc.errno not in _OUTPUT_ERRORS:
            _error(_one_line(exc))
            return 1
        if out is sys.stdout:
            _quiet_stdout()
        _error(f"cannot write the output ({exc.strerror or _one_line(exc)})")
        return 1
    except ValueError as exc:
        if "closed file" not in str(exc):
            raise
        _error("a standard stream was closed before the command finished")
        return 1
