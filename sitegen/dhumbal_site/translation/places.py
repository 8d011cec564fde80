"""Where each catalog message shows, and which a reader meets first.

``locales/places.toml`` names, for every source file the catalog's messages come
from (a ``*`` matches any file name), the place on the site where they show; a place
may name some of a file's ``msgids``, which then take it before the file's own place.
``make catalogs`` writes each entry's places into the template as a translator comment
(``#. Where: the mini table's buttons under the reader's hand (…).``), which ``pybabel
update`` carries into every catalog and Weblate shows beside the string; a message
whose source no place names stops ``make catalogs`` with the file to add.

Places marked ``first`` are what a reader meets on the first page they open: the
page's frame (the notice on a page not translated yet, the edit link), the mini table's
heading, Play, its first-run guide, its buttons and status line. ``make new-language``
and the translation status page list those messages first, in the file's order, then
the rest: a new language reads as one around its untranslated text once they are done
(the German translator found "Not translated yet" among 934 entries by chance).
"""

from __future__ import annotations

import io
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[3]
PLACES = ROOT / "locales" / "places.toml"
TEMPLATE = ROOT / "locales" / "dhumbal.pot"
#: How a place's comment starts in a catalog entry.
WHERE = "Where: "


@dataclass(frozen=True)
class Place:
    source: str
    shows: str
    first: bool
    msgids: frozenset[str] | None
    #: The place's rank in the file (the order first strings are listed in).
    rank: int


def load(path: Path = PLACES) -> list[Place]:
    """The places, in the file's order; ``ValueError`` naming an entry that lacks its fields."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for rank, entry in enumerate(data.get("place", [])):
        if not entry.get("source") or not entry.get("shows"):
            raise ValueError(f"{path.name}: place {rank + 1} needs a source and what it shows")
        msgids = entry.get("msgids")
        out.append(Place(str(entry["source"]), str(entry["shows"]), bool(entry.get("first", False)),
                         frozenset(msgids) if msgids else None, rank))
    return out


def _ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, (tuple, list)) else [message.id]


def places_of(message: Message, places: list[Place]) -> list[Place]:
    """The places of one message: for each file it comes from, the place naming the message,
    else the file's place. Empty when a file has no place."""
    out: list[Place] = []
    msgid = _ids(message)[0]
    for filename, _line in message.locations:
        matching = [p for p in places if fnmatchcase(filename, p.source)]
        named = [p for p in matching if p.msgids is not None and msgid in p.msgids]
        chosen = named[:1] or [p for p in matching if p.msgids is None][:1]
        out += [p for p in chosen if p not in out]
    return out


def unplaced(catalog: Catalog, places: list[Place]) -> list[str]:
    """The source files of ``catalog``'s messages that no place names."""
    files = {filename for m in catalog if m.id for filename, _ in m.locations}
    return sorted(f for f in files if not any(fnmatchcase(f, p.source) and p.msgids is None for p in places))


def annotate(template: Path = TEMPLATE, path: Path = PLACES) -> list[str]:
    """Write each entry's places into ``template`` as a translator comment (replacing the old
    one); returns the source files no place names (the template is then left as it was)."""
    places = load(path)
    with template.open("rb") as fh:
        catalog = read_po(fh)
    missing = unplaced(catalog, places)
    if missing:
        return missing
    for message in catalog:
        if not message.id:
            continue
        where = "; ".join(p.shows for p in places_of(message, places))
        message.auto_comments = [c for c in message.auto_comments if not c.startswith(WHERE)] + [f"{WHERE}{where}."]
    out = io.BytesIO()
    # as `pybabel extract --omit-header --sort-output --add-location=file --no-wrap` writes it
    write_po(out, catalog, width=0, omit_header=True, sort_output=True, include_lineno=False)
    template.write_bytes(out.getvalue())
    return []


def first_messages(template: Catalog, path: Path = PLACES) -> list[str]:
    """The msgids (first form) a reader meets first, in the order of their first place."""
    places = load(path)
    ranked = []
    for message in template:
        if not message.id:
            continue
        firsts = [p.rank for p in places_of(message, places) if p.first]
        if firsts:
            ranked.append((min(firsts), _ids(message)[0]))
    return [msgid for _, msgid in sorted(ranked, key=lambda r: r[0])]


def reading_order(template: Catalog, msgids: Iterable[str], path: Path = PLACES) -> tuple[list[str], list[str]]:
    """``msgids`` split into those a reader meets first (in their places' order) and the rest
    (in the order given)."""
    wanted = list(msgids)
    first = [m for m in first_messages(template, path) if m in set(wanted)]
    chosen = set(first)
    return first, [m for m in wanted if m not in chosen]


def main(argv: list[str] | None = None) -> int:
    """``python -m dhumbal_site.translation.places annotate``: exit 1, naming each file, when a
    message's source has no place in ``locales/places.toml``."""
    args = sys.argv[1:] if argv is None else argv
    if args != ["annotate"]:
        print("usage: python -m dhumbal_site.translation.places annotate")
        return 2
    try:
        missing = annotate()
    except (ValueError, tomllib.TOMLDecodeError) as error:
        print(f"error: locales/places.toml: {error}")
        return 1
    for source in missing:
        print(f"error: {source}: its messages show nowhere locales/places.toml says: add a [[place]] "
              "naming the file and where its strings show (first = true if a reader meets them on the first page)")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
