"""Benchmark of what a page costs a reader before Play, against plain Material
(issue 49; ``make bench`` runs it after the runtime's).

One run, both sites served as a static host serves them (gzip), in headless
Chromium on 127.0.0.1:

(a) weight: the English rules page (and every other page kind, in English and
    Nepali) loaded cold over an emulated phone line (150 ms round trip,
    1.6 Mbit/s down, 750 kbit/s up: Lighthouse's mobile figures): the requests
    and gzipped bytes before Play (the service worker's own keeping excluded),
    file by file, against plain Material built from the same English Markdown
    (every page, so both search indexes cover the same pages), medians of
    alternating loads (goals: at most 1.5x plain Material's bytes and 12
    requests; no Devanagari font on an English page);
(b) first contentful paint on that line, the same loads (goal: at most 1.2x
    plain Material's);
(c) Lighthouse 12.2.3 (node_modules), mobile, its simulated throttling:
    performance, accessibility, best practices and SEO of every page kind in
    English and Nepali, and plain Material's rules page; the rules pages'
    performance as the median of ``--runs`` runs (goals: performance at least
    90 and at least plain Material's; the rest 100);
(d) Play -> first move possible (the table live, its first answer shown) on
    the rules page, cold (a fresh profile) and on a second visit (the engine
    from the device, its memory snapshot), beside an earlier build given with
    ``--base`` (goal: no slower; the second visit at most 1.0 s and 0.3x cold).

Figures only: nothing here passes or fails. The load average is printed with
each section (a busy machine makes every figure slower).

    python bench/frontend_bench.py [--site DIR] [--plain DIR] [--base DIR] [--runs N]
                                   [--skip lighthouse,play]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.browserkit import CHROMIUM, CHROMIUM_ARGS, build_site, host
from tools import headless

ROOT = Path(__file__).resolve().parents[1]
LINE = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
PAGES = {"home": "", "rules": "rules/nepali-games/", "examples": "examples/", "scorepad": "scorepad/",
         "puzzles": "puzzles/"}
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
GOAL_BYTES, GOAL_REQUESTS, GOAL_FCP = 1.5, 12, 1.2

PLAIN_CONFIG = """\
site_name: Dhumbal
site_url: {url}
docs_dir: docs
theme:
  name: material
  font: false
  features: [navigation.instant, navigation.instant.progress, navigation.sections, navigation.top,
             search.suggest, search.highlight, content.code.copy]
markdown_extensions: [admonition, attr_list, md_in_html, tables, {{toc: {{permalink: true}}}}, pymdownx.details,
                      pymdownx.superfences, {{pymdownx.tabbed: {{alternate_style: true}}}}]
