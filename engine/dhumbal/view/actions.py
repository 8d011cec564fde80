"""The dock's controls: Call, Hint, Throw; at a deal's end Details, Review and Next deal (or, after a
practice deal, Back to your match).

Through the reader's turn the controls keep their places: Call reads
"Call on N" exactly when the engine allows the call, and where it does not
(or once a card is taken) its place stays, empty, so Throw never moves;
Hint is there for the whole turn (after a take it says what to throw). The line above the hand
says the limit the call waits for, so a hand over it needs no other word;
a call refused for another reason (nobody may call before every player has
played once) gets the engine's reason under the controls, and so does any
refusal while the reader's hint is showing (the hint's figure reads "if you
could call").

The notes under the controls (why a call or a throw is refused, which
marked card lands on top, why a card taken from the pile is barred) share
one area whose height is kept (the style sheet's), so the hand above the
dock does not move when a note comes or goes.

The Throw button carries the engine's verdict on every set of marked cards
(:func:`throw_verdicts`), so the table script can say whether the marked
cards may be thrown, and why not, without deciding anything itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

from ..core import cards as C
from ..core.i18n import N_, Translator, card_words, cards_in_words, translator
from ..core.messages import TEMPLATES
from ..play.action import Action
from ..play.deal import Deal
from .markup import button, esc, ordered
from .matchend import PLAY_AGAIN
from .model import TableModel
from .review import review_button

# TRANSLATORS: the Call button; the first-run guide names it ("press Call"),
# so its first words are the ones the guide uses.
CALL_ON: Final = N_("Call on {total}")
HINT: Final = N_("Hint")
# TRANSLATORS: beside the Hint's line above the controls: shows the reasons and the odds behind it.
WHY: Final = N_("Why?")
THROW_NONE: Final = N_("Throw")
THROW_VALUE: Final = N_("Throw, worth {value}")
LAST_ON_TOP: Final = N_("The last card you mark goes on top of the pile.")
NEXT_DEAL: Final = N_("Next deal")
NEW_MATCH: Final = N_("New match")
# TRANSLATORS: at a deal's end, opens every score row of the deal and what each means.
DETAILS: Final = N_("Details")
# At the end of a practice deal (a review's "Play from here"): back to the
# reader's match, at the review they left (the table script does it; it hides
# the button when no match is known, as for a practice deal from a link).
BACK_TO_MATCH: Final = N_("Back to your match")
SKIP: Final = N_("Show all moves now")
#: Marked-card verdicts are sent for hands up to this size (2^n - 1 sets of cards).
MAX_VERDICT_CARDS: Final = 10
_VERDICT_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"


def throw_verdicts(deal: Deal, seat: int, hand: Sequence[C.Card], lang: str,
                   names: Sequence[str] | None) -> tuple[str, list[str]] | None:
    """The engine's verdict on throwing each set of cards of ``hand`` now.

    Returns ``(verdicts, reasons)``: ``verdicts[mask - 1]`` is a digit for
    the cards ``hand[i]`` with bit ``i`` of ``mask`` set, ``0`` when the
    throw is legal, else the index of its refusal in ``reasons`` (``reasons[0]``
    is empty). A refusal that names the marked cards themselves carries a
    ``{cards}`` placeholder, filled by the table script with the marked
    cards. So the Throw control can say, before it is pressed, whether the
    marked cards may be thrown and why not, without deciding anything
    itself. ``None`` for a hand too large to list every set.
    """
    n = len(hand)
    if n == 0 or n > MAX_VERDICT_CARDS:
        return None
    reasons = [""]
    index: dict[str, int] = {}
    out = []
    for mask in range(1, 1 << n):
        chosen = [hand[i] for i in range(n) if mask >> i & 1]
        refusal = deal.refusal(Action.throw(*chosen), seat=seat)
        if refusal is None:
            out.append("0")
            continue
        if refusal.code == "not-a-run":
            text = translator(lang)(_not_a_run_msgid(), cards="{cards}")
        else:
            text = cards_in_words(refusal.text(lang, names), lang)
        k = index.get(text)
        if k is None:
            k = index[text] = len(reasons)
            reasons.append(text)
        out.append(_VERDICT_DIGITS[k] if k < len(_VERDICT_DIGITS) else "z")
    return "".join(out), reasons


def _not_a_run_msgid() -> str:
    template = TEMPLATES["not-a-run"]
    assert isinstance(template, str)
    return template


def _place(label: str, cls: str) -> str:
    """A control's place kept empty: the width of its words, invisible, not a control."""
    return f'<span class="dht-btn dht-place {cls}" aria-hidden="true">{esc(label)}</span>'


