"""The machinery behind the shared test fixtures (tests/conftest.py): each site
variant built once per run for every test process, and one server per variant
(the browser and its pages are tests/browserkit.py's, the tests' order
tests/testorder.py's).

One run, several processes. ``pytest -n 3`` (``make test``) runs a controller
and three worker processes. The controller (``start_run``, called from
tests/conftest.py before any worker starts) makes the run's shared directory
and starts one static file server per entry of ``SERVED``, on 127.0.0.1 and
a free port, in threads of its own process; it tells the workers where both
are through the ``DHUMBAL_TEST_RUN`` environment variable (the directory;
``servers.json`` in it maps each variant to its port). Everything ends with
the controller (``stop_run``); a process without one (a script importing this
module) starts a run of its own on first use.

Site variants, built once. ``shared_build(name, build)`` gives the files of
variant ``name``, built by the first process that asks, under a file lock:
the others wait and reuse what it made, a failure included (every test that
needs the site fails with its log instead of building again). ``build(directory, url)``
writes the variant's files into ``directory``, which the variant's server
will serve at ``url``, and returns ``(returncode, log)``. The variants:

``real``
    ``mkdocs build --strict`` in a subprocess with ``DHUMBAL_SITE_URL`` set
    to its server's address (instant navigation follows only the sitemap's
    links). ``real_site()`` returns it; ``prebuild_real_site()`` starts it
    in the background. ``DHUMBAL_TABLE_SITE=<dir>`` serves an already built
    site instead, on the port its sitemap names when that port is free.
``real-csp-header``
    The same files, every response carrying the header policy
    (``dhumbal_site.runtime.csp.HEADER_POLICY``).
``stub``
    The mini table's pages with a stand-in runtime (tests/table/conftest.py).
``parity-N``
    Not served: CPython's transcripts of the parity cases, N deals to a long
    match (tests/runtime/test_parity.py, ``cpython_parity``).

A new variant: add its name to ``SERVED`` (and the files it serves, and any
headers) if it is served, and build it with ``shared_build``.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]

PREBUILT_SITE = "DHUMBAL_TABLE_SITE"
#: The repository address the test builds give the site (each page's edit and report
#: links): a reserved documentation domain (RFC 2606), never a real host.
TEST_REPOSITORY = "https://git.example/dhumbal/dhumbal"
RUN_ENV = "DHUMBAL_TEST_RUN"
BUILD_TIMEOUT = 900


def _configured() -> list[Any]:
    from dhumbal_site.languages import configured

    return configured(ROOT / "mkdocs.yml")


#: The site's languages as mkdocs.yml lists them, English first: the tests' one list
#: of languages (a language added with ``make new-language`` is in it at once).
SITE_LANGUAGES: tuple[str, ...] = tuple(lang.code for lang in _configured())
#: Every language but English.
TRANSLATED_LANGUAGES: tuple[str, ...] = SITE_LANGUAGES[1:]
#: The languages still being translated (``dhumbal_partial``): what they lack is a
#: warning, where a complete language fails.
PARTIAL_LANGUAGES: frozenset[str] = frozenset(lang.code for lang in _configured() if lang.partial)
#: Each language's root in the built site ("" for English, "fr/"…).
LANGUAGE_PREFIXES: dict[str, str] = {lang.code: lang.prefix for lang in _configured()}


def warn_of(lang: str, what: list[str]) -> list[str]:
    """``what`` (still to do in ``lang``) noted for the run's summary when the language is
    being translated (marked so, or a catalog not set up yet by ``make new-language``, as a
    language started on Weblate is; tests/todo.py), and returned for the test to assert
    empty when it is complete."""
    from tests import todo

    if lang in PARTIAL_LANGUAGES or lang not in SITE_LANGUAGES:
        todo.note("partial", lang, what)
        return []
    return what


def _csp_header() -> dict[str, str]:
    from dhumbal_site.runtime import csp

    return {"Content-Security-Policy": csp.HEADER_POLICY}


@dataclass(frozen=True)
class Served:
    """What one server of the run serves: the files of variant ``files``, with ``headers``."""

    files: str
    headers: Callable[[], dict[str, str]] = dict


#: One server per site variant, started by the controller for the whole run.
SERVED: dict[str, Served] = {
    "real": Served("real"),
    "real-csp-header": Served("real", _csp_header),
    "stub": Served("stub"),
    # a fifth language added to a copy of the project and left partial (tests/fifthlanguage.py)
    "fifth-language": Served("fifth-language"),
}


# -- local web servers ------------------------------------------------------------

#: Files a test context has served in place of the site's own, by name: a context
#: given the cookie ``STAND_IN_COOKIE`` with one of these names (``stand_in``) gets
#: each listed path from the file beside it, on every server of the run. A route
#: would do the same in the browser, but Playwright turns a context's HTTP cache
#: off under a route, and a context kept warm for many tests keeps its cache.
STAND_INS: dict[str, dict[str, Path]] = {
    # the real site's pages with the table's engine answering from the test process
    "stub-runtime": {"/assets/dhumbal/runtime.js": ROOT / "tests" / "table" / "stub-runtime.js"},
}
STAND_IN_COOKIE = "dhumbal-stand-in"


def stand_in(context: Any, origin: str, name: str) -> None:
    """Have ``context`` served the files of ``STAND_INS[name]`` by the server at ``origin``."""
    assert name in STAND_INS, name
    context.add_cookies([{"name": STAND_IN_COOKIE, "value": name, "url": origin}])


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    # Not left to the system's mime.types: module workers and WebAssembly
    # streaming compilation check these types.
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".webmanifest": "application/manifest+json",
    }
    extra_headers: dict[str, str] = {}

    def translate_path(self, path: str) -> str:
        cookies = (c.strip().partition("=") for c in self.headers.get("Cookie", "").split(";"))
        name = next((value for key, _, value in cookies if key == STAND_IN_COOKIE), "")
        target = STAND_INS.get(name, {}).get(urlsplit(path).path)
        return str(target) if target is not None else super().translate_path(path)

    def end_headers(self) -> None:
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that drops a download (a test's aborted or stalled route, a
        # closed page) breaks the connection: not an error of the server.
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


@dataclass(frozen=True)
class Address:
    """Where a server serves ``directory``: ``url`` (with its slash), ``origin``, ``at(path)``."""

    directory: Path
    port: int

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The address of the site's root, with its slash."""
        return self.origin + "/"

    def at(self, path: str = "") -> str:
        """The address of a site path such as ``ne/rules/``."""
        return f"{self.origin}/{path.lstrip('/')}"


