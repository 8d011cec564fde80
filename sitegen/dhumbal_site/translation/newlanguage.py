"""``make new-language CODE=xx``: every mechanical step of adding a language, at once.

What a translator would otherwise do by hand, each step skipped when it is
already done (so the command can be run again after an interruption):

1. the catalog ``locales/<code>/LC_MESSAGES/dhumbal.po``, from the template,
   with the language's plural rule (Babel's ``init``);
2. every English page copied to ``docs/<code>/``, each recording the English
   version it copies (``dhumbal_source``, see freshness.py): a copy is *not
   translated yet* until its text changes, so the site shows the current
   English page there, marked as English, with a notice in the language;
3. the language's block in ``mkdocs.yml`` (its name in its own words from
   the Unicode CLDR, ``site_name`` and ``site_description`` to translate, the
   theme language, the palette and navigation labels to translate), marked
   ``dhumbal_partial``: what is not translated yet is then a warning in the
   checks, not a failure; and the language in the header's language list;
4. Material's interface strings, when Material has none for the language:
   its English ones copied to ``overrides/partials/languages/<code>.html``;
5. the glossary skeleton: an empty ``<code> = { term = "", definition = "" }``
   line in every ``[[term]]`` of ``locales/glossary.toml``.

It ends by listing every glossary entry still to write (all of them, with
their lines), then the catalog's messages a reader meets first (the page's
frame, the mini table's controls and guide; ``locales/places.toml``), each
with its line, and what to translate next. The site builds at once: every
page shows in English with the notice until it is translated.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

from .. import ROOT
from .commandline import arguments, parser

_CODE = re.compile(r"^[a-z]{2,3}(?:-[A-Z][a-z]{3})?(?:-[A-Z]{2})?$")


class Refusal(ValueError):
    """The language cannot be added: one sentence saying why."""


def language_names(code: str) -> tuple[str, str]:
    """(the language's name in its own words, its English name), from the CLDR through Babel."""
    from babel.core import Locale, UnknownLocaleError

    try:
        locale = Locale.parse(code, sep="-")
    except (UnknownLocaleError, ValueError):
        raise Refusal(f"{code!r} is not a language code the Unicode CLDR knows (try a two-letter code such as de or hi)") from None
    own = locale.get_display_name(locale) or code
    return own[:1].upper() + own[1:], locale.get_display_name("en") or code


def _catalog(root: Path, code: str, english: str) -> str:
    po = root / "locales" / code / "LC_MESSAGES" / "dhumbal.po"
    if po.exists():
        return f"kept {po.relative_to(root)} (it exists)"
    from babel.messages.frontend import CommandLineInterface

    pybabel = CommandLineInterface()
    pybabel.run(["pybabel", "-q", "init", "-i", str(root / "locales" / "dhumbal.pot"),  # type: ignore[no-untyped-call]  # Babel's command line is untyped
                 "-d", str(root / "locales"), "-D", "dhumbal", "-l", code.replace("-", "_"), "--no-wrap"])
    made = root / "locales" / code.replace("-", "_") / "LC_MESSAGES" / "dhumbal.po"
    if made != po:
        po.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(made), po)
    text = po.read_text(encoding="utf-8")
    head, sep, body = text.partition("\n\n")
    keep = [ln for ln in head.splitlines() if ln.startswith('"') and not ln.startswith(
        ('"Report-Msgid-Bugs-To', '"Last-Translator', '"Project-Id-Version', '"Language-Team', '"POT-Creation-Date', '"PO-Revision-Date'))]
    po.write_text("\n".join([
        f"# {english} translations of the Dhumbal site and engine.",
        "# This file is distributed under the same license as the Dhumbal project.",
        "#", 'msgid ""', 'msgstr ""', '"Project-Id-Version: Dhumbal\\n"', *keep, f'"Language-Team: {english}\\n"',
    ]) + sep + body, encoding="utf-8")
    return f"wrote {po.relative_to(root)} (every message to translate)"


def _pages(root: Path, code: str) -> str:
    from .freshness import source_hash, with_hash

    english, target = root / "docs" / "en", root / "docs" / code
    copied = kept = 0
    for page in sorted(english.rglob("*.md")):
        out = target / page.relative_to(english)
        if out.exists():
            kept += 1
            continue
        text = page.read_text(encoding="utf-8")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(with_hash(text, source_hash(text)), encoding="utf-8")
        copied += 1
    note = f", kept {kept} that exist" if kept else ""
    return f"copied {copied} English pages to docs/{code}/{note} (each shows in English, with a notice, until translated)"


