"""The collection's shape (dhumbal.lab.puzzleset): near-duplicates thinned to one, one-move families capped.

The review found four "A A 3, call on 5" among ten clusters of
near-duplicates, and 23 puzzles that were "call on exactly the limit". Here
made-up puzzles with made-up grades: a cluster keeps its clearest puzzle,
the family keeps its eight clearest, and ``puzzles thin`` removes the rest
and says why.
"""

from __future__ import annotations

import io
from pathlib import Path

from dhumbal.cli import main
from dhumbal.lab.puzzleset import FAMILY_CAP, cluster_key, family, thin
from dhumbal.play.action import parse_action
from dhumbal.trainer.robust import OPPONENTS
from dhumbal.worked.puzzles import load_text

SUITS = "♠♥♦♣"


def puzzle_text(hand: str, pile: str, answer: str, lead: float, title: str = "A puzzle") -> str:
    """A hand-written puzzle with a made-up grade: ``answer`` first, every other move ``lead`` behind."""
    head = f"""\
title = "{title}"
profile = "dashain"
seats = ["Asha", "Bikash", "Chandra"]
dealer = "Chandra"

[position]
Asha = "{hand}"
Bikash = 3
Chandra = 4
pile = "{pile}"
turns = 12

[puzzle]
seat = "Asha"
theme = "call"
lead = "A lead."
answer = "{answer}"

"""
    puzzle = load_text(head, "x.toml", graded=False)
    from dhumbal.trainer.grading import moves

    actions = [a.text() for a in moves(puzzle.deal)]
    actions.sort(key=lambda a: a != parse_action(answer).text())
    out = ["[puzzle.grade]", 'seed = "s"', 'profile = "dashain(players=3)"', 'measure = "paid"',
           'reader = "expert"', 'solvers = ["naive"]']
    for model in OPPONENTS:
        out += ["", f"[puzzle.grade.{model}]", "samples = 100", "moves = ["]
        for i, a in enumerate(actions):
            d = lead if i else 0.0
            out.append(f'  {{ action = "{a}", samples = 100, mean = {-d}, se = 0.5, diff = {d}, diff_se = {0.1 if i else 0}, '
                       "won = 0.4, caught = 0.0, catch = 0.0, hand = 2.0, later = 0.9 },")
        out.append("]")
    return head + "\n".join(out) + "\n"


def test_a_cluster_keeps_its_clearest_puzzle_and_the_family_its_eight_clearest(tmp_path: Path) -> None:
    # four "A A 8, call on 10" in other suits and with other piles: one puzzle
    aces = [puzzle_text(f"A{SUITS[i]} A{SUITS[(i + 1) % 4]} 8{SUITS[i]}", pile, "call", lead)
            for i, (pile, lead) in enumerate([("9♣", 6.0), ("7♦", 9.0), ("K♠", 4.0), ("4♥", 5.0)])]
    # other hands on exactly the limit of 10: a family of one idea
    ties = [puzzle_text(hand, "9♣", "call", 3.0 + k) for k, hand in enumerate(
        ["2♠ 8♥", "9♠ A♥", "7♠ 3♥", "6♠ 4♥", "5♠ 5♥", "7♦ 2♥ A♦", "6♦ 3♠ A♣", "5♦ 4♠ A♥", "6♥ 2♦ 2♣", "4♦ 3♦ 3♣"])]
    other = puzzle_text("A♠ 2♥", "9♣", "call", 3.0)  # three points, under the limit: no family
    for i, text in enumerate(aces + ties + [other]):
        (tmp_path / f"p{i:02}.toml").write_text(text, encoding="utf-8")
    puzzles = [load_text(t, f"p{i:02}.toml") for i, t in enumerate(aces + ties + [other])]
    assert len({cluster_key(p.deal, p.answer) for p in puzzles[:4]}) == 1
    assert all(family(p.deal, p.answer) == "tie-call" for p in puzzles[:-1]) and family(puzzles[-1].deal, puzzles[-1].answer) is None
    done = thin(puzzles)
    kept = {p.id for p in done.kept}
    assert "p01" in kept and not {"p00", "p02", "p03"} & kept  # the clearest of the four aces
    assert sum(1 for p in done.kept if family(p.deal, p.answer) == "tie-call") == FAMILY_CAP["tie-call"]
    assert "p14" in kept  # the other ties: the clearest ones (lead 3 + k) stay
    assert "p04" not in kept and "p05" not in kept
    assert "p14" in kept and f"p{len(puzzles) - 1:02}" in kept
    why = dict((p.id, reason) for p, reason in done.dropped)
    assert why["p00"] == "a near-duplicate of p01" and why["p04"].startswith("the 8 clearest tie-call")
    out = io.StringIO()
    assert main(["puzzles", "thin", "--dry-run", str(tmp_path)], out=out) == 0
    assert len(list(tmp_path.iterdir())) == len(puzzles)
    assert f"{len(kept)} kept, {len(done.dropped)} dropped" in out.getvalue()
    assert main(["puzzles", "thin", str(tmp_path)], out=io.StringIO()) == 0
    assert sorted(p.stem for p in tmp_path.iterdir()) == sorted(kept)
