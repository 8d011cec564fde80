"""The site works under its Content-Security-Policy, which is really enforced.

A whole deal is played, search answers and instant navigation runs, with the
policy of the pages' meta tag, and again with the header recipe of CONTRIBUTING.md
(which also covers the engine's worker, Pyodide and the search worker): not
one violation is reported. An inline script injected into the page is
blocked, so the policy is live.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dhumbal_site.runtime import csp
from tests.browserkit import LocalPages
from tests.sitekit import BuiltSite
from tests.table.tabledriver import TABLE, author_seed, follow_link, play_deal, prefer, start

RECORD = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


def watch_console(page: Any) -> list[str]:
    """Console messages about the policy, from the page and from its workers."""
    said: list[str] = []

    def keep(message: Any) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            said.append(message.text)

    page.on("console", keep)
    page.on("worker", lambda worker: worker.on("console", keep) if hasattr(worker, "on") else None)
    return said


def search(page: Any, query: str) -> int:
    if not page.is_visible("input.md-search__input"):
        page.click('label.md-header__button[for="__search"]')
    page.click("input.md-search__input")
    page.fill("input.md-search__input", query)
    page.press("input.md-search__input", "End")
    page.wait_for_selector(".md-search-result__item")  # the index is built in a worker
    count = page.locator(".md-search-result__item").count()
    page.keyboard.press("Escape")
    # Closed is not gone: Material's overlay covers the page for a quarter
    # second more (a CSS transition), and a press in that time lands on it
    # (it did on a loaded machine). Wait until it no longer takes a press.
    page.wait_for_function(SEARCH_CLOSED)
    return int(count)


SEARCH_CLOSED = """() => {
  const toggle = document.getElementById('__search');
  const overlay = document.querySelector('.md-search__overlay');
  if (!toggle || toggle.checked) return false;
  if (!overlay) return true;
  const box = overlay.getBoundingClientRect();
  return box.width === 0 || box.height === 0 || getComputedStyle(overlay).pointerEvents === 'none';
}"""


def inline_script_runs(page: Any) -> bool:
    return bool(page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.__inlineRan = true';"
        " document.head.appendChild(s); return window.__inlineRan === true; }"
    ))


def test_a_deal_search_and_instant_navigation_under_the_meta_policy(site_page: Callable[..., Any], real_site: Any) -> None:
    page, _ = site_page(fresh=True)
    page.context.add_init_script(RECORD)
    said = watch_console(page)
    page.goto(real_site.server.url("fr/"))
    policy = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    assert policy == csp.POLICY
    assert search(page, "joker") > 0
    page.evaluate("window.__sameWindow = true")
    follow_link(page, page.locator(".md-sidebar--primary a.md-nav__link[href*='rules/dashain']").first, "/fr/rules/dashain/")
    assert page.evaluate("window.__sameWindow") is True, "instant navigation did not happen"
    author_seed(page, "dashain")  # a short deal
    start(page)
    play_deal(page)
    assert page.evaluate("window.__csp") == [], "the site broke its own policy"
    assert said == []
    # The policy is live: an injected inline script does not run, and is reported.
    assert inline_script_runs(page) is False
    assert any("script-src" in v for v in page.evaluate("window.__csp"))


def test_a_deal_and_search_under_the_header_policy_workers_included(chromium: Any, shared_csp_site: BuiltSite) -> None:
    # The built site again, every response with the header policy (tests/conftest.py).
    shared_csp_site.require()
    header_server = shared_csp_site.server.origin
    pages = LocalPages(chromium, header_server)
    try:
        context, _ = pages.context()  # the watchdog out of reach (browserkit.LocalPages)
        prefer(context, "instant")  # the bots' moves at once, as in the other table tests
        context.add_init_script(RECORD)
        page = pages.page(context, _)
        said = watch_console(page)
        response = page.goto(header_server + "/rules/cardrulesplus/")
        assert response is not None and response.headers["content-security-policy"] == csp.HEADER_POLICY
        assert search(page, "joker") > 0  # the search worker, under the header's policy
        author_seed(page, "cardrulesplus")  # a short deal
        start(page)  # the engine's worker and Pyodide, under the header's policy
        play_deal(page)
        assert page.evaluate("window.__csp") == []
        assert said == []
        assert page.locator(TABLE).get_attribute("data-state") == "ready"
    finally:
        pages.finish()
