"""Fair play: nothing the reader's seat is told before a deal ends depends on a card it cannot see.

The test builds *twins*: a table in play, and a copy of it in which the cards
the reader's seat cannot see (the other hands' unseen cards and the stock)
are shuffled among their places, so that the seat's ``public_view`` is equal
and nothing else is. Every answer the worker sends the page for either twin
(``dhumbal.table.web.handle``, requests as the table sends them: the table's state
with its HTML, the Hint with the reasons and odds behind its "Why?", sorting the
hand, another language, refused actions, a review asked for mid-deal) must then
be the same, byte for byte, except the save token.

**The save token.** A saved or shared game must come back exactly, so the
answer's ``hash`` (the ``#table=`` link) holds the match's seed and every
action: it names every card, past and future, by design. So does
``summary.seed``, the same seed. The page keeps both as opaque data (the
address, a saved game) and never shows them as information; the test says
so precisely: between twins those two fields, and only those, may differ (a
twin gets its own seed, as no seed deals it), the original's token restores
its real deal exactly, and neither appears in any text or HTML the page
shows. ``summary.transcript``, a deal's record, is sent once the deal is
over.

Positions come from whole deals played by bots in every seat (the reader's
seat too, by a bot or at random), at any of the reader's turns from the
first to the last, at the start of the turn or after its first move (a take,
or in a throw-first profile the throw). ``DHUMBAL_FAIR_PLAY_EXAMPLES`` sets
the examples per profile (a few here; more for a soak).
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from dhumbal.bots import expert
from dhumbal.bots.botlevels import choose
from dhumbal.bots.sampler import after_view, stand_in
from dhumbal.core import cards as C
from dhumbal.core.messages import Message
from dhumbal.core.profiles import find_profile
from dhumbal.play.action import Action, parse_action
from dhumbal.play.deal import Deal
from dhumbal.play.records import state_to_json, transcript
from dhumbal.play.share import decode_hash
from dhumbal.table import web
from dhumbal.table.links import restore_session
from dhumbal.table.session import Session

PROFILES = ("nepali-games", "dashain", "cardrulesplus")
EXAMPLES = int(os.environ.get("DHUMBAL_FAIR_PLAY_EXAMPLES", "8"))
TABLE = "twin-table"
#: The answer's fields that carry the save token (see the module docstring).
TOKEN = ("hash", "summary.seed")


@pytest.fixture(autouse=True)
def no_tables() -> Iterator[None]:
    web.close_tables()
    yield
    web.close_tables()


def ask(**request: Any) -> dict[str, Any]:
    request.setdefault("table", TABLE)
    out = json.loads(web.handle(json.dumps(request)))
    assert isinstance(out, dict)
    return out


# -- twins ---------------------------------------------------------------------------------


def twin_of(session: Session, rng: random.Random) -> Session:
    """``session`` with the cards its reader cannot see shuffled among their places (see the
    module docstring); another seat's blind draw kept in the events is told of the card now
    in its place, and the match has a seed of its own."""
    twin = copy.deepcopy(session)
    deal = twin.deal
    seat = twin.my_deal_seat()
    assert deal is not None and seat is not None and not deal.is_over
    view = deal.public_view(seat)
    unseen = set(view.unseen)
    places = [(deal.hands[s], i) for s in range(deal.players) if s != seat
              for i, c in enumerate(deal.hands[s]) if c in unseen]
    places += [(deal.stock, i) for i in range(len(deal.stock))]
    before = [cards[i] for cards, i in places]
    after = before[:]
    rng.shuffle(after)
    for (cards, i), c in zip(places, after):
        cards[i] = c
    moved = dict(zip(before, after))
    assert deal.public_view(seat) == view and sorted(before) == sorted(view.unseen)

    def told(m: Message) -> Message:
        """An event as the twin's table kept it: another seat's blind draw was of the card now in its place."""
        card = m.params.get("card")
        if m.code != "took-stock" or m.params.get("seat") == seat or not isinstance(card, str):
            return m
        return Message(m.code, {**m.params, "card": C.card_text(moved.get(C.parse_card(card), C.parse_card(card)))})

    seed = f"twin/{rng.getrandbits(32)}"
    twin.settings = replace(twin.settings, seed=seed)
    twin.match.seed = seed
    deal.seed = f"{seed}/{len(twin.match.deals)}"
    twin.messages = [(told(m), by) for m, by in twin.messages]
    twin.set_lang(twin.lang)  # the log, told again from the events
    return twin


def flat(answer: Any, path: str = "") -> dict[str, Any]:
    """Every leaf of an answer by its dotted path."""
    if isinstance(answer, dict):
        out: dict[str, Any] = {}
        for k, v in answer.items():
            out.update(flat(v, f"{path}.{k}" if path else k))
        return out
    return {path: answer}


def shown(answer: dict[str, Any]) -> str:
    """All the text and HTML an answer gives the page to show."""
    return json.dumps({k: v for k, v in flat(answer).items() if k not in TOKEN}, ensure_ascii=False)


# -- positions --------------------------------------------------------------------------------


def positions(profile: str, seed: int, bots: str, reader: str, rng: random.Random) -> list[Session]:
    """The table at the start of each of the reader's turns in the first deal of a seeded match."""
    first = ask(op="new", profile=profile, seed=seed, difficulty=bots, lang="en")
    assert first["ok"], first
    session = web.table(TABLE).playing()
    out = []
    while session.is_my_turn():
        deal = session.deal
        assert deal is not None
        if deal.phase == "start":
            out.append(copy.deepcopy(session))
        move = rng.choice(deal.legal_actions()) if reader == "random" else choose(deal, "hard")
        assert ask(op="act", action=move.text())["refusal"] is None
    return out


