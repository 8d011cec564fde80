"""Reading a catalog file before Babel does: size, encoding, syntax, header and repeated msgids.

Babel's reader forgives a great deal (an unterminated string, a repeated
msgid, a stray line) and some of what it lets through breaks later: a
``Plural-Forms`` header that Python's gettext refuses, or whose expression
divides by zero, stops the build when the engine reads the compiled catalog;
a NUL inside a translation splits it into plural forms in the ``.mo`` file;
invalid UTF-8 gives a traceback. :func:`scan` reads the file first, in one
linear pass with bounded sizes. A file it cannot read at all (too large, not
UTF-8) raises :class:`CatalogError` naming the file (and the line); anything
else wrong is one problem per broken entry, ``file:line: what``, and the
scan goes on at the next entry, so that one stray quote does not hide every
other problem: the broken entries are left out of what Babel then reads
(``Scanned.data``), and the build refuses a file with any problem. Text is
quoted as Python's ``repr`` does (Devanagari stays readable, control
characters are escaped). What is checked:

* the file is at most :data:`MAX_BYTES` bytes (checked before it is read),
  each line at most :data:`MAX_LINE` characters, and it is UTF-8 (a leading
  byte-order mark is allowed and skipped);
* every line is a comment, a blank line, a keyword with one string or a
  string continuing the previous keyword; every string is terminated and
  uses only the escapes Babel reads (``\\\\ \\" \\n \\t``);
* no control character (NUL and the rest of C0 and C1, but tab and
  newline), raw or escaped, in any string;
* entries are well formed (``msgstr`` after ``msgid``, ``msgstr[i]`` only for
  plural messages, as many forms as the header's ``nplurals``) and no msgid
  appears twice in the same context, multi-line ones included;
* the ``Plural-Forms`` header, when present, is ``nplurals=N; plural=EXPR;``
  with 1 ≤ N ≤ :data:`MAX_PLURALS`, an expression of at most
  :data:`MAX_PLURAL_EXPR` characters that Python's gettext compiles, and
  whose value for every count from 0 to 1,000 (and a few large ones) is a
  form between 0 and N − 1.
"""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

#: The largest catalog file read (the project's are about 120 kB).
MAX_BYTES = 2_000_000
#: The longest line of a catalog file, in characters (``--no-wrap`` keeps a
#: message on one line; the longest is about 1,100).
MAX_LINE = 20_000
#: The most plural forms a language may declare (Arabic has six).
MAX_PLURALS = 6
#: The longest plural expression (the most complex real ones are about 150).
MAX_PLURAL_EXPR = 300
#: The counts every plural expression is tried on.
PLURAL_PROBES = (*range(0, 1001), 10_000, 99_999, 1_000_000, 2**31 - 1, 10**12)

_STRING = r'"(?:[^"\\]|\\.)*+"'
_KEYWORD = re.compile(rf"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d{{1,2}})\])?)[ \t]++({_STRING})[ \t]*+")
_CONTINUATION = re.compile(rf"[ \t]*+({_STRING})[ \t]*+")
_ESCAPE = re.compile(r"\\(.)")
_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t"}
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_PLURAL_FORMS = re.compile(r"[ \t]*nplurals[ \t]*=[ \t]*(\d{1,3})[ \t]*;[ \t]*plural[ \t]*=(.*?);?[ \t]*")


class CatalogError(ValueError):
    """A catalog that cannot be used: ``path:line: what``."""


@dataclass
class Entry:
    """One message as the file spells it (strings unescaped)."""

    line: int
    context: str | None = None
    msgid: str | None = None
    plural: str | None = None
    strings: dict[int, str] = field(default_factory=dict)
    #: -1 for a singular ``msgstr``, else the index of ``msgstr[i]``.
    forms: list[int] = field(default_factory=list)
    #: The entry's first and last lines in the file.
    start: int = 0
    end: int = 0


@dataclass
class Scanned:
    """What :func:`scan` read: the file's bytes for Babel (without a byte-order mark, the
    broken entries left out as blank lines so that every other line keeps its number),
    its entries, and what is wrong with it (``path:line: what``, one per broken entry)."""

    data: bytes
    entries: list[Entry]
    nplurals: int
    problems: list[str] = field(default_factory=list)
    #: (context, msgid) of the entries left out for a problem (when their msgid could be read).
    broken: set[tuple[str | None, str]] = field(default_factory=set)


def text_shown(text: str) -> str:
    """``text`` quoted for a message: every printable character as it is (Devanagari stays
    Devanagari), control and invisible characters escaped, as Python's ``repr`` does."""
    return repr(text)


