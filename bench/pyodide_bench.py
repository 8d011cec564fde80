"""Bot moves per second in Pyodide (under Node) beside CPython, for ``make bench``.

The same function, :func:`dhumbal.lab.benchmark.bot_moves` (four medium bots,
seeded deals, the trusted path), runs in this CPython and, from the engine
wheel the site ships, inside Pyodide under Node, offline. CPython rounds run
before and after the Pyodide ones; medians are printed. Both sides count
CPU time (this process's; the Node process's, read through
``process.cpuUsage``), so other work on a shared machine lowers neither.

    python -m bench.pyodide_bench [--deals N] [--rounds N]

Figures only: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench.benchkit import in_pyodide, pyodide_missing
from dhumbal.core.profiles import PROFILE_KEYS
from dhumbal.lab.benchmark import bot_moves

# Timed by the Node process's CPU time (process.cpuUsage), as CPython's side is by
# its own: other work on a shared machine then lowers neither figure.
PYODIDE_CODE = """
import json
import js
from dhumbal.lab.benchmark import bot_moves
from dhumbal.core.profiles import PROFILE_KEYS

def cpu():
    used = js.process.cpuUsage()
    return (used.user + used.system) / 1e6

for key in PROFILE_KEYS:
    bot_moves(key, 20, seed=99, clock=cpu)  # warm up
json.dumps([{key: bot_moves(key, DEALS, clock=cpu) for key in PROFILE_KEYS} for _ in range(ROUNDS)])
"""


def cpython_rounds(deals: int, rounds: int) -> list[dict[str, float]]:
    return [
        {key: bot_moves(key, deals, clock=time.process_time)["moves_per_second"] for key in PROFILE_KEYS}
        for _ in range(rounds)
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300, help="deals per profile in each round")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if args.deals < 1 or args.rounds < 1:
        print("error: --deals and --rounds must be at least 1", file=sys.stderr)
        return 2
    why = pyodide_missing()
    if why is not None:
        print(f"pyodide bench: {why}", file=sys.stderr)
        return 2
    for key in PROFILE_KEYS:
        bot_moves(key, 20, seed=99)  # warm up
    before = cpython_rounds(args.deals, (args.rounds + 1) // 2)
    try:
        answer = in_pyodide(PYODIDE_CODE.replace("DEALS", str(args.deals)).replace("ROUNDS", str(args.rounds)),
                            timeout=1800)
    except RuntimeError as exc:
        sys.stderr.write(f"{exc}\n")
        return 1
    pyodide = {"pyodide": answer["pyodide"], "python": answer["python"], "rounds": answer["result"]}
    after = cpython_rounds(args.deals, args.rounds // 2 or 1)
    cpython = before + after
    print(f"bot moves per second, 4 medium bots, {args.deals} deals a profile a round: "
          f"CPython {sys.version.split()[0]} ({len(cpython)} rounds) beside Pyodide {pyodide['pyodide']} "
          f"(Python {pyodide['python']}, Node, {len(pyodide['rounds'])} rounds), medians\n")
    print(f"{'moves/CPU-s':<16}{'CPython':>10}{'Pyodide':>10}{'Pyodide ÷ CPython':>20}")
    for key in PROFILE_KEYS:
        cp = statistics.median(r[key] for r in cpython)
        py = statistics.median(r[key]["moves_per_second"] for r in pyodide["rounds"])
        print(f"{key:<16}{cp:>10.0f}{py:>10.0f}{py / cp:>20.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
