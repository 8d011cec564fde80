"""Engine test configuration: scheduling of the long random tests, and the optional action counter."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules_kit

HERE = Path(__file__).resolve().parent

# The long random tests, heaviest first. pytest-xdist hands out consecutive runs of
# tests, large ones while much is pending and small ones near the end; run these
# last so that they go out a few at a time to whichever worker is free.
HEAVY = (
    "test_soak_random_actions_keep_every_invariant",
    "test_random_play_keeps_invariants_nepali_games",
    "test_random_play_keeps_invariants_cardrulesplus",
    "test_random_play_keeps_invariants_dashain",
    "test_bot_deals_always_terminate",
    "test_bots_do_not_peek",
    "test_bots_never_make_an_illegal_move",
    "test_dashain_lowest_allowed_limit_still_lets_a_deal_end",
    "test_bot_transcripts_do_not_depend_on_the_process",
    "test_bots_are_deterministic",
    "test_random_matches_keep_the_books",
    "test_trusted_and_checked_paths_leave_identical_states",
    "test_legal_actions_are_exactly_the_actions_refusal_accepts",
    "test_tampered_states_are_refused_or_sound",
)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = getattr(item, "originalname", item.name)
        if Path(item.path).resolve().parent != HERE or name not in HEAVY:
            return -1
        return HEAVY.index(name)

    light = [i for i in items if rank(i) < 0]
    heavy = sorted((i for i in items if rank(i) >= 0), key=rank)
    items[:] = light + heavy


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # With DHUMBAL_COUNT_ACTIONS=path set, every process appends how many random
    # actions its property tests applied (each xdist worker writes its own line).
    rules_kit.flush_count()
