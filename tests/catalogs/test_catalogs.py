"""The translation catalogs stay complete, safe and current as the project grows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from dhumbal_site.translation import catalogs
from tests.sitekit import warn_of

ROOT = Path(__file__).resolve().parents[2]


#: Every language with a catalog (a fifth one is in at once, see make new-language).
LANGS = tuple(catalogs.languages())


def _extract(tmp_path: Path) -> Path:
    out = tmp_path / "fresh.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-F", "pyproject.toml",
         "-o", str(out), "--omit-header", "--no-wrap", "."],
        cwd=ROOT, check=True,
    )
    return out


def _ids(path: Path) -> set[object]:
    with path.open("rb") as fh:
        return {m.id for m in read_po(fh) if m.id}


def test_template_is_current_with_the_sources(tmp_path: Path) -> None:
    fresh = _ids(_extract(tmp_path))
    committed = _ids(catalogs.TEMPLATE)
    missing = sorted(map(str, fresh - committed))
    stale = sorted(map(str, committed - fresh))
    assert not missing and not stale, (
        "locales/dhumbal.pot is out of date: run `make catalogs`.\n"
        f"new messages: {missing[:20]}\nremoved messages: {stale[:20]}"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_is_complete_and_safe(lang: str) -> None:
    """Safe always; complete too, unless the language is still being translated (its
    missing messages are then warnings of the run)."""
    template = catalogs.read_catalog(catalogs.TEMPLATE)
    problems = catalogs.check_catalog(lang, template)
    wrong = [str(p) for p in problems if not p.incomplete]
    missing = warn_of(lang, [str(p) for p in problems if p.incomplete])
    hint = f"\n{catalogs.CANNOT_TRANSLATE}" if missing else ""
    assert not wrong and not missing, (f"{len(wrong) + len(missing)} problem(s) in {lang}:\n"
                                       + "\n".join((wrong + missing)[:40]) + hint)


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_header_is_right_for_the_language(lang: str) -> None:
    from babel.messages.plurals import get_plural

    cat = catalogs.read_catalog(catalogs.po_path(lang), lang)
    expected = get_plural(lang.replace("-", "_"))  # gettext's rule for the language (fr: n > 1)
    assert cat.plural_expr == expected.plural_expr and cat.num_plurals == expected.num_plurals


def _write_po(tmp_path: Path, msgid: str, msgstr: str) -> Path:
    root = tmp_path / "locales"
    (root / "xx" / "LC_MESSAGES").mkdir(parents=True)
    po = root / "xx" / "LC_MESSAGES" / "dhumbal.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        f'msgid "{msgid}"\nmsgstr "{msgstr}"\n',
        encoding="utf-8",
    )
    return root


@pytest.mark.parametrize(
    ("msgid", "msgstr", "what"),
    [
        ("{seat} calls on {total}.", "{seat} annonce sur {totaal}.", "placeholders differ"),
        ("{seat} calls on {total}.", "{seat} annonce.", "placeholders differ"),
        ("Take %(count)s cards", "Prenez des cartes", "placeholders differ"),
        ("Play", "<script>alert(1)</script>", "markup or script"),
        ("Play", "<img src=x onerror=alert(1)>", "markup or script"),
        ("Play", "Jouer <a href='javascript:alert(1)'>ici</a>", "markup or script"),
        ("Play", "<b>Jouer</b>", "HTML tag"),
        ("Play", "", "not translated"),
    ],
)
def test_bad_translations_are_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, msgid: str, msgstr: str, what: str) -> None:
    root = _write_po(tmp_path, msgid, msgstr)
    monkeypatch.setattr(catalogs, "LOCALES", root)
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    problems = catalogs.check_catalog("xx")
    assert any(what in p.what for p in problems), problems


def test_a_broken_catalog_fails_compilation_naming_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _write_po(tmp_path, "Play", "Jouer")
    po = root / "xx" / "LC_MESSAGES" / "dhumbal.po"
    po.write_text(po.read_text(encoding="utf-8") + 'msgid "Broken\nmsgstr ""\n', encoding="utf-8")
    monkeypatch.setattr(catalogs, "LOCALES", root)
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    with pytest.raises(catalogs.CatalogError, match="dhumbal.po"):
        catalogs.compile_catalogs(["xx"])


def test_unsafe_translation_is_not_compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _write_po(tmp_path, "Play", "<script>x</script>")
    monkeypatch.setattr(catalogs, "LOCALES", root)
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    monkeypatch.setattr(catalogs, "PACKAGE_LOCALE", tmp_path / "out")
    with pytest.raises(catalogs.CatalogError, match="markup"):
        catalogs.compile_catalogs(["xx"])
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("lang", "name"), [("en", "King of spades"), ("fr", "roi de pique"), ("nl", "schoppenheer"), ("ne", "हुकुमको बादशाह")])
def test_card_names_read_naturally(lang: str, name: str) -> None:
    catalogs.compile_catalogs()
    from dhumbal.core.i18n import card_name, translations

    translations.cache_clear()
    from dhumbal.core.i18n import translator

    translator.cache_clear()
    assert card_name("K♠", lang).lower() == name.lower()


def test_compiled_catalogs_do_not_depend_on_the_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine wheel is cached by a hash of the package, .mo files included:
    a compiled catalog that changed every minute would rebuild it on every build."""
    import gettext

    root = _write_po(tmp_path, "Play", "Jouer")
    monkeypatch.setattr(catalogs, "LOCALES", root)
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    monkeypatch.setattr(catalogs, "PACKAGE_LOCALE", tmp_path / "out")
    (mo,) = catalogs.compile_catalogs(["xx"])
    first = mo.read_bytes()
    with mo.open("rb") as fh:
        assert gettext.GNUTranslations(fh).info()["pot-creation-date"].startswith("1980-01-01")
    stamp = mo.stat().st_mtime_ns
    catalogs.compile_catalogs(["xx"])
    assert mo.read_bytes() == first
    assert mo.stat().st_mtime_ns == stamp, "an unchanged catalog was rewritten"
