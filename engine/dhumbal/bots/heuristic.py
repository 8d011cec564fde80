"""The heuristic bots: the easy, medium and hard levels, each a fixed rule of thumb.

A bot sees only what its seat may see: its own hand, the pile or offer, the
public card counts and the cards others were seen to pick. The three levels
differ as the app's table settings describe: an easy bot calls on the limit
itself, a medium bot 1 under it, a hard bot 2 under it; the hard bot also
remembers public picks, calls earlier when every opponent is provably heavier,
and throws with a look at what it will keep. The expert (its own module,
:mod:`dhumbal.bots.expert`, which builds on these) weighs sampled deals consistent
with what it has seen; :mod:`dhumbal.bots.botlevels` names every level and hands
each move to the module that plays it. Bots are deterministic: the same
position gives the same move, so seeded games replay exactly.

One more bot plays only in mixed tables (``simulate --bots``, :mod:`dhumbal.lab.arena`),
as a yardstick: :func:`aggressive`, the champion agent of the published study of
Dhumbal agents (arXiv 2510.11736, "AI Agents for the Dhumbal Card Game"),
written here from its description: it calls the moment a call is legal, and
otherwise throws its heaviest legal group, taking a light face-up card
(:data:`LIGHT`) when it can.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, Literal

from ..core.cards import Card
from ..play.deal import Action, Deal
from ..play.groups import best_group_value, heaviest_group

#: The levels played here (every level, the expert included, is in :mod:`dhumbal.bots.botlevels`).
Level = Literal["easy", "medium", "hard"]
LEVELS: Final = ("easy", "medium", "hard")
#: The heaviest face-up card the aggressive reference bot takes (the lightest of the
#: cards on offer, when it is worth this much or less); otherwise it draws blind.
LIGHT: Final = 5
MARGIN: Final = {"easy": 0, "medium": 1, "hard": 2}
# Call thresholds where a profile has no call limit (cardrulesplus).
NO_LIMIT_CALL: Final = {"easy": 7, "medium": 5, "hard": 4}
# Past this many turns in a profile with no turn cap, a bot plays to end the deal:
# it calls on any legal total, throws its biggest group and picks cards that pair
# up, so hands shrink; past twice as many it draws blind, so no seeded deal can
# circle for ever.
PATIENCE: Final = 120
# A pile card worth this much or less is always worth picking (throw-first profiles).
PICK_UP_TO: Final = {"easy": 1, "medium": 3, "hard": 4}


# The most groups a hard bot weighs in one decision. A hand a real deal can reach
# holds far fewer (a few dozen at most); only a state built by hand could hold
# more, and then the bot weighs the groups that shed most at once.
SEARCH_BUDGET: Final = 2_000

_CALL: Final = Action.call()
_TAKE_STOCK: Final = Action.take_stock()
_TAKE_PILE: Final = Action.take_pile()


def choose(deal: Deal, difficulty: Level = "medium") -> Action:
    """The bot's action for the seat on turn: always one of ``deal.legal_actions()``.

    The common steps are written out here rather than in helpers: bots play
    hundreds of thousands of moves a second in simulations, and a Python call
    is a large share of a move.
    """
    phase = deal.phase
    seat = deal.turn
    p = deal.profile
    closing = p.turn_cap is None and deal.turns >= PATIENCE
    if phase == "start":
        # call when the hand is low enough for this level (or, late, at all), if the rules allow
        values = p.values
        hand = deal.hands[seat]
        total = sum([values[c] for c in hand])
        limit = p.call_limit
        if closing or total <= (NO_LIMIT_CALL[difficulty] if limit is None else limit - MARGIN[difficulty]):
            if deal.can_call():
                return _CALL
        elif difficulty == "hard" and (limit is None or total <= limit) and _provably_lowest(deal, seat, total):
            if deal.can_call():
                return _CALL
        if p.draw_first:
            # take the pile top when it is light (or pairs up), else draw blind
            pile = deal.pile
            if not pile or not hand:
                # with no pile card this seat could throw back, draw; failing that, calling is all that is left
                return _TAKE_STOCK if deal.can_draw_stock() else _CALL
            top = pile[-1]
            v = values[top]
            if difficulty == "medium":
                take = v <= 2 or (v <= 5 and _pairs(top, hand))
            elif difficulty == "easy":
                take = v <= 1
            else:
                take = v <= 3 or (_pairs(top, hand) and _below_mean(deal, v))
            return _TAKE_PILE if take or not deal.can_draw_stock() else _TAKE_STOCK
    elif phase == "over":
        raise ValueError("the deal is over")
    if phase == "take":  # throw-first: the pick after the throw
        return _pick_closing(deal, seat) if closing else _pick(deal, seat, difficulty)
    if closing:
        return _throw_most(deal, seat)
    if difficulty != "hard" and not p.runs and not p.jokers:
        # every legal throw is cards of one rank: the heaviest such group is the choice
        cap = p.set_max if difficulty == "medium" else 2
        return Action.throw(*_heaviest_rank_group(deal.hands[seat], deal.took_from_pile, cap, p.values))
    return _throw(deal, seat, difficulty)


def policy(difficulty: Level = "medium") -> Callable[[Deal], Action]:
    """``choose`` at one level, as a policy for :func:`dhumbal.play.playout.play_out` (one shared function per level)."""
    return _POLICIES[difficulty]


def _policy(difficulty: Level) -> Callable[[Deal], Action]:
    def play(deal: Deal) -> Action:
        return choose(deal, difficulty)

    return play


def aggressive(deal: Deal) -> Action:
    """The reference bot's move (arXiv 2510.11736's "Aggressive" agent, from its description).

    Two rules, nothing else: **call** the moment a call is legal; otherwise
    **throw the heaviest legal group** (the most points, then the most cards,
    then the lowest cards), and where a card is taken, take the lightest
    face-up card on offer if it is worth at most :data:`LIGHT`, else draw from
    the stock. It keeps no memory and makes no guess about the other hands.
    Where the rules leave it no such move (no stock to draw from, no throw that
    lets its turn finish), it makes the only move left. Like every level, past
    twice :data:`PATIENCE` turns of a deal with no turn cap it draws blind
    whenever it can, so no deal circles for ever (two of it under a call limit
    it cannot reach would otherwise trade the same light cards without end);
    no measured deal comes near that length.
    """
    phase = deal.phase
    p = deal.profile
    if phase == "over":
        raise ValueError("the deal is over")
    if phase == "start" and deal.can_call():
        return _CALL
    values = p.values
    if phase == ("start" if p.draw_first else "take"):
        if p.take_rule == "pile-top":
            on_offer = [deal.pile[-1]] if deal.pile and deal.hands[deal.turn] else []
        else:
            on_offer = deal.pickable()
        light = min(on_offer, key=lambda c: (values[c], c)) if on_offer else None
        if light is not None and p.turn_cap is None and deal.turns >= 2 * PATIENCE and deal.can_draw_stock():
            light = None  # a very long deal: draw blind (see above)
        if light is not None and (values[light] <= LIGHT or not deal.can_draw_stock()):
            return _TAKE_PILE if p.take_rule == "pile-top" else Action.take_pile(light)
        return _TAKE_STOCK if deal.can_draw_stock() else _CALL
    groups = deal.legal_groups()
    if not groups:
        return _CALL  # no throw lets the turn finish: only a call is left
    best = max(groups, key=lambda g: (sum([values[c] for c in g]), len(g), [-c for c in g]))
    return Action.throw(*best)


# the medium level is ``choose`` itself (its default), which saves a call per move
_POLICIES: Final[dict[str, Callable[[Deal], Action]]] = {
    "easy": _policy("easy"), "medium": choose, "hard": _policy("hard"),
}


def _provably_lowest(deal: Deal, seat: int, total: int) -> bool:
    """Whether every other hand is worth more than ``total`` for certain (the hard bot's early call)."""
    return all(_lower_bound(deal, s) > total for s in range(deal.players) if s != seat)


def _lower_bound(deal: Deal, seat: int) -> int:
    """The least a seat's hand can be worth, from its card count and its public picks."""
    p = deal.profile
    known = deal.known[seat]
    unknown = len(deal.hands[seat]) - len(known)
    least = 0 if (p.jokers or min(p.courts) == 0) else 1
    return sum(p.value(c) for c in known) + unknown * least


def _below_mean(deal: Deal, v: int) -> bool:
    """Whether a card worth ``v`` is worth less than the pack's mean card (whole numbers only)."""
    p = deal.profile
    values = [p.value(c) for c in range(p.deck_size)]
    return v * len(values) < sum(values)


def _pairs(card: Card, hand: Sequence[Card]) -> bool:
    """Whether ``card`` has the rank of a card in ``hand`` (jokers pair with nothing)."""
    if card >= 52:
        return False
    rank = card % 13
    for c in hand:
        if c < 52 and c % 13 == rank:
            return True
    return False


def _group_value(deal: Deal, group: Sequence[Card]) -> int:
    v = deal.profile.values
    return sum([v[c] for c in group])


def _throw(deal: Deal, seat: int, difficulty: Level) -> Action:
    """The throw of a level (``choose`` has already answered for easy and medium bots
    in profiles without runs or jokers)."""
    hand = deal.hands[seat]
    barred = deal.took_from_pile
    p = deal.profile
    if difficulty == "medium" and not p.jokers and (p.draw_first or deal.stock or deal.pickable()):
        # exactly the maximum below, found without listing every group
        best = heaviest_group(p, [c for c in hand if c != barred] if barred is not None else hand)
    else:
        groups = deal.legal_groups()
        if not groups:
            return _CALL  # no throw lets the turn finish: only a call is left
        if difficulty == "easy":
            best = max(groups, key=lambda g: (_group_value(deal, g) if len(g) == 1 or len(g) == 2 else 0, -len(g), [-c for c in g]))
        elif difficulty == "medium":
            best = max(groups, key=lambda g: (_group_value(deal, g), len(g), [-c for c in g]))
        else:
            if len(groups) > SEARCH_BUDGET:
                groups = sorted(groups, key=lambda g: (-_group_value(deal, g), -len(g), g))[:SEARCH_BUDGET]
            best = max(groups, key=lambda g: (_lookahead(deal, hand, g), len(g), [-c for c in g]))
    if p.draw_first and len(best) > 1:
        # the last card becomes the pile top: leave the next player the least useful card
        if difficulty == "hard":
            v = p.value
            best = tuple(sorted(best, key=lambda c: (v(c), -c)))
        else:
            best = tuple(sorted(best))
    return Action.throw(*best)


def _heaviest_rank_group(hand: Sequence[Card], barred: Card | None, cap: int | None, values: Sequence[int]) -> list[Card]:
    """The cards of one rank worth most together (at most ``cap`` of them, the
    lowest), then the most cards, then the lowest card, in pack order.

    Without runs or jokers every legal throw is some cards of one rank, and
    throwing all of a rank always sheds more than throwing part of it, so a
    greedy bot needs to look at nothing else.
    """
    order = sorted(hand, key=_RANK_KEY)  # rank by rank, each in pack order
    if barred is not None:
        order.remove(barred)
    n = len(order)
    best_i = best_j = 0
    best_v = best_n = -1
    i = 0
    while i < n:
        rank = order[i] % 13
        j = i + 1
        while j < n and order[j] % 13 == rank:
            j += 1
        size = j - i if cap is None or j - i <= cap else cap
        v = values[order[i]] * size
        if v > best_v or (v == best_v and (size > best_n or (size == best_n and order[i] < order[best_i]))):
            best_v, best_n, best_i, best_j = v, size, i, i + size
        i = j
    return order[best_i:best_j]


_RANK_ORDER: Final = tuple((c % 13) * 64 + c if c < 52 else 13 * 64 + c for c in range(54))
_RANK_KEY: Final = _RANK_ORDER.__getitem__


def _lookahead(deal: Deal, hand: Sequence[Card], group: Sequence[Card]) -> int:
    """What throwing ``group`` sheds now, and half of the best throw it leaves for later,
    less a fifth of a point for each card kept past one: in tenths of a point, so every
    figure is a whole number (the same on every Python version)."""
    rest = [c for c in hand if c not in group]
    now = 10 * _group_value(deal, group)
    if not rest:
        return now + 1
    later = best_group_value(deal.profile, rest)
    return now + 5 * later - 2 * max(0, len(rest) - 1)


def _throw_most(deal: Deal, seat: int) -> Action:
    """The group with the most cards (then the most points): the hand shrinks fastest.

    With no group of two or more, which single card goes is drawn from a
    random source seeded by the deal and the turn (so replays stay exact):
    always keeping the lightest card can leave every hand holding one ace
    beside a card it never pairs, and the deal would circle for ever.
    """
    groups = deal.legal_groups()
    if not groups:
        return _CALL  # no throw lets the turn finish: only a call is left
    best = max(groups, key=lambda g: (len(g), _group_value(deal, g), [-c for c in g]))
    if len(best) == 1 and len(groups) > 1:
        rng = random.Random(f"dhumbal/bot/{deal.seed}/{deal.turns}/{seat}")
        best = sorted(groups)[_below(rng, len(groups))]
    return Action.throw(*best)


def _below(rng: random.Random, n: int) -> int:
    """A whole number in ``range(n)`` from ``rng``'s bits by rejection: the draws of
    ``rng.choice``, written out so no Python version's ``random`` internals matter."""
    bits = n.bit_length()
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r


def _pick_closing(deal: Deal, seat: int) -> Action:
    """Late in a deal: a card that pairs with the hand, else the lightest one; blind after 2 x PATIENCE."""
    options = sorted(deal.pickable())
    stock_ok = deal.can_draw_stock()
    if options and (deal.turns < 2 * PATIENCE or not stock_ok):
        hand = deal.hands[seat]
        v = deal.profile.values
        pairing = [c for c in options if _pairs(c, hand)]
        best = min(pairing or options, key=lambda c: (v[c], c))
        if pairing or v[best] <= 5 or not stock_ok:
            return Action.take_pile(best)
    return _TAKE_STOCK


def _pick(deal: Deal, seat: int, difficulty: Level) -> Action:
    options = deal.pickable()
    if options:
        v = deal.profile.values
        card = min(options, key=lambda c: (v[c], c))
        value = v[card]
        if value <= PICK_UP_TO[difficulty]:
            return Action.take_pile(card)
        if difficulty != "easy" and value <= 6 and _pairs(card, deal.hands[seat]):
            return Action.take_pile(card)
        if not deal.can_draw_stock():
            return Action.take_pile(card)
    return _TAKE_STOCK

