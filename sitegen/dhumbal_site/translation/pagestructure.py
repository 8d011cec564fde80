"""A Markdown page read as the parity check compares it: its front matter, then each
heading's section with what it holds (generated markers, tables, lists and their items,
admonitions, code blocks, words) and how its first block opens.

Read by structure, not by meaning, and the same way for every language, so that
a translated page and its English page can be laid side by side
(:mod:`dhumbal_site.translation.parity`); the terminology check reads prose with
the same patterns (code, comments and tags are not prose).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from markdown.extensions.toc import slugify

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_HEADING_ID = re.compile(r"\s*\{\s*:?\s*#([\w-]+)[^}]*\}\s*$")
_MARKER = re.compile(r"^\s*<!--\s*dhumbal:(.*?)\s*-->\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_ADMONITION = re.compile(r"^\s*(?:!!!|\?\?\?\+?)\s+[\w-]+(.*)$")
_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_CODE_SPAN = re.compile(r"`[^`]*`")
_TAG = re.compile(r"<[^>]+>")
_ATTRS = re.compile(r"\{[:#.][^}]*\}")


@dataclass
class Section:
    """One heading and what follows it up to the next heading."""

    level: int
    title: str
    slug: str
    explicit_id: bool
    line: int
    markers: list[str] = field(default_factory=list)
    tables: int = 0
    lists: int = 0
    items: int = 0
    admonitions: int = 0
    code: int = 0
    words: int = 0
    #: Where the section starts: the share of the page's words before it (0 to 1).
    start: float = 0.0
    #: Its first block: what kind (text, item, table, note, code, marker) and how many words.
    head_kind: str = ""
    head_words: int = 0

    def count(self, kind: str) -> int:
        return int(getattr(self, kind))


@dataclass
class Page:
    path: str
    front: dict[str, Any]
    sections: list[Section]

    @property
    def words(self) -> int:
        return sum(s.words for s in self.sections)

    @property
    def markers(self) -> list[str]:
        return [m for s in self.sections for m in s.markers]


def split_front_matter(text: str, path: str = "") -> tuple[dict[str, Any], str, int]:
    """(front matter, body, number of lines before the body); ``ValueError`` naming the
    file (``path``) and the line when the front matter cannot be read."""
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            head = text[4:end]
            after = text.index("\n", end + 1) + 1 if "\n" in text[end + 1 :] else len(text)
            from .frontmatter import read

            data, problems = read(text[: end + 5] + "\n")
            where = f"{path}:" if path else "line "
            if problems:
                line, what = problems[0]
                raise ValueError(f"{where}{line}: {what}")
            if not isinstance(yaml.safe_load(head) or {}, dict):
                raise ValueError(f"{where}2: the front matter is not a mapping")
            return data, text[after:], text[:after].count("\n")
    return {}, text, 0


def count_words(text: str) -> int:
    """Words of prose: links keep their text, code spans and markup do not count."""
    text = _COMMENT.sub(" ", text)
    text = _LINK.sub(r"\1", text)
    text = _CODE_SPAN.sub(" ", text)
    text = _TAG.sub(" ", text)
    text = _ATTRS.sub(" ", text)
    text = re.sub(r"[*_|#>]", " ", text)
    return sum(1 for token in re.split(r"[\s/–—]+", text) if any(ch.isalnum() for ch in token))


def parse_page(text: str, path: str = "") -> Page:
    front, body, offset = split_front_matter(text, path)
    top = Section(level=0, title="", slug="page", explicit_id=True, line=1)
    sections = [top]
    fence: str | None = None
    previous: str | None = None  # "item", "text" or None (blank)
    in_list = False
    for index, line in enumerate(body.splitlines(), start=offset + 1):
        current = sections[-1]
        fence_match = _FENCE.match(line)
        if fence is not None:
            if fence_match and fence_match.group(1)[0] == fence[0] and len(fence_match.group(1)) >= len(fence):
                fence = None
            continue
        if fence_match:
            fence = fence_match.group(1)
            current.code += 1
            in_list = False
            previous = "text"
            continue
        if not line.strip():
            previous = None
            continue
        heading = _HEADING.match(line)
        if heading:
            title = heading.group(2)
            explicit = _HEADING_ID.search(title)
            if explicit:
                title = title[: explicit.start()].strip()
            clean = re.sub(r"[*_`]", "", _LINK.sub(r"\1", title))
            sections.append(Section(
                level=len(heading.group(1)), title=clean,
                slug=explicit.group(1) if explicit else slugify(clean, "-"),
                explicit_id=bool(explicit), line=index,
            ))
            sections[-1].words += count_words(clean)
            in_list = False
            previous = "text"
            continue
        marker = _MARKER.match(line)
        if marker:
            current.markers.append(" ".join(marker.group(1).split()))
            in_list = False
            previous = "text"
            continue
        if line.lstrip().startswith("<!--"):
            continue
        if _TABLE_RULE.match(line) and "|" in line:
            current.tables += 1
            previous = "table"
            continue
        admonition = _ADMONITION.match(line)
        if admonition:
            current.admonitions += 1
            current.words += count_words(admonition.group(1).replace('"', " "))
            in_list = False
            previous = "text"
            continue
        item = _ITEM.match(line)
        if item:
            current.items += 1
            if not in_list:
                current.lists += 1
            in_list = True
            current.words += count_words(item.group(3))
            previous = "item"
            continue
        indent = len(line) - len(line.lstrip())
        if in_list and (indent >= 2 or previous == "item"):
            current.words += count_words(line)
            previous = "item"
            continue
        in_list = False
        current.words += count_words(line)
        previous = "table" if line.lstrip().startswith("|") else "text"
    if fence is not None:
        raise ValueError(f"{path}: a code block is not closed")
    total, before = sum(s.words for s in sections) or 1, 0
    for section in sections:
        section.start = before / total
        before += section.words
    _first_blocks(body, sections)
    return Page(path=path, front=front, sections=sections)


def _first_blocks(body: str, sections: list[Section]) -> None:
    """Each section's first block (:attr:`Section.head_kind`, :attr:`Section.head_words`)."""
    index, fence = 0, None  # the section
    block: list[str] = []  # the lines of its first block so far
    done = False
    for line in body.splitlines():
        if fence is None and _HEADING.match(line) and index + 1 < len(sections):
            index, block, done = index + 1, [], False
            continue
        fence_match = _FENCE.match(line)
        if fence is not None:
            if fence_match and fence_match.group(1)[0] == fence[0]:
                fence = None
            continue
        if fence_match:
            fence = fence_match.group(1)
        if done:
            continue
        section = sections[index]
        if not line.strip():
            done = bool(block)
            continue
        if not block:
            section.head_kind = ("code" if fence_match else "marker" if _MARKER.match(line) else "note" if _ADMONITION.match(line)
                                 else "item" if _ITEM.match(line) else "table" if line.lstrip().startswith("|") else "text")
        block.append(line)
        section.head_words = count_words(" ".join(block))
        done = done or fence_match is not None


def read_page(path: Path, name: str) -> Page:
    return parse_page(path.read_text(encoding="utf-8"), name)
