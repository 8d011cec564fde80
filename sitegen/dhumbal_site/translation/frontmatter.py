"""Front matter is plain text: no page, in any language, may carry markup in it.

Material writes front-matter fields into the page without escaping them
(``page.meta.description`` into ``<meta name="description">``, the title
into the header and the navigation), so a translated page whose description
reads ``x"><script>…`` would inject script. Two walls stop that:

* this check, run by the build on every page of every language (a page that
  fails stops the build, naming the file and the field) and by
  ``make check-catalogs`` over every page file under ``docs/``
  (``python -m dhumbal_site.translation.frontmatter``);
* ``overrides/main.html``, which writes the page's own head fields (the
  description, the author, the title) escaped, after the
  Content-Security-Policy, which is the first element of ``<head>``.

The front matter is read here as MkDocs reads it, but a problem is never
passed over: MkDocs drops front matter that YAML cannot read without a word
(the page then loses its title and its settings, and the build goes on), so
:func:`read` names the file's line of every YAML error, and before YAML
reads it, the line of a plain (unquoted) value holding ``": "`` (which YAML
takes for another key) or ``" #"`` (which starts a comment: the rest of the
value is silently lost), and of a quote that opens a value and is never closed
(which YAML reports lines further down, or not at all), each with what to do.

Every string of the front matter (keys, values, nested lists and mappings)
is checked: no angle bracket, double quote, backtick or character reference
(``&lt;``, ``&#60``; a lone ``&`` as in « Q&A » is fine), no control character, and no value longer than
:data:`MAX_TEXT` characters; the front matter as a whole is at most
:data:`MAX_ITEMS` strings deep and wide. Apostrophes stay allowed: French and
Dutch need them (« l'annonce »), and every template that escapes turns them
into ``&#39;``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from .. import ROOT
from .commandline import arguments, parser

DOCS = ROOT / "docs"

#: The longest string a front-matter field may hold (a page description is
#: a sentence or two; a parity declaration's reason a paragraph at most).
MAX_TEXT = 2000
#: The most strings (keys and values) one page's front matter may hold.
MAX_ITEMS = 400
#: The deepest nesting of lists and mappings in a page's front matter.
MAX_DEPTH = 8
#: The largest page file the content check reads.
MAX_PAGE_BYTES = 2_000_000

_MARKUP = re.compile(r"[<>\"`]|&(?:#|[A-Za-z][A-Za-z0-9]*;)")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
#: Front matter as MkDocs finds it (``mkdocs.utils.meta.YAML_RE``): from the first line.
_FRONT = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.S)
#: ``key: value`` (or ``- key: value`` in a list) with a plain value: not quoted, not a block.
_PLAIN = re.compile(r"^(?P<indent>[ \t]*(?:-[ \t]+)?)(?P<key>[^\s:#'\"][^:#]*?):[ \t]+(?P<value>[^\s\"'|>\[{&*!#%@`].*?)[ \t]*$")


def _plain_value_problems(head: str, first_line: int) -> list[tuple[int, str]]:
    """Plain values that YAML would misread: ``": "`` (another key) and ``" #"`` (a comment)."""
    found = []
    block: int | None = None  # the indent of the key whose block scalar (| or >) is being read
    for number, line in enumerate(head.split("\n"), start=first_line):
        indent = len(line) - len(line.lstrip())
        if block is not None and (not line.strip() or indent > block):
            continue  # a line of a block scalar: text, not YAML
        block = None
        if re.match(r"^[ \t]*(?:-[ \t]+)?[^:#]+:[ \t]+[|>][-+0-9]*[ \t]*(?:#.*)?$", line):
            block = indent
            continue
        match = _PLAIN.match(line)
        if match is None:
            continue
        key, value = match.group("key").strip(), match.group("value")
        how = (f"write the value in double quotes ({key}: \"…\") or as a folded block "
               f"({key}: >- and the text on the next lines, indented)")
        if ": " in value or value.endswith(":"):
            found.append((number, f"the value of {key!r} holds \": \", which YAML reads as the start of another key: {how}"))
        elif " #" in value or "\t#" in value:
            found.append((number, f"the value of {key!r} holds \" #\", which YAML reads as the start of a comment "
                                  f"(the rest of the value would be lost): {how}"))
    return found


def _open_quote_problems(head: str, first_line: int) -> list[tuple[int, str]]:
    """A quoted value whose quote is not closed on its line: YAML reads on into the next lines
    and fails further down (or takes the next value's quote for the end), so the line of the
    opening quote is the one to name. A project value is one line, or a folded block."""
    found = []
    for number, line in enumerate(head.split("\n"), start=first_line):
        match = re.match(r"^[ \t]*(?:-[ \t]+)?(?P<key>[^\s:#'\"][^:#]*?):[ \t]+(?P<quote>[\"'])(?P<rest>.*)$", line)
        if match is None:
            continue
        rest, quote = match.group("rest"), match.group("quote")
        closed = (re.search(r'(?<!\\)"', rest) is not None if quote == '"'
                  else re.search(r"'(?!')", rest.replace("''", "")) is not None)
        if not closed:
            name, inside = (("double quote", "inside the value, write quotation marks as « » or “ ”") if quote == '"'
                            else ("single quote", "inside the value, write an apostrophe as ''"))
            found.append((number, f"the {name} that opens the value of {match.group('key').strip()!r} is never closed: "
                                  f"close the quote on line {number}, at the end of the value ({inside})"))
    return found


def read(text: str) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """A page's front matter as MkDocs reads it, and what is wrong with how it is written:
    ``(line, problem)`` pairs, the line counted in the page's file (the first ``---`` is line 1)."""
    match = _FRONT.match(text)
    if match is None:  # MultiMarkdown's "key: value" lines at the top, as MkDocs reads them
        from mkdocs.utils.meta import get_data

        return get_data(text)[1], []
    head = match.group(1)
    problems = _plain_value_problems(head, 2)
    unclosed = _open_quote_problems(head, 2)
    try:
        data = yaml.safe_load(head)
    except yaml.YAMLError as error:
        if unclosed:  # the cause: YAML's own message names where it gave up, further down
            return {}, sorted(problems + unclosed)
        marks = [getattr(error, "problem_mark", None), getattr(error, "context_mark", None)]
        # where YAML gave up; for an unclosed bracket or quote, where it was opened
        if "flow" in str(getattr(error, "context", "") or "") or "quoted" in str(getattr(error, "context", "") or ""):
            marks.reverse()
        lines = [m.line + 2 for m in marks if m is not None]
        line = next((n for n in lines if n <= head.count("\n") + 1), lines[-1] if lines else 2)
        what = getattr(error, "problem", None) or str(error).split("\n", 1)[0]
        if not any(number == line for number, _ in problems):
            problems.append((line, f"the front matter is not valid YAML ({what}){_what_to_do(error, head)}"))
        return {}, sorted(problems)
    if data is None:
        return {}, problems
    if not isinstance(data, dict):
        return {}, [*problems, (2, "the front matter is not a list of “key: value” lines")]
    return data, problems


def _what_to_do(error: yaml.YAMLError, head: str) -> str:
    """How to mend the YAML errors a translator makes, after a colon (empty for another error):
    a quote or a bracket opened and never closed, text after a value's closing quote."""
    context = str(getattr(error, "context", "") or "")
    mark = getattr(error, "context_mark", None)
    lines = head.split("\n")
    if mark is not None and mark.line < len(lines):
        opened = lines[mark.line]
        key = opened[:mark.column].strip().rstrip(":").strip().lstrip("- ").strip() or "the value"
        where = f"line {mark.line + 2}"
        if "quoted scalar" in context:
            double = opened[mark.column:mark.column + 1] != "'"
            name, inside = (("double quote", "inside the value, write quotation marks as « » or “ ”") if double
                            else ("single quote", "inside the value, write an apostrophe as ''"))
            return (f": the {name} that opens the value of {key!r} on {where} is never closed; close the quote "
                    f"on {where}, at the end of the value ({inside})")
        if "flow sequence" in context or "flow mapping" in context:
            bracket = "[" if "sequence" in context else "{"
            closing = "]" if bracket == "[" else "}"
            return f": the {bracket} that opens the value of {key!r} on {where} is never closed; close it with {closing}"
    problem = str(getattr(error, "problem", "") or "")
    problem_mark = getattr(error, "problem_mark", None)
    if "expected <block end>" in problem and problem_mark is not None and problem_mark.line < len(lines):
        text = lines[problem_mark.line]
        if re.match(r"^[ \t]*[^:#]+:[ \t]*[\"']", text):
            return (f": the value on line {problem_mark.line + 2} goes on after its closing quote; put the whole value "
                    "inside the quotes")
    return ""


def _strings(value: Any, where: str, depth: int = 0) -> Iterator[tuple[str, str]]:
    """Every string of ``value`` with the field path it sits at (``dhumbal_parity[0].reason``)."""
    if depth > MAX_DEPTH:
        yield where, "\x00depth"
        return
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            name = f"{where}.{key}" if where else str(key)
            if isinstance(key, str):
                yield name + " (the key)", key
            yield from _strings(item, name, depth + 1)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _strings(item, f"{where}[{index}]", depth + 1)


def problems(meta: Any) -> list[str]:
    """What is wrong with a page's front matter (``meta`` as MkDocs read it), one sentence each."""
    found: list[str] = []
    count = 0
    for where, text in _strings(meta, ""):
        count += 1
        shown = repr(where[:80])
        if text == "\x00depth":
            found.append(f"field {shown} is nested more than {MAX_DEPTH} levels deep")
            break
        if count > MAX_ITEMS:
            found.append(f"the front matter holds more than {MAX_ITEMS} fields")
            break
        if len(text) > MAX_TEXT:
            found.append(f"field {shown} is {len(text)} characters long (at most {MAX_TEXT})")
            continue
        markup = _MARKUP.search(text)
        if markup:
            found.append(
                f"field {shown} holds markup ({markup.group(0)!r}): front matter is plain text; "
                "write quotes as « » or “ ” and leave out angle brackets, backticks and character references"
            )
            continue
        control = _CONTROL.search(text)
        if control:
            found.append(f"field {shown} holds a control character ({control.group(0)!r})")
    return found


def check_text(text: str) -> list[str]:
    """Problems of the front matter of a page's source text: how it is written (``line N: …``), then what it holds."""
    meta, written = read(text)
    return [f"line {line}: {what}" for line, what in written] + problems(meta)


def located(text: str) -> list[tuple[int | None, str]]:
    """:func:`check_text` with each problem's line apart: a problem of a field's value is on the
    line of its field (the top-level key it sits under), None only when no line holds it."""
    meta, written = read(text)
    keys: dict[str, int] = {}
    for number, line in enumerate(text.split("\n")[1:], start=2):
        if line.strip() == "---":
            break
        key = re.match(r"^([^\s:#][^:]*):", line)
        if key:
            keys.setdefault(key.group(1).strip(), number)
    out: list[tuple[int | None, str]] = [(line, what) for line, what in written]
    for what in problems(meta):
        field = re.match(r"^field '([^'.\[ ]+)", what)
        out.append((keys.get(field.group(1)) if field else None, what))
    return out


def check_docs(docs: Path = DOCS) -> list[str]:
    """``path: problem`` for every page file under ``docs`` (every language) whose front matter is not plain text."""
    report: list[str] = []
    for path in sorted(docs.rglob("*.md")):
        name = path.relative_to(docs.parent).as_posix() if path.is_relative_to(docs.parent) else path.name
        shown = repr(name)[1:-1]
        try:
            if path.stat().st_size > MAX_PAGE_BYTES:
                report.append(f"{shown}:1: the page file is larger than {MAX_PAGE_BYTES} bytes")
                continue
            text = path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError as exc:
            report.append(f"{shown}:1: not UTF-8 (byte {exc.start})")
            continue
        except OSError as exc:
            report.append(f"{shown}:1: cannot read the page ({exc.strerror})")
            continue
        report.extend(f"{shown}:{line}: {problem}" if line else f"{shown}: {problem}" for line, problem in located(text))
    return report


def main(argv: list[str] | None = None) -> int:
    """``python -m dhumbal_site.translation.frontmatter [DOCS]``: exit 1 if any page's front matter holds markup."""
    p = parser("frontmatter", "No markup in a page's front matter.")
    p.add_argument("docs", nargs="?", type=Path, default=DOCS, metavar="DOCS", help="the folder of pages")
    options = arguments(p, argv)
    if options is None:
        return 2
    docs = options.docs
    report = check_docs(docs)
    for line in report:
        print(f"error: {line}")
    pages = sum(1 for _ in docs.rglob("*.md"))
    print(f"front matter: {pages} pages, {len(report)} problem(s)")
    return 1 if report else 0


if __name__ == "__main__":
    raise SystemExit(main())
