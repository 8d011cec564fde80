"""Engine test configuration: the optional action counter. (The order of the tests, long ones
first, is tests/conftest.py's.)"""

from __future__ import annotations

import pytest

from tests.engine import rules_kit


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # With DHUMBAL_COUNT_ACTIONS=path set, every process appends how many random
    # actions its property tests applied (each xdist worker writes its own line).
    rules_kit.flush_count()
