"""Translation work still to do, said once at the end of a run instead of as warnings.

A language being translated (``dhumbal_partial`` in ``mkdocs.yml``) still
lacks strings, pages and glossary entries, and a complete language's page may
be out of date with its English page: neither fails a test (``make
check-catalogs`` lists each with its file and line, the status page shows
them). They were pytest warnings, one per missing string: a partial fifth
language made ``make check`` print 826 of them, and any real warning was lost
among them.

A test notes what it found (:func:`note`, or :func:`tests.sitekit.warn_of` for
a language being translated); the note travels with the test's report
(``user_properties``, which pytest-xdist carries to the controller), and the
run's summary counts the distinct items by language and kind, one line each
(:func:`summary`). A run with nothing to do prints nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

#: The test being run in this process (set by tests/conftest.py around each test's call).
CURRENT: list[object] = []
#: The name of the notes among a report's ``user_properties``.
PROPERTY = "translation-todo"
#: What each kind of note says, for one language.
KINDS = {
    "partial": "{lang} is being translated: {count} thing(s) still to translate",
    "stale": "{lang}: {count} page(s) out of date with their English page",
}


def note(kind: str, lang: str, items: Iterable[str]) -> None:
    """Note ``items`` (what ``lang`` still lacks, of ``kind``) on the running test's report."""
    found = sorted(set(items))
    if not found or not CURRENT:
        return
    properties = getattr(CURRENT[-1], "user_properties", None)
    if properties is not None:
        properties.append((PROPERTY, (kind, lang, found)))


def collect(user_properties: Iterable[tuple[str, object]], into: dict[tuple[str, str], set[str]]) -> None:
    """Add a report's notes to ``into`` (by kind and language, distinct items)."""
    for name, value in user_properties:
        if name == PROPERTY and isinstance(value, (tuple, list)) and len(value) == 3:
            kind, lang, items = value
            into.setdefault((str(kind), str(lang)), set()).update(str(i) for i in items)


def summary(found: dict[tuple[str, str], set[str]]) -> Iterator[str]:
    """One line per language and kind, then where the list is."""
    for (kind, lang), items in sorted(found.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        yield KINDS.get(kind, "{lang}: {count} " + kind).format(lang=lang, count=len(items))
    if found:
        yield "(not failures: make check-catalogs lists each with its file and line)"
