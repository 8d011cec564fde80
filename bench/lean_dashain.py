"""A lean reference loop: `dashain` played by four medium bots, with nothing else.

The engine's benchmark (``python -m dhumbal bench``) divides its `dashain`
rate by this loop's rate: how close the engine, with its checked and trusted
paths, its records and its readable structure, comes to a loop that only
plays. The loop follows the same rules and the same medium policy as
``dhumbal.bots.heuristic`` and deals the same cards from the same seeds, so it ends
every deal exactly as the engine does (``tests/engine/test_engine_lean_reference.py``
holds it to that); it keeps no history, checks nothing, builds no message
and writes no text.

    python -m bench.lean_dashain [--deals N]

Standard library only; it does not import the engine.
"""

from __future__ import annotations

import argparse
import random
import time

VALUES = tuple((c % 13 + 1) for c in range(52))  # A=1 .. 10, J=11, Q=12, K=13
HAND_SIZE = 5
LIMIT = 10  # the default call limit
CALL_AT = LIMIT - 1  # a medium bot calls 1 under the limit
PICK_UP_TO = 3  # a medium bot picks a card worth this much or less ...
PAIR_UP_TO = 6  # ... or one that pairs with its hand and is worth this much or less
PATIENCE = 120  # past this many turns the bots play to end the deal (as dhumbal.bots.heuristic)
SET_MAX = 4
BITS = tuple(n.bit_length() for n in range(55))


def shuffle(cards: list[int], seed: str) -> None:
    """``random.Random(seed).shuffle(cards)``, written out as the engine does."""
    getrandbits = random.Random(seed).getrandbits
    for i in range(len(cards) - 1, 0, -1):
        j = getrandbits(BITS[i + 1])
        while j > i:
            j = getrandbits(BITS[i + 1])
        cards[i], cards[j] = cards[j], cards[i]


def best_throw(hand: list[int]) -> list[int]:
    """The medium bot's throw: the group worth most, then the longest, then the lowest cards.

    A superset of a group is worth more, so only whole ranks (never more than
    four cards, the set limit) and maximal runs can be best.
    """
    hs = sorted(hand)
    n = len(hs)
    best: list[int] = []
    best_v = best_n = 0
    by_rank: dict[int, list[int]] = {}
    start = 0
    for i in range(n + 1):
        if i < n:
            c = hs[i]
            group = by_rank.get(c % 13)
            if group is None:
                by_rank[c % 13] = [c]
            else:
                group.append(c)
            if i and c == hs[i - 1] + 1 and c % 13:
                continue  # the run of consecutive ranks in one suit goes on
        if i - start >= 3:
            run = hs[start:i]
            v = sum([VALUES[c] for c in run])
            if v > best_v or (v == best_v and (i - start > best_n or (i - start == best_n and run < best))):
                best, best_v, best_n = run, v, i - start
        start = i
    for g in by_rank.values():
        v = VALUES[g[0]] * len(g)
        if v > best_v or (v == best_v and (len(g) > best_n or (len(g) == best_n and g < best))):
            best, best_v, best_n = g, v, len(g)
    return best


