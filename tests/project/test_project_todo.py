"""What a language still lacks is counted once in the run's summary, never a warning.

A partial fifth language made ``make check`` print 826 pytest warnings, one per
string still to translate, and a contributor's real warning was lost among
them (tests/todo.py says how the notes travel to the summary).
"""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import pytest

from tests import sitekit, todo


def test_a_language_being_translated_is_noted_once_per_item_and_warns_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sitekit, "PARTIAL_LANGUAGES", frozenset({"de"}))
    first, second = SimpleNamespace(user_properties=[]), SimpleNamespace(user_properties=[])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for item, lacking in ((first, ["Play", "Hint", "Play"]), (second, ["Hint", "Throw"])):
            todo.CURRENT.append(item)
            try:
                assert sitekit.warn_of("de", lacking) == []  # the test goes on
                todo.note("stale", "fr", ["fr/index.md: out of date"] if item is first else [])
            finally:
                todo.CURRENT.pop()
    found: dict[tuple[str, str], set[str]] = {}
    for item in (first, second):
        todo.collect(item.user_properties, found)
    assert list(todo.summary(found)) == [
        "de is being translated: 3 thing(s) still to translate",
        "fr: 1 page(s) out of date with their English page",
        "(not failures: make check-catalogs lists each with its file and line)",
    ]


def test_a_complete_language_still_fails_on_what_it_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sitekit, "PARTIAL_LANGUAGES", frozenset())
    monkeypatch.setattr(sitekit, "SITE_LANGUAGES", (*sitekit.SITE_LANGUAGES, "de"))
    assert sitekit.warn_of("de", ["Play"]) == ["Play"]


def test_a_language_started_on_weblate_is_being_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalog with no block in mkdocs.yml yet (as Weblate starts a language) is noted, not failed."""
    monkeypatch.setattr(sitekit, "PARTIAL_LANGUAGES", frozenset())
    assert "it" not in sitekit.SITE_LANGUAGES
    todo.CURRENT.append(SimpleNamespace(user_properties=[]))
    try:
        assert sitekit.warn_of("it", ["Play"]) == []
    finally:
        todo.CURRENT.pop()


def test_a_run_with_nothing_to_do_says_nothing() -> None:
    assert list(todo.summary({})) == []
    running = todo.CURRENT[:]
    todo.CURRENT.clear()
    try:
        todo.note("partial", "de", ["Play"])  # outside a test: nowhere to note, and no error
    finally:
        todo.CURRENT[:] = running
