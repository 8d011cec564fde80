"""What the table renderer draws: :class:`TableModel`, made by :class:`dhumbal.table.session.Session`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import cards as C
from ..play.action import Action
from ..play.deal import Deal
from ..matches.match import Match
from ..core.profiles import Profile


@dataclass
class TableModel:
    """Everything the renderer draws; made by :class:`dhumbal.table.session.Session`."""

    lang: str
    table_id: str
    profile: Profile
    difficulty: str
    names: list[str]  # by match seat
    me: int  # the reader's match seat
    match: Match | None
    #: the deal as the reader's seat sees it (:meth:`dhumbal.table.session.Session.seen_deal`): while it
    #: is in play a stand-in that holds no hidden card; drawn in place of ``match.deal``
    seen: Deal | None = None
    log: list[str] = field(default_factory=list)
    sort: bool = False
    live: bool = False
    deal_number: int = 0
    match_over: bool = False
    position: bool = False
    practice: bool = False  # a practice deal apart from the reader's match (a review's "Play from here")
    new_card: C.Card | None = None  # the card the reader took last, marked until the turn ends
    face_down: bool = False  # a preview of a deal the reader will not get: the cards stay face down
    hint_on: bool = False  # the reader's call odds are showing in the status line (see hint_text)
    #: the Hint's move while it shows (worked out from the reader's view): its cards, the stock
    #: or the pile, or Call, marked on the table
    hint_action: Action | None = None

    @classmethod
    def for_settings(cls, lang: str, table_id: str, profile: Profile, difficulty: str) -> "TableModel":
        return cls(lang=lang, table_id=table_id, profile=profile, difficulty=difficulty,
                   names=[], me=0, match=None, live=True)

    @property
    def deal(self) -> Deal | None:
        if self.seen is not None:
            return self.seen
        return None if self.match is None else self.match.deal

    def deal_names(self) -> list[str]:
        assert self.match is not None
        return [self.names[m] for m in self.match.seating]

    def my_seat(self) -> int | None:
        if self.match is None or self.me not in self.match.seating:
            return None
        return self.match.seating.index(self.me)
