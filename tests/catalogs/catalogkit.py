"""What the catalog tests share: editing a copy of the project's files in place."""

from __future__ import annotations

from pathlib import Path


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first ``old`` in ``path`` with ``new`` (``old`` must be there); the 1-based line of the change."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
    return text.count("\n", 0, at) + 1


def catalog(project: Path, lang: str) -> Path:
    """``lang``'s catalog in the project (or copy of it) at ``project``."""
    return project / "locales" / lang / "LC_MESSAGES" / "dhumbal.po"
