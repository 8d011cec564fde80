"""A translation can neither inject markup or script nor break a message's fields.

Each case is a hostile or careless catalog entry that used to pass
``make check-catalogs``: an attribute breakout in the progress bar's name,
event handlers without a space before them, format specs and conversions
that Python's ``str.format`` would obey, positional fields, indexing and
unbalanced braces.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dhumbal.core import i18n
from dhumbal.view.actions import THROW_VALUE
from dhumbal_site import strings
from dhumbal_site.translation import catalogs

ROOT = Path(__file__).resolve().parents[2]


LOADING = strings.MSGIDS["progress"]  # lands in the progress bar's aria-label


def _po(tmp_path: Path, entries: list[tuple[str, str]]) -> Path:
    root = tmp_path / "locales"
    (root / "xx" / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    body = "".join(f"msgid {_quote(i)}\nmsgstr {_quote(s)}\n\n" for i, s in entries)
    (root / "xx" / "LC_MESSAGES" / "dhumbal.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n' + body,
        encoding="utf-8",
    )
    return root


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.fixture
def check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def run(msgid: str, msgstr: str) -> list[catalogs.Problem]:
        root = _po(tmp_path, [(msgid, msgstr)])
        monkeypatch.setattr(catalogs, "LOCALES", root)
        monkeypatch.setattr(catalogs, "ROOT", tmp_path)
        return catalogs.check_catalog("xx")

    return run


# -- markup and script ---------------------------------------------------------------


@pytest.mark.parametrize(
    "msgstr",
    [
        # the case: breaks out of the progress bar's aria-label on every French page
        'Chargement"/tabindex="0"/autofocus="x"/onfocus="alert(1)"',
        "<svg/onload=alert(1)>",
        "< svg onload=alert(1)>",
        "Jouer</p><p>",
        "<!-- x -->",
        'x"onfocus=alert(1)',
        "x;onclick =alert(1)",
        "Jouer onmouseover=alert(1)",
        'Jouer tabindex="0"',
        "Jouer style='color:red'",
        "java\tscript:alert(1)",
        "JavaScript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
    ],
)
def test_markup_and_script_are_refused_whatever_the_spacing(check, msgstr: str) -> None:  # type: ignore[no-untyped-def]
    for msgid in (LOADING, "Sort hand"):  # in an attribute and in text alike
        problems = check(msgid, msgstr)
        assert any(p.unsafe and ("markup" in p.what or "HTML tag" in p.what) for p in problems), (msgid, problems)


@pytest.mark.parametrize("msgstr", ['Chargement "rapide"', "Chargement > 1", "Chargement < 1", "Chargement `x`"])
def test_attribute_messages_cannot_carry_quotes_or_angle_brackets(check, msgstr: str) -> None:  # type: ignore[no-untyped-def]
    problems = check(LOADING, msgstr)
    assert any(p.unsafe and "inside an HTML attribute" in p.what for p in problems), problems


def test_text_messages_may_quote_and_attribute_messages_use_typographic_quotes(check) -> None:  # type: ignore[no-untyped-def]
    assert check("Sort hand", 'Trier la "main"') == []
    assert check(LOADING, "Chargement « rapide » d’abord") == []
    # the apostrophe of running French or Dutch is fine: the value is escaped and double-quoted
    assert check(LOADING, "Chargement d'abord") == []
    assert check("Rules", "A ≤ B, c = 1 on top") == []  # prose with = and on is fine


def test_every_attribute_message_is_a_real_msgid() -> None:
    template = catalogs.read_catalog(catalogs.TEMPLATE)
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    assert catalogs.attribute_msgids() <= ids
    assert {i18n.CARD_NAME, THROW_VALUE, LOADING} <= catalogs.attribute_msgids()


# -- placeholders ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("msgid", "msgstr", "what"),
    [
        # 100 MB of padding in every French table response
        ("Your total: {total}", "Votre total : {total:>99999999}", "format spec"),
        ("Your total: {total}", "Votre total : {total!r}", "conversion"),
        # "cannot read" at run time instead of the refusal
        ("Your total: {total}", "Votre total : {0}", "positional"),
        ("Your total: {total}", "Votre total : {}", "positional"),
        ("{seat} calls.", "{seat!r}{seat[0]} annonce.", "indexed"),
        ("{seat} calls.", "{seat.__class__} annonce.", "attribute access"),
        ("{seat} calls.", "{seat-x} annonce.", "not a plain name"),
        ("{seat} calls.", "{seat} annonce {", "unbalanced"),
        ("{seat} calls.", "{seat} annonce }", "unbalanced"),
        ("{seat} calls.", "{seat annonce", "unbalanced"),
        ("{seat} calls.", "{seat:{seat}} annonce", "format spec"),
    ],
)
def test_only_the_sources_plain_fields_are_accepted(check, msgid: str, msgstr: str, what: str) -> None:  # type: ignore[no-untyped-def]
    problems = check(msgid, msgstr)
    assert any(p.unsafe and what in p.what for p in problems), problems


def test_plain_fields_literal_braces_and_example_note_fields_pass(check) -> None:  # type: ignore[no-untyped-def]
    assert check("Your total: {total}", "Votre total : {total}") == []
    assert check("Use {{braces}} for {name}", "{name} et des {{accolades}}") == []
    assert check("A calls on {hand_row.A}.", "A annonce sur {hand_row.A}.") == []
    problems = check("A calls on {hand_row.A}.", "A annonce sur {hand_row.B}.")
    assert any("placeholders differ" in p.what for p in problems)


def test_a_bad_placeholder_is_not_compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _po(tmp_path, [("Your total: {total}", "Votre total : {total:>99999999}")])
    monkeypatch.setattr(catalogs, "LOCALES", root)
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    monkeypatch.setattr(catalogs, "PACKAGE_LOCALE", tmp_path / "out")
    with pytest.raises(catalogs.CatalogError, match="format spec"):
        catalogs.compile_catalogs(["xx"])
    assert not (tmp_path / "out").exists()


def test_every_source_message_uses_plain_fields_only() -> None:
    template = catalogs.read_catalog(catalogs.TEMPLATE)
    bad = []
    for m in template:
        for text in ([m.id] if isinstance(m.id, str) else list(m.id)):
            if text:
                bad += [f"{text!r}: {what}" for what in catalogs.fields(text)[1]]
    assert not bad, bad
