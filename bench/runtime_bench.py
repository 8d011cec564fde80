"""Benchmark of the browser runtime (``make bench`` runs it after the engine's).

One run in headless Chromium against the built site served on 127.0.0.1:

(a) boot: bare Pyodide (``loadPyodide`` in a module worker, nothing else)
    against this project's engine-ready time (the runtime's ``ensure()``:
    worker start, Pyodide, wheel, imports, until ``ready``), each in a fresh
    browser context (cold HTTP cache), alternated, medians and their ratio
    (target ≤ 1.15);
(b) bytes: what a page view without interaction transfers (and proof that
    no WebAssembly is among it), and the table's scripts and styles in gzip
    bytes (``table.js``, ``runtime.js``, ``table.css``, loaded on intent;
    target ≤ 40 KB);
(c) bot move latency in a Web Worker of the bench's own (the site's Pyodide
    and wheel): p50 and p95 over 300 moves per profile (``lab.benchmark.
    bot_timings``), beside CPython (target p95 ≤ 20 ms), and a round trip;
(d) the expert's decisions in that worker (target p95 ≤ 150 ms) and the
    table's hint (``{"op": "hint"}``) per request;
(e) the page's main thread while the table shows the bots' moves one at a
    time (normal pace): the long tasks (PerformanceObserver ``longtask``,
    50 ms or more) during those moves, over a dozen of the reader's turns
    (target: none);
(f) start-up and offline, in one browser profile, the site served as a
    static host serves it (gzip for text and WebAssembly): Play -> ready on
    the first visit (cold) and on later visits (from the device's cache,
    with the memory snapshot and without it, alternated), their ratio
    (targets: second visit <= 0.3x cold and <= 1.0 s), a visit with the
    network off (target: the table reaches ready), and the first visit on an
    emulated 4G line (Chromium's network emulation: 9 Mbit/s, 150 ms round
    trip; target <= 9 s), with and without HTTP compression.

Figures only: nothing here passes or fails on timing.

    python -m bench.runtime_bench [--site DIR] [--runs N] [--only start-up]

``--only start-up`` runs section (f) alone.

Without ``--site`` the site is built first (``mkdocs build --strict``) into a
temporary directory.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.benchkit import percentile
from bench.browserkit import (
    BARE_WORKER,
    BARE_WORKER_NAME,
    CHROMIUM,
    CHROMIUM_ARGS,
    LOAD_TIMEOUT,
    build_site,
    kb,
    new_page,
    serve,
    settle,
    time_bare,
)
from bench.startup_bench import start_up
from tools import headless, pyodide_engine
from tools.pagemodules import on_page

PROFILES = ("nepali-games", "dashain", "cardrulesplus")
MOVES = 300
TARGET_RATIO = 1.15
TARGET_SCRIPT_KB = 40
# The table's files, one per part of the table (globs under the site's assets/).
TABLE_ASSETS = ("dhumbal/table.js", "dhumbal/runtime.js", "dhumbal/table.css")
READER_TURNS = 12
TARGET_P95_MS = 20.0
EXPERT_MOVES = 150
TARGET_EXPERT_P95_MS = 150.0


# A worker that boots Pyodide from the site, installs the site's engine wheel as the
# table's worker does (and, beside it, the engine's modules the wheel leaves out: the
# bench's own timing loop is among them), then answers {profile, difficulty, moves, seed}
# with dhumbal.lab.benchmark.bot_timings: the table's bot moves, in a browser's worker.
BOTS_WORKER = """\
const at = (path) => new URL(path, self.location.href);
const indexURL = at("assets/pyodide/VERSION/").href;
const { loadPyodide } = await import(indexURL + "pyodide.mjs");
const bytes = async (path) => new Uint8Array(await (await fetch(at(path))).arrayBuffer());
const [pyodide, manifest] = await Promise.all([
  loadPyodide({ indexURL }), fetch(at("assets/engine/manifest.json")).then((r) => r.json())]);
