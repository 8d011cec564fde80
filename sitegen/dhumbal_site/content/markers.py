"""Expansion of ``<!-- dhumbal:NAME ARGS -->`` markers in page Markdown.

Writers put generated content (comparison tables, worked examples, the
glossary) into their pages with a marker on a line of its own. The marker is
an HTML comment so that a page still reads sensibly in any Markdown viewer.
The build replaces it with what the registered handler returns, in the
reader's language. Everything that can go wrong (an unknown name, bad
arguments, a handler that raises) fails the build with the page file and the
line, because a silently missing table is worse than a failed build.

Markers inside fenced code blocks are left alone so that pages can show the
syntax. A marker indented inside a block (an admonition, a tab, a list item)
gets its expansion indented the same way, so it stays inside that block.

A handler returns Markdown (or HTML that Markdown passes through), or an
:class:`HTMLBlock`: finished HTML that skips Markdown altogether. The page
then holds a placeholder comment where the block goes, and the build puts
the block in after Markdown (see ``SiteBuild.on_page_content``). The worked
examples and the comparison are large generated HTML: parsing them again as
Markdown, for card tokens and for the search index was most of the site's
build time, and none of those passes can change them.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import PluginError

from dhumbal.core.profiles import PROFILE_KEYS, Profile, ProfileError, find_profile

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

#: A line that is exactly one dhumbal comment (possibly indented).
_MARKER_LINE = re.compile(
    r"^(?P<indent>[ \t]*)<!--\s*dhumbal:(?P<body>.*?)\s*-->[ \t]*$"
)
#: A line that begins like a marker (to catch markers not alone on a line).
_MARKER_START = re.compile(r"^[ \t]*<!--\s*dhumbal:")
#: NAME then optional arguments.
_MARKER_BODY = re.compile(r"^(?P<name>[a-z][a-z0-9_-]*)(?:\s+(?P<args>.*))?$", re.S)
#: An opening or closing code fence.
_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})(?P<rest>.*)$")
#: ``key=value`` arguments; the key is an identifier.
_OPTION = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)=(?P<value>.*)$", re.S)


@dataclass(frozen=True)
class MarkerContext:
    """Everything a handler may use to render one marker."""

    #: The marker name, e.g. ``"example"``.
    name: str
    #: Positional arguments (shell-like quoting: ``"two words"`` is one).
    args: tuple[str, ...]
    #: ``key=value`` arguments.
    options: Mapping[str, str]
    #: The argument text exactly as written.
    raw_args: str
    #: The reader's language: the language of the site being built
    #: (``en``, ``fr``, ``nl`` or ``ne``). Generated text is in this language.
    lang: str
    #: The language the page's Markdown is written in. It differs from
    #: ``lang`` only on a page that is not translated yet, which shows the
    #: English text (with a notice) in the other languages.
    source_lang: str
    #: The page's source path relative to ``docs/``, e.g. ``fr/glossary.md``.
    src_path: str
    #: The 1-based line of the marker in that file.
    lineno: int
    page: Page = field(repr=False)
    config: MkDocsConfig = field(repr=False)
    files: Files = field(repr=False)

    def profile(self) -> Profile:
        """The one profile the marker names (``<!-- dhumbal:NAME PROFILE -->``), or a ValueError saying how to write it."""
        if len(self.args) != 1:
            raise ValueError(f"write <!-- dhumbal:{self.name} PROFILE -->, PROFILE one of {', '.join(PROFILE_KEYS)}")
        try:
            return find_profile(self.args[0])
        except ProfileError as exc:
            raise ValueError(str(exc)) from None

    @property
    def where(self) -> str:
        """``file:line`` of the marker, for messages."""
        return f"{self.src_path}:{self.lineno}"


#: What a handler is: a context in, Markdown or HTML out.
MarkerHandler = Callable[[MarkerContext], str]


class HTMLBlock(str):
    """Finished HTML from a handler, placed into the page after Markdown.

    ``search`` is what the search index reads in its place: the block's
    words without its pictures (card faces, diagrams), with its headings
    kept so that search results still point into it. By default it is the
    HTML itself.
    """

    search: str

    def __new__(cls, html: str, *, search: str | None = None) -> HTMLBlock:
        block = super().__new__(cls, html)
        block.search = html if search is None else search
        return block


#: ``stash(block) -> key``: keeps an :class:`HTMLBlock` for after Markdown.
BlockStash = Callable[[HTMLBlock], str]
#: The placeholder a stashed block leaves in the Markdown (a comment, which
#: Markdown passes through as it is, inside admonitions and lists too).
BLOCK_PLACEHOLDER = "<!-- dhumbal-block {key} -->"
BLOCK_PATTERN = re.compile(r"<!-- dhumbal-block (?P<key>[\w.-]+) -->")


@dataclass(frozen=True)
class Marker:
    """One marker found in a page."""

    name: str
    raw_args: str
    args: tuple[str, ...]
    options: Mapping[str, str]
    indent: str
    #: 0-based index of the line in the Markdown given to :func:`find_markers`.
    index: int

    @property
    def text(self) -> str:
        """The marker as written, spacing normalised: ``<!-- dhumbal:example k-pair -->``."""
        return "<!-- dhumbal:" + " ".join(f"{self.name} {self.raw_args}".split()) + " -->"


def parse_marker_args(raw: str) -> tuple[tuple[str, ...], dict[str, str]]:
    """Split marker arguments into positional ones and ``key=value`` options.

    >>> parse_marker_args('dashain-basic seats=4 title="Two words"')
    (('dashain-basic',), {'seats': '4', 'title': 'Two words'})
    """
    args: list[str] = []
    options: dict[str, str] = {}
    for token in shlex.split(raw, comments=False, posix=True):
        match = _OPTION.match(token)
        if match:
            key = match.group("key")
            if key in options:
                raise ValueError(f"option {key!r} given twice")
            options[key] = match.group("value")
        else:
            args.append(token)
    return tuple(args), options


def find_markers(markdown: str, *, where: Callable[[int], str]) -> list[Marker]:
    """Return the markers of a page, outside fenced code blocks.

    ``where(index)`` names a 0-based line for error messages.
    """
    markers: list[Marker] = []
    fence: str | None = None
    for index, line in enumerate(markdown.splitlines()):
        fence_match = _FENCE.match(line)
        if fence is None:
            if fence_match:
                fence = fence_match.group("fence")
                continue
        else:
            if (
                fence_match
                and fence_match.group("fence")[0] == fence[0]
                and len(fence_match.group("fence")) >= len(fence)
                and not fence_match.group("rest").strip()
            ):
                fence = None
            continue

        line_match = _MARKER_LINE.match(line)
        if not line_match:
            if _MARKER_START.match(line):
                raise PluginError(
                    f"{where(index)}: a marker must be alone on its line and "
                    f"closed on it ('<!-- dhumbal:NAME ARGS -->'), got {line.strip()!r}"
                )
            continue
        body_match = _MARKER_BODY.match(line_match.group("body"))
        if not body_match:
            raise PluginError(
                f"{where(index)}: malformed marker {line.strip()!r}: expected "
                "'<!-- dhumbal:NAME ARGS -->' with a lower-case NAME"
            )
        raw_args = (body_match.group("args") or "").strip()
        try:
            args, options = parse_marker_args(raw_args)
        except ValueError as error:
            raise PluginError(
                f"{where(index)}: cannot read the arguments of marker "
                f"'dhumbal:{body_match.group('name')}': {error}"
            ) from error
        markers.append(
            Marker(
                name=body_match.group("name"),
                raw_args=raw_args,
                args=args,
                options=MappingProxyType(options),
                indent=line_match.group("indent"),
                index=index,
            )
        )
    return markers


def source_line_offset(source: str | None, markdown: str) -> int:
    """How many lines of the source file precede ``markdown`` (front matter).

    MkDocs hands plugins the page body without its YAML front matter; marker
    line numbers must still point into the file the writer edits.
    """
    if not source:
        return 0
    return max(0, len(source.splitlines()) - len(markdown.splitlines()))


def expand_markers(
    markdown: str,
    *,
    handlers: Mapping[str, MarkerHandler],
    page: Page,
    config: MkDocsConfig,
    files: Files,
    lang: str,
    source_lang: str,
    source: str | None = None,
    stash: BlockStash | None = None,
) -> str:
    """Replace every marker in ``markdown`` by its handler's output.

    With ``stash``, an :class:`HTMLBlock` is handed to it and replaced by a
    placeholder (:data:`BLOCK_PLACEHOLDER`); without, it goes into the
    Markdown like any other output.
    """
    src_path = page.file.src_uri
    offset = source_line_offset(source, markdown)

    def where(index: int) -> str:
        return f"{src_path}:{index + 1 + offset}"

    markers = find_markers(markdown, where=where)
    if not markers:
        return markdown

    lines = markdown.splitlines()
    # Replace from the bottom up so earlier indexes stay valid.
    for marker in reversed(markers):
        handler = handlers.get(marker.name)
        if handler is None:
            known = ", ".join(sorted(handlers)) or "none yet"
            raise PluginError(
                f"{where(marker.index)}: unknown marker 'dhumbal:{marker.name}' "
                f"(registered: {known}; handlers are listed in "
                "sitegen/dhumbal_site/content/registry.py)"
            )
        ctx = MarkerContext(
            name=marker.name,
            args=marker.args,
            options=marker.options,
            raw_args=marker.raw_args,
            lang=lang,
            source_lang=source_lang,
            src_path=src_path,
            lineno=marker.index + 1 + offset,
            page=page,
            config=config,
            files=files,
        )
        try:
            output: Any = handler(ctx)
        except Exception as error:
            raise PluginError(
                f"{ctx.where}: marker 'dhumbal:{marker.name}' failed "
                f"({type(error).__name__}): {error}"
            ) from error
        if not isinstance(output, str):
            raise PluginError(
                f"{ctx.where}: marker 'dhumbal:{marker.name}' returned "
                f"{type(output).__name__}, expected str"
            )
        if stash is not None and isinstance(output, HTMLBlock):
            output = BLOCK_PLACEHOLDER.format(key=stash(output))
        block = [
            marker.indent + text if text.strip() else ""
            for text in output.strip("\n").splitlines()
        ]
        lines[marker.index : marker.index + 1] = ["", *block, ""]

    trailing_newline = "\n" if markdown.endswith("\n") else ""
    return "\n".join(lines) + trailing_newline