def closing_throw(hand: list[int], seed: str, turns: int, seat: int) -> list[int]:
    """Late in a deal: the biggest group; with none, a seeded choice (as ``bots._throw_most``)."""
    hs = sorted(hand)
    groups: list[tuple[int, ...]] = [(c,) for c in hs]
    by_rank: dict[int, list[int]] = {}
    by_suit: list[list[int]] = [[], [], [], []]
    for c in hs:
        by_rank.setdefault(c % 13, []).append(c)
        by_suit[c // 13].append(c)
    for cs in by_rank.values():
        for size in range(2, min(len(cs), SET_MAX) + 1):
            groups += _combinations(cs, size)
    for suited in by_suit:
        for i in range(len(suited)):
            j = i
            while j + 1 < len(suited) and suited[j + 1] == suited[j] + 1:
                j += 1
                if j - i >= 2:
                    groups.append(tuple(suited[i:j + 1]))
    best = max(groups, key=lambda g: (len(g), sum(VALUES[c] for c in g), [-c for c in g]))
    if len(best) == 1 and len(groups) > 1:
        rng = random.Random(f"dhumbal/bot/{seed}/{turns}/{seat}")
        best = rng.choice(sorted(set(groups)))
    return list(best)


def _combinations(cs: list[int], size: int) -> list[tuple[int, ...]]:
    if size == 0:
        return [()]
    if len(cs) < size:
        return []
    return [(cs[0],) + rest for rest in _combinations(cs[1:], size - 1)] + _combinations(cs[1:], size)


def kind_of(group: list[int]) -> str:
    if len(group) == 1:
        return "single"
    return "set" if group[0] % 13 == group[-1] % 13 else "run"


def play_deal(seed: str, dealer: int, players: int = 4) -> tuple[int, int | None, list[int]]:
    """One deal to its end: (turns, caller, each seat's payment)."""
    deck = list(range(52))
    shuffle(deck, f"dhumbal/deal/{seed}")
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(HAND_SIZE):
        for i in range(1, players + 1):
            hands[(dealer + i) % players].append(deck.pop())
    stock = deck
    pile = [stock.pop()]
    offer = 1  # the top `offer` cards of the pile are the previous throw
    kind = "single"
    turn = (dealer + 1) % players
    turns = reshuffles = 0
    while True:
        hand = hands[turn]
        total = sum([VALUES[c] for c in hand])
        closing = turns >= PATIENCE
        if (closing or total <= CALL_AT) and turns >= players and total <= LIMIT:
            break
        throw = closing_throw(hand, seed, turns, turn) if closing else best_throw(hand)
        for c in throw:
            hand.remove(c)
        # pick: a card of the previous throw (a run only at its ends), or the top of the stock
        shown = pile[-offer:]
        options = sorted(shown) if kind != "run" else [min(shown), max(shown)]
        stock_ok = bool(stock) or len(pile) > offer
        took = None
        if options:
            if closing:
                pairing = [c for c in options if any(h % 13 == c % 13 for h in hand)]
                card = min(pairing or options, key=lambda c: (VALUES[c], c))
                if (pairing or VALUES[card] <= 5 or not stock_ok) and (turns < 2 * PATIENCE or not stock_ok):
                    took = card
            else:
                card = min(options, key=lambda c: (VALUES[c], c))
                v = VALUES[card]
                if v <= PICK_UP_TO or not stock_ok or (v <= PAIR_UP_TO and any(h % 13 == card % 13 for h in hand)):
                    took = card
        if took is not None:
            pile.remove(took)
            hand.append(took)
        else:
            if not stock:  # the cards out of play become a new stock; the throw on offer stays
                pool = pile[:-offer]
                del pile[:-offer]
                reshuffles += 1
                shuffle(pool, f"dhumbal/reshuffle/{seed}/{reshuffles}")
                stock = pool
            hand.append(stock.pop())
        pile += throw
        offer = len(throw)
        kind = kind_of(throw)
        turns += 1
        turn = (turn + 1) % players
    # the call: strictly lower than every other hand wins; else the first lowest after the caller collects
    totals = [sum(VALUES[c] for c in h) for h in hands]
    caller = turn
    others = [(caller + i) % players for i in range(1, players)]
    low = min(totals[s] for s in others)
    paid = [0] * players
    if low > totals[caller]:
        for s in others:
            paid[s] = -totals[s]
            paid[caller] += totals[s]
    else:
        winner = min(others, key=lambda s: totals[s])
        owed = sum(totals) - totals[winner]
        paid[winner], paid[caller] = owed, -owed
    return turns, caller, paid


def rate(deals: int, seed: int = 1, players: int = 4) -> float:
    """Deals per CPU second over ``deals`` deals (seeds as the engine's benchmark uses them)."""
    start = time.process_time()
    for i in range(deals):
        play_deal(f"{seed}/{i}", i % players, players)
    return deals / max(time.process_time() - start, 1e-9)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    args = ap.parse_args()
    if args.deals < 1:
        raise SystemExit("--deals must be at least 1")
    print(f"lean dashain loop: {rate(args.deals):.0f} deals per CPU second")


if __name__ == "__main__":
    main()
