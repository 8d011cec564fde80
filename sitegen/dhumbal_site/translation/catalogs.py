"""The gettext catalogs: compile them into the engine package and check them.

Sources of truth: ``locales/dhumbal.pot`` (extracted by ``make catalogs``) and
``locales/<lang>/LC_MESSAGES/dhumbal.po``. Compiled ``.mo`` files go into
``engine/dhumbal/locale/`` so the engine (at build time and, inside the wheel,
in the browser) reads the same translations.

Checks (used by the build and by ``make test``): every template message is
translated in every catalog, nothing is fuzzy, ``{name}`` and ``%(name)s``
placeholders match the original, and no markup or script can enter through a
translation.

Placeholders are read with Python's own ``string.Formatter``, the parser that
fills them at run time: a translation may use only the fields its original
has, each written plainly (``{total}``), never with a format spec
(``{total:>99999999}``), a conversion (``{seat!r}``), an index
(``{seat[0]}``), a positional field (``{0}``, ``{}``) or an unbalanced brace.
Every translation is refused if it holds markup (any tag, whatever its
spacing: ``<svg/onload=…>``), an event handler (``"/onfocus=``), attribute
syntax (``x="…"``) or a script URL; and translations of the messages that land
inside HTML attribute values (:func:`attribute_msgids`) may not hold quotes or
angle brackets at all. Every renderer escapes translations for where they land
as well: these checks keep a bad catalog out of the build, the escaping keeps
any text that slips through inert.
"""

from __future__ import annotations

import datetime
import io
import os
import re
import string
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from .. import ROOT
from .commandline import arguments, parser
from .pofile import CatalogError, Scanned, scan, shown, text_shown

LOCALES = ROOT / "locales"
DOMAIN = "dhumbal"
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
PACKAGE_LOCALE = ROOT / "engine" / "dhumbal" / "locale"
#: The creation date written into every compiled catalog (reproducible .mo files).
MO_DATE = datetime.datetime(1980, 1, 1, tzinfo=datetime.UTC)

_PERCENT = re.compile(r"%\(([A-Za-z_][A-Za-z0-9_]*)\)[sdif]")
#: A field name as the sources write them: ``{total}``, or a worked example's
#: note field ``{total.A}`` (filled by the examples module, not by format()).
_FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9][A-Za-z0-9_]*)?")
#: Markup or script, whatever the spacing or quoting around it: a tag opening
#: (``<svg/onload``, ``< img``, ``</p``, ``<!--``), an event handler after any
#: non-letter (``"/onfocus=``, ``;onclick =``), attribute syntax
#: (``tabindex="0"``) and script or data URLs (``java\tscript:``).
#
#: Every part is linear in the text's length (possessive quantifiers, a name
#: matched only from its first character): a 4 MB translation is checked in
#: one pass, not in time that grows with the square of its length.
_UNSAFE = re.compile(
    r"<\s*+(?:[/!?]\s*+)?[A-Za-z]"
    r"|(?<![A-Za-z0-9])on[A-Za-z]++\s*+="
    r"|(?<![\w:-])(?=[\w:-]*?[A-Za-z])[\w:-]++\s*+=\s*+[\"'`]"
    r"|(?:j\s*+a\s*+v\s*+a|v\s*+b)\s*+s\s*+c\s*+r\s*+i\s*+p\s*+t\s*+:"
    r"|\bdata\s*+:[^,\s;:]*+[;,]",
    re.I,
)
#: What may never appear in a translation that lands in an attribute value.
#: Every such value is escaped and double-quoted, so this is a second wall; the
#: apostrophe stays allowed, since French and Dutch need it in running text
#: (l'as, d'un, 's avonds) and escaping turns it into &#x27; anyway.
_ATTRIBUTE_UNSAFE = frozenset("\"<>`")


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    msgid: str
    what: str
    #: A translation that must not be compiled (markup, bad placeholders, a broken
    #: entry), as opposed to one that is only incomplete (missing, fuzzy).
    unsafe: bool = False

    @property
    def incomplete(self) -> bool:
        """Work not done yet (a message missing, untranslated or fuzzy), rather than something wrong."""
        return not self.unsafe and self.what.startswith(("missing from", "not translated", "fuzzy"))

    def __str__(self) -> str:
        if not self.msgid:
            return f"{self.path}:{self.line}: {self.what}"
        return f"{self.path}:{self.line}: {self.what}: {text_shown(self.msgid)}"


