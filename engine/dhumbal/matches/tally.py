"""A deal played with real cards, settled by the engine from what the table typed.

A table that plays with a real pack tells the engine who dealt, who called
(or that nobody did, where a turn cap ends a deal) and each hand at the
show, as a total or as the cards. :func:`tally_next` checks that input
completely, then books the deal into a :class:`dhumbal.matches.match.Match` through
:meth:`~dhumbal.matches.match.Match.book_elsewhere`: the seating, the settlement and
the booking a deal the engine played gets, so the two cannot disagree.
:func:`settle_deal` does it for one deal from given running scores (the
``python -m dhumbal score`` command); :mod:`dhumbal.matches.scoresheet` for a whole
match (the score pad).

Bad input raises :class:`TallyError`: a stable code, parameters, and a
sentence from the catalogs naming the seat at fault; nothing is booked.
A total is refused when no hand can hold it (negative, over the heaviest
hand the profile deals, under the lightest where a hand is never empty),
and a set of totals when the pack cannot hold them all at once (a search
over card values, :func:`pack_can_hold`); a call over the profile's limit,
and "nobody called" where no turn cap can end a deal.

:meth:`Tally.reasons` says, one line per seat, why it took, paid or scored
what it did, written from the settled outcome (never from the input), so
the words match the numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from ..core import cards as C
from ..core.errors import Refusal
from ..core.i18n import N_, translator
from ..core.messages import Message, seat_name
from ..core.profiles import DOUBLE_MARGIN, DOUBLE_PENALTY, Profile, ProfileError
from ..play.scoring import Outcome, outcome_messages
from .match import Match

# TRANSLATORS: the separator between the parts of one "why" line of
# the score pad and of its CSV's Why column ("counted from the dealer's
# left; scores 0 and collects 24").
REASONS_SEPARATOR: Final = N_("; ")

#: The largest running score a table may give (far beyond any real match).
MAX_SCORE: Final = 1_000_000

ERRORS: Final[Mapping[str, str]] = {
    "players": N_("These rules are played by {low} to {high} players, not {count}."),
    "count": N_("There are {players} players in this deal but {count} hand totals: give exactly one for each player."),
    "missing": N_("{seat} has no hand total yet."),
    "not-a-total": N_("{seat}: “{text}” is not a hand total; give a whole number."),
    "bad-dealer": N_("The dealer must be one of the players: there is no seat {number}."),
    "bad-caller": N_("The caller must be one of the players: there is no seat {number}."),
    "caller-out": N_("{seat} is out of the match and cannot call."),
    "negative": N_("{seat}: a hand total cannot be negative."),
    "too-high": N_("{seat}: no hand here can hold {total}; the most is {max}, with {cards} cards."),
    "too-low": N_("{seat}: a hand here always keeps at least one card, so its total is at least {min}."),
    "impossible": N_("These totals cannot all be in the hands at once: the pack has too few heavy cards for them. Check each total."),
    "over-limit": N_("{seat} called on {total}, but a call needs a hand of {limit} or less. Check the caller and the totals."),
    "no-cap": N_("In these rules a deal only ends with a call: choose who called."),
    "bad-card": N_("{seat}: “{text}” is not a card of this pack."),
    "card-twice": N_("{card} is in more than one hand."),
    "too-many-cards": N_("{seat} holds {count} cards, but a hand here holds at most {max}."),
    "empty-hand": N_("{seat} holds no card, but a hand here always keeps at least one."),
    "scores-count": N_("There are {players} players but {count} running scores: give exactly one for each player."),
    "out-dealer": N_("{seat} is out of the match, so cannot deal."),
    "out-all": N_("At most one player is still in the match: there is no deal to settle."),
    "score-range": N_("{seat}: a running score must lie between −{max} and {max}."),
    "score-negative": N_("{seat}: a running score cannot be negative in these rules."),
    "score-out": N_("{seat} already has {score} points, so is out of the match and not in this deal."),
    "ledger-sum": N_("The running scores add up to {sum}, but in these rules they always add up to {zero}."),
    "match-over": N_("The match is over: start a new match to score more deals."),
    "away": N_("{seat} is away from the table in this deal, so has no hand total here."),
    "away-dealer": N_("{seat} joins the match later, so cannot deal first: choose a player who is there from the start."),
    "join-there": N_("{seat} is already at the table."),
    "join-race": N_("In these rules nobody joins once a deal is played: the others are on their way to the limit. {seat} can join the next match."),
    "join-full": N_("These rules are played by at most {max} players at once: {seat} can join when someone leaves."),
    "leave-gone": N_("{seat} is not at the table."),
    "leave-two": N_("A deal needs two players: {seat} cannot leave while only two are at the table."),
}


def money_split(points: Sequence[int], rate: str) -> list[str]:
    """A deal's payments in points, in money at ``rate`` a point, each to the cent and
    adding up to zero as the points do: each amount is rounded to the nearest cent, and
    the cents that rounding leaves over (at a rate of more than two decimals: 0.025
    a point, say) go, one each, to the amounts rounded furthest (the first seat of a
    tie first). At a rate in whole cents nothing is left over: the amounts are exact."""
    from decimal import ROUND_HALF_EVEN, Decimal

    cent = Decimal("0.01")
    exact = [Decimal(v) * Decimal(rate) for v in points]
    rounded = [x.quantize(cent, rounding=ROUND_HALF_EVEN) for x in exact]
    left = -sum(rounded, Decimal(0)) if sum(points) == 0 else Decimal(0)
    step = cent if left > 0 else -cent
    # those rounded furthest against the direction the cents must go take them first
    order = sorted(range(len(points)), key=lambda i: (-(exact[i] - rounded[i]) * (1 if left > 0 else -1), i))
    for i in order[: int(abs(left) / cent)]:
        rounded[i] += step
    return [f"{x:.2f}" if x else "0.00" for x in rounded]


class TallyError(Refusal):
    """Input a table typed that cannot be settled: ``code`` (a key of :data:`ERRORS`),
    ``params`` (``seat`` holds a match seat) and, on a score sheet, the ``deal`` (1-based)."""

    def __init__(self, code: str, *, deal: int | None = None, **params: object) -> None:
        super().__init__(code, **params)
        self.deal = deal
        seat = params.get("seat")
        self.seat = seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    def template(self) -> str:
        return ERRORS[self.code]

    def __str__(self) -> str:
        return self.text()


# -- what a hand can hold ---------------------------------------------------------------


def fewest_cards(profile: Profile) -> int:
    """The fewest cards a hand holds at the show: none where a turn can end on a throw
    (take first, then throw: an empty hand is legal), else one (a pick always follows)."""
    return 0 if profile.draw_first else 1


@lru_cache(maxsize=64)
def _pack(profile: Profile) -> tuple[tuple[int, int], ...]:
    """The pack as (value, how many cards have it), heaviest first."""
    counts: dict[int, int] = {}
    for card in C.full_deck(jokers=profile.jokers):
        v = profile.value(card)
        counts[v] = counts.get(v, 0) + 1
    return tuple(sorted(counts.items(), reverse=True))


def hand_range(profile: Profile) -> tuple[int, int]:
    """The lightest and the heaviest total one hand can show under ``profile``."""
    values = sorted((profile.value(c) for c in C.full_deck(jokers=profile.jokers)), reverse=True)
    fewest = fewest_cards(profile)
    return (sum(values[len(values) - fewest:]) if fewest else 0), sum(values[:profile.hand_size])


#: How many steps the search below may take before it gives up and lets the totals stand
#: (a few hundredths of a second; nearly every set of totals is settled in far fewer).
SEARCH_BUDGET: Final = 20_000


class _OutOfSteps(Exception):
    pass


def pack_can_hold(profile: Profile, totals: Sequence[int]) -> bool:
    """Whether the pack can deal hands with these totals all at once, each of
    ``fewest_cards`` to ``hand_size`` cards.

    A search over the card values, heaviest first, handing each value's cards
    to the seats (the neediest first), with the states that failed remembered
    and every branch cut where the heaviest cards left cannot make the points
    still missing, or where some threshold needs more cards than the pack
    has left (a seat short of ``r`` points with ``s`` cards to go needs at
    least ``(r - s·w) / (v - w)`` cards heavier than ``w``). A search that
    runs past :data:`SEARCH_BUDGET` steps answers True: only totals proven
    impossible are refused."""
    full = _pack(profile)
    pack = [(v, c) for v, c in full if v > 0]
    zeros = sum(c for v, c in full if v == 0)
    most, fewest = profile.hand_size, fewest_cards(profile)
    values = [v for v, _ in pack]
    failed: set[tuple[int, tuple[tuple[int, int], ...]]] = set()
    steps = [0]
    # heaviest[i][k]: the k heaviest cards among the values from i on
    heaviest: list[list[int]] = []
    for i in range(len(pack) + 1):
        cards = [v for v, c in pack[i:] for _ in range(c)]
        sums = [0]
        for k in range(most * len(totals)):
            sums.append(sums[-1] + (cards[k] if k < len(cards) else 0))
        heaviest.append(sums)

    def fits(i: int, state: tuple[tuple[int, int], ...]) -> bool:
        if sum(r for r, _ in state) > heaviest[i][sum(s for _, s in state)]:
            return False
        have = 0
        for j in range(i, len(pack)):
            have += pack[j][1]
            below = values[j + 1] if j + 1 < len(pack) else 0
            need = sum(-(-(r - s * below) // (values[i] - below)) for r, s in state if r > s * below)
            if need > have:
                return False
        return True

    def go(i: int, state: tuple[tuple[int, int], ...]) -> bool:
        steps[0] += 1
        if steps[0] > SEARCH_BUDGET:
            raise _OutOfSteps
        if all(r == 0 for r, _ in state):  # the rest from cards worth 0, where a hand needs a card
            return sum(max(0, fewest - (most - s)) for _, s in state) <= zeros
        if i == len(pack) or (i, state) in failed or not fits(i, state):
            failed.add((i, state))
            return False
        v, count = pack[i]
        below = values[i + 1] if i + 1 < len(pack) else 0
        seats = sorted(state, key=lambda rs: rs[0] - rs[1] * below, reverse=True)
        given: list[tuple[int, int]] = []

        def hand_out(j: int, left: int) -> bool:
            if j == len(seats):
                return go(i + 1, tuple(sorted(given)))
            r, s = seats[j]
            over = r - s * below
            fewest_here = -(-over // (v - below)) if over > 0 else 0
            for k in range(min(s, r // v, left), fewest_here - 1, -1):
                given.append((r - k * v, s - k))
                if hand_out(j + 1, left - k):
                    return True
                given.pop()
            return False

        if hand_out(0, count):
            return True
        failed.add((i, state))
        return False

    if _greedy(pack, zeros, most, fewest, totals):
        return True
    try:
        return go(0, tuple(sorted((t, most) for t in totals)))
    except _OutOfSteps:
        return True


def _greedy(pack: Sequence[tuple[int, int]], zeros: int, most: int, fewest: int, totals: Sequence[int]) -> bool:
    """A quick first try: the heaviest totals first, each from the heaviest cards that
    still leave it completable. True proves the totals fit (most real shows do)."""
    left = {v: c for v, c in pack}
    zeros_left = zeros
    for total in sorted(totals, reverse=True):
        r, slots, held = total, most, 0
        while r > 0:
            heaviest_left = max((v for v, c in left.items() if c > 0), default=0)
            pick = next((v for v, c in left.items() if c > 0 and v <= r and r - v <= (slots - 1) * heaviest_left), None)
            if pick is None or slots == 0:
                return False
            left[pick] -= 1
            r -= pick
            slots -= 1
            held += 1
        if held < fewest:
            if zeros_left < fewest - held:
                return False
            zeros_left -= fewest - held
    return True


# -- reading what a table typed ----------------------------------------------------------


def read_total(value: object, seat: int) -> int:
    """One seat's total: a whole number (``12``, ``"12"``, Devanagari digits too)."""
    if isinstance(value, bool):
        raise TallyError("not-a-total", seat=seat, text=str(value))
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip().translate(str.maketrans("०१२३४५६७८९−", "0123456789-"))
        if text.lstrip("-").isascii() and text.lstrip("-").isdigit() and len(text) <= 7:
            return int(text)
        raise TallyError("not-a-total", seat=seat, text=value.strip()[:20])
    raise TallyError("not-a-total", seat=seat, text=str(value)[:20])


