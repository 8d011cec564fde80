"""Front matter is plain text: no page, in any language, may carry markup in it.

Material writes front-matter fields into the page without escaping them
(``page.meta.description`` into ``<meta name="description">``, the title
into the header and the navigation), so a translated page whose description
reads ``x"><script>…`` would inject script. Two walls stop that:

* this check, run by the build on every page of every language (a page that
  fails stops the build, naming the file and the field) and by
  ``make check-catalogs`` over every page file under ``docs/``
  (``python -m dhumbal_site.frontmatter``);
* ``overrides/main.html``, which writes the page's own head fields (the
  description, the author, the title) escaped, after the
  Content-Security-Policy, which is the first element of ``<head>``.

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
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[2]
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
        shown = ascii(where[:80])
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
                f"field {shown} holds markup ({ascii(markup.group(0))}): front matter is plain text; "
                "write quotes as « » or “ ” and leave out angle brackets, backticks and character references"
            )
            continue
        control = _CONTROL.search(text)
        if control:
            found.append(f"field {shown} holds a control character ({ascii(control.group(0))})")
    return found


def check_text(text: str) -> list[str]:
    """Problems of the front matter of a page's source text, read as MkDocs reads it."""
    from mkdocs.utils.meta import get_data

    return problems(get_data(text)[1])


def check_docs(docs: Path = DOCS) -> list[str]:
    """``path: problem`` for every page file under ``docs`` (every language) whose front matter is not plain text."""
    report: list[str] = []
    for path in sorted(docs.rglob("*.md")):
        name = path.relative_to(docs.parent).as_posix() if path.is_relative_to(docs.parent) else path.name
        shown = ascii(name)[1:-1]
        try:
            if path.stat().st_size > MAX_PAGE_BYTES:
                report.append(f"{shown}: the page file is larger than {MAX_PAGE_BYTES} bytes")
                continue
            text = path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError as exc:
            report.append(f"{shown}: not UTF-8 (byte {exc.start})")
            continue
        except OSError as exc:
            report.append(f"{shown}: cannot read the page ({exc.strerror})")
            continue
        report.extend(f"{shown}: {problem}" for problem in check_text(text))
    return report


def main(argv: list[str] | None = None) -> int:
    """``python -m dhumbal_site.frontmatter [DOCS]``: exit 1 if any page's front matter holds markup."""
    args = sys.argv[1:] if argv is None else argv
    docs = Path(args[0]) if args else DOCS
    report = check_docs(docs)
    for line in report:
        print(line)
    pages = sum(1 for _ in docs.rglob("*.md"))
    print(f"front matter: {pages} pages, {len(report)} problem(s)")
    return 1 if report else 0


if __name__ == "__main__":
    raise SystemExit(main())
