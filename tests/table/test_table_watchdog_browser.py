"""The table never stays "loading" or busy for ever, and hostile links cannot break it.

On the built site with the real runtime: a download that stalls, a worker
that dies while loading or under a live table, and a request that never
settles each become the table's error state with Retry, and Retry recovers;
a link over 200,000 characters and a link nested 3,000 deep give the notice
and a fresh deal (also as a hash change under a live game).

No assertion here reads a clock against a limit: each test sets the one
limit it is about (``window.DhumbalRuntimeLimits``, which the runtime reads)
and lifts the others far out of reach, so that only the mechanism under test
can end the wait; the times it checks are the page's own (``Date.now()`` at
each change of ``data-state``, recorded in the page), and only to show that
a limit was not cut short.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pytest

from dhumbal.core.i18n import translator
from dhumbal.table import web
from dhumbal.view.loader import ERROR_TITLE, ERROR_TITLE_LIVE, ERRORS
from tests.browserkit import PATIENCE_MS
from tests.table.tabledriver import TABLE, start, status, table_hash, ui_move, wait_ready
from tools.pagemodules import on_page

LOAD = PATIENCE_MS  # ms: Pyodide boots in seconds, but the test machine may be busy
STALL = 8000  # ms: the runtime's default stall limit (browser/runtime/watchdog.ts)
OUT_OF_REACH = 3_600_000  # ms: a limit no test waits for
NOTICE = translator("en")(web.NOTICE_BAD_HASH)

STATE = """() => {
  const t = document.querySelector('#dh-table');
  const shown = t.querySelector('[data-error-code]:not([hidden])');
  return {state: t.dataset.state, code: shown && shown.dataset.errorCode,
          retry: !!t.querySelector('[data-dht-retry]') && getComputedStyle(t.querySelector('[data-dht-retry]')).display !== 'none'};
}"""

# Every change of the table's data-state with the page's time, from the first one.
RECORD_STATES = """
window.__states = [];
document.addEventListener('DOMContentLoaded', () => {
  const t = document.querySelector('#dh-table');
  if (!t) return;
  const note = () => window.__states.push([t.dataset.state, Date.now()]);
  note();
  new MutationObserver(note).observe(t, {attributes: true, attributeFilter: ['data-state']});
});
"""


def limits(page: Any, **given: int) -> None:
    """The watchdog's limits for the page's runtime (set before it loads): the ones
    named, and every other one out of reach (as ``site_page`` leaves them all)."""
    values = {"stall": OUT_OF_REACH, "silence": OUT_OF_REACH, "request": OUT_OF_REACH, **given}
    page.context.add_init_script(f"window.DhumbalRuntimeLimits = {json.dumps(values)};")
    page.context.add_init_script(RECORD_STATES)


def first_time(page: Any, state: str, after: int = 0) -> int:
    """The page's time (ms) at which the table first entered ``state`` at or after ``after``."""
    times = [t for s, t in page.evaluate("window.__states") if s == state and t >= after]
    assert times, (state, page.evaluate("window.__states"))
    return int(times[0])


# The page is waiting for the lock its engine's worker holds while it lives (the
# runtime asks for it when the worker says it is alive): a worker's end is then
# known at once, whatever ends it.
WATCHING = """async () => {
  const locks = await navigator.locks.query();
  return locks.pending.some(p => locks.held.some(h => h.name === p.name));
}"""


def engine_worker(page: Any) -> Any:
    workers = [w for w in page.workers if w.url.endswith("/assets/dhumbal/worker.js")]
    assert len(workers) == 1, [w.url for w in page.workers]
    return workers[0]


def wait_error(page: Any) -> dict[str, Any]:
    """Wait for the error state (a wait long enough for a busy machine, never the thing tested)."""
    page.wait_for_function("() => document.querySelector('#dh-table').dataset.state === 'error'", timeout=LOAD)
    return dict(page.evaluate(STATE))


def retry_recovers(page: Any) -> None:
    page.locator(f"{TABLE} [data-dht-retry]").click()
    page.wait_for_function("() => document.querySelector('#dh-table').dataset.state === 'ready'", timeout=LOAD)
    assert page.evaluate(on_page('runtime.status')) == "ready"


def error_text(code: str) -> str:
    return translator("en")(ERRORS[code])


def shown_title(page: Any) -> str:
    """The error title on show: the engine did not start, or it stopped under a game."""
    return str(page.locator(f"{TABLE} [data-error-title]:not([hidden])").inner_text())


def deep_link() -> str:
    nested = "[" * 3000 + "]" * 3000
    return "table=" + base64.urlsafe_b64encode(nested.encode()).decode().rstrip("=")


# -- a stalled download ----------------------------------------------------------------


@pytest.mark.parametrize("stalled", ["**/pyodide.asm.wasm", "**/pyodide.asm.mjs", "**/python_stdlib.zip"])
def test_a_stalled_download_becomes_the_error_state_with_retry(
    site_page: Callable[..., Any], real_site: Any, stalled: str
) -> None:
    page, _ = site_page(fresh=True)
    stall = 4000  # ms: the limit under test, half the default, so that the test waits less
    limits(page, stall=stall)
    asked: list[str] = []
    # Never answered: the download hangs, as on a connection that stopped.
    page.context.route(stalled, lambda route: asked.append(route.request.url))
    page.goto(real_site.server.url("rules/dashain/"))
    page.locator(TABLE).hover()
    state = wait_error(page)
    assert asked, "the route did not stall the download"
    assert state == {"state": "error", "code": "blocked", "retry": True}
    # not before the limit: the worker waited that long without a byte before saying so
    assert first_time(page, "error") - first_time(page, "loading") >= stall
    assert error_text("blocked") in status(page)
    assert shown_title(page) == translator("en")(ERROR_TITLE)
    page.context.unroute(stalled)
    page.evaluate(on_page('{ runtime.limits.stall = %d; }') % STALL)  # the retry, with the default
    retry_recovers(page)


