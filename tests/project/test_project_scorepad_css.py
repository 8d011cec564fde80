"""The score pad's style sheet keeps one copy of what it shares with the content sheet.

A score table's shape (a caption on the left in bold, numbers right-aligned in even
columns, a player's name on the left) and a tag's (rounded, the tag colours) were
written twice, in ``content.css`` for the worked examples and in
``scorepad-page.css`` for the pad (code review). They live once, in ``content.css``,
which every page loads; the pad's sheet keeps only its sizes, lines and weights.
"""

from __future__ import annotations

import re
from pathlib import Path

STYLES = Path(__file__).resolve().parents[2] / "browser" / "styles"
#: The shared declarations, by the pad's selectors that once repeated them.
SHARED = {
    "table.dhp-score caption": {"text-align: left", "font-weight: 700"},
    "table.dhp-score td": {"text-align: right", "font-variant-numeric: tabular-nums"},
    "table.dhp-score th[scope=\"row\"]": {"text-align: left"},
    "th.dhp-col-player": {"text-align: left"},
    ".dhp-badge": {"border-radius: 0.6em", "background: var(--dh-tag-bg, #eceff1)", "background: var(--dh-tag-bg)",
                   "color: var(--dh-tag-fg, #263238)", "color: var(--dh-tag-fg)"},
}


def rules(path: Path) -> list[tuple[list[str], set[str]]]:
    text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
    out = []
    for m in re.finditer(r"([^{}]+)\{([^{}]*)\}", text):
        selectors = [" ".join(s.split()) for s in m.group(1).split(",")]
        out.append((selectors, {" ".join(d.split()) for d in m.group(2).split(";") if d.strip()}))
    return out


def test_the_score_table_and_tag_shapes_are_written_once() -> None:
    pad = rules(STYLES / "scorepad-page.css")
    for tail, shared in SHARED.items():
        for selectors, declarations in pad:
            if any(s.endswith(tail) for s in selectors):
                assert not declarations & shared, (tail, declarations & shared)
    content = rules(STYLES / "content.css")
    for tail, shared in SHARED.items():
        found = set().union(*(d for sels, d in content if any(s.endswith(tail) for s in sels)))
        assert found & shared, f"content.css has no shared rule for {tail}"
