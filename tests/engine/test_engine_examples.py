"""The worked-example loader: every file in examples/ passes; each failure kind is reported well."""

from __future__ import annotations

from pathlib import Path

import pytest

from dhumbal.play.records import state_from_json
from dhumbal.worked.examples import ExampleError, example_files, load_file, load_text
from tests.engine.rules_kit import EXAMPLE_TEXT

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def line_no(text: str, needle: str) -> int:
    return next(i + 1 for i, ln in enumerate(text.splitlines()) if needle in ln)


def fails(text: str) -> ExampleError:
    with pytest.raises(ExampleError) as info:
        load_text(text, "inline.toml")
    err = info.value
    assert str(err).startswith("inline.toml")
    return err


def test_examples_directory_is_not_empty() -> None:
    assert len(example_files([EXAMPLES])) >= 10


@pytest.mark.parametrize("path", example_files([EXAMPLES]), ids=lambda p: p.name)
def test_every_example_file_passes(path: Path) -> None:
    walk = load_file(path)
    assert walk.steps and walk.title


def test_the_base_example_passes() -> None:
    walk = load_text(EXAMPLE_TEXT, "inline.toml")
    assert [s.refusal.code if s.refusal else None for s in walk.steps] == [None, None, "call-after-draw"]


def test_invalid_toml_reports_its_line() -> None:
    text = EXAMPLE_TEXT.replace('dealer = "B"', "dealer = B")
    err = fails(text)
    assert err.line == line_no(text, "dealer = B")
    assert "not valid TOML" in str(err)


def test_unknown_key_is_named_with_its_line() -> None:
    text = EXAMPLE_TEXT.replace('dealer = "B"', 'dealer = "B"\ncolour = "red"')
    err = fails(text)
    assert "unknown key 'colour'" in str(err) and err.line == line_no(text, "colour")


def test_unknown_step_key_is_named() -> None:
    text = EXAMPLE_TEXT.replace('refused = "call-after-draw"', 'refused = "call-after-draw"\nwhy = "because"')
    err = fails(text)
    assert "unknown key 'why'" in str(err)


def test_unknown_card_is_named() -> None:
    err = fails(EXAMPLE_TEXT.replace('pile = "9♣"', 'pile = "9X"'))
    assert "'9X'" in str(err) and "impossible position" in str(err)


def test_duplicate_card_is_an_impossible_position() -> None:
    err = fails(EXAMPLE_TEXT.replace('pile = "9♣"', 'pile = "A♠"'))
    assert "impossible position" in str(err) and "A♠ appears twice" in str(err)


def test_unknown_seat_in_an_action_is_named_with_its_line() -> None:
    text = EXAMPLE_TEXT.replace('act = "A: take stock"', 'act = "Z: take stock"')
    err = fails(text)
    assert "'Z' is not a seat" in str(err) and "A, B" in str(err)
    assert err.line == line_no(text, "Z: take stock")


def test_unknown_seat_as_dealer_is_named() -> None:
    err = fails(EXAMPLE_TEXT.replace('dealer = "B"', 'dealer = "Q"'))
    assert "'Q' is not a seat" in str(err)


def test_unreadable_action_is_reported_with_its_line() -> None:
    text = EXAMPLE_TEXT.replace('act = "A: throw K♠ K♥"', 'act = "A: juggle K♠ K♥"')
    err = fails(text)
    assert "cannot read action 'juggle K♠ K♥'" in str(err) and "step 2" in str(err)
    assert err.line == line_no(text, "juggle")


def test_contradicted_expectation_says_expected_and_found_at_the_right_line() -> None:
    text = EXAMPLE_TEXT.replace('expect = { total.A = 5, pile_top = "K♥" }', 'expect = { total.A = 6, pile_top = "K♥" }')
    err = fails(text)
    assert "expected 6, found 5" in str(err) and "total.A" in str(err) and "step 2" in str(err)
    assert err.line == line_no(text, "total.A = 6")
    assert str(err).startswith(f"inline.toml:{err.line}:")


def test_contradicted_expectation_on_a_multi_line_step() -> None:
    text = EXAMPLE_TEXT.replace(
        'expect = { total.A = 5, pile_top = "K♥" }',
        'note = "kings out"\n\n[steps.expect]\ntotal.A = 5\npile_top = "K♠"',
    )
    err = fails(text)
    assert "pile_top: expected 'K♠', found 'K♥'" in str(err)
    assert err.line == line_no(text, 'pile_top = "K♠"')


def test_refused_expected_but_accepted() -> None:
    text = EXAMPLE_TEXT.replace('act = "A: take stock"\nexpect = { total.A = 25 }', 'act = "A: take stock"\nrefused = "must-take-first"')
    err = fails(text)
    assert "expected refusal 'must-take-first', but the engine accepted take stock" in str(err)
    assert err.line == line_no(text, "A: take stock")


def test_accepted_expected_but_refused() -> None:
    text = EXAMPLE_TEXT.replace('act = "A: call"\nrefused = "call-after-draw"', 'act = "A: call"')
    err = fails(text)
    assert "expected call to be legal, but the engine refused it (call-after-draw" in str(err)
    assert err.line == line_no(text, "A: call")


def test_wrong_refusal_code_is_reported() -> None:
    err = fails(EXAMPLE_TEXT.replace('refused = "call-after-draw"', 'refused = "over-call-limit"'))
    assert "expected refusal 'over-call-limit', found 'call-after-draw'" in str(err)


def test_unknown_profile_and_option_are_reported() -> None:
    assert "unknown profile 'poker'" in str(fails(EXAMPLE_TEXT.replace('profile = "nepali-games"', 'profile = "poker"')))
    err = fails(EXAMPLE_TEXT.replace('dealer = "B"', 'dealer = "B"\noptions = { colour = 1 }'))
    assert "no option 'colour'" in str(err)


def test_missing_key_is_reported() -> None:
    assert "missing key 'steps'" in str(fails(EXAMPLE_TEXT.split("[[steps]]")[0]))


def test_expectation_of_an_outcome_before_the_deal_ends() -> None:
    err = fails(EXAMPLE_TEXT.replace("expect = { total.A = 25 }", "expect = { winner = \"A\" }"))
    assert "expected a finished deal" in str(err)


def test_bad_file_path_is_reported() -> None:
    with pytest.raises(ExampleError, match="cannot read"):
        load_file(EXAMPLES / "no-such-example.toml")


def test_unseen_hands_name_seats_of_the_example() -> None:
    walk = load_text(EXAMPLE_TEXT.replace('dealer = "B"', 'dealer = "B"\nunseen = ["B"]'), "inline.toml")
    assert walk.unseen == frozenset({1})
    text = EXAMPLE_TEXT.replace('dealer = "B"', 'dealer = "B"\nunseen = ["Z"]')
    err = fails(text)
    assert err.line == line_no(text, "unseen") and "'Z' is not a seat" in str(err)
    err = fails(EXAMPLE_TEXT.replace('dealer = "B"', 'dealer = "B"\nunseen = "B"'))
    assert "unseen must be a list" in str(err)


def test_each_step_records_the_whole_deal_after_it() -> None:

    walk = load_text(EXAMPLE_TEXT, "inline.toml")
    after_throw = state_from_json(walk.steps[1].state)
    assert after_throw.total(0) == 5 and after_throw.pile_top is not None
    # a refused step leaves the deal as it was
    assert walk.steps[2].state == walk.steps[1].state
