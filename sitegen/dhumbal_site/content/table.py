"""Each page's mini table, pre-rendered at build time by the engine's renderer.

Every page ends with a table where the reader plays against bots. Its first
state is drawn here by :func:`dhumbal.table.web.prerender` (which uses
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

Without a ``seed`` in the front matter the reader gets a fresh random deal
on every visit (the engine picks the seed when Play is pressed), so the
pre-rendered table shows the shape of a deal with every card face down: a
seed derived from the page's path (the same in every language) lays it out.
A front-matter seed, or an example's position, is exact: its cards show.

The HTML goes to the page template as ``dhumbal_table`` (see
``overrides/partials/dhumbal-table.html``), after the page content and
outside it, so the search index never holds the table.

Near the top of every rules page (and of the home page) a "play" link leads
to that table (:meth:`PageTables.on_post_page`), with "Continue your game"
before it, shown by the table script when the reader has a game in progress
on this device: it is put into the
written page after the article's heading (not into the searchable
content, and the Markdown stays untouched), and
it is a plain link to the table, which the table script turns into "scroll
there, start the engine and focus the table".
"""

from __future__ import annotations

import html as html_lib
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import PluginError

from dhumbal.core.i18n import N_, translator

from ..languages import current_language, folder_codes

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

TABLE_ID = "dh-table"
DEFAULT_PROFILE = "nepali-games"
TABLE_KEYS = frozenset({"profile", "options", "seed", "difficulty", "example"})
PLAY_PROFILE = N_("Play these rules against the bots")
PLAY_HOME = N_("Play a deal against the bots")
HOME_PAGES = frozenset({"index.md"})
_FIRST_H1 = re.compile(r"</h1>", re.I)


def page_seed(src_uri: str) -> int:
    """A stable seed for a page: its path without the language folder."""
    return zlib.crc32(_without_language(src_uri).encode("utf-8")) % 1_000_000 + 1


@dataclass(frozen=True)
class TableSpec:
    """What one page's table plays."""

    profile: str
    options: Mapping[str, object]
    seed: int
    difficulty: str
    example: str | None = None
    exact_seed: bool = False  # the front matter chose the seed: the deal is shown as it is


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
    return TableSpec(profile, dict(options), seed, str(difficulty), example, exact_seed="seed" in raw)


@dataclass
class PageTables:
    """Renders each page's table; keeps what it loaded for one build."""

    repo_root: Path
    examples: dict[str, tuple[dict[str, Any], dict[str, list[str]]]] = field(default_factory=dict)
    #: What Play downloads the first time (Pyodide and the engine), said on the table.
    download_bytes: int = 0

    def example(self, example_id: str, lang: str) -> tuple[dict[str, Any], list[str]]:
        """An example's starting position and its seats' names as ``lang`` writes them."""
        if example_id not in self.examples:
            from dhumbal.worked.examples import load_file

            path = self.repo_root / "examples" / f"{example_id}.toml"
            if not path.exists():
                raise ValueError(f"there is no worked example {example_id!r} (examples/{example_id}.toml)")
            walk = load_file(path)
            self.examples[example_id] = (walk.start_state, {"": list(walk.names), **walk.display})
        state, names = self.examples[example_id]
        return state, names.get(lang, names[""])

    def render(self, page: Page, config: MkDocsConfig) -> str:
        """The pre-rendered table for ``page`` in the language being built."""
        from dhumbal.table import protocol, web
        from dhumbal.view.table import position_attrs

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
                    download_bytes=self.download_bytes,
                )
            profile = protocol.read_profile(spec.profile, spec.options)
            difficulty = protocol.read_difficulty(spec.difficulty)
            return web.prerender(
                lang=lang, profile=profile, seed=spec.seed, difficulty=difficulty, table_id=TABLE_ID,
                attrs={"data-seed": str(spec.seed)} if spec.exact_seed else {},
                face_down=not spec.exact_seed, download_bytes=self.download_bytes,
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

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        """Put the link to the page's table after the article's heading on a rules page or the home
        page (into the written page, after the search index has read the content)."""
        return play_link(output, page.meta or {}, page.file.src_uri, current_language(config))


def _without_language(src_uri: str) -> str:
    """The page's path without its language folder (``hi/rules/dashain.md`` → ``rules/dashain.md``)."""
    parts = src_uri.split("/")
    return "/".join(parts[1:]) if len(parts) > 1 and parts[0] in folder_codes() else src_uri


def play_link(html: str, meta: Mapping[str, Any], src_uri: str, lang: str) -> str:
    """``html`` with a "play" link to the table after its first ``</h1>`` (rules pages and the home page)."""
    profile = meta.get("dhumbal_profile")
    if profile is None and _without_language(src_uri) not in HOME_PAGES:
        return html
    article = html.find("<article")
    found = _FIRST_H1.search(html, max(article, 0))
    if found is None:
        return html
    from dhumbal.view.loader import CONTINUE

    t = translator(lang)
    label = t(PLAY_PROFILE) if profile is not None else t(PLAY_HOME)
    key = html_lib.escape(str(profile or ""), quote=True)
    # "Continue your game" comes first, hidden until the table script finds the
    # reader's game in progress on this device (browser/table/offers.ts): then it
    # is the primary button, and the link to play these rules a quieter one.
    link = (f'<p class="dh-play-link">'
            f'<a class="md-button md-button--primary dh-play-continue" href="#{TABLE_ID}-play" data-dh-play-continue'
            f' hidden>{html_lib.escape(t(CONTINUE))}</a>'
            f'<a class="md-button md-button--primary dh-play-profile" href="#{TABLE_ID}-play"'
            f' data-dh-play-profile="{key}">{html_lib.escape(label)}</a></p>')
    return html[: found.end()] + link + html[found.end():]
