"""A worked example's words: the notes filled from the engine, and the text the catalogs translate.

A step's ``note`` is prose in the file's language with fields the engine
fills (``{total.A}``, ``{paid.B}``, ``{limit}``…), so a narration never states
a number the engine did not produce; each language reads the note through
the catalogs. :func:`babel_extract` gives Babel every ``title``, ``intro``
and ``note`` of the example files as a msgid (``make catalogs``).
"""

from __future__ import annotations

import re
from typing import Any

from .examplefile import MAX_FILE_BYTES, ExampleError, parse
from .examplemodel import StepResult, Walkthrough

_NOTE_FIELD = re.compile(r"\{([a-z_]+)(?:\.([^{}]+))?\}")


def note_text(walk: Walkthrough, result: StepResult, lang: str) -> str | None:
    """A step's narration in ``lang``, with ``{total.A}``-style fields filled from the engine.

    Fields: ``total.SEAT``, ``cards.SEAT``, ``took.SEAT``, ``paid.SEAT``,
    ``hand_row.SEAT``, ``score.SEAT`` (after the step), ``limit``, ``penalty``,
    ``stock``. A narration therefore never states a number the engine did not
    produce.
    """
    from ..core.i18n import number, translator

    note = result.step.note
    if note is None:
        return None
    table = result.table
    names = walk.names
    outcome = table["outcome"]

    def fill(m: re.Match[str]) -> str:
        key, seat = m.group(1), m.group(2)
        value: object
        if seat is not None:
            if seat not in names:
                raise ExampleError(walk.path, result.step.line, f"note field {m.group(0)}: {seat!r} is not a seat")
            s = names.index(seat)
            if key == "total":
                value = table["totals"][s]
            elif key == "cards":
                value = len(table["hands"][s])
            elif key in ("took", "paid", "hand_row") and outcome is not None:
                value = outcome["hands" if key == "hand_row" else key][s]
            elif key == "score" and walk.scores_after is not None:
                value = walk.scores_after[s]
            else:
                raise ExampleError(walk.path, result.step.line, f"note field {m.group(0)} has no value at this step")
        elif key == "limit" and walk.profile.call_limit is not None:
            value = walk.profile.call_limit
        elif key == "penalty":
            value = walk.profile.penalty
        elif key == "stock":
            value = table["stock"]
        else:
            raise ExampleError(walk.path, result.step.line, f"unknown note field {m.group(0)}")
        return number(value, lang, signed=key == "paid") if isinstance(value, int) else str(value)

    return _NOTE_FIELD.sub(fill, translator(lang).raw(note))


def check_notes(walk: Walkthrough) -> None:
    """Fill every note once so that a bad field fails the check, not the page."""
    for r in walk.steps:
        note_text(walk, r, "en")


def babel_extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Any:
    """Babel extractor for example files: each ``title``, ``intro`` and step ``note`` is a msgid.

    The file is read as the check reads it (bounded, a byte-order mark
    skipped); a file that cannot be read gives nothing here, and ``python -m
    dhumbal check`` reports it.
    """
    try:
        text = fileobj.read(MAX_FILE_BYTES + 1).decode("utf-8-sig")
        if len(text.encode("utf-8")) > MAX_FILE_BYTES:
            return
        data, where = parse(text, "example")
    except (ExampleError, UnicodeDecodeError):
        return
    for key in ("title", "intro"):
        if isinstance(data.get(key), str):
            yield where.top(key) or 0, None, data[key], [f"example {key}"]
    steps = data.get("steps")
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        if isinstance(step, dict) and isinstance(step.get("note"), str):
            yield where.in_step(i, "note") or 0, None, step["note"], ["example note"]
