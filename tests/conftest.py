"""Test-run plumbing that several suites share: xdist groups, the real site and the browser.

1. ``--dist loadgroup`` (in pyproject's pytest addopts) must really group.
   Tests marked ``xdist_group("name")`` must run in one xdist worker: the
   tests that look at the real site are grouped that way, so that few
   workers build it (see 2). pytest-xdist 3.8.0 groups a test by appending
   ``@name`` to ``item._nodeid``, but pytest 9.2 derives ``Node.nodeid`` from
   ``Node._id`` (a ``NodeId``), so the suffix is lost and the groups are
   spread over the workers without any warning. The hook below adds the
   suffix where pytest 9.2 keeps the id. It does nothing when the id already
   has one (an older pytest, or an xdist that handles ``NodeId``) or outside
   a loadgroup worker. Remove it once pytest-xdist supports ``NodeId``.

2. One real site, one server and one browser per test process. The site,
   runtime and table suites all look at the real site built with ``mkdocs
   build --strict`` and browse it with headless Chromium. ``shared_site`` and
   ``shared_chromium`` (the machinery is in tests/sitekit.py) build and serve
   the site and launch the browser when a test first needs them, once per
   test process whichever suites it runs; the suites' conftests wrap them in
   their own fixtures (``real_site``, ``built_site``, ``browser``,
   ``chromium``...). ``DHUMBAL_TABLE_SITE`` names an already built site to
   serve instead of building one (see tests/sitekit.py).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

import sitekit  # noqa: E402


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


@pytest.fixture(scope="session")
def shared_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sitekit.BuiltSite]:
    """The real site, built once per test process and served (whether it built or not)."""
    site = sitekit.build_and_serve(tmp_path_factory.mktemp("real-site"))
    try:
        yield site
    finally:
        site.server.stop()


@pytest.fixture(scope="session")
def shared_chromium() -> Iterator[sitekit.Chromium]:
    """The headless Chromium of this test process: ``shared_chromium.get()``."""
    chromium = sitekit.Chromium()
    try:
        yield chromium
    finally:
        chromium.close()
