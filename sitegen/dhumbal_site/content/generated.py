"""Marker handlers for content generated from engine data: the comparison of
the profiles, each profile's options, and the four-language glossary (read
by :mod:`dhumbal_site.translation.glossary`)."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup
from mkdocs.utils import get_relative_url

from dhumbal.core.compare import comparison, options_table
from dhumbal.core.i18n import N_, NP_, translator
from dhumbal.core.profiles import PROFILE_KEYS, all_profiles, find_profile

from ..translation.glossary import load_glossary, load_register, site_languages
from .markers import MarkerContext
from .render import block, render


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
    profile = ctx.profile()
    return block("options.html", ctx.lang, rows=options_table(profile, ctx.lang), profile_key=profile.key)


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
