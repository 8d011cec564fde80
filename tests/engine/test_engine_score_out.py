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
    (parse_profile("nepali-games").with_options(players=3), 0, [3, None, 5], "out-no-elimination"),
    (CRP, 2, [3, 4, None, 5], "out-dealer"),
    (CRP, 1, [None, 4, None, None], "out-all"),
])
def test_what_cannot_be_out_is_refused(profile: object, dealer: int, hands: list[int | None], code: str) -> None:
    with pytest.raises(TallyError) as info:
        settle_deal(profile, dealer, 1, hands, None)  # type: ignore[arg-type]
    assert info.value.code == code
    assert info.value.text("fr") and "{" not in info.value.text("en")
