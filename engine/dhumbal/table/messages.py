"""The page-worker protocol, as types: every request the page sends and every answer it gets.

The page sends one JSON object with an ``op`` (:data:`Request`) and gets one
JSON object back: the op's answer (:data:`RESPONSES` maps each op to its
type) or, for any op, an :class:`ErrorResponse` (``ok`` false). Every key is
snake_case. The types name JSON only (text, whole and decimal numbers,
true/false, null, lists, objects), so the front end's TypeScript types are
generated from this module; nothing else defines the protocol.

These are the shapes the engine writes and the page should send. A request
is still read field by field and bounded (:mod:`dhumbal.table.protocol`):
the page is not trusted to keep to them, and a field of the wrong type gets
an error, never a crash. Every field but ``op`` may be left out, unless its
type says otherwise; ``table`` (the table element's id) defaults to
``"dh-table"`` and ``lang`` to the table's language, else English.

Fair play: while a deal is in play nothing here tells the page a card its
seat cannot see, except the save token (``hash`` and ``summary.seed``),
which the page keeps as opaque data (see :mod:`dhumbal.table.web`).
"""

# Without ``from __future__ import annotations``: the types are read at run time
# (which keys are required, for the TypeScript generator and the tests).
from typing import Final, Literal, NotRequired, TypedDict

#: The version of this protocol (:class:`PongResponse`); raised when an answer changes shape.
PROTOCOL: Final = 2

Difficulty = Literal["easy", "medium", "hard", "expert"]
Phase = Literal["start", "throw", "take", "over"]
#: A house rule's value as the settings form sends it (``"on"``, ``"7"``, ``"0,05"``) or as data.
OptionValue = str | int | bool | None


# -- what the requests carry -------------------------------------------------------------


class OutcomeData(TypedDict):
    """How a deal ended, every list by deal seat (:meth:`dhumbal.play.scoring.Outcome.to_json`)."""

    reason: Literal["call", "cap"]
    caller: int | None
    caught: bool
    winner: int | None
    hands: list[int]
    took: list[int]
    paid: list[int]
    points: list[int]
    penalty: int


class PositionState(TypedDict):
    """A deal's whole state (:func:`dhumbal.play.records.state_to_json`): cards as text (``"A♠"``)."""

    format: int
    profile: str
    seed: int | str
    dealer: int
    turn: int
    phase: Phase
    hands: list[list[str]]
    stock: list[str]
    pile: list[str]
    #: How many cards at the top of the pile are the previous throw.
    offer: int
    offer_kind: Literal["single", "set", "run"]
    pending: list[str]
    turns: int
    reshuffles: int
    took_from_pile: str | None
    known: list[list[str]]
    #: ``[seat, action text]`` of every action so far.
    history: list[list[int | str]]
    outcome: OutcomeData | None


class NamedPosition(TypedDict):
    """A worked example's position: the state and its seats' names."""

    state: PositionState
    names: NotRequired[list[str] | None]


class SheetDeal(TypedDict):
    """One deal of a score sheet as typed: the caller (a match seat, null: nobody) and each hand total (null: out)."""

    c: int | None
    h: list[int | None]


class SheetMove(TypedDict):
    """A player joining (``j``) or leaving the table before deal ``d`` (from 1): match seat ``s``."""

    d: int
    s: int
    j: bool


class Sheet(TypedDict):
    """A score sheet as the page keeps it (:meth:`dhumbal.matches.scoresheet.Sheet.to_json`)."""

    v: int
    profile: str
    names: list[str]
    dealer: int
    deals: list[SheetDeal]
    end: bool
    #: Players who joined or left between deals, in the order they did (left out when none).
    moves: NotRequired[list[SheetMove]]


class SheetSetup(TypedDict):
    """A new sheet's rules, from the score pad's set-up form."""

    profile: str
    options: NotRequired[dict[str, OptionValue]]


class SheetChange(TypedDict):
    """One change to a sheet: a deal added or changed (``c``, ``h``), removed, the match ended or reopened,
    its set-up corrected (``names``, ``dealer``), a player joining or leaving (``name``, ``seat``), or the
    last of those taken back (``unmove``)."""

    kind: Literal["add", "edit", "undo", "end", "reopen", "setup", "join", "leave", "unmove"]
    #: The deal changed or removed, from 1.
    index: NotRequired[int | None]
    c: NotRequired[int | None]
    h: NotRequired[list[int | None]]
    #: The set-up corrected mid-match (``setup``): every name, in seat order, and the first dealer.
    names: NotRequired[list[str]]
    dealer: NotRequired[int]
    #: A player joining before the next deal (``join``): their name, and the match seat they take
    #: (the players from there on move one seat up); a name of one who left brings them back.
    name: NotRequired[str]
    #: The seat a new player takes (``join``), or the match seat leaving (``leave``).
    seat: NotRequired[int]


