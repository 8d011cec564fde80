"""The built site states a strict Content-Security-Policy and needs nothing it forbids.

Every page carries the policy of ``sitegen/dhumbal_site/runtime/csp.py`` in a
``<meta http-equiv>``, the first element of ``<head>``, ahead of every style
sheet and script; no page has an
inline script, an event-handler attribute, a ``style`` attribute or a
``javascript:`` URL; and CONTRIBUTING.md's header recipe for static hosts states
the same policy.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from dhumbal_site.runtime import csp

ROOT = Path(__file__).resolve().parents[2]


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.policies: list[tuple[int, str]] = []
        self.first_resource: int | None = None
        self.inline_scripts: list[str] = []
        self.handlers: list[str] = []
        self.styles: list[str] = []
        self.script_urls: list[str] = []
        self._script: dict[str, str | None] | None = None
        self._text: list[str] = []
        self.count = 0
        #: The first element inside <head>, as (tag, attributes).
        self.head_first: tuple[str, dict[str, str | None]] | None = None
        self._in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.count += 1
        a = dict(attrs)
        if self._in_head and self.head_first is None:
            self.head_first = (tag, a)
        self._in_head = tag == "head"
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.policies.append((self.count, a.get("content") or ""))
        if self.first_resource is None and (tag == "script" or (tag == "link" and a.get("rel") == "stylesheet")):
            self.first_resource = self.count
        if tag == "script":
            self._script = a
            self._text = []
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append(f"<{tag} {name}>")
            if name == "style":
                self.styles.append(f"<{tag} style={value!r}>")
            if name in ("href", "src", "action", "formaction") and value and re.match(r"\s*javascript:", value, re.I):
                self.script_urls.append(f"<{tag} {name}={value!r}>")

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            a = self._script
            if not a.get("src") and a.get("type") != "application/json" and "".join(self._text).strip():
                self.inline_scripts.append("".join(self._text).strip()[:80])
            self._script = None


def _pages(site: Any) -> list[Path]:
    """Every document of the site; not the puzzles, which the Puzzles page fetches into itself
    (each a <section> with nothing the policy forbids: test_a_fetched_puzzle_holds_no_script_or_style)."""
    pages = sorted(p for p in Path(site.directory).rglob("*.html") if "/puzzles/p/" not in p.as_posix())
    assert len(pages) > 20
    return pages


def test_a_fetched_puzzle_holds_no_script_or_style(site: Any) -> None:
    puzzles = sorted(Path(site.directory).rglob("puzzles/p/*.html"))
    assert puzzles
    for path in puzzles:
        text = path.read_text(encoding="utf-8")
        page = _Page()
        page.feed(text)
        where = path.relative_to(site.directory)
        assert text.startswith("<section ") and not re.search(r"<(script|style|link|meta|iframe|object|embed)\b", text), where
        assert not (page.handlers or page.styles or page.script_urls), (where, page.handlers, page.styles, page.script_urls)


def test_the_policy_forbids_inline_script_and_other_hosts() -> None:
    directives = dict(csp.DIRECTIVES)
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self' 'wasm-unsafe-eval'"  # Pyodide compiles WebAssembly, nothing else
    assert "unsafe-inline" not in csp.POLICY and "unsafe-eval'" not in csp.POLICY.replace("wasm-unsafe-eval'", "")
    assert "*" not in csp.POLICY and "http" not in csp.POLICY
    assert directives["object-src"] == "'none'"
    # frame-ancestors is ignored (and warned about) in a meta tag: header only.
    assert "frame-ancestors" not in csp.POLICY and "frame-ancestors 'self'" in csp.HEADER_POLICY


def test_every_page_states_the_policy_before_any_style_sheet_or_script(site: Any) -> None:
    for path in _pages(site):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        where = path.relative_to(site.directory)
        assert [p for _, p in page.policies] == [csp.POLICY], where
        assert page.first_resource is not None and page.policies[0][0] < page.first_resource, where


def test_the_policy_is_the_first_element_of_head_on_every_page(site: Any) -> None:
    # Ahead of the description and title, which come from a page's front
    # matter: nothing a page's text reaches comes before the policy.
    for path in _pages(site):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        where = path.relative_to(site.directory)
        assert page.head_first is not None, where
        tag, attrs = page.head_first
        assert tag == "meta" and (attrs.get("http-equiv") or "").lower() == "content-security-policy", (where, tag, attrs)
        assert attrs.get("content") == csp.POLICY, where


def test_no_page_needs_what_the_policy_forbids(site: Any) -> None:
    for path in _pages(site):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        where = path.relative_to(site.directory)
        assert not page.inline_scripts, (where, page.inline_scripts)
        assert not page.handlers, (where, page.handlers)
        assert not page.styles, (where, page.styles)
        assert not page.script_urls, (where, page.script_urls)


def test_materials_inline_scripts_are_served_as_a_file(site: Any) -> None:
    theme = Path(site.directory) / "assets" / "dhumbal" / "head.js"
    assert theme.is_file()
    html = (Path(site.directory) / "fr" / "index.html").read_text(encoding="utf-8")
    parts = re.findall(r'<script src="[^"]*assets/dhumbal/head\.js" data-part="(\w+)"', html)
    assert parts == ["base", "palette", "content"]


def test_the_publishing_guide_gives_the_same_policy_as_a_header() -> None:
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert guide.count(csp.HEADER_POLICY) >= 3, "the header recipe must state the policy for each host it names"


WAIT = re.compile(r"""wait_for_function\(\s*f?(["'])(.*?)\1""", re.S)
FUNCTION = re.compile(r"\s*(\(|async\b|function\b|\w+\s*=>)")


def test_the_tests_poll_the_pages_with_functions_not_expressions() -> None:
    """A browser test's ``wait_for_function`` is given a function, never a bare
    expression: Playwright evaluates a bare expression again with ``eval`` at each
    poll, which the site's policy forbids (no ``'unsafe-eval'``); a poll cut short
    by a navigation then rejected with nobody listening, as a script error of the
    page (once in four runs of the offline suite). A function is evaluated once."""
    bare = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for match in WAIT.finditer(path.read_text(encoding="utf-8")):
            if not FUNCTION.match(match.group(2)):
                line = path.read_text(encoding="utf-8").count("\n", 0, match.start()) + 1
                bare.append(f"{path.relative_to(ROOT)}:{line}: {match.group(2)[:60]}")
    assert not bare, "bare expressions polled with eval:\n" + "\n".join(bare)