def hand_totals(profile: Profile, hands: Sequence[int | Sequence[C.Card] | None]) -> list[int | None]:
    """Each seat's total, from a total or the seat's cards (``None``: a player who is out),
    checked one by one and then together (see the module docstring)."""
    low, high = hand_range(profile)
    totals: list[int | None] = []
    seen: dict[C.Card, int] = {}
    deck = set(C.full_deck(jokers=profile.jokers))
    for seat, hand in enumerate(hands):
        if hand is None:
            totals.append(None)
            continue
        if isinstance(hand, (list, tuple)):
            for card in hand:
                if not isinstance(card, int) or isinstance(card, bool) or card not in deck:
                    raise TallyError("bad-card", seat=seat, text=C.card_text(card) if isinstance(card, int) and 0 <= card < C.DECK_MAX else str(card)[:12])
                if card in seen:
                    raise TallyError("card-twice", card=C.card_text(card))
                seen[card] = seat
            if len(hand) > profile.hand_size:
                raise TallyError("too-many-cards", seat=seat, count=len(hand), max=profile.hand_size)
            if len(hand) < fewest_cards(profile):
                raise TallyError("empty-hand", seat=seat)
            totals.append(sum(profile.value(c) for c in hand))
            continue
        total = read_total(hand, seat)
        if total < 0:
            raise TallyError("negative", seat=seat)
        if total > high:
            raise TallyError("too-high", seat=seat, total=total, max=high, cards=profile.hand_size)
        if total < low:
            raise TallyError("too-low", seat=seat, min=low)
        totals.append(total)
    if not seen and not pack_can_hold(profile, [t for t in totals if t is not None]):
        raise TallyError("impossible")
    return totals