@dataclass(frozen=True)
class Server(Address):
    """A static file server on 127.0.0.1 in a thread of this process."""

    httpd: http.server.HTTPServer | None = None
    thread: threading.Thread | None = None

    def stop(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
        if self.thread is not None:
            self.thread.join(timeout=5)


def serve(directory: Path, port: int = 0, headers: dict[str, str] | None = None) -> Server:
    """Serve ``directory`` on 127.0.0.1, on ``port`` or (0) any free one, each
    response with ``headers``. The directory may appear later (until then: 404)."""
    handler_class = type("Handler", (_QuietHandler,), {"extra_headers": dict(headers or {})})
    handler = functools.partial(handler_class, directory=str(directory))
    httpd = _QuietServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=httpd.serve_forever, name=f"test-server-{directory.name}", daemon=True)
    thread.start()
    return Server(Path(directory), int(httpd.server_address[1]), httpd, thread)


# -- the run: shared directory and servers ------------------------------------------


@dataclass
class Run:
    """The directory every process of this run shares, and the port of each variant's server."""

    directory: Path
    ports: dict[str, int]
    servers: list[Server] = field(default_factory=list)  # in the process that started them
    owned: bool = False  # this process made the directory (and removes it)

    def files(self, variant: str) -> Path:
        """Where variant ``variant``'s files are (served by each server that serves them)."""
        prebuilt = os.environ.get(PREBUILT_SITE)
        if variant == "real" and prebuilt:
            return Path(prebuilt).resolve()
        return self.directory / variant / "site"

    def address(self, served: str) -> Address:
        """The server of ``served`` (a key of ``SERVED``)."""
        return Address(self.files(SERVED[served].files), self.ports[served])


_RUN: Run | None = None


def _built_for_port(directory: Path) -> int:
    """The 127.0.0.1 port a built site's sitemap names, or 0."""
    try:
        sitemap = (directory / "sitemap.xml").read_text(encoding="utf-8")
    except OSError:
        return 0
    found = re.search(r"<loc>\s*([^<\s]+)", sitemap)
    address = urlsplit(found.group(1)) if found else None
    if address is None or address.hostname != "127.0.0.1" or address.port is None:
        return 0
    return address.port


def start_run() -> Run:
    """Make the run's shared directory and start its servers (the controller, once)."""
    global _RUN
    if _RUN is not None:
        return _RUN
    directory = Path(tempfile.mkdtemp(prefix="dhumbal-tests-"))
    run = Run(directory, {}, owned=True)
    for name, what in SERVED.items():
        files = run.files(what.files)
        # a prebuilt site on the port its sitemap names, so that instant navigation works
        port = _built_for_port(files) if name == "real" and os.environ.get(PREBUILT_SITE) else 0
        try:
            server = serve(files, port, what.headers())
        except OSError:  # the prebuilt site's port is taken (another run, a mkdocs serve)
            server = serve(files, 0, what.headers())
        run.servers.append(server)
        run.ports[name] = server.port
    (directory / "servers.json").write_text(json.dumps(run.ports), encoding="utf-8")
    os.environ[RUN_ENV] = str(directory)  # inherited by the workers, started after this
    _RUN = run
    return run


