"""A new build replaces the old one on the device (issue 20).

Build "B" is the shared build "A" with one page changed and a new engine
wheel (the same wheel with a zip comment: other bytes, another hash), made
with the build's own functions (runtime.write_engine, offline.build_data).
One server serves A, then B at the same address. A reader who played on A
and comes back gets B's service worker: it takes over quietly (a notice
says so, in the page's language), every cache of A is deleted, Pyodide's
files move to B's engine cache (the same Pyodide: nothing downloaded again),
and the table loads B's wheel, never A's.

B's service worker also tells each open page by a message that it took
over (a page still loading when B claimed it would miss its
controllerchange). The page asks nothing of A while B waits to take over,
and asks B to take over again now and then: Chromium stops A before B takes
over, and a message that starts A again in that moment (the page's own
"keep", once) left B waiting for minutes (6 runs of 7, in this test).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dhumbal.core.i18n import translator
from dhumbal_site.runtime import assets as runtime
from dhumbal_site.runtime import offline
from tests.offline.offlinekit import MARK, build_b, engine_kept, kept, start_table, timings, until
from tools.pagemodules import on_page

CACHES = "async () => (await caches.keys()).sort()"
ENTRIES = "async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname)"


def test_a_new_build_replaces_the_old_one_quietly(real: Any, site_server: Callable[..., Any], contexts: Callable[..., Any],
                                                  tmp_path: Path) -> None:
    a = Path(real.directory)
    old = runtime.manifest_of(a)
    new = build_b(a, tmp_path / "b", tmp_path)
    assert new["cache"] != old["cache"]
    server = site_server(a)
    context, _ = contexts(server.origin)
    # What the service workers tell the pages, as each page hears it from its start.
    context.add_init_script("window.__told = []; navigator.serviceWorker.addEventListener('message',"
                            " (event) => window.__told.push(event.data));")
    page = context.new_page()
    page.set_default_timeout(240_000)
    page.goto(server.url("rules/dashain/"))
    assert kept(page) == "ready"
    start_table(page)
    engine_kept(page)
    assert page.evaluate("window.__told") == [], "a first install is no news"
    before = page.evaluate(CACHES)
    assert [n.split(":")[-1] for n in before] == sorted([old["cache"], f"site-{page.evaluate(on_page('site.offline.build'))}"])

    # The site is published again: the reader's next visit.
    server.directory = tmp_path / "b"
    mark = len(server.log)
    page.goto(server.url("glossary/"))
    notice = page.locator(".dh-updated")
    notice.wait_for(state="visible")
    notice.hover()  # it stays while pointed at (else it goes after a while: the machine may be slow)
    assert notice.get_attribute("role") == "status"
    assert notice.locator(".dh-updated__text").inner_text() == translator("en")(offline.STRINGS["updated.text"])
    box = notice.bounding_box()
    assert box is not None and box["y"] > 200  # at the bottom, never over the title or the header
    # B told the page it took over, which a page still loading when B claimed it
    # hears too (its controllerchange came too early for its scripts).
    build = json.loads(re.search(r"const BUILD = (.*?);\n", (tmp_path / "b" / offline.SERVICE_WORKER).read_text(encoding="utf-8")).group(1))["id"]  # type: ignore[union-attr]
    page.wait_for_function("(build) => window.__told.some((m) => m && m.type === 'updated' && m.build === build)", arg=build)
    # "Show the new version": the page as B made it. The reloaded page is loaded
    # (its scripts run) before the table's Play is pressed below: a press while
    # the page is still parsing would reach a button that nothing listens to yet.
    with page.expect_navigation(wait_until="load"):
        page.locator(".dh-updated__reload").click()
    page.wait_for_function(f"() => !!document.body && document.body.innerHTML.includes({json.dumps(html.unescape(MARK))})")
    until(page, "async (name) => { const names = await caches.keys();"
                " return names.length === 2 && names.some((n) => n.endsWith(name)); }", new["cache"])
    after = page.evaluate(CACHES)
    assert not set(after) & set(before), "an old build's cache is still there"
    engine = next(n for n in after if n.endswith(new["cache"]))
    carried = page.evaluate(ENTRIES, engine)
    assert {p.rsplit("/", 1)[-1] for p in carried} >= {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"}
    assert not [p for p in carried if p.endswith((".whl", "snapshot.bin"))], "the old engine came along"

    # B's engine: its wheel from the site, Pyodide from the device.
    start_table(page)
    steps = timings(page)
    assert steps["sources"]["pyodide.asm.wasm"] == "cache"
    assert steps["sources"][Path(new["wheel"]).name] == "network"
    asked = server.log[mark:]
    assert f"/assets/engine/{new['wheel']}" in asked
    assert not [p for p in asked if p.endswith("pyodide.asm.wasm") or old["wheel"] in p], asked
    assert runtime.manifest_of(a) == old, "making B changed A"
