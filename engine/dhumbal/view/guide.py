"""The first-run guide: three short steps shown over the felt the first time a reader plays.

Tap marks, drag throws, call before you draw: the third step follows the
turn order of the rules on the table (the draw-first profiles take a card
first, the throw-first ones throw first, and a call comes before either).
Both wordings are in the markup, each marked with its turn order; the table
script shows the one that matches the board's ``data-turn-order`` (the
reader may change the rules before playing), shows the guide once, and
remembers in the browser that it was seen (browser/table/guide.ts). It lies
over the felt, never over the hand or the controls, and is hidden until
the script shows it, so a page without the script has no guide to close.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..core.i18n import N_, translator
from .markup import esc
from .model import TableModel

GUIDE_TITLE: Final = N_("Three things to know")
# TRANSLATORS: "Throw" is the Throw button under the hand: write it as that
# button's label is translated.
GUIDE_MARK: Final = N_("Tap or click a card to mark it; Throw throws the marked cards.")
GUIDE_DRAG: Final = N_("Or drag a card onto the pile: it is thrown at once.")
#: The third step by turn order: a call comes at the start of a turn, before anything else.
GUIDE_CALL: Final[Mapping[str, str]] = {
    # TRANSLATORS: "Call" is the Call button ("Call on {total}"): name it with
    # that label's first words, as the reader sees it under the hand.
    "draw-first": N_("To call, press Call at the start of your turn, before you take a card. The line above your hand says when you may."),
    # TRANSLATORS: "Call" is the Call button ("Call on {total}"): name it with
    # that label's first words, as the reader sees it under the hand.
    "throw-first": N_("To call, press Call at the start of your turn, before you throw. The line above your hand says when you may."),
}
GUIDE_DONE: Final = N_("Got it")


def render_guide(model: TableModel) -> str:
    """The guide, hidden until the table script shows it (once per browser)."""
    t = translator(model.lang)
    tid = model.table_id
    calls = "".join(f'<span data-turn-order="{esc(order)}">{esc(t(msgid))}</span>' for order, msgid in GUIDE_CALL.items())
    return (f'<div class="dht-guide" role="region" aria-labelledby="{esc(tid)}-guide-title" data-dht-guide hidden>'
            f'<p class="dht-guide__title" id="{esc(tid)}-guide-title">{esc(t(GUIDE_TITLE))}</p>'
            f'<ol class="dht-guide__steps"><li>{esc(t(GUIDE_MARK))}</li><li>{esc(t(GUIDE_DRAG))}</li>'
            f'<li class="dht-guide__call">{calls}</li></ol>'
            f'<p class="dht-guide__foot"><button type="button" class="dht-btn dht-btn--primary" data-dht-guide-done>'
            f'{esc(t(GUIDE_DONE))}</button></p></div>')
