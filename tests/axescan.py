"""The accessibility scan every browser suite runs: axe-core's serious and
critical violations of a page as it is now, or of one part of it (the mini
table). One scan for the site, the examples, the puzzles and the table tests."""

from __future__ import annotations

import functools
from typing import Any

from tests.sitekit import ROOT

#: axe-core, from the npm packages (``make setup``).
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

#: The scan of ``within`` (a selector; the whole document when null), as one line
#: per serious or critical violation: impact, rule, help and its first three targets.
AXE_RUN = """async (within) => {
  const root = within === null ? document : document.querySelector(within);
  if (!root) throw new Error(`nothing to scan: ${within}`);
  const result = await axe.run(root, { resultTypes: ["violations"] });
  return result.violations
    .filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => `${v.impact} ${v.id}: ${v.help} [${v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | ")}]`);
}"""

#: Worked examples and puzzles far from the screen are not drawn (content-visibility),
#: and axe cannot tell the colours of what is not drawn: a scan of the whole page
#: draws them all first, as a reader scrolling down would (a style set through the
#: DOM, which the site's policy allows).
DRAW_ALL = """() => document.querySelectorAll('.dh-example, .dh-puzzle')
  .forEach(e => { e.style.contentVisibility = 'visible'; })"""


@functools.cache
def _axe_source() -> str:
    """axe-core's script, read once per test process."""
    return AXE.read_text(encoding="utf-8") + "\n;void 0"


def axe_here(page: Any, within: str | None = None) -> list[str]:
    """Serious and critical axe-core violations of the page as it is now (every part
    drawn), or of the element ``within`` selects."""
    if within is None:
        page.evaluate(DRAW_ALL)
    if not page.evaluate("typeof axe !== 'undefined'"):
        # Evaluated, not added as a script tag: the site's policy forbids inline script.
        page.evaluate(_axe_source())
    return list(page.evaluate(AXE_RUN, within))
