"""Puzzle files the puzzle tests share, written as the generator writes them."""

from __future__ import annotations

#: The review's ng-2-10-57 (issue 51) up to its answer: Chandra holds one card in
#: plain view, 5♦, exactly the limit. Each test adds the answer and the rest.
CHANDRA_DEAL = """\
profile = "nepali-games"
seats = ["Asha", "Bikash", "Chandra"]
names.ne = { Asha = "आशा", Bikash = "विकास", Chandra = "चन्द्रा" }
dealer = "Bikash"

[position]
Asha = "4♥ 5♠ 2♠ 2♥"
Bikash = "3♥ 6♦ 4♠ 8♣"
Chandra = "7♥ 2♦"
pile = "Q♦ K♥ 9♣ 9♥ J♣ J♥ Q♠ 8♦ K♦ 5♣ 5♥ Q♣ K♣ J♠ 2♣ 7♠ 10♦ A♣ A♠"
stock = "8♥ 10♣ A♥ 4♦ Q♥ 4♣ 5♦ 3♣ A♦ 3♠ 10♥ 10♠ 9♠ J♦ 9♦ 7♣ 6♠ K♠ 7♦ 3♦ 8♠ 6♣ 6♥"
offer = 2
turn = "Asha"
turns = 16

[[steps]]
act = "Asha: take pile"

[[steps]]
act = "Asha: throw 2♥ 2♠"

[[steps]]
act = "Bikash: take pile"

[[steps]]
act = "Bikash: throw 8♣"

[[steps]]
act = "Chandra: take stock"

[[steps]]
act = "Chandra: throw 8♥"

[[steps]]
act = "Asha: take stock"

[[steps]]
act = "Asha: throw 10♣"

[[steps]]
act = "Bikash: take stock"

[[steps]]
act = "Bikash: throw 6♦"

[[steps]]
act = "Chandra: take stock"

[[steps]]
act = "Chandra: throw 7♥"

[[steps]]
act = "Asha: take stock"

[[steps]]
act = "Asha: throw Q♥"

[[steps]]
act = "Bikash: take stock"

[[steps]]
act = "Bikash: throw 4♣ 4♠"

[[steps]]
act = "Chandra: take pile"

[[steps]]
act = "Chandra: throw 2♦"

[[steps]]
act = "Asha: take pile"

[[steps]]
act = "Asha: throw 5♠"

[[steps]]
act = "Bikash: take stock"

[[steps]]
act = "Bikash: throw 5♦"

[[steps]]
act = "Chandra: take pile"

[[steps]]
act = "Chandra: throw 4♦ 4♠"

[[steps]]
act = "Asha: take pile"


[puzzle]
seat = "Asha"
"""