def first_move(session: Session, reader: str, rng: random.Random) -> Action:
    """The reader's first move of the turn that is not a call: a take, or (throwing first) a throw."""
    deal = session.deal
    assert deal is not None
    moves = [a for a in deal.legal_actions() if a.kind != "call"]
    if reader == "random":
        return rng.choice(moves)
    choice = choose(deal, "hard")
    return choice if choice.kind != "call" else moves[0]


def refused(session: Session) -> list[str]:
    """Actions the engine refuses now, as the page sends them (nothing marked, a card the reader
    does not hold, a call or a take out of turn order...)."""
    deal = session.deal
    seat = session.my_deal_seat()
    assert deal is not None and seat is not None
    view = deal.public_view(seat)
    candidates = ["throw", "call", "take stock", "take pile", f"throw {C.card_text(view.unseen[0])}",
                  f"take pile {C.card_text(view.unseen[-1])}"]
    return [text for text in candidates
            if deal.refusal(Action("throw") if text == "throw" else parse_action(text), seat) is not None]


def answers(session: Session, langs: tuple[str, str], illegal: list[str]) -> list[dict[str, Any]]:
    """The worker's answers for the table in ``session`` to the requests a reader's page sends."""
    web.table(TABLE).seat(session)
    one, two = langs
    out = [ask(op="state", lang=one), ask(op="hint", lang=one), ask(op="sort", lang=one), ask(op="lang", lang=two),
           ask(op="hint", lang=two), ask(op="hint", lang=two), ask(op="review", lang=two)]
    out += [ask(op="act", action=text, lang=two) for text in illegal]
    out.append(ask(op="state", lang=two))
    return out


# -- the property -------------------------------------------------------------------------------


def check_twins(session: Session, langs: tuple[str, str], rng: random.Random) -> None:
    """The worker tells ``session``'s table and a twin of it the same (see the module docstring)."""
    illegal = refused(session)
    twin = twin_of(session, rng)
    deal, other = session.deal, twin.deal
    assert deal is not None and other is not None
    real = answers(session, langs, illegal)
    told = answers(twin, langs, illegal)
    for mine, theirs in zip(real, told):
        a, b = flat(mine), flat(theirs)
        assert a.keys() == b.keys()
        differ = sorted(k for k in a if a[k] != b[k])
        assert set(differ) <= set(TOKEN), [(k, a[k], b[k]) for k in differ if k not in TOKEN][:1]
        if mine.get("ok"):
            # the token is kept, never shown: not in any text or HTML of the answer
            text = shown(mine)
            assert mine["hash"] not in text and mine["hash"].split(".", 1)[-1] not in text
    # the real table's token restores its real deal, hidden cards and all
    again = restore_session(decode_hash(real[-1]["hash"]), "en")
    assert again.deal is not None and again.deal.hands == deal.hands and again.deal.stock == deal.stock
    assert transcript(again.deal) == transcript(deal)
    # the Hint spoke, and said the same to both: its line, and the reasons and odds behind
    # its "Why?" (each answer's ``hint``, compared leaf by leaf above too)
    assert real[1]["ok"] and real[1]["status"] and real[1]["status"] == told[1]["status"]
    assert real[1]["hint"] is not None and real[1]["hint"]["why"] and real[1]["hint"] == told[1]["hint"]
    assert real[1]["hint"]["line"] == real[1]["status"] and real[4]["hint"] == told[4]["hint"]


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate],  # a failing example is reported as found: shrinking one costs minutes
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), at=st.floats(0, 1), bots=st.sampled_from(["easy", "medium", "hard"]),
       reader=st.sampled_from(["hard", "random"]),
       langs=st.sampled_from([("en", "ne"), ("fr", "nl"), ("ne", "fr"), ("nl", "en")]),
       shuffle=st.integers(0, 2**32 - 1))
