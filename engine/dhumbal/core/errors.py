"""The engine's two refusals: an illegal action, and a position that cannot exist.

Both are ``ValueError`` subclasses. ``IllegalAction`` carries a stable code and
parameters (its text comes from the catalogs); ``PositionError`` carries one
English sentence naming the field at fault. ``dhumbal.play.deal`` re-exports both.
"""

from __future__ import annotations

from collections.abc import Sequence

from .messages import Message, render


class IllegalAction(ValueError):
    """A refused action: ``code`` is stable, ``params`` fill its message."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        super().__init__(code)

    def __str__(self) -> str:
        return f"{self.code}: {render(self.code, self.params)}"

    def message(self) -> Message:
        return Message(self.code, self.params)

    def text(self, lang: str = "en", names: Sequence[str] | None = None, viewer: int | None = None) -> str:
        """The refusal in ``lang``, told to ``viewer`` (a seat) in the second person where it names them."""
        return self.message().text(lang, names, viewer)


class PositionError(ValueError):
    """A position that cannot exist: a duplicate card, a wrong count, a bad field."""
