"""Marker handlers for worked examples: each example file is run by the engine
at build time and rendered step by step in the reader's language.

A file the engine contradicts fails the build with the file and line (the
``ExampleError`` text), exactly as ``python -m dhumbal check`` reports it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Final

from markupsafe import Markup

from dhumbal.core import cards as C
from dhumbal.core.compare import rules_in_words
from dhumbal.core.i18n import N_, translator
from dhumbal.core.profiles import PROFILE_KEYS
from dhumbal.play.action import Action
from dhumbal.play.deal import Deal
from dhumbal.play.records import state_from_json
from dhumbal.view.scores import score_rows
from dhumbal.worked.examples import ExampleError, Walkthrough, display_names, example_files, load_file, note_text

from .. import ROOT
from .cards import clear_badges
from .diagram import clear_faces, diagram
from .markers import HTMLBlock, MarkerContext
from .render import block, render

EXAMPLES = ROOT / "examples"

ACTION_TEXT = {
    "call": N_("{seat}: call"),
    "take-stock": N_("{seat}: take the top card of the stock"),
    "take-pile": N_("{seat}: take the top card of the pile"),
    "take-offer": N_("{seat}: pick {card} from the previous throw"),
    "throw": N_("{seat}: throw {cards}"),
}
REFUSED = N_("Refused: {reason}")


class ExampleCache:
    """Walkthroughs run once per build (they do not depend on the language), and
    each example is rendered once per language (the rules pages and the
    examples page show the same)."""

    def __init__(self) -> None:
        self._runs: dict[str, Walkthrough] = {}
        self._rendered: dict[tuple[str, str, str], HTMLBlock] = {}
        self._positions: dict[str, list[Deal]] = {}
        self._contexts: dict[tuple[str, str], dict[str, Any]] = {}
        self._later: dict[tuple[str, str], tuple[str, str]] = {}

    def context(self, example_id: str, lang: str) -> dict[str, Any]:
        """The example in ``lang`` (``example_context``), computed once per build."""
        key = (example_id, lang)
        if key not in self._contexts:
            walk = self.get(example_id)
            if example_id not in self._positions:
                self._positions[example_id] = positions(walk)
            ex = example_context(walk, lang, self._positions[example_id])
            ex["later_file"] = self.later_boards(example_id, lang, ex)[0]
            self._contexts[key] = ex
        return self._contexts[key]

    def later_boards(self, example_id: str, lang: str, ex: dict[str, Any] | None = None) -> tuple[str, str]:
        """The file of the example's later boards in ``lang``: its name and text (``later_boards``)."""
        key = (example_id, lang)
        if key not in self._later:
            self._later[key] = later_boards(ex if ex is not None else self.context(example_id, lang), lang)
        return self._later[key]

    def rendered(self, example_id: str, lang: str, heading: str) -> HTMLBlock:
        key = (example_id, lang, heading)
        if key not in self._rendered:
            ex = self.context(example_id, lang)
            self._rendered[key] = block(
                "example.html", lang, ex=ex, heading=heading, card_tokens=False,
                search=render("example_search.html", lang, ex=ex),
            )
        return self._rendered[key]

    def get(self, example_id: str) -> Walkthrough:
        if example_id not in self._runs:
            path = EXAMPLES / f"{example_id}.toml"
            if not path.exists():
                known = ", ".join(p.stem for p in example_files([EXAMPLES]))
                raise ValueError(f"no example {example_id!r} in examples/; known: {known}")
            try:
                self._runs[example_id] = load_file(path, name=path.relative_to(ROOT).as_posix())
            except ExampleError as exc:
                raise ValueError(f"worked example failed: {exc}") from None
        return self._runs[example_id]

    def validate_all(self) -> None:
        """Forget earlier runs and run every example file; the first failure raises ``PluginError``."""
        from mkdocs.exceptions import PluginError

        self.clear()
        for example_id in self.all_ids():
            try:
                self.get(example_id)
            except ValueError as exc:
                raise PluginError(f"dhumbal: {exc}") from None

    def all_ids(self) -> list[str]:
        return [p.stem for p in example_files([EXAMPLES])]

    def clear(self) -> None:
        self._runs.clear()
        self._rendered.clear()
        self._positions.clear()
        self._contexts.clear()
        self._later.clear()
        # card names come from the catalogs, which a rebuild may have recompiled
        clear_faces()
        clear_badges()


CACHE = ExampleCache()


def _action_text(action: Action, seat: str, lang: str) -> str:
    t = translator(lang)
    if action.kind == "call":
        return t(ACTION_TEXT["call"], seat=seat)
    if action.kind == "take":
        if action.source == "stock":
            return t(ACTION_TEXT["take-stock"], seat=seat)
        if action.cards:
            return t(ACTION_TEXT["take-offer"], seat=seat, card=C.card_text(action.cards[0]))
        return t(ACTION_TEXT["take-pile"], seat=seat)
    return t(ACTION_TEXT["throw"], seat=seat, cards=C.cards_text(action.cards))


def _score(walk: Walkthrough, names: list[str], lang: str) -> dict[str, Any] | None:
    """The deal's score rows, from the same definition the mini table uses."""
    o = walk.outcome
    if o is None:
        return None
    eliminated = None
    if walk.profile.elimination is not None and walk.scores_after is not None:
        eliminated = [s in walk.eliminated for s in range(len(names))]
    rows = score_rows(o, walk.profile, lang, totals=walk.scores_after, eliminated=eliminated)
    return {
        "rows": [{"key": key, "label": label, "cells": [shown for _, shown in cells]} for key, label, cells in rows],
        "winner": None if o.winner is None else names[o.winner],
        "eliminated": [names[s] for s in walk.eliminated],
        "caught": o.caught,
    }


