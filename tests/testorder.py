"""The order of the tests: the costliest first, so that a run does not end with one
worker on a long test and the others idle (tests/conftest.py sorts the items with
:func:`costliest_first`).

A test's cost is what it took in the last run of this checkout (pytest's cache),
else what it took in the run recorded in ``tests/durations.json`` (``make
test-costs`` writes it from this checkout's last run: ``python -m tests.testorder``),
else an estimate from what it uses (:func:`estimated_cost`). Tests that do not
need the real site lead for as long as its build takes, so that no worker waits
for it. The tests of one ``xdist_group`` (a module whose module-scoped fixture is
costly) stay together, so that the fixture is set up once. Only the order
follows from these figures: a stale or missing entry costs time, never a check.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Seconds, roughly, on the 2-core development machine: what a test costs when no
#: earlier run of this checkout measured it, by what it uses.
REAL_RUNTIME_FIXTURES = frozenset({"site_page", "open_page", "shared_csp_site"})
BROWSER_FIXTURES = frozenset({"shared_chromium"})
SITE_FIXTURES = frozenset({"shared_site", "shared_csp_site"})
#: Long tests whose fixtures do not say so (random play, sampling, whole builds).
LONG_TESTS = (
    "test_soak_", "test_random_play_keeps_invariants", "test_bots_never_make_an_illegal_move",
    "test_bot_deals_always_terminate", "test_the_expert_outplays", "large_independent_count",
    "test_the_expert_never_reads", "test_seeded_bot_deals_give_byte_identical", "test_a_fifth_language",
    "test_bots_do_not_peek", "test_bots_are_deterministic", "test_junk_is_refused",
)
#: A whole second build of the site (a fifth language added): the longest test.
WHOLE_BUILDS = ("test_a_fifth_language",)
#: The real site's build, in the background, while the workers run tests that do not
#: need it: about 45 s on the development machine with the build caches warm (53 s on
#: CI). A lead shorter than the build leaves a core idle while the workers wait
#: for it (mkdocs builds on one core); a longer one costs nothing.
BUILD_SECONDS = 45.0


#: What each test took (seconds, whole: setup, call and teardown) in a full run on the
#: 2-core development machine: the order of a fresh checkout's first run, which has
#: no pytest cache. Only the order follows from it; a stale or missing entry costs
#: time, never a check. ``make test-costs`` writes it from this checkout's last run.
RECORDED_COSTS = Path(__file__).resolve().parent / "durations.json"
#: Tests shorter than this are left out of the record (the estimate places them).
RECORDED_FLOOR = 0.1


def recorded_costs() -> dict[str, float]:
    """``RECORDED_COSTS``, by node id (empty if the file is missing or unreadable)."""
    try:
        found = json.loads(RECORDED_COSTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(found, dict):
        return {}
    return {str(k): float(v) for k, v in found.items() if isinstance(v, (int, float))}


def _still_there(node_id: str) -> bool:
    """Whether the test ``node_id`` names is still defined (its file holds ``def name``):
    the cache keeps the durations of tests renamed or removed since."""
    path, _, rest = node_id.partition("::")
    name = rest.split("::")[-1].split("[", 1)[0]
    try:
        return f"def {name}(" in (ROOT / path).read_text(encoding="utf-8")
    except OSError:
        return False


def write_recorded_costs(cache_dir: Path) -> int:
    """Write ``RECORDED_COSTS`` from the durations a run stored in ``cache_dir``
    (pytest's cache, see tests/conftest.py); the number of tests written."""
    stored = json.loads((cache_dir / "v" / "dhumbal" / "durations").read_text(encoding="utf-8"))
    costs = {k: round(float(v), 1) for k, v in sorted(stored.items()) if float(v) >= RECORDED_FLOOR and _still_there(k)}
    RECORDED_COSTS.write_text(json.dumps(costs, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    return len(costs)


def estimated_cost(item: pytest.Item) -> float:
    used = set(getattr(item, "fixturenames", ()))
    name = getattr(item, "originalname", item.name)
    if any(part in name for part in WHOLE_BUILDS):
        return 60.0
    if used & REAL_RUNTIME_FIXTURES:
        return 8.0
    if any(part in name for part in LONG_TESTS):
        return 6.0
    if used & BROWSER_FIXTURES:
        return 2.0
    if used & SITE_FIXTURES:
        return 0.5
    return 0.05


def plain_nodeid(nodeid: str) -> str:
    """``nodeid`` without the ``@group`` that ``--dist loadgroup`` appends (tests/conftest.py)."""
    return nodeid.rsplit("@", 1)[0] if nodeid.rfind("@") > nodeid.rfind("]") else nodeid


def group_of(item: pytest.Item) -> str | None:
    """The item's ``xdist_group`` (several joined as ``--dist loadgroup`` names them), or None."""
    names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                    for mark in item.iter_markers("xdist_group")})
    return "_".join(names) if names else None


def costliest_first(items: list[pytest.Item], measured: dict[str, float]) -> list[pytest.Item]:
    """The items, the costliest first (``measured`` seconds by node id, else estimated),
    with tests that need no built site ahead of the rest for as long as the build
    takes (every worker busy meanwhile). The tests of one ``xdist_group`` (a module
    whose module-scoped fixture is costly) stay together, placed by their summed cost:
    pytest tears a module's fixtures down whenever the next test is another module's,
    so a module spread over the run set its fixture up again for nearly every test."""
    def cost(item: pytest.Item) -> float:
        return measured.get(item.nodeid, estimated_cost(item))

    units: dict[object, list[pytest.Item]] = {}
    for item in items:
        group = group_of(item)
        units.setdefault(("group", group) if group else ("item", id(item)), []).append(item)
    for unit in units.values():
        unit.sort(key=cost, reverse=True)  # stable: equal costs keep their order
    order = sorted(units.values(), key=lambda unit: sum(map(cost, unit)), reverse=True)
    lead: list[list[pytest.Item]] = []
    budget = 2 * BUILD_SECONDS
    for unit in order:
        if budget <= 0:
            break
        if not any(SITE_FIXTURES & set(getattr(item, "fixturenames", ())) for item in unit):
            lead.append(unit)
            budget -= sum(map(cost, unit))
    chosen = {id(unit) for unit in lead}
    return [item for unit in lead + [unit for unit in order if id(unit) not in chosen] for item in unit]


if __name__ == "__main__":  # make test-costs
    print(f"{write_recorded_costs(ROOT / '.pytest_cache')} tests' costs written to {RECORDED_COSTS.relative_to(ROOT)}")
