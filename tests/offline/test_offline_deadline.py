"""A download that trickles ends in the error state with Retry (issue 21, item 5),
and while the engine is still loading the service worker waits for it.

The server sends the engine's WebAssembly fast up to a third, then 64 bytes
every 1.5 seconds: never quiet long enough for the stall limit (8 s), so
before the deadline "31 % downloaded" showed for ever. Now the rate over the
last `window` of the download says the bytes left cannot arrive within the
whole load's allowance, and the table shows the error with Retry; once the
line is good again, Retry loads the engine.

On a first visit where the reader plays before the page has loaded, the
service worker (and what it downloads to keep the site) comes once the
engine is ready: held in "loading" by a trickling download, the page has no
service worker and nothing asked for sw.js; once the line is good again,
the engine is ready, then the service worker keeps the language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dhumbal.core.i18n import translator
from dhumbal.view.loader import ERRORS
from tests.offline.offlinekit import TABLE
from tests.table.tabledriver import press_play, status

WINDOW = 4000  # ms: the rate is measured over this much of the download (20 s by default)


def test_a_trickling_download_becomes_the_error_state_with_retry(real: Any, site_server: Callable[..., Any],
                                                                 contexts: Callable[..., Any]) -> None:
    server = site_server(real.directory)
    size = next(real.directory.glob("assets/pyodide/*/pyodide.asm.wasm")).stat().st_size
    server.trickle["pyodide.asm.wasm"] = (size // 3, 1.5)
    context, _ = contexts(server.origin, service_workers="block")
    context.add_init_script(f"window.DhumbalRuntimeLimits = {{window: {WINDOW}, silence: 120000, request: 120000}};")
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(server.url("rules/dashain/"))
    page.evaluate("() => { window.__shown = []; DhumbalRuntime.onProgress((l, t) => window.__shown.push([l, t])); }")
    press_play(page)
    page.wait_for_function("() => document.querySelector('#dh-table').dataset.state === 'error'")
    reason = page.evaluate("() => DhumbalRuntime.ensure().then(() => null, (e) => [e.code, e.message])")
    assert reason[0] == "blocked" and "too slow to finish" in reason[1], reason
    shown = page.evaluate("window.__shown")
    loaded, total = shown[-1]
    assert 0 < loaded < total, shown[-1]  # it was trickling, not stalled or finished
    assert translator("en")(ERRORS["blocked"]) in status(page)
    retry = page.locator(f"{TABLE} [data-dht-retry]")
    assert retry.is_visible()
    server.trickle.clear()
    retry.click()
    page.wait_for_function("() => document.querySelector('#dh-table').dataset.state === 'ready'", timeout=240_000)


def test_the_service_worker_waits_for_an_engine_that_is_loading(real: Any, site_server: Callable[..., Any],
                                                               contexts: Callable[..., Any]) -> None:
    server = site_server(real.directory)
    size = next(real.directory.glob("assets/pyodide/*/pyodide.asm.wasm")).stat().st_size
    server.trickle["pyodide.asm.wasm"] = (size // 3, 0.5)
    context, _ = contexts(server.origin)
    # No deadline while the test holds the download; the engine starts before the page's load event.
    context.add_init_script("window.DhumbalRuntimeLimits = {window: 600000, silence: 120000, request: 600000};"
                            "document.addEventListener('DOMContentLoaded', () => DhumbalRuntime.ensure().catch(() => {}));")
    page = context.new_page()
    page.set_default_timeout(240_000)
    page.goto(server.url("rules/dashain/"))  # until the load event
    page.wait_for_function("() => DhumbalRuntime.progress && DhumbalRuntime.progress.loaded > 0")
    assert page.evaluate("DhumbalRuntime.status") == "loading"
    assert page.evaluate("DhumbalOffline.status") == "registering"
    assert page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r === undefined)")
    assert "/sw.js" not in server.log
    server.trickle.clear()
    assert page.evaluate("DhumbalOffline.ready") == "ready"
    assert page.evaluate("DhumbalRuntime.status") == "ready"
    assert "/sw.js" in server.log
