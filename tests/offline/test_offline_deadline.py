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
from tools.pagemodules import on_page, page_condition

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
    page.evaluate(on_page('{ window.__shown = []; runtime.onProgress((l, t) => window.__shown.push([l, t])); }'))
    press_play(page)
    page.wait_for_function("() => document.querySelector('#dh-table').dataset.state === 'error'")
    reason = page.evaluate(on_page('runtime.ensure().then(() => null, (e) => [e.code, e.message])'))
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
    # No deadline while the test holds the download. Play is pressed before the page's script
    # (held back by a route) has run, so before the load event, when the service worker would
    # register: between the runtime module's arrival and the table's ensure() the engine was
    # "idle", and the service worker registered beside the engine's download (seen once in a
    # full offline run; the test then started the engine itself from a DOMContentLoaded listener).
    context.add_init_script("window.DhumbalRuntimeLimits = {window: 600000, silence: 120000, request: 600000};")
    page = context.new_page()
    page.set_default_timeout(240_000)
    held: list[Any] = []
    page.route("**/assets/dhumbal/site.js", lambda route: held.append(route))
    page.goto(server.url("rules/dashain/"), wait_until="commit")
    page.wait_for_selector(f"{TABLE} [data-dht-play]")
    while not held:
        page.wait_for_timeout(50)
    page.locator(f"{TABLE} [data-dht-play]").click()
    assert page.evaluate("document.readyState") != "complete"
    for route in held:
        route.continue_()
    page.unroute("**/assets/dhumbal/site.js")
    page.wait_for_load_state("load")
    page.wait_for_function(page_condition('runtime.progress && runtime.progress.loaded > 0'))
    assert page.evaluate(on_page('runtime.status')) == "loading"
    assert page.evaluate(on_page('site.offline.status')) == "registering"
    assert page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r === undefined)")
    assert "/sw.js" not in server.log
    server.trickle.clear()
    assert page.evaluate(on_page('site.offline.ready')) == "ready"
    assert page.evaluate(on_page('runtime.status')) == "ready"
    assert "/sw.js" in server.log
