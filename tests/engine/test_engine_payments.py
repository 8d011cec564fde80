"""Who pays whom at the end of a zero-sum match, in the fewest payments (issue 52; seed 002's end screen).

dhumbal.matches.scoresheet.payments against a brute force: for every way to
split the players into groups whose totals sum to zero (every set partition of
up to six players), the fewest payments is the players owed or owing less the
most such groups. Every set of payments brings each total to zero, pays a
positive amount, and only from a player who owes to one who is owed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from dhumbal.matches.scoresheet import payments
from dhumbal.table.web import handle


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first, *part[i]]] + part[i + 1:]
        yield [[first], *part]


def fewest(scores: list[int]) -> int:
    owed = [s for s, v in enumerate(scores) if v]
    best = max(len(p) for p in partitions(owed) if all(sum(scores[s] for s in g) == 0 for g in p)) if owed else 0
    return len(owed) - best


def test_fewest_payments_against_a_brute_force() -> None:
    rng = random.Random(52)
    cases = [[167, 61, -36, -87, -105], [10, -10, 5, -5, 0], [0, 0], [3, -3], [25, -25, 40, -40, 7, -7]]
    for _ in range(1500):
        n = rng.randint(2, 6)
        v = [rng.choice([0, rng.randint(-6, 6), rng.randint(-200, 200)]) for _ in range(n - 1)]
        cases.append([*v, -sum(v)])
    for scores in cases:
        paid = payments(scores)
        left = scores[:]
        for payer, payee, amount in paid:
            assert amount > 0 and scores[payer] < 0 < scores[payee]
            left[payer] += amount
            left[payee] -= amount
        assert not any(left), (scores, paid)
        assert len(paid) == fewest(scores), (scores, paid)


def test_the_end_of_a_dashain_match_in_money_says_who_pays_whom() -> None:
    sheet = {"v": 1, "profile": "dashain(money=5)", "names": ["Asha", "Bikas", "Chandra", "Dipa", "Indira"],
             "dealer": 0, "end": True, "deals": [{"c": 1, "h": [14, 6, 9, 21, 30]}, {"c": 2, "h": [6, 14, 9, 21, 9]}]}
    res = json.loads(handle(json.dumps({"op": "scorepad", "lang": "en", "sheet": sheet})))
    end = res["parts"]["end"]
    assert "Who pays whom" in end and 'data-row="pay-money"' in end
    rows = end.count("data-payer=")
    assert rows == 4  # five players with a total, in one group that sums to zero
    crp = {**sheet, "profile": "cardrulesplus"}
    assert "Who pays whom" not in json.loads(handle(json.dumps({"op": "scorepad", "lang": "en", "sheet": crp})))["parts"]["end"]