def languages() -> list[str]:
    """Languages that have a catalog, in a fixed order."""
    return sorted(p.parent.parent.name for p in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


_READ: dict[tuple[str, str | None], tuple[tuple[int, int], Scanned, Catalog]] = {}


def read_scanned(path: Path, lang: str | None = None) -> tuple[Scanned, Catalog]:
    """The catalog at ``path`` as far as it can be read: the scan (with its problems, one per
    broken entry) and Babel's catalog of every other entry. Read once while the file stays
    the same (treat both as read-only); ``CatalogError`` only for a file that cannot be read."""
    try:
        st = path.stat()
        stamp: tuple[int, int] | None = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = None
    key = (str(path), lang)
    if stamp is not None and key in _READ and _READ[key][0] == stamp:
        return _READ[key][1], _READ[key][2]
    scanned = scan(path, ROOT)  # size, encoding, syntax, header, repeated msgids
    try:
        catalog = read_po(io.BytesIO(scanned.data), locale=lang, abort_invalid=True)
    except Exception as exc:  # babel raises several types for broken files
        line = getattr(exc, "lineno", None) or 1
        raise CatalogError(f"{shown(path, ROOT)}:{line}: cannot read catalog: {str(exc)[:200]}") from None
    if stamp is not None:
        _READ[key] = (stamp, scanned, catalog)
    return scanned, catalog


def read_catalog(path: Path, lang: str | None = None) -> Catalog:
    """The catalog at ``path``; ``CatalogError`` listing every problem if any entry is broken."""
    scanned, catalog = read_scanned(path, lang)
    if scanned.problems:
        raise CatalogError("\n".join(scanned.problems))
    return catalog


def _ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, (tuple, list)) else [message.id]


def _strs(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, (tuple, list)) else [message.string or ""]


def placeholders(text: str) -> set[str]:
    """The fields of ``text`` (``{name}`` and ``%(name)s``), as far as they can be read."""
    return fields(text)[0] | {f"%({n})" for n in _PERCENT.findall(text)}


def fields(text: str) -> tuple[set[str], list[str]]:
    """The ``{…}`` fields of ``text`` read by ``string.Formatter``, and what is wrong with them.

    Returns the field names and a list of problems: anything but a plain
    field (``{total}``, or an example note's ``{total.A}``) is one.
    """
    names: set[str] = set()
    problems: list[str] = []
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        return names, [f"unbalanced braces ({exc}); write a literal brace as {{{{ or }}}}"]
    for _literal, name, spec, conversion in parsed:
        if name is None:
            continue
        shown = "{" + name + ("!" + conversion if conversion else "") + (":" + spec if spec else "") + "}"
        if name == "" or name.isdigit():
            problems.append(f"positional field {shown}: name the field as the original does")
        elif "[" in name or "]" in name:
            problems.append(f"indexed field {shown}: use the field as the original does")
        elif "." in name and not _FIELD_NAME.fullmatch(name):
            problems.append(f"attribute access in {shown}: use the field as the original does")
        elif not _FIELD_NAME.fullmatch(name):
            problems.append(f"field {shown} is not a plain name")
        if conversion:
            problems.append(f"conversion in {shown}: fields are filled as they are, without !r, !s or !a")
        if spec:
            problems.append(f"format spec in {shown}: fields take no format spec")
        names.add(name)
    return names, problems


def unsafe_text(text: str, *, attribute: bool = False) -> str | None:
    """Why ``text`` may not be shown as a translation (``None`` if it may)."""
    match = _UNSAFE.search(text)
    if match:
        return f"markup or script in a translation ({match.group(0)!r})"
    if attribute:
        bad = sorted(set(text) & _ATTRIBUTE_UNSAFE)
        if bad:
            return ("double quotes, backticks or angle brackets in a translation shown inside an HTML "
                    f"attribute ({' '.join(bad)}); use typographic quotes such as « » or “ ”")
    return None


def attribute_msgids() -> frozenset[str]:
    """Msgids whose translations are placed inside HTML attribute values
    (``aria-label``, ``title``, ``data-label-*``): the engine's table
    (:data:`dhumbal.view.table.ATTRIBUTE_MSGIDS`) and the site glue's
    (:data:`dhumbal_site.strings.ATTRIBUTE_MSGIDS`)."""
    from dhumbal.view.table import ATTRIBUTE_MSGIDS as table

    from ..strings import ATTRIBUTE_MSGIDS as glue

    return frozenset(table) | frozenset(glue)


