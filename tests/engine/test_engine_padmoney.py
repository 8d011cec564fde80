"""Money at the score pad, and its CSV for the reader's spreadsheet (issue 52, L5 and L6).

A deal's money adds up to zero at any rate, however many decimals it has (at
0.001 a point the caller collected +0.02 while nobody paid), each amount to the
cent and off the exact amount by less than a cent; the match's money totals add
up to zero too. The CSV follows the page's language: semicolons and decimal
commas in French and Dutch, commas and points elsewhere; cells that begin like
a formula stay neutralised.
"""

from __future__ import annotations

import csv
import io
import json
import random
from decimal import Decimal

import pytest

from dhumbal.matches.tally import money_split
from dhumbal.table.web import handle


@pytest.mark.parametrize("rate", ["0.001", "0.025", "0.005", "0.333", "5", "0.05", "1.125"])
def test_a_deals_money_adds_up_to_zero_at_any_rate(rate: str) -> None:
    rng = random.Random(rate)
    for _ in range(400):
        n = rng.randint(2, 6)
        v = [-rng.randint(0, 60) for _ in range(n - 1)]
        points = [*v, -sum(v)]
        rng.shuffle(points)
        cash = [Decimal(c) for c in money_split(points, rate)]
        assert sum(cash) == 0, (points, cash)
        for p, c in zip(points, cash):
            assert abs(c - Decimal(p) * Decimal(rate)) < Decimal("0.01")
            assert c == c.quantize(Decimal("0.01"))


def dashain(rate: str, end: bool = False) -> dict[str, object]:
    return {"v": 1, "profile": f"dashain(money={rate})", "names": ["Asha", "=Bina", "Chandra"], "dealer": 0, "end": end,
            "deals": [{"c": 0, "h": [3, 5, 7]}, {"c": 1, "h": [9, 4, 6]}, {"c": 2, "h": [8, 9, 1]}]}


def test_the_pad_shows_money_that_adds_up_to_zero() -> None:
    res = json.loads(handle(json.dumps({"op": "scorepad", "lang": "en", "sheet": dashain("0.001", end=True)})))
    latest = res["parts"]["latest"] + res["parts"]["earlier"]
    import re
    cells = [Decimal(v) for v in re.findall(r'data-row="money" data-value="(-?[0-9.]+)"', latest)]
    assert len(cells) == 9
    for k in range(3):
        assert sum(cells[3 * k:3 * k + 3]) == 0
    totals = [Decimal(v) for v in re.findall(r'data-row="money-total" data-value="(-?[0-9.]+)"', res["parts"]["totals"])]
    assert len(totals) == 3 and sum(totals) == 0
    assert "rounded to the cent" in res["parts"]["totals"]  # the rule, said on the page


@pytest.mark.parametrize(("lang", "sep", "mark"), [("en", ",", "."), ("fr", ";", ","), ("nl", ";", ","), ("ne", ",", ".")])
def test_the_csv_follows_the_pages_language(lang: str, sep: str, mark: str) -> None:
    res = json.loads(handle(json.dumps({"op": "scorepad", "lang": lang, "sheet": dashain("0.05")})))
    rows = list(csv.reader(io.StringIO(res["csv"]), delimiter=sep))
    assert all(len(r) == len(rows[0]) for r in rows) and len(rows) == 10
    money = [r[6] for r in rows[1:]]
    assert all(mark in m and ("," if mark == "." else ".") not in m for m in money), money
    assert rows[2][2] == "'=Bina"  # a cell that begins like a formula stays text
