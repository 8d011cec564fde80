"""The tables open on a page: one :class:`Table` per table element, with its game, its Hint and its review.

A page may carry several tables (a rules page's own and one docked beside a
worked example), each answered by the worker under its element's id. A
:class:`Table` holds everything the worker keeps for one of them: the game
(a :class:`dhumbal.table.session.Session`), the Hint showing, and the review
of the deal just over, so that a new game clears the other two in one place
(:meth:`Table.seat`).

The Hint is kept with the position it was worked out for: a second press on
that position hides it, and any move leaves the position and so hides it
too. The review is worked out once a deal (a few seconds of playouts on a
phone) and kept until the table's deal changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ..core.i18n import N_
from ..play.action import Action
from ..play.deal import Deal
from ..play.records import state_from_json
from ..view.hint import Hint, hint_move
from .protocol import ERROR_NO_SESSION, RequestError
from .session import Session

if TYPE_CHECKING:
    from ..trainer.review import ReviewStep

ERROR_NO_HINT: Final = N_("The hint is for your turn.")
ERROR_NO_REVIEW: Final = N_("The review is for a deal that is over.")


@dataclass(frozen=True)
class ShownHint:
    """The Hint (its line, its reasons, the move it suggests, marked on the table), and the
    position it was worked out for (see :func:`position_of`)."""

    where: str
    hint: Hint


@dataclass(frozen=True)
class DealReview:
    """A finished deal's review: which deal (see :func:`deal_key`), and its steps."""

    key: tuple[object, ...]
    steps: list[ReviewStep]


def position_of(session: Session) -> str:
    """Where the table stands: the deal's number and the actions so far (a move changes it)."""
    deal = session.deal
    return f"{len(session.moves)}/{0 if deal is None else len(deal.history)}"


def deal_key(session: Session, deal: Deal) -> tuple[object, ...]:
    """What names a finished deal of the table: its number, seed, dealer and every action."""
    return (len(session.moves), str(deal.seed), deal.dealer, tuple((s, a.text()) for s, a in deal.history))


def deal_start(session: Session) -> Deal:
    """The deal on the table as it was dealt (or laid out, for a position)."""
    deal = session.deal
    assert deal is not None
    if session.settings.start is not None and len(session.match.dealers) == 1:
        start = state_from_json(session.settings.start)
        start.profile = deal.profile
        return start
    return Deal.new(deal.profile, deal.seed, dealer=deal.dealer, players=deal.players)


@dataclass
class Table:
    """One table on the page: its game (none before the first request that deals), the Hint, the review."""

    id: str
    session: Session | None = None
    hint: ShownHint | None = None
    review: DealReview | None = None

    def seat(self, session: Session) -> Session:
        """A new game at this table: no Hint showing, and no review of an earlier game's deal."""
        session.table_id = self.id
        self.session = session
        self.hint = None
        self.review = None
        return session

    def playing(self) -> Session:
        """The table's game, for an op that needs one (``no-session`` before the first deal)."""
        if self.session is None:
            raise RequestError("no-session", ERROR_NO_SESSION)
        return self.session

    def watched(self) -> Session:
        """The table's game, set to keep a playback of the bots' moves for this answer."""
        session = self.playing()
        session.table_id = self.id
        session.watching = True
        return session

    # -- the Hint --------------------------------------------------------------------------

    def shown_hint(self) -> Hint | None:
        """The Hint while it shows for the position on the table, else None."""
        if self.hint is None or self.session is None:
            return None
        if self.hint.where != position_of(self.session):
            self.hint = None
            return None
        return self.hint.hint

    def shown_hint_action(self) -> Action | None:
        """The Hint's move while the Hint shows (see :meth:`shown_hint`), else None."""
        hint = self.shown_hint()
        return hint.action if hint is not None else None

    def toggle_hint(self, lang: str) -> bool:
        """Show the Hint (True) or, pressed again on the same position, hide it (False).

        Worked out from the reader's view alone (:func:`dhumbal.view.hint.hint_words`): the
        cards it cannot see are dealt anew from a source seeded by that view, so the words are
        the same every time, on every runtime, whatever the hidden cards are.
        """
        session = self.playing()
        view = session.seat_view()
        if view is None or not session.is_my_turn():
            raise RequestError("no-hint", ERROR_NO_HINT)
        if self.shown_hint() is not None:
            self.hint = None
            return False
        deal = session.deal
        assert deal is not None
        self.hint = ShownHint(position_of(session), hint_move(deal.profile, view, lang))
        return True

    # -- the review ------------------------------------------------------------------------

    def reviewed(self) -> list[ReviewStep]:
        """The reader's moves of the deal just over, each beside the expert's choice and its cost
        (the trainer is imported on the first review: the worker starts without it)."""
        from ..trainer.review import ReviewError, review_deal

        session = self.playing()
        deal = session.deal
        seat = session.my_deal_seat()
        if deal is None or seat is None or not deal.is_over:
            raise RequestError("no-review", ERROR_NO_REVIEW)
        key = deal_key(session, deal)
        if self.review is None or self.review.key != key:
            try:
                steps = review_deal(deal_start(session), deal.history, seat)
            except ReviewError:
                raise RequestError("no-review", ERROR_NO_REVIEW) from None
            self.review = DealReview(key, steps)
        return self.review.steps