class TableSettings(TypedDict):
    """What starts a match: the rules, their house rules, the seats, the bots and the deal number."""

    profile: NotRequired[str]
    options: NotRequired[dict[str, OptionValue]]
    players: NotRequired[int]
    difficulty: NotRequired[Difficulty]
    #: A deal number (a fresh one when left out), or a position's own seed.
    seed: NotRequired[int | str]


# -- the requests --------------------------------------------------------------------------


class PingRequest(TypedDict):
    """Is the engine there, and which version is it."""

    op: Literal["ping"]


class NewRequest(TableSettings):
    """A new match with these settings."""

    op: Literal["new"]
    table: NotRequired[str]
    lang: NotRequired[str]


class NewMatchRequest(TypedDict):
    """A new match with the table's settings and a fresh deal number."""

    op: Literal["new-match"]
    table: NotRequired[str]
    lang: NotRequired[str]


class PositionRequest(TypedDict):
    """A position to play from ("Play from here"): a state, as JSON text or data, or a worked example's."""

    op: Literal["position"]
    table: NotRequired[str]
    lang: NotRequired[str]
    state: str | PositionState | NamedPosition
    names: NotRequired[list[str] | None]
    #: A review's "Play from here": one deal apart from the reader's match.
    practice: NotRequired[bool]
    #: A puzzle's "Play from here": the cards the seat on turn cannot see dealt anew, afresh each time.
    redeal: NotRequired[bool]
    difficulty: NotRequired[Difficulty]


class RestoreRequest(TypedDict):
    """The game in a ``#table=`` link; ``fallback`` is dealt instead when the link cannot be restored."""

    op: Literal["restore"]
    table: NotRequired[str]
    lang: NotRequired[str]
    hash: str
    fallback: NotRequired[TableSettings]
    #: The reader's own game coming back (Back, Forward, another language): no notice.
    own: NotRequired[bool]


class SettingsRequest(TypedDict):
    """The rules form for a profile (nothing is dealt)."""

    op: Literal["settings"]
    table: NotRequired[str]
    lang: NotRequired[str]
    profile: NotRequired[str]
    options: NotRequired[dict[str, OptionValue]]
    difficulty: NotRequired[Difficulty]


class ScorepadRequest(TypedDict):
    """A score sheet settled, with one change when there is one."""

    op: Literal["scorepad"]
    lang: NotRequired[str]
    sheet: NotRequired[Sheet]
    #: A shared link's payload (after ``#pad=``), in place of ``sheet``: read and checked by the engine.
    link: NotRequired[str]
    #: The evening's earlier matches (played again with the same players), oldest first.
    evening: NotRequired[list[Sheet]]
    setup: NotRequired[SheetSetup | None]
    change: NotRequired[SheetChange | None]


class LangRequest(TypedDict):
    """The table's game told again in another language."""

    op: Literal["lang"]
    table: NotRequired[str]
    lang: str


class ActRequest(TypedDict):
    """The reader's action, as the engine writes it (``"take stock"``, ``"throw A♠ A♥"``, ``"call"``)."""

    op: Literal["act"]
    table: NotRequired[str]
    lang: NotRequired[str]
    action: str


class NextDealRequest(TypedDict):
    """The match's next deal."""

    op: Literal["next-deal"]
    table: NotRequired[str]
    lang: NotRequired[str]


class SortRequest(TypedDict):
    """The reader's hand sorted, or back in the order it was taken."""

    op: Literal["sort"]
    table: NotRequired[str]
    lang: NotRequired[str]


class HintRequest(TypedDict):
    """The Hint shown (or, pressed again on the same position, hidden)."""

    op: Literal["hint"]
    table: NotRequired[str]
    lang: NotRequired[str]


class ReviewRequest(TypedDict):
    """The review of the deal just over."""

    op: Literal["review"]
    table: NotRequired[str]
    lang: NotRequired[str]


class StateRequest(TypedDict):
    """The table as it stands."""

    op: Literal["state"]
    table: NotRequired[str]
    lang: NotRequired[str]


Request = (PingRequest | NewRequest | NewMatchRequest | PositionRequest | RestoreRequest | SettingsRequest
           | ScorepadRequest | LangRequest | ActRequest | NextDealRequest | SortRequest | HintRequest
           | ReviewRequest | StateRequest)


# -- the answers ---------------------------------------------------------------------------


class ErrorDetail(TypedDict):
    """A request refused: a stable code, and why in the reader's language."""

    code: str
    text: str


class ErrorResponse(TypedDict):
    """Any op's answer when it cannot be served; nothing changed."""

    ok: Literal[False]
    error: ErrorDetail
    lang: str


class PongResponse(TypedDict):
    """The engine's version and this protocol's."""

    ok: Literal[True]
    pong: Literal[True]
    version: str
    protocol: int


class Refusal(TypedDict):
    """The reader's action refused by the rules: its code and why."""

    code: str
    text: str


class Transcript(TypedDict):
    """A finished deal's record (:func:`dhumbal.play.records.transcript`): actions as ``"seat: action"``."""

    format: int
    profile: str
    seed: int | str
    dealer: int
    players: int
    actions: list[str]
    outcome: OutcomeData | None


