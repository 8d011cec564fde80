"""The score pad's sheet (dhumbal.matches.scoresheet) and its request (op ``scorepad`` of dhumbal.table.web).

A sheet is what a table typed; the engine settles it from the start on every
request. Held here: the dealer moving on, edits and removals settling every
later deal again, changes that would leave a later deal impossible refused
with the sheet unchanged, eliminations as they happen, the standings and each
player's figures, the CSV export, and the request's bounds: a damaged or
hostile sheet gets a clear answer, never an error the page cannot leave.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from dhumbal.matches.scoresheet import (
    Entry,
    SheetError,
    change_sheet,
    csv_text,
    player_stats,
    read_sheet,
    settle_sheet,
)
from dhumbal.matches.tally import TallyError
from dhumbal.table.web import handle

NAMES = ["Asha", "Bina", "Chandra"]


def sheet_data(profile: str = "nepali-games", names: list[str] | None = None, deals: list[Any] | None = None,
               dealer: int = 0) -> dict[str, Any]:
    return {"v": 1, "profile": profile, "names": names or list(NAMES), "dealer": dealer, "deals": deals or [], "end": False}


def pad(sheet: dict[str, Any], change: dict[str, Any] | None = None, lang: str = "en", **extra: Any) -> dict[str, Any]:
    req: dict[str, Any] = {"op": "scorepad", "lang": lang, "sheet": sheet, **extra}
    if change is not None:
        req["change"] = change
    out: dict[str, Any] = json.loads(handle(json.dumps(req)))
    return out


# -- a match, deal by deal ----------------------------------------------------------------------


def test_a_three_deal_match_with_a_caught_caller_a_tie_and_an_edit() -> None:
    """The browser test's match, number by number, in the engine."""
    s = read_sheet(sheet_data())
    # deal 1, Asha deals: Bina calls on 4, Chandra holds 4: caught on a tie
    s, settled = change_sheet(s, "add", entry=Entry(1, (7, 4, 4)))
    t = settled.tallies[0]
    assert (t.dealer, t.outcome.caught, t.winner, t.outcome.took, t.outcome.paid) == (0, True, 2, (7, 25, 0), (-7, -25, 32))
    # deal 2, Bina deals: Asha calls on 3 and wins
    s, settled = change_sheet(s, "add", entry=Entry(0, (3, 9, 12)))
    assert settled.tallies[1].dealer == 1 and settled.match.scores == [14, -34, 20]
    # deal 3, Chandra deals: nobody calls (the turn cap); Asha and Bina tie on 6, Asha comes first from the dealer's left
    s, settled = change_sheet(s, "add", entry=Entry(None, (6, 6, 15)))
    t = settled.tallies[2]
    assert (t.dealer, t.winner, t.outcome.paid) == (2, 0, (21, -6, -15))
    assert settled.match.scores == [35, -40, 5] and settled.over
    # change deal 1: Bina's hand was 3, not 4 — her call now wins, and deals 2 and 3 are settled again
    s, settled = change_sheet(s, "edit", index=1, entry=Entry(1, (7, 3, 4)))
    assert settled.tallies[0].outcome.paid == (-7, 11, -4)
    assert settled.match.scores == [-7 + 21 + 21, 11 - 9 - 6, -4 - 12 - 15]
    assert [st.seat for st in settled.standings()] == [0, 1, 2]
    stats = player_stats(settled)
    assert [(x.won, x.calls, x.caught) for x in stats] == [(2, 1, 0), (1, 1, 0), (0, 0, 0)]
    assert [str(x.average_hand) for x in stats] == ["5.3", "6.0", "10.3"]


def test_the_dealer_moves_on_and_skips_players_who_are_out() -> None:
    s = read_sheet(sheet_data("cardrulesplus", names=["A", "B", "C", "D"], dealer=2))
    s, settled = change_sheet(s, "add", entry=Entry(0, (1, 30, 40, 50)))
    assert settled.next_dealer() == 3
    s, settled = change_sheet(s, "add", entry=Entry(0, (1, 45, 45, 50)))  # D reaches 100: out at once
    assert settled.match.scores == [0, 75, 85, 100] and settled.tallies[1].newly == (3,)
    assert settled.next_dealer() == 0 and settled.active() == [0, 1, 2]  # the deal passes D by
    with pytest.raises(TallyError) as exc:  # D is out: no total for D any more
        change_sheet(s, "add", entry=Entry(0, (1, 30, 20, 4)))
    assert exc.value.code == "score-out" and exc.value.seat == 3
    s, settled = change_sheet(s, "add", entry=Entry(0, (1, 30, 20, None)))  # B and C out together
    assert settled.tallies[2].newly == (1, 2) and settled.over
    assert [(st.seat, st.place) for st in settled.standings()][0] == (0, 1)


