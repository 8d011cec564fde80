"""The page code in browser/ keeps the project's shape: each TypeScript module
opens with a comment (``/** ... */``) of at most 40 lines saying what it does
and why, no module is over 600 lines, and each is linked from ARCHITECTURE.md
(the type check and the lint are ``make check-browser``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 40
MOST_LINES = 600
OPENING = re.compile(r"\A/\*\*(?P<body>.*?)\*/", re.S)


def browser_modules() -> list[Path]:
    return sorted(p for p in (ROOT / "browser").rglob("*.ts") if not p.name.endswith(".generated.ts"))


def opening_problem(source: str, limit: int = LIMIT, most: int = MOST_LINES) -> str | None:
    """What is wrong with a module's opening comment or length, or None."""
    found = OPENING.match(source)
    if not found or not found.group("body").strip(" *\n"):
        return "no opening /** comment */ saying what the module does"
    lines = found.group(0).count("\n") + 1
    if lines > limit:
        return f"an opening comment of {lines} lines (at most {limit})"
    total = source.count("\n") + (0 if source.endswith("\n") else 1)
    return f"{total} lines (at most {most})" if total > most else None


def test_every_browser_module_says_what_it_does_and_stays_small() -> None:
    modules = browser_modules()
    assert len(modules) > 30 and ROOT / "browser" / "table" / "table.ts" in modules
    found = [f"{p.relative_to(ROOT)}: {problem}" for p in modules
             if (problem := opening_problem(p.read_text(encoding="utf-8")))]
    assert not found, "\n".join(found)


def test_the_check_can_fail() -> None:
    assert opening_problem("export const x = 1;\n") is not None
    assert opening_problem("/** " + "\n *".join(["x"] * 41) + " */\n") is not None
    assert opening_problem("/** What it does. */\n" + "x;\n" * 600) is not None
    assert opening_problem("/** What it does. */\nexport const x = 1;\n") is None
