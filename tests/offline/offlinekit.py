"""What the offline tests share: a server of their own (:class:`SiteServer`:
a directory the test may switch, at an optional sub-path, with a log and
downloads that trickle or go wrong on demand), a second build of the shared
site (:func:`build_b`) and helpers in the page.
"""

from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.browserkit import LocalPages, PageWatch
from tests.sitekit import _QuietHandler
from tools.pagemodules import on_page

HERE = Path(__file__).resolve().parent

LOAD = 240_000  # ms: Pyodide boots in seconds, but the test machine may be busy
TABLE = "#dh-table"


# -- a server of the tests' own -------------------------------------------------------------


#: What a filtering proxy answers in place of a file it blocks, with status 200.
BLOCKED_PAGE = b"<!doctype html><title>Blocked</title><h1>This download is blocked by your network's policy.</h1>\n"


class SiteServer:
    """Serves ``directory`` (switchable) under ``prefix`` on 127.0.0.1, with a
    log of the paths asked for; a file named in ``trickle`` is sent slowly:
    its first ``fast`` bytes at once, then 64 bytes every ``every`` seconds; a
    file named in ``faults`` comes wrong but complete, with status 200:
    ``"cut"``, its first half (Content-Length saying so), or ``"html"``, a
    filtering proxy's "blocked" page (:data:`BLOCKED_PAGE`)."""

    def __init__(self, directory: Path, prefix: str = "/") -> None:
        self.directory = directory
        self.prefix = prefix
        self.log: list[str] = []
        self.trickle: dict[str, tuple[int, float]] = {}
        self.faults: dict[str, str] = {}
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

            def do_GET(self) -> None:
                server.log.append(self.path.split("?", 1)[0])
                name = self.path.split("?", 1)[0].rsplit("/", 1)[-1]
                if name in server.trickle:
                    self.slowly(*server.trickle[name])
                    return
                if name in server.faults:
                    self.wrongly(server.faults[name])
                    return
                super().do_GET()

            def wrongly(self, fault: str) -> None:
                data = Path(self.translate_path(self.path)).read_bytes()
                body, kind = (data[: len(data) // 2], self.guess_type(self.path)) if fault == "cut" else (BLOCKED_PAGE, "text/html")
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

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


# -- a new build of the shared site ------------------------------------------------------------


MARK = "<!-- build B -->"


def languages_of(data: dict[str, Any]) -> list[Any]:
    from dhumbal_site.languages import Language

    return [Language(code, code, value["root"], code == data["default"]) for code, value in data["languages"].items()]


def build_data(site: Path) -> dict[str, Any]:
    """What a built site's service worker knows of its build (``offline.build_data``):
    its id, its languages with their roots and pages, its engine files."""
    from dhumbal_site.runtime import offline

    sw = (site / offline.SERVICE_WORKER).read_text(encoding="utf-8")
    found = re.search(r"const BUILD = (.*?);\n", sw)
    assert found is not None, f"no build data in {site / offline.SERVICE_WORKER}"
    return dict(json.loads(found.group(1)))


def build_b(a: Path, b: Path, tmp: Path, *, keep_a_engine: bool = False) -> dict[str, Any]:
    """B: A (hard links; every file B changes is a new file, never written through
    a link into A) with the glossary changed and another wheel; B's manifest. With
    ``keep_a_engine`` B's host still serves A's engine files too (as a host that
    keeps what it served before does)."""
    from dhumbal_site.runtime import assets as runtime
    from dhumbal_site.runtime import enginewheel, offline

    shutil.copytree(a, b, copy_function=os.link)
    manifest = runtime.manifest_of(a)
    old = a / "assets" / "engine" / manifest["wheel"]
    wheel = tmp / "wheel" / old.name
    wheel.parent.mkdir()
    shutil.copyfile(old, wheel)
    with zipfile.ZipFile(wheel, "a") as zf:
        zf.comment = b"build B"
    (b / "assets" / "engine" / runtime.MANIFEST).unlink()  # written anew below: never through the link to A's
    stdlib = a / "assets" / "engine" / manifest["stdlib"]
    engine = runtime.EngineWheel(wheel, manifest["version"], enginewheel._sha256(wheel),
                                 stdlib, enginewheel._sha256(stdlib))
    new = json.loads(runtime.write_engine(b, engine, manifest["pyodide"], manifest["download"], manifest["lock"],
                                          manifest["pyodide_integrity"]).read_text())
    glossary = b / "glossary" / "index.html"  # the pages name no engine file: only this one changes
    changed = glossary.read_text(encoding="utf-8").replace("</article>", f"{MARK}</article>", 1)
    glossary.unlink()  # a new file, not the hard link to A's
    glossary.write_text(changed, encoding="utf-8")
    sw = b / offline.SERVICE_WORKER
    data = build_data(b)
    fresh = offline.build_data(b, sorted(languages_of(data), key=lambda lang: not lang.default), new["cache"], data["pyodide"],
                               runtime.runtime_config(new)["integrity"])
    sw.unlink()
    sw.write_text(offline.service_worker(fresh), encoding="utf-8")
    if keep_a_engine:
        key = manifest["wheel"].split("/")[0]
        shutil.copytree(a / "assets" / "engine" / key, b / "assets" / "engine" / key, copy_function=os.link)
    published_after(a, b)
    return new


def published_after(a: Path, b: Path) -> None:
    """Date every file B wrote (its own, not a link to A's) after every file of A.

    A static host dates a file to the second (Last-Modified) and answers a
    browser's If-Modified-Since by that date alone, as the tests' server does.
    A is the run's shared build, often made a moment before this test: a
    sw.js of B written within the same second as A's looks unchanged to the
    browser's update check (a revalidation: 304), so B's service worker never
    installs and the reader is never told. A site is published again later
    than that; so is B here, whatever the machine's speed."""
    newest = max(f.stat().st_mtime_ns for f in a.rglob("*") if f.is_file())
    later = (newest // 1_000_000_000 + 2) * 1_000_000_000  # a whole second after A's newest
    for f in b.rglob("*"):
        if f.is_file() and f.stat().st_nlink == 1:
            os.utime(f, ns=(later, later))


# -- the shared site and browser --------------------------------------------------------------


@dataclass
class Seen(PageWatch):
    """What went to the network (the test server) from the pages, their workers
    and the service worker: ``requested`` holds every request that the
    context's route saw, and the service worker's answers from its cache never
    get there."""

    def paths(self, since: int = 0) -> list[str]:
        return [u[len(self.origin):].split("?")[0] for u in self.requested[since:] if u.startswith(self.origin)]


class Visited:
    """One browser context of a module's tests, service workers allowed, every request
    to another host refused; the fixture that makes it reads a page there first, so
    the tests find the site (and the engine) kept on the device."""

    def __init__(self, browser: Any, url: Any) -> None:
        self.url = url
        self.pages = LocalPages(browser, url("").rstrip("/"), watch=Seen, passed=("data:", "blob:"), intercept=True)
        self.context, self.seen = self.pages.context(service_workers="allow")
        quiet_table(self.context)
        self.errors: list[str] = []
        self.failed: list[str] = []

    def page(self, path: str | None = "", *, errors: bool = True) -> Any:
        """A new page, at ``path`` unless None; its script errors noted unless ``errors`` is false."""
        page = self.context.new_page()
        page.set_default_timeout(LOAD)
        if errors:
            page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        page.on("requestfailed", lambda r: self.failed.append(r.url))
        if path is not None:
            page.goto(self.url(path))
        return page

    def close(self) -> None:
        """Close the context; fail on a script error or a request to another host."""
        self.context.close()
        assert not self.errors, self.errors
        refused = sorted({u for w in self.pages.watches for u in w.refused})
        assert not refused, f"the browser tried to reach other hosts: {refused}"


def quiet_table(context: Any) -> None:
    """Bots that move at once, the first-run guide seen already, and generous watchdog
    limits for a busy machine (the context's own, out of reach, kept where it has
    them: browserkit.LocalPages)."""
    context.add_init_script(
        "try { localStorage.setItem('dhumbal:table', JSON.stringify({speed: 'instant'}));"
        " localStorage.setItem('dhumbal:guide', 'seen'); } catch (e) {}"
        "window.DhumbalRuntimeLimits = Object.assign({silence: 120000, request: 120000}, window.DhumbalRuntimeLimits || {});"
    )


# -- in the page ------------------------------------------------------------------------------


def kept(page: Any) -> str:
    """Wait until the service worker keeps the page's language; its status."""
    return str(page.evaluate(on_page('site.offline.ready')))


def start_table(page: Any) -> None:
    """Press Play and wait for the live table, a fresh game: where the context keeps a game in
    progress (an earlier test played a move, offline say), Play is New game and asks first, and
    this answers "Start a new game", as a reader who pressed it for one does. (Without the answer
    the question waited for ever, and so did the next test that pressed Play: at 5770ffb
    test_shared_links_and_the_language_switch_under_the_service_worker, after
    test_offline_a_kept_page_loads_and_its_table_plays, which saves the game it plays.)"""
    from tests.table.tabledriver import TABLE, press, wait_ready

    if page.locator(TABLE).get_attribute("data-state") == "static":
        press(page, f"{TABLE} [data-dht-play]", answer=False)
        ask = page.locator(f"{TABLE} dialog.dht-ask")
        page.wait_for_function("() => document.querySelector('#dh-table').dataset.state !== 'static'"
                               " || document.querySelector('#dh-table dialog.dht-ask').open")
        if ask.is_visible():
            ask.locator('[data-dht-ask="new"]').click()
    wait_ready(page)


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
    until(page, on_page("""{
        const names = await caches.keys();
        const engine = names.filter((n) => n.includes(':engine-'));
        const site = names.filter((n) => n.includes(':site-'));
        if (engine.length !== 1 || site.length !== 1) return false;
        const urls = (await (await caches.open(engine[0])).keys()).map((r) => r.url);
        const worker = await (await caches.open(site[0])).match(new URL('assets/dhumbal/worker.js', runtime.base).href);
        return !!worker && ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', '.whl', 'snapshot.bin']
            .every((end) => urls.some((u) => u.endsWith(end)));
    }"""))


def timings(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(on_page('runtime.timings')))
