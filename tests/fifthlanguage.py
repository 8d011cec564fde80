"""A fifth language (Hindi) added to a copy of the project the way the Contribute
page tells a translator to, and left partial: built once per run, served by the
run's server as the site variant ``fifth-language`` (see sitekit.SERVED).

:func:`build` copies the project (with the build caches a contributor who has
built the site before has: the engine wheel and the puzzles' grades are keyed
by what they are made from, so the copy reads back what it would compute, and
computes what differs), then, in the copy, as the translator would:

1. ``make new-language CODE=hi`` (every mechanical step);
2. a handful of catalog messages translated (the table's Play button and its
   prompts, so a test can see the table answer in Hindi), three glossary
   entries written, and one page translated (the glossary page), recorded with
   ``make translated``;
3. ``make check-catalogs``, its output and exit status kept in the copy
   (:data:`CHECKS`);
4. the strict build, with the repository's address set (edit and report links).

Every process in the copy runs with the copy's own engine and site glue first
on the path (ahead of the checkout's, installed editable in the shared
``.venv``): the engine reads its compiled catalogs beside its own code, and
the copy's are the ones with Hindi; the glue reads the copy's files. The tests read the result through :func:`built`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from tests import sitekit

ROOT = Path(__file__).resolve().parents[1]
CODE = "hi"
VARIANT = "fifth-language"
#: What the copy's ``make check-catalogs`` and ``make new-language`` said (in the copy).
CHECKS = "check-catalogs.json"

#: The catalog messages the translator has done so far (msgid → Hindi), in their own words.
MESSAGES = {
    "Play": "खेलें",
    "New game": "नया खेल",
    "Your turn: call, or take a card from the stock or the pile.": "आपकी बारी: कॉल करें, या गड्डी से या फेंके गए पत्तों से एक पत्ता लें।",
    "Your turn: take a card from the stock or the pile.": "आपकी बारी: गड्डी से या फेंके गए पत्तों से एक पत्ता लें।",
    "Now throw: mark one card, or several of one rank, and press Throw.": "अब फेंकें: एक पत्ता, या एक ही दर्जे के कई पत्ते चुनें और फेंकें दबाएँ।",
    "Your turn: call, or mark the cards to throw and press Throw.": "आपकी बारी: कॉल करें, या फेंकने वाले पत्ते चुनकर फेंकें दबाएँ।",
    "Your turn: mark the cards to throw and press Throw.": "आपकी बारी: फेंकने वाले पत्ते चुनकर फेंकें दबाएँ।",
    "The deal is over: every hand is shown, with the scores.": "बाज़ी ख़त्म: सबके हाथ अंकों के साथ खुले हैं।",
    "The match is over. The final standings are below.": "मैच ख़त्म। अंतिम क्रम नीचे है।",
}

#: Three glossary entries written (id → the Hindi line's term and definition).
GLOSSARY = {
    "game": ("धुम्बल", "नेपाल का ताश का खेल जिसमें हाथ के अंक घटाने होते हैं; सबसे हल्का हाथ होने का भरोसा हो तो कॉल करते हैं।"),
    "deal": ("बाज़ी", "पत्ते बाँटने से लेकर कॉल या बारियों की सीमा तक का एक दौर।"),
    "turn": ("बारी", "एक खिलाड़ी के खेलने का मौक़ा: कॉल करना, या एक पत्ता लेकर फेंकना।"),
}

#: The one page translated so far: the glossary page, in the translator's own words.
GLOSSARY_PAGE = """---
title: शब्दावली
description: "धुम्बल (झ्याप) के शब्द अंग्रेज़ी, फ़्रेंच, डच और नेपाली में: गड्डी, फेंके गए पत्ते, फेंकना, कॉल, पकड़ा जाना, सेट, सीक्वेंस, जुर्माना और भी बहुत कुछ।"
---

# शब्दावली

धुम्बल के अपने शब्द हैं, और तीनों प्रोफ़ाइल हमेशा एक जैसे शब्द नहीं बोलतीं। मिसाल के तौर पर, खुले पड़े पत्ते नेपाली गेम्स प्रोफ़ाइल में *फेंके गए पत्ते* (फालेको पत्ती) कहलाते हैं, दशैं में *पेश की गई चाल*, और कार्डरूल्सप्लस की गाइड में *डिस्कार्ड का ढेर*। उलटे रखे पत्ते *गड्डी* (थुप्रो) हैं, जिसे दशैं *डेक* कहता है।

नीचे की तालिका हर शब्द को इस साइट की चारों भाषाओं में देती है: अंग्रेज़ी, फ़्रेंच, डच और नेपाली। साइट बनते समय यह एक ही डेटा फ़ाइल, `locales/glossary.toml`, से तैयार होती है, जिसमें हर शब्द हर भाषा में एक ही बार लिखा जाता है; अनुवाद के कैटलॉग भी यही शब्द काम में लेते हैं। जहाँ कोई स्रोत दूसरा शब्द बोलता है, वह शब्द साइट के शब्द के नीचे दिखता है (फेंकने के लिए "discard", गड्डी के लिए "deck", पकड़े जाने के लिए "beaten"), ताकि स्रोत का शब्द खोजने वाला यहीं पहुँचे।

