"""Shared links restore cheaply and safely (issue 21, items 1 and 2).

* Any link the engine writes restores by applying each of its actions once:
  no bot decides anything, and the work is counted in actions applied (never
  timed), bounded by the link's own length.
* A link of the first version replays the bots within a counted budget, and
  is refused with the notice and a fresh deal beyond it.
* Every value a link holds is checked by type and range: NaN, infinities,
  numbers out of range, wrong types, unknown fields and symbols that name no
  action all end in the notice and a fresh deal, never in the engine's
  internal error (which the page could not leave).
"""

from __future__ import annotations

import base64
import json
import math
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dhumbal.bots import botlevels
from dhumbal.core.i18n import translator
from dhumbal.core.profiles import PROFILE_KEYS, parse_profile
from dhumbal.play import share
from dhumbal.play.deal import Action, Deal
from dhumbal.play.records import state_to_json
from dhumbal.table import links as links_module
from dhumbal.table import session as session_module
from dhumbal.table import web
from dhumbal.table.links import BOT_BUDGET, MAX_LINK_ACTIONS, link_of, link_payload, restore_session
from dhumbal.table.protocol import Settings
from dhumbal.table.session import EXPERT_WEIGHT, LinkTooCostly, Session
from tests.table.tablekit import reference_replay

FALLBACK = {"profile": "dashain", "seed": 8}


@pytest.fixture(autouse=True)
def _clean() -> Iterator[None]:
    web.close_tables()
    yield
    web.close_tables()


def restore(hash_text: str, lang: str = "en") -> dict[str, Any]:
    return web.handle_request({"op": "restore", "hash": hash_text, "lang": lang, "table": "links", "fallback": FALLBACK})


def refused(hash_text: str, lang: str = "en") -> None:
    """The link gives the notice and a fresh deal (the fallback's), not an error."""
    r = restore(hash_text, lang)
    assert r["ok"], r
    assert r["notice"] == translator(lang)(web.NOTICE_BAD_HASH), r.get("notice")
    assert r["summary"]["profile"] == "dashain" and r["summary"]["deal"] == 1


