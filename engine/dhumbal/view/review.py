"""The review of a finished deal, drawn on its summary: the reader's moves beside the expert's.

:func:`review_button` is the summary's "Review your moves" button (a session
operation, ``review``); :func:`render_review` draws what
:func:`dhumbal.trainer.review.review_deal` found: a line for the whole deal, a row of
step buttons (one per move of the reader) and, for each step, the position before the move (the reader's
hand and the face-up cards), the reader's move, the expert's choice and the
estimated cost, with Previous, Next and "Play from here" (the position
before the move, as a table's ``position`` request takes it). Only a
mistake (a cost beyond its uncertainty, :attr:`dhumbal.trainer.review.ReviewStep.mistake`)
is marked ≠, with one line of why the expert's move is better; a move the
expert would not have made but as good within the figures is marked ≈.

The page shows one step at a time (browser/table/review.ts); without the
script every step is in the markup, in order. Every text is escaped for
where it lands.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

from ..core import cards as C
from ..core.i18n import N_, NP_, Translator, cards_in_words, number
from ..play.deal import Deal
from ..trainer.advice import move_text, why
from ..trainer.review import ReviewStep
from .markup import attributes, button, cards_spans, esc

REVIEW: Final = N_("Review your moves")
REVIEW_TITLE: Final = N_("Your moves in deal {number}, beside the expert's")
REVIEW_NONE: Final = N_("You made no move in this deal: there is nothing to review.")
# TRANSLATORS: {count} (all the reader's moves of the deal) is at least 2; the form follows {mistakes}.
REVIEW_SUMMARY: Final = NP_(
    "{mistakes} of your {count} moves cost you points against the expert's choice.",
    "{mistakes} of your {count} moves cost you points against the expert's choice.",
)
REVIEW_SUMMARY_NO_MISTAKE: Final = NP_(
    "None of your {count} moves was a mistake: each was the expert's, or as good within the figures' uncertainty.",
    "None of your {count} moves was a mistake: each was the expert's, or as good within the figures' uncertainty.",
)
REVIEW_SUMMARY_ONE: Final = N_("Your only move cost you points against the expert's choice.")
REVIEW_SUMMARY_ONE_FINE: Final = N_("Your only move was the expert's, or as good within the figures' uncertainty.")
REVIEW_STEPS: Final = N_("Your moves")
REVIEW_STEP_SAME: Final = N_("Move {number}: the expert's move too")
REVIEW_STEP_EVEN: Final = N_("Move {number}: as good as the expert's")
REVIEW_STEP_DIFFERS: Final = N_("Move {number}: the expert's move was better")
REVIEW_HAND: Final = N_("Your hand")
REVIEW_FACE_UP: Final = N_("Face up")
REVIEW_YOURS: Final = N_("You: {move}.")
REVIEW_EXPERT: Final = N_("The expert: {move}.")
REVIEW_SAME: Final = N_("The expert would have made the same move.")
REVIEW_COST: Final = NP_(
    "Estimated cost of your move: {cost} points (± {se}; {samples} deal played out after each of the two moves).",
    "Estimated cost of your move: {cost} points (± {se}; {samples} deals played out after each of the two moves).",
)
REVIEW_EVEN: Final = NP_(
    "Played out, the expert's move came out {cost} points ahead (± {se}; {samples} deal after each): within the uncertainty, so yours is not a mistake.",
    "Played out, the expert's move came out {cost} points ahead (± {se}; {samples} deals after each): within the uncertainty, so yours is not a mistake.",
)
REVIEW_NO_COST: Final = NP_(
    "Played out, your move did as well as the expert's or better ({gain} points ± {se}; {samples} deal after each).",
    "Played out, your move did as well as the expert's or better ({gain} points ± {se}; {samples} deals after each).",
)
REVIEW_PREVIOUS: Final = N_("Previous move")
REVIEW_NEXT: Final = N_("Next move")
REVIEW_PLAY: Final = N_("Play from here")
REVIEW_MARK_DIFFERS: Final = "≠"
REVIEW_MARK_EVEN: Final = "≈"
REVIEW_MARK_SAME: Final = "="


def review_button(t: Translator) -> str:
    """The summary's button that asks for the review."""
    return button(t(REVIEW), op="review", cls="dht-review-btn", extra={"data-key": "review"})


def summary_text(steps: Sequence[ReviewStep], t: Translator) -> str:
    """One line for the whole deal (the status line says it when the review opens): how many
    of the reader's moves were mistakes (:attr:`dhumbal.trainer.review.ReviewStep.mistake`)."""
    if not steps:
        return t(REVIEW_NONE)
    mistakes = sum(1 for s in steps if s.mistake)
    if len(steps) == 1:
        return t(REVIEW_SUMMARY_ONE if mistakes else REVIEW_SUMMARY_ONE_FINE)
    if not mistakes:
        return t.plural(*REVIEW_SUMMARY_NO_MISTAKE, len(steps))
    return t.plural(*REVIEW_SUMMARY, mistakes, mistakes=mistakes, count=len(steps))


def _label(step: ReviewStep, t: Translator) -> str:
    msgid = REVIEW_STEP_DIFFERS if step.mistake else REVIEW_STEP_EVEN if step.differs else REVIEW_STEP_SAME
    return t(msgid, number=step.number)


def _mark(step: ReviewStep) -> str:
    return REVIEW_MARK_DIFFERS if step.mistake else REVIEW_MARK_EVEN if step.differs else REVIEW_MARK_SAME