def shown(path: Path, root: Path | None = None) -> str:
    """The file's name for a message: relative to ``root`` where it lies inside, control characters escaped."""
    name = path.relative_to(root) if root is not None and path.is_relative_to(root) else path
    return repr(str(name))[1:-1]


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        char = match.group(1)
        if char not in _ESCAPES:
            raise CatalogError(f"unknown escape {text_shown(match.group(0))} in a string (use \\\\ \\\" \\n or \\t)")
        return _ESCAPES[char]

    return _ESCAPE.sub(one, text[1:-1])


def plural_forms(header: str, where: str) -> int:
    """``nplurals`` of a catalog header's ``Plural-Forms``, checked as gettext will use it (2 without one)."""
    value = None
    for line in header.split("\n"):
        name, sep, rest = line.partition(":")
        if sep and name.strip().lower() == "plural-forms":
            value = rest
    if value is None:
        return 2
    match = _PLURAL_FORMS.fullmatch(value)
    if not match:
        raise CatalogError(f"{where}: the Plural-Forms header must read 'nplurals=N; plural=EXPRESSION;': {text_shown(value[:80])}")
    count, expression = int(match.group(1)), match.group(2).strip()
    if not 1 <= count <= MAX_PLURALS:
        raise CatalogError(f"{where}: Plural-Forms declares {count} plural forms (1 to {MAX_PLURALS} allowed)")
    if not expression or len(expression) > MAX_PLURAL_EXPR:
        raise CatalogError(f"{where}: the plural expression is empty or longer than {MAX_PLURAL_EXPR} characters")
    try:
        choose = gettext.c2py(expression)
    except (ValueError, SyntaxError, RecursionError, MemoryError) as exc:
        raise CatalogError(f"{where}: Python's gettext cannot read the plural expression {text_shown(expression[:80])} ({exc})") from None
    for n in PLURAL_PROBES:
        try:
            form = choose(n)
        except (ArithmeticError, ValueError, TypeError, RecursionError) as exc:
            raise CatalogError(f"{where}: the plural expression fails for n = {n} ({type(exc).__name__})") from None
        if not isinstance(form, int) or not 0 <= form < count:
            raise CatalogError(f"{where}: the plural expression gives form {form!r} for n = {n}, not one of 0 to {count - 1}")
    return count


