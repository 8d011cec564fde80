"""The French site keeps French typography everywhere a reader meets text:
no line can break before : ; ! ? or inside guillemets, in the pages' prose,
in generated content (chart tooltips, the same-deal steps, the score notes),
in the page titles and in the search index, whose snippets the search shows.
Code is left as written."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

NBSP, NNBSP = "\u00a0", "\u202f"
#: a mark that ends a French phrase with an ordinary space, or none, before it; « without a no-break space after
UNSPACED = re.compile(r"(?:(?<=[^\s(\[«“‘/:;!?])|[ \t\n])([:;!?»])(?=[\s)\].,»]|$)|«(?![\u00a0\u202f])")
_PARTS = re.compile(r"(<[^>]*>|&#?\w+;)")
VERBATIM = {"code", "pre", "kbd", "samp", "script", "style", "textarea"}


def text_runs(html: str) -> list[str]:
    """The text of an HTML document outside code, each run with the character before it."""
    html = re.sub(r"<head>.*?</head>", "", html, flags=re.S)
    open_tags: list[str] = []
    runs, previous = [], " "
    for part in _PARTS.split(html):
        if not part:
            continue
        if part.startswith("<"):
            name = re.match(r"</?\s*([\w:-]+)", part)
            tag = name.group(1).lower() if name else ""
            if tag in VERBATIM:
                if part.startswith("</"):
                    if tag in open_tags:
                        open_tags.remove(tag)
                elif not part.endswith("/>"):
                    open_tags.append(tag)
            continue
        if part.startswith("&"):
            previous = "x"
            continue
        if not open_tags:
            runs.append(previous + part)
        previous = part[-1]
    return runs


def unspaced(text: str) -> list[str]:
    return [text[max(0, m.start() - 30): m.end() + 10] for m in UNSPACED.finditer(text)]


def test_the_checker_finds_a_seeded_defect() -> None:
    assert unspaced("".join(text_runs("<p>Total : 5</p>")))
    assert unspaced("".join(text_runs("<p><b>Tour 3</b>: jette</p>")))
    assert not unspaced("".join(text_runs(f"<p>Total{NBSP}: 5 <code>a : b</code> &amp; 10:30</p>")))


def test_every_french_page_keeps_french_typography(site: Any) -> None:
    pages = sorted((Path(site.directory) / "fr").rglob("*.html"))
    assert len(pages) >= 10
    found = []
    for page in pages:
        for run in text_runs(page.read_text(encoding="utf-8")):
            found += [f"{page.relative_to(site.directory)}: {hit!r}" for hit in unspaced(run)]
    assert not found, "\n".join(found[:40])


def test_the_french_search_index_keeps_it_too(site: Any) -> None:
    index = json.loads((Path(site.directory) / "fr" / "search" / "search_index.json").read_text(encoding="utf-8"))
    found = []
    for doc in index["docs"]:
        for text in (doc["title"], doc["text"]):
            prose = re.sub(r"<code>.*?</code>|<pre>.*?</pre>", " ", text, flags=re.S)
            found += [f"{doc['location']}: {hit!r}" for run in text_runs(prose) for hit in unspaced(run)]
    assert not found, "\n".join(found[:40])


def test_generated_text_named_in_the_issue(site: Any) -> None:
    rules = (Path(site.directory) / "fr" / "rules" / "nepali-games" / "index.html").read_text(encoding="utf-8")
    tooltip = re.search(r"<circle [^>]*><title>([^<]+)</title>", rules)
    assert tooltip and f"chacun{NBSP}: " in tooltip.group(1) and f"{NNBSP}%" in tooltip.group(1), tooltip
    compare = (Path(site.directory) / "fr" / "compare" / "index.html").read_text(encoding="utf-8")
    step = re.search(r'<a href="#same-deal-turn-\d+">Tour \d+</a>(.{2})', compare)
    assert step and step.group(1) == f"{NBSP}:", step