def stop_run() -> None:
    """Wait for this process's background builds (another process may be
    waiting for them) and stop its servers; the controller also removes the
    run's directory."""
    global _RUN
    for thread in list(_BACKGROUND.values()):
        thread.join()
    _BACKGROUND.clear()
    if _RUN is None:
        return
    for server in _RUN.servers:
        server.stop()
    if _RUN.owned:
        shutil.rmtree(_RUN.directory, ignore_errors=True)
        if os.environ.get(RUN_ENV) == str(_RUN.directory):
            del os.environ[RUN_ENV]
    _RUN = None


def current_run() -> Run:
    """This run: the controller's (through ``DHUMBAL_TEST_RUN``), or one of this process's own."""
    global _RUN
    if _RUN is None:
        shared = os.environ.get(RUN_ENV)
        if shared and (Path(shared) / "servers.json").is_file():
            ports = json.loads((Path(shared) / "servers.json").read_text(encoding="utf-8"))
            _RUN = Run(Path(shared), {k: int(v) for k, v in ports.items()})
        else:
            start_run()
    assert _RUN is not None
    return _RUN


# -- site variants, built once per run -----------------------------------------------


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (every process of the run sees it)."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@dataclass(frozen=True)
class Built:
    """A variant's files as built for this run, and what its build said."""

    directory: Path
    returncode: int
    log: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


Builder = Callable[[Path, str], "tuple[int, str]"]


def shared_build(variant: str, build: Builder) -> Built:
    """Variant ``variant``'s files, built by ``build(directory, url)`` once per run
    (by whichever process asks first; the others wait and reuse its result)."""
    run = current_run()
    target = run.files(variant)
    home = run.directory / variant
    result = home / "result.json"
    if not result.is_file():
        with file_lock(home / ".lock"):
            if not result.is_file():
                scratch = home / "building"
                shutil.rmtree(scratch, ignore_errors=True)
                url = run.address(variant).url if variant in SERVED else ""
                try:
                    returncode, log = build(scratch, url)
                except Exception as error:
                    returncode, log = -1, f"building the {variant} site raised {error!r}"
                if scratch.is_dir():
                    os.replace(scratch, target)
                target.mkdir(parents=True, exist_ok=True)
                partial = result.with_suffix(".partial")
                partial.write_text(json.dumps({"returncode": returncode, "log": log}), encoding="utf-8")
                os.replace(partial, result)
    outcome = json.loads(result.read_text(encoding="utf-8"))
    return Built(target, int(outcome["returncode"]), str(outcome["log"]))


_BACKGROUND: dict[str, threading.Thread] = {}


def in_background(variant: str, build: Builder) -> None:
    """Start ``shared_build(variant, build)`` in a thread, unless this process did already."""
    if variant in _BACKGROUND:
        return
    thread = threading.Thread(target=shared_build, args=(variant, build), name=f"build-{variant}", daemon=True)
    _BACKGROUND[variant] = thread
    thread.start()


# -- the real site --------------------------------------------------------------


def build_real(directory: Path, site_url: str) -> tuple[int, str]:
    """``mkdocs build --strict`` of the real site into ``directory``: return code and log."""
    env = dict(os.environ, DHUMBAL_SITE_URL=site_url, NO_MKDOCS_2_WARNING="1", DHUMBAL_REPO_URL=TEST_REPOSITORY)
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(directory)]
    try:
        result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    except subprocess.TimeoutExpired as timeout:
        output = timeout.output or ""
        log = output if isinstance(output, str) else output.decode(errors="replace")
        return -1, log + f"\n(the build took more than {BUILD_TIMEOUT} s and was stopped)"
    return result.returncode, result.stdout + result.stderr


def _prebuilt(directory: Path, site_url: str) -> tuple[int, str]:
    return 0, f"(not built: {PREBUILT_SITE}={os.environ.get(PREBUILT_SITE)})\n"


@dataclass(frozen=True)
class BuiltSite:
    """The real site (docs/, mkdocs.yml) built and served, or what its build said."""

    directory: Path
    server: Address
    returncode: int
    log: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    @property
    def url(self) -> str:
        return self.server.url

    def require(self) -> None:
        """Fail the calling test (not error) if the build failed."""
        if not self.ok:
            pytest.fail(
                "the site did not build with mkdocs build --strict:\n" + self.log[-6000:],
                pytrace=False,
            )


def _real_builder() -> Builder:
    return _prebuilt if os.environ.get(PREBUILT_SITE) else build_real


def real_site(served: str = "real") -> BuiltSite:
    """The real site, built once per run, at the address of server ``served``
    (``real``, or ``real-csp-header`` for the same files with the policy header)."""
    built = shared_build("real", _real_builder())
    return BuiltSite(built.directory, current_run().address(served), built.returncode, built.log)


def prebuild_real_site() -> None:
    """Start building the real site in the background, if no process of the run has."""
    in_background("real", _real_builder())


def compile_catalogs() -> None:
    """Compile the gettext catalogs into the engine package, as the build does (a
    broken catalog is left for the catalog tests and the build to report)."""
    try:
        from dhumbal_site.runtime.assets import compile_catalogs as compile_them

        compile_them(ROOT)
    except Exception:
        pass
