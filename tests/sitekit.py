"""The machinery behind the shared test fixtures (tests/conftest.py): each site
variant built once per run for every test process, one server per variant,
one headless Chromium per process, and browser contexts that reach nothing
but the test servers.

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
SITEGEN = ROOT / "sitegen"
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))
import headless  # noqa: E402  (tools/: the browser without its own UI, shared with the bench)

#: The test browser: Debian's ``chromium-headless-shell`` (the same Chromium build as
#: the ``chromium`` package, without the browser around the pages: no window, tab
#: strip or WebUI pages), or Debian's ``chromium`` where the shell is not installed.
#: The pages run the same Blink and V8 either way; the shell spends less CPU around
#: them: the site and stub-table browser files, run back to back, 130 s of CPU with
#: ``chromium`` and 102 s with the shell. ``.ci/run`` installs both.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() else "/usr/bin/chromium"
#: The test browser's flags: the usual headless set (no sandbox, no GPU, no background
#: networking), and V8 kept to its baseline
#: WebAssembly compiler (``--liftoff-only``). Pyodide's 10 MB module is compiled
#: afresh in every new browser context (a context has no code cache), and the
#: optimising tier then recompiles its hot functions in the background: traced in
#: Chromium 156, 2.2 s of a first start's 2.6 s of background compiling. With
#: ``--liftoff-only`` a first start takes 1.2 s of CPU in place of 2.2 s, a start
#: from the kept snapshot 0.6 s in place of 0.9 s, and five table, offline and
#: runtime browser files 160 s in place of 220 s. (``--no-wasm-tier-up``, used
#: before, no longer stops that tier.) The engine runs the same code either way
#: (only slower per step, which no test measures); the runtime's speed is measured
#: in the browser's default tiers by ``make bench`` (bench/runtime_bench.py), not
#: here. JavaScript is kept to its first two tiers the same way (``--no-maglev
#: --no-turbofan``): a test page lives for seconds, and the optimising compilers'
#: work on its scripts (Material's, the table's, Playwright's own) is never paid
#: back; without them the browser tests take about 8 % less CPU (measured on the
#: site, table, runtime and review files).
#: No host but the test servers' (127.0.0.1) resolves: a request to another host
#: fails in the browser itself, and the test that made it sees it (``PageWatch.refused``).
#: The browser is launched by ``tools/headless.py``, which also turns off the UI that
#: headless ``chromium`` builds for every tab (about 1 s of CPU for each page a test
#: opens; the shell builds none).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--js-flags=--liftoff-only --no-maglev --no-turbofan", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
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
    """``what`` (still to do in ``lang``) as pytest warnings when the language is being
    translated, and returned for the test to assert empty when it is complete."""
    import warnings

    if lang in PARTIAL_LANGUAGES:
        for line in what:
            warnings.warn(f"{lang} (being translated): {line}", stacklevel=2)
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
    "stub-runtime": {"/assets/javascripts/dhumbal-runtime.js": ROOT / "tests" / "table" / "stub-runtime.js"},
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

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
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
                except Exception as error:  # noqa: BLE001 - every process must see the failure
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
    except Exception:  # noqa: BLE001
        pass


# -- the order of the tests -------------------------------------------------------------

#: Seconds, roughly, on the 2-core development machine: what a test costs when no
#: earlier run of this checkout measured it, by what it uses.
REAL_RUNTIME_FIXTURES = frozenset({"site_page", "open_page", "shared_csp_site"})
BROWSER_FIXTURES = frozenset({"shared_chromium"})
SITE_FIXTURES = frozenset({"shared_site", "shared_csp_site"})
#: Long tests whose fixtures do not say so (random play, sampling, whole builds).
LONG_TESTS = (
    "test_soak_", "test_random_play_keeps_invariants", "test_bots_never_make_an_illegal_move",
    "test_bot_deals_always_terminate", "test_the_expert_outplays", "large_independent_count",
    "test_the_expert_never_reads", "test_seeded_bot_deals_give_byte_identical", "test_a_fifth_language",
    "test_bots_do_not_peek", "test_bots_are_deterministic", "test_junk_is_refused",
)
#: A whole second build of the site (a fifth language added): the longest test.
WHOLE_BUILDS = ("test_a_fifth_language",)
#: The real site's build, in the background, while the workers run tests that do not
#: need it: about 45 s on the development machine with the build caches warm (53 s on
#: CI). A lead shorter than the build leaves a core idle while the workers wait
#: for it (mkdocs builds on one core); a longer one costs nothing.
BUILD_SECONDS = 45.0


#: What each test took (seconds, whole: setup, call and teardown) in a full run on the
#: 2-core development machine: the order of a fresh checkout's first run, which has
#: no pytest cache. Only the order follows from it; a stale or missing entry costs
#: time, never a check. ``make test-costs`` writes it from this checkout's last run.
RECORDED_COSTS = Path(__file__).resolve().parent / "durations.json"
#: Tests shorter than this are left out of the record (the estimate places them).
RECORDED_FLOOR = 0.1


def recorded_costs() -> dict[str, float]:
    """``RECORDED_COSTS``, by node id (empty if the file is missing or unreadable)."""
    try:
        found = json.loads(RECORDED_COSTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(found, dict):
        return {}
    return {str(k): float(v) for k, v in found.items() if isinstance(v, (int, float))}


def _still_there(node_id: str) -> bool:
    """Whether the test ``node_id`` names is still defined (its file holds ``def name``):
    the cache keeps the durations of tests renamed or removed since."""
    path, _, rest = node_id.partition("::")
    name = rest.split("::")[-1].split("[", 1)[0]
    try:
        return f"def {name}(" in (ROOT / path).read_text(encoding="utf-8")
    except OSError:
        return False


def write_recorded_costs(cache_dir: Path) -> int:
    """Write ``RECORDED_COSTS`` from the durations a run stored in ``cache_dir``
    (pytest's cache, see tests/conftest.py); the number of tests written."""
    stored = json.loads((cache_dir / "v" / "dhumbal" / "durations").read_text(encoding="utf-8"))
    costs = {k: round(float(v), 1) for k, v in sorted(stored.items()) if float(v) >= RECORDED_FLOOR and _still_there(k)}
    RECORDED_COSTS.write_text(json.dumps(costs, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    return len(costs)


def estimated_cost(item: pytest.Item) -> float:
    used = set(getattr(item, "fixturenames", ()))
    name = getattr(item, "originalname", item.name)
    if any(part in name for part in WHOLE_BUILDS):
        return 60.0
    if used & REAL_RUNTIME_FIXTURES:
        return 8.0
    if any(part in name for part in LONG_TESTS):
        return 6.0
    if used & BROWSER_FIXTURES:
        return 2.0
    if used & SITE_FIXTURES:
        return 0.5
    return 0.05


def costliest_first(items: list[pytest.Item], measured: dict[str, float]) -> list[pytest.Item]:
    """The items, the costliest first (``measured`` seconds by node id, else estimated),
    with tests that need no built site ahead of the rest for as long as the build
    takes (every worker busy meanwhile)."""
    def cost(item: pytest.Item) -> float:
        return measured.get(item.nodeid, estimated_cost(item))

    order = sorted(items, key=cost, reverse=True)  # stable: equal costs keep their order
    lead: list[pytest.Item] = []
    budget = 2 * BUILD_SECONDS
    for item in order:
        if budget <= 0:
            break
        if not SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            lead.append(item)
            budget -= cost(item)
    chosen = {id(item) for item in lead}
    return lead + [item for item in order if id(item) not in chosen]


# -- browser ----------------------------------------------------------------------


class Chromium:
    """The headless Debian Chromium of a test process, launched when first asked for."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    def get(self, *, required: bool = False) -> Any:
        """The browser; without Playwright or Chromium the calling test is
        skipped, or failed if the browser is ``required``."""
        if self._browser is None:
            problem = None
            try:
                from playwright.sync_api import sync_playwright
            except ImportError as error:
                problem = f"Playwright is not installed ({error})"
            else:
                if not Path(CHROMIUM).exists():  # neither the shell nor chromium
                    problem = f"{CHROMIUM} is not installed"
            if problem:
                if required:
                    pytest.fail(problem + " (the browser tests need Debian's chromium-headless-shell or chromium)", pytrace=False)
                pytest.skip(problem)
            if self._playwright is None:
                self._playwright = sync_playwright().start()
            self._browser = headless.launch(self._playwright.chromium, CHROMIUM, CHROMIUM_ARGS)
        return self._browser

    def close(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        if self._playwright is not None:
            self._playwright.stop()
            self._playwright = None


#: The runtime's watchdog limits (stall, silence, request: seconds of wall clock
#: in the product) put out of reach. The tests that load the real runtime start
#: their contexts with this, so that a machine too loaded to answer within the
#: product's seconds cannot turn a test about something else into an error
#: state; the watchdog's own tests set the limit they test
#: (tests/table/test_table_watchdog_browser.py), and one test checks the defaults.
#: How long a browser wait may last before it fails the test (milliseconds): a
#: bound for a test that would hang, never a measure of speed.
PATIENCE_MS = 180_000

UNHURRIED_RUNTIME = (
    "window.DhumbalRuntimeLimits = Object.assign("
    "{stall: 3600000, silence: 3600000, request: 3600000, window: 3600000, total: 36000000}, window.DhumbalRuntimeLimits || {});"
)


#: What every test context starts with unless its test asks otherwise (``LocalPages.context``):
#:
#: - ``reduced_motion="reduce"``: the reader asks for no motion, so a card lands
#:   where it goes at once and a test's next press need not wait out its 300 ms
#:   flight (a whole deal is 12 to 40 of them). The tests of motion itself ask for
#:   it (``reduced_motion="no-preference"``): the glide, the bots' moves one at a
#:   time on their seats in both settings, one 40-turn phone flow, the layout
#:   shift while the table goes live.
#: - ``service_workers="block"``: no service worker is registered, so a new context
#:   does not precache its language's pages and the engine behind the test's back.
#:   The offline suite (tests/offline), which tests the service worker, allows it.
TEST_DEFAULTS: dict[str, Any] = {"reduced_motion": "reduce", "service_workers": "block"}


def stop_clock(page: Any) -> None:
    """Stop the page's clock: from now on its timers (and ``Date``, ``performance.now``)
    move only when the test moves them with ``page.clock.run_for(ms)``.

    ``page.clock.install()`` must have come before the page loaded. A test that
    says nothing happens in so many seconds without the reader's intent runs
    those seconds on this clock: at once, and whatever the machine's load.
    (Workers keep their own, real clock.)"""
    page.clock.pause_at(int(page.evaluate("Date.now()")) + 1)


def is_local(url: str, origin: str) -> bool:
    return url == origin or url.startswith(origin + "/")


@dataclass
class PageWatch:
    """What the pages of one browser context did: requests to other hosts
    (refused), requests that reached the test server, failed responses of
    the server, script errors."""

    origin: str
    refused: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    requested: list[str] = field(default_factory=list)


class LocalPages:
    """Browser contexts whose every request to another host is recorded and
    fails, and whose pages start with the runtime's watchdog out of reach
    (``UNHURRIED_RUNTIME``, see ``context``). ``passed`` are URL prefixes
    (``data:``) let through unrecorded. ``finish`` closes the contexts and
    fails the test if a request was refused, or (for pages opened with
    ``page``) a response of the server failed or a script threw.

    Requests are *watched* (the context's request events), and the browser
    resolves no host but 127.0.0.1 (``CHROMIUM_ARGS``), so a request to
    another host fails there. With ``intercept``, every request is instead
    held and let through or aborted by this process (a route for ``**/*``),
    and ``requested`` lists only what reached the server past the service
    worker: the offline suite counts those. Interception costs: Playwright
    turns the context's HTTP cache off under a route, and every request makes
    a round trip through this process, so a page loaded again in the same
    context costs twice the CPU (measured on eight pages loaded twice each).
    """

    def __init__(
        self,
        browser: Any,
        origin: str,
        *,
        watch: type[PageWatch] = PageWatch,
        passed: tuple[str, ...] = (),
        intercept: bool = False,
    ) -> None:
        self.browser = browser
        self.origin = origin
        self.watch = watch
        self.passed = passed
        self.intercept = intercept
        self.contexts: list[Any] = []
        self.watches: list[PageWatch] = []

    def context(self, *, unhurried: bool = True, **options: Any) -> tuple[Any, Any]:
        """A new context (``browser.new_context(**options)``) and its watch.

        Unless ``unhurried`` is false, the context's pages start with the
        runtime's watchdog limits out of reach (``UNHURRIED_RUNTIME``): every
        page of the site has the mini table, and a machine loaded enough to
        keep Pyodide's download or start quiet for the product's seconds
        must not turn a test about something else into the table's error
        state. Only the watchdog's own tests set limits (after this script,
        so theirs win) or turn it off."""
        context = self.browser.new_context(**{**TEST_DEFAULTS, **options})
        # Playwright's waits fail after 30 s by default, which a loaded machine can
        # reach while a page starts Pyodide: the waits are for events, and this
        # bound only ends a test that would otherwise hang.
        context.set_default_timeout(PATIENCE_MS)
        if unhurried:
            context.add_init_script(UNHURRIED_RUNTIME)
        watch = self.watch(self.origin)

        def allowed(url: str) -> bool:
            """Record ``url`` (the server's, or another host's); whether it may go."""
            if is_local(url, self.origin):
                watch.requested.append(url)
            elif not url.startswith(self.passed):
                watch.refused.append(url)
                return False
            return True

        def route(r: Any) -> None:
            if allowed(r.request.url):
                r.continue_()
            else:
                r.abort()

        def seen(request: Any) -> None:
            allowed(request.url)

        if self.intercept:
            context.route("**/*", route)
        else:
            context.on("request", seen)
        self.contexts.append(context)
        self.watches.append(watch)
        return context, watch

    @staticmethod
    def page(context: Any, watch: PageWatch, timeout: float | None = None) -> Any:
        """A new page of ``context`` whose failed responses and script errors go to ``watch``."""
        page = context.new_page()
        if timeout is not None:
            page.set_default_timeout(timeout)
        page.on("response", lambda r: watch.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.on("pageerror", lambda e: watch.errors.append(str(e)))
        return page

    def finish(self) -> None:
        for context in self.contexts:
            context.close()
        assert_clean([u for w in self.watches for u in w.refused], [u for w in self.watches for u in w.failed],
                     [e for w in self.watches for e in w.errors])


def assert_clean(refused: list[str], failed: list[str], errors: list[str]) -> None:
    """Fail if the browser tried another host, a response of the server failed, or a script threw."""
    assert not refused, f"the browser tried to reach other hosts: {sorted(set(refused))}"
    assert not failed, f"requests to the site failed: {sorted(set(failed))}"
    assert not errors, f"scripts failed: {errors}"


class WarmContexts:
    """Browser contexts kept warm for the tests of one process, one per set of
    options (``key``), for tests that are not about a first visit.

    A fresh context starts with no HTTP cache and no engine on the device: its
    first page load costs about 3.5 s of CPU and the engine's start about 4.5 s
    (Pyodide booted and its memory snapshot made); in a warm context, about 2.7 s
    and 1.5 s (the snapshot the worker kept, restored), measured on a rules page.
    What a test leaves behind is cleared before the next test's page opens: its
    pages are closed, and the origin's local storage and IndexedDB are emptied
    (the table's stored settings and the game it would resume), while the HTTP
    cache and Cache Storage (the engine) stay. A test that changes its context
    (a route, an init script, going offline) or is about a first visit opens a
    fresh one instead. Each lease's watch is checked for its own test by
    ``Lease.finish``: no request to another host, no failed response, no script
    error while that test held the context."""

    def __init__(self, browser: Any, origin: str) -> None:
        self.pages = LocalPages(browser, origin)
        self.origin = origin
        self.pool: dict[str, tuple[Any, PageWatch]] = {}

    def lease(self, key: str, make: Callable[[LocalPages], tuple[Any, PageWatch]]) -> "Lease":
        if key not in self.pool:
            self.pool[key] = make(self.pages)
        context, watch = self.pool[key]
        for old in list(context.pages):
            old.close()
        return Lease(context, watch, self.origin)

    def close(self) -> None:
        for context, _ in self.pool.values():
            context.close()
        self.pool.clear()


def warm_pool(browser: Any, origin: str) -> Iterator[WarmContexts]:
    """The body of a session fixture that keeps a process's warm contexts for ``origin``."""
    warm = WarmContexts(browser, origin)
    try:
        yield warm
    finally:
        warm.close()


class Lease:
    """A warm context lent to one test (``WarmContexts.lease``)."""

    def __init__(self, context: Any, watch: PageWatch, origin: str) -> None:
        self.context = context
        self.watch = watch
        self.marks = {name: len(getattr(watch, name)) for name in ("refused", "failed", "errors")}
        self.cleared = False
        self.origin = origin

    def page(self, timeout: float | None = None) -> Any:
        page = LocalPages.page(self.context, self.watch, timeout)
        if not self.cleared:
            cdp = self.context.new_cdp_session(page)
            cdp.send("Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": "local_storage,indexeddb"})
            cdp.detach()
            self.cleared = True
        return page

    def finish(self) -> None:
        for page in list(self.context.pages):
            page.close()
        assert_clean(*(getattr(self.watch, name)[n:] for name, n in self.marks.items()))


def warm_opener(chromium: Any, origin: str, warm: WarmContexts,
                setup: Callable[..., tuple[Any, PageWatch]]) -> Iterator[Callable[..., tuple[Any, PageWatch]]]:
    """A test's page opener: ``setup(pages, **settings)`` makes a context and its
    watch. Each call opens a page in a warm context of its own (sitekit.WarmContexts:
    the n-th call of a test, with the same settings, gets the n-th warm context),
    or with ``fresh=True`` in a new context, for a test about a first visit or one
    that changes its context (routes, init scripts, the page clock, permissions)."""
    pages = LocalPages(chromium, origin)
    leases = []
    calls: dict[str, int] = {}

    def make(fresh: bool = False, **settings: Any) -> tuple[Any, PageWatch]:
        if fresh:
            context, watch = setup(pages, **settings)
            return pages.page(context, watch), watch
        key = json.dumps(settings, sort_keys=True, default=str)
        calls[key] = calls.get(key, 0) + 1
        lease = warm.lease(f"{key}#{calls[key]}", lambda p: setup(p, **settings))
        leases.append(lease)
        return lease.page(), lease.watch

    yield make
    pages.finish()
    for lease in leases:
        lease.finish()


if __name__ == "__main__":  # make test-costs
    print(f"{write_recorded_costs(ROOT / '.pytest_cache')} tests' costs written to {RECORDED_COSTS.relative_to(ROOT)}")
