"""What the table renderer draws: :class:`TableModel`, made by :class:`dhumbal.table.session.Session`.

Fair play by type: the model holds the deal as the reader's seat sees it
(while it is in play a stand-in with no hidden card,
:meth:`dhumbal.table.session.Session.seen_deal`) and the match's public
facts (:class:`dhumbal.matches.match.Scoreboard`), never the match itself,
so no renderer can reach the real deal's hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import cards as C
from ..core.profiles import Profile
from ..matches.match import Scoreboard
from ..play.action import Action
from ..play.deal import Deal


@dataclass
class TableModel:
    """Everything the renderer draws; made by :class:`dhumbal.table.session.Session`."""

    lang: str
    table_id: str
    profile: Profile
    difficulty: str
    names: list[str]  # by match seat
    me: int  # the reader's match seat
    #: the match's public facts (None: no match, as for the rules form alone)
    scoreboard: Scoreboard | None
    #: the deal as the reader's seat sees it: while it is in play a stand-in that holds no hidden card
    deal: Deal | None = None
    log: list[str] = field(default_factory=list)
    sort: bool = False
    live: bool = False
    deal_number: int = 0
    match_over: bool = False
    position: bool = False
    practice: bool = False  # a practice deal apart from the reader's match (a review's "Play from here")
    new_card: C.Card | None = None  # the card the reader took last, marked until the turn ends
    face_down: bool = False  # a preview of a deal the reader will not get: the cards stay face down
    hint_on: bool = False  # the Hint's line is showing in the status line (see dhumbal.view.hint)
    #: the Hint's move while it shows (worked out from the reader's view): its cards, the stock
    #: or the pile, or Call, marked on the table
    hint_action: Action | None = None
    #: the Hint showing has reasons behind its line: the dock offers "Why?" (the answer carries them)
    hint_why: bool = False

    @classmethod
    def for_settings(cls, lang: str, table_id: str, profile: Profile, difficulty: str) -> TableModel:
        return cls(lang=lang, table_id=table_id, profile=profile, difficulty=difficulty,
                   names=[], me=0, scoreboard=None, live=True)

    def deal_names(self) -> list[str]:
        assert self.scoreboard is not None
        return [self.names[m] for m in self.scoreboard.seating]

    def my_seat(self) -> int | None:
        if self.scoreboard is None or self.me not in self.scoreboard.seating:
            return None
        return self.scoreboard.seating.index(self.me)
