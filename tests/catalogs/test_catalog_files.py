"""A broken or hostile catalog file gets one clear line per broken entry, naming the file
and the line, and the rest of the file is still checked (issue 21, items 8 and 10; issue 40).

Each case used to pass the check and break the build later (a ``Plural-Forms``
header that Python's gettext refuses or that divides by zero, a NUL inside a
translation), or to stop the check with a traceback (invalid UTF-8, a
repeated msgid, an unterminated string), or to take time growing with the
square of a translation's length (the markup test: 7.4 s on 40,000 letters),
or to hide every other problem of the file behind the first one (an
unescaped quote), printing Devanagari as ``\\u0905`` escapes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dhumbal_site.translation import catalogs, pofile

ROOT = Path(__file__).resolve().parents[2]


HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n"Plural-Forms: {forms}\\n"\n\n'
GOOD_FORMS = "nplurals=2; plural=(n > 1);"
BODY = 'msgid "Play"\nmsgstr "Jouer"\n\nmsgid "{count} card"\nmsgid_plural "{count} cards"\nmsgstr[0] "{count} carte"\nmsgstr[1] "{count} cartes"\n'


@pytest.fixture
def catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Write a language ``xx`` catalog (text or bytes) and point the catalogs module at it."""
    root = tmp_path / "locales"
    (root / "xx" / "LC_MESSAGES").mkdir(parents=True)
    monkeypatch.setattr(catalogs, "LOCALES", root)
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    monkeypatch.setattr(catalogs, "TEMPLATE", root / "dhumbal.pot")
    monkeypatch.setattr(catalogs, "PACKAGE_LOCALE", tmp_path / "out")

    def write(content: str | bytes) -> Path:
        path = root / "xx" / "LC_MESSAGES" / "dhumbal.po"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return write


def _po(forms: str = GOOD_FORMS, body: str = BODY) -> str:
    return HEADER.replace("{forms}", forms) + body


BROKEN = [
    # (what the file holds, the line named, what the message says)
    (_po("nplurals=2; plural=n/0;"), 4, "fails for n = 0 (ZeroDivisionError)"),
    (_po("nplurals=2; plural=n%(n-n);"), 4, "fails for n = 0"),
    (_po("nplurals=2; plural=(n > 1) ? 7 : 0;"), 4, "gives form 7 for n = 2"),
    (_po("nplurals=2; plural=__import__('os').system('x');"), 4, "cannot read the plural expression"),
    (_po("nplurals=2; plural=n if n else 1;"), 4, "cannot read the plural expression"),
    (_po("nplurals=2; plural=" + "(" * 40 + "n" + ")" * 40 + ";"), 4, "cannot read the plural expression"),
    (_po("nplurals=2; plural=" + "n+" * 400 + "n;"), 4, "longer than"),
    (_po("nplurals=999999999999; plural=n;"), 4, "must read 'nplurals=N; plural=EXPRESSION;'"),
    (_po("nplurals=0; plural=0;"), 4, "declares 0 plural forms"),
    (_po("nplurals=9; plural=n%9;"), 4, "declares 9 plural forms"),
    (_po("plural=(n > 1);"), 4, "must read"),
    (_po(body='msgid "Play"\nmsgstr "Jo\x00uer"\n'), 7, "control character U+0000"),
    (_po(body='msgid "Play"\nmsgstr "Jo\x1b[2Juer"\n'), 7, "control character U+001B"),
    (_po(body='msgid "Play"\nmsgstr "Jo\\0uer"\n'), 7, "unknown escape"),
    (_po(body='msgid "Play"\nmsgstr "Jouer\\"\n'), 7, "unterminated or misplaced string"),
    (_po(body='msgid "Play"\nmsgstr "Jouer\n'), 7, "unterminated or misplaced string"),
    (_po(body='msgid "Play"\nmsgstr "Jouer"\n"plus\n'), 8, "unterminated or misplaced string"),
    (_po(body='msgid "Play"\nmsgstr "Jouer"\n\nmsgid "Play"\nmsgstr "Encore"\n'), 9, "msgid repeated (first at line 6)"),
    # repeated multi-line msgids, which the old check let through
    (_po(body='msgid ""\n"Pl"\n"ay"\nmsgstr "Jouer"\n\nmsgid ""\n"Play"\nmsgstr "Encore"\n'), 11, "msgid repeated"),
    (_po(body='msgid "Play"\nmsgstr "Jouer"\nmsgstr "Encore"\n'), 8, "out of order or repeated"),
    (_po(body='msgid "Play"\n\nmsgid "Sort"\nmsgstr "Trier"\n'), 6, "msgid without a msgstr"),
    (_po(body='msgid "a"\nmsgid_plural "b"\nmsgstr[0] "x"\n'), 6, "1 plural forms where the header declares 2"),
    (_po(body='msgid "a"\nmsgstr[0] "x"\n'), 7, "msgstr[N] for a message without msgid_plural"),
    (_po(body='msgid "Play"\nmsgstr "Jouer"\nbonjour\n'), 8, "not a valid catalog line"),
    (HEADER.replace("{forms}", GOOD_FORMS).encode() + b'msgid "Play"\nmsgstr "Jou\xe9r"\n', 7, "not valid UTF-8 (byte 0xe9)"),
]


