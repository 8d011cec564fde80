"""The GitHub workflows test what they publish, and actionlint checks them.

``make check`` runs on every push and pull request; the Pages deployment
builds only after ``make test`` has passed; both go through ``.ci/run``, the
project's own CI entry point, in the Debian the project is developed on. The
translation checks keep their own workflow (tests/catalogs/test_contributor_path.py).
actionlint, with shellcheck on the workflows' scripts, passes over every
workflow, as ``make check`` runs it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
VENV = ROOT / ".venv" / "bin"


def workflow(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    return data


def triggers(data: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = data.get("on", data.get(True))  # YAML 1.1 reads a bare "on" as true
    return found


def runs(job: dict[str, Any]) -> list[str]:
    return [str(step.get("run", "")).strip() for step in job["steps"]]


def test_make_check_runs_on_every_push_and_pull_request() -> None:
    data = workflow("check.yml")
    assert {"push", "pull_request"} <= set(triggers(data))
    assert triggers(data)["push"] is None  # every branch, not main alone
    (job,) = data["jobs"].values()
    assert "bash .ci/run check" in runs(job)
    assert data["permissions"] == {"contents": "read"}


def test_the_pages_deployment_waits_for_the_whole_suite() -> None:
    data = workflow("pages.yml")
    jobs = data["jobs"]
    assert "bash .ci/run" in runs(jobs["test"])
    assert jobs["build"]["needs"] == "test" and jobs["deploy"]["needs"] == "build"
    assert "make build" in runs(jobs["build"])


def test_ci_run_runs_make_test_or_make_check_and_nothing_else() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'target="${1:-test}"' in script and script.rstrip().endswith("exec make check\nfi\nmake test")
    done = subprocess.run(["bash", str(ROOT / ".ci" / "run"), "install; touch x"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2 and "usage: .ci/run [test|check]" in done.stderr


def test_make_check_runs_actionlint_over_every_workflow() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^check: .*\blint\b", makefile, re.M)
    lint = makefile[makefile.index("\nlint: "):]
    assert "/bin/actionlint" in lint[: lint.index("\n\n")] and ".github/workflows/*.yml" in lint
    assert "/bin/ruff check --no-cache engine sitegen tests tools bench" in lint[: lint.index("\n\n")]


def actionlint(*paths: Path) -> subprocess.CompletedProcess[str]:
    if not (VENV / "actionlint").is_file():
        pytest.fail("actionlint is not installed: run make setup", pytrace=False)
    return subprocess.run([str(VENV / "actionlint"), "-no-color", "-oneline", f"-shellcheck={VENV / 'shellcheck'}",
                           "-pyflakes=", *map(str, paths)], capture_output=True, text=True, timeout=120, check=False)


def test_actionlint_passes_over_every_workflow() -> None:
    paths = sorted(WORKFLOWS.glob("*.yml"))
    assert {p.name for p in paths} >= {"check.yml", "pages.yml", "translations.yml", "translations-comment.yml"}
    done = actionlint(*paths)
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_fails_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / ".github" / "workflows" / "broken.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text("on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n"
                      "      - uses: actions/checkout@v5\n        with:\n          fetch-depht: 0\n"
                      "      - run: echo ${{ github.event.pull_request.title }} $UNQUOTED\n", encoding="utf-8")
    done = actionlint(broken)
    assert done.returncode == 1
    assert "fetch-depht" in done.stdout  # an input the action does not have