def _block(code: str, name: str, english: str, config: str) -> str:
    description = re.search(r"^site_description: >-\n((?:  .*\n)+)", config, re.M)
    described = "".join("          " + line for line in description.group(1).splitlines(True)) if description else "            Dhumbal\n"
    return (
        f"        - locale: {code}\n"
        f"          name: {name}\n"
        f"          build: true\n"
        f"          # Still being translated (make new-language): what is not translated yet is a\n"
        f"          # warning in the checks, not a failure. Remove these two lines once the\n"
        f"          # translation status page says the language is complete.\n"
        f"          extra:\n"
        f"            dhumbal_partial: true\n"
        f"          # The site's name and description in {english}: translate them.\n"
        f"          site_name: Dhumbal\n"
        f"          site_description: >-\n"
        f"{described}"
        f"          theme:\n"
        f"            language: {code}\n"
        f"            # The two colour-scheme buttons' names: translate them.\n"
        f"            palette:\n"
        f"              - toggle:\n"
        f"                  name: Switch to dark mode\n"
        f"              - toggle:\n"
        f"                  name: Switch to light mode\n"
        f"          # The navigation's two section names: translate the values.\n"
        f"          nav_translations:\n"
        f"            Home: Home\n"
        f"            Rules: Rules\n"
    )


def _config(root: Path, code: str, name: str, english: str) -> str:
    from ..languages import configured

    path = root / "mkdocs.yml"
    text = path.read_text(encoding="utf-8")
    if code in {lang.code for lang in configured(path)}:
        return "kept the mkdocs.yml block (the language is configured)"
    lines = text.splitlines(True)
    # the i18n plugin's languages: insert after the last line of its last block
    start = next((i for i, line in enumerate(lines) if re.match(r"^\s+languages:\s*$", line)
                  and any(re.match(r"^\s+- locale:", later) for later in lines[i + 1:i + 3])), None)
    if start is None:
        raise Refusal("mkdocs.yml: the i18n plugin's languages list was not found")
    item = len(lines[start + 1]) - len(lines[start + 1].lstrip())
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) >= item):
        end += 1
    while not lines[end - 1].strip():
        end -= 1
    lines[end:end] = [_block(code, name, english, text)]
    text = "".join(lines)
    # the header's language list (extra.alternate), after its last entry
    alternate = re.search(r"^  alternate:\n(?:(?:    .*)?\n)+", text, re.M)
    if alternate and f"lang: {code}\n" not in alternate.group(0):
        body = alternate.group(0).rstrip("\n") + "\n"
        text = text.replace(alternate.group(0).rstrip("\n") + "\n",
                            body + f"    - name: {name}\n      link: /{code}/\n      lang: {code}\n", 1)
    path.write_text(text, encoding="utf-8")
    return f"added the {code} block to mkdocs.yml (name {name}; site_name, description and labels to translate)"


def _material(root: Path, code: str) -> str:
    found = importlib.util.find_spec("material")  # Material ships no type information: found, not imported
    if found is None or found.origin is None:
        raise SystemExit("Material for MkDocs is not installed: run make setup")
    theirs = Path(found.origin).parent / "templates" / "partials" / "languages"
    if (theirs / f"{code}.html").exists():
        return f"Material has interface strings for {code}: nothing to copy"
    ours = root / "overrides" / "partials" / "languages" / f"{code}.html"
    if ours.exists():
        return f"kept {ours.relative_to(root)} (it exists)"
    ours.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(theirs / "en.html", ours)
    return f"copied Material's English interface strings to {ours.relative_to(root)}: translate every value"


def _glossary(root: Path, code: str) -> str:
    path = root / "locales" / "glossary.toml"
    lines = path.read_text(encoding="utf-8").split("\n")
    out: list[str] = []
    added = 0
    entry: list[str] = []

    def flush() -> None:
        nonlocal added
        if entry and entry[0].strip() == "[[term]]" and not any(line.startswith(f"{code} = ") for line in entry):
            last = max((i for i, line in enumerate(entry) if re.match(r"^[a-z]{2,3}(?:[-_][A-Za-z]+)? = \{", line)), default=None)
            if last is not None:
                entry.insert(last + 1, f'{code} = {{ term = "", definition = "" }}')
                added += 1
        out.extend(entry)
        entry.clear()

    for line in lines:
        if line.strip().startswith("[["):
            flush()
        entry.append(line)
    flush()
    path.write_text("\n".join(out), encoding="utf-8")
    return f"added an empty {code} line to {added} glossary entries" if added else "kept the glossary (every entry has a line)"