def test_twins_are_told_the_same(profile: str, seed: int, at: float, bots: str, reader: str,
                                 langs: tuple[str, str], shuffle: int) -> None:
    """At the start of one of the reader's turns, then after the turn's first move."""
    rng = random.Random(shuffle)
    web.close_tables()
    turns = positions(profile, seed, bots, reader, rng)
    if not turns:  # the reader never had a turn before the deal ended
        return
    session = turns[min(len(turns) - 1, int(at * len(turns)))]
    move = first_move(session, reader, rng)
    check_twins(session, langs, rng)
    web.table(TABLE).seat(session)
    answer = ask(op="act", action=move.text(), lang="en")
    assert answer["refusal"] is None and session.is_my_turn()
    check_twins(session, langs[::-1], rng)


# -- the plan after a draw, and the seat's view one move on -------------------------------------


def starts(profile: str, seed: str, bots: str = "medium") -> Iterator[Deal]:
    """Every position at the start of a turn (copies) of a deal the bots play."""
    deal = Deal.new(find_profile(profile), seed)
    while not deal.is_over:
        if deal.phase == "start":
            yield deal.copy()
        deal.apply(choose(deal, bots))


def test_the_hint_before_a_draw_is_the_same_whatever_card_is_on_top_of_the_stock() -> None:
    """Throwing after a draw from the stock may depend on the card drawn: the hint names no such card."""
    deal = next(d for k in range(20) for d in starts("nepali-games", f"draw/{k}")
                if d.turns >= 8 and len(d.stock) >= 8
                and expert.decide_view(d.profile, d.public_view(d.turn)).action == Action.take_stock())
    said = set()
    for c in deal.stock[:8]:
        variant = deal.copy()
        stock = variant.stock
        i = stock.index(c)
        stock[i], stock[-1] = stock[-1], stock[i]  # c on top: the card the seat would draw
        assert ask(op="position", state=state_to_json(variant), lang="en")["ok"]
        hint = ask(op="hint", lang="en")["hint"]
        text = " ".join([hint["line"], *hint["why"]])  # the line and what "Why?" shows
        assert text.startswith("The expert's move: take from the stock") and C.card_text(c) not in text, text
        said.add(text)
    assert len(said) == 1, said


@pytest.mark.parametrize("profile", PROFILES)
def test_the_view_after_a_move_is_worked_out_from_the_view_alone(profile: str) -> None:
    """``after_view`` gives the view the move really leaves (the card drawn named), and refuses a
    draw of a card the stock cannot give, or a call."""
    p = find_profile(profile)
    checked = 0
    for deal in starts(profile, f"after/{profile}", "hard"):
        seat = deal.turn
        view = deal.public_view(seat)
        assert stand_in(p, view).public_view(seat) == view
        for action in deal.legal_actions()[:6]:
            if action.kind == "call":
                with pytest.raises(ValueError):
                    after_view(p, view, action)
                continue
            real = deal.copy()
            real.play(action)
            drawn = real.hands[seat][-1] if action == Action.take_stock() else None
            assert after_view(p, view, action, drawn) == real.public_view(seat)
            checked += 1
            if drawn is not None:
                with pytest.raises(ValueError):
                    after_view(p, view, action, view.hand[0])  # a card the seat holds is not in the stock
                with pytest.raises(ValueError):
                    after_view(p, view, action)
    assert checked > 20


def test_the_renderer_is_given_no_way_to_the_real_deal() -> None:
    """The table's model holds the seat's stand-in and the match's public facts, never the match:
    no field of it, by type or by value, leads to the real deal's hidden cards."""
    import typing

    from dhumbal.matches.match import Match
    from dhumbal.view.model import TableModel

    hints = typing.get_type_hints(TableModel)
    assert not [k for k, t in hints.items() if "Match" in str(t) and "Scoreboard" not in str(t)]
    assert "match" not in hints and "seen" not in hints
    ask(op="new", profile="nepali-games", seed=5, lang="en")
    session = web.table(TABLE).playing()
    model = session.model(live=True, table_id=TABLE)
    assert session.deal is not None and model.deal is not None and model.deal is not session.deal
    me = session.my_deal_seat()
    assert me is not None and model.deal.hands[me] == session.deal.hands[me]
    hidden = [c for s, h in enumerate(session.deal.hands) if s != me for c in h] + session.deal.stock
    shown = [c for s, h in enumerate(model.deal.hands) if s != me for c in h] + model.deal.stock
    assert sorted(hidden) == sorted(shown) and hidden != shown  # the same cards, not in their places
    assert not any(isinstance(v, Match) or v is session.deal for v in vars(model).values())