STEP_OF: Final = N_("Step {number} of {count}")
START: Final = N_("The position")
AT_START: Final = N_("The table at the start")
AFTER_STEP: Final = N_("The table after step {number}")


def positions(walk: Walkthrough) -> list[Deal]:
    """The deal at the start and after each step, from the engine's recorded states."""
    return [state_from_json(walk.start_state), *(state_from_json(r.state) for r in walk.steps)]


def play_states(walk: Walkthrough) -> list[dict[str, Any] | None]:
    """The position "Play from here" starts from at each panel (the start, then each step; a
    finished deal has none), the same in every language: written once per example beside the
    page code (frontend.py), fetched when the reader presses it, so that the page carries none
    of them (a rules page's nine examples held 3 KB of them, gzipped)."""
    deals = positions(walk)
    states = [walk.start_state, *(r.state for r in walk.steps)]
    return [None if deal.is_over else state for state, deal in zip(states, deals)]


def panels(walk: Walkthrough, lang: str, deals: list[Deal] | None = None) -> list[dict[str, Any]]:
    """The starting position, then one panel per step: narration and diagram, in ``lang``."""
    t = translator(lang)
    names = display_names(walk, lang)
    count = len(walk.steps)
    deals = deals if deals is not None else positions(walk)
    previous = deals[0]
    out: list[dict[str, Any]] = [{
        "label": t(START),
        "intro": t.raw(walk.intro) if walk.intro else None,
        "action": None, "refused": None, "refused_code": None, "events": [], "note": None,
        "diagram_label": t(AT_START),
        "diagram": diagram(previous, names=names, lang=lang, unseen=walk.unseen),
        "over": previous.is_over,
        "score": None,
        "playable": not previous.is_over,
    }]
    scored = False
    for r, deal in zip(walk.steps, deals[1:]):
        n = r.step.index + 1
        seat = names[r.step.seat] if r.step.seat is not None else ""
        attempt = (r.step.seat, r.step.action) if r.refusal is not None and r.step.seat is not None and r.step.action is not None else None
        over = deal.is_over
        out.append({
            "label": t(STEP_OF, number=n, count=count),
            "intro": None,
            "action": _action_text(r.step.action, seat, lang) if r.step.action is not None else None,
            "refused": t(REFUSED, reason=r.refusal.text(lang, names)) if r.refusal is not None else None,
            "refused_code": r.refusal.code if r.refusal is not None else None,
            "events": [m.text(lang, names) for m in r.events],
            "note": note_text(walk, r, lang),
            "diagram_label": t(AFTER_STEP, number=n),
            "diagram": diagram(deal, names=names, lang=lang, unseen=walk.unseen, previous=previous, attempt=attempt),
            # Drawn from the later boards' file, not the page (``later_boards``).
            "board": n,
            "over": over,
            "score": _score(walk, names, lang) if over and not scored else None,
            # "Play from here" at this step starts from this position (a finished deal has none).
            "playable": not over,
        })
        scored = scored or over
        previous = deal
    return out


#: A later board's file name: example id, language, then a hash of the text (the page names it).
LATER_NAME: Final = "{id}.{lang}.{digest}.json"


def later_boards(ex: dict[str, Any], lang: str) -> tuple[str, str]:
    """The diagrams of the steps after the first (``board`` 1, 2...), as the name and text of a
    JSON file written beside the page code (frontend.py): the page carries the first step's
    diagram and every step's words, and the stepper fetches these when the reader first
    moves on (a rules page's steps held 7.9 KB of its 26.5 KB gzipped and half of its
    elements). The file holds the example's id, language and the boards' HTML; its name
    ends in a hash of its text, so a page and a file of different builds never meet."""
    boards = [render("diagram_board.html", lang, panel=panel, ex=ex) for panel in ex["panels"][1:]]
    text = json.dumps({"id": ex["id"], "lang": lang, "boards": boards}, ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return LATER_NAME.format(id=ex["id"], lang=lang, digest=digest), text


def example_context(walk: Walkthrough, lang: str, deals: list[Deal] | None = None) -> dict[str, Any]:
    t = translator(lang)
    names = display_names(walk, lang)
    return {
        "id": walk.id,
        "title": t.raw(walk.title),
        "intro": t.raw(walk.intro) if walk.intro else None,
        "rules": rules_in_words(walk.profile, lang),
        "profile_key": walk.profile.key,
        "profile_text": walk.profile.canonical(),
        "dealer": names[walk.dealer],
        "panels": panels(walk, lang, deals),
        "names": names,
        "names_json": json.dumps(names, ensure_ascii=False),
    }


def render_example(ctx: MarkerContext) -> str:
    if len(ctx.args) != 1:
        raise ValueError("write <!-- dhumbal:example ID -->, ID the name of a file in examples/ without .toml")
    return CACHE.rendered(ctx.args[0], ctx.lang, ctx.options.get("heading", "3"))


def render_examples(ctx: MarkerContext) -> str:
    if ctx.args:
        raise ValueError("the examples marker takes no arguments")
    t = translator(ctx.lang)
    from dhumbal.core.profiles import find_profile

    groups = []
    ids = CACHE.all_ids()
    for key in PROFILE_KEYS:
        mine = [CACHE.rendered(i, ctx.lang, "3") for i in ids if CACHE.get(i).profile.key == key]
        if mine:
            groups.append({
                "key": key,
                "name": t(find_profile(key).name),
                "examples": [Markup(str(b)) for b in mine],
            })
    return block("examples.html", ctx.lang, groups=groups, card_tokens=False,
                 search=render("examples_search.html", ctx.lang, groups=groups))
