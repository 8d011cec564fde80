"""The one list of marker handlers: the names writers may use in pages.

A page line that holds only ``<!-- dhumbal:NAME ARGS -->`` is replaced, at
build time, by what ``HANDLERS[NAME]`` returns for it (Markdown or HTML). A
name that is not registered here fails the build, naming the page and line,
so a typo in a page never ships as an invisible comment.

To add a handler, write it in its own module of this package (for example
``compare.py``), then import it here and add one entry::

    from .compare import render_compare

    HANDLERS: dict[str, MarkerHandler] = {
        "compare": render_compare,
    }

A handler takes a :class:`dhumbal_site.content.markers.MarkerContext` (the page, the
reader's language ``ctx.lang``, the language the page text is written in
``ctx.source_lang``, the positional ``ctx.args`` and ``key=value``
``ctx.options`` of the marker) and returns a string. It reports a problem
with the page by raising any exception; the build then fails with the page
file and line in the message.
"""

from __future__ import annotations

from .generated import render_compare, render_glossary, render_options, render_register
from .markers import MarkerHandler
from .odds_chart import render_bots, render_call_odds
from .puzzles import render_daily, render_progress, render_puzzles
from .scorepad import render_scorepad
from .statuspage import render_status
from .strength_table import render_strength
from .walkthrough import render_example, render_examples

HANDLERS: dict[str, MarkerHandler] = {
    "compare": render_compare,
    "options": render_options,
    "example": render_example,
    "examples": render_examples,
    "glossary": render_glossary,
    "register": render_register,
    "translation-status": render_status,
    "call-odds": render_call_odds,
    "bots": render_bots,
    "puzzles": render_puzzles,
    "puzzle-progress": render_progress,
    "daily-puzzle": render_daily,
    "strength": render_strength,
    "scorepad": render_scorepad,
}
