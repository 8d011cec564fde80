"""The runtime in headless Chromium, on the built site.

Reading costs no WebAssembly; intent (or the runtime client's ``ensure()``) loads
Pyodide and the engine to ``ready``; Material's instant navigation keeps the
worker and its engine; a blocked runtime reports ``blocked`` and ``retry()``
recovers; a browser without module workers gets ``unsupported``.

The tests drive the runtime client directly (the page's module, as
``tools/pagemodules.py`` reaches it); where a page has a table, they also show
intent on it (which brings the table's code, browser/table/loader.ts) and read
its ``data-state``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from dhumbal_site.runtime import assets as runtime
from tests.browserkit import PATIENCE_MS, stop_clock
from tools.pagemodules import on_page

HEAVY_LINK = re.compile(r"""(?:src|href)\s*=\s*["'][^"']*(?:assets/pyodide/|assets/engine/|\.wasm\b|assets/dhumbal/worker\.js)""")
LOAD = PATIENCE_MS  # ms: Pyodide boots in seconds, but the test machine may be busy
TABLE = "[data-dhumbal-table]"
ENSURE = on_page("""runtime.ensure().then(
    () => ({status: runtime.status, error: runtime.error}),
    (e) => ({status: runtime.status, error: runtime.error, code: e.code}))""")


def _settle(page: Any) -> None:
    """Wait until the page has stopped fetching (its scripts, fonts, search index)."""
    page.wait_for_load_state("networkidle")


def _has_table_script(page: Any) -> bool:
    return bool(page.evaluate("() => !!document.querySelector('script[type=module][src*=\"assets/dhumbal/site.js\"]')"))


def _show_intent_or_ensure(page: Any) -> None:
    """Hover the page's table when the table script is there, else call ensure()."""
    if _has_table_script(page) and page.locator(TABLE).count():
        table = page.locator(TABLE).first
        table.scroll_into_view_if_needed()
        table.hover()
        page.wait_for_function(
            "(sel) => document.querySelector(sel).dataset.state === 'ready'", arg=TABLE, timeout=LOAD
        )
    else:
        assert page.evaluate(ENSURE)["status"] == "ready"
    assert page.evaluate(on_page('runtime.status')) == "ready"


def _ping(page: Any) -> Any:
    return page.evaluate(on_page("runtime.request({op: 'ping'})"))


# -- the built site ---------------------------------------------------------------


def test_built_site_serves_pyodide_and_the_engine_once_at_the_root(built_site: Any) -> None:
    site: Path = built_site.directory
    manifest = json.loads((site / "assets" / "engine" / "manifest.json").read_text(encoding="utf-8"))
    pyodide = site / runtime.pyodide_dest(manifest["pyodide"])
    for name in [*runtime.PYODIDE_FILES, runtime.PYODIDE_LOCK]:
        assert (pyodide / name).is_file(), name
    wheel = site / "assets" / "engine" / manifest["wheel"]
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == manifest["sha256"]
    assert wheel.name.startswith("dhumbal-") and wheel.name.endswith("-py3-none-any.whl")
    # One copy for all languages: 13 MB per language would be waste.
    copies = [p.relative_to(site).as_posix() for p in site.rglob("pyodide.asm.wasm")]
    assert copies == [f"assets/pyodide/{manifest['pyodide']}/pyodide.asm.wasm"]
    assert len(list(site.rglob("dhumbal-*.whl"))) == 1
    # No page names the engine's files (read only by a reader who plays, 0.6 KB gzipped in
    # every head): the table reads them from the manifest on intent.
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert "dhumbal:runtime" not in text and "assets/engine/" not in text and "assets/pyodide/" not in text, page


def test_every_page_loads_the_runtime_script_and_nothing_of_pyodide(built_site: Any) -> None:
    pages = sorted(built_site.directory.rglob("*.html"))
    assert pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        rel = page.relative_to(built_site.directory).as_posix()
        # No script, preload or prefetch of the runtime's heavy files.
        assert not HEAVY_LINK.search(html), rel
        if "/puzzles/p/" in "/" + rel:
            continue  # a puzzle the Puzzles page fetches into itself: no document, no script
        # One module for what every page needs; the runtime client comes with the table, on intent.
        assert len(re.findall(r'<script type="module" src="[^"]*assets/dhumbal/site\.js"', html)) == 1, rel


# -- in the browser ---------------------------------------------------------------


def test_page_view_without_interaction_downloads_no_webassembly(open_page: Any, built_site: Any) -> None:
    page, traffic = open_page()
    page.clock.install()
    page.goto(built_site.url)
    _settle(page)
    stop_clock(page)
    page.clock.run_for(60_000)  # a minute of reading, on the page's own clock
    _settle(page)
    assert traffic.wasm() == []
    assert not [p for p in traffic.paths() if p.startswith(("/assets/pyodide/", "/assets/engine/"))]
    assert not [p for p in traffic.paths() if p.endswith("/assets/dhumbal/worker.js")]
    assert page.evaluate(on_page('runtime.status')) == "idle"
    assert page.evaluate(on_page('runtime.error')) is None
    for state in page.eval_on_selector_all(TABLE, "els => els.map(e => e.dataset.state)"):
        assert state == "static"


def test_intent_loads_pyodide_and_the_engine_to_ready(open_page: Any, built_site: Any) -> None:
    page, traffic = open_page()
    page.goto(built_site.url)
    _settle(page)
    page.evaluate(on_page('{ window.__seen = []; runtime.onStatus((s) => window.__seen.push(s)); }'))
    _show_intent_or_ensure(page)
    # onStatus reports the current status at once, then every change.
    assert page.evaluate("window.__seen") == ["idle", "loading", "ready"]
    wasm = traffic.wasm()
    assert len(wasm) == 1 and wasm[0].startswith("/assets/pyodide/") and wasm[0].endswith("/pyodide.asm.wasm"), wasm
    paths = traffic.paths()
    # The engine's files come from the manifest, asked for once, on intent, before any of them.
    assert paths.count("/assets/engine/manifest.json") == 1
    first = min(i for i, p in enumerate(paths) if p.startswith(("/assets/pyodide/", "/assets/engine/")))
    assert paths[first] == "/assets/engine/manifest.json", paths
    assert any(p.startswith("/assets/engine/") and p.endswith(".whl") for p in paths)
    assert page.evaluate(on_page('runtime.config.cache')) == runtime.manifest_of(built_site.directory)["cache"]
    # Nothing of Pyodide's own 2.5 MB standard library: the engine's trimmed one.
    assert not [p for p in paths if p.startswith("/assets/pyodide/") and p.endswith("python_stdlib.zip")]
    # No package index, no micropip, nothing from elsewhere (the fixture checks hosts).
    assert not [p for p in paths if "micropip" in p or "packaging" in p]
    pong = _ping(page)
    assert pong["ok"] is True and pong["pong"] is True
    # ensure() is idempotent: no second worker, no second download.
    before = len(traffic.requested)
    assert page.evaluate(ENSURE)["status"] == "ready"
    assert traffic.paths(before) == []


def test_runtime_survives_instant_navigation(open_page: Any, built_site: Any) -> None:
    page, traffic = open_page()
    page.goto(built_site.url)
    _settle(page)
    _show_intent_or_ensure(page)
    page.evaluate(on_page('{ window.__samePage = true; window.__runtime = runtime; }'))
    mark = len(traffic.requested)
    link = page.locator(".md-sidebar--primary a.md-nav__link[href*='rules/dashain']").first
    link.click()
    page.wait_for_function("() => location.pathname.endsWith('/rules/dashain/')", timeout=LOAD)
    _settle(page)
    # Instant navigation, not a page load: the window and the runtime are the same.
    assert page.evaluate(on_page('window.__samePage === true && window.__runtime === runtime'))
    assert page.evaluate(on_page('runtime.status')) == "ready"
    assert _ping(page)["pong"] is True
    after = traffic.paths(mark)
    assert traffic.wasm(mark) == [], after
    assert not [p for p in after if p.startswith("/assets/pyodide/") or p.endswith("/assets/dhumbal/worker.js")], after
    assert not [p for p in after if p.endswith("/assets/dhumbal/runtime.js")], "the runtime script ran again"
    if _has_table_script(page) and page.locator(TABLE).count():
        page.locator(TABLE).first.hover()
        page.wait_for_function(
            "(sel) => document.querySelector(sel).dataset.state === 'ready'", arg=TABLE, timeout=LOAD
        )


@pytest.mark.parametrize("blocked", ["**/assets/pyodide/**", "**/assets/engine/**"])
def test_blocked_runtime_reports_blocked_and_retry_recovers(open_page: Any, built_site: Any, blocked: str) -> None:
    page, traffic = open_page(block=(blocked,))
    page.goto(built_site.url)
    _settle(page)
    result = page.evaluate(ENSURE)
    assert result == {"status": "error", "error": "blocked", "code": "blocked"}
    # A request while broken fails with the same code, and ensure() does not retry by itself.
    code = page.evaluate(on_page("runtime.request({op: 'ping'}).then(() => null, (e) => e.code)"))
    assert code == "blocked"
    if _has_table_script(page) and page.locator(TABLE).count():
        page.locator(TABLE).first.hover()
        page.wait_for_function(
            "(sel) => document.querySelector(sel).dataset.state === 'error'", arg=TABLE, timeout=LOAD
        )
    page.context.unroute(blocked)
    result = page.evaluate(
        on_page("runtime.retry().then(() => runtime.status, (e) => 'error ' + e.code)")
    )
    assert result == "ready"
    assert page.evaluate(on_page('runtime.error')) is None
    assert _ping(page)["pong"] is True


def test_browser_without_module_workers_is_unsupported(open_page: Any, built_site: Any) -> None:
    page, traffic = open_page(init_script="delete window.Worker;")
    page.goto(built_site.url)
    _settle(page)
    assert page.evaluate(ENSURE) == {"status": "error", "error": "unsupported", "code": "unsupported"}
    assert page.evaluate(on_page("runtime.retry().then(() => 'ready', (e) => e.code)")) == "unsupported"
    assert traffic.wasm() == []


def test_status_listeners_can_unsubscribe(open_page: Any, built_site: Any) -> None:
    page, _ = open_page(block=("**/assets/pyodide/**",))
    page.goto(built_site.url)
    _settle(page)
    seen = page.evaluate(on_page(
        """{
            const seen = [];
            const off = runtime.onStatus((s, code) => seen.push(code ? s + ':' + code : s));
            await runtime.ensure().catch(() => {});
            off();
            await runtime.retry().catch(() => {});
            return seen;
        }"""
    ))
    assert seen == ["idle", "loading", "error:blocked"]


def test_broken_engine_wheel_reports_failed(open_page: Any, built_site: Any) -> None:
    page, _ = open_page()
    # A wheel whose bytes do not match the page's integrity hash cannot be downloaded.
    page.context.route("**/assets/engine/*/dhumbal-*.whl*", lambda route: route.fulfill(body=b"not a wheel"))
    page.goto(built_site.url)
    _settle(page)
    assert page.evaluate(ENSURE) == {"status": "error", "error": "blocked", "code": "blocked"}


def test_a_page_older_than_the_site_loads_the_engine_the_site_has(open_page: Any, built_site: Any) -> None:
    """A new build was published since the page was loaded: the page's build's
    wheel is gone, and the table loads the one the site's manifest names now
    (here, one that is not a wheel at all, named with its own hash, which
    Python cannot unpack: "failed")."""
    page, traffic = open_page()
    manifest = json.loads((built_site.directory / "assets" / "engine" / "manifest.json").read_text(encoding="utf-8"))
    bad = "0000000000000000/dhumbal-0.0.0-py3-none-any.whl"
    digest = hashlib.sha256(b"not a wheel")
    newer = dict(manifest, wheel=bad, sha256=digest.hexdigest(), integrity="sha256-" + base64.b64encode(digest.digest()).decode(),
                 cache=f"engine-{manifest['pyodide']}-newer")
    page.context.route("**/assets/engine/*/dhumbal-*.whl*", lambda route: route.fulfill(status=404, body=b""))
    page.context.route(f"**/assets/engine/{bad}*", lambda route: route.fulfill(body=b"not a wheel"))
    page.context.route("**/assets/engine/manifest.json", lambda route: route.fulfill(json=newer))
    page.goto(built_site.url)
    _settle(page)
    assert page.evaluate(ENSURE) == {"status": "error", "error": "failed", "code": "failed"}
    assert f"/assets/engine/{bad}" in traffic.paths()


@pytest.mark.parametrize(("lang", "answer"), [("", {"status": 404, "body": b""}),
                                              ("ne/", {"status": 200, "body": b'{"wheel": "../../elsewhere.whl"}'})])
def test_a_missing_or_malformed_manifest_is_a_localized_error_with_nothing_started(
        open_page: Any, built_site: Any, lang: str, answer: dict[str, Any]) -> None:
    """Play reads the engine's files from the manifest: one that is not there, or not the
    build's (a path out of the engine's folder), says so in the page's language, and
    nothing of the engine is downloaded or kept (the worker is never told to start)."""
    from dhumbal.core.i18n import translator
    from dhumbal.view.loader import ERRORS

    page, traffic = open_page()
    page.context.route("**/assets/engine/manifest.json", lambda route: route.fulfill(**answer))
    page.goto(built_site.url + lang)
    _settle(page)
    table = page.locator(TABLE).first
    table.scroll_into_view_if_needed()
    table.hover()
    page.wait_for_function("(sel) => document.querySelector(sel).dataset.state === 'error'", arg=TABLE, timeout=LOAD)
    shown = page.locator(f"{TABLE} [data-error-code]:not([hidden])")
    assert shown.count() == 1 and shown.get_attribute("data-error-code") == "manifest"
    assert shown.inner_text().strip() == translator(lang.strip("/") or "en")(ERRORS["manifest"])
    assert page.evaluate(on_page("runtime.ensure().then(() => null, (e) => [e.code, runtime.config])")) == ["manifest", None]
    assert [p for p in traffic.paths() if p.startswith(("/assets/pyodide/", "/assets/engine/"))] == \
        ["/assets/engine/manifest.json"]
    assert not page.evaluate("async () => (await caches.keys()).filter((n) => n.includes(':engine-'))")
