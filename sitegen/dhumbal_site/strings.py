"""The few interface strings the site glue adds around Material's own.

Material's strings come from its language partials (``ne`` is supplied in
``overrides/partials/languages/ne.html``). These are the glue's: the notice
on a page shown untranslated, the title of heading permalinks (which
Python-Markdown writes in English) and the name of the page-loading progress
bar (which Material leaves unnamed), the text of each language's 404 page
(``overrides/404.html``; Material's own says "404 - Not found" in English),
and the links under each page to edit it and to report a problem. Templates see them as
``dhumbal_strings``. They are msgids of the project's catalogs, translated
like every other generated string, so a new language needs no code.
"""

from __future__ import annotations

from collections.abc import Mapping

from dhumbal.core.i18n import N_, translator

MSGIDS: Mapping[str, str] = {
    "untranslated.title": N_("Not translated yet"),
    "untranslated.body": N_("This page has not been translated yet, so it is shown in its original language."),
    "untranslated.link": N_("Help translate it"),
    "permalink": N_("Permanent link"),
    "progress": N_("Loading the page"),
    "notfound.title": N_("Page not found"),
    "notfound.body": N_("There is no page at this address: the link may be mistyped, or the page may have moved."),
    "notfound.home": N_("Go to the home page"),
    "notfound.search": N_("or look for a word with the search box at the top of the page."),
    "edit": N_("Edit this page"),
    "report.translation": N_("Report a translation problem"),
    "report.page": N_("Report a problem with this page"),
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