def test_an_edit_that_changes_who_is_out_later_is_refused_and_changes_nothing() -> None:
    s = read_sheet(sheet_data("cardrulesplus", names=["A", "B", "C"]))
    for _ in range(3):
        s, _ = change_sheet(s, "add", entry=Entry(0, (2, 30, 30)))
    s, settled = change_sheet(s, "add", entry=Entry(0, (2, 3, 3)))  # B and C at 93
    # deal 1 changed so that B reaches 100 after deal 3: deal 4 holds a total for B
    with pytest.raises(SheetError) as exc:
        change_sheet(s, "edit", index=1, entry=Entry(0, (2, 40, 30)))
    assert exc.value.code == "later-out" and exc.value.params == {"seat": 1, "number": 4}
    assert "change or remove deal 4 first" in exc.value.text("en", ["A", "B", "C"])
    assert settle_sheet(s).match.scores == settled.match.scores == [0, 93, 93]  # the sheet is a value: unchanged
    # the other way: with B out after deal 3, removing deal 2 brings B back for deal 3 (now deal 2) ...
    s2, _ = change_sheet(s, "edit", index=4, entry=Entry(0, (2, 10, 3)))
    s2, _ = change_sheet(s2, "add", entry=Entry(0, (2, None, 3)))  # B out at 103
    with pytest.raises(SheetError) as exc:
        change_sheet(s2, "undo", index=1)
    assert exc.value.code == "later-in" and exc.value.params == {"seat": 1, "number": 5}


def test_removing_a_deal_settles_the_later_ones_again_with_their_new_dealers() -> None:
    s = read_sheet(sheet_data())
    for e in (Entry(1, (7, 4, 4)), Entry(0, (3, 9, 12)), Entry(None, (6, 6, 15))):
        s, settled = change_sheet(s, "add", entry=e)
    s, settled = change_sheet(s, "undo", index=1)
    assert len(settled.tallies) == 2
    # the old deal 2 is now deal 1, dealt by Asha; the old deal 3 dealt by Bina: the tie on 6 now goes to Chandra? no:
    # from Bina's left the order is Chandra, Asha, Bina, so Asha still comes before Bina
    assert [t.dealer for t in settled.tallies] == [0, 1]
    assert settled.tallies[1].winner == 0
    assert not settled.over


def test_a_finished_match_takes_no_more_deals_and_ending_early_is_the_tables_say() -> None:
    s = read_sheet(sheet_data("nepali-games(rounds=1)"))
    s, settled = change_sheet(s, "add", entry=Entry(0, (3, 9, 12)))
    assert settled.over and settled.over_by_rules
    with pytest.raises(TallyError) as exc:
        change_sheet(s, "add", entry=Entry(0, (3, 9, 12)))
    assert exc.value.code == "match-over"
    with pytest.raises(SheetError):
        change_sheet(s, "reopen")
    d = read_sheet(sheet_data("dashain"))
    d, settled = change_sheet(d, "add", entry=Entry(0, (3, 9, 12)))
    d, settled = change_sheet(d, "end")
    assert settled.over and not settled.over_by_rules
    d, settled = change_sheet(d, "reopen")
    assert not settled.over


def test_the_csv_has_a_line_per_player_per_deal_and_defuses_formulas() -> None:
    s = read_sheet(sheet_data(names=["=SUM(A1)", "Bina", "Chandra"]))
    s, settled = change_sheet(s, "add", entry=Entry(1, (7, 4, 4)))
    rows = list(csv.reader(io.StringIO(csv_text(settled, "en"))))
    assert rows[0] == ["Deal", "Dealer", "Player", "Called", "Hand", "Took", "Paid", "Total", "Out", "Why"]
    assert rows[1][:8] == ["1", "'=SUM(A1)", "'=SUM(A1)", "", "7", "7", "-7", "-7"]
    assert rows[2][3:8] == ["yes", "4", "25", "-25", "-25"]
    assert rows[3][5:8] == ["0", "32", "32"]
    assert len(rows) == 4


# -- reading a sheet: bounded, checked, never trusted ---------------------------------------------


@pytest.mark.parametrize("bad", [
    None, [], "x", {"v": 2}, sheet_data(names=["A"]), sheet_data(names=["A"] * 7), sheet_data(names=["A", "a"]),
    sheet_data(names=["A", " "]), sheet_data(names=["A", "B" * 25]), sheet_data(names=["A", "B\u0007"]),
    {**sheet_data(), "dealer": 3}, {**sheet_data(), "dealer": True}, {**sheet_data(), "profile": "chess"},
    {**sheet_data(), "profile": "nepali-games(limit=99)"}, {**sheet_data(), "deals": [{"c": 0}]},
    {**sheet_data(), "deals": [{"c": 5, "h": [1, 2, 3]}]}, {**sheet_data(), "deals": [{"c": 0, "h": [1, 2]}]},
    {**sheet_data(), "deals": [{"c": 0, "h": [1, 2, 1000]}]}, {**sheet_data(), "deals": [{"c": 0, "h": [1, 2, -1]}]},
    {**sheet_data(), "deals": [{"c": 0, "h": [1, 2, 3.5]}]}, {**sheet_data(), "deals": [{"c": 0, "h": [1, 2, 3], "x": 1}]},
    {**sheet_data(), "deals": [{"c": 0, "h": [1, 2, 3]}] * 301}, {**sheet_data(), "end": "yes"},
    sheet_data("cardrulesplus", names=list("ABCDEF")),
])
def test_a_bad_sheet_is_refused_by_the_reader(bad: Any) -> None:
    with pytest.raises(SheetError):
        read_sheet(bad)


