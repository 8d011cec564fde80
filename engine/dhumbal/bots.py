"""Computer players: easy, medium and hard.

A bot sees only what its seat may see: its own hand, the pile or offer, the
public card counts and the cards others were seen to pick. The three levels
differ as the app's table settings describe: an easy bot calls on the limit
itself, a medium bot 1 under it, a hard bot 2 under it; the hard bot also
remembers public picks, calls earlier when every opponent is provably heavier,
and throws with a look at what it will keep. Bots are deterministic: the same
position gives the same move, so seeded games replay exactly.
"""

from __future__ import annotations

import random
from typing import Final, Literal, Sequence

from .cards import Card
from .deal import Action, Deal

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: Final = ("easy", "medium", "hard")
MARGIN: Final = {"easy": 0, "medium": 1, "hard": 2}
# Call thresholds where a profile has no call limit (cardrulesplus).
NO_LIMIT_CALL: Final = {"easy": 7, "medium": 5, "hard": 4}
# Past this many turns in a profile with no turn cap, a bot plays to end the deal:
# it calls on any legal total, throws its biggest group and picks cards that pair
# up, so hands shrink; past twice as many it draws blind, so no seeded deal can
# circle for ever.
PATIENCE: Final = 120


def choose(deal: Deal, difficulty: Difficulty = "medium") -> Action:
    """The bot's action for the seat on turn."""
    if deal.is_over:
        raise ValueError("the deal is over")
    seat = deal.turn
    p = deal.profile
    if deal.phase == "start" and _wants_call(deal, seat, difficulty):
        return Action.call()
    closing = p.turn_cap is None and deal.turns >= PATIENCE
    if p.draw_first:
        if deal.phase == "start":
            return _take_draw_first(deal, seat, difficulty)
        return _throw_most(deal, seat) if closing else _throw(deal, seat, difficulty)
    if deal.phase == "start":
        return _throw_most(deal, seat) if closing else _throw(deal, seat, difficulty)
    return _pick_closing(deal, seat) if closing else _pick(deal, seat, difficulty)


def _wants_call(deal: Deal, seat: int, difficulty: Difficulty) -> bool:
    p = deal.profile
    total = deal.total(seat)
    if p.turn_cap is None and deal.turns >= PATIENCE:
        wants = True
    else:
        threshold = NO_LIMIT_CALL[difficulty] if p.call_limit is None else p.call_limit - MARGIN[difficulty]
        wants = total <= threshold
        if not wants and difficulty == "hard" and (p.call_limit is None or total <= p.call_limit):
            wants = all(_lower_bound(deal, s) > total for s in range(deal.players) if s != seat)
    return wants and deal.is_legal(Action.call())


def _lower_bound(deal: Deal, seat: int) -> int:
    """The least a seat's hand can be worth, from its card count and its public picks."""
    p = deal.profile
    known = deal.known[seat]
    unknown = len(deal.hands[seat]) - len(known)
    least = 0 if (p.jokers or min(p.courts) == 0) else 1
    return sum(p.value(c) for c in known) + unknown * least


def _mean_unseen(deal: Deal) -> float:
    p = deal.profile
    values = [p.value(c) for c in range(p.deck_size)]
    return sum(values) / len(values)


def _take_draw_first(deal: Deal, seat: int, difficulty: Difficulty) -> Action:
    hand = deal.hands[seat]
    top = deal.pile_top
    if top is None or not hand:
        return Action.take_stock() if deal.can_draw_stock() else Action.take_pile()
    p = deal.profile
    v = p.value(top)
    pairs = top < 52 and any(c < 52 and c % 13 == top % 13 for c in hand)
    if difficulty == "easy":
        take = v <= 1
    elif difficulty == "medium":
        take = v <= 2 or (pairs and v <= 5)
    else:
        take = v <= 3 or (pairs and v < _mean_unseen(deal))
    if not deal.can_draw_stock():
        take = True
    return Action.take_pile() if take else Action.take_stock()


def _group_value(deal: Deal, group: Sequence[Card]) -> int:
    v = deal.profile.values
    return sum([v[c] for c in group])


def _throw(deal: Deal, seat: int, difficulty: Difficulty) -> Action:
    hand = deal.hands[seat]
    barred = deal.took_from_pile
    p = deal.profile
    if difficulty != "hard" and not p.runs and not p.jokers:
        return Action.throw(*_heaviest_rank_group(hand, barred, p.set_max if difficulty == "medium" else 2, p.values))
    else:
        groups = [g for g in deal.valid_groups(hand) if barred is None or barred not in g]
    if not deal.profile.draw_first:
        groups = [g for g in groups if deal.is_legal(Action.throw(*g))]
    if difficulty == "easy":
        best = max(groups, key=lambda g: (_group_value(deal, g) if len(g) == 1 or len(g) == 2 else 0, -len(g), [-c for c in g]))
    elif difficulty == "medium":
        best = max(groups, key=lambda g: (_group_value(deal, g), len(g), [-c for c in g]))
    else:
        best = max(groups, key=lambda g: (_lookahead(deal, hand, g), len(g), [-c for c in g]))
    if deal.profile.draw_first and len(best) > 1:
        # the last card becomes the pile top: leave the next player the least useful card
        v = deal.profile.value
        best = tuple(sorted(best, key=lambda c: (v(c), -c)))
        if difficulty != "hard":
            best = tuple(sorted(best))
    return Action.throw(*best)


