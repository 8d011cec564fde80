"""How long the score pad's first settlement takes, on a first visit and on a later one.

In headless Chromium, the built site served gzip-compressed as a static host
serves it (``browserkit.host``), in one browser profile:

- first visit (cold cache): the pad opens, the reader sets up a match (the
  engine starts at the first touch of the form) and types deal 1 at once;
  measured: from Settle pressed to the deal settled on screen, and from the
  page's load to that moment;
- later visits (the engine from the device, with its memory snapshot): the
  same, in new pages of the same profile, with a fresh sheet each time.

Figures only, with the machine's load average: nothing passes or fails here.

    python -m bench.scorepad_bench [--site DIR] [--runs N]

Without ``--site`` the site is built first into a temporary directory.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path
from typing import Any

from bench.browserkit import CHROMIUM, CHROMIUM_ARGS, build_site, engine_kept, host, new_page, serve
from tools import headless

#: In the page: set up a three-player match, type deal 1 and press Settle at once;
#: the milliseconds from Settle to the settled deal, and from the page's start.
FIRST_DEAL = """async () => {
  const pad = document.querySelector('[data-dhumbal-scorepad]');
  const form = pad.querySelector('[data-pad-setup]');
  form.querySelector('[data-pad-remove]').click();
  ['Asha', 'Bina', 'Chandra'].forEach((name, i) => {
    const input = form.querySelector('#dhp-name-' + i);
    input.value = name;
    input.dispatchEvent(new Event('input', {bubbles: true}));
  });
  form.querySelector('button[type=submit]').click();
  pad.querySelector('[data-caller="1"]').click();
  [7, 4, 4].forEach((total, seat) => {
    const input = pad.querySelector('[data-hand="' + seat + '"]');
    input.value = String(total);
    input.dispatchEvent(new Event('input', {bubbles: true}));
  });
  const pressed = performance.now();
  pad.querySelector('.dhp-settle').click();
  await new Promise((resolve) => {
    const done = () => pad.querySelector('details[data-deal="1"][open]');
    if (done()) return resolve();
    new MutationObserver((_, observer) => { if (done()) { observer.disconnect(); resolve(); } })
      .observe(pad, {childList: true, subtree: true});
  });
  const now = performance.now();
  const runtime = (await import(new URL('runtime.js', document.querySelector('script[type=module][src*="/dhumbal/site.js"]').src))).runtime;
  return [now - pressed, now, runtime.timings && runtime.timings.snapshot];
}"""


def one_visit(page: Any, url: str) -> tuple[float, float, Any]:
    page.goto(url + "scorepad/")
    page.wait_for_load_state("load")
    page.evaluate("localStorage.removeItem('dhumbal-scorepad')")
    page.reload()
    page.wait_for_load_state("load")
    settle_ms, since_start, snapshot = page.evaluate(FIRST_DEAL)
    return float(settle_ms), float(since_start), snapshot


def run(browser: Any, url: str, runs: int) -> None:
    context, page, _ = new_page(browser, url)
    try:
        context.add_init_script("window.DhumbalRuntimeLimits = {silence: 300000, request: 300000};")
        first = one_visit(page, url)
        engine_kept(page)
        page.close()
        later = []
        for _ in range(runs):
            page = context.new_page()
            later.append(one_visit(page, url))
            page.close()
    finally:
        context.close()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print("score pad: the first settlement (set-up and deal 1 typed at once, then Settle)")
    print(f"  first visit (cold cache): Settle -> settled {first[0]:7.0f} ms; page start -> settled {first[1]:7.0f} ms")
    print(f"  later visits (engine from the device): Settle -> settled median {statistics.median(x[0] for x in later):7.0f} ms "
          f"(runs {', '.join(f'{x[0]:.0f}' for x in later)}); page start -> settled median "
          f"{statistics.median(x[1] for x in later):7.0f} ms; snapshot {sorted({str(x[2]) for x in later})}")
    print(f"  machine load average: {load:.1f} on {os.cpu_count()} cores")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="an already built site")
    parser.add_argument("--runs", type=int, default=3, help="later visits (default 3)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="dhumbal-bench-") as tmp:
        site = args.site or Path(tmp) / "site"
        if args.site is None:
            site.mkdir(parents=True)
            httpd, built_for = serve(site)
            build_site(site, built_for)
            httpd.shutdown()
            httpd.server_close()
        server = host(site, 0, compress=True)
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        try:
            with sync_playwright() as playwright:
                browser = headless.launch(playwright.chromium, CHROMIUM, CHROMIUM_ARGS)
                try:
                    run(browser, url, args.runs)
                finally:
                    browser.close()
        finally:
            server.shutdown()
            server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
