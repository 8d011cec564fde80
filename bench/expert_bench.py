"""The expert bot and the call odds, for ``make bench``: strength, decision time, odds time.

(a) Strength: one expert against three hard bots, four seats, ``--deals``
    seeded deals per profile (default 2,000; the dealer moves one seat each
    deal): each seat's win share and average settlement. Targets: the expert
    wins at least 35 % of the deals and has the best average settlement at
    the table, in every profile.
(b) Decision time: every decision of the expert over ``--timed`` deals per
    profile, in this CPython and inside Pyodide under Node (the engine wheel
    the site ships, offline), p50, p95 and the slowest; and how many
    decisions the safety time cap cut short (it should be none). Target:
    p95 at most 150 ms under Pyodide. ``bench/runtime_bench.py`` measures the
    same in the browser's worker.
(c) The table's hint (the call odds at their default sample sizes) per
    request, in CPython and in Pyodide.

    python bench/expert_bench.py [--deals N] [--timed N] [--requests N] [--seed S]

Figures only: nothing here passes or fails a test.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from benchkit import in_pyodide, percentile
from dhumbal.arena import play_table, read_bots
from dhumbal.benchmark import bench_profile, expert_decisions, odds_requests
from dhumbal.odds import HINT_PLAYOUTS, HINT_SAMPLES
from dhumbal.profiles import PROFILE_KEYS

TARGET_SHARE = 0.35
TARGET_P95_MS = 150.0
LINE_UP = "expert,hard,hard,hard"


def strength(key: str, deals: int, seed: int) -> dict[str, Any]:
    t0 = time.process_time()
    result = play_table(bench_profile(key), read_bots(LINE_UP), deals, seed=seed)
    data = result.to_json()
    data["cpu"] = time.process_time() - t0
    return data


PYODIDE_CODE = """
import json, time
from dhumbal.benchmark import expert_decisions, odds_requests
from dhumbal.profiles import PROFILE_KEYS
out = {}
for key in PROFILE_KEYS:
    expert_decisions(key, 1, seed=99)  # warm up
    out[key] = {"expert": expert_decisions(key, TIMED, seed=SEED), "odds": odds_requests(key, REQUESTS, seed=SEED)}
json.dumps(out)
"""


def pyodide_figures(timed: int, requests: int, seed: int) -> dict[str, Any] | str:
    code = PYODIDE_CODE.replace("TIMED", str(timed)).replace("REQUESTS", str(requests)).replace("SEED", str(seed))
    try:
        answer = in_pyodide(code)
    except RuntimeError as exc:
        return str(exc)
    answer["result"]["_runtime"] = f"Pyodide {answer['pyodide']} (Python {answer['python']}, Node)"
    return dict(answer["result"])


def ms(values: list[float]) -> tuple[float, float, float]:
    v = [x * 1000.0 for x in values]
    return percentile(v, 0.5), percentile(v, 0.95), max(v) if v else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000, help="deals per profile for the strength figures")
    ap.add_argument("--timed", type=int, default=40, help="deals per profile whose expert decisions are timed")
    ap.add_argument("--requests", type=int, default=20, help="hint requests per profile")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if min(args.deals, args.timed, args.requests) < 1:
        print("error: --deals, --timed and --requests must be at least 1", file=sys.stderr)
        return 2

    # (a) strength, the three profiles on two processes
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        futures = {key: pool.submit(strength, key, args.deals, args.seed) for key in PROFILE_KEYS}
        results = {key: f.result() for key, f in futures.items()}
    print(f"(a) one expert against three hard bots, 4 seats, {args.deals} seeded deals per profile "
          f"(seed {args.seed}; {time.perf_counter() - t0:.0f} s)\n")
    print(f"  {'profile':<15}{'seat':<6}{'bot':<8}{'win share':>10}{'settlement':>12}{'calls':>7}{'caught':>8}")
    for key, data in results.items():
        for s in data["seats"]:
            best = "  best" if s["seat"] in data["best_settlement"] else ""
            print(f"  {key if s['seat'] == 0 else '':<15}{s['seat']:<6}{s['bot']:<8}{s['win_share']:>10.1%}"
                  f"{s['mean_settlement']:>12.2f}{s['calls']:>7}{s['caught']:>8}{best}")
    print()
    for key, data in results.items():
        share = data["seats"][0]["win_share"]
        best = data["best_settlement"] == [0]
        unit = "points a deal, fewest best" if data["settlement"] == "points" else "paid a deal, highest best"
        print(f"  {key:<15}expert wins {share:.1%} (target ≥ {TARGET_SHARE:.0%}: {'met' if share >= TARGET_SHARE else 'missed'}); "
              f"best settlement ({unit}): {'met' if best else 'missed'}")

    # (b) and (c) in CPython, then in Pyodide
    native = {key: {"expert": expert_decisions(key, args.timed, seed=args.seed),
                    "odds": odds_requests(key, args.requests, seed=args.seed)} for key in PROFILE_KEYS}
    pyodide = pyodide_figures(args.timed, args.requests, args.seed)
    runtime = pyodide.pop("_runtime", "Pyodide") if isinstance(pyodide, dict) else "Pyodide"
    print(f"\n(b) the expert's decisions against three hard bots, {args.timed} deals per profile: "
          f"CPython {sys.version.split()[0]} beside {runtime}; ms")
    print(f"  {'profile':<15}{'decisions':>10}{'CPython p50':>13}{'p95':>8}{'max':>8}"
          f"{'Pyodide p50':>13}{'p95':>8}{'max':>8}{'capped':>8}")
    every: list[float] = []
    for key in PROFILE_KEYS:
        e = native[key]["expert"]
        c50, c95, cmax = ms(e["timings"])
        line = f"  {key:<15}{e['decisions']:>10}{c50:>13.2f}{c95:>8.2f}{cmax:>8.1f}"
        if isinstance(pyodide, dict):
            pe = pyodide[key]["expert"]
            every += pe["timings"]
            p50, p95, pmax = ms(pe["timings"])
            line += f"{p50:>13.2f}{p95:>8.2f}{pmax:>8.1f}{e['capped'] + pe['capped']:>8}"
        else:
            line += f"   capped {e['capped']}"
        print(line)
    if isinstance(pyodide, dict) and every:
        _, p95, _ = ms(every)
        print(f"  all Pyodide decisions: p95 {p95:.2f} ms (target ≤ {TARGET_P95_MS:.0f} ms: "
              f"{'met' if p95 <= TARGET_P95_MS else 'missed'})")
    elif not isinstance(pyodide, dict):
        print(f"  Pyodide: {pyodide}")

    print(f"\n(c) the table's hint: call odds from {HINT_SAMPLES} sampled deals and {HINT_PLAYOUTS} playouts, "
          f"{args.requests} requests per profile; ms per request")
    print(f"  {'profile':<15}{'CPython p50':>13}{'p95':>8}{'Pyodide p50':>13}{'p95':>8}")
    for key in PROFILE_KEYS:
        c50, c95, _ = ms(native[key]["odds"]["timings"])
        line = f"  {key:<15}{c50:>13.1f}{c95:>8.1f}"
        if isinstance(pyodide, dict):
            p50, p95, _ = ms(pyodide[key]["odds"]["timings"])
            line += f"{p50:>13.1f}{p95:>8.1f}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
