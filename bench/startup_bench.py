"""Section (f) of the runtime benchmark (``python -m bench.runtime_bench --only start-up``):
start-up and offline, in one browser profile, the site served as a static host
serves it (gzip for text and WebAssembly).

Play -> ready on the first visit (cold) and on later visits (from the device's
cache, with the memory snapshot and without it, alternated), their ratio, a
visit with the network off, the first visit against bare Pyodide from the same
host, and the first visit on an emulated 4G line (Chromium's network
emulation), with and without HTTP compression. Figures only.
"""

from __future__ import annotations

import os
import statistics
from pathlib import Path
from typing import Any

from bench.browserkit import engine_kept, host, new_page, settle, time_bare
from tools.pagemodules import on_page

TARGET_SECOND_RATIO = 0.3
TARGET_SECOND_MS = 1000.0
TARGET_4G_MS = 9000.0
# Chromium's network emulation: 9 Mbit/s down and up, 150 ms round trip.
LINE_4G = {"offline": False, "latency": 150, "downloadThroughput": 9_000_000 / 8, "uploadThroughput": 9_000_000 / 8}
PLAY = on_page("""{ const t0 = performance.now();
    return runtime.ensure().then(() => [performance.now() - t0, runtime.timings || {}],
                                 (e) => [-1, {error: e.code + ': ' + e.message}]); }""")


def play(page: Any) -> tuple[float, dict[str, Any]]:
    ms, steps = page.evaluate(PLAY)
    if ms < 0:
        raise SystemExit(f"runtime bench: the engine did not load: {steps.get('error')}")
    return float(ms), steps


def kept(page: Any) -> str:
    return str(page.evaluate(on_page('site.offline.ready')))


