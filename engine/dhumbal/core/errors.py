"""The engine's refusals, and a position that cannot exist.

A :class:`Refusal` is something the engine will not do for a reason it can
say to a reader: a stable ``code``, its ``params``, and :meth:`Refusal.text`
in any language, seat numbers named from ``names`` and in the second person
for ``viewer``. Each kind of refusal has its own table of sentences
(:meth:`Refusal.template`): an illegal action (:class:`IllegalAction`, here),
a request the table cannot serve (``dhumbal.table.protocol.RequestError``),
input a table typed that cannot be settled (``dhumbal.matches.tally.TallyError``),
a score sheet that cannot be read (``dhumbal.matches.scoresheet.SheetError``),
a profile or house rule that does not exist (``dhumbal.core.profiles.ProfileError``).
A caller shows any of them the same way, without asking which it is.

``PositionError`` is not a refusal: it carries one English sentence naming
the field at fault in a position built by hand (a developer's file, a
link's data), never shown to a reader as such. ``dhumbal.play.deal``
re-exports both the deal's errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .i18n import translator
from .messages import Message, render, seat_name


class Refusal(ValueError):
    """A refusal: ``code`` is stable, ``params`` fill its sentence (see the module docstring)."""

    #: The parameters that hold a seat number, named in the text from ``names``.
    SEAT_PARAMS: frozenset[str] = frozenset({"seat"})
    #: The deal (from 1) and the match seat the refusal is about, where it names them
    #: (a score sheet's: the page marks them).
    deal: int | None = None
    seat: int | None = None

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params: dict[str, object] = params

    def template(self) -> str:
        """The msgid of the refusal's sentence."""
        raise NotImplementedError(f"{type(self).__name__} names no sentence for {self.code!r}")

    def shown_params(self, lang: str, names: Sequence[str] | None) -> Mapping[str, object]:
        """The parameters as the sentence shows them: seats by their names."""
        return {k: seat_name(v, names, lang) if k in self.SEAT_PARAMS and isinstance(v, int) and not isinstance(v, bool)
                else v for k, v in self.params.items()}

    def text(self, lang: str = "en", names: Sequence[str] | None = None, viewer: int | None = None) -> str:
        """The refusal in ``lang``, told to ``viewer`` (a seat) in the second person where it names them."""
        return translator(lang)(self.template(), **self.shown_params(lang, names))

    def __str__(self) -> str:
        return f"{self.code}: {self.text()}"


class IllegalAction(Refusal):
    """A refused action: its sentence is the engine message of the same code (:mod:`dhumbal.core.messages`)."""

    def __str__(self) -> str:
        return f"{self.code}: {render(self.code, self.params)}"

    def message(self) -> Message:
        return Message(self.code, self.params)

    def text(self, lang: str = "en", names: Sequence[str] | None = None, viewer: int | None = None) -> str:
        return self.message().text(lang, names, viewer)


class PositionError(ValueError):
    """A position that cannot exist: a duplicate card, a wrong count, a bad field."""
