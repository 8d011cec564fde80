"""What a worked example is once the engine has run it: its steps and their results.

:mod:`dhumbal.worked.examples` reads a file into these; :mod:`dhumbal.worked.examplesteps`
runs and checks each step; :mod:`dhumbal.worked.examplenotes` fills the notes; the
site draws a :class:`Walkthrough` step by step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.messages import Message
from ..core.profiles import Profile
from ..play.deal import Action, IllegalAction, Outcome


@dataclass
class Step:
    index: int
    line: int | None
    seat: int | None
    action: Action | None
    expect: dict[str, Any]
    refused: str | None
    note: str | None


@dataclass
class StepResult:
    step: Step
    events: list[Message]
    refusal: IllegalAction | None
    table: dict[str, Any]  # the table after the step, as JSON-ready data
    state: dict[str, Any] = field(default_factory=dict)  # the whole deal after the step (records.state_to_json)


@dataclass
class Walkthrough:
    id: str
    path: str
    title: str
    intro: str | None
    profile: Profile
    names: list[str]
    dealer: int
    start: dict[str, Any]
    start_state: dict[str, Any]
    steps: list[StepResult] = field(default_factory=list)
    outcome: Outcome | None = None
    scores_before: list[int] | None = None
    scores_after: list[int] | None = None
    eliminated: list[int] = field(default_factory=list)
    table_options: dict[str, Any] = field(default_factory=dict)
    #: Per language, the seats' names as that language writes them (``[names] ne = {…}``).
    display: dict[str, list[str]] = field(default_factory=dict)

    unseen: frozenset[int] = frozenset()  # seats whose hands the reader does not see until the show

    def names_in(self, lang: str) -> list[str]:
        """The seats' names as shown in ``lang``: its display names, else the file's names."""
        return self.display.get(lang, self.names)


def display_names(walk: Walkthrough, lang: str) -> list[str]:
    """The seats' names as a reader of ``lang`` sees them (the one place that says so)."""
    return list(walk.names_in(lang))