class Counted:
    """Counts what a restore does: actions applied, and bot decisions (which must be none)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.applied = 0
        self.decisions = 0
        apply = Deal.apply

        def counting_apply(deal: Deal, action: Any, seat: int | None = None) -> Any:
            self.applied += 1
            return apply(deal, action, seat)

        def no_decision(*args: Any, **kwargs: Any) -> Action:
            self.decisions += 1
            raise AssertionError("a bot was asked to decide while a link was restored")

        monkeypatch.setattr(Deal, "apply", counting_apply)
        monkeypatch.setattr(session_module, "choose", no_decision)


def play(profile: str, level: str, seed: int, reader_moves: int, rng: Any) -> Session:
    """A session where the reader makes ``reader_moves`` legal moves picked by ``rng``."""
    s = Session(Settings(parse_profile(profile), level, seed), lang="en")
    s.start()
    for _ in range(reader_moves):
        deal = s.deal
        assert deal is not None
        if deal.is_over:
            if s.match_over():
                break
            s.next_deal()
            continue
        if not s.is_my_turn():  # the reader is out (cardrulesplus): the bots play the deal
            break
        s.act(rng.choice(deal.legal_actions()))
    return s


# -- any link the engine writes restores within its budget, with no bot decision --------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from([
        "nepali-games", "nepali-games(players=2,cards=7,runs=on,jokers=on)", "nepali-games(players=6)",
        "dashain", "dashain(players=6,limit=1)", "dashain(players=2)",
        "cardrulesplus", "cardrulesplus(players=5,jokers=on,set-pick=on)", "cardrulesplus(players=2)",
    ]),
    level=st.sampled_from(["easy", "medium", "hard"]),
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 60),
    data=st.randoms(use_true_random=False),
)
def test_every_link_the_engine_writes_restores_by_applying_its_actions(
    profile: str, level: str, seed: int, moves: int, data: Any,
) -> None:
    original = play(profile, level, seed, moves, data)
    link = link_of(original)
    symbols = sum(len(a) for a in share.decode_hash(link)["a"])
    with pytest.MonkeyPatch.context() as mp:
        counted = Counted(mp)
        again = restore_session(share.decode_hash(link), "en")
    # the work: one checked action per action of the game, and not one bot decision
    assert counted.decisions == 0
    played = sum(len(h) for h in [again.deal.history]) if again.deal else 0  # type: ignore[union-attr]
    assert counted.applied <= symbols <= MAX_LINK_ACTIONS
    assert counted.applied >= played
    # and the very same game
    assert again.deal is not None and original.deal is not None
    assert state_to_json(again.deal) == state_to_json(original.deal)
    assert again.match.scores == original.match.scores and again.moves == original.moves
    assert again.log == original.log and link_of(again) == link


@pytest.mark.parametrize("profile", PROFILE_KEYS)
def test_an_expert_table_restores_without_one_expert_decision(profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    original = play(profile, "expert", 17, 12, random.Random(3))
    link = link_of(original)
    counted = Counted(monkeypatch)
    again = restore_session(share.decode_hash(link), "en")
    assert counted.decisions == 0
    assert state_to_json(again.deal) == state_to_json(original.deal)  # type: ignore[union-attr]


def test_the_link_holds_the_bots_real_moves() -> None:
    import random

    original = play("dashain(players=4)", "hard", 5, 40, random.Random(1))
    ref = reference_replay(link_of(original))  # checks every bot action against the bot's choice
    assert ref.match.scores == original.match.scores


def test_a_link_holding_more_actions_than_allowed_is_refused_before_any_is_applied(monkeypatch: pytest.MonkeyPatch) -> None:
    s = play("nepali-games", "easy", 1, 10, __import__("random").Random(2))
    payload = link_payload(s)
    monkeypatch.setattr(links_module, "MAX_LINK_ACTIONS", sum(len(a) for a in payload["a"]) - 1)
    counted = Counted(monkeypatch)
    with pytest.raises(ValueError, match="more than"):
        restore_session(payload, "en")
    assert counted.applied == 0


def test_the_long_dashain_link_is_short_and_cheap() -> None:
    """The issue's shape (six seats, call at 1 or less) in miniature: deflated, the link
    takes fewer characters than the game has actions (the issue's 60-deal expert game:
    about 4,000 characters for 14,400 actions)."""
    import random

    s = play("dashain(players=6,limit=1)", "medium", 12345, 120, random.Random(7))
    link = link_of(s)
    actions = sum(len(a) for a in s.actions)
    assert actions > 300
    assert len(link) < actions  # deflated: fewer characters than actions


# -- first-version links: the bots replay, within a counted budget ---------------------------------


def v1_link(payload: dict[str, Any]) -> str:
    return share.encode_hash({"v": 1, **payload})


def test_a_first_version_link_still_restores(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    original = play("nepali-games(players=3)", "medium", 4, 20, random.Random(5))
    old = v1_link({"p": original.settings.profile.canonical(), "s": 4, "d": "medium",
                   "n": len(original.moves), "m": [",".join(m) for m in original.moves]})
    r = restore(old)
    assert r["ok"] and r["notice"] == translator("en")(web.NOTICE_RESTORED)
    again = web.table("links").playing()
    assert state_to_json(again.deal) == state_to_json(original.deal)  # type: ignore[union-attr]
    # and the table writes it back as a version-2 link
    assert r["hash"].startswith("table=3.") and r["hash"] == link_of(original)


def test_a_first_version_link_costing_more_than_the_budget_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    # a real expert game: five bots, four turns of the reader's (20 expert decisions)
    original = play("nepali-games(players=6)", "expert", 3, 8, random.Random(6))
    assert sum(len(m) for m in original.moves) == 8
    old = v1_link({"p": "nepali-games(players=6)", "s": 3, "d": "expert", "n": 1, "m": [",".join(original.moves[0])]})
    # 12 expert decisions allowed: the replay stops at the 13th, counted, not timed
    monkeypatch.setattr(links_module, "BOT_BUDGET", 12 * EXPERT_WEIGHT)
    decisions = []
    choose = botlevels.choose
    monkeypatch.setattr(session_module, "choose", lambda deal, level: decisions.append(1) or choose(deal, level))
    with pytest.raises(LinkTooCostly):
        restore_session(share.decode_hash(old), "en")
    assert len(decisions) == 12
    decisions.clear()
    refused(old)
    assert len(decisions) == 12


def test_the_budget_holds_a_restore_to_a_bounded_number_of_decisions() -> None:
    assert BOT_BUDGET // EXPERT_WEIGHT <= 200  # expert decisions: a few milliseconds each
    assert BOT_BUDGET <= 5_000  # other levels: well under a millisecond each


# -- every value read from a link is checked -------------------------------------------------------


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}', "1e999", "[-1e400]", "1" + "0" * 19, '{"s": -12345678901234567890}'])
def test_json_from_outside_holds_no_infinity_and_no_oversized_number(text: str) -> None:
    from dhumbal.core import boundedjson

    with pytest.raises(ValueError):
        boundedjson.loads(text, max_chars=1000)
    assert boundedjson.loads('[1.5, -2, 1234567890123456789]', max_chars=100) == [1.5, -2, 1234567890123456789]


def v2_link(payload: Any, *, allow_nan: bool = True) -> str:
    """A version-2 link as written before the check value: ``table=2.`` and the data alone
    (a link's data of today, version 3, written as version 2)."""
    if isinstance(payload, dict) and payload.get("v") == share.HASH_VERSION:
        payload = {**payload, "v": 2}
    raw = json.dumps(payload, separators=(",", ":"), allow_nan=allow_nan).encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return "table=2." + base64.urlsafe_b64encode(packer.compress(raw) + packer.flush()).decode().rstrip("=")


def position_payload() -> dict[str, Any]:
    """A version-2 link of a table played from a finished-looking position (its outcome is what we tamper with)."""
    deal = Deal.new(parse_profile("dashain(players=3)"), "pos")
    s = Session(Settings(deal.profile, "easy", "pos", state_to_json(deal)), lang="en")
    s.start()
    return link_payload(s)


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 1e308 * 10, 10**19, -(10**40), "25", None, [25], True])
def test_the_issues_case_an_outcome_with_infinity_gives_the_notice(value: Any) -> None:
    payload = position_payload()
    x = dict(payload["x"])
    x["phase"] = "over"
    x["outcome"] = {"reason": "call", "caller": 0, "caught": False, "winner": 0, "hands": [1, 2, 3],
                    "took": [0, 2, 3], "paid": [5, -2, -3], "points": [0, 2, 3], "penalty": value}
    refused(v2_link({**payload, "x": x}))
    refused(v1_link({k: v for k, v in {**payload, "x": x}.items() if k not in ("v", "a")} | {"m": [""]}))