plugins: [search]
"""


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def build_plain(directory: Path, url: str) -> None:
    """Plain Material from the English Markdown (the site's own markers are HTML comments there)."""
    work = Path(tempfile.mkdtemp(prefix="dhumbal-plain-"))
    try:
        shutil.copytree(ROOT / "docs" / "en", work / "docs")
        (work / "mkdocs.yml").write_text(PLAIN_CONFIG.format(url=url), encoding="utf-8")
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", str(directory)],
                              cwd=work, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit("frontend bench: plain Material did not build:\n" + done.stderr[-3000:])
    finally:
        shutil.rmtree(work, ignore_errors=True)


def page_load(browser: Any, url: str) -> dict[str, Any]:
    """One cold load over the phone line: requests and bytes before Play (the page's and its
    workers', not the service worker's own keeping), first contentful paint."""
    context = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.emulateNetworkConditions", LINE)
        finished: list[Any] = []
        context.on("requestfinished", lambda request: finished.append(request))
        page.goto(url, wait_until="load")
        page.wait_for_load_state("networkidle")
        fcp = page.evaluate("() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null")
        files: dict[str, int] = {}
        for request in finished:
            if not request.url.startswith("http") or request.service_worker is not None:
                continue
            sizes = request.sizes()
            size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
            files[request.url] = max(files.get(request.url, 0), size)  # a file asked for twice counts once
        return {"fcp": fcp, "files": files}
    finally:
        context.close()


def weight(browser: Any, ours: str, plain: str, runs: int) -> None:
    print(f"\n(a, b) before Play, cold, over an emulated phone line (150 ms, 1.6 Mbit/s); {load()}")
    rules = PAGES["rules"]
    results: dict[str, list[dict[str, Any]]] = {"ours": [], "plain": []}
    for _ in range(runs):
        results["ours"].append(page_load(browser, ours + rules))
        results["plain"].append(page_load(browser, plain + rules))
    figures = {}
    for name, loads in results.items():
        total = statistics.median(sum(r["files"].values()) for r in loads)
        count = statistics.median(len(r["files"]) for r in loads)
        fcp = statistics.median(r["fcp"] or 0 for r in loads)
        figures[name] = (total, count, fcp)
        print(f"  {name:<6} rules page: {count:.0f} requests, {total / 1024:.1f} KB, first contentful paint {fcp:.0f} ms")
    (b_o, r_o, f_o), (b_p, _, f_p) = figures["ours"], figures["plain"]
    print(f"  ratio: bytes {b_o / b_p:.2f}x (goal <= {GOAL_BYTES}), requests {r_o:.0f} (goal <= {GOAL_REQUESTS}), "
          f"first contentful paint {f_o / f_p:.2f}x (goal <= {GOAL_FCP})")
    print("  ours, file by file (KB on the wire):")
    for url, size in results["ours"][-1]["files"].items():
        print(f"    {size / 1024:7.1f}  {url[len(ours) - 1:]}")
    print("  every page kind (one cold load each):")
    for lang in ("", "ne/"):
        for path in PAGES.values():
            r = page_load(browser, ours + lang + path)
            fonts = [u for u in r["files"] if u.endswith(".woff2")]
            print(f"    {(lang or 'en/') + path:<20} {len(r['files']):3d} requests {sum(r['files'].values()) / 1024:7.1f} KB"
                  f"  fonts: {len(fonts)}")


def lighthouse(url: str) -> dict[str, float]:
    env = dict(os.environ, CHROME_PATH=CHROMIUM)
    args = ["node", str(LIGHTHOUSE), url, "--quiet", "--output=json", "--output-path=stdout", "--form-factor=mobile",
            f"--only-categories={','.join(CATEGORIES)}", "--chrome-flags=--headless=new --no-sandbox --disable-gpu"]
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=False, timeout=600)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}  # type: ignore[dict-item]
    report = json.loads(done.stdout)
    return {name: round((report["categories"][name]["score"] or 0) * 100) for name in CATEGORIES}


def scores(ours: str, plain: str, runs: int) -> None:
    """Each page kind once; the rules page, ours (en, ne) and plain Material's, ``runs`` times
    alternated, their medians compared (one run's performance moves by several points)."""
    print(f"\n(c) Lighthouse 12.2.3, mobile (simulated throttling); {load()}")
    print(f"  {'page':<22}" + "".join(f"{c:>16}" for c in CATEGORIES))
    rows = [("plain " + PAGES["rules"], plain + PAGES["rules"])]
    rows += [(lang + path or "en/", ours + lang + path) for lang in ("", "ne/") for path in PAGES.values()]
    compared = {name: url for name, url in rows if name.endswith(PAGES["rules"])}
    performance: dict[str, list[float]] = {name: [] for name in compared}
    for _ in range(runs - 1):
        for name, url in compared.items():
            performance[name].append(lighthouse(url).get("performance", 0))
    for name, url in rows:
        got = lighthouse(url)
        if name in compared:
            performance[name].append(got.get("performance", 0))
        print(f"  {name:<22}" + "".join(f"{got.get(c, '-')!s:>16}" for c in CATEGORIES))
    if runs > 1:
        print(f"  rules page, performance over {runs} runs each ({load()}):")
        for name, got in performance.items():
            print(f"    {name:<22} median {statistics.median(got):.0f}   runs: {[round(x) for x in got]}")