class Summary(TypedDict):
    """How the table stands, as data for the page's script."""

    profile: str
    difficulty: Difficulty
    seed: int | str
    #: The deal's number in the match, from 1.
    deal: int
    phase: Phase | None
    turn: int | None
    #: The reader's deal seat (null: out of the match).
    seat: int | None
    your_turn: bool
    is_over: bool
    match_over: bool
    #: A practice deal: never the reader's saved game.
    practice: bool
    #: The record of a deal that is over (null while it is in play).
    transcript: Transcript | None


class PlaybackFrame(TypedDict):
    """One bot move: the deal seat that moved, what is said, the log lines, the felt after it."""

    seat: int
    say: str
    log: list[str]
    felt: str


class Playback(TypedDict):
    """The bots' moves of one answer, to be shown one at a time: the board before them, each move, what is said last."""

    html: str
    say: str
    frames: list[PlaybackFrame]
    end: str


class HintShown(TypedDict):
    """The Hint showing: the move and its plan in one short line (the status line says
    it), and the reasons and figures behind it, sentence by sentence, in the reader's
    language (the table's "Why?" shows them). Worked out from the reader's view alone."""

    line: str
    why: list[str]


class BoardResponse(TypedDict):
    """The table after an op: the board's HTML, what is said, and the link that saves the game."""

    ok: Literal[True]
    op: str
    table: str
    lang: str
    html: str
    #: Everything said by this answer, in order.
    status: str
    #: What the reader should do now.
    prompt: str
    events: list[str]
    notice: str | None
    refusal: Refusal | None
    #: The ``#table=`` link of the game (without ``#``).
    hash: str
    summary: Summary
    #: The Hint while it shows (None when it does not).
    hint: HintShown | None
    #: The bots' moves, when some are to be shown one at a time.
    playback: NotRequired[Playback]


class FreshBoardResponse(BoardResponse):
    """A new game on the table (or the table in another language): the board and the rules form."""

    settings_html: str


class RestoreResponse(FreshBoardResponse):
    """A link's game, or (``restored`` false) the fallback's fresh deal with a notice."""

    restored: bool


class ReviewResponse(BoardResponse):
    """The table and the review of its deal just over."""

    review_html: str


class SettingsResponse(TypedDict):
    """The rules form for a profile."""

    ok: Literal[True]
    op: Literal["settings"]
    table: str
    lang: str
    settings_html: str


class SheetParts(TypedDict):
    """A settled sheet's HTML in its places on the page (:func:`dhumbal.view.padview.render_parts`)."""

    head: str
    totals: str
    latest: str
    earlier: str
    end: str
    #: The running totals in large type, for the top of the screen while a deal is typed.
    strip: str
    #: The evening so far (matches played again with the same players), when the request has one.
    evening: str


class NextDeal(TypedDict):
    """The sheet's next deal: its number, its dealer, the match seats in it, and the turn cap (``nobody`` when there is one)."""

    number: int
    dealer: int
    active: list[int]
    nobody: bool
    cap: int | None


class SheetRefusal(TypedDict):
    """A change the engine refused: its code, why, and the deal (from 1) and match seat it is about."""

    code: str
    text: str
    deal: int | None
    seat: int | None


class ScorepadResponse(TypedDict):
    """A sheet settled: the sheet to keep, its HTML, the next deal, the CSV, and what is said."""

    ok: Literal[True]
    op: Literal["scorepad"]
    lang: str
    sheet: Sheet
    parts: SheetParts
    next: NextDeal | None
    deals: int
    over: bool
    #: Over because the rules say so (not ended by hand).
    over_by_rules: bool
    names: list[str]
    csv: str
    #: The sheet as a shared link's payload (after ``#pad=``), with its check value.
    link: str
    #: Each player's running total by match seat, and as each language of the site writes it
    #: (``shown``: digits, sign, grouping), kept with the sheet so a reload shows the totals
    #: before the engine has started, in whatever language the page is read.
    scores: list[int]
    shown: dict[str, list[str]]
    said: str
    refusal: SheetRefusal | None


Response = (ErrorResponse | PongResponse | BoardResponse | FreshBoardResponse | RestoreResponse | ReviewResponse
            | SettingsResponse | ScorepadResponse)

#: Each op's answer when it is served (any op may get an :class:`ErrorResponse` instead).
RESPONSES: Final[dict[str, type]] = {
    "ping": PongResponse,
    "new": FreshBoardResponse,
    "new-match": FreshBoardResponse,
    "position": FreshBoardResponse,
    "restore": RestoreResponse,
    "settings": SettingsResponse,
    "scorepad": ScorepadResponse,
    "lang": FreshBoardResponse,
    "act": BoardResponse,
    "next-deal": BoardResponse,
    "sort": BoardResponse,
    "hint": BoardResponse,
    "review": ReviewResponse,
    "state": FreshBoardResponse,
}
