"""One table's game: a match, the reader's seat, the bots, and what happened, in words.

A session is one table on one page: a match under one profile, the reader in
one seat against bots. Bots move right after the reader until it is the
reader's turn again. Every action of every deal, the bots' and the reader's,
is kept as link symbols (:func:`dhumbal.play.share.action_code`): the game's
link is written and read back by :mod:`dhumbal.table.links`, which applies
each action once through the engine's checks (:meth:`Session.replay_action`)
without asking a bot to decide anything. Replaying a first-version link asks
the bots again; that work is counted against ``bot_budget`` (an expert
decision weighing :data:`EXPERT_WEIGHT`) and :class:`LinkTooCostly` ends it.

A practice deal (``Settings.practice``: a review's "Play from here") is a
match of that one deal, over when the deal is; its link says so.

While a request is answered for the reader (``watching``), the bots' moves
are also kept one by one as a :class:`Playback`: what the table looked like
before the first of them and, after each, with that move on the acting seat,
as :class:`dhumbal.view.model.TableModel` values that :mod:`dhumbal.table.web`
draws, so the page can show them one at a time. The engine has already
played them; the page only shows the pictures in order. A session draws
nothing itself: :meth:`Session.model` is what the renderer may see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ..bots.botlevels import choose
from ..bots.sampler import stand_in
from ..core import cards as C
from ..core.i18n import N_, cards_in_words, translator
from ..core.messages import Message
from ..matches.match import Match
from ..play.action import Action
from ..play.deal import Deal, IllegalAction, SeatView
from ..play.records import state_from_json
from ..play.share import (
    action_code,
    encode_move,
)
from ..view.model import TableModel
from .protocol import (
    ERROR_DEAL_NOT_OVER,
    ERROR_MATCH_OVER,
    RequestError,
    Settings,
)

MAX_MOVES: Final = 1_000  # reader moves in one deal
MAX_DEALS: Final = 60
#: What one bot decision costs of ``bot_budget``: 1 at the easy, medium and hard
#: levels; an expert decision (a search over sampled deals, a hundred times a
#: medium one's work) this much.
EXPERT_WEIGHT: Final = 25
LOG_SIZE: Final = 600  # log lines shown (a deal's events; a capped deal has about 400)

YOU: Final = N_("You")
BOT: Final = N_("Bot {number}")
YOU_NAMED: Final = N_("{name} (you)")

PROMPT_TAKE_OR_CALL: Final = N_("Your turn: call, or take a card from the stock or the pile.")
PROMPT_TAKE: Final = N_("Your turn: take a card from the stock or the pile.")
PROMPT_THROW_AFTER_TAKE: Final = N_("Now throw: mark one card, or several of one rank, and press Throw.")
PROMPT_THROW_AFTER_TAKE_RUNS: Final = N_("Now throw: mark one card, several of one rank, or a run, and press Throw.")
PROMPT_THROW_OR_CALL: Final = N_("Your turn: call, or mark the cards to throw and press Throw.")
PROMPT_THROW: Final = N_("Your turn: mark the cards to throw and press Throw.")
PROMPT_PICK: Final = N_("Now take one card: from the stock, or one of the previous throw.")
PROMPT_PICK_STOCK: Final = N_("Now take one card from the stock.")
PROMPT_DEAL_OVER: Final = N_("The deal is over: every hand is shown, with the scores.")
PROMPT_MATCH_OVER: Final = N_("The match is over. The final standings are below.")
PROMPT_PRACTICE_OVER: Final = N_("The practice deal is over: every hand is shown, with the scores. It does not count in your match.")
PROMPT_OUT: Final = N_("You are out of this match; the bots play on. Press Next deal to watch the next deal.")
#: The engine's events that tell how a deal ended: who called, on what, and
#: whether the call won or was caught (or that nobody called): the status
#: line says them again once the deal is over.
OUTCOME_CODES: Final = frozenset({"call", "call-won", "caught", "turn-cap", "deal-winner", "no-deal-winner"})


@dataclass(frozen=True)
class Frame:
    """One bot move as the page shows it: the acting deal seat, what it did (in words and as
    the events the reader may be told), and the table after it."""

    seat: int
    texts: list[str]
    events: list[Message]
    table: TableModel


@dataclass
class Playback:
    """The bots' moves of one answer, to be shown one at a time.

    ``board`` is the table before the first of them (after the reader's own
    move, or the deal), ``lead`` what was said up to then, and ``frames``
    each move; the answer's final board follows the last.
    """

    board: TableModel
    lead: list[str]
    frames: list[Frame] = field(default_factory=list)


class LinkTooCostly(ValueError):
    """A first-version link whose replay would make more bot decisions than its budget allows."""


@dataclass
class Session:
    """One table: a match, the reader's seat, the bots' level, and what has happened."""

    settings: Settings
    lang: str = "en"
    match: Match = field(init=False)
    me: int = 0  # the reader's match seat
    names: list[str] = field(default_factory=list)  # by match seat
    moves: list[list[str]] = field(default_factory=list)  # the reader's moves, per deal
    log: list[str] = field(default_factory=list)  # this deal's events, in the session's language
    messages: list[tuple[Message, bool]] = field(default_factory=list)  # (message, by match seat)
    sort: bool = False
    table_id: str = "dh-table"
    watching: bool = False  # keep a Playback of the bots' moves (answers to the reader, not replays)
    playback: Playback | None = None
    new_card: C.Card | None = None  # the card the reader took last, until their next move
    actions: list[str] = field(default_factory=list)  # every action of each deal, as link symbols
    #: Bot decisions a replay may still make (None: no bound); see BOT_BUDGET.
    bot_budget: int | None = None

    def __post_init__(self) -> None:
        s = self.settings
        if s.start is not None:
            deal = state_from_json(s.start)
            deal.profile = s.profile
            self.match = Match.from_position(deal, s.seed)
            self.me = deal.turn
            self.moves = [[]]
            self.actions = [""]
        else:
            self.match = Match(s.profile, seed=s.seed)
            self.me = 0
        self.names = self._default_names()

    def _default_names(self) -> list[str]:
        n = self.match.players
        t = translator(self.lang)
        given = self.settings.names
        if given is not None and len(given) == n:
            return [t(YOU_NAMED, name=given[i]) if i == self.me else given[i] for i in range(n)]
        names = []
        bot = 0
        for i in range(n):
            if i == self.me:
                names.append(t(YOU))
            else:
                bot += 1
                names.append(t(BOT, number=bot))
        return names

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        self.names = self._default_names()
        self.log = [self._message_text(m, by_match) for m, by_match in self.messages]

    # -- the state ------------------------------------------------------------------

    @property
    def deal(self) -> Deal | None:
        return self.match.deal

    def deal_names(self) -> list[str]:
        return [self.names[m] for m in self.match.seating]

    def my_deal_seat(self) -> int | None:
        if self.me in self.match.seating:
            return self.match.seating.index(self.me)
        return None

    def is_my_turn(self) -> bool:
        d = self.deal
        return d is not None and not d.is_over and d.turn == self.my_deal_seat()

    def seat_view(self) -> SeatView | None:
        """What the reader's seat may know of the deal in play (``None`` with no deal in play or
        no seat in it): the only input of what advises or informs the reader mid-deal."""
        d = self.deal
        me = self.my_deal_seat()
        if d is None or d.is_over or me is None:
            return None
        return d.public_view(me)

    def seen_deal(self) -> Deal | None:
        """The deal as the reader's seat sees it: while it is in play, a stand-in built from the
        seat's view alone (:func:`dhumbal.bots.sampler.stand_in`: the hidden places hold the unseen
        cards in pack order), so the table drawn from it cannot show a hidden card; once it is
        over (every hand shown), or for a reader out of the match, the deal itself."""
        d = self.deal
        view = self.seat_view()
        return d if d is None or view is None else stand_in(d.profile, view)

    # -- events ---------------------------------------------------------------------

    def _message_text(self, m: Message, by_match_seat: bool) -> str:
        """An event told to the reader: in the second person wherever it names their seat."""
        if by_match_seat:
            return cards_in_words(m.text(self.lang, self.names, self.me), self.lang)
        return cards_in_words(m.text(self.lang, self.deal_names(), self.my_deal_seat()), self.lang)

    def _told(self, events: Sequence[Message]) -> list[Message]:
        """``events`` as the reader may be told them: another seat's draw from the stock without its card."""
        me = self.my_deal_seat()
        return [Message(m.code, {"seat": m.params["seat"]}) if m.code == "took-stock" and m.params.get("seat") != me
                else m for m in events]

    def _record(self, events: Sequence[Message], *, by_match_seat: bool = False, render: bool = True) -> list[str]:
        """Keep ``events`` for the log, as the reader may be told them (:meth:`_told`); in words
        now, or (``render=False``, while a link is restored) later, by :meth:`set_lang`, for the
        deal on the table only."""
        texts = []
        for m in events if by_match_seat else self._told(events):
            self.messages.append((m, by_match_seat))
            if render:
                text = self._message_text(m, by_match_seat)
                self.log.append(text)
                texts.append(text)
        return texts

    # -- playing --------------------------------------------------------------------

    def start(self, *, bots: bool = True) -> list[str]:
        """Deal the first deal (or lay out the position) and let bots play up to the reader
        (``bots=False`` while a link is restored: its actions hold the bots' moves)."""
        if self.settings.start is None:
            return self._start_deal(bots=bots)
        return self._bots() if bots else []

    def _start_deal(self, *, bots: bool = True) -> list[str]:
        deal = self.match.start_deal()
        self.moves.append([])
        self.actions.append("")
        self.messages = []
        self.log = []
        self.new_card = None
        exposed = deal.pile_top
        texts = self._record([Message("dealt", {
            "dealer": deal.dealer, "hand_size": deal.profile.hand_size,
            "exposed": "" if exposed is None else C.card_text(exposed),
        })], render=bots)
        return texts + self._bots(texts) if bots else texts

    def _apply(self, deal: Deal, action: Action, seat: int | None = None) -> list[Message]:
        """Apply ``action`` through the engine's checks and keep its link symbols;
        ``IllegalAction`` (nothing kept, nothing changed) if the engine refuses it."""
        try:
            code: str | None = action_code(deal, action)
        except ValueError:
            code = None  # cards the seat does not hold: the engine says why just below
        events = deal.apply(action, seat=seat)
        if code is None:  # pragma: no cover - every legal action has a code (property-tested)
            raise RuntimeError(f"no link code for the legal action {action}")
        self.actions[-1] += code
        return events

    def _book(self, *, render: bool = True) -> list[str]:
        """Book the deal on the table into the match once it is over."""
        deal = self.deal
        if deal is not None and deal.is_over and len(self.match.deals) < len(self.match.dealers):
            return self._record(self.match.finish_deal(), by_match_seat=True, render=render)
        return []

    def _bots(self, lead: Sequence[str] = ()) -> list[str]:
        """Bot moves until it is the reader's turn or the deal is over (then it is booked).

        ``lead`` is what this answer said before (kept with the playback)."""
        deal = self.deal
        assert deal is not None
        texts: list[str] = []
        me = self.my_deal_seat()
        guard = 0
        self.playback = None
        if self.watching and not deal.is_over and deal.turn != me:
            self.playback = Playback(board=self._model(), lead=list(lead))
        while not deal.is_over and deal.turn != me:
            guard += 1
            if guard > 50_000:  # pragma: no cover - bots always finish (PROFILES ruling 5)
                raise RuntimeError("the bots did not finish the deal")
            if self.bot_budget is not None:
                self.bot_budget -= EXPERT_WEIGHT if self.settings.difficulty == "expert" else 1
                if self.bot_budget < 0:
                    raise LinkTooCostly("restoring this link would replay more bot decisions than a link may cost")
            seat = deal.turn
            events = self._apply(deal, choose(deal, self.settings.difficulty))
            said = self._record(events)
            texts += said
            if self.playback is not None:
                self.playback.frames.append(Frame(seat, said, self._told(events), self._model()))
        return texts + self._book()

    def _move(self, deal: Deal, seat: int, action: Action) -> list[Message]:
        """``action`` for ``seat`` (on turn), through the engine's checks and kept; when it is
        the reader's, also kept as their move, and a card it took marked as new."""
        mine = seat == self.my_deal_seat()
        if mine and len(self.moves[-1]) >= MAX_MOVES:
            raise IllegalAction("deal-over")
        before = list(deal.hands[seat]) if mine else []
        events = self._apply(deal, action, seat=seat)
        if mine:
            self.moves[-1].append(encode_move(action))
            taken = [c for c in deal.hands[seat] if c not in before]
            self.new_card = taken[0] if action.kind == "take" and taken else None
        return events

    def act(self, action: Action) -> list[str]:
        """The reader's action, then the bots'; ``IllegalAction`` if refused (nothing changes)."""
        deal = self.deal
        me = self.my_deal_seat()
        if deal is None or me is None:
            raise IllegalAction("deal-over")
        own = self._record(self._move(deal, me, action))
        return own + self._bots(own)

    def replay_action(self, action: Action) -> None:
        """One action of a restored link, for the seat on turn (the reader's or a bot's):
        checked and applied by the engine, kept, and booked when it ends the deal; no bot
        decides anything. ``IllegalAction`` if the engine refuses it."""
        deal = self.deal
        if deal is None or deal.is_over:
            raise IllegalAction("deal-over")
        self._record(self._move(deal, deal.turn, action), render=False)
        self._book(render=False)

    def next_deal(self, *, bots: bool = True) -> list[str]:
        deal = self.deal
        if deal is not None and not deal.is_over:
            raise RequestError("deal-not-over", ERROR_DEAL_NOT_OVER)
        if self.match.is_over() or len(self.moves) >= MAX_DEALS or self.settings.practice:
            raise RequestError("match-over", ERROR_MATCH_OVER)
        return self._start_deal(bots=bots)

    def match_over(self) -> bool:
        """Whether the table's match is over: its deals are played, or its one practice deal is."""
        return self.deal is not None and self.deal.is_over and (
            self.settings.practice or self.match.is_over() or len(self.moves) >= MAX_DEALS)

    def status(self) -> str:
        """What the reader should do now (or how things stand)."""
        t = translator(self.lang)
        deal = self.seen_deal()
        if deal is None:
            return ""
        if deal.is_over:
            ending = [self._message_text(m, by) for m, by in self.messages if m.code in OUTCOME_CODES]
            over = (t(PROMPT_PRACTICE_OVER) if self.settings.practice
                    else t(PROMPT_MATCH_OVER) if self.match_over() else t(PROMPT_DEAL_OVER))
            return " ".join(ending + [over])
        if self.my_deal_seat() is None:
            return t(PROMPT_OUT)
        p = deal.profile
        can_call = deal.phase == "start" and deal.is_legal(Action.call())
        if p.draw_first:
            if deal.phase == "start":
                return t(PROMPT_TAKE_OR_CALL) if can_call else t(PROMPT_TAKE)
            return t(PROMPT_THROW_AFTER_TAKE_RUNS) if p.runs else t(PROMPT_THROW_AFTER_TAKE)
        if deal.phase == "start":
            return t(PROMPT_THROW_OR_CALL) if can_call else t(PROMPT_THROW)
        picks = [a for a in deal.legal_actions() if a.kind == "take" and a.source == "pile"]
        return t(PROMPT_PICK) if picks else t(PROMPT_PICK_STOCK)

    def _model(self) -> TableModel:
        return self.model(live=True, table_id=self.table_id)

    def model(self, *, live: bool, table_id: str, face_down: bool = False) -> TableModel:
        return TableModel(
            lang=self.lang,
            table_id=table_id,
            profile=self.settings.profile,
            difficulty=self.settings.difficulty,
            names=list(self.names),
            me=self.me,
            scoreboard=self.match.scoreboard(),
            deal=self.seen_deal(),
            log=self.log[-LOG_SIZE:],
            sort=self.sort,
            live=live,
            deal_number=len(self.moves),
            match_over=self.match_over(),
            position=self.settings.start is not None,
            practice=self.settings.practice,
            new_card=self.new_card,
            face_down=face_down,
        )
