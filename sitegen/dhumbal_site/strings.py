"""The few interface strings the site glue adds around Material's own.

Material's strings come from its language partials (``ne`` is supplied in
``overrides/partials/languages/ne.html``). These are the glue's: the notice
on a page shown untranslated, the title of heading permalinks (which
Python-Markdown writes in English) and the name of the page-loading progress
bar (which Material leaves unnamed). Templates see them as
``dhumbal_strings``. They are msgids of the project's catalogs, translated
like every other generated string, so a new language needs no code.
"""

from __future__ import annotations

from collections.abc import Mapping

from dhumbal.i18n import N_, translator

MSGIDS: Mapping[str, str] = {
    "untranslated.title": N_("Not translated yet"),
    "untranslated.body": N_("This page has not been translated yet, so it is shown in its original language."),
    "untranslated.link": N_("Help translate it"),
    "permalink": N_("Permanent link"),
    "progress": N_("Loading the page"),
}

KEYS = frozenset(MSGIDS)

#: The strings that land inside attribute values (the permalink's ``title``,
#: the progress bar's ``aria-label``): the catalog check refuses quotes and
#: angle brackets in their translations.
ATTRIBUTE_MSGIDS = frozenset({MSGIDS["permalink"], MSGIDS["progress"]})


def strings_for(lang: str) -> Mapping[str, str]:
    """The strings of one language, from the catalogs (English where a catalog lacks one)."""
    t = translator(lang)
    return {key: t.raw(msgid) for key, msgid in MSGIDS.items()}
