"""The built site in headless Chromium: search, language switching with
instant navigation, fonts and accessibility (axe-core), with every request
to a host other than the local test server refused (and failing the test).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dhumbal_site.runtime.fonts import FILES as FONT_FILES
from tests.axescan import axe_here
from tests.browserkit import CHROMIUM, PATIENCE_MS, LocalPages, PageWatch
from tests.site.sitecheck import LANGUAGES, ROOT, content_pages, html_pages, lang_prefix
from tools import headless

WIDE = {"viewport": {"width": 1280, "height": 900}}
SEARCH = PATIENCE_MS  # ms: the search index is built in a worker, slowly on a busy machine


def open_search(page) -> None:
    """Focus the search box (in the header on wide screens, behind a button otherwise)."""
    if not page.is_visible("input.md-search__input"):
        page.click('label.md-header__button[for="__search"]')
    page.click("input.md-search__input")


def search(page, query: str) -> list[str]:
    open_search(page)
    page.fill("input.md-search__input", query)
    # Material searches on keyup; typing Devanagari sends no key events.
    page.press("input.md-search__input", "End")
    page.wait_for_selector(".md-search-result__item a.md-search-result__link", timeout=SEARCH)
    links = page.eval_on_selector_all(
        ".md-search-result__item a.md-search-result__link", "links => links.map(a => a.href)"
    )
    # Result links carry the highlight query (?h=...) and a section anchor.
    return [link.split("#")[0].split("?")[0] for link in links]


def test_searching_thupro_on_the_nepali_site_finds_the_glossary(site, page_factory) -> None:
    page, _ = page_factory(**WIDE)
    page.goto(site.server.url + "ne/glossary/", wait_until="load")
    links = search(page, "थुप्रो")
    assert site.server.url + "ne/glossary/" in links, links
    # The Nepali site searches Nepali pages only.
    assert all(link.startswith(site.server.url + "ne/") for link in links), links


def test_search_on_each_language_stays_in_that_language(site, page_factory) -> None:
    page, _ = page_factory(**WIDE)
    for lang in ("en", "fr", "nl"):
        page.goto(site.server.url + lang_prefix(lang), wait_until="load")
        links = search(page, "Dashain")
        prefix = site.server.url + lang_prefix(lang)
        assert links and all(link.startswith(prefix) for link in links), (lang, links)
        if lang == "en":
            assert not any(f"/{other}/" in link for link in links for other in LANGUAGES[1:])


def test_language_menu_follows_instant_navigation_and_switches_with_a_full_load(site, page_factory) -> None:
    page, _ = page_factory(**WIDE)
    page.goto(site.server.url + "ne/", wait_until="load")
    page.evaluate("window.__dhumbalSamePage = true")

    # Instant navigation inside the Nepali site: no page load.
    page.click(f'.md-sidebar--primary a.md-nav__link[href="{site.server.url}ne/glossary/"]')
    page.wait_for_url(site.server.url + "ne/glossary/")
    page.wait_for_function("() => document.querySelector('meta[name=\"dhumbal:alternate\"][data-lang=fr]')"
                           ".content.endsWith('fr/glossary/')")
    assert page.evaluate("window.__dhumbalSamePage") is True, "instant navigation did not happen"

    # The header was not re-rendered, yet its language links follow the page.
    links = dict(page.eval_on_selector_all(".md-select__link", "as => as.map(a => [a.hreflang, a.href])"))
    assert links == {lang: site.server.url + lang_prefix(lang) + "glossary/" for lang in LANGUAGES}

    # Switching language is a full page load, in the other language's chrome.
    page.evaluate("document.querySelector('.md-select__link[hreflang=fr]').click()")
    page.wait_for_url(site.server.url + "fr/glossary/")
    page.wait_for_load_state("load")
    assert page.evaluate("window.__dhumbalSamePage") is None, "switched language without reloading"
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.get_attribute("input.md-search__input", "placeholder") == "Rechercher"


#: What Chromium does where the reader refused the site storage (site data blocked):
#: merely reading ``localStorage`` or ``sessionStorage`` throws a SecurityError.
STORAGE_REFUSED = """
for (const name of ["localStorage", "sessionStorage"]) {
    Object.defineProperty(window, name, {configurable: true, get() {
        throw new DOMException(`Failed to read the '${name}' property from 'Window': Access is denied for this document.`, "SecurityError");
    }});
}
"""


def test_with_the_site_storage_refused_no_script_throws(site, page_factory) -> None:
    """head.js (Material's storage helpers, browser/entries/head.ts) threw on every page; the colour
    scheme still switches (for the page), and instant navigation still works."""
    page, _ = page_factory(fresh=True, **WIDE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(STORAGE_REFUSED)
    page.goto(site.server.url + "ne/", wait_until="load")
    assert page.evaluate("() => { try { localStorage; return false; } catch (e) { return e.name; } }") == "SecurityError"
    assert errors == []
    scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    page.locator("label.md-header__button[for^='__palette']:visible").first.click()
    page.wait_for_function("(before) => document.body.getAttribute('data-md-color-scheme') !== before", arg=scheme)
    page.evaluate("window.__dhumbalSamePage = true")
    page.click(f'.md-sidebar--primary a.md-nav__link[href="{site.server.url}ne/glossary/"]')
    page.wait_for_url(site.server.url + "ne/glossary/")
    assert page.evaluate("window.__dhumbalSamePage") is True
    assert errors == []


def test_the_test_browser_builds_no_ui_of_its_own_and_keeps_playwrights_switches(site, browser, page_factory) -> None:
    """The browser every test uses (tools/headless.py): a page opened in a new tab
    brings no browser UI page with it (headless Chromium's address-bar drop-down,
    about 1 s of CPU per tab), and the --disable-features switch Chromium keeps
    (the last) still holds every feature Playwright's own launch turns off."""
    page, _ = page_factory()
    page.goto(site.server.url, wait_until="load")
    cdp = browser.new_browser_cdp_session()
    try:
        targets = cdp.send("Target.getTargets")["targetInfos"]
        processes = cdp.send("SystemInfo.getProcessInfo")["processInfo"]
    finally:
        cdp.detach()
    ui = [t["url"] for t in targets if t["type"] == "browser_ui"]
    assert not ui, f"the headless browser built UI pages for the tab: {ui}"
    (main,) = [p["id"] for p in processes if p["type"] == "browser"]
    line = Path(f"/proc/{main}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    switches = re.findall(r"--disable-features=(\S*)", line)
    off = set(switches[-1].split(",")) if switches else set()  # Chromium keeps the last one only
    playwrights = set(headless.default_disabled(browser.browser_type, CHROMIUM))
    assert playwrights and playwrights <= off, f"Playwright's switches lost: {sorted(playwrights - off)}"
    assert set(headless.UI_FEATURES_OFF) <= off


def test_nepali_text_uses_the_self_hosted_devanagari_font(site, page_factory) -> None:
    page, _ = page_factory(fresh=True, **WIDE)  # a first visit: the font is downloaded
    fonts: list[str] = []
    page.on("request", lambda request: fonts.append(request.url) if request.url.endswith(".woff2") else None)
    page.goto(site.server.url + "ne/", wait_until="load")
    page.evaluate("document.fonts.ready")
    loaded = page.evaluate(
        "[...document.fonts].filter(f => f.family.replace(/\"/g, '') === 'Noto Sans Devanagari' "
        "&& f.status === 'loaded').length"
    )
    assert loaded >= 1
    assert fonts and all(url.startswith(site.server.url + "assets/fonts/") for url in fonts)


@pytest.mark.parametrize("path", ["ne/puzzles/", "ne/rules/dashain/"])
def test_a_nepali_page_asks_for_its_font_before_drawing_anything(site, page_factory, path: str) -> None:
    """Found only at the first layout, the font came after the text was drawn in a fallback
    font, and every line moved when it swapped in (a layout shift of 0.15 to 0.18 on these
    pages at a first visit). The page now asks for it in <head>, beside its stylesheets: the
    request starts before the first paint, and the font is fetched once (the @font-face
    rules use the very file the page asked for)."""
    page, _ = page_factory(fresh=True, viewport={"width": 360, "height": 780})  # no font in the cache
    page.goto(site.server.url + path, wait_until="load")
    page.evaluate("document.fonts.ready")
    preloads = page.evaluate("[...document.querySelectorAll('link[rel=preload][as=font]')].map(l => l.href)")
    assert sorted(preloads) == [site.server.url + f"assets/fonts/{name}" for name in sorted(FONT_FILES)]
    fetched = page.evaluate("performance.getEntriesByType('resource').filter(r => r.name.endsWith('.woff2'))"
                            ".map(r => [r.name, r.startTime])")
    assert sorted(name for name, _ in fetched) == sorted(preloads)  # each once: the preload was used
    first_paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
    assert all(start < first_paint for _, start in fetched), (fetched, first_paint)


def test_only_devanagari_pages_fetch_the_font_ahead(site) -> None:
    """Every built Nepali page, its 404 page too, asks for both font files ahead; no English,
    French or Dutch page asks for any (their few Devanagari words fetch the font when they are
    drawn)."""
    wrong = []
    for page in html_pages(site.directory):
        if "/puzzles/p/" in "/" + page.path:
            continue  # a puzzle the Puzzles page fetches into itself: no document of its own
        asked = re.findall(r'<link rel="preload" href="([^"]*)" as="font"', page.file.read_text(encoding="utf-8"))
        expected = sorted(FONT_FILES) if page.lang == "ne" else []
        if sorted(href.rsplit("/", 1)[-1] for href in asked) != expected:
            wrong.append(f"{page.path}: {asked}")
    assert not wrong, wrong


def axe_violations(page, url: str) -> list[str]:
    page.goto(url, wait_until="load")
    return axe_here(page)


def _site_path(doc: Path) -> str:
    """The site path of a page of docs/en (``rules/dashain.md`` -> ``rules/dashain/``)."""
    rel = doc.relative_to(DOCS).with_suffix("").as_posix()
    if rel == "index" or rel.endswith("/index"):
        rel = rel[: -len("index")]
    return rel if not rel or rel.endswith("/") else rel + "/"


DOCS = ROOT / "docs" / "en"
#: Every page of the site, as the English docs name them: each language has them all
#: (translated, or the English page with a notice). One test per page and language,
#: so that the scans spread over the test workers.
PAGES = sorted(_site_path(doc) for doc in DOCS.rglob("*.md"))


def test_the_accessibility_scans_cover_every_page_of_every_language(site) -> None:
    for lang in LANGUAGES:
        assert sorted(content_pages(site.directory, lang)) == PAGES, lang


#: The shared scanning contexts (``scan_pages``): wide, in the light scheme and in the dark.
SCAN_OPTIONS: dict[str, dict[str, Any]] = {"light": WIDE, "dark": {"color_scheme": "dark", **WIDE}}


@pytest.fixture(scope="session")
def scan_pages(browser, site) -> Iterator[Callable[[str], tuple[Any, PageWatch]]]:
    """One wide page per colour scheme (``SCAN_OPTIONS``), each in a browser context of
    its own, that this process's accessibility scans share: they are of what each page
    shows once loaded, not of a first visit, and a new context for each of them cost up
    to a second. ``scan`` loads each page afresh (a full load) and then leaves it for
    about:blank, so that what the page did is seen by that page's test."""
    pages = LocalPages(browser, site.server.origin)
    opened: dict[str, tuple[Any, PageWatch]] = {}

    def get(scheme: str) -> tuple[Any, PageWatch]:
        if scheme not in opened:
            context, watch = pages.context(**SCAN_OPTIONS[scheme])
            opened[scheme] = (pages.page(context, watch), watch)
        return opened[scheme]

    yield get
    for context in pages.contexts:
        context.close()


def scan(shared: tuple[Any, PageWatch], url: str, look: str = "null") -> tuple[list[str], Any]:
    """The serious axe-core violations of ``url`` loaded afresh in a shared page, and the
    value of the expression ``look`` there; fails if loading it made a request to another
    host, a response of the server failed, or a script threw."""
    page, watch = shared
    seen = {name: len(getattr(watch, name)) for name in ("refused", "failed", "errors")}
    try:
        problems = axe_violations(page, url)
        looked = page.evaluate(look)
    finally:
        page.goto("about:blank")
    done = {name: getattr(watch, name)[n:] for name, n in seen.items()}
    assert not done["refused"], f"{url}: the browser tried to reach other hosts: {sorted(set(done['refused']))}"
    assert not done["failed"], f"{url}: requests to the site failed: {sorted(set(done['failed']))}"
    assert not done["errors"], f"{url}: scripts failed: {done['errors']}"
    return problems, looked


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_serious_accessibility_violations(site, scan_pages, lang, path) -> None:
    problems, _ = scan(scan_pages("light"), site.server.url + lang_prefix(lang) + path)
    assert not problems, "\n".join(f"/{lang_prefix(lang)}{path}: {v}" for v in problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_serious_accessibility_violations_in_dark_mode(site, scan_pages, lang) -> None:
    url = site.server.url + lang_prefix(lang) + "rules/dashain/"
    problems, scheme = scan(scan_pages("dark"), url, "document.body.dataset.mdColorScheme")
    assert scheme == "slate"
    assert not problems, "\n".join(problems)