def _heaviest_rank_group(hand: Sequence[Card], barred: Card | None, cap: int | None, values: Sequence[int]) -> list[Card]:
    """The cards of one rank worth most together (at most ``cap`` of them), in pack order.

    Without runs or jokers every legal throw is some cards of one rank, and
    throwing all of a rank always sheds more than throwing part of it, so a
    greedy bot needs to look at nothing else.
    """
    by_rank: dict[int, list[Card]] = {}
    for c in hand:
        if c != barred:
            group = by_rank.get(c % 13)
            if group is None:
                by_rank[c % 13] = [c]
            else:
                group.append(c)
    best: list[Card] = []
    best_key = (-1, 0, 0)
    for cs in by_rank.values():
        n = len(cs)
        if cap is not None and n > cap:
            cs = sorted(cs)[:cap]
            n = cap
        low = min(cs) if n > 1 else cs[0]
        key = (values[low] * n, n, -low)
        if key > best_key:
            best_key, best = key, cs
    return sorted(best)


def _lookahead(deal: Deal, hand: Sequence[Card], group: Sequence[Card]) -> float:
    rest = [c for c in hand if c not in group]
    now = _group_value(deal, group)
    if not rest:
        return now + 0.1
    later = max(_group_value(deal, g) for g in deal.valid_groups(rest))
    return now + 0.5 * later - 0.2 * max(0, len(rest) - 1)


def _throw_most(deal: Deal, seat: int) -> Action:
    """The group with the most cards (then the most points): the hand shrinks fastest.

    With no group of two or more, which single card goes is drawn from a
    random source seeded by the deal and the turn (so replays stay exact):
    always keeping the lightest card can leave every hand holding one ace
    beside a card it never pairs, and the deal would circle for ever.
    """
    hand = deal.hands[seat]
    barred = deal.took_from_pile
    groups = [g for g in deal.valid_groups(hand) if barred is None or barred not in g]
    if not deal.profile.draw_first:
        groups = [g for g in groups if deal.is_legal(Action.throw(*g))]
    best = max(groups, key=lambda g: (len(g), _group_value(deal, g), [-c for c in g]))
    if len(best) == 1 and len(groups) > 1:
        rng = random.Random(f"dhumbal/bot/{deal.seed}/{deal.turns}/{seat}")
        best = rng.choice(sorted(groups))
    return Action.throw(*best)


def _pick_closing(deal: Deal, seat: int) -> Action:
    """Late in a deal: a card that pairs with the hand, else the lightest one; blind after 2 x PATIENCE."""
    options = [a for a in deal.legal_actions() if a.kind == "take" and a.source == "pile"]
    stock_ok = deal.can_draw_stock()
    if options and (deal.turns < 2 * PATIENCE or not stock_ok):
        hand = deal.hands[seat]
        v = deal.profile.values
        pairing = [a for a in options if any(c < 52 and a.cards[0] < 52 and c % 13 == a.cards[0] % 13 for c in hand)]
        pool = pairing or options
        best = min(pool, key=lambda a: (v[a.cards[0]], a.cards[0]))
        if pairing or v[best.cards[0]] <= 5 or not stock_ok:
            return best
    return Action.take_stock()


def _pick(deal: Deal, seat: int, difficulty: Difficulty) -> Action:
    hand = [c for c in deal.hands[seat]]
    options = [a for a in deal.legal_actions() if a.kind == "take" and a.source == "pile"]
    stock_ok = deal.can_draw_stock()
    if options:
        p = deal.profile
        v = p.value
        best = min(options, key=lambda a: (v(a.cards[0]), a.cards[0]))
        card = best.cards[0]
        pairs = card < 52 and any(c < 52 and c % 13 == card % 13 for c in hand)
        limit = {"easy": 1, "medium": 3, "hard": 4}[difficulty]
        if v(card) <= limit or (difficulty != "easy" and pairs and v(card) <= 6) or not stock_ok:
            return best
    return Action.take_stock()


def play_deal(deal: Deal, difficulty: Difficulty | Sequence[Difficulty] = "medium", *, max_actions: int = 20000) -> Deal:
    """Let bots play ``deal`` to its end (a bound guards against a runaway deal)."""
    levels = [difficulty] * deal.players if isinstance(difficulty, str) else list(difficulty)
    for _ in range(max_actions):
        if deal.is_over:
            return deal
        deal.apply(choose(deal, levels[deal.turn]))
    raise RuntimeError(f"deal did not end within {max_actions} actions")
