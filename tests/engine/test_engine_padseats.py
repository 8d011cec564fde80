"""A player joining or leaving the score pad's match between deals (issue 52, item 2).

The engine decides (dhumbal.matches.scoresheet ``change_seats`` and ``settle_sheet``):
in a ledger (Nepali Games, Dashain) anyone joins at 0 and anyone leaves with their
total kept, so the ledger stays zero-sum; the dealer passes on over the players at
the table and the tie rule counts from the dealers that follow. In CardRulesPlus's
race to 100 a player may leave (out of the race) but nobody joins once a deal is
played. Every move can be taken back, travels in the sheet's JSON (the page's storage
and a ``#pad=`` link) and through the op ``scorepad``; the command line settles a deal
with a seat away.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from dhumbal.core.errors import Refusal
from dhumbal.core.profiles import parse_profile
from dhumbal.matches.padlink import read_link, sheet_link
from dhumbal.matches.scoresheet import Entry, change_setup, change_sheet, read_sheet, settle_sheet
from dhumbal.matches.seats import change_seats
from dhumbal.matches.tally import settle_deal
from dhumbal.table.web import handle


def data(profile: str, names: list[str], deals: list[Any], dealer: int = 0) -> dict[str, Any]:
    return {"v": 1, "profile": profile, "names": names, "dealer": dealer, "deals": deals, "end": False}


def test_a_newcomer_joins_a_ledger_at_zero_in_their_seat_and_the_dealer_passes_to_them() -> None:
    sheet = read_sheet(data("nepali-games", ["Ram", "Sita", "Hari"], [{"c": 0, "h": [3, 10, 20]}], dealer=2))
    sheet, settled = change_seats(sheet, "join", name="Gita", seat=1)  # on Ram's left
    assert sheet.names == ("Ram", "Gita", "Sita", "Hari")
    assert sheet.first_dealer == 3 and sheet.entries[0] == Entry(0, (3, None, 10, 20))
    assert settled.active() == [0, 1, 2, 3] and settled.match.scores == [30, 0, -10, -20]
    assert settled.next_dealer() == 0  # Hari dealt: the deal passes on to his left, Ram
    sheet, settled = change_sheet(sheet, "add", entry=Entry(1, (12, 4, 9, 30)))
    assert sum(settled.match.scores) == 0
    assert settled.tallies[1].seating == (0, 1, 2, 3)
    assert settled.next_dealer() == 1  # then to Gita, on Ram's left


def test_a_player_who_leaves_keeps_their_total_and_the_tie_rule_counts_from_the_dealers_that_follow() -> None:
    # Nepali Games: ties among the lowest go to the first player from the dealer's left
    sheet = read_sheet(data("nepali-games", ["A", "B", "C", "D"], [{"c": 0, "h": [2, 9, 9, 20]}], dealer=3))
    sheet, settled = change_seats(sheet, "leave", seat=0)
    kept = settled.match.scores[0]
    assert settled.active() == [1, 2, 3] and settled.next_dealer() == 1  # A would have dealt: B does
    # B deals deal 2, D calls on 5 and is caught by B and C on 3: C, on the dealer's left, wins the tie
    sheet, settled = change_sheet(sheet, "add", entry=Entry(3, (None, 3, 3, 5)))
    assert settled.tallies[1].winner == 2 and settled.match.scores[0] == kept
    assert sum(settled.match.scores) == 0
    assert settled.next_dealer() == 2
    standing = {s.seat: s for s in settled.standings()}
    assert standing[0].away and not standing[0].eliminated


def test_dashain_money_stays_zero_sum_through_a_leave_and_a_return() -> None:
    sheet = read_sheet(data("dashain(money=0.05)", ["Asha", "Bikas", "Chandra"], [{"c": 1, "h": [14, 6, 9]}]))
    sheet, _ = change_seats(sheet, "leave", seat=2)
    sheet, _ = change_sheet(sheet, "add", entry=Entry(0, (3, 20, None)))
    sheet, settled = change_seats(sheet, "join", name="chandra", seat=0)  # the name of one who left: back in their seat
    assert sheet.names == ("Asha", "Bikas", "Chandra") and settled.active() == [0, 1, 2]
    assert settled.match.scores[2] == -9
    sheet, settled = change_sheet(sheet, "add", entry=Entry(2, (11, 12, 2)))
    assert sum(settled.match.scores) == 0
    for tally in settled.tallies:
        assert sum(Decimal(m) for m in tally.money() or () if m is not None) == 0


def test_cardrulesplus_lets_a_player_leave_the_race_but_nobody_join_once_a_deal_is_played() -> None:
    sheet = read_sheet(data("cardrulesplus", ["Anna", "Bram", "Chloé"], [{"c": 0, "h": [3, 10, 20]}]))
    with pytest.raises(Refusal) as info:
        change_seats(sheet, "join", name="Dédé", seat=3)
    assert info.value.code == "join-race" and "Dédé" in info.value.text("en", ["Anna", "Bram", "Chloé", "Dédé"])
    sheet, settled = change_seats(sheet, "leave", seat=0)  # Anna, on 0, leaves: she cannot win
    places = {s.seat: s.place for s in settled.standings()}
    assert places[0] == 3
    with pytest.raises(Refusal) as info:
        change_seats(sheet, "leave", seat=1)
    assert info.value.code == "leave-two"
    fresh = read_sheet(data("cardrulesplus", ["Anna", "Bram"], []))
    fresh, settled = change_seats(fresh, "join", name="Dédé", seat=2)  # before the first deal: at 0 like all
    assert settled.active() == [0, 1, 2]


def test_the_rules_limits_are_refused_in_words_and_the_sheet_is_unchanged() -> None:
    six = read_sheet(data("dashain", ["A", "B", "C", "D", "E", "F"], []))
    with pytest.raises(Refusal) as info:
        change_seats(six, "join", name="G", seat=0)
    assert info.value.code == "seats-full"
    sheet = read_sheet(data("dashain", ["A", "B", "C"], [{"c": 0, "h": [3, 10, 20]}]))
    for kind, kw, code in [("join", {"name": "b", "seat": 0}, "join-there"), ("leave", {"seat": 9}, "bad"),
                           ("unmove", {}, "no-move")]:
        with pytest.raises(Refusal) as info:
            change_seats(sheet, kind, **kw)
        assert info.value.code == code
        assert "{" not in info.value.text("ne", list(sheet.names))
    ended = read_sheet(data("nepali-games", ["A", "B"], [{"c": 0, "h": [3, 10]}] * 3))
    with pytest.raises(Refusal) as info:
        change_seats(ended, "leave", seat=0)
    assert info.value.code == "match-over"


def test_every_move_can_be_taken_back_unless_a_deal_needs_it() -> None:
    start = read_sheet(data("dashain", ["A", "B", "C"], [{"c": 0, "h": [3, 10, 20]}]))
    joined, _ = change_seats(start, "join", name="D", seat=0)
    back, _ = change_seats(joined, "unmove")
    assert back == start  # the newcomer's seat goes with the move
    played, _ = change_sheet(joined, "add", entry=Entry(1, (4, 3, 10, 20)))
    with pytest.raises(Refusal) as info:
        change_seats(played, "unmove")
    assert info.value.code == "later-out" and "deal 2" in info.value.text("en", list(played.names))
    left, _ = change_seats(start, "leave", seat=1)
    assert change_seats(left, "unmove")[0] == start
    # removing a deal brings the moves after it one deal earlier
    two, _ = change_sheet(left, "add", entry=Entry(0, (2, None, 9)))
    undone, settled = change_sheet(two, "undo", index=1)
    assert undone.moves[0].deal == 1 and settled.active() == [0, 2]
    # the first dealer cannot be one who joins later
    with pytest.raises(Refusal) as info:
        change_setup(played, list(played.names), 0)
    assert info.value.code == "away-dealer"


def test_a_total_typed_for_a_player_away_names_why() -> None:
    sheet = read_sheet(data("dashain", ["A", "B", "C"], [{"c": 0, "h": [3, 10, 20]}]))
    sheet, _ = change_seats(sheet, "leave", seat=2)
    with pytest.raises(Refusal) as info:
        change_sheet(sheet, "add", entry=Entry(0, (3, 10, 20)))
    assert info.value.code == "away" and info.value.text("en", list(sheet.names)).startswith("C is away")


def test_moves_travel_in_the_sheets_json_and_its_link_and_old_sheets_read_as_before() -> None:
    sheet = read_sheet(data("nepali-games", ["Ram", "Sita", "Hari"], [{"c": 0, "h": [3, 10, 20]}]))
    assert "moves" not in sheet.to_json()
    sheet, settled = change_seats(sheet, "join", name="गीता", seat=3)
    sheet, settled = change_seats(sheet, "leave", seat=1)
    again = read_sheet(sheet.to_json())
    assert again == sheet and settle_sheet(again).active() == settled.active()
    assert read_sheet(read_link(sheet_link(sheet.to_json()))) == sheet
    for bad in ([{"d": 0, "s": 0, "j": True}], [{"d": 1, "s": 7, "j": True}], [{"d": 1, "s": 0, "j": 1}],
                [{"d": 1, "s": 0}], "x", [{"d": 1, "s": 0, "j": False}] * 61):
        with pytest.raises(Refusal):
            read_sheet({**sheet.to_json(), "moves": bad})


def pad(sheet: dict[str, Any], change: dict[str, Any] | None, lang: str = "en") -> dict[str, Any]:
    req: dict[str, Any] = {"op": "scorepad", "lang": lang, "sheet": sheet}
    if change is not None:
        req["change"] = change
    out: dict[str, Any] = json.loads(handle(json.dumps(req)))
    return out


def test_the_pads_request_joins_leaves_and_takes_back_and_says_so() -> None:
    sheet = data("dashain", ["A", "B", "C"], [{"c": 0, "h": [3, 10, 20]}])
    res = pad(sheet, {"kind": "join", "name": "Dipa", "seat": 1}, "ne")
    assert res["ok"] and res["refusal"] is None and res["sheet"]["names"] == ["A", "Dipa", "B", "C"]
    assert "Dipa" in res["said"] and res["next"]["active"] == [0, 1, 2, 3]
    res = pad(res["sheet"], {"kind": "leave", "seat": 3})
    assert res["next"]["active"] == [0, 1, 2] and 'data-away' in res["parts"]["totals"]
    assert 'data-seat="3"' not in res["parts"]["strip"]
    res = pad(res["sheet"], {"kind": "unmove"})
    assert res["next"]["active"] == [0, 1, 2, 3] and res["said"]
    res2 = pad(res["sheet"], {"kind": "leave", "seat": 0, "extra": 1})
    assert not res2["ok"]
    res3 = pad(res["sheet"], {"kind": "join", "name": "B", "seat": 0})
    assert res3["refusal"]["code"] == "join-there" and res3["sheet"] == res["sheet"]


def test_the_command_line_settles_a_deal_with_a_seat_away_in_a_ledger() -> None:
    profile = parse_profile("nepali-games").with_options(players=4)
    tally = settle_deal(profile, 0, 1, [3, 2, None, 9], [5, 10, -20, 5])
    assert tally.after[2] == -20 and sum(tally.after) == 0 and tally.seating == (0, 1, 3)


def test_the_answer_carries_each_total_as_every_language_writes_it() -> None:
    """Kept with the sheet, so a reload draws the totals at once in any language (issue 52, L9)."""
    res = pad(data("dashain", ["A", "B", "C"], [{"c": 0, "h": [3, 10, 20]}]), None, "fr")
    assert res["scores"] == [30, -10, -20]
    assert res["shown"]["ne"] == ["+३०", "−१०", "−२०"] and res["shown"]["en"] == ["+30", "−10", "−20"]
    res = pad(data("cardrulesplus", ["A", "B"], [{"c": 0, "h": [3, 10]}]), None)
    assert res["shown"]["fr"] == ["0", "10"]
