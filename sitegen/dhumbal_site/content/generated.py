"""Marker handlers for content generated from engine data: the comparison of
the profiles, each profile's options, and the four-language glossary."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.utils import get_relative_url

from dhumbal.core.compare import comparison, options_table
from dhumbal.core.i18n import N_, NP_, translator
from dhumbal.core.profiles import PROFILE_KEYS, ProfileError, all_profiles, find_profile
from markupsafe import Markup

from .markers import MarkerContext
from .render import block, render

ROOT = Path(__file__).resolve().parents[3]
GLOSSARY = ROOT / "locales" / "glossary.toml"


def page_link(ctx: MarkerContext, rel_md: str) -> str | None:
    """URL of the page ``rel_md`` (e.g. ``rules/dashain.md``) in the reader's language, relative to this page."""
    lang_dir = ctx.src_path.split("/", 1)[0]
    for candidate in (f"{lang_dir}/{rel_md}", f"{ctx.lang}/{rel_md}", f"en/{rel_md}", rel_md):
        f = ctx.files.get_file_from_path(candidate)
        if f is not None:
            return get_relative_url(f.url, ctx.page.url)
    return None


def _profile_headers(ctx: MarkerContext) -> list[dict[str, Any]]:
    from dhumbal.core.i18n import translator

    t = translator(ctx.lang)
    return [
        {"key": p.key, "name": t(p.name), "href": page_link(ctx, f"rules/{p.key}.md")}
        for p in all_profiles()
    ]


DEPARTS = N_("{profile} differs from the others")
ALL_DIFFER = N_("all three differ")
EACH_DIFFERS = N_("each profile differs")
DIFFERING = NP_("{count} of {total} rules differs between the profiles", "{count} of {total} rules differ between the profiles")


def render_compare(ctx: MarkerContext) -> str:
    """The comparison table, the same deal under each profile, and each profile's house rules.

    The same-deal section belongs to the comparison page and has no marker of
    its own: it is placed after the table.
    """
    from .sameplay import render_same_deal, same_deal_context

    if ctx.args:
        raise ValueError("the compare marker takes no arguments")
    t = translator(ctx.lang)
    headers = _profile_headers(ctx)
    rows = []
    for row in comparison(ctx.lang):
        verdict = ""
        if row.departs is not None:
            verdict = t(DEPARTS, profile=headers[row.departs]["name"])
        elif row.differs:
            verdict = t(ALL_DIFFER) if row.all_differ and len(row.cells) == 3 else t(EACH_DIFFERS) if row.all_differ else ""
        rows.append({"key": row.key, "label": row.label, "cells": row.cells, "differs": row.differs,
                     "departs": row.departs, "verdict": verdict})
    differing = sum(1 for r in rows if r["differs"])
    options = [
        {"profile": h, "rows": options_table(find_profile(h["key"]), ctx.lang)}
        for h in headers
    ]
    summary = t.plural(*DIFFERING, differing, total=len(rows))
    sd = same_deal_context(ctx.lang)
    search = render("compare_search.html", ctx.lang, profiles=headers, rows=rows, options=options, summary=summary, sd=sd)
    return block("compare.html", ctx.lang, profiles=headers, rows=rows, options=options, summary=summary,
                 same_deal=Markup(render_same_deal(sd, ctx.lang)), search=search)


def render_options(ctx: MarkerContext) -> str:
    if len(ctx.args) != 1:
        raise ValueError(f"write <!-- dhumbal:options PROFILE -->, PROFILE one of {', '.join(PROFILE_KEYS)}")
    try:
        profile = find_profile(ctx.args[0])
    except ProfileError as exc:
        raise ValueError(str(exc)) from None
    return block("options.html", ctx.lang, rows=options_table(profile, ctx.lang), profile_key=profile.key)


def site_languages() -> list[str]:
    """English first, then every language that has a catalog in ``locales/``."""
    from ..translation import catalogs

    return ["en"] + [lang for lang in catalogs.languages() if lang != "en"]


@dataclass(frozen=True)
class GlossaryCell:
    """One concept in one language: the site's term, its definition, a source's
    own word where it differs (``also``: word and profile key) and the variants
    the terminology check rejects."""

    term: str
    definition: str
    also: tuple[tuple[str, str], ...] = ()
    rejected: tuple[str, ...] = ()
    #: Other spellings of the term itself that readers know (ढुम्बल for धुम्बल);
    #: the glossary shows them, the pages use the term.
    variants: tuple[str, ...] = ()


#: What a concept has in a language whose line is missing: nothing to show, nothing to reject.
NO_CELL = GlossaryCell(term="", definition="")


@dataclass(frozen=True)
class GlossaryEntry:
    id: str
    site: bool
    #: Only the languages whose line gives a term and a definition.
    cells: dict[str, GlossaryCell]
    #: The line of the entry's ``[[term]]`` in the file.
    line: int = 0

    def __getitem__(self, lang: str) -> GlossaryCell:
        """The concept in ``lang``; an empty cell where the language has no line yet."""
        return self.cells.get(lang, NO_CELL)