PLAY = """() => new Promise((resolve) => {
  const table = document.querySelector('#dh-table');
  const t0 = performance.now();
  const done = () => table.dataset.state === 'ready' && table.hasAttribute('data-answers');
  new MutationObserver((_, o) => { if (done()) { o.disconnect(); resolve(performance.now() - t0); } })
    .observe(table, {attributes: true});
  table.querySelector('[data-dht-play]').click();
})"""


def play_once(context: Any, url: str) -> float:
    page = context.new_page()
    try:
        page.goto(url + PAGES["rules"], wait_until="load")
        page.wait_for_load_state("networkidle")
        ms = float(page.evaluate(PLAY))
        page.wait_for_timeout(1500)  # the memory snapshot is kept after ready
        return ms
    finally:
        page.close()


def play(browser: Any, sites: dict[str, str], runs: int) -> None:
    print(f"\n(d) Play -> first move possible, rules page, loopback, gzip; {load()}")
    times: dict[str, dict[str, list[float]]] = {name: {"cold": [], "second": []} for name in sites}
    for _ in range(runs):
        for name, url in sites.items():
            context = browser.new_context()
            context.add_init_script("try { localStorage.setItem('dhumbal:guide', 'seen'); } catch (e) {}")
            try:
                times[name]["cold"].append(play_once(context, url))
                times[name]["second"].append(play_once(context, url))
            finally:
                context.close()
    for name, got in times.items():
        cold, second = statistics.median(got["cold"]), statistics.median(got["second"])
        print(f"  {name:<6} cold {cold:7.0f} ms   second visit {second:6.0f} ms ({second / cold:.2f}x cold)   "
              f"runs: {[round(x) for x in got['cold']]} / {[round(x) for x in got['second']]}")
    if "base" in times:
        ratio = statistics.median(times["ours"]["cold"]) / statistics.median(times["base"]["cold"])
        print(f"  cold, ours against the earlier build: {ratio:.2f}x (goal: no slower)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="this site, built (default: built now)")
    parser.add_argument("--plain", type=Path, help="plain Material, built (default: built now)")
    parser.add_argument("--base", type=Path, help="an earlier build of the site, for Play's comparison")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip", default="", help="sections to leave out: lighthouse, play")
    args = parser.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    from playwright.sync_api import sync_playwright

    temp = Path(tempfile.mkdtemp(prefix="dhumbal-frontend-bench-"))
    servers = []
    try:
        sites = {"ours": args.site, "plain": args.plain, "base": args.base}
        urls: dict[str, str] = {}
        for port, name in zip((8770, 8771, 8772), ("ours", "plain", "base")):
            url = f"http://127.0.0.1:{port}/"
            if sites[name] is None and name != "base":
                sites[name] = temp / name
                started = time.monotonic()
                (build_site if name == "ours" else build_plain)(sites[name], url)  # type: ignore[operator]
                print(f"built {name} in {time.monotonic() - started:.0f} s")
            if sites[name] is not None:
                servers.append(host(Path(sites[name]), port, compress=True))  # type: ignore[arg-type]
                urls[name] = url
        with sync_playwright() as p:
            browser = headless.launch(p.chromium, CHROMIUM, CHROMIUM_ARGS)
            try:
                weight(browser, urls["ours"], urls["plain"], args.runs)
                if "play" not in skip:
                    play(browser, {k: v for k, v in urls.items() if k in ("ours", "base")}, args.runs)
            finally:
                browser.close()
        if "lighthouse" not in skip:
            scores(urls["ours"], urls["plain"], args.runs)
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
        shutil.rmtree(temp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
