"""What the offline tests share: a server of their own (:class:`SiteServer`:
a directory the test may switch, at an optional sub-path, with a log and
downloads that trickle on demand) and helpers in the page.
"""

from __future__ import annotations

import http.server
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sitekit import ROOT, SITEGEN, PageWatch, _QuietHandler

HERE = Path(__file__).resolve().parent
for path in (SITEGEN, HERE, ROOT / "tests" / "table"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

LOAD = 240_000  # ms: Pyodide boots in seconds, but the test machine may be busy
TABLE = "#dh-table"


# -- a server of the tests' own -------------------------------------------------------------


class SiteServer:
    """Serves ``directory`` (switchable) under ``prefix`` on 127.0.0.1, with a
    log of the paths asked for; a path named in ``trickle`` is sent slowly:
    its first ``fast`` bytes at once, then 64 bytes every ``every`` seconds."""

    def __init__(self, directory: Path, prefix: str = "/") -> None:
        self.directory = directory
        self.prefix = prefix
        self.log: list[str] = []
        self.trickle: dict[str, tuple[int, float]] = {}
        server = self

        class Handler(_QuietHandler):
            extensions_map = {**_QuietHandler.extensions_map, ".webmanifest": "application/manifest+json"}

            def translate_path(self, path: str) -> str:
                clean = path.split("?", 1)[0].split("#", 1)[0]
                if not clean.startswith(server.prefix):
                    return str(server.directory / "__outside_the_prefix__")
                rest = "/" + clean[len(server.prefix):]
                return super().translate_path(rest)

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, directory=str(server.directory), **kwargs)

            def do_GET(self) -> None:  # noqa: N802
                server.log.append(self.path.split("?", 1)[0])
                name = self.path.split("?", 1)[0].rsplit("/", 1)[-1]
                if name in server.trickle:
                    self.slowly(*server.trickle[name])
                    return
                super().do_GET()

            def slowly(self, fast: int, every: float) -> None:
                data = Path(self.translate_path(self.path)).read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(self.path))
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data[:fast])
                    self.wfile.flush()
                    at = fast
                    while at < len(data) and self.path.split("?", 1)[0].rsplit("/", 1)[-1] in server.trickle:
                        time.sleep(every)
                        self.wfile.write(data[at:at + 64])
                        self.wfile.flush()
                        at += 64
                    self.wfile.write(data[at:])
                except OSError:
                    pass  # the browser gave up

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="offline-test-server", daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def url(self, path: str = "") -> str:
        return self.origin + self.prefix + path.lstrip("/")

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


# -- the shared site and browser --------------------------------------------------------------


@dataclass
class Seen(PageWatch):
    """What went to the network (the test server) from the pages, their workers
    and the service worker: ``requested`` holds every request that the
    context's route saw, and the service worker's answers from its cache never
    get there."""

    def paths(self, since: int = 0) -> list[str]:
        return [u[len(self.origin):].split("?")[0] for u in self.requested[since:] if u.startswith(self.origin)]


def quiet_table(context: Any) -> None:
    """Bots that move at once, the first-run guide seen already, and generous watchdog
    limits for a busy machine (the context's own, out of reach, kept where it has
    them: sitekit.LocalPages)."""
    context.add_init_script(
        "try { localStorage.setItem('dhumbal:table', JSON.stringify({speed: 'instant'}));"
        " localStorage.setItem('dhumbal:guide', 'seen'); } catch (e) {}"
        "window.DhumbalRuntimeLimits = Object.assign({silence: 120000, request: 120000}, window.DhumbalRuntimeLimits || {});"
    )


# -- in the page ------------------------------------------------------------------------------


def kept(page: Any) -> str:
    """Wait until the service worker keeps the page's language; its status."""
    return str(page.evaluate("() => DhumbalOffline.ready"))


def start_table(page: Any) -> None:
    """Press Play and wait for the live table."""
    from tabledriver import start

    start(page)


def until(page: Any, predicate: str, arg: Any = None, timeout: float = 60.0) -> None:
    """Poll an async predicate in the page until it is true (Playwright's
    wait_for_function takes the promise an async function returns for true)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout:.0f} s: {predicate}")
        page.wait_for_timeout(250)


def engine_kept(page: Any) -> None:
    """Wait until the engine's cache holds every file and the snapshot (written after
    ready), and the site's cache the worker script."""
    until(page, """async () => {
        const names = await caches.keys();
        const engine = names.filter((n) => n.includes(':engine-'));
        const site = names.filter((n) => n.includes(':site-'));
        if (engine.length !== 1 || site.length !== 1) return false;
        const urls = (await (await caches.open(engine[0])).keys()).map((r) => r.url);
        const worker = await (await caches.open(site[0])).match(new URL('assets/javascripts/dhumbal-worker.mjs', DhumbalRuntime.base).href);
        return !!worker && ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', '.whl', 'snapshot.bin']
            .every((end) => urls.some((u) => u.endsWith(end)));
    }""")


def timings(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("DhumbalRuntime.timings"))