def load_glossary(path: Path = GLOSSARY, langs: list[str] | None = None) -> list[GlossaryEntry]:
    """The glossary entries. A language may lack an entry (a language being translated:
    :func:`glossary_gaps` lists them); what an entry gives must be well formed, or
    ``ValueError`` names the entry, the language and what is wrong."""
    langs = langs or site_languages()
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path.name}: not valid TOML: {exc}") from None
    terms = data.get("term")
    if not isinstance(terms, list) or not terms:
        raise ValueError(f"{path.name}: expected [[term]] entries")
    starts = [number for number, line in enumerate(text.splitlines(), start=1) if line.strip() == "[[term]]"]
    out = []
    seen: set[str] = set()
    for i, entry in enumerate(terms, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise ValueError(f"{path.name}: entry {i} needs an id")
        name = entry["id"]
        if name in seen:
            raise ValueError(f"{path.name}: entry {name!r} appears twice")
        seen.add(name)
        cells: dict[str, GlossaryCell] = {}
        for lang in langs:
            cell = entry.get(lang)
            if cell is None or (isinstance(cell, dict) and not cell.get("term") and not cell.get("definition")
                                and set(cell) <= {"term", "definition"}):
                continue  # not written yet (make new-language writes empty ones)
            if not isinstance(cell, dict) or not cell.get("term") or not cell.get("definition"):
                raise ValueError(f"{path.name}: entry {name!r} needs a term and a definition in {lang!r}")
            unknown = set(cell) - {"term", "definition", "also", "rejected", "variants"}
            if unknown:
                raise ValueError(f"{path.name}: entry {name!r} in {lang!r}: unknown key {sorted(unknown)[0]!r}")
            also = cell.get("also", [])
            if not isinstance(also, list) or not all(
                isinstance(a, dict) and set(a) == {"word", "profile"} and a["profile"] in PROFILE_KEYS and str(a["word"]).strip()
                for a in also
            ):
                raise ValueError(f"{path.name}: entry {name!r} in {lang!r}: also must be a list of {{ word = \"…\", profile = \"{'|'.join(PROFILE_KEYS)}\" }}")
            rejected = cell.get("rejected", [])
            if not isinstance(rejected, list) or not all(isinstance(r, str) and r.strip("* ") for r in rejected):
                raise ValueError(f"{path.name}: entry {name!r} in {lang!r}: rejected must be a list of words")
            variants = cell.get("variants", [])
            if not isinstance(variants, list) or not all(isinstance(v, str) and v.strip() for v in variants):
                raise ValueError(f"{path.name}: entry {name!r} in {lang!r}: variants must be a list of spellings")
            cells[lang] = GlossaryCell(
                term=str(cell["term"]), definition=str(cell["definition"]),
                also=tuple((str(a["word"]), str(a["profile"])) for a in also),
                rejected=tuple(rejected), variants=tuple(variants),
            )
        line = starts[i - 1] if i <= len(starts) else 0
        out.append(GlossaryEntry(id=name, site=bool(entry.get("site", False)), cells=cells, line=line))
    return out


def glossary_gaps(path: Path = GLOSSARY, langs: list[str] | None = None) -> dict[str, list[str]]:
    """Every entry each language lacks, all at once: ``{lang: ["glossary.toml:20: game", …]}``
    (languages that lack none are left out)."""
    langs = langs or site_languages()
    lines = path.read_text(encoding="utf-8").splitlines()
    gaps: dict[str, list[str]] = {}
    entries = load_glossary(path, langs)
    for index, entry in enumerate(entries):
        end = entries[index + 1].line - 1 if index + 1 < len(entries) else len(lines)
        for lang in langs:
            if lang not in entry.cells:
                # the language's (empty) line in the entry, else the entry's [[term]] line
                line = next((n for n in range(entry.line, end + 1) if lines[n - 1].startswith(f"{lang} = ")), entry.line)
                gaps.setdefault(lang, []).append(f"{path.name}:{line}: {entry.id}")
    return gaps


@dataclass(frozen=True)
class RegisterVerb:
    """A verb a named seat does, in one language: the forms the terminology check
    refuses for a named seat (``refused``) and the form to write for each (``use``).
    With ``subject`` (e.g. तपाईं), the forms are refused only in a clause where that
    word stands alone, as the subject, before them."""

    lang: str
    verb: str
    refused: tuple[str, ...]
    use: tuple[str, ...]
    subject: str = ""


def load_register(path: Path = GLOSSARY) -> list[RegisterVerb]:
    """The ``[[register]]`` entries of the glossary file (Nepali: one register for named seats)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path.name}: not valid TOML: {exc}") from None
    entries = data.get("register", [])
    if not isinstance(entries, list):
        raise ValueError(f"{path.name}: expected [[register]] entries")
    out = []
    for i, entry in enumerate(entries, start=1):
        where = f"{path.name}: register entry {i}"
        if not isinstance(entry, dict) or not {"lang", "verb", "refused", "use"} <= set(entry) <= {
                "lang", "verb", "refused", "use", "subject"}:
            raise ValueError(f"{where}: give exactly lang, verb, refused and use (and, if the forms are refused "
                             "only after one subject, subject)")
        subject = entry.get("subject", "")
        if not isinstance(subject, str):
            raise ValueError(f"{where}: subject must be a word")
        refused, use = entry["refused"], entry["use"]
        if not (isinstance(entry["lang"], str) and isinstance(entry["verb"], str) and entry["verb"].strip()):
            raise ValueError(f"{where}: lang and verb must be words")
        if not (isinstance(refused, list) and isinstance(use, list) and refused and len(refused) == len(use)
                and all(isinstance(w, str) and w.strip() for w in refused + use)):
            raise ValueError(f"{where} ({entry['verb']}): refused and use must be lists of forms of the same length")
        out.append(RegisterVerb(entry["lang"], entry["verb"], tuple(refused), tuple(use), subject.strip()))
    return out


def render_register(ctx: MarkerContext) -> str:
    """``<!-- dhumbal:register LANG -->``: the verbs of LANG's register rule, each with
    the forms refused for a named seat and the forms to write (the Contribute page)."""
    if len(ctx.args) != 1:
        raise ValueError("write <!-- dhumbal:register LANG -->, e.g. <!-- dhumbal:register ne -->")
    lang = ctx.args[0]
    verbs = [v for v in load_register() if v.lang == lang]
    if not verbs:
        raise ValueError(f"locales/glossary.toml has no [[register]] entries for {lang!r}")
    return block("register.html", ctx.lang, verbs=verbs, verb_lang=lang, card_tokens=False)


def language_name(ctx: MarkerContext | None, lang: str) -> str:
    """A language's own name, as the i18n plugin's configuration gives it."""
    if ctx is not None:
        for plugin in ctx.config.plugins.values():
            for entry in getattr(plugin, "config", {}).get("languages", []) or []:
                if getattr(entry, "locale", None) == lang or (isinstance(entry, dict) and entry.get("locale") == lang):
                    name = entry.get("name") if isinstance(entry, dict) else getattr(entry, "name", None)
                    if name:
                        return str(name)
    return LANGUAGE_NAMES.get(lang, lang)


LANGUAGE_NAMES = {"en": "English", "fr": "Français", "nl": "Nederlands", "ne": "नेपाली"}


def render_glossary(ctx: MarkerContext) -> str:
    """The glossary of the game's words; ``<!-- dhumbal:glossary terms-only -->`` gives the bare
    terminology table translators use, with the site's own words (page names, profile names) too."""
    from dhumbal.core.i18n import translator

    if ctx.args not in ((), ("terms-only",)):
        raise ValueError("write <!-- dhumbal:glossary --> or <!-- dhumbal:glossary terms-only -->")
    terms_only = bool(ctx.args)
    entries = [e for e in load_glossary() if terms_only or not e.site]
    order = [ctx.lang] + [lang for lang in site_languages() if lang != ctx.lang]
    t = translator(ctx.lang)
    profile_names = {key: t(find_profile(key).name) for key in PROFILE_KEYS}
    return block(
        "glossary.html", ctx.lang, entries=entries, order=order,
        names={lang: language_name(ctx, lang) for lang in order},
        terms_only=terms_only, profile_names=profile_names,
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m dhumbal_site.content.generated glossary [--root DIR]``: every glossary entry each
    language lacks, all at once; exit 1 if a complete language lacks one (a language being
    translated, marked ``dhumbal_partial`` in mkdocs.yml, gets warnings)."""
    import sys

    from ..languages import configured

    args = list(sys.argv[1:] if argv is None else argv)
    root = ROOT
    if args[:1] == ["glossary"]:
        args = args[1:]
    if args[:1] == ["--root"] and len(args) > 1:
        root, args = Path(args[1]), args[2:]
    languages = configured(root / "mkdocs.yml")
    try:
        gaps = glossary_gaps(root / "locales" / "glossary.toml", [lang.code for lang in languages])
    except ValueError as error:
        print(f"locales/{error}")
        return 1
    bad = 0
    for lang in languages:
        missing = gaps.get(lang.code, [])
        for gap in missing:
            print(f"{'warning: ' if lang.partial else ''}locales/{gap}: no {lang.code} line (term and definition)")
        bad += 0 if lang.partial else len(missing)
        print(f"{lang.code}: {len(missing)} glossary entr{'y' if len(missing) == 1 else 'ies'} to write")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