def _decimal(x: float, lang: str) -> str:
    text = f"{x:.1f}"
    return number("0.0" if text == "-0.0" else text, lang)


def _face_up(deal: Deal) -> list[C.Card]:
    """The face-up cards the reader could see on offer: the last throw, else the pile's top card."""
    if deal.offer and len(deal.pile) >= deal.offer:
        return list(deal.pile[len(deal.pile) - deal.offer:])
    return list(deal.pile[-1:])


def _step(step: ReviewStep, total: int, t: Translator, lang: str, table_id: str, difficulty: str) -> str:
    deal = step.before
    seat = deal.turn
    view = deal.public_view(seat)
    profile = deal.profile
    yours = cards_in_words(move_text(profile, view, step.yours, lang), lang)
    lines = [f'<p class="dht-review__yours">{esc(t(REVIEW_YOURS, move=yours))}</p>']
    if step.differs:
        assert step.cost is not None and step.cost_se is not None
        expert = cards_in_words(move_text(profile, view, step.expert, lang), lang)
        lines.append(f'<p class="dht-review__expert">{esc(t(REVIEW_EXPERT, move=expert))}</p>')
        se = _decimal(step.cost_se, lang)
        if step.mistake:
            said = t.plural(*REVIEW_COST, step.samples, cost=_decimal(step.cost, lang), se=se, samples=step.samples)
        elif step.cost > 0:
            said = t.plural(*REVIEW_EVEN, step.samples, cost=_decimal(step.cost, lang), se=se, samples=step.samples)
        else:
            said = t.plural(*REVIEW_NO_COST, step.samples, gain=_decimal(-step.cost, lang), se=se, samples=step.samples)
        lines.append(f'<p class="dht-review__cost">{esc(said)}</p>')
        if step.mistake and step.grade is not None:
            # why the expert's move is better: a fact of the position, and how the two played out
            because = cards_in_words(" ".join(why(profile, view, step.grade, step.yours, lang)), lang)
            lines.append(f'<p class="dht-review__why">{esc(because)}</p>')
    else:
        lines.append(f'<p class="dht-review__expert">{esc(t(REVIEW_SAME))}</p>')
    hand = sorted(deal.hands[seat], key=C.sort_key)
    up = _face_up(deal)
    cards = (f'<div class="dht-review__cards"><div class="dht-review__hand"><span class="dht-review__label">'
             f'{esc(t(REVIEW_HAND))}</span><span class="dht-review__faces">{cards_spans(hand, lang)}</span></div>')
    if up:
        cards += (f'<div class="dht-review__up"><span class="dht-review__label">{esc(t(REVIEW_FACE_UP))}</span>'
                  f'<span class="dht-review__faces">{cards_spans(up, lang)}</span></div>')
    cards += "</div>"
    label = _label(step, t)
    state = json.dumps(step.state(), ensure_ascii=False, separators=(",", ":"))
    nav = "".join([
        button(t(REVIEW_PREVIOUS), cls="dht-review__go", enabled=step.number > 1,
               extra={"data-review-go": "-1"}),
        button(t(REVIEW_NEXT), cls="dht-review__go", enabled=step.number < total,
               extra={"data-review-go": "1"}),
        button(t(REVIEW_PLAY), cls="dht-review__play",
               extra={"data-review-play": "", "data-state-json": state, "data-difficulty": difficulty}),
    ])
    attrs = {
        "class": "dht-review__panel" + (" dht-review__panel--differs" if step.mistake else ""),
        "id": f"{table_id}-review-{step.number}",
        "role": "group",
        "aria-label": label,
        "data-review-panel": str(step.number),
    }
    return (f"<div{attributes(attrs)}><h4 class=\"dht-review__step-title\">{esc(label)}</h4>{cards}"
            f"{''.join(lines)}<div class=\"dht-review__nav\">{nav}</div></div>")


def render_review(steps: Sequence[ReviewStep], deal_number: int, t: Translator, lang: str, table_id: str,
                  difficulty: str) -> str:
    """The review of a deal (see the module docstring)."""
    title_id = f"{table_id}-review-title"
    head = (f'<h3 class="dht-review__title" id="{esc(title_id)}" tabindex="-1">'
            f'{esc(t(REVIEW_TITLE, number=deal_number))}</h3>'
            f'<p class="dht-review__summary">{esc(summary_text(steps, t))}</p>')
    if not steps:
        return f'<section class="dht-review" aria-labelledby="{esc(title_id)}">{head}</section>'
    chips = []
    for s in steps:
        label = _label(s, t)
        chips.append("<li>" + button(
            "", cls="dht-review__chip" + (" dht-review__chip--differs" if s.mistake else ""),
            extra={"data-review-step": str(s.number), "aria-label": label, "title": label,
                   "aria-controls": f"{table_id}-review-{s.number}"},
            inner=(f'<span aria-hidden="true">{esc(number(s.number, lang))}'
                   f'<span class="dht-review__mark">{_mark(s)}'
                   f"</span></span>"),
        ) + "</li>")
    strip = (f'<ol class="dht-review__steps" aria-label="{esc(t(REVIEW_STEPS))}">{"".join(chips)}</ol>')
    panels = "".join(_step(s, len(steps), t, lang, table_id, difficulty) for s in steps)
    return (f'<section class="dht-review" aria-labelledby="{esc(title_id)}" data-review-deal="{deal_number}">'
            f"{head}{strip}<div class=\"dht-review__panels\">{panels}</div></section>")
