"""Profiles as data: values, deck, players, options, canonical text, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dhumbal.core.cards import CardError, card_text, parse_card, parse_cards
from dhumbal.core.profiles import ProfileError, find_profile, parse_profile
from dhumbal.play.deal import Deal, PositionError
from tests.engine.rules_kit import cards, position, profile


def hand_value(prof_key: str, text: str, **opts: object) -> int:
    p = profile(prof_key, **opts)
    return sum(p.value(c) for c in cards(text))


# -- card text -------------------------------------------------------------------


def test_card_text_forms_are_read_alike() -> None:
    assert parse_card("K♠") == parse_card("KS") == parse_card("ks") == parse_card("K♤")
    assert parse_card("10h") == parse_card("Th") == parse_card("10♥")
    assert card_text(parse_card("10h")) == "10♥"
    assert card_text(parse_card("Jk1")) == "Jk1" and card_text(parse_card("joker2")) == "Jk2"
    assert parse_cards("A♠, 2♥  3♦") == [parse_card("A♠"), parse_card("2♥"), parse_card("3♦")]


@pytest.mark.parametrize("text", ["", "K", "♠", "1♠0", "11♠", "KX", "Z♠", "0♥", "Jk3", "K♠♠", "10"])
def test_malformed_card_text_raises_card_error(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert repr(text) in str(info.value)


def test_card_error_names_the_bad_card_in_a_list() -> None:
    with pytest.raises(CardError, match="'QX'"):
        parse_cards("K♠ QX 2♦")


# -- values ----------------------------------------------------------------------


def test_nepali_games_values_ace_1_courts_10() -> None:
    assert hand_value("nepali-games", "A♠") == 1
    assert hand_value("nepali-games", "7♦") == 7
    assert hand_value("nepali-games", "10♣") == 10
    assert hand_value("nepali-games", "J♠ Q♥ K♦") == 30
    assert hand_value("nepali-games", "A♦ A♣ A♥ 2♦") == 5
    assert hand_value("nepali-games", "K♠ K♥ A♦ A♣ A♥") == 23


def test_nepali_games_courts_option_11_12_13() -> None:
    assert hand_value("nepali-games", "J♠ Q♥ K♦", courts="11-12-13") == 36
    assert hand_value("nepali-games", "A♠", courts="11-12-13") == 1


def test_nepali_games_joker_option_worth_0_and_54_cards() -> None:
    p = profile("nepali-games", jokers=True)
    assert p.deck_size == 54
    assert p.value(parse_card("Jk1")) == 0 and p.value(parse_card("Jk2")) == 0
    assert profile("nepali-games").deck_size == 52


def test_dashain_values_courts_11_12_13() -> None:
    assert hand_value("dashain", "J♠") == 11
    assert hand_value("dashain", "Q♥") == 12
    assert hand_value("dashain", "K♣") == 13
    assert hand_value("dashain", "A♣ 2♦ 3♠ 4♥") == 10
    assert profile("dashain").deck_size == 52


def test_dashain_has_no_jokers_option() -> None:
    with pytest.raises(ProfileError) as info:
        profile("dashain", jokers=True)
    assert info.value.code == "unknown-option"


def test_cardrulesplus_values_zero_jack() -> None:
    assert hand_value("cardrulesplus", "J♠") == 0
    assert hand_value("cardrulesplus", "Q♥") == 10
    assert hand_value("cardrulesplus", "K♦") == 10
    assert hand_value("cardrulesplus", "3♣ J♦ 2♦") == 5


def test_cardrulesplus_strict_courts_variant_11_12_13() -> None:
    assert hand_value("cardrulesplus", "J♠ Q♥ K♦", courts="11-12-13") == 36


def test_cardrulesplus_joker_variant_worth_0_and_54_cards() -> None:
    p = profile("cardrulesplus", jokers=True)
    assert p.deck_size == 54 and p.value(parse_card("Jk2")) == 0


# -- players ---------------------------------------------------------------------


@pytest.mark.parametrize("key,low,high", [("nepali-games", 2, 6), ("dashain", 2, 6), ("cardrulesplus", 2, 5)])
def test_players_range_per_profile(key: str, low: int, high: int) -> None:
    for n in range(low, high + 1):
        p = profile(key, players=n)
        d = Deal.new(p, seed=n)
        assert d.players == n
    for bad in (low - 1, high + 1):
        with pytest.raises(ProfileError) as info:
            profile(key, players=bad)
        assert info.value.code == "bad-option-value"
        assert info.value.params["option"] == "players"
        assert "players" in str(info.value)
    with pytest.raises(PositionError):
        Deal.new(profile(key), seed=1, players=high + 1)
    with pytest.raises(PositionError):
        Deal.new(profile(key), seed=1, players=1)


def test_cardrulesplus_position_with_six_seats_is_refused() -> None:
    with pytest.raises(PositionError, match="2–5"):
        position("cardrulesplus", ["A♠", "2♠", "3♠", "4♠", "5♠", "6♠"], "7♠")


def test_nepali_games_position_with_six_seats_is_fine() -> None:
    d = position("nepali-games", ["A♠", "2♠", "3♠", "4♠", "5♠", "6♠"], "7♠")
    assert d.players == 6


# -- options and canonical text ------------------------------------------------


def test_unknown_profile_is_refused_with_the_profile_list() -> None:
    with pytest.raises(ProfileError) as info:
        find_profile("yaniv")
    assert info.value.code == "unknown-profile"
    msg = str(info.value)
    assert "yaniv" in msg and "nepali-games" in msg and "dashain" in msg and "cardrulesplus" in msg


def test_profile_aliases() -> None:
    assert find_profile("Jhyaap").key == "dashain"
    assert find_profile("crp").key == "cardrulesplus"
    assert find_profile(" standard ").key == "nepali-games"


@pytest.mark.parametrize("key", ["nepali-games", "dashain", "cardrulesplus"])
def test_unknown_option_is_refused_naming_it(key: str) -> None:
    with pytest.raises(ProfileError) as info:
        find_profile(key).with_options(colour="red")
    assert info.value.code == "unknown-option"
    assert "colour" in str(info.value) and "players" in str(info.value)


@pytest.mark.parametrize(
    "key,option,value",
    [
        ("nepali-games", "cards", 6),
        ("nepali-games", "limit", 31),
        ("nepali-games", "penalty", 0),
        ("nepali-games", "courts", "0-10-10"),
        ("nepali-games", "runs", "maybe"),
        ("nepali-games", "rounds", 0),
        ("dashain", "limit", -1),
        ("dashain", "money", "-0.05"),
        ("dashain", "money", "a lot"),
        ("dashain", "first-round-call", "sometimes"),
        ("cardrulesplus", "penalty", 40),
        ("cardrulesplus", "direction", "sideways"),
        ("cardrulesplus", "limit", 41),
        ("cardrulesplus", "players", 6),
    ],
)
def test_out_of_range_option_value_names_the_option(key: str, option: str, value: object) -> None:
    with pytest.raises(ProfileError) as info:
        find_profile(key).with_options(**{option.replace("-", "_"): value})
    err = info.value
    assert err.code == "bad-option-value"
    assert err.params["option"] == option
    assert option in str(err) and "allowed" in str(err)


def test_bool_is_not_an_int_option() -> None:
    with pytest.raises(ProfileError):
        profile("nepali-games", players=True)


@pytest.mark.parametrize(
    "text,code",
    [
        ("nepali-games(runs)", "bad-profile-text"),
        ("nepali-games(runs=on,runs=off)", "bad-profile-text"),
        ("nepali games", "bad-profile-text"),
        ("(runs=on)", "bad-profile-text"),
        ("nepali-games(colour=red)", "unknown-option"),
        ("nepali-games(players=9)", "bad-option-value"),
        ("mahjong(players=4)", "unknown-profile"),
    ],
)
def test_malformed_canonical_text_is_refused(text: str, code: str) -> None:
    with pytest.raises(ProfileError) as info:
        parse_profile(text)
    assert info.value.code == code


def test_canonical_lists_only_changed_options() -> None:
    assert find_profile("nepali-games").canonical() == "nepali-games"
    p = profile("nepali-games", runs=True, players=2)
    assert p.canonical() == "nepali-games(players=2,runs=on)"
    assert parse_profile("nepali-games( runs = on , players = 2 )") == p
    assert parse_profile("cardrulesplus(set-pick=on,direction=counterclockwise)").set_pick is True


OPTION_VALUES = {
    "nepali-games": {
        "players": st.integers(2, 6), "cards": st.sampled_from(["5", "7"]), "rounds": st.integers(1, 50),
        "limit": st.integers(0, 30), "penalty": st.integers(1, 200), "courts": st.sampled_from(["10", "11-12-13"]),
        "runs": st.booleans(), "jokers": st.booleans(),
    },
    "dashain": {
        "players": st.integers(2, 6), "limit": st.integers(1, 40), "first-round-call": st.booleans(),
        "money": st.sampled_from(["0.05", "1", "0.10", "2.5"]), "rounds": st.none() | st.integers(1, 50),
    },
    "cardrulesplus": {
        "players": st.integers(2, 5), "jokers": st.booleans(), "limit": st.none() | st.integers(1, 40),
        "courts": st.sampled_from(["0-10-10", "11-12-13"]), "penalty": st.sampled_from(["25", "30"]),
        "double-penalty": st.booleans(), "set-pick": st.booleans(),
        "direction": st.sampled_from(["clockwise", "counterclockwise"]), "rounds": st.none() | st.integers(1, 50),
    },
}


@st.composite
def profiles_with_options(draw: st.DrawFn) -> object:
    key = draw(st.sampled_from(sorted(OPTION_VALUES)))
    specs = OPTION_VALUES[key]
    chosen = draw(st.lists(st.sampled_from(sorted(specs)), unique=True))
    opts = {k.replace("-", "_"): draw(specs[k]) for k in chosen}
    return profile(key, **opts)


@settings(max_examples=150, deadline=None)
@given(profiles_with_options())
def test_canonical_text_round_trips(p: object) -> None:
    from dhumbal.core.profiles import Profile

    assert isinstance(p, Profile)
    text = p.canonical()
    assert parse_profile(text) == p
    assert parse_profile(text).canonical() == text


# -- each profile one record ----------------------------------------------------------------


def test_each_profile_is_one_record_whose_parts_its_rules_carry() -> None:
    from dhumbal.core.profiles import PROFILE_KEYS, RECORDS, BotTuning, PuzzleSettings

    assert PROFILE_KEYS == ("nepali-games", "dashain", "cardrulesplus")
    prefixes = set()
    for key in PROFILE_KEYS:
        record = RECORDS[key]
        p = find_profile(key)
        assert isinstance(record.tuning, BotTuning) and isinstance(record.puzzles, PuzzleSettings)
        assert p.key == key and p.name == record.name and p.option_specs == record.specs
        assert p.tuning == record.tuning and p.puzzles == record.puzzles
        assert p.with_options(players=3).tuning == record.tuning  # house rules keep the profile's tuning
        assert all(find_profile(alias).key == key for alias in record.aliases)
        prefixes.add(record.puzzles.prefix)
    assert len(prefixes) == len(PROFILE_KEYS)


def test_a_record_without_its_tuning_is_refused() -> None:
    import dataclasses

    from dhumbal.core import profiles

    r = profiles.RECORDS["dashain"]
    with pytest.raises(TypeError, match="tuning"):
        profiles.ProfileRecord(r.key, r.name, r.aliases, r.specs, r.build, puzzles=r.puzzles)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="profile dashain: its record has no tuning"):
        profiles._registry(dataclasses.replace(r, tuning=None))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="already taken"):
        profiles._registry(r, dataclasses.replace(r, key="other"))  # its aliases and puzzle prefix are taken
    with pytest.raises(ValueError):
        profiles.BotTuning(risk=101, race=0)
    with pytest.raises(ValueError):
        profiles.PuzzleSettings(prefix="Da-1")


def test_a_profile_added_without_its_tuning_fails_at_import(tmp_path: Path) -> None:
    """The engine's package, copied, with one profile's tuning taken out of its record: importing
    it fails, naming what is missing (no bot plays with default tuning in silence)."""
    import shutil
    import subprocess
    import sys

    engine = Path(__file__).resolve().parents[2] / "engine" / "dhumbal"
    copy = tmp_path / "dhumbal"
    shutil.copytree(engine, copy, ignore=shutil.ignore_patterns("__pycache__"))
    source = (copy / "core" / "profiles.py").read_text(encoding="utf-8")
    tuned = "tuning=BotTuning(risk=60, race=10), "
    assert source.count(tuned) == 1
    (copy / "core" / "profiles.py").write_text(source.replace(tuned, ""), encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", "import dhumbal.core.profiles"], cwd=tmp_path, capture_output=True,
                         text=True, env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    assert run.returncode != 0 and "tuning" in run.stderr.splitlines()[-1], run.stderr[-500:]
    ok = subprocess.run([sys.executable, "-c", "import dhumbal.core.profiles"], cwd=engine.parent, capture_output=True,
                        text=True, env={"PYTHONPATH": str(engine.parent), "PATH": ""})
    assert ok.returncode == 0, ok.stderr[-500:]