def check_catalog(lang: str, template: Catalog | None = None) -> list[Problem]:
    """Everything wrong with one language's catalog (empty when it is complete and safe)."""
    path = po_path(lang)
    rel = shown(path, ROOT)
    scanned, cat = read_scanned(path, lang)
    problems: list[Problem] = []
    for problem in scanned.problems:  # "path:line: what", one per broken entry
        where, _, what = problem.partition(": ")
        problems.append(Problem(rel, int(where.rpartition(":")[2] or 0), "", what, unsafe=True))
    in_attributes = attribute_msgids()
    if template is not None:
        for tm in template:
            if not tm.id:
                continue
            if (tm.context, _ids(tm)[0]) in scanned.broken:
                continue  # reported above, where the file breaks
            if cat.get(tm.id, tm.context) is None:
                # no line of its own in the catalog: the template's line names the message
                problems.append(Problem(shown(TEMPLATE, ROOT), tm.lineno or 1, _ids(tm)[0],
                                        f"missing from {rel} (run make catalogs)"))
    for m in cat:
        if not m.id:
            continue
        line = m.lineno or 0
        first = _ids(m)[0]
        strs = _strs(m)
        if m.fuzzy:
            problems.append(Problem(rel, line, first, "fuzzy: review and clear the fuzzy flag"))
        if not all(strs):
            problems.append(Problem(rel, line, first, "not translated"))
            continue
        expected = set().union(*(placeholders(i) for i in _ids(m)))
        attribute = any(i in in_attributes for i in _ids(m))
        for s in strs:
            found = placeholders(s)
            for what in fields(s)[1]:
                problems.append(Problem(rel, line, first, "placeholders: " + what, unsafe=True))
            if found != expected:
                missing = sorted(expected - found)
                extra = sorted(found - expected)
                detail = []
                if missing:
                    detail.append("missing " + ", ".join("{" + x + "}" for x in missing))
                if extra:
                    detail.append("unknown " + ", ".join("{" + x + "}" for x in extra))
                problems.append(Problem(rel, line, first, "placeholders differ: " + "; ".join(detail), unsafe=True))
            why = unsafe_text(s, attribute=attribute)
            if why:
                problems.append(Problem(rel, line, first, why, unsafe=True))
            if "<" in s and "<" not in "".join(_ids(m)):
                problems.append(Problem(rel, line, first, "HTML tag in a translation whose original has none", unsafe=True))
        if template is not None and template.get(m.id, m.context) is None:
            problems.append(Problem(rel, line, first, "not in the template any more (run make catalogs)"))
    return problems


def _fresh(mo: Path, po: Path) -> bool:
    """Whether ``mo`` was compiled (or checked) from ``po`` as it is now."""
    try:
        return mo.stat().st_mtime_ns >= po.stat().st_mtime_ns
    except OSError:
        return False


def compile_catalogs(langs: Iterable[str] | None = None) -> list[Path]:
    """Write ``.mo`` files into the engine package; a broken ``.po`` raises ``CatalogError``."""
    written = []
    for lang in langs or languages():
        out = PACKAGE_LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if _fresh(out, po_path(lang)):
            written.append(out)
            continue
        cat = read_catalog(po_path(lang), lang)
        unsafe = [p for p in check_catalog(lang) if p.unsafe]
        if unsafe:
            raise CatalogError("\n".join(str(p) for p in unsafe))
        # The catalogs carry no header dates (--omit-header), so Babel would
        # stamp the current minute into the .mo; a fixed date keeps the same
        # sources giving the same bytes, and an unchanged file is not
        # rewritten: the engine wheel, keyed by a hash of the package, is then
        # rebuilt only when something really changed.
        cat.creation_date = MO_DATE
        buffer = io.BytesIO()
        write_mo(buffer, cat, use_fuzzy=False)
        data = buffer.getvalue()
        written.append(out)
        if out.exists() and out.read_bytes() == data:
            os.utime(out)  # checked against this version of the catalog
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.replace(out)
    if langs is None:
        # a compiled catalog whose source is gone must not ship in the wheel
        for stale in PACKAGE_LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"):
            if not po_path(stale.parent.parent.name).exists():
                stale.unlink()
    # a long-lived process (mkdocs serve) must read the new files, not its cache
    from dhumbal.core import i18n

    i18n.translations.cache_clear()
    i18n.translator.cache_clear()
    i18n.available_languages.cache_clear()
    return written


def partial_languages() -> frozenset[str]:
    """The languages still being translated (their missing messages are warnings): those
    ``mkdocs.yml`` marks so, and those it does not know yet (:func:`new_languages`);
    none when there is no ``mkdocs.yml`` beside ``locales/``."""
    config = LOCALES.parent / "mkdocs.yml"
    if not config.is_file():
        return frozenset()
    from ..languages import partial_codes

    return partial_codes(config) | new_languages()


def new_languages() -> frozenset[str]:
    """The languages with a catalog but no block in ``mkdocs.yml``: started where only the
    catalog is made (Weblate's "Start new translation"), and not set up yet by ``make
    new-language``. They are being translated, and said to be new."""
    config = LOCALES.parent / "mkdocs.yml"
    if not config.is_file():
        return frozenset()
    from ..languages import configured

    return frozenset(languages()) - {lang.code for lang in configured(config)}


#: What a contributor who cannot translate a new message does (CONTRIBUTING.md says more).
CANNOT_TRANSLATE = ("a message added in English needs its French, Dutch and Nepali before it can land: "
                    "translate it, or open the pull request as it is and ask for translations in it "
                    "(CONTRIBUTING.md, \"A message you cannot translate\")")


