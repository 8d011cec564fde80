"""A deal settled once a player is out (issue 52, M3): dhumbal.matches.tally.settle_deal
with ``None`` for a seat out of the match, as on the score pad's sheet.

The review's CardRulesPlus match to elimination, deals 4 and 5: worked out by
hand from the rules and shown by the pad, now settled the same with the seats
that are out marked, not renumbered away. A seat marked out where the rules put
nobody out, a dealer who is out, or one player left are refused, in words.
"""

from __future__ import annotations

import pytest

from dhumbal.core.profiles import parse_profile
from dhumbal.matches.tally import TallyError, settle_deal

CRP = parse_profile("cardrulesplus").with_options(players=4)


def test_the_reviews_deals_four_and_five() -> None:
    deal4 = settle_deal(CRP, 3, 1, [15, 4, None, 4], [85, 14, 100, 20])  # a tie catches Bram
    assert deal4.after == (85, 39, 100, 20)
    deal5 = settle_deal(CRP, 0, 3, [15, 50, None, 0], [85, 39, 100, 20])  # Anna reaches 100 and is out
    assert deal5.after == (100, 89, 100, 20)
    assert 0 in deal5.newly and 2 not in deal5.newly


@pytest.mark.parametrize(("profile", "dealer", "hands", "code"), [
    (parse_profile("nepali-games").with_options(players=3), 1, [3, None, 5], "out-dealer"),
    (CRP, 2, [3, 4, None, 5], "out-dealer"),
    (CRP, 1, [None, 4, None, None], "out-all"),
])
def test_what_cannot_be_out_is_refused(profile: object, dealer: int, hands: list[int | None], code: str) -> None:
    with pytest.raises(TallyError) as info:
        settle_deal(profile, dealer, 1, hands, None)  # type: ignore[arg-type]
    assert info.value.code == code
    assert info.value.text("fr") and "{" not in info.value.text("en")


# -- the command line settles any deal the pad can (issue 52, M3, L7, L8) --------------------------

def run(*argv: str) -> tuple[int, str, str]:
    import contextlib
    import io

    from dhumbal.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = main(["score", *argv], out=out)
    return rc, out.getvalue(), err.getvalue()


def test_the_command_line_marks_a_seat_out_and_takes_negative_scores_as_written() -> None:
    rc, out, err = run("--profile", "cardrulesplus", "--players", "4", "--dealer", "3", "--caller", "1",
                       "--hands", "out,4,out,4", "--scores", "100,14,100,20")
    assert rc == 0, err
    rows = out.splitlines()
    assert rows[4].split() == ["0", "–", "–", "100", "out"]
    assert rows[5].split() == ["1", "4", "25", "39"]
    rc, out, err = run("--profile", "dashain", "--players", "5", "--dealer", "1", "--caller", "2",
                       "--hands", "6,14,9,21,9", "--scores", "-14,74,-9,-21,-30")
    assert rc == 0, err
    assert out.splitlines()[4].split()[-1] == "+39"


def test_help_says_how_to_mark_a_seat_out() -> None:
    import contextlib
    import io

    from dhumbal.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["score", "--help"], out=out)
    text = " ".join(out.getvalue().split())
    assert "out,4,out,7" in text and "-14,74,-60" in text


def test_seats_and_errors_in_the_language_asked() -> None:
    rc, out, err = run("--players", "2", "--dealer", "1", "--caller", "0", "--hands", "4,4", "--lang", "ne")
    assert rc == 0, err
    assert "Seat" not in out and "सिट ०" in out
    rc, out, err = run("--players", "3", "--dealer", "0", "--caller", "0", "--hands", "2,x,4", "--lang", "ne")
    assert rc == 2 and "Seat" not in err and "सिट १" in err, err
    rc, out, err = run("--players", "3", "--dealer", "0", "--caller", "1", "--hands", "2,9,4", "--lang", "fr")
    assert rc == 2 and "Seat" not in err and "Place 1" in err, err


def test_negative_scores_are_joined_to_their_option_not_matched_by_argparses_private_api() -> None:
    import argparse

    from dhumbal.cli.app import build_parser
    from dhumbal.cli.score import values_joined

    default = argparse.ArgumentParser()._negative_number_matcher
    subs = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert subs.choices["score"]._negative_number_matcher == default  # nothing private is set
    assert values_joined(["score", "--scores", "-14,74,-60", "--json"]) == ["score", "--scores=-14,74,-60", "--json"]
    assert values_joined(["score", "--scores", "--json"]) == ["score", "--scores", "--json"]
    assert values_joined(["play", "--scores", "-1"]) == ["play", "--scores", "-1"]
    rc, out, err = run("--players", "2", "--dealer", "0", "--caller", "1", "--hands", "9,4", "--scores", "-5,5")
    assert rc == 0, err
    with pytest.raises(SystemExit):  # a value still missing is argparse's own error
        run("--players", "2", "--dealer", "0", "--caller", "1", "--hands", "9,4", "--scores", "--json")


def test_the_command_line_marks_a_player_away_in_a_ledger() -> None:
    rc, out, err = run("--profile", "nepali-games", "--players", "4", "--dealer", "0", "--caller", "1",
                       "--hands", "3,2,out,9", "--scores", "5,10,-20,5")
    assert rc == 0, err
    assert out.splitlines()[6].split() == ["2", "–", "–", "–", "\u221220"]
