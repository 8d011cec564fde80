"""What ``make check-catalogs`` tells a translator and a developer, on a copy of the project.

- Each error is one line, ``error: FILE:LINE: what``, and every error is said again after
  the warnings, under a count, where the terminal leaves the reader; QUIET=1 counts the
  warnings instead of printing them (the German translator's first run printed 835 of
  them, the errors lost among them).
- A language started on Weblate (only its catalog, made from the template) is reported as
  new, with the command that sets it up, and what it lacks is a warning until then (it
  used to be "it: 0/935 translated, 935 problem(s)").
- A message added in English fails the complete languages, each naming the catalog's line,
  and the run says what a contributor who cannot translate does; CONTRIBUTING.md says it
  at length under the heading the message names.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dhumbal_site.translation import checks
from tests.catalogs.catalogkit import edit as _edit

ROOT = Path(__file__).resolve().parents[2]
_LOCATED = re.compile(r"^error: (?:docs|locales)/\S+:\d+: \S")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """What the checks read: pages, catalogs, glossary, interface strings, mkdocs.yml."""
    out = tmp_path / "project"
    shutil.copytree(ROOT / "docs", out / "docs", ignore=shutil.ignore_patterns("assets"))
    shutil.copytree(ROOT / "locales", out / "locales")
    shutil.copytree(ROOT / "overrides", out / "overrides")
    shutil.copyfile(ROOT / "mkdocs.yml", out / "mkdocs.yml")
    return out


def _run(root: Path, *, quiet: bool = False) -> tuple[int, str]:
    out = io.StringIO()
    status = checks.run(root=root, quiet=quiet, out=out)
    return status, out.getvalue()




def _start_on_weblate(root: Path, code: str) -> None:
    """What Weblate's "Start new translation" writes: the catalog alone, from the template."""
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", "init", "-i",
                    str(root / "locales" / "dhumbal.pot"), "-d", str(root / "locales"), "-D", "dhumbal",
                    "-l", code, "--no-wrap"], check=True)


def test_the_project_passes_and_says_so_last(copy: Path) -> None:
    status, out = _run(copy)
    assert status == 0, out[-3000:]
    assert "error:" not in out and out.rstrip().splitlines()[-1].startswith("No error; 0 warning(s)")


def test_every_error_names_its_file_and_line_and_is_said_again_after_the_warnings(copy: Path) -> None:
    _start_on_weblate(copy, "it")  # hundreds of warnings, as a new language's first run has
    fr = copy / "locales" / "fr" / "LC_MESSAGES" / "dhumbal.po"
    _edit(fr, 'msgstr "Téléchargement : {percent}\u202f%"', 'msgstr "Téléchargement : {pourcent} %"')
    _edit(copy / "docs" / "fr" / "index.md", 'title: "Dhumbal (Jhyap) : les règles de référence"',
          'title: "Dhumbal (Jhyap) : les règles de référence')
    _edit(copy / "docs" / "nl" / "rules" / "dashain.md", "<!-- dhumbal:example dashain-runs -->\n", "")
    _edit(copy / "docs" / "nl" / "index.md", "Spellen van dit soort", "Spellen van deze soort, de beste van 5,")
    _edit(copy / "docs" / "nl" / "puzzles.md", "description: Wat zou jij doen?", "description: Wat zou <b>jij</b> doen?")
    status, out = _run(copy)
    assert status == 1
    lines = out.splitlines()
    errors = [line for line in lines if line.startswith("error:")]
    assert errors and all(_LOCATED.match(line) for line in errors), [e for e in errors if not _LOCATED.match(e)]
    summary = next(i for i, line in enumerate(lines) if re.match(r"^\d+ error\(s\), \d+ warning\(s\)", line))
    assert summary > max(i for i, line in enumerate(lines) if line.startswith("warning:"))
    said_again = lines[summary + 1:]
    assert said_again and all(line.startswith("error:") for line in said_again)
    assert len(said_again) == len(set(said_again)) == len(errors) // 2
    expected = [
        r"locales/fr/LC_MESSAGES/dhumbal\.po:\d+: placeholders differ: missing \{percent\}; unknown \{pourcent\}",
        r"docs/fr/index\.md:2: the double quote that opens the value of 'title' is never closed: close the quote on line 2",
        r"docs/nl/rules/dashain\.md:\d+: the generated content <!-- dhumbal:example dashain-runs --> is missing "
        r"\(in English: docs/en/rules/dashain\.md:\d+\)",
        r"docs/nl/puzzles\.md:3: field 'description' holds markup",
    ]
    for pattern in expected:
        assert any(re.match("error: " + pattern, line) for line in said_again), (pattern, said_again)