def test_names_are_read_as_typed_devanagari_joiners_included() -> None:
    s = read_sheet(sheet_data(names=["  Asha  Rai ", "आर्\u200dयन", "Chandra"]))
    assert s.names == ("Asha Rai", "आर्\u200dयन", "Chandra")
    with pytest.raises(SheetError) as exc:
        read_sheet(sheet_data(names=["Asha", "Bi\u202ena", "Chandra"]))  # a direction override
    assert exc.value.code == "name-bad" and "player 2" in exc.value.text()
    with pytest.raises(SheetError) as exc:
        read_sheet(sheet_data(names=["Asha", "B" * 25, "Chandra"]))
    assert exc.value.code == "name-long"


def test_the_request_refuses_a_damaged_sheet_in_words_and_a_hostile_one_too() -> None:
    r = pad({**sheet_data(), "deals": [{"c": 0, "h": [6, 9, 12]}]})  # a call over the limit: stored, then tampered
    assert r["ok"] is False and r["error"]["code"] == "bad-sheet" and "a hand of 5 or less" in r["error"]["text"]
    r = pad(sheet_data(names=["A", "A"]), lang="fr")
    assert r["ok"] is False and "A" in r["error"]["text"]
    deep = "[" * 5000 + "]" * 5000
    out = json.loads(handle('{"op":"scorepad","sheet":' + deep + "}"))
    assert out["ok"] is False and out["error"]["code"] == "bad-request"
    out = json.loads(handle('{"op":"scorepad","sheet":{"v":1,"names":["A","B"],"dealer":1e999}}'))
    assert out["ok"] is False


def test_a_refused_change_comes_back_beside_the_sheet_as_it_was() -> None:
    r = pad(sheet_data(), {"kind": "add", "c": 1, "h": [7, 4, 4]})
    assert r["ok"] and r["refusal"] is None and r["said"].startswith("Deal 1 is settled.")
    before = r["sheet"]
    r2 = pad(before, {"kind": "add", "c": 0, "h": [9, 4, 4]}, lang="ne")
    assert r2["ok"] and r2["sheet"] == before
    assert r2["refusal"]["code"] == "over-limit" and r2["refusal"]["seat"] == 0 and r2["refusal"]["deal"] == 2
    assert "Asha" in r2["refusal"]["text"] and "९" in r2["refusal"]["text"]
    assert r2["parts"] == pad(before, lang="ne")["parts"]
    r3 = pad(before, {"kind": "add", "c": 0, "h": [3, None, 4]})
    assert r3["refusal"]["code"] == "missing" and r3["refusal"]["seat"] == 1
    r4 = pad(before, {"kind": "add", "c": 0, "h": [3, 51, 4]})
    assert r4["refusal"]["code"] == "too-high"
    r5 = pad(before, {"kind": "teleport"})
    assert r5["ok"] is False and r5["error"]["code"] == "bad-change"


def test_the_set_up_form_reads_its_rules_as_the_tables_settings() -> None:
    r = pad(sheet_data(), setup={"profile": "dashain", "options": {"money": "0,10", "limit": "8"}}, lang="fr")
    assert r["ok"] and r["sheet"]["profile"] == "dashain(limit=8,money=0.1)"
    assert r["next"] == {"number": 1, "dealer": 0, "active": [0, 1, 2], "nobody": False, "cap": None}
    r = pad(sheet_data(), setup={"profile": "dashain", "options": {"limit": "99"}})
    assert r["ok"] is False and r["error"]["code"] == "bad-option"
    r = pad(sheet_data(names=list("ABCDEF")), setup={"profile": "cardrulesplus", "options": {}})
    assert r["ok"] is False and "2 to 5 players" in r["error"]["text"]


def test_the_settled_sheet_shows_each_seats_reason_and_the_end() -> None:
    r = pad(sheet_data("nepali-games(rounds=1)"), {"kind": "add", "c": 1, "h": [7, 4, 4]})
    latest = r["parts"]["latest"]
    assert "caught: 4 against 4 — a tie goes against the caller" in latest
    assert 'data-row="paid" data-value="32"' in latest
    assert r["over"] and r["next"] is None
    assert "Deals won" in r["parts"]["end"] and '<dd data-row="average" data-value="7.0">7.0</dd>' in r["parts"]["end"]