FIELDS = ["p", "s", "d", "n", "a", "x", "nm", "o"]
HOSTILE = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.inf, -math.inf, math.nan, 10**19, -(10**19), 2**63, -1, 0, 1, True, False, None]),
    st.integers(-(10**30), 10**30),
    st.text(max_size=30),
    st.text(alphabet=share.ALPHABET, max_size=60),
    st.lists(st.integers(-5, 100), max_size=4),
    st.lists(st.text(alphabet=share.ALPHABET, max_size=20), max_size=3),
    st.dictionaries(st.text(max_size=8), st.integers(), max_size=3),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(FIELDS), value=HOSTILE, version=st.sampled_from([1, 2]))
def test_fuzzed_fields_never_reach_the_internal_error(field: str, value: Any, version: int) -> None:
    base = {"v": version, "p": "nepali-games", "s": 4, "d": "easy", "n": 1}
    base |= {"a": [""]} if version == 2 else {"m": [""]}
    if field in ("a", "x", "nm") and version == 1 and field == "a":
        field = "m"
    payload = {**base, field: value}
    link = v2_link(payload) if version == 2 else "table=" + base64.urlsafe_b64encode(
        json.dumps(payload, allow_nan=True).encode()).decode().rstrip("=")
    r = restore(link)
    assert r["ok"], r  # never "internal": a restored game, or the notice and a fresh deal
    assert r["notice"] in (translator("en")(web.NOTICE_BAD_HASH), translator("en")(web.NOTICE_RESTORED))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symbols=st.text(alphabet=share.ALPHABET, max_size=400), profile=st.sampled_from(PROFILE_KEYS))
