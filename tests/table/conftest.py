"""Fixtures of the mini-table tests: a headless Chromium that may reach only
127.0.0.1, a small "stub" site whose runtime forwards requests to this
process's ``dhumbal.table.web.handle``, and the real built site with the real
runtime (Pyodide in a Web Worker).

The stub site is fast and checks the table script on its own: each page is
the pre-rendered table (``dhumbal.table.web.prerender``) with the real page
code and styles (built from browser/ as the site build does), and a stand-in
runtime module (``stub-runtime.js`` served as ``assets/dhumbal/runtime.js``)
whose ``request`` calls ``dhumbal.table.web.handle`` through Playwright's
``expose_function``.

``phone_page`` opens pages of the real built site with ``stub-runtime.js``
served in place of the real runtime, so the site's own pages (Material, the
site's policy, instant navigation) are played without booting Pyodide: the
phone, sideways and desktop tests (tabledriver's PHONE, LANDSCAPE, DESKTOP).
Its contexts have seen the first-run guide unless a test asks for it.

Both sites are built once per test run and served by the run's one server
for each (tests/conftest.py says how): the stub site by the first process
that needs it, the real site as every suite shares it (``shared_site``,
``mkdocs build --strict`` with ``DHUMBAL_SITE_URL`` set to its server, for
instant navigation). Set ``DHUMBAL_TABLE_SITE`` to the directory of an
already built site to skip the build while working on the tests (see
tests/sitekit.py).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests import sitekit
from tests.browserkit import Chromium, LocalPages, PageWatch, WarmContexts, warm_opener, warm_pool
from tests.sitekit import ROOT, Address, BuiltSite, stand_in
from tests.table.tabledriver import prefer

HERE = Path(__file__).resolve().parent
STUB_PAGES = {
    # language: (profile of the rules page, seed). The seeds give deals that end
    # after 10 to 18 moves of the drivers' reader (tabledriver.py): many tests
    # play a whole deal through the interface, and one of 70 moves repeats the
    # same work for nothing.
    "en": ("nepali-games", 17),
    "fr": ("dashain", 102),
    "nl": ("cardrulesplus", 103),
    "ne": ("nepali-games", 104),
}



@dataclass
class Served:
    """A test server as the table tests address it: ``url(path)``."""

    server: Address

    @property
    def directory(self) -> Path:
        return self.server.directory

    @property
    def origin(self) -> str:
        return self.server.origin

    def url(self, path: str = "") -> str:
        return self.server.at(path)


# -- the browser ----------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium(shared_chromium: Chromium) -> Any:
    return shared_chromium.get()


# What a page did that it should not: other hosts, failed requests, script
# errors; and what it requested from the test server.
Watch = PageWatch


# -- the stub site ------------------------------------------------------------------

STUB_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<script src="/assets/dhumbal/head.js" data-part="base" data-scope="/"></script>
<link rel="stylesheet" href="/assets/dhumbal/site.css">
</head>
<body>
<main class="md-typeset">
<h1>{title}</h1>
<p>{text}</p>
{extra}
{table}
</main>
<script type="module" src="/assets/dhumbal/site.js"></script>
</body>
</html>
"""


def write_stub_site(directory: Path, url: str = "") -> tuple[int, str]:
    """The stub site's files: ``/<lang>/`` (a rules page each) and ``/en/example/`` (with a play-from button)."""
    from dhumbal.core.profiles import find_profile
    from dhumbal.table import web
    from dhumbal.worked.examples import load_file
    from tests.table.tablekit import build_page_code

    build_page_code(directory)  # the page side's bundles, as the site build writes them
    # the engine's runtime module: the stand-in that answers from this process
    (directory / "assets" / "dhumbal" / "runtime.js").write_bytes((HERE / "stub-runtime.js").read_bytes())
    stub_html = STUB_PAGE.format
    filler = "</p><p>".join(["Rules text. " * 40] * 30)  # the table starts below the fold
    # every language of the site; one the seeds above do not name (a language being
    # added) gets the English page's profile and seed
    from tests.table.tablekit import LANGS

    for lang in LANGS:
        profile, seed = STUB_PAGES.get(lang, STUB_PAGES["en"])
        table = web.prerender(lang=lang, profile=find_profile(profile), seed=seed, attrs={"data-seed": str(seed)})
        page = stub_html(lang=lang, title=f"{profile} ({lang})", text=filler, extra="", table=table)
        (directory / lang).mkdir()
        (directory / lang / "index.html").write_text(page, encoding="utf-8")
    walk = load_file(ROOT / "examples" / "k-pair-discard.toml")
    button = (
        '<section class="dh-example" id="example-k-pair-discard" data-example="k-pair-discard">'
        "<p>The example's steps.</p>"
        '<p><button type="button" class="dh-play-from" data-example="k-pair-discard" '
        f'data-state-json="{html.escape(json.dumps(walk.start_state, ensure_ascii=False))}" '
        f'data-names="{html.escape(json.dumps(walk.names))}">Play from here</button></p></section>'
        f'<p>{filler}</p>'
    )
    table = web.prerender(lang="en", profile=find_profile("nepali-games"), seed=7, attrs={"data-seed": "7"})
    page = stub_html(lang="en", title="Examples", text="Examples.", extra=button, table=table)
    (directory / "en" / "example").mkdir()
    (directory / "en" / "example" / "index.html").write_text(page, encoding="utf-8")
    return 0, ""


