"""Reading a worked-example file: bounded, and with the line of every key.

An example file is TOML. Before Python's TOML parser sees it, the file is
bounded, because the parser's cost grows badly with some shapes: a file is
at most :data:`MAX_FILE_BYTES` bytes and must be a regular file (a FIFO or
``/dev/zero`` is refused by its type, before it is opened for reading), each
line at most :data:`MAX_LINE` characters, arrays and inline tables nest at
most :data:`MAX_NESTING` deep, a dotted key has at most
:data:`MAX_KEY_PARTS` parts (40,000 parts took the parser a minute and 6 GB),
a bare value (a number, a date, true or false) is at most
:data:`MAX_BARE_VALUE` characters (so no 4,400-digit integer reaches it), and
every whole number read is at most :data:`MAX_INT` in size. A byte-order
mark at the start is skipped.

TOML's parser gives values without positions, so :func:`scan` walks the text
once (strings, multi-line strings, comments, arrays and inline tables
understood) and records the line of every key by its full path:
``("position", "A")`` for ``A`` in ``[position]``, ``("steps", 2, "expect",
"total", "A")`` for ``total.A`` in the third step's ``expect``, whether the
file writes it as a dotted key, an inline table, a quoted key or a
``[steps.expect]`` table. A key that appears inside an earlier string is not
a key, so it is not found there.

File names are shown with their control characters escaped
(:func:`shown_name`), so a name cannot send escape codes to a terminal.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any, Final

#: The largest example file read (the project's are under 2 kB).
MAX_FILE_BYTES: Final = 65_536
#: The longest line of an example file, in characters.
MAX_LINE: Final = 2_000
#: Deepest nesting of arrays and inline tables (an example's own need is 2).
MAX_NESTING: Final = 32
#: The most parts a dotted key or table name may have (``steps.expect.total.A`` is 4).
MAX_KEY_PARTS: Final = 8
#: The longest bare value (number, date, ``true``): a 64-bit number is 20 digits.
MAX_BARE_VALUE: Final = 40
#: The largest whole number an example may hold, either sign.
MAX_INT: Final = 10**9

Path_ = tuple[str | int, ...]


class ExampleError(ValueError):
    """A bad example file or an expectation the engine contradicts: ``path:line: message``."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.detail = message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")


def shown_name(name: str | os.PathLike[str]) -> str:
    """A file name for a message or a terminal: control and other unprintable characters escaped."""
    text = os.fspath(name)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


# -- reading the file -------------------------------------------------------------------------