def translated_share(lang: str) -> tuple[int, int]:
    """(translated, total) messages of the template in ``lang``'s catalog (its readable entries)."""
    template = read_catalog(TEMPLATE)
    cat = read_scanned(po_path(lang), lang)[1]
    total = done = 0
    for tm in template:
        if not tm.id:
            continue
        total += 1
        m = cat.get(tm.id, tm.context)
        if m is not None and not m.fuzzy and all(_strs(m)):
            done += 1
    return done, total


def english_name(lang: str) -> str:
    """The language's English name, from the Unicode CLDR (``fr`` → French), or its code."""
    from babel.core import Locale, UnknownLocaleError

    try:
        return Locale.parse(lang, sep="-").get_display_name("en") or lang
    except (UnknownLocaleError, ValueError):
        return lang


def normalize_headers() -> None:
    """Give every catalog the project's header (``pybabel update`` brings back template placeholders).

    Dates are left out: they change on every update and would make two
    branches that each add messages conflict on the header alone.
    """
    for lang in languages():
        path = po_path(lang)
        text = scan(path, ROOT).data.decode("utf-8")
        head, sep, body = text.partition("\n\n")
        keep = [ln for ln in head.splitlines() if ln.startswith('"') and not ln.startswith(('"Report-Msgid-Bugs-To', '"Last-Translator', '"Project-Id-Version', '"Language-Team', '"POT-Creation-Date', '"PO-Revision-Date'))]
        name = english_name(lang)
        new_head = "\n".join([
            f"# {name} translations of the Dhumbal site and engine.",
            "# This file is distributed under the same license as the Dhumbal project.",
            "#",
            'msgid ""',
            'msgstr ""',
            '"Project-Id-Version: Dhumbal\\n"',
            *keep,
            f'"Language-Team: {name}\\n"',
        ])
        path.write_text(new_head + sep + body, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """``python -m dhumbal_site.translation.catalogs compile|check [--root DIR]|normalize``: a broken
    catalog is reported in one line naming the file and the line (exit 1), never with a traceback."""
    options = arguments(parser("catalogs", "Compile, check or normalize the message catalogs.", root=ROOT,
                               commands=("compile", "check", "normalize")), argv)
    if options is None:
        return 2
    if options.command != "check" and options.root != ROOT:
        print("catalogs: --root goes with check only (compile and normalize work on this copy of the project)")
        return 2
    try:
        if options.command == "compile":
            for p in compile_catalogs():
                print(f"compiled {shown(p, ROOT)}")
            return 0
        if options.command == "normalize":
            normalize_headers()
            return 0
    except CatalogError as error:
        print(error, file=sys.stderr)
        return 1
    if options.root != ROOT:
        return _check_under(options.root)
    bad = 0
    try:
        template = read_catalog(TEMPLATE) if TEMPLATE.exists() else None
    except CatalogError as error:
        for line in str(error).splitlines():
            print(f"error: {line}")
        template, bad = None, 1
    partial, new = partial_languages(), new_languages()
    untranslated = False
    for lang in languages():
        # a catalog that cannot be read is one problem; the others are still checked
        try:
            problems = check_catalog(lang, template)
            done, total = translated_share(lang) if template is not None else (0, 0)
        except CatalogError as error:
            for line in str(error).splitlines():
                print(f"error: {line}")
            print(f"{lang}: cannot be read, 1 problem(s)")
            bad += 1
            continue
        warned = [p for p in problems if lang in partial and p.incomplete]
        for problem in problems:
            print(f"warning: {problem}" if problem in warned else f"error: {problem}")
        untranslated = untranslated or any(p.incomplete and p not in warned for p in problems)
        bad += len(problems) - len(warned)
        todo = f", {len(warned)} warning(s) (being translated)" if warned else ""
        print(f"{lang}: {done}/{total} translated, {len(problems) - len(warned)} problem(s){todo}")
        if lang in new:
            print(f"{lang}: new: run `make new-language CODE={lang}` (its catalog was started without its pages "
                  "and mkdocs.yml block; until then what it lacks is a warning)")
    if untranslated:
        print(f"note: {CANNOT_TRANSLATE}")
    return 1 if bad else 0


def _check_under(root: Path) -> int:
    """``check`` of the catalogs of another copy of the project (``check --root DIR``)."""
    global ROOT, LOCALES, TEMPLATE
    kept = ROOT, LOCALES, TEMPLATE
    ROOT, LOCALES = root, root / "locales"
    TEMPLATE = LOCALES / f"{DOMAIN}.pot"
    try:
        return main(["check"])
    finally:
        ROOT, LOCALES, TEMPLATE = kept


if __name__ == "__main__":
    raise SystemExit(main())
