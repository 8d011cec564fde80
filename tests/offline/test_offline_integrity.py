"""A bad file in a cache never breaks the table or a page for good (issue 44).

Every file the worker or the service worker keeps is checked against the
build's hash before it is kept and each time a kept copy is used
(assets/dhumbal/worker.js, serviceworker.js). The test server answers the
engine's WebAssembly wrong but complete, with status 200: cut halfway
(Content-Length saying so, as a proxy that dropped the connection and
closed the response cleanly would), or with a filtering proxy's HTML
"blocked" page. On main either one was kept and every later start read it:
the table failed within a second for good, through Retry, reloads and a new
build (whose service worker carried the kept Pyodide files over). Here, once
the fault clears, Play works with no step but Retry; a damaged copy that an
older worker kept (put there by the test, as main left it) is deleted and
fetched again, and a new build does not carry it over. The same holds for
the site's own files: a damaged copy of dhumbal-examples.js in the site's
cache is never served (the examples keep their steppers) nor carried into
the next build's cache. And a page of the old build left open across an
update, whose table starts afterwards, starts on the new build's files and
leaves no cache of its build behind.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from dhumbal_site.runtime import assets as runtime
from tests.offline.offlinekit import BLOCKED_PAGE, TABLE, build_b, kept, until
from tests.table.tabledriver import press_play, wait_ready
from tools.pagemodules import on_page

WASM = "pyodide.asm.wasm"
CACHES = "async () => (await caches.keys()).sort()"
# Every entry of every engine cache of the page's site: {cache: {path: byte length}}.
ENGINE_ENTRIES = """async () => {
    const out = {};
    for (const name of (await caches.keys()).filter((n) => n.includes(':engine-'))) {
        const cache = await caches.open(name);
        out[name] = {};
        for (const request of await cache.keys()) {
            out[name][new URL(request.url).pathname] = (await (await cache.match(request)).arrayBuffer()).byteLength;
        }
    }
    return out;
}"""
# Whether an engine cache holds the WebAssembly whole (`size` bytes).
WASM_KEPT = """async (size) => {
    for (const name of (await caches.keys()).filter((n) => n.includes(':engine-'))) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            if (request.url.endsWith('.wasm') && (await (await cache.match(request)).arrayBuffer()).byteLength === size) return true;
        }
    }
    return false;
}"""
# Put `body` (text) in the page's engine cache as the WebAssembly, as main's worker kept it.
KEEP_DAMAGED_WASM = on_page("""{
    const config = runtime.config;
    const cache = await caches.open(`dhumbal:${new URL(runtime.base).pathname}:${name || config.cache}`);
    await cache.put(new URL(config.pyodideDir + 'pyodide.asm.wasm', runtime.base).href,
                    new Response(body, {headers: {'content-type': 'application/wasm'}}));
}""", "[name, body]")


def settled(page: Any) -> str:
    """Wait until the table is live or in the error state; which."""
    page.wait_for_function("() => ['ready', 'error'].includes(document.querySelector('#dh-table').dataset.state)")
    return str(page.locator(TABLE).get_attribute("data-state"))


def reason(page: Any) -> list[str]:
    return list(page.evaluate(on_page('runtime.ensure().then(() => null, (e) => [e.code, e.message])')))


def wasm_size(site: Path) -> int:
    return next(site.glob(f"assets/pyodide/*/{WASM}")).stat().st_size


def test_a_wasm_cut_halfway_is_never_kept_and_retry_plays_once_the_line_is_good(
        real: Any, site_server: Callable[..., Any], contexts: Callable[..., Any]) -> None:
    server = site_server(real.directory)
    server.faults[WASM] = "cut"
    context, _ = contexts(server.origin, service_workers="block")  # the worker's own cache
    page = context.new_page()
    page.set_default_timeout(240_000)
    page.goto(server.url("rules/dashain/"))
    press_play(page)
    assert settled(page) == "error"
    # Nothing of it kept; asked for again past the HTTP cache, and refused with Retry.
    held = page.evaluate(ENGINE_ENTRIES)
    assert not [p for entries in held.values() for p in entries if p.endswith(WASM)], held
    assert sum(p.endswith(WASM) for p in server.log) == 2
    code, message = reason(page)
    assert code == "blocked" and WASM in message and "does not match" in message, message
    # The line is good again: Retry, and the table plays; the whole file is kept.
    server.faults.clear()
    page.locator(f"{TABLE} [data-dht-retry]").click()
    wait_ready(page)
    until(page, WASM_KEPT, wasm_size(Path(real.directory)))


def test_an_html_page_for_the_wasm_and_a_damaged_kept_copy_never_stop_the_table_also_after_an_update(
        real: Any, site_server: Callable[..., Any], contexts: Callable[..., Any], tmp_path: Path) -> None:
    a = Path(real.directory)
    server = site_server(a)
    server.faults[WASM] = "html"
    context, _ = contexts(server.origin)
    page = context.new_page()
    page.set_default_timeout(240_000)
    page.goto(server.url("rules/dashain/"))
    press_play(page)
    assert settled(page) == "error"
    held = page.evaluate(ENGINE_ENTRIES)
    assert not [p for entries in held.values() for p in entries if p.endswith(WASM)], held
    assert reason(page)[0] == "blocked"
    assert kept(page) == "ready"  # the service worker comes once the engine is no longer loading

    # The fault clears, but the device holds the blocked page as the WebAssembly, as
    # main's worker kept it: the kept copy is found out, deleted and fetched again.
    server.faults.clear()
    page.evaluate(KEEP_DAMAGED_WASM, [None, BLOCKED_PAGE.decode()])
    page.locator(f"{TABLE} [data-dht-retry]").click()
    wait_ready(page)
    assert page.evaluate(on_page('runtime.timings.sources'))[WASM] == "network"
    until(page, WASM_KEPT, wasm_size(a))

    # A damaged copy again, then a new build takes over: it carries the good Pyodide
    # files over, never the damaged one, and its table plays.
    old = runtime.manifest_of(a)
    page.evaluate(KEEP_DAMAGED_WASM, [None, "\0asm cut short"])
    new = build_b(a, tmp_path / "b", tmp_path)
    server.directory = tmp_path / "b"
    page.goto(server.url("glossary/"))
    until(page, "async ([a, b]) => { const names = await caches.keys();"
                " return names.length === 2 && names.some((n) => n.endsWith(b)) && !names.some((n) => n.endsWith(a)); }",
          [old["cache"], new["cache"]])
    held = page.evaluate(ENGINE_ENTRIES)
    carried = next(entries for name, entries in held.items() if name.endswith(new["cache"]))
    assert not [p for p, n in carried.items() if p.endswith(WASM) and n != wasm_size(a)], carried
    page.reload()
    press_play(page)
    wait_ready(page)
    assert page.evaluate(on_page('runtime.config.cache')) == new["cache"]


def test_a_damaged_site_file_is_never_served_nor_carried_into_the_next_build(
        real: Any, site_server: Callable[..., Any], contexts: Callable[..., Any], tmp_path: Path) -> None:
    a = Path(real.directory)
    script = "assets/dhumbal/site.js"  # every page's module: the examples' steppers among it
    good = (a / script).read_text(encoding="utf-8")
    server = site_server(a)
    context, _ = contexts(server.origin)
    page = context.new_page()
    page.set_default_timeout(240_000)
    page.goto(server.url("rules/cardrulesplus/"))
    assert kept(page) == "ready"
    steppers = "() => document.querySelectorAll('[data-stepper=\"on\"]').length"
    assert page.evaluate(steppers) > 0
    # The kept copy damaged on the device, its revision header left as it was.
    damage = on_page("""{
        const name = (await caches.keys()).find((n) => n.includes(':site-'));
        const cache = await caches.open(name);
        const url = new URL(path, runtime.base).href;
        const kept = await cache.match(url);
        await cache.put(url, new Response('/* damaged */', {headers: kept.headers}));
        return name;
    }""", "path")
    site_a = page.evaluate(damage, script)
    page.reload()
    assert kept(page) == "ready"  # after the load event: the examples' script has run
    assert page.evaluate(steppers) > 0, "the examples lost their steppers"
    served = page.evaluate(on_page('fetch(new URL(path, runtime.base)).then((r) => r.text())', 'path'), script)
    assert served == good

    # Damaged again, then a new build takes over: its copy is the real file.
    page.evaluate(damage, script)
    build_b(a, tmp_path / "b", tmp_path)
    server.directory = tmp_path / "b"
    page.goto(server.url("glossary/"))
    until(page, "async (old) => { const names = await caches.keys();"
                " return names.some((n) => n.includes(':site-')) && !names.includes(old); }", site_a)
    in_b = page.evaluate(on_page("""{
        const name = (await caches.keys()).find((n) => n.includes(':site-'));
        const kept = await (await caches.open(name)).match(new URL(path, runtime.base).href);
        return kept ? kept.text() : null;
    }""", "path"), script)
    assert in_b == good
    page.goto(server.url("rules/cardrulesplus/"))
    assert kept(page) == "ready"
    assert page.evaluate(steppers) > 0, "the examples lost their steppers"


def test_a_page_of_the_old_build_left_open_leaves_no_engine_cache_of_its_build(
        real: Any, site_server: Callable[..., Any], contexts: Callable[..., Any], tmp_path: Path) -> None:
    """The host still serves the old build's engine files (as one that keeps what it
    served does), yet the old page's table starts on the files the site has now:
    it reads them from the manifest the new build's service worker keeps (whose
    worker script and table code it is given too), so no cache of its build is
    made again."""
    a = Path(real.directory)
    old = runtime.manifest_of(a)
    server = site_server(a)
    context, _ = contexts(server.origin)
    stale = context.new_page()
    stale.set_default_timeout(240_000)
    stale.goto(server.url("rules/dashain/"))
    assert kept(stale) == "ready"
    new = build_b(a, tmp_path / "b", tmp_path, keep_a_engine=True)
    server.directory = tmp_path / "b"
    fresh = context.new_page()
    fresh.set_default_timeout(240_000)
    fresh.goto(server.url("glossary/"))
    until(fresh, "async (b) => { const names = await caches.keys();"
                 " return names.length === 2 && names.some((n) => n.endsWith(b)); }", new["cache"])
    # The old page, still open, starts its table: on the new build's files.
    press_play(stale)
    wait_ready(stale)
    assert stale.evaluate(on_page('runtime.config.cache')) == new["cache"]
    until(stale, "async ([a, b]) => { const names = await caches.keys();"
                 " return !names.some((n) => n.endsWith(a)) && names.some((n) => n.endsWith(b)); }",
          [old["cache"], new["cache"]])