@pytest.mark.parametrize(("content", "line", "what"), BROKEN)
def test_a_broken_catalog_is_refused_naming_file_and_line(catalog, content: str | bytes, line: int, what: str) -> None:  # type: ignore[no-untyped-def]
    catalog(content)
    try:
        messages = [str(p) for p in catalogs.check_catalog("xx") if p.unsafe]
    except catalogs.CatalogError as error:  # a file that cannot be read at all (not UTF-8)
        messages = [str(error)]
    assert messages, "the broken entry was not reported"
    message = messages[0]
    assert message.startswith(f"locales/xx/LC_MESSAGES/dhumbal.po:{line}: "), message
    assert what in message, message
    for shown in messages:
        assert "\n" not in shown and "\x00" not in shown and "\x1b" not in shown
    # and nothing is compiled from it
    with pytest.raises(catalogs.CatalogError):
        catalogs.compile_catalogs(["xx"])
    assert not (catalogs.PACKAGE_LOCALE).exists()


def test_a_good_catalog_passes_and_compiles_for_gettext(catalog) -> None:  # type: ignore[no-untyped-def]
    catalog(_po())
    assert catalogs.check_catalog("xx") == []
    import gettext

    (mo,) = catalogs.compile_catalogs(["xx"])
    with mo.open("rb") as fh:
        translations = gettext.GNUTranslations(fh)
    assert translations.ngettext("{count} card", "{count} cards", 2) == "{count} cartes"
    assert translations.ngettext("{count} card", "{count} cards", 1) == "{count} carte"


def test_a_byte_order_mark_and_windows_line_ends_are_read(catalog) -> None:  # type: ignore[no-untyped-def]
    catalog(b"\xef\xbb\xbf" + _po().replace("\n", "\r\n").encode())
    assert catalogs.check_catalog("xx") == []


def test_real_plural_rules_of_other_languages_pass() -> None:
    for forms in (
        "nplurals=1; plural=0;",
        "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
        "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);",
    ):
        assert pofile.plural_forms(f"Plural-Forms: {forms}", "x") >= 1


