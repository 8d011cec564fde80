"""The Score pad page: ``<!-- dhumbal:scorepad -->`` places the pad, drawn by the engine.

The pad's HTML (the set-up form from the profiles' option specs, the places
the settled sheet goes into, and every text its script shows) comes from
:func:`dhumbal.view.padview.render_pad` in the page's language, so the page, the
worker and the catalogs speak with one voice. ``browser/scorepad/`` runs
it; the engine settles every deal in the table's worker (op ``scorepad`` of
:mod:`dhumbal.table.web`).
"""

from __future__ import annotations

from dhumbal.view.padview import render_pad

from .markers import HTMLBlock, MarkerContext


def render_scorepad(ctx: MarkerContext) -> HTMLBlock:
    if ctx.args or ctx.options:
        raise ValueError("the scorepad marker takes no arguments")
    # The search index reads the page's own text; the form's labels add nothing to it.
    return HTMLBlock(render_pad(ctx.lang), search="")