def scan(path: Path, root: Path | None = None) -> Scanned:
    """Read and check the catalog file at ``path`` (see the module's text); raise ``CatalogError`` at the first problem."""
    name = shown(path, root)
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise CatalogError(f"{name}: not a regular file")
        if size > MAX_BYTES:
            raise CatalogError(f"{name}: {size} bytes, more than a catalog may hold ({MAX_BYTES})")
        with path.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise CatalogError(f"{name}: cannot read the catalog ({exc.strerror or exc})") from None
    if len(data) > MAX_BYTES:
        raise CatalogError(f"{name}: more than {MAX_BYTES} bytes, more than a catalog may hold")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = data.count(b"\n", 0, exc.start) + 1
        raise CatalogError(f"{name}:{at}: not valid UTF-8 (byte 0x{data[exc.start]:02x})") from None
    entries: list[Entry] = []
    seen: dict[tuple[str | None, str], int] = {}
    problems: list[tuple[int, str]] = []
    dropped: set[int] = set()  # lines of broken entries, left out of what Babel reads
    broken: set[tuple[str | None, str]] = set()
    current: Entry | None = None
    current_start = 0  # the first line of the entry being read
    last: str | None = None  # the keyword a continuation line adds to
    nplurals = 2
    plural_line = 0  # where the header's Plural-Forms is
    skipping_from = 0  # > 0 while the rest of a broken entry is passed over

    def drop(first: int, upto: int, entry: Entry | None) -> None:
        dropped.update(range(first, upto + 1))
        if entry is not None and entry.msgid is not None:
            broken.add((entry.context, entry.msgid))

    def finish(entry: Entry | None, number: int) -> None:
        """Close ``entry`` (which ends before line ``number``); a broken one is reported and dropped."""
        nonlocal nplurals
        if entry is None:
            return
        problem: tuple[int, str] | None = None
        key = (entry.context, entry.msgid or "")
        if entry.msgid is None:
            problem = (number, "msgctxt without a msgid")
        elif not entry.forms:
            problem = (entry.line, "msgid without a msgstr")
        elif key in seen:
            problem = (entry.line, f"msgid repeated (first at line {seen[key]}): {text_shown(entry.msgid[:60])}")
        elif entry.msgid == "" and entry.context is None and entries:
            problem = (entry.line, "the header (msgid \"\") must be the first entry")
        elif entry.msgid == "" and entry.context is None:
            try:
                nplurals = plural_forms(entry.strings.get(-1, ""), f"{name}:{plural_line or entry.line}")
            except CatalogError as error:
                problems.append((plural_line or entry.line, str(error).split(": ", 1)[1]))
                drop(entry.start, number - 1, None)  # the rest is read with the default plural rule
                return
        if problem is not None:
            problems.append(problem)
            drop(entry.start, number - 1, entry if problem[1].startswith("msgid without") else None)
            return
        seen[key] = entry.line
        entries.append(entry)

    def read_line(line: str, stripped: str, number: int) -> None:
        """Read one line into the entry being read; CatalogError (the message only) if it is wrong."""
        nonlocal current, current_start, last, plural_line
        if len(line) > MAX_LINE:
            raise CatalogError(f"a line of {len(line)} characters (at most {MAX_LINE})")
        control = _CONTROL.search(line)
        if control:
            raise CatalogError(f"control character U+{ord(control.group(0)):04X} in the catalog")
        if not stripped or stripped.startswith("#"):
            if stripped.startswith("#") and current is not None and current.forms:
                finish(current, number)
                current, last = None, None
            return
        keyword = _KEYWORD.fullmatch(line)
        if keyword:
            word, index, string = keyword.group(1), keyword.group(2), keyword.group(3)
            value = _unescape(string)
            if word in ("msgctxt", "msgid") and current is not None and (current.forms or (word == "msgctxt" and current.msgid is not None)):
                finish(current, number)
                current = None
            if word == "msgctxt":
                if current is not None:
                    raise CatalogError("msgctxt after a msgid")
                current = Entry(line=number, context=value, start=number)
            elif word == "msgid":
                if current is not None and current.msgid is not None:
                    # the entry before has no msgstr: it is the broken one, this one starts afresh
                    problems.append((current.line, "msgid without a msgstr"))
                    drop(current.start, number - 1, current)
                    current = None
                if current is None:
                    current = Entry(line=number, start=number)
                current.msgid = value
                current.line = number
            elif word == "msgid_plural":
                if current is None or current.msgid is None or current.forms or current.plural is not None:
                    raise CatalogError("msgid_plural must follow a msgid")
                current.plural = value
            else:
                if current is None or current.msgid is None:
                    raise CatalogError("msgstr without a msgid")
                form = -1 if index is None else int(index)
                if (form == -1) != (current.plural is None):
                    raise CatalogError("msgstr[N] for a message without msgid_plural" if form >= 0 else "a plural message needs msgstr[0], msgstr[1]…")
                if (form == -1 and current.forms) or (form >= 0 and form != len(current.forms)):
                    raise CatalogError("msgstr out of order or repeated")
                current.forms.append(form)
                current.strings[form] = value
            current.end = number
            last = word if index is None else f"msgstr[{index}]"
            return
        continuation = _CONTINUATION.fullmatch(line)
        if continuation and current is not None and last is not None:
            value = _unescape(continuation.group(1))
            if current.msgid == "" and current.context is None and value.lower().startswith("plural-forms:"):
                plural_line = number
            if last == "msgctxt":
                current.context = (current.context or "") + value
            elif last == "msgid":
                current.msgid = (current.msgid or "") + value
            elif last == "msgid_plural":
                current.plural = (current.plural or "") + value
            else:
                form = current.forms[-1]
                current.strings[form] += value
            current.end = number
            return
        if stripped.startswith('"') or '"' in stripped:
            raise CatalogError(f"unterminated or misplaced string: {text_shown(stripped[:60])}"
                               + (" (a quote inside a translation is written \\\")" if stripped.startswith("msg") else ""))
        raise CatalogError(f"not a valid catalog line: {text_shown(stripped[:60])}")

    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if line.endswith("\r"):
            line = line[:-1]
        stripped = line.strip()
        starts_entry = not stripped or stripped.startswith("#") or line.startswith(("msgid ", "msgctxt "))
        if skipping_from:
            if not starts_entry:
                continue  # the rest of the broken entry
            dropped.update(range(skipping_from, number))
            skipping_from = 0
        try:
            read_line(line, stripped, number)
        except CatalogError as error:
            problems.append((number, str(error)))
            if current is not None:
                drop(current.start, number, current)
            skipping_from = current.start if current is not None else number
            current, last = None, None
    if skipping_from:
        dropped.update(range(skipping_from, len(lines) + 1))
    else:
        finish(current, len(lines) + 1)
    for entry in list(entries):
        if entry.plural is not None and len(entry.forms) != nplurals and any(entry.strings.values()):
            problems.append((entry.line, f"{len(entry.forms)} plural forms where the header declares {nplurals}"))
            drop(entry.start, entry.end, entry)
            entries.remove(entry)
    if dropped:
        kept = ["" if number in dropped else line for number, line in enumerate(lines, start=1)]
        data = "\n".join(kept).encode("utf-8")
    problems.sort()
    return Scanned(data=data, entries=entries, nplurals=nplurals,
                   problems=[f"{name}:{line}: {what}" for line, what in problems], broken=broken)

