"""The tests' order (tests/testorder.py): the costliest first, and a group's tests together.

A module whose module-scoped fixture is costly marks its tests ``xdist_group``.
The costliest-first order used to spread such a module's tests over the whole
run, and pytest tore the fixture down each time the next test was another
module's: the offline suite's first visit (Pyodide booted, every English page
kept, about 10 s of CPU) was made again for nearly each of its tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tests import testorder


@dataclass
class Mark:
    args: tuple[str, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)


@dataclass
class Item:
    """As much of a ``pytest.Item`` as the order reads."""

    nodeid: str
    group: str | None = None
    fixturenames: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.nodeid.split("::")[-1]

    def iter_markers(self, name: str) -> list[Mark]:
        return [Mark((self.group,))] if name == "xdist_group" and self.group else []


def order(items: list[Item], costs: dict[str, float]) -> list[str]:
    return [item.nodeid for item in testorder.costliest_first(items, costs)]  # type: ignore[arg-type]


def test_a_group_s_tests_run_together_placed_by_their_summed_cost() -> None:
    site = ("shared_site",)
    items = [Item("m.py::a", "m", site), Item("x.py::big", None, site), Item("m.py::b", "m", site),
             Item("y.py::mid", None, site), Item("m.py::c", "m", site)]
    costs = {"m.py::a": 2.0, "x.py::big": 9.0, "m.py::b": 4.0, "y.py::mid": 5.0, "m.py::c": 1.0}
    # the group's 7 s place it after the 9 s test and before the 5 s one, its costliest first
    assert order(items, costs) == ["x.py::big", "m.py::b", "m.py::a", "m.py::c", "y.py::mid"]


def test_without_groups_the_order_is_by_cost_with_what_needs_no_site_leading() -> None:
    items = [Item("a.py::site", fixturenames=("shared_site",)), Item("b.py::engine"), Item("c.py::long", fixturenames=("shared_site",))]
    costs = {"a.py::site": 3.0, "b.py::engine": 1.0, "c.py::long": 8.0}
    assert order(items, costs) == ["b.py::engine", "c.py::long", "a.py::site"]


@pytest.mark.parametrize(("nodeid", "plain"), [
    ("t.py::test_x@offline-visited", "t.py::test_x"),
    ("t.py::test_x[fr]@site", "t.py::test_x[fr]"),
    ("t.py::test_x[a@b]", "t.py::test_x[a@b]"),
    ("t.py::test_x", "t.py::test_x"),
])
def test_a_duration_is_recorded_under_the_test_s_own_id(nodeid: str, plain: str) -> None:
    """``--dist loadgroup`` appends ``@group`` to a grouped test's id; the recorded durations
    (and ``make test-costs``, which keeps only tests still defined) use the id without it."""
    assert testorder.plain_nodeid(nodeid) == plain
