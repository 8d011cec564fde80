"""The engine under Pyodide plays exactly as under CPython.

The wheel the site build ships (``cached_wheel``: built from ``engine/``
once for the current sources) is installed into Pyodide under Node
(offline, from node_modules) by ``tools/pyodide_engine.mjs``, the loader the
bench uses too, and made to play seeded bot deals for every profile with
two option sets, and to restore shared links of tables with expert bots.
``parity_cases.py`` runs on both sides; each transcript, as JSON text, must
be byte-identical to CPython's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import parity_cases
import pyodide_engine
import pytest

from dhumbal.profiles import PROFILE_KEYS

HERE = Path(__file__).resolve().parent


def parity_rounds() -> int:
    """Deals in each long match case (``DHUMBAL_PARITY_ROUNDS`` for a longer check, e.g. 50)."""
    text = os.environ.get("DHUMBAL_PARITY_ROUNDS", "")
    return int(text) if text.isdigit() and int(text) > 0 else parity_cases.MATCH_ROUNDS


def _first_difference(a: str, b: str) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at character {i}: CPython …{a[max(0, i - 60):i + 60]}… / Pyodide …{b[max(0, i - 60):i + 60]}…"


def test_parity_cases_cover_every_profile_with_several_option_sets() -> None:
    from dhumbal.profiles import PROFILE_KEYS

    cases = [c for c in parity_cases.cases() if "match" not in c]
    for key in PROFILE_KEYS:
        option_sets = {json.dumps(c["options"], sort_keys=True) for c in cases if c["profile"] == key}
        assert len(option_sets) >= 2, key
    assert len(cases) == len(PROFILE_KEYS) * 2 * len(parity_cases.SEEDS)


def simple_move(deal: Any, seat: int) -> str:
    """A legal move for the reader: call on 5 or less when allowed, else take from the stock, else throw the heaviest card."""
    from dhumbal.cards import card_text
    from dhumbal.deal import Action

    if deal.is_legal(Action.call()) and deal.total(seat) <= 5:
        return "call"
    p = deal.profile
    if (p.draw_first and deal.phase == "start") or (not p.draw_first and deal.phase == "take"):
        return "take stock"
    return "throw " + card_text(max(deal.hands[seat], key=lambda c: (p.value(c), c)))


def expert_links() -> list[dict[str, Any]]:
    """Shared links of tables with expert bots, one per profile: the reader's moves over two
    deals, made here in CPython (simple legal moves), to be restored in Pyodide."""
    from dhumbal import web

    links = []
    for key in PROFILE_KEYS:
        table = f"parity-{key}"
        r = web.handle_request({"op": "new", "table": table, "profile": key, "seed": 41, "difficulty": "expert", "lang": "en"})
        for _ in range(400):
            s = web.SESSIONS[table]
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


def test_seeded_bot_deals_give_byte_identical_transcripts_in_pyodide(monkeypatch: pytest.MonkeyPatch) -> None:
    why = pyodide_engine.missing()
    assert why is None, why + " for the Pyodide parity test"
    # The expert's safety cap (a second of its clock per decision) is lifted on both
    # sides: Pyodide under Node on a loaded machine could reach it, and the
    # comparison is of what the engine computes, not of how fast.
    from dhumbal import expert

    monkeypatch.setattr(expert, "TIME_CAP", float("inf"))
    cases = parity_cases.cases(parity_rounds()) + expert_links()
    assert any("expert" in c.get("bots", []) for c in cases)
    expected = [parity_cases.play(case) for case in cases]

    # The same file's source, run inside Pyodide on the same cases.
    source = (HERE / "parity_cases.py").read_text(encoding="utf-8")
    lift = "import dhumbal.expert\ndhumbal.expert.TIME_CAP = float('inf')\n"
    out = pyodide_engine.run(f"{source}\n{lift}run({json.dumps(cases)!r})", timeout=600)
    # The engine came from the wheel, installed into Pyodide's site-packages.
    assert "/site-packages/dhumbal/" in out["engine"], out["engine"]
    assert out["python"].startswith("3.14"), out["python"]
    got = out["result"]
    assert len(got) == len(expected)
    differing = [
        f"{case['profile']} {case['options']} seed {case['seed']}: {_first_difference(a, b)}"
        for case, a, b in zip(cases, expected, got)
        if a != b
    ]
    assert not differing, "transcripts differ between CPython and Pyodide:\n" + "\n".join(differing)
    # Deals really were played to their end; the links restored their moves.
    for case, text in zip(cases, got):
        transcript = json.loads(text)
        if "hash" in case:
            assert transcript["moves"] and transcript["deal"]["actions"]
            continue
        if "match" in case:
            assert len(transcript["deals"]) == parity_rounds() and all(d["outcome"] for d in transcript["deals"])
            continue
        assert transcript["outcome"] is not None and transcript["actions"]
