"""A new contributor adds a fifth language by following the Contribute page alone."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any


ROOT = Path(__file__).resolve().parents[2]
CODE = "de"  # a language Material ships interface strings for (step 5 of the page is then not needed)

BLOCK = """        - locale: de
          name: Deutsch
          build: true
          theme:
            language: de
            palette:
              - toggle:
                  name: Dunkles Design
              - toggle:
                  name: Helles Design
          nav_translations:
            Home: Start
            Rules: Regeln
"""


def _copy_build_caches(dst: Path) -> None:
    """The site build's caches (``build/``: the engine wheel, the call-odds figures, the
    puzzles' grades, the icons), as a contributor who has built the site before has them.

    Each entry is named by a hash of everything it is made from (the engine's sources,
    the puzzle file, the sizes; see sitegen's ``cached_wheel``, ``odds_chart`` and
    ``puzzles``), and the copy's sources are the same files: the build reads exactly
    what it would compute, and computes anything missing (the languages do not enter
    these caches). Lock files and half-written scratch entries (dot names) are left."""
    source = ROOT / "build"
    if source.is_dir():
        shutil.copytree(source, dst / "build", ignore=shutil.ignore_patterns(".*"))


def _copy_project(dst: Path) -> None:
    skip = {".venv", "node_modules", "site", "build", ".git", ".pytest_cache", ".mypy_cache", ".hypothesis"}
    for item in ROOT.iterdir():
        if item.name in skip or item.name.endswith(".egg-info"):
            continue
        if item.is_dir():
            shutil.copytree(item, dst / item.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(item, dst / item.name)
    # the contributor's machine already ran `make setup`
    (dst / ".venv").symlink_to(ROOT / ".venv")
    (dst / "node_modules").symlink_to(ROOT / "node_modules")


def test_a_fifth_language_builds_by_following_the_contribute_page(tmp_path: Path, shared_site: Any) -> None:
    # ``shared_site``: the run's build of the real site, done (passed or not), has filled
    # the checkout's build caches, which the copy starts with (_copy_build_caches).
    page = (ROOT / "docs" / "en" / "contribute.md").read_text(encoding="utf-8")
    section = page[page.index("## Add a language"):page.index("## Terminology")]
    # the page names every step this test takes
    for needle in ("make new-language CODE=<code>", "docs/en/", "docs/<code>/", "mkdocs.yml", "locales/glossary.toml", "make build"):
        assert needle in section, needle

    project = tmp_path / "project"
    project.mkdir()
    _copy_project(project)
    _copy_build_caches(project)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}

    # 1. the catalog
    subprocess.run(["make", "--no-print-directory", "-o", ".venv/.installed", "new-language", f"CODE={CODE}"], cwd=project, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    assert (project / "locales" / CODE / "LC_MESSAGES" / "dhumbal.po").exists()
    # 2. the pages
    shutil.copytree(project / "docs" / "en", project / "docs" / CODE)
    # 3. mkdocs.yml
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"(\n\s*- locale: ne\n(?:.*\n)*?\s*Rules: .*\n)", lambda m: m.group(1) + BLOCK, config, count=1)
    assert "locale: de" in config
    (project / "mkdocs.yml").write_text(config, encoding="utf-8")
    # 4. the glossary
    glossary = project / "locales" / "glossary.toml"
    text = glossary.read_text(encoding="utf-8")
    text = re.sub(r'^(en = (\{.*\}))$', r"\1\nde = \2", text, flags=re.M)
    glossary.write_text(text, encoding="utf-8")
    # 7. build, strict
    result = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "mkdocs"), "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=project, env=env, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    home = (tmp_path / "site" / CODE / "index.html").read_text(encoding="utf-8")
    assert 'lang="de"' in home
    glossary_page = (tmp_path / "site" / CODE / "glossary" / "index.html").read_text(encoding="utf-8")
    assert "Deutsch" in glossary_page
    # the other languages know the new one in their switcher
    assert "/de/" in (tmp_path / "site" / "fr" / "index.html").read_text(encoding="utf-8")