# -- a worker that dies ----------------------------------------------------------------


def test_a_worker_dying_while_loading_becomes_the_error_state(site_page: Callable[..., Any], real_site: Any) -> None:
    page, _ = site_page(fresh=True)
    limits(page)  # no stall, silence or request limit in reach: only the worker's lock can tell
    # Held back (never answered): loading surely lasts.
    page.context.route("**/pyodide.asm.wasm", lambda route: None)
    page.goto(real_site.server.url())
    with page.context.expect_event("request", lambda r: r.url.endswith("/pyodide.asm.wasm")):
        page.locator(TABLE).hover()  # intent: the worker starts, and asks for the WebAssembly
    assert page.evaluate(on_page('runtime.status')) == "loading"
    page.wait_for_function(WATCHING)
    engine_worker(page).evaluate("setTimeout(() => self.close(), 0)")
    state = wait_error(page)
    assert state == {"state": "error", "code": "failed", "retry": True}
    assert shown_title(page) == translator("en")(ERROR_TITLE)
    page.context.unroute("**/pyodide.asm.wasm")
    retry_recovers(page)


def test_a_worker_dying_under_a_live_table_becomes_the_error_state_and_retry_restores_the_game(
    site_page: Callable[..., Any], real_site: Any
) -> None:
    page, _ = site_page(fresh=True)
    limits(page)  # no request limit in reach: only the worker's lock can tell
    page.goto(real_site.server.url("rules/cardrulesplus/"))
    start(page)
    ui_move(page)
    before = table_hash(page)
    page.wait_for_function(WATCHING)
    engine_worker(page).evaluate("setTimeout(() => self.close(), 0)")
    state = wait_error(page)
    assert state == {"state": "error", "code": "failed", "retry": True}
    assert error_text("failed") in status(page)
    assert shown_title(page) == translator("en")(ERROR_TITLE_LIVE)  # not "could not be started"
    assert translator("en")(ERROR_TITLE_LIVE) in status(page)
    retry_recovers(page)
    page.wait_for_function("() => +document.querySelector('#dh-table').dataset.answers > 0")
    assert table_hash(page) == before  # the game came back from the link


def test_a_request_that_never_settles_times_out(site_page: Callable[..., Any], real_site: Any) -> None:
    page, _ = site_page(fresh=True)
    limits(page, request=3000)
    page.goto(real_site.server.url())
    start(page)
    assert page.evaluate(on_page('runtime.limits.request')) == 3000
    # The engine gets stuck (as a request nested thousands deep once made it).
    engine_worker(page).evaluate("setTimeout(() => { for (;;) {} }, 0)")
    asked = int(page.evaluate("Date.now()"))
    page.locator(f"{TABLE} [data-op='sort']").click()
    state = wait_error(page)
    assert state == {"state": "error", "code": "timeout", "retry": True}
    assert first_time(page, "error", after=asked) - asked >= 3000  # the limit, not sooner
    assert error_text("timeout") in status(page)
    assert shown_title(page) == translator("en")(ERROR_TITLE_LIVE)
    page.evaluate(on_page('{ runtime.limits.request = 30000; }'))
    retry_recovers(page)


def test_the_default_limits_are_seconds_not_minutes(site_page: Callable[..., Any], real_site: Any) -> None:
    page, _ = site_page(fresh=True, unhurried=False)
    page.goto(real_site.server.url())
    limits = page.evaluate(on_page('runtime.limits'))
    # A download that trickles is judged on its last 20 s and must be able to
    # end within 10 minutes in all (a slow 2G line still can; 64 bytes every
    # few seconds cannot: see tests/offline/test_offline_deadline.py).
    assert limits == {"stall": STALL, "silence": 20_000, "request": 30_000, "window": 20_000, "total": 600_000}


# -- hostile links -----------------------------------------------------------------------


def test_a_link_over_200000_characters_gives_the_notice_and_a_fresh_deal(site_page: Callable[..., Any],
                                                                         real_site: Any) -> None:
    page, _ = site_page(fresh=True)
    page.goto(real_site.server.url("#table=" + "A" * 250_000))
    wait_ready(page)
    assert NOTICE in status(page)
    assert page.evaluate(STATE)["state"] == "ready"
    assert page.locator(f"{TABLE} .dht-settings__fields").get_attribute("disabled") is None
    assert len(table_hash(page)) < 2000  # the fresh deal's own link replaced it
    ui_move(page)  # and it plays


def test_a_deep_link_and_a_deep_hash_change_under_a_live_game_give_the_notice(site_page: Callable[..., Any],
                                                                              real_site: Any) -> None:
    page, _ = site_page(fresh=True)
    page.goto(real_site.server.url("#" + deep_link()))
    wait_ready(page)
    assert NOTICE in status(page)
    ui_move(page)
    assert NOTICE not in status(page)
    page.evaluate("() => { window.__sameWindow = true; }")
    page.evaluate("(h) => { location.hash = h; }", deep_link())
    # (Material's instant navigation may redraw the page for the new URL: the
    # table then starts again from the link, on the engine already loaded.)
    page.wait_for_function(
        "(notice) => { const t = document.querySelector('#dh-table');"
        " return t.dataset.state === 'ready' && t.querySelector('.dht-status').textContent.includes(notice); }",
        arg=NOTICE, timeout=LOAD,
    )
    assert page.evaluate("window.__sameWindow") is True
    assert page.evaluate(on_page('runtime.status')) == "ready"
    ui_move(page)  # the engine is alive
    assert len(table_hash(page)) < 2000  # and the link is the fresh game's
