"""Each page's mini table, pre-rendered at build time by the engine's renderer.

Every page ends with a table where the reader plays against bots. Its first
state is drawn here by :func:`dhumbal.web.prerender` (which uses
:mod:`dhumbal.view`, the same code the worker runs in the browser), so the
table shows at first paint and without JavaScript; its controls stay inert
until the reader starts the engine.

What a page plays, from its front matter:

* ``dhumbal_profile: nepali-games | dashain | cardrulesplus`` (rules pages):
  a seeded deal of that profile;
* ``dhumbal_table: {profile: …, options: {…}, seed: N, difficulty: …}``
  overrides any of these, and ``dhumbal_table: {example: ID}`` starts from
  the worked example ``examples/ID.toml``'s position;
* any other page: a seeded deal of ``nepali-games``.

The seed defaults to a number derived from the page's path (the same in
every language), so each page has its own deal and a rebuild draws the same.

The HTML goes to the page template as ``dhumbal_table`` (see
``overrides/partials/dhumbal-table.html``), after the page content and
outside it, so the search index never holds the table.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import PluginError

from .languages import current_language

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

TABLE_ID = "dh-table"
DEFAULT_PROFILE = "nepali-games"
TABLE_KEYS = frozenset({"profile", "options", "seed", "difficulty", "example"})
LANGUAGE_DIRS = frozenset({"en", "fr", "nl", "ne"})


def page_seed(src_uri: str) -> int:
    """A stable seed for a page: its path without the language folder."""
    parts = src_uri.split("/")
    if len(parts) > 1 and parts[0] in LANGUAGE_DIRS:
        parts = parts[1:]
    return zlib.crc32("/".join(parts).encode("utf-8")) % 1_000_000 + 1


@dataclass(frozen=True)
class TableSpec:
    """What one page's table plays."""

    profile: str
    options: Mapping[str, object]
    seed: int
    difficulty: str
    example: str | None = None


def table_spec(meta: Mapping[str, Any], src_uri: str) -> TableSpec:
    """Read the page's front matter; ``ValueError`` explains what is wrong."""
    profile = meta.get("dhumbal_profile", DEFAULT_PROFILE)
    raw = meta.get("dhumbal_table", {}) or {}
    if not isinstance(raw, dict):
        raise ValueError("dhumbal_table must be a mapping, e.g. {profile: dashain, seed: 7}")
    unknown = set(raw) - TABLE_KEYS
    if unknown:
        raise ValueError(
            f"dhumbal_table has unknown key(s) {', '.join(sorted(unknown))}; "
            f"allowed: {', '.join(sorted(TABLE_KEYS))}"
        )
    profile = raw.get("profile", profile)
    options = raw.get("options", {}) or {}
    if not isinstance(profile, str):
        raise ValueError("the table's profile must be a profile key such as dashain")
    if not isinstance(options, dict):
        raise ValueError("dhumbal_table.options must be a mapping, e.g. {players: 3}")
    seed = raw.get("seed", page_seed(src_uri))
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError("dhumbal_table.seed must be a whole number ≥ 0")
    difficulty = raw.get("difficulty", "medium")
    example = raw.get("example")
    if example is not None and (not isinstance(example, str) or "/" in example or not example):
        raise ValueError("dhumbal_table.example must be an example id such as k-pair-discard")
    return TableSpec(profile, dict(options), seed, str(difficulty), example)


@dataclass
class PageTables:
    """Renders each page's table; keeps what it loaded for one build."""

    repo_root: Path
    examples: dict[str, tuple[dict[str, Any], dict[str, list[str]]]] = field(default_factory=dict)

    def example(self, example_id: str, lang: str) -> tuple[dict[str, Any], list[str]]:
        """An example's starting position and its seats' names as ``lang`` writes them."""
        if example_id not in self.examples:
            from dhumbal.examples import load_file

            path = self.repo_root / "examples" / f"{example_id}.toml"
            if not path.exists():
                raise ValueError(f"there is no worked example {example_id!r} (examples/{example_id}.toml)")
            walk = load_file(path)
            self.examples[example_id] = (walk.start_state, {"": list(walk.names), **walk.display})
        state, names = self.examples[example_id]
        return state, names.get(lang, names[""])

    def render(self, page: Page, config: MkDocsConfig) -> str:
        """The pre-rendered table for ``page`` in the language being built."""
        from dhumbal import protocol, web
        from dhumbal.view import position_attrs

        lang = current_language(config)
        src = page.file.src_uri
        try:
            spec = table_spec(page.meta or {}, src)
            if spec.example is not None:
                state, names = self.example(spec.example, lang)
                return web.prerender(
                    lang=lang, profile=protocol.read_profile(state.get("profile"), {}),
                    seed=0, difficulty=protocol.read_difficulty(spec.difficulty), table_id=TABLE_ID,
                    start=state, names=names, attrs=position_attrs(state, names),
                )
            profile = protocol.read_profile(spec.profile, spec.options)
            difficulty = protocol.read_difficulty(spec.difficulty)
            return web.prerender(
                lang=lang, profile=profile, seed=spec.seed, difficulty=difficulty, table_id=TABLE_ID,
                attrs={"data-seed": str(spec.seed)},
            )
        except protocol.RequestError as error:
            raise PluginError(f"{src}: the page's mini table: {error.text('en')}") from error
        except Exception as error:
            raise PluginError(
                f"{src}: the page's mini table cannot be drawn ({type(error).__name__}): {error}"
            ) from error

    def on_page_context(self, context: dict[str, Any], page: Page, config: MkDocsConfig) -> dict[str, Any]:
        context["dhumbal_table"] = self.render(page, config)
        return context
