"""Benchmark of the site build (``make bench`` runs it after the engine's).

The whole site (``mkdocs build --strict`` of ``mkdocs.yml``: four languages,
the site glue, worked examples, comparison, card badges, each page's mini
table, search indexes, the runtime files) against a plain Material build of
the same pages: the same ``docs/``, theme, plugins and Markdown extensions,
without the site glue (the ``dhumbal`` plugin) and without the theme overrides except
the Nepali language partial (Material has no Nepali strings, and without it
the Nepali pages cannot be built at all). Markers stay HTML comments there.

Each build runs in a fresh process, as ``make build`` does; the two kinds
alternate; the figures are medians of the process's CPU time (user + system,
so other work on a shared machine does not inflate them) and of its wall
time. The engine wheel is cached by the site build (it is rebuilt only when
the engine changes), so one full build runs first to warm that cache, and
its time is printed apart.

Figures only: nothing here passes or fails on timing. Target: the whole
site in at most 1.5 times the plain build's CPU time.

    python -m bench.site_bench [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from mkdocs.utils.yaml import yaml_load

ROOT = Path(__file__).resolve().parents[1]
TARGET_RATIO = 1.5

PLAIN_CONFIG = """\
# The same pages, theme, plugins and extensions as mkdocs.yml, without the
# site glue and the theme overrides (written by bench/site_bench.py).
INHERIT: {inherit}
docs_dir: {docs}
theme:
  name: material
  custom_dir: overrides
"""


def plain_config(directory: Path) -> Path:
    """A configuration for the plain Material build, in ``directory``."""
    partial = directory / "overrides" / "partials" / "languages" / "ne.html"
    partial.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "overrides" / "partials" / "languages" / "ne.html", partial)
    path = directory / "mkdocs.yml"
    # A child configuration's plugins replace the whole list: mkdocs.yml's, but the glue.
    with (ROOT / "mkdocs.yml").open("rb") as fh:
        plugins = [p for p in yaml_load(fh)["plugins"] if (p if isinstance(p, str) else next(iter(p))) != "dhumbal"]
    text = PLAIN_CONFIG.format(inherit=ROOT / "mkdocs.yml", docs=ROOT / "docs")
    path.write_text(text + yaml.safe_dump({"plugins": plugins}, allow_unicode=True), encoding="utf-8")
    return path


def timed_build(config: Path | None, site_dir: Path) -> tuple[float, float]:
    """One ``mkdocs build --strict`` in a new process: (CPU seconds, wall seconds)."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)]
    if config is not None:
        command += ["--config-file", str(config)]
    # The same repository address for both (each page's edit link): without one, the plain
    # build's relative edit_uri warns on every page and the strict build stops.
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", DHUMBAL_REPO_URL="https://git.example/dhumbal/dhumbal")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.stderr.write((result.stdout + result.stderr)[-4000:])
        raise SystemExit(f"site bench: the {'plain' if config else 'site'} build failed")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="builds of each kind (default 5)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="dhumbal-site-bench-") as tmp:
        work = Path(tmp)
        plain = plain_config(work / "plain")
        print("Site build: the whole site against a plain Material build of the same pages")
        warm_cpu, warm_wall = timed_build(None, work / "site")
        print(f"  first build (wheel cache warmed if the engine changed): {warm_cpu:.2f} s CPU, {warm_wall:.2f} s wall")
        timed_build(plain, work / "plain-site")
        site: list[tuple[float, float]] = []
        base: list[tuple[float, float]] = []
        for _ in range(max(1, args.runs)):
            site.append(timed_build(None, work / "site"))
            base.append(timed_build(plain, work / "plain-site"))
        site_cpu = statistics.median(c for c, _ in site)
        base_cpu = statistics.median(c for c, _ in base)
        site_wall = statistics.median(w for _, w in site)
        base_wall = statistics.median(w for _, w in base)
        print(f"  {'':<22}{'CPU s':>8}{'wall s':>8}")
        print(f"  {'plain Material':<22}{base_cpu:>8.2f}{base_wall:>8.2f}")
        print(f"  {'whole site':<22}{site_cpu:>8.2f}{site_wall:>8.2f}")
        ratio = site_cpu / base_cpu
        print(f"  ratio (CPU) {ratio:.2f}x, (wall) {site_wall / base_wall:.2f}x; "
              f"target <= {TARGET_RATIO:.1f}x: {ratio / TARGET_RATIO:.2f} of target "
              f"(medians of {len(site)} builds each)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
