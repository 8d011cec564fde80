"""The engine under Pyodide plays exactly as under CPython.

The wheel is built from ``engine/`` into a temporary directory as the site
build does, installed into Pyodide under Node (offline, from node_modules)
and made to play seeded bot deals for every profile with two option sets;
each deal's transcript, as JSON text, must be byte-identical to CPython's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import parity_cases
import pytest

from dhumbal.profiles import PROFILE_KEYS
from dhumbal_site import runtime

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return runtime.build_wheel(ROOT, tmp_path_factory.mktemp("wheel")).path


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


def test_seeded_bot_deals_give_byte_identical_transcripts_in_pyodide(wheel: Path, tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node, "Node.js is needed for the Pyodide parity test (see make setup)"
    assert (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file(), "node_modules/pyodide is missing: run make setup"
    cases = parity_cases.cases(parity_rounds()) + expert_links()
    assert any("expert" in c.get("bots", []) for c in cases)
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps(cases), encoding="utf-8")
    expected = [parity_cases.play(case) for case in cases]

    result = subprocess.run(
        [node, str(HERE / "parity.mjs"), str(wheel), str(cases_file)],
        cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=600,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    out = json.loads(result.stdout)
    # The engine came from the wheel, installed into Pyodide's site-packages.
    assert "/site-packages/dhumbal/" in out["engine"], out["engine"]
    assert out["python"].startswith("3.14"), out["python"]
    got = out["results"]
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
