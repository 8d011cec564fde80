"""The page's prose in parts the browser lays out only when the reader nears them.

A rules page is long: its worked examples, charts and lists are some 1,800
boxes, and Material's script, run as the page loads, asks for the page's
geometry (the header's colours, the scroll position, the sidebars' sizes).
That forces the first layout of the whole page into one long task, twice as
long in Devanagari, where every line is shaped. Lighthouse counts that task
as blocking time.

:func:`fold_prose` wraps each run of the article's top-level blocks between
two headings, after the first section heading, in ``<div class="dh-prose">``.
The site's style sheet gives a part ``content-visibility: auto``: until the
reader scrolls near it, it keeps an estimated height (a size class estimated
from its blocks, ``dh-prose-N``: N rem) and is not styled, laid out or painted;
once drawn it keeps the height it really took. The headings stay outside the
parts, so the table of contents, anchors and Material's scroll tracking
measure them without drawing the parts between. Text in a part stays in the
page (search in the page, screen readers, the search index, print).

A run is left as it is when it is short (not worth a part) or holds anything
a reader works with beyond buttons (a form, a field, a dialog, a template):
those stay laid out from the start. Content that is not well nested is left
whole.
"""

from __future__ import annotations

import math
import re
from html.parser import HTMLParser

#: Elements with no end tag.
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "param", "source", "track", "wbr"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: What keeps a run out of a part: controls a reader fills in, and elements laid out on demand.
_INTERACTIVE = re.compile(r"<(?:form|input|select|textarea|dialog|template)\b", re.I)
#: A run shorter than this (in characters of HTML) stays as it is.
MIN_PART = 1500
#: The estimated heights, in rem, a part's size class can name.
SIZES = (8, 16, 32, 64, 128, 256)
_TAG = re.compile(r"<[^>]*>")


class _TopLevel(HTMLParser):
    """Finds the top-level elements of an HTML fragment: (tag, start, end) offsets."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.depth = 0
        self.open: tuple[str, int] | None = None
        self.children: list[tuple[str, int, int]] = []
        self.broken = False

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            start = self._offset()
            if tag in _VOID:
                self.children.append((tag, start, start + len(self.get_starttag_text() or "")))
            else:
                self.open = (tag, start)
        if tag not in _VOID:
            self.depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            start = self._offset()
            self.children.append((tag, start, start + len(self.get_starttag_text() or "")))

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        self.depth -= 1
        if self.depth < 0:
            self.broken = True
            self.depth = 0
        elif self.depth == 0 and self.open is not None:
            opened, start = self.open
            if opened != tag:
                self.broken = True
            end = self.text.find(">", self._offset()) + 1
            self.children.append((tag, start, end))
            self.open = None


def estimate(children: list[str]) -> int:
    """The height of a part on a phone, in rem, rounded to a size class.

    A worked example takes about 32 rem (its own placeholder's height is 30);
    other blocks their text at about 40 characters a line of 1.3 rem, plus a
    little for each list item and 3 rem for each table row. Measured against
    the drawn parts of the rules, examples and comparison pages, this is
    within a factor of two, and a part once drawn keeps its real height.
    """
    rem = 0.0
    for chunk in children:
        if chunk.startswith('<section class="dh-example'):
            rem += 32
        else:
            rem += 1.3 * len(_TAG.sub("", chunk)) / 40 + 0.5 * chunk.count("<li") + 3 * chunk.count("<tr")
    return min(SIZES, key=lambda size: abs(math.log(size / max(rem, 1.0))))


def fold_prose(html: str) -> str:
    """``html`` (an article's content) with its long runs of prose in parts."""
    parser = _TopLevel(html)
    parser.feed(html)
    parser.close()
    if parser.broken or parser.depth != 0:
        return html
    children = parser.children
    first = next((i for i, (tag, _, _) in enumerate(children) if tag == "h2"), None)
    if first is None:
        return html
    runs: list[list[tuple[str, int, int]]] = []
    run: list[tuple[str, int, int]] = []
    for child in children[first + 1:]:
        if child[0] in _HEADINGS:
            if run:
                runs.append(run)
            run = []
        else:
            run.append(child)
    if run:
        runs.append(run)
    out: list[str] = []
    position = 0
    for run in runs:
        start, end = run[0][1], run[-1][2]
        chunk = html[start:end]
        if len(chunk) < MIN_PART or _INTERACTIVE.search(chunk):
            continue
        size = estimate([html[a:b] for _, a, b in run])
        out += [html[position:start], f'<div class="dh-prose dh-prose-{size}">', chunk, "</div>"]
        position = end
    out.append(html[position:])
    return "".join(out)