def start_up(browser: Any, site: Path, runs: int) -> None:
    # The sitemaps name the address the site was built for; the pages' own
    # links are relative, so another port serves it as well.
    httpd = host(site, 0, compress=True)
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    try:
        first_visit_and_later(browser, url, runs)
        first_visit_against_bare(browser, url, max(3, runs // 2))
        on_4g(browser, site, url)
    finally:
        httpd.shutdown()
        httpd.server_close()


def first_visit_and_later(browser: Any, url: str, runs: int) -> None:
    context, page, _ = new_page(browser, url)
    try:
        context.add_init_script("window.DhumbalRuntimeLimits = {silence: 120000, request: 120000};")
        page.goto(url + "rules/dashain/")
        settle(page)
        offline = kept(page)
        cold, cold_steps = play(page)
        engine_kept(page)
        page.close()
        snap: list[float] = []
        plain: list[float] = []
        snap_steps: list[dict[str, Any]] = []
        for i in range(runs):
            for snapshot in (True, False):
                page = context.new_page()
                if not snapshot:
                    page.add_init_script("window.DhumbalRuntimeOptions = {snapshot: false};")
                page.goto(url + ("rules/nepali-games/" if i % 2 else "glossary/"))
                settle(page)
                ms, steps = play(page)
                (snap if snapshot else plain).append(ms)
                if snapshot:
                    snap_steps.append(steps)
                page.close()
        context.set_offline(True)
        page = context.new_page()
        page.goto(url + "compare/")
        offline_ms, offline_steps = play(page)
        deal = page.evaluate(on_page("runtime.request({op: 'new', profile: 'dashain', lang: 'en'}).then(r => r.ok)"))
        page.close()
    finally:
        context.close()
    second = statistics.median(snap)
    print("\n(f) start-up and offline, one browser profile, the site served gzip-compressed as a static host does")
    print(f"  service worker on the first visit: {offline} (the shell and every page of the language kept)")
    print(f"  first visit (cold cache), Play -> ready: {cold:7.0f} ms   steps: "
          + ", ".join(f"{k} {cold_steps.get(k)}" for k in ("downloads", "wasm", "pyodide", "install", "import")))
    print(f"    sources {sorted(set(cold_steps.get('sources', {}).values()))}, snapshot {cold_steps.get('snapshot')}")
    print(f"  second visit, from the device, with the snapshot: median {second:6.0f} ms   runs {', '.join(f'{x:.0f}' for x in snap)}")
    print(f"  second visit, from the device, without it:        median {statistics.median(plain):6.0f} ms   runs {', '.join(f'{x:.0f}' for x in plain)}")
    print(f"    with the snapshot: sources {sorted({v for st in snap_steps for v in st.get('sources', {}).values()})}, "
          f"snapshot {sorted({st.get('snapshot') for st in snap_steps})}")
    ratio = second / cold
    print(f"  second / cold: {ratio:.2f} (target <= {TARGET_SECOND_RATIO}: {ratio / TARGET_SECOND_RATIO:.2f}x of target); "
          f"second visit {second:.0f} ms (target <= {TARGET_SECOND_MS:.0f} ms: {second / TARGET_SECOND_MS:.2f}x of target)")
    print(f"  offline visit (network off, a page kept but never opened): "
          f"{'ready' if deal else 'NOT ready'} in {offline_ms:.0f} ms (target: ready), snapshot {offline_steps.get('snapshot')}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"  machine load average: {load:.1f} on {os.cpu_count()} cores (a loaded machine slows every CPU step; "
          "the ratio is measured within this run)")


TARGET_FIRST_RATIO = 1.15
FIRST_BEFORE_MS = 2400.0  # the cold Play -> ready on loopback before this work


def first_visit_against_bare(browser: Any, url: str, runs: int) -> None:
    """No regression of the first visit: Play pressed as soon as the page has
    loaded (the service worker registering meanwhile), each in a fresh
    context, alternated with bare Pyodide booting from the same host."""
    bare: list[float] = []
    first: list[float] = []
    for _ in range(runs):
        bare.append(time_bare(browser, url))
        context, page, _ = new_page(browser, url)
        try:
            context.add_init_script("window.DhumbalRuntimeLimits = {silence: 120000, request: 120000};")
            page.goto(url + "rules/dashain/")
            page.wait_for_load_state("load")
            first.append(play(page)[0])
        finally:
            context.close()
    ratio = statistics.median(first) / statistics.median(bare)
    print(f"  first visit, Play at once after the page loads (fresh profile each): median {statistics.median(first):6.0f} ms"
          f"   runs {', '.join(f'{x:.0f}' for x in first)}")
    print(f"    bare Pyodide from the same host, alternated:  median {statistics.median(bare):6.0f} ms"
          f"   runs {', '.join(f'{x:.0f}' for x in bare)}")
    print(f"    first visit / bare Pyodide: {ratio:.2f} (no regression: target <= {TARGET_FIRST_RATIO}: "
          f"{ratio / TARGET_FIRST_RATIO:.2f}x of target); before this work: {FIRST_BEFORE_MS:.0f} ms cold on loopback")


def on_4g(browser: Any, site: Path, url: str) -> None:
    raw = host(site, 0, compress=False)
    plain_url = f"http://127.0.0.1:{raw.server_address[1]}/"
    results = {}
    try:
        for name, address in (("gzip", url), ("no compression", plain_url)):
            context, page, finished = new_page(browser, address)
            try:
                context.add_init_script("window.DhumbalRuntimeLimits = {silence: 120000, request: 120000};")
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", LINE_4G)
                page.goto(address + "rules/dashain/")
                page.wait_for_load_state("load")
                ms, steps = play(page)
                wire = sum(r.sizes()["responseBodySize"] for r in finished
                           if "/assets/pyodide/" in r.url or "/assets/engine/" in r.url)
                results[name] = (ms, steps, wire)
            finally:
                context.close()
    finally:
        raw.shutdown()
        raw.server_close()
    print("  first visit on an emulated 4G line (9 Mbit/s, 150 ms round trip), Play -> ready:")
    for name, (ms, steps, wire) in results.items():
        print(f"    {name:<15}{ms:7.0f} ms (target <= {TARGET_4G_MS:.0f} ms: {ms / TARGET_4G_MS:.2f}x of target); "
              f"last byte at {steps.get('downloads', 0):.0f} ms, {wire / 1e6:.1f} MB over the line")
    print("    (the issue's figure before this work: 16.5 s; the CPU steps after the last byte grow with the machine's load)")

