"""Test-run plumbing that several suites share: xdist groups and Playwright.

1. ``--dist loadgroup`` (in pyproject's pytest addopts) must really group.
   Tests marked ``xdist_group("name")`` must run in one xdist worker: the
   site tests build and serve the real site once that way
   (tests/site/conftest.py). pytest-xdist 3.8.0 groups a test by appending
   ``@name`` to ``item._nodeid``, but pytest 9.2 derives ``Node.nodeid`` from
   ``Node._id`` (a ``NodeId``), so the suffix is lost and the groups are
   spread over the workers without any warning. The hook below adds the
   suffix where pytest 9.2 keeps the id. It does nothing when the id already
   has one (an older pytest, or an xdist that handles ``NodeId``) or outside
   a loadgroup worker. Remove it once pytest-xdist supports ``NodeId``.

2. One Playwright per test process. The site, table and runtime suites each
   open ``sync_playwright()`` in a session fixture, and Playwright's sync API
   refuses to start while another instance is running in the same thread
   ("using Playwright Sync API inside the asyncio loop"), so whichever suite
   a worker reaches second would error. ``sync_playwright()`` therefore hands
   every suite the same running instance (each suite still launches and
   closes its own browser); it is stopped when the test run ends.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # xdist sets this option on its workers only, and only for --dist loadgroup.
    if not getattr(config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # a pytest where xdist's own suffix still works
        return
    for item in items:
        groups = {
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        }
        nodeid = item.nodeid
        if not groups or nodeid.rfind("@") > nodeid.rfind("]"):
            continue
        item._id = NodeId.parse(f"{nodeid}@{'_'.join(sorted(groups))}")


class _SharedPlaywright:
    """What ``sync_playwright()`` returns during the tests: the shared instance."""

    running: Any = None
    start_new: Any = None

    def start(self) -> Any:
        if _SharedPlaywright.running is None:
            _SharedPlaywright.running = _SharedPlaywright.start_new().start()
        return _SharedPlaywright.running

    def __enter__(self) -> Any:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        return None  # stopped once, at the end of the run


def _share_playwright() -> None:
    try:
        from playwright import sync_api
    except ImportError:
        return
    if _SharedPlaywright.start_new is None:
        _SharedPlaywright.start_new = sync_api.sync_playwright
        sync_api.sync_playwright = _SharedPlaywright  # type: ignore[assignment]


_share_playwright()


def pytest_unconfigure(config: pytest.Config) -> None:
    if _SharedPlaywright.running is not None:
        _SharedPlaywright.running.stop()
        _SharedPlaywright.running = None