def test_sizes_are_bounded_before_reading(catalog, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    # a 4 MB catalog is refused by its size, without being read
    path = catalog(_po(body='msgid "Play"\nmsgstr "' + "a" * 4_000_000 + '"\n'))
    with pytest.raises(catalogs.CatalogError, match=r"dhumbal\.po: \d+ bytes, more than a catalog may hold"):
        catalogs.check_catalog("xx")
    # a 40,000-letter translation is refused by its line's length, naming the line
    path.write_text(_po(body='msgid "Play"\nmsgstr "' + "a" * 40_000 + '"\n'), encoding="utf-8")
    assert [str(p) for p in catalogs.check_catalog("xx")] == [
        "locales/xx/LC_MESSAGES/dhumbal.po:7: a line of 40009 characters (at most 20000)"]


def test_a_catalog_that_is_not_a_regular_file_is_refused(catalog, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = catalog(_po())
    path.unlink()
    os.mkfifo(path)  # a reader would wait for ever on a FIFO
    with pytest.raises(catalogs.CatalogError, match="not a regular file"):
        catalogs.check_catalog("xx")


def test_file_names_are_printed_escaped(tmp_path: Path) -> None:
    path = tmp_path / "evil\x1b]0;x\x07.po"
    path.write_text('msgid "a"\nmsgstr "b\n', encoding="utf-8")
    (problem,) = pofile.scan(path, tmp_path).problems
    assert problem.startswith("evil\\x1b]0;x\\x07.po:2: ")


def test_one_broken_entry_hides_no_other_problem_and_devanagari_reads_as_devanagari(catalog) -> None:  # type: ignore[no-untyped-def]
    """An unescaped quote used to stop the check at its line, every other problem unseen,
    and print the Nepali around it as \\u0905 escapes."""
    (catalog.__wrapped__ if hasattr(catalog, "__wrapped__") else catalog)(_po(body=(
        'msgid "Play"\nmsgstr "खेल "सुरु" गर्नुहोस्"\n\n'          # an unescaped quote
        'msgid "Sort"\nmsgstr ""\n\n'                                # not translated
        'msgid "{count} card"\nmsgid_plural "{count} cards"\nmsgstr[0] "{total} पत्ती"\nmsgstr[1] "{count} पत्ती"\n\n'
        'msgid "Hint"\nmsgstr "सङ्केत\\q"\n'                        # an unknown escape
    )))
    shown = [str(p) for p in catalogs.check_catalog("xx")]
    po = "locales/xx/LC_MESSAGES/dhumbal.po"
    assert shown[0] == f"{po}:7: unterminated or misplaced string: 'msgstr \"खेल \"सुरु\" गर्नुहोस्\"' (a quote inside a translation is written \\\")"
    assert f"{po}:18: unknown escape '\\\\q' in a string (use \\\\ \\\" \\n or \\t)" in shown
    assert f"{po}:9: not translated: 'Sort'" in shown
    assert any(s.startswith(f"{po}:12: placeholders differ: missing {{count}}; unknown {{total}}") for s in shown)
    assert not any("\\u09" in s for s in shown)
    # the build refuses the file, naming every broken entry
    with pytest.raises(catalogs.CatalogError) as caught:
        catalogs.compile_catalogs(["xx"])
    assert str(caught.value).count(po) >= 2


def test_the_check_command_reports_in_one_line_and_goes_on(catalog, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    catalog(_po("nplurals=2; plural=n/0;"))
    assert catalogs.main(["check"]) == 1
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert "locales/xx/LC_MESSAGES/dhumbal.po:4: the plural expression fails for n = 0 (ZeroDivisionError)" in out
    assert "xx: 0/0 translated, 1 problem(s)" in out
    assert catalogs.main(["compile"]) == 1
    assert "dhumbal.po:4:" in capsys.readouterr().err


def test_the_script_itself_exits_1_without_a_traceback(tmp_path: Path) -> None:
    """``make check-catalogs`` runs the installed module in a process of its own: the same
    one-line report there."""
    bad = tmp_path / "bad.po"
    bad.write_bytes(b'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=n/0;\\n"\n')
    code = textwrap.dedent(
        f"""
        from pathlib import Path
        from dhumbal_site.translation.catalogs import scan
        for problem in scan(Path({str(bad)!r})).problems:
            print("refused:", problem)
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "refused: " in result.stdout and "bad.po:3: the plural expression fails" in result.stdout


#: Shapes that made the old markup test quadratic (or worse), about 200 kB
#: each, as expressions the child process evaluates.
ADVERSARIAL = {
    "letters": '"a" * 200_000',
    "data URLs": '"data:" * 40_000',
    "tag openings": '"<" + " " * 200_000',
    "spaced tags": '"< " * 100_000',
    "attributes": '"a=" * 100_000',
    "handlers": '"on" * 100_000',
    "script URLs": '"j " * 100_000',
    "braces": '"{" * 200_000',
    "non-ASCII words": '("é" * 50 + " ") * 4_000',
    "percent fields": '"%(" * 100_000',
}


def test_the_translation_checks_are_linear() -> None:
    """All the shapes, 2 MB in all, are checked in a child process held to 30 s of CPU.

    A linear check takes well under a second; the old one would have taken
    minutes each (7.4 s for 40,000 letters, growing with the square). The limit is
    on CPU time, not on the clock, so a loaded machine does not fail the test.
    """
    code = textwrap.dedent(
        f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_CPU, (30, 30))
        from dhumbal_site.translation import catalogs
        shapes = {ADVERSARIAL!r}
        for name, expression in shapes.items():
            text = eval(expression)
            for attribute in (False, True):
                catalogs.unsafe_text(text, attribute=attribute)
            catalogs.placeholders(text)
            catalogs.fields(text)
        print("checked", len(shapes))
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0 and "checked 10" in result.stdout, result.stderr[-2000:]


def test_a_hostile_translation_is_still_found_after_the_rewrite() -> None:
    # the linear patterns find what the old ones found, at any position
    for text in ("x" * 50_000 + "<svg/onload=alert(1)>", "a=" * 1000 + 'tabindex="0"', "data:" * 1000 + "data:text/html;base64,x"):
        assert catalogs.unsafe_text(text), text[-40:]
