"""Fixtures of the catalog and page checks' tests: a copy of the project the checks read,
for tests that seed a defect in it (the project itself is never changed). A test file that
needs another copy defines its own ``project`` (test_new_language_steps.py: a bare project)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of what the terminology check reads: pages, catalogs, glossary, interface strings."""
    out = tmp_path / "project"
    shutil.copytree(ROOT / "docs", out / "docs", ignore=shutil.ignore_patterns("assets"))
    shutil.copytree(ROOT / "locales", out / "locales")
    shutil.copytree(ROOT / "overrides", out / "overrides")
    return out
