"""The parity cases: the engine under Pyodide plays exactly as under CPython.

``parity_cases.py`` runs on both sides: seeded bot deals for every profile
with two option sets and a long match of expert bots, plus (``expert_links``
here) shared links of tables with expert bots, made in CPython and restored
on the other side; each transcript, as JSON text, must be byte-identical.
Here: the cases cover what they should. The Pyodide side is played in one
boot set up as the site's worker, on the trimmed standard library it ships
(tests/offline/test_offline_pyodide.py); other CPython versions on the
machine in test_python_versions.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from dhumbal.core.profiles import PROFILE_KEYS
from tests import sitekit
from tests.runtime import parity_cases

pytestmark = pytest.mark.heavy  # starts Node or other Pythons: not in make check


def parity_rounds() -> int:
    """Deals in each long match case (``DHUMBAL_PARITY_ROUNDS`` for a longer check, e.g. 50)."""
    text = os.environ.get("DHUMBAL_PARITY_ROUNDS", "")
    return int(text) if text.isdigit() and int(text) > 0 else parity_cases.MATCH_ROUNDS


def _first_difference(a: str, b: str) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at character {i}: CPython …{a[max(0, i - 60):i + 60]}… / Pyodide …{b[max(0, i - 60):i + 60]}…"


def test_parity_cases_cover_every_profile_with_several_option_sets() -> None:
    from dhumbal.core.profiles import PROFILE_KEYS

    cases = [c for c in parity_cases.cases() if "match" not in c]
    for key in PROFILE_KEYS:
        option_sets = {json.dumps(c["options"], sort_keys=True) for c in cases if c["profile"] == key}
        assert len(option_sets) >= 2, key
    assert len(cases) == len(PROFILE_KEYS) * 2 * len(parity_cases.SEEDS)


def simple_move(deal: Any, seat: int) -> str:
    """A legal move for the reader: call on 5 or less when allowed, else take from the stock, else throw the heaviest card."""
    from dhumbal.core.cards import card_text
    from dhumbal.play.deal import Action

    if deal.is_legal(Action.call()) and deal.total(seat) <= 5:
        return "call"
    p = deal.profile
    if (p.draw_first and deal.phase == "start") or (not p.draw_first and deal.phase == "take"):
        return "take stock"
    return "throw " + card_text(max(deal.hands[seat], key=lambda c: (p.value(c), c)))


def cpython_parity() -> tuple[list[dict[str, Any]], list[str]]:
    """The parity cases with this CPython's transcript of each (``parity_cases.play``),
    worked out once per test run and shared by its processes (``sitekit.shared_build``):
    the Pyodide check and the other CPythons' check compare with the same list. The
    expert's safety cap on its clock is lifted meanwhile (a loaded machine could reach
    it; what is compared is what the engine computes, not how fast)."""
    built = sitekit.shared_build(f"parity-{parity_rounds()}", _play_parity_cases)
    if not built.ok:
        pytest.fail(built.log, pytrace=False)
    found = json.loads((built.directory / "cpython.json").read_text(encoding="utf-8"))
    return found["cases"], found["expected"]


def _play_parity_cases(directory: Path, url: str) -> tuple[int, str]:
    from dhumbal.bots import expert

    cap = expert.TIME_CAP
    expert.TIME_CAP = float("inf")  # type: ignore[misc]
    try:
        cases = parity_cases.cases(parity_rounds()) + expert_links()
        expected = [parity_cases.play(case) for case in cases]
    finally:
        expert.TIME_CAP = cap  # type: ignore[misc]
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "cpython.json").write_text(json.dumps({"cases": cases, "expected": expected}), encoding="utf-8")
    return 0, ""


def expert_links() -> list[dict[str, Any]]:
    """Shared links of tables with expert bots, one per profile: the reader's moves over two
    deals, made here in CPython (simple legal moves), to be restored in Pyodide."""
    from dhumbal.table import web

    links = []
    for key in PROFILE_KEYS:
        table = f"parity-{key}"
        r = web.handle_request({"op": "new", "table": table, "profile": key, "seed": 41, "difficulty": "expert", "lang": "en"})
        for _ in range(400):
            s = web.table(table).playing()
            deal = s.deal
            assert deal is not None
            if deal.is_over:
                if len(s.moves) >= 2 or s.match_over():
                    break
                r = web.handle_request({"op": "next-deal", "table": table, "lang": "en"})
                continue
            me = s.my_deal_seat()
            assert me is not None and deal.turn == me
            r = web.handle_request({"op": "act", "table": table, "action": simple_move(deal, me), "lang": "en"})
            assert r["ok"], r
        links.append({"hash": r["hash"], "profile": key, "options": {"link": "expert"}, "seed": 41})
    return links