def check_call(profile: Profile, totals: Sequence[int | None], caller: int | None) -> None:
    """A call within the profile's limit, or no call only where a turn cap ends a deal."""
    if caller is None:
        if profile.turn_cap is None:
            raise TallyError("no-cap")
        return
    total = totals[caller]
    if total is None:
        raise TallyError("caller-out", seat=caller)
    if profile.call_limit is not None and total > profile.call_limit:
        raise TallyError("over-limit", seat=caller, total=total, limit=profile.call_limit)


# -- one deal into a match ----------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """One deal booked into a match: its settled ``outcome`` (in deal seats, mapped to
    match seats by ``seating``) and the match after it. Every other field is in match seats."""

    profile: Profile
    number: int  # the deal's number in the match, from 1
    dealer: int
    caller: int | None
    seating: tuple[int, ...]
    outcome: Outcome
    before: tuple[int, ...]
    after: tuple[int, ...]
    eliminated: tuple[int, ...]  # every seat out after this deal, in the order they went out
    newly: tuple[int, ...]  # the seats this deal put out

    @property
    def players(self) -> int:
        return len(self.before)

    def row(self, values: Sequence[int]) -> tuple[int | None, ...]:
        """A row of the outcome (deal seats) by match seat, ``None`` for a player who was out."""
        out: list[int | None] = [None] * self.players
        for i, seat in enumerate(self.seating):
            out[seat] = values[i]
        return tuple(out)

    def seat_of(self, deal_seat: int | None) -> int | None:
        return None if deal_seat is None else self.seating[deal_seat]

    @property
    def winner(self) -> int | None:
        return self.seat_of(self.outcome.winner)

    def money(self) -> tuple[str | None, ...] | None:
        """Each seat's payment in money at the profile's rate (dashain), as text, to the
        cent and still adding up to zero (:func:`money_split`)."""
        rate = self.profile.money_per_point
        if rate is None:
            return None
        row = self.row(self.outcome.paid)
        split = iter(money_split([v for v in row if v is not None], rate))
        return tuple(None if v is None else next(split) for v in row)

    def messages(self) -> list[Message]:
        """How the deal ended, in the engine's words (the table's: who called, caught by whom,
        who wins), seats as match seats; then each player this deal put out."""
        events = []
        for m in outcome_messages(self.outcome, self.profile.turn_cap or 0):
            params = {k: (self.seating[v] if k in ("seat", "catcher", "winner") and isinstance(v, int) else v)
                      for k, v in m.params.items()}
            events.append(Message(m.code, params))
        return events + [Message("eliminated", {"seat": s, "score": self.after[s]}) for s in self.newly]

    def reasons(self, lang: str, names: Sequence[str] | None = None) -> list[tuple[int, str]]:
        """Why each player in the deal took, paid or scored what it did: (match seat, one line)."""
        t = translator(lang)
        # the parts' separator in the language's typography ("…donneur ; compte 0" in French)
        separator = t.raw(REASONS_SEPARATOR)
        return [(self.seating[i], separator.join(t(msgid, **params) for msgid, params in parts))
                for i, parts in enumerate(_reasons(self, names, lang))]

    def to_json(self) -> dict[str, Any]:
        o = self.outcome
        return {
            "profile": self.profile.canonical(),
            "deal": self.number,
            "players": self.players,
            "dealer": self.dealer,
            "caller": self.caller,
            "reason": o.reason,
            "caught": o.caught if self.caller is not None else None,
            "winner": self.winner,
            "hands": list(self.row(o.hands)),
            "took": list(self.row(o.took)),
            "paid": list(self.row(o.paid)),
            "points": list(self.row(o.points)),
            "penalty": o.penalty,
            "money": None if self.money() is None else list(self.money() or ()),
            "scores_before": list(self.before),
            "scores": list(self.after),
            "eliminated": list(self.eliminated),
            "newly_eliminated": list(self.newly),
        }


def tally_next(match: Match, caller: int | None, hands: Sequence[int | Sequence[C.Card] | None],
               *, number: int | None = None) -> Tally:
    """Check the next deal of ``match`` as a table typed it and book it: ``hands`` has one
    entry per match seat (a total, the cards, or ``None`` for a player who is out).
    Raises :class:`TallyError` (``deal`` set to ``number``) and books nothing on bad input."""
    p = match.profile
    n = match.players
    deal_no = len(match.deals) + 1 if number is None else number
    try:
        if match.is_over():
            raise TallyError("match-over")
        active = match.active()
        if len(hands) != n:
            raise TallyError("count", players=n, count=len(hands))
        for seat in range(n):
            if seat in active and hands[seat] is None:
                raise TallyError("missing", seat=seat)
            if seat not in active and hands[seat] is not None:
                code = "away" if seat in match.away else "caller-out" if caller == seat else "score-out"
                raise TallyError(code, seat=seat, score=match.scores[seat])
        if caller is not None and not (isinstance(caller, int) and 0 <= caller < n):
            raise TallyError("bad-caller", number=caller)
        if caller is not None and caller not in active:
            raise TallyError("caller-out", seat=caller)
        totals = hand_totals(p, hands)
        check_call(p, totals, caller)
    except TallyError as exc:
        exc.deal = deal_no
        raise
    before = tuple(match.scores)
    was_out = set(match.eliminated)
    dealer = match.next_dealer()
    match.book_elsewhere(totals, caller)
    return Tally(p, deal_no, dealer, caller, tuple(match.seating), match.deals[-1], before,
                 tuple(match.scores), tuple(match.eliminated), tuple(s for s in match.eliminated if s not in was_out))


def settle_deal(profile: Profile, dealer: int, caller: int | None,
                hands: Sequence[int | Sequence[C.Card] | None], scores: Sequence[int] | None = None) -> Tally:
    """Settle one deal played with real cards: ``profile`` with its house rules, the
    ``dealer`` and the ``caller`` (seats from 0, clockwise as the players sit; ``None``:
    nobody called), each seat's hand as a total or as its cards, or ``None`` for a
    player already out of the match (where the rules put players out: CardRulesPlus),
    and the running ``scores`` before the deal (all 0 when not given; a player out may
    have any). Every other seat plays the deal. Exactly the settlement of a deal the
    engine plays (see the module docstring), as on a score sheet with those players out."""
    n = len(hands)
    spec = profile.spec("players")
    if not spec.low <= n <= spec.high:
        raise TallyError("players", low=spec.low, high=spec.high, count=n)
    if profile.players != n:
        try:
            profile = profile.with_options(players=n)
        except ProfileError:  # pragma: no cover - the range is checked just above
            raise TallyError("players", low=spec.low, high=spec.high, count=n) from None
    if not (isinstance(dealer, int) and 0 <= dealer < n):
        raise TallyError("bad-dealer", number=dealer)
    if caller is not None and not (isinstance(caller, int) and 0 <= caller < n):
        raise TallyError("bad-caller", number=caller)
    out = [seat for seat, hand in enumerate(hands) if hand is None]
    if dealer in out:
        raise TallyError("out-dealer", seat=dealer)
    if n - len(out) < 2:
        raise TallyError("out-all")
    start: list[int] = [0] * n if scores is None else [int(x) for x in scores]
    if len(start) != n:
        raise TallyError("scores-count", players=n, count=len(start))
    for seat, score in enumerate(start):
        if seat in out:
            continue
        if not -MAX_SCORE <= score <= MAX_SCORE:
            raise TallyError("score-range", seat=seat, max=MAX_SCORE)
        if profile.settlement == "cumulative" and score < 0:
            raise TallyError("score-negative", seat=seat)
        if profile.elimination is not None and score >= profile.elimination:
            raise TallyError("score-out", seat=seat, score=score)
    ledger = sum(start, 0)
    if profile.settlement != "cumulative" and ledger:
        raise TallyError("ledger-sum", sum=ledger, zero=0)
    if profile.elimination is None:  # nobody is put out here: a seat without a hand is away from the table
        match = Match(profile, first_dealer=dealer, scores=start, away=set(out))
    else:
        match = Match(profile, first_dealer=dealer, scores=start, eliminated=out)
    return tally_next(match, caller, list(hands))


# -- why each seat took what it did ---------------------------------------------------------

# What happened to the seat (the first part of its line) ...
CALLED_LOWEST: Final = N_("called on {total}, strictly lower than every other hand")
CAUGHT_TIE: Final = N_("caught: {total} against {low} — a tie goes against the caller")
CAUGHT_UNDER: Final = N_("caught: {low} is under the call on {total}")
LOWEST: Final = N_("the lowest hand, {total}")
LOWEST_OTHER: Final = N_("the lowest hand apart from the caller's, {total}")
TIE_WON_DEALER: Final = N_("ties for the lowest hand on {total} and comes first counting from the dealer's left")
TIE_LOST_DEALER: Final = N_("ties for the lowest hand on {total}, but {winner} comes first counting from the dealer's left")
TIE_WON_CALLER: Final = N_("ties for the lowest hand on {total} and comes first counting on from the caller")
TIE_LOST_CALLER: Final = N_("ties for the lowest hand on {total}, but {winner} comes first counting on from the caller")
# ... and what it costs or brings, by the profile's settlement.
TAKES_ZERO_COLLECTS: Final = N_("takes {zero} and collects {sum}")
TAKES_PENALTY: Final = N_("takes the penalty, {penalty}, in place of the hand")
TAKES_HAND_PAYS: Final = N_("takes the hand, {total}, and pays it to {winner}")
COLLECTS_FROM_ALL: Final = N_("every other player pays their own hand: {sum} in all")
PAYS_HAND_TO: Final = N_("pays {winner} the hand, {total}")
PAYS_EVERY_HAND: Final = N_("pays {winner} every other hand, the caller's own included: {sum}")
COLLECTS_FROM_CALLER: Final = N_("collects {sum}, all of it from the caller")
PAYS_NOTHING: Final = N_("pays and receives nothing: only the caller pays")
SCORES_ZERO: Final = N_("scores {zero}")
SCORES_PENALTY: Final = N_("scores the penalty, {penalty}")
SCORES_DOUBLE: Final = N_("undercut by more than {margin}: scores the double penalty, {penalty}")
ADDS_HAND: Final = N_("adds the hand, {total}")
SCORES_ZERO_CAUGHT: Final = N_("scores {zero}: only the caller is penalised")
OUT_AT: Final = N_("reaches {score} and is out of the match")

Part = tuple[str, dict[str, object]]


def _reasons(tally: Tally, names: Sequence[str] | None, lang: str) -> list[list[Part]]:
    """Each deal seat's line as translatable parts, from the settled outcome alone."""
    o = tally.outcome
    p = tally.profile
    n = len(o.hands)
    hands = o.hands
    caller = o.caller
    winner = o.winner

    def name(deal_seat: int | None) -> str:
        return seat_name(tally.seating[deal_seat], names, lang) if deal_seat is not None else ""

    # the seats tied with the winner on the lowest total, apart from the caller
    tied = [s for s in range(n) if winner is not None and s != caller and hands[s] == hands[winner]]
    by_dealer = p.tie_order == "dealer-left" or o.reason == "cap"
    lines: list[list[Part]] = []
    for s in range(n):
        h = hands[s]
        parts: list[Part] = []
        if s == caller:
            low = min(hands[x] for x in range(n) if x != s)
            if not o.caught:
                parts.append((CALLED_LOWEST, {"total": h}))
            elif low == h:
                parts.append((CAUGHT_TIE, {"total": h, "low": low}))
            else:
                parts.append((CAUGHT_UNDER, {"total": h, "low": low}))
        elif s == winner:
            if len(tied) > 1:
                parts.append((TIE_WON_DEALER if by_dealer else TIE_WON_CALLER, {"total": h}))
            else:
                parts.append((LOWEST_OTHER if caller is not None else LOWEST, {"total": h}))
        elif s in tied:
            parts.append((TIE_LOST_DEALER if by_dealer else TIE_LOST_CALLER, {"total": h, "winner": name(winner)}))
        if p.settlement == "collect":
            if s == winner:
                parts.append((TAKES_ZERO_COLLECTS, {"sum": o.paid[s], "zero": 0}))
            elif s == caller:
                parts.append((TAKES_PENALTY, {"penalty": o.took[s]}))
            else:
                parts.append((TAKES_HAND_PAYS, {"total": o.took[s], "winner": name(winner)}))
        elif p.settlement == "pay-caller":
            if s == caller and not o.caught:
                parts.append((COLLECTS_FROM_ALL, {"sum": o.paid[s]}))
            elif s == caller:
                parts.append((PAYS_EVERY_HAND, {"winner": name(winner), "sum": -o.paid[s]}))
            elif s == winner:
                parts.append((COLLECTS_FROM_CALLER, {"sum": o.paid[s]}))
            elif not o.caught:
                parts.append((PAYS_HAND_TO, {"winner": name(caller), "total": -o.paid[s]}))
            else:
                parts.append((PAYS_NOTHING, {}))
        else:
            if s == caller and not o.caught:
                parts.append((SCORES_ZERO, {"zero": 0}))
            elif s == caller:
                double = p.double_penalty and o.penalty == DOUBLE_PENALTY
                parts.append((SCORES_DOUBLE, {"penalty": o.points[s], "margin": DOUBLE_MARGIN}) if double
                             else (SCORES_PENALTY, {"penalty": o.points[s]}))
            elif not o.caught:
                parts.append((ADDS_HAND, {"total": o.points[s]}))
            else:
                parts.append((SCORES_ZERO_CAUGHT, {"zero": 0}))
        seat = tally.seating[s]
        if seat in tally.newly:
            parts.append((OUT_AT, {"score": tally.after[seat]}))
        lines.append(parts)
    return lines