<!-- dhumbal:glossary -->

पत्तों के नाम अनुवाद नहीं होते। हर भाषा में पत्ते उन्हीं लैटिन अक्षरों और अंकों से, उनके बाद रंग के निशान के साथ, लिखे जाते हैं: A♠, 10♥, J♦, Q♣, K♠।
"""

#: The repository address the builds link to in the tests: a reserved documentation
#: domain (RFC 2606), so no test ever links to a real host.
REPOSITORY = sitekit.TEST_REPOSITORY


def _copy_project(dst: Path) -> None:
    skip = {".venv", "node_modules", "site", "build", ".git", ".pytest_cache", ".mypy_cache", ".hypothesis"}
    for item in ROOT.iterdir():
        if item.name in skip or item.name.endswith(".egg-info"):
            continue
        if item.is_dir():
            shutil.copytree(item, dst / item.name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy2(item, dst / item.name)
    # the contributor's machine already ran `make setup`
    (dst / ".venv").symlink_to(ROOT / ".venv")
    (dst / "node_modules").symlink_to(ROOT / "node_modules")
    # the site build's caches (the engine wheel, the call-odds figures, the puzzles' grades),
    # each named by a hash of what it is made from; lock files and scratch entries left out
    if (ROOT / "build").is_dir():
        shutil.copytree(ROOT / "build", dst / "build", ignore=shutil.ignore_patterns(".*"))


def environment(project: Path, url: str = "") -> dict[str, str]:
    """The copy's environment: its own engine and glue first (its catalogs, its files), the site's address, the repository's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DHUMBAL_TEST"))}
    env.update(PYTHONPATH=os.pathsep.join([str(project / "engine"), str(project / "sitegen")]),
               NO_MKDOCS_2_WARNING="1", DHUMBAL_REPO_URL=REPOSITORY)
    if url:
        env["DHUMBAL_SITE_URL"] = url
    return env


def _fill(po: Path, messages: dict[str, str]) -> None:
    text = po.read_text(encoding="utf-8")
    for msgid, msgstr in messages.items():
        empty = f'msgid "{msgid}"\nmsgstr ""\n'
        assert empty in text, msgid
        text = text.replace(empty, f'msgid "{msgid}"\nmsgstr "{msgstr}"\n')
    po.write_text(text, encoding="utf-8")


def _glossary(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    entry = None
    for i, line in enumerate(lines):
        found = re.match(r'^id = "(.*)"$', line)
        if found:
            entry = found.group(1)
        if entry in GLOSSARY and line == f'{CODE} = {{ term = "", definition = "" }}':
            term, definition = GLOSSARY[entry]
            lines[i] = f'{CODE} = {{ term = "{term}", definition = "{definition}" }}'
    path.write_text("\n".join(lines), encoding="utf-8")


def build(directory: Path, url: str) -> tuple[int, str]:
    """The variant's site in ``directory``; the copy it is built from beside it (``../project``)."""
    project = directory.parent / "project"
    shutil.rmtree(project, ignore_errors=True)
    project.mkdir(parents=True)
    _copy_project(project)
    env = environment(project, url)
    make = ["make", "--no-print-directory", "-o", ".venv/.installed"]

    def run(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(command), cwd=project, env=env, capture_output=True, text=True)

    added = run(*make, "new-language", f"CODE={CODE}")
    if added.returncode:
        return added.returncode, added.stdout + added.stderr
    _fill(project / "locales" / CODE / "LC_MESSAGES" / "dhumbal.po", MESSAGES)
    _glossary(project / "locales" / "glossary.toml")
    (project / "docs" / CODE / "glossary.md").write_text(GLOSSARY_PAGE, encoding="utf-8")
    recorded = run(*make, "translated", f"PAGES={CODE}/glossary.md")
    checks = run(*make, "check-catalogs")
    (project / CHECKS).write_text(json.dumps({
        "new-language": added.stdout, "translated": recorded.stdout + recorded.stderr,
        "translated-status": recorded.returncode,
        "check-catalogs": checks.stdout + checks.stderr, "status": checks.returncode,
    }), encoding="utf-8")
    site = run(str(project / ".venv" / "bin" / "mkdocs"), "build", "--strict", "--site-dir", str(directory))
    return site.returncode, site.stdout + site.stderr


def built() -> tuple[sitekit.Built, Path, dict[str, Any]]:
    """The variant (built once per run), the copy it was built from, and what the copy's checks said."""
    site = sitekit.shared_build(VARIANT, build)
    project = site.directory.parent / "project"
    checks = project / CHECKS
    said = json.loads(checks.read_text(encoding="utf-8")) if checks.is_file() else {}
    return site, project, said