const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
pyodide.unpackArchive(await bytes("assets/engine/" + manifest.wheel), "wheel", { extractDir: sitePackages });
pyodide.unpackArchive(await bytes("DEVELOPER"), "zip", { extractDir: sitePackages });
pyodide.runPython("import importlib; importlib.invalidate_caches()");
self.onmessage = (event) => {
  try {
    pyodide.globals.set("job", pyodide.toPy(event.data));
    self.postMessage({ ok: true, ...JSON.parse(pyodide.runPython(`
import json
from dhumbal.core.profiles import parse_profile
from dhumbal.lab.benchmark import bot_timings
json.dumps(bot_timings(parse_profile(job["profile"]), job["difficulty"], job["moves"], seed=job["seed"]))`)) });
  } catch (error) {
    self.postMessage({ ok: false, error: { code: "failed", text: String(error) } });
  }
};
self.postMessage({ ready: true });
"""
BOTS_WORKER_NAME = "bench-bots-worker.mjs"
DEVELOPER_NAME = "bench-developer-modules.zip"
# Starts the bots worker on the page and sends it each job: (ask, close).
BOTS = """(name) => new Promise((resolve, reject) => {
    const worker = new Worker(name, {type: 'module'});
    worker.onerror = (e) => reject(new Error(e.message || 'worker error'));
    worker.onmessage = () => {
        worker.onmessage = null;
        window.__dhBench = (job) => new Promise((done) => { worker.onmessage = (m) => done(m.data); worker.postMessage(job); });
        window.__dhBenchClose = () => worker.terminate();
        resolve(true);
    };
})"""


def time_engine(browser: Any, url: str) -> tuple[float, dict[str, float], Any, Any]:
    context, page, _ = new_page(browser, url)
    page.goto(url)
    settle(page)
    ms, steps = page.evaluate(on_page(
        """{ const t0 = performance.now();
            return runtime.ensure().then(() => [performance.now() - t0, runtime.timings || {}]); }"""
    ))
    return float(ms), steps, context, page


def page_view_bytes(browser: Any, url: str, site: Path) -> dict[str, Any]:
    context, page, finished = new_page(browser, url)
    try:
        page.goto(url)
        settle(page)
        page.evaluate(on_page('site.offline.ready'))
        page.wait_for_timeout(1500)
        rows: list[tuple[str, int, int]] = []
        kept: list[tuple[str, int, int]] = []
        for request in finished:
            sizes = request.sizes()
            path = request.url[len(url) - 1:].split("?")[0]
            body = sizes["responseBodySize"]
            local = site / path.lstrip("/")
            if local.is_dir():
                local = local / "index.html"
            gz = len(gzip.compress(local.read_bytes(), 9)) if local.is_file() else body
            row = (path, body + sizes["responseHeadersSize"], gz)
            # The service worker's own requests keep the site for offline reading.
            (kept if request.service_worker is not None else rows).append(row)
        status = page.evaluate(on_page('runtime.status'))
        return {"rows": rows, "kept": kept, "status": status}
    finally:
        context.close()


def cpython_bot_timings(profile: str) -> list[float]:
    """The same bot moves in this process (CPython), in milliseconds."""
    from dhumbal.core.profiles import parse_profile
    from dhumbal.lab.benchmark import bot_timings

    timings = bot_timings(parse_profile(profile), "hard", MOVES, seed=1)["timings_ms"]
    assert isinstance(timings, list)
    return [float(x) for x in timings]


def worker_bot_timings(page: Any, profile: str, difficulty: str, moves: int) -> dict[str, Any]:
    """Bot moves timed in the bench's worker on ``page`` (started by :data:`BOTS`)."""
    job = {"profile": profile, "difficulty": difficulty, "moves": moves, "seed": 1}
    answer: dict[str, Any] = page.evaluate("(job) => window.__dhBench(job)", job)
    return answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="an already built site (built with DHUMBAL_SITE_URL of this server)")
    parser.add_argument("--runs", type=int, default=5, help="boot timings of each kind (default 5)")
    parser.add_argument("--only", choices=("start-up",), help="run one section: start-up is (f)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="dhumbal-bench-") as tmp:
        site = args.site or Path(tmp) / "site"
        site.mkdir(parents=True, exist_ok=True)
        httpd, url = serve(site)
        try:
            if args.site is None:
                t0 = time.perf_counter()
                build_site(site, url)
                print(f"runtime bench: site built in {time.perf_counter() - t0:.1f} s, served at 127.0.0.1")
            pyodide = json.loads((site / "assets" / "engine" / "manifest.json").read_text(encoding="utf-8"))["pyodide"]
            (site / BARE_WORKER_NAME).write_text(BARE_WORKER.replace("VERSION", pyodide), encoding="utf-8")
            (site / BOTS_WORKER_NAME).write_text(BOTS_WORKER.replace("VERSION", pyodide).replace("DEVELOPER", DEVELOPER_NAME),
                                                 encoding="utf-8")
            wheel = site / "assets" / "engine" / json.loads(
                (site / "assets" / "engine" / "manifest.json").read_text(encoding="utf-8"))["wheel"]
            (site / DEVELOPER_NAME).write_bytes(pyodide_engine.developer_modules(wheel))
            try:
                with sync_playwright() as playwright:
                    browser = headless.launch(playwright.chromium, CHROMIUM, CHROMIUM_ARGS)
                    try:
                        if args.only is None:
                            run(browser, url, site, args.runs)
                        start_up(browser, site, args.runs)
                    finally:
                        browser.close()
            finally:
                for name in (BARE_WORKER_NAME, BOTS_WORKER_NAME, DEVELOPER_NAME):
                    (site / name).unlink(missing_ok=True)
        finally:
            httpd.shutdown()
            httpd.server_close()
    return 0


def run(browser: Any, url: str, site: Path, runs: int) -> None:
    # (b) bytes of a page view without interaction, and the table script's size.
    view = page_view_bytes(browser, url, site)
    rows = view["rows"]
    total = sum(r[1] for r in rows)
    total_gz = sum(r[2] for r in rows)
    wasm = [r[0] for r in rows if r[0].endswith(".wasm")]
    print("\n(b) page view without interaction (home page, fresh cache)")
    print(f"  requests {len(rows)}, transferred {kb(total)} (uncompressed local server), "
          f"{kb(total_gz)} if served gzip-compressed")
    for path, size, gz in sorted(rows, key=lambda r: -r[1])[:6]:
        print(f"    {path:<58}{kb(size):>10}{kb(gz):>10} gz")
    print(f"  WebAssembly requests: {len(wasm)} {'(none)' if not wasm else wasm}; runtime status after the view: {view['status']}")
    kept = view["kept"]
    print(f"  and the service worker's, keeping the site's shell and every page of the language for offline reading: "
          f"{len(kept)} requests, {kb(sum(r[1] for r in kept))} ({kb(sum(r[2] for r in kept))} if served gzip-compressed), "
          f"WebAssembly among them: {len([r for r in kept if r[0].endswith('.wasm')])}")
    assets = [p for name in TABLE_ASSETS for p in (sorted((site / "assets").glob(name)) or [site / "assets" / name])]
    present = [p for p in assets if p.is_file()]
    gz = sum(len(gzip.compress(p.read_bytes(), 9)) for p in present)
    raw = sum(p.stat().st_size for p in present)
    missing = [p.name for p in assets if not p.is_file()]
    print(f"  the table's scripts and styles{' (missing: ' + ', '.join(missing) + ')' if missing else ''}: "
          f"{kb(raw)} raw, {kb(gz)} gzip: {gz / (TARGET_SCRIPT_KB * 1024):.2f}x of the {TARGET_SCRIPT_KB} KB target")
    for p in present:
        print(f"    {p.name:<24}{kb(p.stat().st_size):>10}{kb(len(gzip.compress(p.read_bytes(), 9))):>10} gz")

    # (a) boot times, alternated, each in a fresh context.
    bare: list[float] = []
    engine: list[float] = []
    steps: list[dict[str, float]] = []
    context = page = None
    for _i in range(runs):
        bare.append(time_bare(browser, url))
        if context is not None:
            context.close()
        ms, step, context, page = time_engine(browser, url)
        engine.append(ms)
        steps.append(step)
    assert page is not None and context is not None
    bare_med, engine_med = statistics.median(bare), statistics.median(engine)
    print("\n(a) boot, cold cache, median of", runs, "each")
    print(f"  bare Pyodide (loadPyodide in a module worker): {bare_med:8.0f} ms   runs {', '.join(f'{x:.0f}' for x in bare)}")
    print(f"  engine ready (ensure(): worker, Pyodide, wheel): {engine_med:7.0f} ms   runs {', '.join(f'{x:.0f}' for x in engine)}")
    ratio = engine_med / bare_med
    print(f"  ratio engine/bare: {ratio:.2f} (target <= {TARGET_RATIO}: {ratio / TARGET_RATIO:.2f}x of target); "
          f"best runs: {min(engine) / min(bare):.2f}")
    if steps and steps[0]:
        keys = ("start", "pyodide", "wheel", "install", "import")
        median_steps = {k: statistics.median(s.get(k, 0.0) for s in steps) for k in keys}
        print("  engine steps in the worker (median ms): "
              + ", ".join(f"{k} {median_steps[k]:.0f}" for k in keys)
              + "  (start: worker script running; wheel: wait after Pyodide; import: dhumbal + dhumbal.table.web)")
        # The same ratio within each engine run: its time against the same run
        # without the engine's own steps (Pyodide's boot inside it), which a
        # busy machine disturbs far less than comparing separate runs.
        within = [ms / (ms - s.get("wheel", 0.0) - s.get("install", 0.0) - s.get("import", 0.0)) for ms, s in zip(engine, steps)]
        print(f"  ratio within each engine run (engine steps over its own Pyodide boot): "
              f"median {statistics.median(within):.3f}, runs {', '.join(f'{x:.3f}' for x in within)}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"  machine load average during the runs: {load:.1f} on {os.cpu_count()} cores "
          "(other work on the machine inflates and scatters boot times)")

    # (c) bot moves in a worker of the bench's own (the last engine page is ready: the
    # table's worker answers the round trips and the hints).
    print(f"\n(c) bot move latency in a Web Worker (hard bots, {MOVES} moves per profile, 4 seats)")
    rtt = page.evaluate(on_page(
        """{ const out = [];
            for (let i = 0; i < 50; i++) { const t0 = performance.now();
                await runtime.request({op: 'ping'}); out.push(performance.now() - t0); }
            return out; }"""
    ))
    page.evaluate(BOTS, url + BOTS_WORKER_NAME)
    all_pyodide: list[float] = []
    all_cpython: list[float] = []
    print(f"  {'profile':<15}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'CPython p50':>13}{'p95':>8}{'p95 ratio':>11}")
    for profile in PROFILES:
        answer = worker_bot_timings(page, profile, "hard", MOVES)
        if not answer.get("ok"):
            print(f"  {profile:<15}bot timings unavailable: {answer.get('error')}")
            continue
        timings = [float(x) for x in answer["timings_ms"]]
        native = cpython_bot_timings(profile)
        all_pyodide += timings
        all_cpython += native
        p95 = percentile(timings, 0.95)
        n95 = percentile(native, 0.95)
        print(f"  {profile:<15}{percentile(timings, 0.5):>9.2f}{p95:>9.2f}{max(timings):>9.2f}"
              f"{percentile(native, 0.5):>13.3f}{n95:>8.3f}{p95 / n95:>10.1f}x")
    if all_pyodide:
        p95 = percentile(all_pyodide, 0.95)
        print(f"  all {len(all_pyodide)} moves: p50 {percentile(all_pyodide, 0.5):.2f} ms, p95 {p95:.2f} ms "
              f"(target <= {TARGET_P95_MS:.0f} ms: {p95 / TARGET_P95_MS:.2f}x of target); "
              f"CPython p95 {percentile(all_cpython, 0.95):.3f} ms")
    print(f"  request round trip (ping, page -> worker -> page): p50 {percentile(rtt, 0.5):.2f} ms, "
          f"p95 {percentile(rtt, 0.95):.2f} ms")

    # The expert in the bench's worker (every seat expert, so every move is an expert
    # decision), and the table's hint (call odds) per request to the table's worker.
    print(f"\n(d) the expert's decisions in a Web Worker ({EXPERT_MOVES} moves per profile, 4 expert seats) "
          f"and the hint (call odds) per request")
    print(f"  {'profile':<15}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'hint p50':>10}{'hint p95':>10}")
    experts: list[float] = []
    for profile in PROFILES:
        answer = worker_bot_timings(page, profile, "expert", EXPERT_MOVES)
        if not answer.get("ok"):
            print(f"  {profile:<15}bot timings unavailable: {answer.get('error')}")
            continue
        timings = [float(x) for x in answer["timings_ms"]]
        experts += timings
        hints = page.evaluate(on_page(
            """{ const out = [];
                for (let seed = 1; seed <= 8; seed++) {
                    await runtime.request({op: 'new', table: 'bench-hint', profile, seed, lang: 'en'});
                    const t0 = performance.now();
                    await runtime.request({op: 'hint', table: 'bench-hint', lang: 'en'});
                    out.push(performance.now() - t0);
                }
                return out; }""", "profile"),
            profile,
        )
        print(f"  {profile:<15}{percentile(timings, 0.5):>9.2f}{percentile(timings, 0.95):>9.2f}{max(timings):>9.2f}"
              f"{percentile(hints, 0.5):>10.1f}{percentile(hints, 0.95):>10.1f}")
    if experts:
        p95 = percentile(experts, 0.95)
        print(f"  all {len(experts)} expert moves: p95 {p95:.2f} ms (target <= {TARGET_EXPERT_P95_MS:.0f} ms: "
              f"{p95 / TARGET_EXPERT_P95_MS:.2f}x of target)")
    page.evaluate("() => window.__dhBenchClose()")
    print("  (worker clocks are coarsened to 0.1 ms without cross-origin isolation)")
    context.close()

    # (e) the main thread while the bots' moves are shown one at a time.
    try:
        main_thread_while_bots_play(browser, url)
    except Exception as error:  # a figure missing, not the sections after it
        print(f"\n(e) not measured: {type(error).__name__}: {str(error).splitlines()[0]}")


# Watches long tasks and the table's busy spans (data-busy) from the page's start.
LONGTASK_WATCH = """
window.__dhLong = []; window.__dhBusy = []; window.__dhFrames = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__dhLong.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
document.addEventListener("DOMContentLoaded", () => {
  const root = document.querySelector("#dh-table");
  if (!root) return;
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "attributes") window.__dhBusy.push([performance.now(), root.hasAttribute("data-busy")]);
      else if (root.hasAttribute("data-busy")) window.__dhFrames += 1;
    }
  }).observe(root, { attributes: true, attributeFilter: ["data-busy"], childList: true, subtree: true });
});
localStorage.setItem("dhumbal:table", JSON.stringify({ speed: "normal" }));
"""


def main_thread_while_bots_play(browser: Any, url: str) -> None:
    context, page, _ = new_page(browser, url)
    try:
        context.add_init_script(LONGTASK_WATCH)
        page.goto(url + "rules/nepali-games/")
        settle(page)
        page.click("#dh-table [data-dht-play]")
        page.wait_for_selector("#dh-table[data-state=ready][data-answers]", timeout=LOAD_TIMEOUT)
        board = "#dh-table .dht-play-area"
        idle = "() => !document.querySelector('#dh-table').hasAttribute('data-busy')"
        turns = 0
        while turns < READER_TURNS:
            page.wait_for_function(idle, timeout=60_000)
            area = page.locator(board)
            if area.get_attribute("data-over") == "true":
                nxt = page.locator(f'{board} [data-op="next-deal"], {board} [data-op="new-match"]')
                nxt.first.click()
                page.wait_for_timeout(200)
                continue
            if area.get_attribute("data-phase") == "start":
                page.click(f'{board} [data-action="take stock"]')
                page.wait_for_function("() => document.querySelector('#dh-table .dht-play-area').dataset.phase === 'throw'",
                                       timeout=120_000)
            cards = page.locator(f"{board} .dht-card[aria-pressed]")
            values = [int(v) for v in cards.evaluate_all("els => els.map(e => e.dataset.value)")]
            cards.nth(values.index(max(values))).click()
            page.click(f'{board} [data-action="throw"]')
            page.wait_for_timeout(100)
            turns += 1
        page.wait_for_function(idle, timeout=60_000)
        longs, busy, frames = page.evaluate("[window.__dhLong, window.__dhBusy, window.__dhFrames]")
    finally:
        context.close()
    spans: list[tuple[float, float]] = []
    start = None
    for at, on in busy:
        if on and start is None:
            start = at
        elif not on and start is not None:
            spans.append((start, at))
            start = None
    during = [d for t, d in longs if any(a <= t <= b or a <= t + d <= b for a, b in spans)]
    shown = sum(b - a for a, b in spans) / 1000
    print(f"\n(e) main thread while the bots' moves play (nepali-games, 4 seats, normal pace, {READER_TURNS} reader turns)")
    print(f"  {len(spans)} spans of bot moves, {shown:.1f} s in all, {frames} board updates during them")
    if during:
        print(f"  long tasks (>= 50 ms) during them: {len(during)}, longest {max(during):.0f} ms (target: none)")
    else:
        print("  long tasks (>= 50 ms) during them: none (target: none)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"  machine load average: {load:.1f} on {os.cpu_count()} cores (a busy machine starves the page's "
          "main thread too: compare runs at a similar load)")
    overall = max((d for _, d in longs), default=0.0)
    print(f"  longest task of the whole page view, loading included: {overall:.0f} ms" if longs
          else "  no long task in the whole page view")


if __name__ == "__main__":
    raise SystemExit(main())
