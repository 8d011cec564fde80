"""The way in without git and Python: the pull-request workflow that runs the checks
and comments what they found, and its comment (the Weblate configuration has its own
tests, test_weblate.py)."""

from __future__ import annotations

from pathlib import Path

import yaml

from tools import translation_report

ROOT = Path(__file__).resolve().parents[2]


CHECKS = """\
locales/hi/LC_MESSAGES/dhumbal.po:1151: unterminated or misplaced string: 'msgstr "खेल "सुरु""'
warning: locales/hi/LC_MESSAGES/dhumbal.po:12: not translated: 'Sort'
fr: 715/715 translated, 0 problem(s)
hi: 9/715 translated, 1 problem(s), 706 warning(s) (being translated)
warning: hi/index.md: the page is not translated yet: it is still the English text
fr: 10/10 pages at parity with English, 0 declared difference(s)
warning: fr/rules/dashain.md: the English page changed since this translation was last updated
fr: 9/10 translated pages follow the current English page
hi: 36 glossary entries to write
front matter: 50 pages, 0 problem(s)
make: *** [Makefile:99: check-catalogs] Error 1
"""
BUILD = """INFO    -  Building documentation
ERROR   -  dhumbal: docs/hi/examples.md: the generated content <!-- dhumbal:example k-pair --> of the English page (docs/en/examples.md:20) is missing; copy that line as it is
Aborted with a BuildError!
"""


def test_the_comment_lists_problems_with_their_lines_and_folds_the_warnings() -> None:
    comment = translation_report.report(CHECKS, 1, BUILD, 1)
    assert comment.startswith(translation_report.MARKER + "\n")
    assert "❌ `make check-catalogs`: 1 problem(s), 3 warning(s)" in comment
    assert "❌ strict build (`make build`): failed" in comment
    problems = comment[comment.index("### Problems to fix"):comment.index("### The build")]
    assert "dhumbal.po:1151: unterminated or misplaced string" in problems and "खेल" in problems
    assert "translated, " not in problems and "make: ***" not in problems  # summaries and make's noise left out
    assert "docs/hi/examples.md: the generated content" in comment[comment.index("### The build"):]
    warnings = comment[comment.index("<details>"):]
    assert "hi/index.md: the page is not translated yet" in warnings and "fr/rules/dashain.md: the English page changed" in warnings


def test_a_clean_run_says_so() -> None:
    comment = translation_report.report("fr: 715/715 translated, 0 problem(s)\n", 0, "INFO - built\n", 0)
    assert "✅ `make check-catalogs`: no problem" in comment and "✅ strict build" in comment
    assert "### Problems" not in comment and "<details>" not in comment and "Everything the checks read is in order." in comment


def _workflow(name: str) -> dict:
    data = yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))
    data["on"] = data.pop(True)  # YAML 1.1 reads the key `on` as true
    return data


def test_every_pull_request_runs_the_checks_and_the_strict_build_and_comments() -> None:
    checks = _workflow("translations.yml")
    assert "pull_request" in checks["on"] and checks["permissions"] == {"contents": "read"}
    steps = checks["jobs"]["check"]["steps"]
    runs = "\n".join(step.get("run", "") for step in steps)
    assert "make check-catalogs" in runs and "make build" in runs and "tools/translation_report.py" in runs
    assert any(step.get("uses", "").startswith("actions/upload-artifact@") for step in steps)
    assert "exit 1" in steps[-1]["run"]  # the run fails when a check failed, after the comment is written
    comment = _workflow("translations-comment.yml")
    assert comment["on"]["workflow_run"]["workflows"] == [checks["name"]]
    assert comment["permissions"] == {"actions": "read", "pull-requests": "write"}
    script = comment["jobs"]["comment"]["steps"][-1]["with"]["script"]
    assert translation_report.MARKER in script and "head.sha" in script and "updateComment" in script
