"""Small things a player meets at every turn (issue 51): the bots' pace, and the guide's words.

- The bots' moves play back at about 250-400 ms a move by default ("normal"),
  the pace the table script reads from browser/table/prefs.ts, which the
  settings' list marks as chosen.
- The first-run guide's step on calling says what the reader sees: the
  Call button shows only when a call is allowed (nepali-games and dashain
  keep an empty place for it), so it does not tell them to press a button
  they cannot find.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dhumbal.core.i18n import translator
from dhumbal.core.profiles import find_profile
from dhumbal.view.guide import GUIDE_CALL
from dhumbal.view.model import TableModel
from dhumbal.view.settings import render_prefs

ROOT = Path(__file__).resolve().parents[2]


def paces() -> dict[str, int]:
    source = (ROOT / "browser" / "table" / "prefs.ts").read_text(encoding="utf-8")
    found = re.search(r"export const PACE = \{([^}]*)\}", source)
    assert found, "browser/table/prefs.ts defines PACE"
    return {k: int(v) for k, v in re.findall(r"(\w+): (\d+)", found.group(1))}


def test_the_bots_play_back_at_a_quick_readable_pace_by_default() -> None:
    pace = paces()
    assert 250 <= pace["normal"] <= 400, pace
    assert pace["slow"] > pace["normal"] > pace["fast"] > pace["instant"] == 0
    html = render_prefs(TableModel.for_settings("en", "t", find_profile("nepali-games"), "medium"))
    assert re.search(r'<option value="normal" selected>', html)
    source = (ROOT / "browser" / "table" / "prefs.ts").read_text(encoding="utf-8")
    assert 'isSpeed(kept.speed) ? kept.speed : "normal"' in source


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "ne"])
@pytest.mark.parametrize("order", ["draw-first", "throw-first"])
def test_the_guide_says_the_call_button_shows_only_when_a_call_is_allowed(lang: str, order: str) -> None:
    en = translator("en")(GUIDE_CALL[order])
    assert "press Call" not in en and "shows when you may call" in en
    assert translator(lang)(GUIDE_CALL[order]).strip()