@pytest.fixture(scope="session")
def stub_site() -> Served:
    """The stub site, written once per run and served by the run's ``stub`` server."""
    built = sitekit.shared_build("stub", write_stub_site)
    assert built.ok, built.log
    return Served(sitekit.current_run().address("stub"))


@pytest.fixture(scope="session")
def warm_stub(chromium: Any, stub_site: Served) -> Iterator[WarmContexts]:
    yield from warm_pool(chromium, stub_site.origin)


@pytest.fixture
def stub_page(chromium: Any, stub_site: Served, warm_stub: WarmContexts) -> Iterator[Callable[..., tuple[Any, Watch]]]:
    """Pages of the stub site whose runtime answers from this process's dhumbal.table.web
    (in warm contexts: ``warm_opener``)."""
    from dhumbal.table import web

    def setup(pages: LocalPages, fail: str | None = None, speed: str = "instant", save_data: bool = False,
              **options: Any) -> tuple[Any, Watch]:
        context, watch = pages.context(**options)
        context.expose_function("dhumbalHandle", web.handle)
        prefer(context, speed, save_data)
        if fail:
            context.add_init_script(f"window.__stubFail = {json.dumps(fail)};")
        return context, watch

    yield from warm_opener(chromium, stub_site.origin, warm_stub, setup)


# -- the real site ------------------------------------------------------------------


@dataclass
class RealSite:
    """The shared real site (``built``), its server addressed with ``server.url(path)``."""

    built: BuiltSite

    @property
    def server(self) -> Served:
        return Served(self.built.server)

    def require(self) -> None:
        """Fail the calling test if the site did not build."""
        self.built.require()


@pytest.fixture(scope="session")
def real_site(shared_site: BuiltSite) -> RealSite:
    return RealSite(shared_site)


@pytest.fixture(scope="session")
def warm_real(chromium: Any, real_site: RealSite) -> Iterator[WarmContexts]:
    yield from warm_pool(chromium, real_site.server.origin)


@pytest.fixture
def site_page(chromium: Any, real_site: RealSite, warm_real: WarmContexts) -> Iterator[Callable[..., tuple[Any, Watch]]]:
    """Pages of the real built site, with the real runtime (in warm contexts: ``warm_opener``)."""
    real_site.require()

    def setup(pages: LocalPages, speed: str = "instant", unhurried: bool = True, **options: Any) -> tuple[Any, Watch]:
        # the watchdog's limits out of reach unless the test is about them (browserkit.UNHURRIED_RUNTIME)
        context, watch = pages.context(unhurried=unhurried, **options)
        prefer(context, speed)
        return context, watch

    yield from warm_opener(chromium, real_site.server.origin, warm_real, setup)


# -- the real site with the engine answering from this process ------------------------------

# Layout shifts (PerformanceObserver), calls of Element.animate, from the first paint on.
WATCH = """
window.__shifts = [];
try {
  new PerformanceObserver(function (list) {
    list.getEntries().forEach(function (e) {
      if (!e.hadRecentInput) window.__shifts.push(e.value);
    });
  }).observe({ type: "layout-shift", buffered: true });
} catch (e) {}
window.__animations = 0;
var __animate = Element.prototype.animate;
Element.prototype.animate = function () { window.__animations++; return __animate.apply(this, arguments); };
"""


@pytest.fixture(scope="session")
def warm_phone(chromium: Any, real_site: RealSite) -> Iterator[WarmContexts]:
    yield from warm_pool(chromium, real_site.server.origin)


@pytest.fixture
def phone_page(chromium: Any, real_site: RealSite, warm_phone: WarmContexts) -> Iterator[Callable[..., Any]]:
    """Pages of the built site whose engine answers from this process (``dhumbal.table.web.handle``):
    ``stub-runtime.js`` is served in place of ``runtime.js`` (browser/entries/runtime.ts) (sitekit.STAND_INS).
    Each call opens a page in a warm context kept for its options (browserkit.warm_opener),
    or with ``fresh=True`` in a new one. ``guide=True``: the first-run guide not yet seen."""
    from dhumbal.table import web

    real_site.require()
    origin = real_site.server.origin

    def setup(pages: LocalPages, speed: str = "instant", delay: int = 0, init: str = "", guide: bool = False,
              **options: Any) -> tuple[Any, Any]:
        context, watch = pages.context(**options)
        stand_in(context, origin, "stub-runtime")
        context.expose_function("dhumbalHandle", web.handle)
        prefer(context, speed, guide=guide)
        context.add_init_script(f"window.__stubDelay = {int(delay)};\n" + WATCH + init)
        return context, watch

    opener = warm_opener(chromium, origin, warm_phone, setup)
    make = next(opener)

    def page(options: dict[str, Any], *, fresh: bool = False, **settings: Any) -> Any:
        opened, _ = make(fresh=fresh, **options, **settings)
        opened.set_default_timeout(30_000)
        return opened

    yield page
    next(opener, None)
