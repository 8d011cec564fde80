"""A deal's end beside the shown hands: the strip of scores (the final standings once the match is over), the details.

The strip folds away (a disclosure) to look at the felt; the details panel
(every score row and what it means, the final standings first once the
match is over) sits behind the dock's Details; a review the reader asks for
opens in the summary's place (browser/table/review.ts puts it in).
"""

from __future__ import annotations

from ..core.i18n import Translator
from ..play.deal import Deal
from .markup import esc
from .matchend import render_final_strip, render_standings, winner_text
from .model import TableModel
from .scores import (
    CLOSE_DETAILS,
    CLOSE_REVIEW,
    DETAILS_FINAL,
    DETAILS_TITLE,
    RESULT_PRACTICE,
    STRIP_HIDE,
    STRIP_SHOW,
    STRIP_TITLE,
    STRIP_TITLE_MONEY,
    render_result,
    render_strip,
)


def render_summary(model: TableModel, deal: Deal, t: Translator) -> str:
    """A deal's end beside the shown hands: the strip (it folds away), and the details panel
    (every score row, what each means, the standings once the match is over), hidden until
    the dock's Details opens it. A review the reader asks for goes in here too, with its
    Close (browser/table/review.ts puts it in; the style sheet lays both over the table)."""
    tid = model.table_id
    final = model.match_over and not model.practice
    if model.practice:
        title = t(RESULT_PRACTICE)
    elif final:
        title = winner_text(model, t)
    else:
        title = t(STRIP_TITLE_MONEY if deal.profile.settlement == "pay-caller" else STRIP_TITLE, number=model.deal_number)
    bar = (f'<summary class="dht-fold__bar"><span class="dht-fold__title" id="{esc(tid)}-scores">{esc(title)}</span>'
           f'<span class="dht-fold__act" aria-hidden="true"><span class="dht-fold__hide">{esc(t(STRIP_HIDE))}</span>'
           f'<span class="dht-fold__show">{esc(t(STRIP_SHOW))}</span></span></summary>')
    standings = render_standings(model, t) if final else ""
    strip = render_final_strip(model, t) if final else render_strip(model, deal, t)
    details = (f'<div class="dht-panel dht-details" id="{esc(tid)}-details" role="region" '
               f'aria-labelledby="{esc(tid)}-details-title" hidden><div class="dht-panel__bar">'
               f'<h3 class="dht-panel__title" id="{esc(tid)}-details-title" tabindex="-1">'
               f'{esc(t(RESULT_PRACTICE) if model.practice else t(DETAILS_FINAL) if final else t(DETAILS_TITLE, number=model.deal_number))}</h3>'
               f'<button type="button" class="dht-btn dht-btn--quiet dht-panel__close" data-dht-panel-close>'
               f'{esc(t(CLOSE_DETAILS))}</button></div>{standings}{render_result(model, deal, t)}</div>')
    close_review = (f'<button type="button" class="dht-btn dht-btn--quiet dht-review-close" data-dht-review-close>'
                    f'{esc(t(CLOSE_REVIEW))}</button>')
    return (f'<section class="dht-summary{" dht-summary--final" if final else ""}" aria-labelledby="{esc(tid)}-scores">'
            f'<details class="dht-fold" open data-dht-fold>{bar}{strip}</details>'
            f'{details}{close_review}</section>')
