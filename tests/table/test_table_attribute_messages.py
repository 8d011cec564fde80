"""Which translated messages land inside HTML attribute values, and that they are declared.

The catalog check refuses quotes and angle brackets in the translations of
``dhumbal.view.table.ATTRIBUTE_MSGIDS`` (and of the site glue's
``dhumbal_site.strings.ATTRIBUTE_MSGIDS``). These tests render the table in a
pseudo-language whose every message is tagged with its msgid, through whole
deals of every profile, and fail if a tagged message turns up in an
attribute without being declared; and they check that the theme's templates
escape every translated string they place.
"""

from __future__ import annotations

import gettext
import random
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dhumbal.core import i18n
from dhumbal.core.profiles import PROFILE_KEYS, find_profile
from dhumbal.table.protocol import Settings
from dhumbal.table.session import Session
from dhumbal.view.actions import THROW_NONE, THROW_VALUE
from dhumbal.view.felt import PLAYERS_LABEL
from dhumbal.view.table import ATTRIBUTE_MSGIDS, render_table
from dhumbal_site import strings

ROOT = Path(__file__).resolve().parents[2]


PSEUDO = "qz"
TAG = re.compile(r"⟦(\d+)⟧")


class _Tagged(gettext.NullTranslations):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []

    def _tag(self, msgid: str) -> str:
        if msgid not in self.ids:
            self.ids.append(msgid)
        return f"⟦{self.ids.index(msgid)}⟧"

    def gettext(self, message: str) -> str:
        return self._tag(message) + message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self._tag(msgid1) + (msgid1 if n == 1 else msgid2)


@pytest.fixture
def tagged(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Tagged]:
    catalog = _Tagged()
    real = i18n.translations
    monkeypatch.setattr(i18n, "translations", lambda lang: catalog if lang == PSEUDO else real(lang))
    i18n.translator.cache_clear()
    yield catalog
    i18n.translator.cache_clear()


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value:
                self.values.append((tag, name, value))


def _in_attributes(html: str, catalog: _Tagged) -> set[str]:
    parser = _Attributes()
    parser.feed(html)
    return {catalog.ids[int(n)] for _tag, _name, value in parser.values for n in TAG.findall(value)}


def _tables(profile_key: str, seed: int) -> Iterator[str]:
    """The table drawn at every step of a whole match played at random by the reader."""
    profile = find_profile(profile_key)
    session = Session(Settings(profile, "medium", seed), lang=PSEUDO)
    session.start()
    rng = random.Random(seed)
    for _ in range(400):
        yield render_table(session.model(live=True, table_id="t"), status=session.status())
        deal = session.deal
        assert deal is not None
        if deal.is_over:
            if session.match_over():
                return
            session.next_deal()
            continue
        if not session.is_my_turn():
            return
        actions = deal.legal_actions()
        calls = [a for a in actions if a.kind == "call"]
        session.act(calls[0] if calls and rng.random() < 0.3 else rng.choice(actions))


@pytest.mark.parametrize("profile_key", PROFILE_KEYS)
def test_every_message_drawn_into_an_attribute_is_declared(tagged: _Tagged, profile_key: str) -> None:
    found: set[str] = set()
    for seed in (1, 2):
        for html in _tables(profile_key, seed):
            found |= _in_attributes(html, tagged)
    assert found, "the pseudo-language tags nothing: the test would not see a message"
    undeclared = found - ATTRIBUTE_MSGIDS
    assert not undeclared, f"messages placed in attributes but not in dhumbal.view.table.ATTRIBUTE_MSGIDS: {sorted(undeclared)}"


def test_the_declared_card_and_label_messages_really_land_in_attributes(tagged: _Tagged) -> None:
    found: set[str] = set()
    for key in PROFILE_KEYS:
        for html in _tables(key, 3):
            found |= _in_attributes(html, tagged)
    assert {PLAYERS_LABEL, THROW_NONE, THROW_VALUE, i18n.CARD_NAME} <= found


# -- the theme's templates -------------------------------------------------------------

OVERRIDES = ROOT / "overrides"
# What a template prints. MkDocs renders the theme without autoescaping, so
# each of these must escape itself.
_PRINT = re.compile(r"\{\{(?P<expr>.*?)\}\}")
_ATTRIBUTE_STRING = re.compile(r"""(?:dhumbal_strings|dhumbal\.strings)\[\s*['"]([\w.]+)['"]\s*\]""")


def _templates() -> list[Path]:
    # ne.html only defines Material's Nepali strings (a literal table, printed by Material).
    return [p for p in sorted(OVERRIDES.rglob("*.html")) if p.name != "ne.html"]


@pytest.mark.parametrize("path", _templates(), ids=lambda p: str(p.relative_to(OVERRIDES)))
def test_theme_templates_escape_every_string_they_print(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for m in _PRINT.finditer(text):
        expr = m.group("expr").strip()
        if expr == "super()":
            continue
        if "safe" in expr:
            # Only the engine's table, escaped piece by piece by dhumbal.view.
            assert expr == "dhumbal_table | safe", f"{path.name}: unescaped {m.group(0)}"
            continue
        assert re.search(r"\|\s*e\s*$", expr), f"{path.name}: {m.group(0)} is not escaped (| e)"
        # "a if b else c | e" escapes c only: a conditional must be bracketed.
        if " if " in expr:
            assert re.fullmatch(r"\(.*\)\s*\|\s*e", expr), f"{path.name}: {m.group(0)} escapes one branch only"


def test_glue_strings_printed_inside_attributes_are_declared() -> None:
    for path in _templates():
        text = path.read_text(encoding="utf-8")
        for attr in re.finditer(r'[\w:-]+="(?P<value>[^"]*\{\{[^"]*)"', text):
            for key in _ATTRIBUTE_STRING.findall(attr.group("value")):
                assert strings.MSGIDS[key] in strings.ATTRIBUTE_MSGIDS, f"{path.name}: {key} lands in an attribute"


def test_a_hostile_glue_string_stays_inert_in_the_progress_bar() -> None:
    from jinja2 import Environment, FileSystemLoader

    env = Environment(loader=FileSystemLoader(str(OVERRIDES)))
    hostile = 'Chargement"/tabindex="0"/autofocus="x"/onfocus="alert(1)"'
    html = env.get_template("partials/progress.html").render(dhumbal_strings={"progress": hostile})
    parser = _Attributes()
    parser.feed(html)
    attrs = {name: value for _tag, name, value in parser.values}
    assert attrs["aria-label"] == hostile
    assert "onfocus" not in attrs and "autofocus" not in attrs