def add(code: str, root: Path = ROOT) -> list[str]:
    """Every step for ``code``; returns one line per step. ``Refusal`` if the code cannot be added."""
    if not _CODE.match(code):
        raise Refusal(f"{code!r} is not a language code: write it as the i18n plugin does (de, hi, pt-BR)")
    if code == "en":
        raise Refusal("English is the site's reference language")
    name, english = language_names(code)
    return [
        _catalog(root, code, english),
        _pages(root, code),
        _config(root, code, name, english),
        _material(root, code),
        _glossary(root, code),
    ]


def first_strings(code: str, root: Path = ROOT) -> list[str]:
    """The catalog's untranslated messages a reader meets first, one line each with its line in
    the language's catalog, grouped under where they show (``locales/places.toml``)."""
    from babel.messages.pofile import read_po

    from .places import load, places_of

    po = root / "locales" / code / "LC_MESSAGES" / "dhumbal.po"
    if not (root / "locales" / "places.toml").is_file():
        return []
    with po.open("rb") as fh:
        catalog = read_po(fh, locale=code.replace("-", "_"))
    places = load(root / "locales" / "places.toml")
    shown = po.relative_to(root).as_posix()
    groups: dict[int, list[str]] = {}
    for message in catalog:
        strings = message.string if isinstance(message.string, (tuple, list)) else [message.string]
        if not message.id or all(strings):
            continue
        first = [p for p in places_of(message, places) if p.first]
        if first:
            msgid = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
            groups.setdefault(first[0].rank, []).append(f"    {shown}:{message.lineno}: {msgid!r}")
    lines = []
    for rank in sorted(groups):
        lines.append(f"  {places[rank].shows}:")
        lines += groups[rank]
    return lines


def next_steps(code: str, root: Path = ROOT) -> list[str]:
    """What the translator does next, the glossary entries to write listed all at once, then the
    catalog's messages a reader meets first."""
    from .glossary import glossary_gaps

    gaps = glossary_gaps(root / "locales" / "glossary.toml", ["en", code]).get(code, [])
    steps = [f"{len(gaps)} glossary entries to write (term and definition, in locales/glossary.toml):"]
    steps += [f"  locales/{gap}" for gap in gaps]
    first = first_strings(code, root)
    if first:
        count = sum(1 for line in first if line.startswith("    "))
        steps += [f"The {count} messages a reader meets first (the page's frame, the mini table's controls, "
                  "its guide): translate them first, and every page reads as your language around what is left:",
                  *first]
    steps += [
        "Then, in any order (the site builds and the checks pass meanwhile, with warnings for what is left):",
        f"  - translate the rest of the catalog locales/{code}/LC_MESSAGES/dhumbal.po (Poedit, Weblate or a "
        "text editor; each entry's comment says where it shows);",
        f"  - translate the pages in docs/{code}/, one at a time; after each: make translated PAGES={code}/<page>;",
        f"  - translate site_name, site_description and the labels of the {code} block in mkdocs.yml;",
        "  - look at it with make serve; make check-catalogs lists what is left;",
        f"  - when the status page shows {code} complete, remove the dhumbal_partial lines of its mkdocs.yml block.",
    ]
    return steps


def main(argv: list[str] | None = None) -> int:
    """``python -m dhumbal_site.translation.newlanguage CODE``: exit 2 with one sentence when the code cannot be added."""
    p = parser("newlanguage", "Add a language: its catalog, its pages and its mkdocs.yml block.", root=ROOT)
    p.add_argument("code", metavar="CODE", help="a language code such as de or hi")
    options = arguments(p, argv, usage="usage: make new-language CODE=xx (a language code such as de or hi)")
    if options is None:
        return 2
    root, args = options.root, [options.code]
    try:
        steps = add(args[0], root)
    except Refusal as refusal:
        print(f"new-language: {refusal}")
        return 2
    for step in steps:
        print(f"- {step}")
    print()
    for line in next_steps(args[0], root):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
