"""One search index per language.

mkdocs-static-i18n writes a single index of every language at the site root
and every page searches it, so a reader of the Nepali site gets English,
French and Dutch hits, and following one would load a page of another
language through instant navigation under the Nepali header. The glue writes
``search/search_index.json`` under each language's root instead, holding that
language's pages (including untranslated pages shown in it) with that
language's lunr settings, and points each page's Material configuration at
its language root (see :mod:`dhumbal_site.plugin.build`).

Lunr settings come from the theme's language partial, as Material itself
does for a one-language site (``search.config.lang``, ``.pipeline``,
``.separator``), except that an explicit ``separator`` in the search plugin's
configuration wins. Nepali has no lunr support: its partial selects plain
lunr with an empty pipeline, so words are only split and lower-cased.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class SearchSettings:
    """The lunr configuration of one language's index."""

    lang: list[str]
    separator: str
    pipeline: list[str]
    fields: Mapping[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {
            "lang": self.lang,
            "separator": self.separator,
            "pipeline": self.pipeline,
            "fields": dict(self.fields),
        }


def parse_pipeline(value: str) -> list[str]:
    """Material's comma-separated pipeline string; blank means none."""
    return [part for part in re.split(r"\s*,\s*", value.strip()) if part]


def split_entries(
    entries: Iterable[Mapping[str, Any]], prefixes: Mapping[str, str], default: str
) -> dict[str, list[dict[str, Any]]]:
    """Group search entries by language, locations made relative to its root.

    ``prefixes`` maps each non-default language to its folder ("fr/").
    Entries keep their order: Material expects a page before its sections.
    """
    groups: dict[str, list[dict[str, Any]]] = {default: []}
    groups.update({lang: [] for lang in prefixes})
    for entry in entries:
        location = str(entry["location"])
        for lang, prefix in prefixes.items():
            if location.startswith(prefix):
                groups[lang].append({**entry, "location": location[len(prefix) :]})
                break
        else:
            groups[default].append(dict(entry))
    return groups


def write_index(path: Path, settings: SearchSettings, entries: list[dict[str, Any]]) -> None:
    """Write one index in Material's format."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"config": settings.as_json(), "docs": entries}
    path.write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