def read_file(path: str | Path, name: str) -> str:
    """The text of the example file at ``path`` (``name`` is its name in errors, already shown).

    A FIFO or a device is refused by its type before it is read, and a file
    larger than :data:`MAX_FILE_BYTES` by its size; the file is opened without
    blocking and read at most one byte past the limit.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ExampleError(name, None, f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ExampleError(name, None, "cannot read: a directory, not an example file")
        if not stat.S_ISREG(info.st_mode):
            raise ExampleError(name, None, "cannot read: not a regular file (a pipe, a device or a socket)")
        if info.st_size > MAX_FILE_BYTES:
            raise ExampleError(name, None, f"{info.st_size} bytes: an example file holds at most {MAX_FILE_BYTES}")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise ExampleError(name, None, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > MAX_FILE_BYTES:
        raise ExampleError(name, None, f"more than {MAX_FILE_BYTES} bytes: an example file holds at most {MAX_FILE_BYTES}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        raise ExampleError(name, data.count(b"\n", 0, start) + 1, f"not UTF-8 text (byte 0x{data[start]:02x})") from None


# -- the positions of keys --------------------------------------------------------------------


class Positions:
    """The line of every key of an example file, by its full path (see the module's text)."""

    def __init__(self) -> None:
        self.lines: dict[Path_, int] = {}

    def record(self, path: Path_, line: int) -> None:
        self.lines.setdefault(path, line)

    def record_key(self, prefix: Path_, parts: tuple[str, ...], line: int) -> None:
        """A dotted key ``a.b.c`` under ``prefix``: it names ``a``, ``a.b`` and ``a.b.c`` on this line."""
        for cut in range(1, len(parts) + 1):
            self.record(prefix + parts[:cut], line)

    def line(self, *path: str | int) -> int | None:
        return self.lines.get(tuple(path))

    def first(self, *paths: Path_) -> int | None:
        for path in paths:
            found = self.lines.get(path)
            if found is not None:
                return found
        return None

    def top(self, key: str) -> int | None:
        """The line of a top-level key or ``[key]`` table."""
        return self.line(key)

    def in_section(self, name: str, key: str) -> int | None:
        """The line of ``key`` in ``[name]`` (or in an inline ``name = { … }``), else of ``name``."""
        return self.first((name, key), (name,))

    def step(self, i: int) -> int | None:
        """The line where step ``i`` (0-based) begins."""
        return self.line("steps", i)

    def in_step(self, i: int, key: str, seat: str | None = None) -> int | None:
        """The line of ``key`` (or ``key.seat``) in step ``i``: an expectation or the step's own key."""
        paths: list[Path_] = []
        if seat is not None:
            paths.append(("steps", i, "expect", key, seat))
        paths += [("steps", i, "expect", key), ("steps", i, key), ("steps", i)]
        return self.first(*paths)


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_BARE_VALUE = re.compile(r"[^\s,\]\}#]+")
_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:")


class _Unreadable(Exception):
    """The scanner met text that is not TOML: the parser will say what and where."""


class _Scanner:
    def __init__(self, text: str, name: str) -> None:
        self.text = text
        self.name = name
        self.n = len(text)
        self.i = 0
        self.line_no = 1
        self.positions = Positions()

    def fail(self, message: str) -> ExampleError:
        return ExampleError(self.name, self.line_no, message)

    # characters between tokens
    def blank(self, newlines: bool) -> None:
        text, n = self.text, self.n
        while self.i < n:
            ch = text[self.i]
            if ch in " \t\r":
                self.i += 1
            elif ch == "#":
                end = text.find("\n", self.i)
                self.i = n if end < 0 else end
            elif ch == "\n" and newlines:
                self.line_no += 1
                self.i += 1
            else:
                return

    def string(self) -> str:
        """Skip the string at ``i`` and return its source text (newlines counted)."""
        text, start, n = self.text, self.i, self.n
        quote = text[start]
        if text.startswith(quote * 3, start):
            end = start + 3
            while True:
                end = text.find(quote * 3, end)
                if end < 0:
                    raise _Unreadable
                if quote == '"' and _escaped(text, end):
                    end += 1
                    continue
                break
            end += 3
            extra = 0  # up to two more quotes end the string's text: """a""""
            while extra < 2 and end < n and text[end] == quote:
                end += 1
                extra += 1
        else:
            end = start + 1
            while end < n and text[end] != quote:
                if text[end] == "\n":
                    raise _Unreadable
                if quote == '"' and text[end] == "\\":
                    end += 1
                    if end < n and text[end] == "\n":
                        raise _Unreadable
                end += 1
            if end >= n:
                raise _Unreadable
            end += 1
        source = text[start:end]
        self.line_no += source.count("\n")
        self.i = end
        return source

    def key(self) -> tuple[str, ...]:
        parts: list[str] = []
        while True:
            self.blank(newlines=False)
            if self.i >= self.n:
                raise _Unreadable
            ch = self.text[self.i]
            if ch in "\"'":
                if self.text.startswith(ch * 3, self.i):
                    raise _Unreadable  # a multi-line string cannot be a key
                source = self.string()
                try:
                    parts.append(tomllib.loads(f"k = {source}")["k"])
                except tomllib.TOMLDecodeError:
                    raise _Unreadable from None
            else:
                m = _BARE_KEY.match(self.text, self.i)
                if not m:
                    raise _Unreadable
                parts.append(m.group(0))
                self.i = m.end()
            if len(parts) > MAX_KEY_PARTS:
                raise self.fail(f"a key of more than {MAX_KEY_PARTS} dotted parts")
            self.blank(newlines=False)
            if self.i < self.n and self.text[self.i] == ".":
                self.i += 1
                continue
            return tuple(parts)

    def value(self, path: Path_, depth: int) -> None:
        self.blank(newlines=False)
        if self.i >= self.n:
            raise _Unreadable
        ch = self.text[self.i]
        if ch in "\"'":
            self.string()
        elif ch == "[":
            self.array(path, depth + 1)
        elif ch == "{":
            self.inline(path, depth + 1)
        else:
            m = _BARE_VALUE.match(self.text, self.i)
            if not m:
                raise _Unreadable
            end = m.end()
            if _DATE_TIME.match(self.text, self.i):
                more = _BARE_VALUE.match(self.text, end + 1)
                end = more.end() if more else end
            if end - self.i > MAX_BARE_VALUE:
                raise self.fail(f"a value of {end - self.i} characters (numbers, dates and true/false have at most {MAX_BARE_VALUE})")
            self.i = end

    def nest(self, depth: int) -> None:
        if depth > MAX_NESTING:
            raise self.fail(f"not valid TOML: arrays or tables nested more than {MAX_NESTING} deep")

    def array(self, path: Path_, depth: int) -> None:
        self.nest(depth)
        self.i += 1
        index = 0
        while True:
            self.blank(newlines=True)
            if self.i >= self.n:
                raise _Unreadable
            if self.text[self.i] == "]":
                self.i += 1
                return
            self.positions.record(path + (index,), self.line_no)
            self.value(path + (index,), depth)
            self.blank(newlines=True)
            if self.i < self.n and self.text[self.i] == ",":
                self.i += 1
                index += 1
            elif not (self.i < self.n and self.text[self.i] == "]"):
                raise _Unreadable

    def inline(self, path: Path_, depth: int) -> None:
        self.nest(depth)
        self.i += 1
        while True:
            self.blank(newlines=False)
            if self.i < self.n and self.text[self.i] == "}":
                self.i += 1
                return
            parts = self.key()
            self.positions.record_key(path, parts, self.line_no)
            self.blank(newlines=False)
            if not (self.i < self.n and self.text[self.i] == "="):
                raise _Unreadable
            self.i += 1
            self.value(path + parts, depth)
            self.blank(newlines=False)
            if self.i < self.n and self.text[self.i] == ",":
                self.i += 1
            elif not (self.i < self.n and self.text[self.i] == "}"):
                raise _Unreadable

    def document(self) -> None:
        prefix: Path_ = ()
        tables: dict[Path_, int] = {}  # arrays of tables: how many so far
        while True:
            self.blank(newlines=True)
            if self.i >= self.n:
                return
            if self.text[self.i] == "[":
                many = self.text.startswith("[[", self.i)
                self.i += 2 if many else 1
                parts = self.key()
                closing = "]]" if many else "]"
                if not self.text.startswith(closing, self.i):
                    raise _Unreadable
                self.i += len(closing)
                resolved: Path_ = ()
                for part in parts[:-1] if many else parts:
                    resolved += (part,)
                    if resolved in tables:
                        resolved += (tables[resolved] - 1,)
                if many:
                    resolved += (parts[-1],)
                    tables[resolved] = tables.get(resolved, 0) + 1
                    resolved += (tables[resolved] - 1,)
                prefix = resolved
                for cut in range(1, len(prefix) + 1):  # [[steps]] names "steps" and this step
                    self.positions.record(prefix[:cut], self.line_no)
            else:
                parts = self.key()
                self.positions.record_key(prefix, parts, self.line_no)
                if not (self.i < self.n and self.text[self.i] == "="):
                    raise _Unreadable
                self.i += 1
                self.value(prefix + parts, 0)
            self.blank(newlines=False)
            if self.i < self.n and self.text[self.i] != "\n":
                raise _Unreadable


def _escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` is escaped by an odd run of backslashes before it."""
    count = 0
    while at - count - 1 >= 0 and text[at - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def scan(text: str, name: str) -> Positions:
    """The line of every key of ``text``, after the bounds of the module's text are checked.

    Text the scanner cannot read as TOML stops the scan where it is (the
    positions found so far are kept); the TOML parser then names the
    problem. The line and nesting bounds hold for the whole text whatever
    the scanner reads, so the parser is never given text beyond them.
    """
    deep = _too_deep(text)
    if deep is not None:
        raise ExampleError(name, deep, f"not valid TOML: arrays or tables nested more than {MAX_NESTING} deep")
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > MAX_LINE:
            raise ExampleError(name, number, f"a line of {len(line)} characters (at most {MAX_LINE})")
    scanner = _Scanner(text, name)
    try:
        scanner.document()
    except _Unreadable:
        pass
    return scanner.positions


def _too_deep(text: str, limit: int = MAX_NESTING) -> int | None:
    """The line where arrays and inline tables in ``text`` nest deeper than ``limit``, if any.

    A plain scan (no recursion) that skips strings and comments, so that the
    TOML parser never recurses on hostile text, whatever the scanner made of it.
    """
    depth = 0
    line = 1
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif ch == "#":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                if text[j] == "\\" and ch == '"':
                    j += 1
                elif text[j] == "\n" and len(quote) == 1:
                    break  # an unterminated one-line string: the parser says so
                j += 1
            line += text.count("\n", i, j)
            i = j + len(quote)
            continue
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return line
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += 1
    return None


# -- parsing ------------------------------------------------------------------------------------


def parse(text: str, name: str) -> tuple[dict[str, Any], Positions]:
    """The example file's data and the line of each key; ``ExampleError`` (with the line) if it is not valid TOML
    or holds a whole number beyond :data:`MAX_INT`."""
    if text.startswith("\ufeff"):
        text = text[1:]
    positions = scan(text, name)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        line = int(m.group(1)) if m else None
        if line is None and "end of document" in str(exc):
            line = len(text.rstrip("\n").split("\n"))  # the last line that holds anything
        raise ExampleError(name, line, f"not valid TOML: {exc}") from None
    except (ValueError, RecursionError, MemoryError) as exc:  # pragma: no cover - the bounds come first
        raise ExampleError(name, None, f"not valid TOML: {type(exc).__name__}") from None
    big = _big_int(data, ())
    if big is not None:
        line = None
        for cut in range(len(big), 0, -1):
            line = positions.line(*big[:cut])
            if line is not None:
                break
        raise ExampleError(name, line, f"a whole number beyond ±{MAX_INT:,} at {'.'.join(map(str, big))}")
    return data, positions


def _big_int(value: Any, path: Path_) -> Path_ | None:
    """The path of the first whole number beyond :data:`MAX_INT` in ``value``, if any."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return path if abs(value) > MAX_INT else None
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = _big_int(item, path + (key,))
        if found is not None:
            return found
    return None
