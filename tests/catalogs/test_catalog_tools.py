"""Every catalog passes the standard tools a translator's editor runs: GNU gettext's
``msgfmt --check-format`` (what Poedit runs when it saves a catalog, and what Weblate's
format checks follow) and Babel's ``pybabel compile``.

They failed in French, Dutch and Nepali on "{percent}% downloaded": Babel read the
"% d" of "% downloaded" as a printf directive, flagged the message python-format,
and then every translation had to carry that directive. The template must flag no
message python-format (the project's placeholders are all ``{name}``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from dhumbal_site.translation import catalogs

ROOT = Path(__file__).resolve().parents[2]


LANGS = tuple(catalogs.languages())


def msgfmt() -> str:
    found = shutil.which("msgfmt")
    if found is None:
        pytest.fail("msgfmt is not installed: apt-get install gettext (.ci/run does)", pytrace=False)
    return found


def check_format(po: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([msgfmt(), "--check-format", "--check-domain", "-o", str(out), str(po)],
                          capture_output=True, text=True, timeout=120)


def pybabel_compile(po: Path, out: Path, lang: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ROOT / ".venv" / "bin" / "pybabel") if (ROOT / ".venv" / "bin" / "pybabel").exists() else "pybabel",
                           "compile", "-i", str(po), "-o", str(out), "-l", lang.replace("-", "_")],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("lang", LANGS)
def test_msgfmt_check_format_accepts_the_catalog(lang: str, tmp_path: Path) -> None:
    done = check_format(catalogs.po_path(lang), tmp_path / "out.mo")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("lang", LANGS)
def test_pybabel_compile_accepts_the_catalog(lang: str, tmp_path: Path) -> None:
    done = pybabel_compile(catalogs.po_path(lang), tmp_path / "out.mo", lang)
    assert done.returncode == 0 and "error" not in (done.stdout + done.stderr).lower(), done.stdout + done.stderr


def test_the_template_flags_no_message_python_format() -> None:
    with catalogs.TEMPLATE.open("rb") as fh:
        template = read_po(fh)
    flagged = [m.id for m in template if m.id and "python-format" in m.flags]
    assert not flagged, f"Babel reads a printf directive in: {flagged} (start the msgid with a word, not '{{x}}% d…')"


BAD = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

#, python-brace-format, python-format
msgid "{percent}% downloaded"
msgstr "{percent} % téléchargés"
"""


def test_the_tools_refuse_what_the_catalogs_had(tmp_path: Path) -> None:
    """The catalogs' old entry, as a catalog of its own: both tools refuse it (the check can fail)."""
    po = tmp_path / "fr.po"
    po.write_text(BAD, encoding="utf-8")
    refused = check_format(po, tmp_path / "fr.mo")
    assert refused.returncode != 0 and "fr.po:8" in refused.stderr, refused.stderr
    compiled = pybabel_compile(po, tmp_path / "fr.mo", "fr")
    assert compiled.returncode != 0 or "error" in (compiled.stdout + compiled.stderr).lower()
    # the message as it now reads, translated freely, passes both
    po.write_text(BAD.replace("#, python-brace-format, python-format\nmsgid \"{percent}% downloaded\"",
                              "#, python-brace-format\nmsgid \"Downloaded: {percent}%\"")
                  .replace("{percent} % téléchargés", "Téléchargement : {percent} %"), encoding="utf-8")
    assert check_format(po, tmp_path / "fr.mo").returncode == 0
    assert pybabel_compile(po, tmp_path / "fr.mo", "fr").returncode == 0