def test_fuzzed_actions_are_checked_by_the_engine(symbols: str, profile: str) -> None:
    r = restore(v2_link({"v": 2, "p": profile, "s": 9, "d": "easy", "n": 1, "a": [symbols]}))
    assert r["ok"], r
    if r["notice"] == translator("en")(web.NOTICE_RESTORED):
        # whatever restored is a legal game at a point where the reader is to play (or over)
        s = web.table("links").playing()
        assert s.deal is not None and (s.deal.is_over or s.is_my_turn())


@pytest.mark.parametrize(
    "link",
    [
        "table=2.", "table=2.%%%", "table=2." + "A" * 5, "table=2.A", "table=2." + "_" * 17_000,
        # deflated data that inflates past the bound: refused before it is inflated
        "table=2." + base64.urlsafe_b64encode(
            (lambda p: p.compress(b"[" + b"0," * 200_000 + b"0]") + p.flush())(zlib.compressobj(9, zlib.DEFLATED, -15))
        ).decode().rstrip("="),
        # version 2 data inside a version 1 link, and the reverse
        "table=" + base64.urlsafe_b64encode(json.dumps({"v": 2, "p": "dashain", "s": 1, "d": "easy", "n": 1, "a": [""]}).encode()).decode().rstrip("="),
        v2_link({"v": 1, "p": "dashain", "s": 1, "d": "easy", "n": 1, "m": [""]}),
        v2_link({"v": 2, "p": "dashain", "s": 1, "d": "easy", "n": 1, "a": [""], "zz": 1}),
        v2_link({"v": 2, "p": "dashain", "s": 1, "d": "easy", "n": 2, "a": [""]}),
        v2_link({"v": 2, "p": "dashain", "s": 1, "d": "easy", "n": 1, "a": ["?"]}),
        v2_link({"v": 2, "p": "dashain", "s": 1, "d": "easy", "n": 61, "a": [""] * 61}),
        v2_link({"v": 2, "p": "dashain", "s": 1, "d": "easy", "n": 1, "a": [""], "o": 2}),
        v2_link({"v": 2, "p": "dashain", "s": 1, "d": "easy", "n": 1, "a": [""], "nm": ["a", "b", "c", "d"]}),
        v2_link([1, 2]),
        v2_link("NaN"),
    ],
)
def test_malformed_links_give_the_notice(link: str) -> None:
    refused(link)


def test_a_link_stopping_where_a_bot_is_to_play_is_refused() -> None:
    s = play("dashain(players=3)", "easy", 2, 4, __import__("random").Random(4))  # two whole turns
    assert s.deal is not None and not s.deal.is_over and s.deal.history[-1][0] != s.my_deal_seat()
    payload = link_payload(s)
    payload["a"][-1] = payload["a"][-1][:-1]  # the last bot's take is cut off
    with pytest.raises(ValueError, match="a bot is to play"):
        restore_session(payload, "en")
    refused(v2_link(payload))


# -- the check value: a damaged link never restores another game (issue 44, item 10) ---------------


def test_the_check_value_is_a_short_hash_of_the_links_data() -> None:
    import hashlib

    s = play("dashain(players=3)", "easy", 21, 6, __import__("random").Random(2))
    link = link_of(s)
    assert link.startswith("table=3.")
    check, dot, body = link[len("table=3."):].partition(".")
    assert dot and len(check) == share.CHECK_CHARS == 8
    assert check == base64.urlsafe_b64encode(hashlib.sha256(body.encode()).digest()[:6]).decode()
    assert share.link_check(body) == check
    assert share.decode_hash(link) == link_payload(s)
    # the same data with any other check value, or none of the right length, is refused
    for other in (share.link_check(body + "A"), check[:-1], check + "A", ""):
        with pytest.raises(ValueError):
            share.decode_hash(f"table=3.{other}.{body}")
    # the longest link the engine reads makes room for the check value
    assert share.MAX_LINK == len("table=3.") + 8 + 1 + share.MAX_HASH


