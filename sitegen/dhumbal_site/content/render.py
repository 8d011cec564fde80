"""Jinja rendering of generated page content, in the reader's language.

Templates live in ``templates/`` beside this module; ``_("…")`` in a template
is a msgid translated through the same catalogs as the engine's messages (and
``ngettext(singular, plural, n)`` a plural one, its form chosen by ``n``), so
``make catalogs`` extracts template strings too.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from dhumbal.core.i18n import N_, number, translator, typography_html

from .markers import HTMLBlock

TEMPLATES = Path(__file__).parent / "templates"
# TRANSLATORS: the last two items of a list of names ("A, B and C").
AND: str = N_("{first} and {second}")


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    return env


def render(template: str, lang: str, **context: Any) -> str:
    """Render ``template`` in ``lang``; the output has no blank lines, so Markdown keeps it as one HTML block."""
    t = translator(lang)

    def gettext(msgid: str, **params: Any) -> str:
        return t(msgid, **params) if params else t.raw(msgid)

    def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
        return t.plural(singular, plural, n, **params)

    def listed(items: list[str]) -> str:
        """Names as a list in running text: "A, B and C", "A, B et C"."""
        names = [str(i) for i in items]
        return t(AND, first=", ".join(names[:-1]), second=names[-1]) if len(names) > 1 else "".join(names)

    def num(value: int | str, signed: bool = False) -> str:
        return number(value, lang, signed=signed)

    def cards(text: str) -> Markup:
        from .cards import text_with_cards

        return Markup(text_with_cards(text, lang))

    html = environment().get_template(template).render(_=gettext, ngettext=ngettext, listed=listed, num=num, cards=cards, lang=lang, **context)
    # the text around the translations (a colon between a label and its value) in the language's typography
    html = typography_html(html, lang)
    return "\n".join(line for line in html.splitlines() if line.strip())


def block(template: str, lang: str, *, search: str | None = None, card_tokens: bool = True, **context: Any) -> HTMLBlock:
    """``render`` as finished HTML that skips Markdown (see ``markers.HTMLBlock``).

    The page's card pass does not see a block, so with ``card_tokens`` the
    card tokens of its text (``K♠``) become inline cards here; a template
    that draws its own cards (with the ``cards`` filter) passes False.
    ``search`` is the block's text for the search index (by default the HTML).
    """
    html = render(template, lang, **context)
    if card_tokens:
        from .cards import CARD_TOKEN, rewrite_cards

        if CARD_TOKEN.search(html):
            from dhumbal.core.i18n import available_languages, card_name

            html = rewrite_cards(html, lang=lang, namer=card_name, languages=frozenset(available_languages()))
    return HTMLBlock(html, search=search)
