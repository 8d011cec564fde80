"""Marker handlers for worked examples: each example file is run by the engine
at build time and rendered step by step in the reader's language.

A file the engine contradicts fails the build with the file and line (the
``ExampleError`` text), exactly as ``python -m dhumbal check`` reports it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dhumbal import cards as C
from dhumbal.deal import Action
from dhumbal.examples import ExampleError, Walkthrough, example_files, load_file, note_text
from dhumbal.i18n import N_, number, translator
from dhumbal.view import score_rows
from dhumbal.profiles import PROFILE_KEYS

from .markers import MarkerContext
from .render import render

ROOT = Path(__file__).resolve().parents[2]
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
    """Walkthroughs run once per build (they do not depend on the language)."""

    def __init__(self) -> None:
        self._runs: dict[str, Walkthrough] = {}

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


def _table_rows(walk: Walkthrough, table: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    names = walk.names_in(lang)
    return [
        {
            "name": name,
            "cards": table["hands"][i],
            "total": number(table["totals"][i], lang),
            "turn": table["turn"] == i and table["phase"] != "over",
        }
        for i, name in enumerate(names)
    ]


def _score(walk: Walkthrough, lang: str) -> dict[str, Any] | None:
    """The deal's score rows, from the same definition the mini table uses."""
    o = walk.outcome
    if o is None:
        return None
    eliminated = None
    if walk.profile.elimination is not None and walk.scores_after is not None:
        eliminated = [s in walk.eliminated for s in range(len(walk.names))]
    rows = score_rows(o, walk.profile, lang, totals=walk.scores_after, eliminated=eliminated)
    names = walk.names_in(lang)
    return {
        "rows": [{"key": key, "label": label, "cells": [shown for _, shown in cells]} for key, label, cells in rows],
        "winner": None if o.winner is None else names[o.winner],
        "eliminated": [names[s] for s in walk.eliminated],
        "caught": o.caught,
    }


def example_context(walk: Walkthrough, lang: str) -> dict[str, Any]:
    t = translator(lang)
    names = walk.names_in(lang)
    steps = []
    for r in walk.steps:
        seat = names[r.step.seat] if r.step.seat is not None else None
        steps.append({
            "action": _action_text(r.step.action, seat or "", lang) if r.step.action is not None else None,
            "refused": t(REFUSED, reason=r.refusal.text(lang, names)) if r.refusal is not None else None,
            "refused_code": r.refusal.code if r.refusal is not None else None,
            "note": note_text(walk, r, lang),
            "events": [m.text(lang, names) for m in r.events],
            "table": _table_rows(walk, r.table, lang),
            "stock": number(r.table["stock"], lang),
            "pile": r.table["pile"][-1:] if walk.profile.draw_first else r.table["offer"],
            "over": r.table["phase"] == "over",
        })
    return {
        "id": walk.id,
        "title": t.raw(walk.title),
        "intro": t.raw(walk.intro) if walk.intro else None,
        "profile_name": t(walk.profile.name),
        "profile_key": walk.profile.key,
        "profile_text": walk.profile.canonical(),
        "dealer": names[walk.dealer],
        "start": _table_rows(walk, walk.start, lang),
        "start_stock": number(walk.start["stock"], lang),
        "start_pile": walk.start["pile"][-1:] if walk.profile.draw_first else walk.start["offer"],
        "steps": steps,
        "score": _score(walk, lang),
        "names": names,
        "state_json": json.dumps({"state": walk.start_state, "names": names}, ensure_ascii=False, separators=(",", ":")),
    }


def render_example(ctx: MarkerContext) -> str:
    if len(ctx.args) != 1:
        raise ValueError("write <!-- dhumbal:example ID -->, ID the name of a file in examples/ without .toml")
    walk = CACHE.get(ctx.args[0])
    return render("example.html", ctx.lang, ex=example_context(walk, ctx.lang), heading=ctx.options.get("heading", "3"))


def render_examples(ctx: MarkerContext) -> str:
    if ctx.args:
        raise ValueError("the examples marker takes no arguments")
    t = translator(ctx.lang)
    from dhumbal.profiles import find_profile

    groups = []
    walks = [CACHE.get(i) for i in CACHE.all_ids()]
    for key in PROFILE_KEYS:
        mine = [w for w in walks if w.profile.key == key]
        if mine:
            groups.append({
                "key": key,
                "name": t(find_profile(key).name),
                "examples": [example_context(w, ctx.lang) for w in mine],
            })
    return render("examples.html", ctx.lang, groups=groups)