def test_a_link_of_today_without_its_check_value_is_refused_and_older_links_still_read() -> None:
    """Review 5: a version-2 link with its check value and dot removed read as an older,
    unchecked one, and then some one-character changes restored another game. Links are
    written as version 3 now, which is never read without its check value."""
    s = play("dashain(players=3)", "easy", 21, 6, __import__("random").Random(2))
    link = link_of(s)
    check, _, body = link[len("table=3."):].partition(".")
    with pytest.raises(ValueError, match="lost its check value"):
        share.decode_hash("table=3." + body)
    refused("table=3." + body)
    # the older links: version 2 with its check value, and written before it (the data alone)
    old = v2_link(link_payload(s))
    old_body = old[len("table=2."):]
    for older in (old, f"table=2.{share.link_check(old_body)}.{old_body}"):
        assert share.decode_hash(older) == {**link_payload(s), "v": 2}
        r = restore(older)
        assert r["notice"] == translator("en")(web.NOTICE_RESTORED) and r["hash"] == link  # written back as today's


def real_links() -> list[Session]:
    """Three real games: a three-deal game at Dashain, an expert cardrulesplus table with
    jokers and sorted cards, and a table played from a position."""
    import random

    games = [play("dashain(players=4)", "medium", 734, 60, random.Random(11)),
             play("cardrulesplus(players=3,jokers=on)", "expert", 52, 10, random.Random(12))]
    games[1].sort = True
    deal = Deal.new(parse_profile("nepali-games(players=3)"), "an example")
    s = Session(Settings(deal.profile, "hard", "an example", state_to_json(deal)), lang="en")
    s.start()
    rng = random.Random(13)
    for _ in range(8):
        if s.deal is None or s.deal.is_over or not s.is_my_turn():
            break
        s.act(rng.choice(s.deal.legal_actions()))
    games.append(s)
    assert len(games[0].moves) >= 3 and "x" in link_payload(games[2])
    return games


def test_every_single_character_change_of_three_real_links_is_refused_or_restores_the_same_game() -> None:
    """Every character of each link (its prefix too) replaced by every character a link
    may hold, and deleted: the engine refuses it, or restores the very same game, which
    writes the very same link back. Never another game."""
    symbols = share.ALPHABET + ".=%"
    changed = same = 0
    for game in real_links():
        link = link_of(game)
        variants = {link[:i] + ch + link[i + 1:] for i in range(len(link)) for ch in symbols if ch != link[i]}
        variants |= {link[:i] + link[i + 1:] for i in range(len(link))}
        for variant in sorted(variants):
            changed += 1
            try:
                again = restore_session(share.decode_hash(variant), "en")
            except (ValueError, web.RequestError):
                continue
            same += 1
            assert link_of(again) == link, f"{variant} restored another game than {link}"
    assert changed > 20_000
    assert same == 0  # with the check value, every change is refused


def test_a_link_whose_check_value_fails_gets_the_notice_and_a_fresh_deal() -> None:
    link = link_of(real_links()[0])
    check, _, body = link[len("table=3."):].partition(".")
    wrong = "A" if body[40] != "A" else "B"
    refused(f"table=3.{check}.{body[:40]}{wrong}{body[41:]}")
    refused(link[:-1])  # cut short
    assert restore(link)["notice"] == translator("en")(web.NOTICE_RESTORED)


def test_a_position_in_a_link_keeps_its_own_seed() -> None:
    """A position without a seed is refused (it would have been given seed 0), and so is a
    link whose seed is not its position's; a digit text stays a text."""
    payload = position_payload()
    assert payload["s"] == payload["x"]["seed"] == "pos"
    no_seed = {**payload, "x": {k: v for k, v in payload["x"].items() if k != "seed"}}
    refused(share.encode_hash(no_seed))
    refused(share.encode_hash({**payload, "s": 7}))
    deal = Deal.new(parse_profile("dashain(players=3)"), "0042")
    s = Session(Settings(deal.profile, "easy", "0042", state_to_json(deal)), lang="en")
    s.start()
    again = restore_session(share.decode_hash(link_of(s)), "en")
    assert again.settings.seed == "0042" and link_of(again) == link_of(s)
