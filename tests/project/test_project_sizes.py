"""No Python module of the project runs over 600 lines.

Every module does one job, named for it (CONTRIBUTING.md); one that grows past
600 lines has usually taken on a second, and is split by job, not by length.
The cap holds over every Python file of the project: the engine, the site glue,
the tests, the bench and the tools, with no exemption.
"""

from __future__ import annotations

from pathlib import Path

from tests.project.test_project_docstrings import project_modules

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 600


def oversized(paths: list[Path], limit: int = LIMIT) -> list[str]:
    found = []
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{path.relative_to(ROOT)}: {lines} lines (at most {limit})")
    return found


def test_no_python_module_is_over_600_lines() -> None:
    modules = project_modules()
    assert {"engine", "sitegen", "tests", "bench", "tools"} <= {p.relative_to(ROOT).parts[0] for p in modules}
    found = oversized(modules)
    assert not found, "split by job:\n" + "\n".join(found)


def test_the_size_check_can_fail() -> None:
    big = ROOT / "tests" / "project" / "test_project_sizes.py"
    assert oversized([big], limit=10) == [f"tests/project/test_project_sizes.py: {len(big.read_text().splitlines())} lines (at most 10)"]