def test_quiet_counts_the_warnings_and_keeps_every_error(copy: Path) -> None:
    _start_on_weblate(copy, "it")
    _edit(copy / "locales" / "fr" / "LC_MESSAGES" / "dhumbal.po", 'msgstr "Niveau : {level}"', 'msgstr "Niveau : {niveau}"')
    status, out = _run(copy, quiet=True)
    assert status == 1 and "warning:" not in out
    count = re.search(r"^1 error\(s\), (\d+) warning\(s\) \(not shown", out, re.M)
    assert count is not None and int(count.group(1)) > 900, out[-500:]


def test_a_language_started_on_weblate_is_new_and_warned_of_until_it_is_set_up(copy: Path) -> None:
    _start_on_weblate(copy, "it")
    status, out = _run(copy)
    assert status == 0, [line for line in out.splitlines() if line.startswith("error:")][:10]
    assert "it: new: run `make new-language CODE=it`" in out
    assert re.search(r"^it: 0/\d+ translated, 0 problem\(s\), \d+ warning\(s\) \(being translated\)$", out, re.M)
    assert re.search(r"^warning: locales/it/LC_MESSAGES/dhumbal\.po:\d+: not translated: 'Hint'$", out, re.M)
    # a translation that is wrong fails at once, new language or not
    _edit(copy / "locales" / "it" / "LC_MESSAGES" / "dhumbal.po", 'msgid "Hint"\nmsgstr ""', 'msgid "Hint"\nmsgstr "<i>"')
    status, out = _run(copy)
    assert status == 1 and re.search(r"^error: locales/it/LC_MESSAGES/dhumbal\.po:\d+: markup or script", out, re.M)


def test_the_pull_request_comment_lists_each_error_once_and_the_new_language_as_a_note(copy: Path) -> None:
    from tools import translation_report

    _start_on_weblate(copy, "it")
    _edit(copy / "locales" / "fr" / "LC_MESSAGES" / "dhumbal.po", 'msgstr "Niveau : {level}"', 'msgstr "Niveau : {niveau}"')
    status, out = _run(copy)
    comment = translation_report.report(out, status, "", 0)
    problems = comment[comment.index("### Problems to fix"):comment.index("### Notes")]
    assert problems.count("dhumbal.po") == 1 and "placeholders differ" in problems
    assert "it: new: run ′make new-language CODE=it′" in comment[comment.index("### Notes"):]


def test_a_message_not_translated_says_what_a_developer_who_cannot_translate_does(copy: Path) -> None:
    template = copy / "locales" / "dhumbal.pot"
    template.write_text(template.read_text(encoding="utf-8") + '\n#: engine/dhumbal/core/profiles.py\n'
                        'msgid "Turns before a long deal ends"\nmsgstr ""\n', encoding="utf-8")
    for lang in ("fr", "nl", "ne"):
        po = copy / "locales" / lang / "LC_MESSAGES" / "dhumbal.po"
        po.write_text(po.read_text(encoding="utf-8") + '\n#: engine/dhumbal/core/profiles.py\n'
                      'msgid "Turns before a long deal ends"\nmsgstr ""\n', encoding="utf-8")
    status, out = _run(copy)
    assert status == 1
    for lang in ("fr", "nl", "ne"):
        assert re.search(rf"^error: locales/{lang}/LC_MESSAGES/dhumbal\.po:\d+: not translated: 'Turns before a long "
                         r"deal ends'$", out, re.M), lang
    note = re.search(r"^note: (.*CONTRIBUTING\.md, \"(.+)\"\))$", out, re.M)
    assert note is not None, out[-2000:]
    assert "open the pull request as it is" in note.group(1)
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = re.search(rf"^#+ {re.escape(note.group(2))}\n(.*?)(?=^#)", contributing, re.M | re.S)
    assert section is not None, f"CONTRIBUTING.md has no section {note.group(2)!r}"
    assert "make catalogs" in section.group(1) and "pull request" in section.group(1)
