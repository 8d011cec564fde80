"""What every suite shares: the session fixtures and the run's hooks. Read this
before writing a test that needs the built site, a server or a browser: use
these, never a build or a server of your own. CONTRIBUTING.md says which
fixture a new test uses; tests/sitekit.py says how they work.

``shared_site``
    The real site, built once per *run* with ``mkdocs build --strict`` by
    whichever process asks first, and served by one server for the whole run.
    A ``sitekit.BuiltSite``: ``directory`` (read it, never write), ``url``,
    ``server.at("ne/rules/")``, ``server.origin``, and ``require()``, which
    fails the calling test with the build's log. The suites wrap it:
    ``site`` (tests/site), ``built_site`` (tests/runtime), ``real_site``
    (tests/site and tests/table).
``shared_csp_site``
    The same files at a second address whose every response carries the
    header policy (``dhumbal_site.runtime.csp.HEADER_POLICY``).
``shared_chromium``
    This process's headless Chromium (``get()``; the test is skipped where
    there is none, or failed with ``get(required=True)``). Pages are opened
    through the suites' openers (``page_factory``, ``open_page``,
    ``site_page``, ``stub_page``, ``phone_page``): every request to another
    host is refused and fails the test.
``stub_site`` (tests/table)
    The table's pages with a stand-in runtime answered by this process's
    ``dhumbal.table.web``: the page side without Pyodide, built once per run too.
``expert_cap_on_cpu_time`` (automatic)
    The expert's safety cap (``dhumbal.bots.expert.TIME_CAP``) read on this
    process's CPU time, which a loaded machine does not move.

The hooks: the controller starts the run's servers and compiles the catalogs
before any worker starts; the real site's build starts in the background as
soon as a collected test needs it; ``--fast`` (``make check``) leaves out the
tests that use :data:`HEAVY_FIXTURES` or are marked ``heavy``; tests go out
one at a time, the costliest first. Never mark tests ``xdist_group`` to share
a build or a browser: the build is shared anyway, and a group pins its tests
to one worker. Do mark a module (or the tests of one fixture) whose
module-scoped fixture is costly: the costliest-first order spreads a module's
tests over the run, and pytest sets the fixture up again each time the
module's tests come back (tests/testorder.py keeps a group together). ``DHUMBAL_TABLE_SITE=<dir>`` serves an already built site.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests import browserkit, sitekit, testorder, todo


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


#: What makes a test part of the full suite only: the built site, a browser, or the
#: table's stub pages through their fixtures, or a ``heavy`` mark on a test that
#: starts Node, Pyodide or other Pythons itself, or takes a minute of CPU. ``pytest --fast`` (``make check``)
#: leaves those out: the engine, the catalogs, the examples and every unit of the
#: site glue and the table's renderer, with no build and no browser.
#: ``tree`` and ``module_tree`` build a small site of their own with MkDocs (about 2 s each).
HEAVY_FIXTURES = frozenset({"shared_site", "shared_csp_site", "shared_chromium", "stub_site", "tree", "module_tree"})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fast", action="store_true",
                     help="the inner loop: leave out every test that builds the site, opens a browser or starts Node")


def is_heavy(item: pytest.Item) -> bool:
    return bool(HEAVY_FIXTURES & set(getattr(item, "fixturenames", ()))) or item.get_closest_marker("heavy") is not None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "heavy: needs Node, Pyodide or another Python, or a minute of CPU: left out of make check")
    # The controller (or a run without xdist): the shared directory and the
    # servers, before any worker starts (the workers inherit its environment);
    # and the catalogs compiled, so that every process reads the same
    # translations from its first test on (a broken catalog is left to the
    # catalog tests and the build to report).
    if not _is_worker(config):
        sitekit.start_run()
        sitekit.compile_catalogs()


def pytest_unconfigure(config: pytest.Config) -> None:
    sitekit.stop_run()


def pytest_collection_finish(session: pytest.Session) -> None:
    # A test here needs the real site: start its build now (in the background),
    # so that it is ready, or nearly, when that test comes.
    if session.config.option.collectonly:
        return
    if any({"shared_site", "shared_csp_site"} & set(getattr(item, "fixturenames", ())) for item in session.items):
        sitekit.prebuild_real_site()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("fast"):
        left = [item for item in items if is_heavy(item)]
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = [item for item in items if not is_heavy(item)]
    items[:] = testorder.costliest_first(items, {**testorder.recorded_costs(), **_last_durations(config)})
    _keep_xdist_groups(config, items)


# -- the order of the tests: the costliest first ---------------------------------------
#
# The workers take tests one at a time, in the order collected: the long ones
# go first, so that the run does not end with one worker on a long test and
# the other idle. A test's cost is what it took in the last run of this
# checkout (pytest's cache, .pytest_cache/), or, in a fresh checkout (CI),
# what it took in the run recorded in tests/durations.json (``make
# test-costs`` refreshes it from this checkout's last run), or, for a test
# neither knows, an estimate from what it uses (testorder.estimated_cost).
# Tests that do not need the real site lead for as long as its build takes,
# so that no worker waits for it.

DURATIONS_KEY = "dhumbal/durations"


def _last_durations(config: pytest.Config) -> dict[str, float]:
    cache = getattr(config, "cache", None)
    found = cache.get(DURATIONS_KEY, {}) if cache is not None else {}
    return {str(k): float(v) for k, v in found.items()} if isinstance(found, dict) else {}


_DURATIONS: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # In the controller every worker's reports arrive here too.
    nodeid = testorder.plain_nodeid(report.nodeid)
    _DURATIONS[nodeid] = _DURATIONS.get(nodeid, 0.0) + report.duration
    if report.when == "call":
        todo.collect(report.user_properties, _TODO)


# -- translation work still to do: one summary, not a warning per item (tests/todo.py) ---

_TODO: dict[tuple[str, str], set[str]] = {}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    todo.CURRENT.append(item)
    try:
        return (yield)
    finally:
        todo.CURRENT.pop()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = list(todo.summary(_TODO))
    if lines:
        terminalreporter.section("translation work still to do")
        for line in lines:
            terminalreporter.write_line(line)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    cache = getattr(session.config, "cache", None)
    if cache is None or _is_worker(session.config) or not _DURATIONS:
        return
    known = _last_durations(session.config)
    known.update({k: round(v, 3) for k, v in _DURATIONS.items()})
    cache.set(DURATIONS_KEY, known)


def _keep_xdist_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Make ``--dist loadgroup`` group tests marked ``xdist_group("name")`` in one worker.

    pytest-xdist 3.8.0 groups a test by appending ``@name`` to
    ``item._nodeid``, but pytest 9.2 derives ``Node.nodeid`` from ``Node._id``
    (a ``NodeId``), so the suffix is lost and the groups are spread over the
    workers without any warning. This adds the suffix where pytest 9.2 keeps
    the id. It does nothing when the id already has one (an older pytest, or
    an xdist that handles ``NodeId``) or outside a loadgroup worker. Remove
    it once pytest-xdist supports ``NodeId``.
    """
    # xdist sets this option on its workers only, and only for --dist loadgroup.
    if not getattr(config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # a pytest where xdist's own suffix still works
        return
    for item in items:
        group = testorder.group_of(item)
        nodeid = item.nodeid
        if group is None or testorder.plain_nodeid(nodeid) != nodeid:
            continue
        item._id = NodeId.parse(f"{nodeid}@{group}")


@pytest.fixture(scope="session", autouse=True)
def expert_cap_on_cpu_time() -> Iterator[None]:
    """The expert's time cap measured on this process's CPU time, which other work on the machine does not move."""
    from dhumbal.bots import expert

    functions = [getattr(expert, name, None) for name in ("decide", "decide_view", "best_move")]
    saved = [(f, dict(f.__kwdefaults__)) for f in functions if f is not None and "clock" in (f.__kwdefaults__ or {})]
    for f, _ in saved:
        f.__kwdefaults__["clock"] = time.process_time
    yield
    for f, defaults in saved:
        f.__kwdefaults__.update(defaults)


@pytest.fixture(scope="session")
def shared_site() -> sitekit.BuiltSite:
    """The real site, built once per run and served by the run's server (whether it built or not)."""
    return sitekit.real_site()


@pytest.fixture(scope="session")
def shared_csp_site() -> sitekit.BuiltSite:
    """The real site's files at the address whose responses carry the header policy."""
    return sitekit.real_site("real-csp-header")


@pytest.fixture(scope="session")
def shared_chromium() -> Iterator[browserkit.Chromium]:
    """The headless Chromium of this test process: ``shared_chromium.get()``."""
    chromium = browserkit.Chromium()
    try:
        yield chromium
    finally:
        chromium.close()