def render_why(model: TableModel, t: Translator) -> str:
    """While the Hint shows with reasons behind its line: "Why?" beside the line, and the
    box it opens (empty: the table script fills it with the answer's reasons, which the
    engine worked out from the reader's view alone, and opens and closes it)."""
    if not model.hint_why:
        return ""
    tid = esc(model.table_id)
    return (f'<button type="button" class="dht-btn dht-why-btn" data-dht-why data-key="why" aria-expanded="false"'
            f' aria-controls="{tid}-whybox">{esc(t(WHY))}</button>'
            f'<div class="dht-whybox" id="{tid}-whybox" hidden></div>')


def render_actions(model: TableModel, deal: Deal, t: Translator, my_turn: bool, *, note: str = "") -> str:
    """The dock's controls and the notes under them (``note``: the hand's own, see
    :func:`dhumbal.view.hand.barred_note`)."""
    p = deal.profile
    tid = model.table_id
    buttons = []
    notes = []
    me = model.my_seat()
    if my_turn and me is not None:
        names = model.deal_names()
        call_text = t(CALL_ON, total=deal.total(me))
        if deal.phase == "start":
            refusal = deal.refusal(Action.call(), seat=me)
            if refusal is None:
                hinted = model.hint_action is not None and model.hint_action.kind == "call"
                buttons.append(button(call_text, action="call", live=model.live, cls="dht-call" + (" dht-hinted" if hinted else ""),
                                      extra={"data-key": "call"}))
            else:
                buttons.append(_place(call_text, "dht-call"))
                if refusal.code != "over-call-limit" or model.hint_on:
                    notes.append(f'<p class="dht-why dht-why--call" id="{esc(tid)}-why-call">'
                                 f'{esc(cards_in_words(refusal.text(model.lang, names), model.lang))}</p>')
        else:
            buttons.append(_place(call_text, "dht-call"))
        # the expert's move (and at the start of the turn the call odds), on demand: off until pressed
        buttons.append(button(t(HINT), op="hint", live=model.live, cls="dht-hint-btn",
                              extra={"aria-pressed": "true" if model.hint_on else "false", "data-key": "hint"}))
        throw_phase = deal.phase == ("throw" if p.draw_first else "start")
        if deal.phase in ("start", "throw"):
            hand = ordered(deal.hands[me], model.sort, p)
            verdicts = throw_verdicts(deal, me, hand, model.lang, names)
            extra = {"data-key": "throw", "data-label-none": t(THROW_NONE),
                     "data-label-value": t.raw(THROW_VALUE), "aria-describedby": f"{tid}-why-throw"}
            if verdicts is not None:
                extra["data-cards"] = " ".join(C.card_text(c, ascii=True) for c in hand)
                # the marked cards as a refusal names them ({cards}), in the page's language
                extra["data-words"] = json.dumps([card_words(c, model.lang) for c in hand], ensure_ascii=False)
                extra["data-verdicts"] = verdicts[0]
                extra["data-reasons"] = json.dumps(verdicts[1], ensure_ascii=False)
            buttons.append(button(t(THROW_NONE), action="throw", enabled=False, live=model.live,
                                   cls="dht-throw dht-btn--primary" + ("" if throw_phase else " dht-throw--later"),
                                   extra=extra))
            notes.insert(0, f'<p class="dht-why dht-why--throw" id="{esc(tid)}-why-throw" hidden></p>')
            if p.draw_first:
                notes.append(f'<p class="dht-hint" hidden>{esc(t(LAST_ON_TOP))}</p>')
    if deal.is_over:
        # the details of the scores (a panel of the summary) and the review, beside what comes next
        buttons.append(f'<button type="button" class="dht-btn dht-details-btn" data-dht-details data-key="details" '
                       f'aria-expanded="false" aria-controls="{esc(tid)}-details">{esc(t(DETAILS))}</button>')
        if model.live and me is not None:
            buttons.append(review_button(t))
        if model.practice:
            buttons.append(button(t(BACK_TO_MATCH), live=model.live, cls="dht-btn--primary dht-to-match",
                                   extra={"data-dht-match": "", "data-key": "match"}))
            buttons.append(button(t(NEW_MATCH), op="new-match", live=model.live, extra={"data-key": "new-match"}))
        elif model.match_over:
            # (the same settings, a fresh match: the settings start one with others)
            buttons.append(button(t(PLAY_AGAIN), op="new-match", live=model.live, cls="dht-btn--primary",
                                   extra={"data-key": "new-match"}))
        else:
            buttons.append(button(t(NEXT_DEAL), op="next-deal", live=model.live, cls="dht-btn--primary",
                                   extra={"data-key": "next-deal"}))
    if note:
        notes.append(note)
    if model.face_down:
        buttons = []
        notes = []
    skip = f'<button type="button" class="dht-btn dht-skip" data-dht-skip>{esc(t(SKIP))}</button>'
    return (f'<div class="dht-actions">{"".join(buttons)}{skip}</div>'
            f'<div class="dht-notes-area">{"".join(notes)}</div>')
