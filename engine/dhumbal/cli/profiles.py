"""``python -m dhumbal profiles``: the profiles, their house rules and defaults."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..core.i18n import available_languages, translator
from ..core.profiles import PROFILE_KEYS, find_profile


def add(sub: Any) -> None:
    sp = sub.add_parser("profiles", help="list the profiles, their options and defaults")
    sp.add_argument("--lang", choices=available_languages(), default="en")
    sp.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO | None) -> int:
    t = translator(args.lang)
    for key in PROFILE_KEYS:
        p = find_profile(key)
        out.write(f"{p.key}  ({t(p.name)}; sources {', '.join(p.sources)})\n")
        for s in p.option_specs:
            out.write(f"    {s.key:<17} default {s.text(s.default):<10} allowed {s.allowed_text():<28} {t(s.label)}\n")
    return 0
