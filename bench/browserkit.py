"""The browser side the runtime, start-up and score pad benchmarks share.

Headless Chromium's settings; the site built for the bench's own server and
served, plainly or gzip-compressed as a static host serves it; a page in a
fresh context that reaches nothing but that server; a page let settle; the
engine's files kept on the device; and bare Pyodide's boot in a worker, the
yardstick the engine's start is measured against.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
LOAD_TIMEOUT = 300_000  # ms
# A worker that boots Pyodide from the site and does nothing else.
BARE_WORKER = """\
const indexURL = new URL("assets/pyodide/VERSION/", self.location.href).href;
const { loadPyodide } = await import(indexURL + "pyodide.mjs");
await loadPyodide({ indexURL });
self.postMessage("ready");
"""
BARE_WORKER_NAME = "bench-bare-pyodide-worker.mjs"

COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".wasm", ".xml", ".svg", ".webmanifest", ".txt")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_Quiet, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def build_site(directory: Path, url: str) -> None:
    env = dict(os.environ, DHUMBAL_SITE_URL=url, NO_MKDOCS_2_WARNING="1")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(directory)]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.stderr.write((result.stdout + result.stderr)[-4000:])
        raise SystemExit("runtime bench: the site did not build")


def kb(n: float) -> str:
    return f"{n / 1024:.1f} KB"


def new_page(browser: Any, origin: str) -> tuple[Any, Any, list[Any]]:
    """A fresh context (cold cache) that can only reach the local server."""
    context = browser.new_context()
    finished: list[Any] = []

    def route(route: Any) -> None:
        if route.request.url.startswith(origin):
            route.continue_()
        else:
            route.abort()

    context.route("**/*", route)
    context.on("requestfinished", lambda request: finished.append(request))
    return context, context.new_page(), finished


def settle(page: Any) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1000)


def time_bare(browser: Any, url: str) -> float:
    context, page, _ = new_page(browser, url)
    try:
        page.goto(url)
        settle(page)
        return float(page.evaluate(
            """(name) => new Promise((resolve, reject) => {
                const t0 = performance.now();
                const worker = new Worker(name, {type: 'module'});
                worker.onmessage = () => { resolve(performance.now() - t0); worker.terminate(); };
                worker.onerror = (e) => reject(new Error(e.message || 'worker error'));
            })""",
            url + BARE_WORKER_NAME,
        ))
    finally:
        context.close()


class _Host(http.server.SimpleHTTPRequestHandler):
    """The built site as a static host serves it: gzip-compressed text and
    WebAssembly for a browser that accepts it (once compressed, kept), over
    HTTP/1.1 connections kept open (http.server's default, HTTP/1.0, opens one
    connection per file: no host does, and Lighthouse's simulated line then
    charges every file a connection's round trips: DECISIONS.md)."""

    protocol_version = "HTTP/1.1"

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".js": "text/javascript", ".wasm": "application/wasm", ".webmanifest": "application/manifest+json"}
    compress = True
    packed: dict[str, bytes] = {}

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not (self.compress and path.endswith(COMPRESSIBLE) and os.path.isfile(path)
                and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        if path not in self.packed:
            self.packed[path] = gzip.compress(Path(path).read_bytes(), 6)
        body = self.packed[path]
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that drops a request it no longer needs (a page left mid-load) is no error of the bench's."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def host(directory: Path, port: int, compress: bool) -> http.server.ThreadingHTTPServer:
    handler = type("Host", (_Host,), {"compress": compress})
    httpd = _Server(("127.0.0.1", port), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def engine_kept(page: Any) -> None:
    """Until the engine's files and the snapshot are in the device's cache (written after ready)."""
    for _ in range(240):
        done = page.evaluate("""async () => {
            for (const name of await caches.keys()) {
                if (!name.includes(':engine-')) continue;
                const urls = (await (await caches.open(name)).keys()).map((r) => r.url);
                if (['.wasm', 'pyodide.mjs', 'pyodide.asm.mjs', '.whl', 'python_stdlib.zip', 'snapshot.bin']
                    .every((end) => urls.some((u) => u.endsWith(end)))) return true;
            }
            return false; }""")
        if done:
            return
        page.wait_for_timeout(250)
    raise SystemExit("runtime bench: the engine's files were not kept on the device")
