"""The few interface strings the site glue adds around Material's own.

Material's strings come from its language partials (``ne`` is supplied in
``overrides/partials/languages/ne.html``). These are the glue's: the notice
on a page shown untranslated, the title of heading permalinks (which
Python-Markdown writes in English) and the name of the page-loading progress
bar (which Material leaves unnamed). Templates see them as
``dhumbal_strings``. One table, one entry per language; a
missing entry fails the build (see :func:`strings_for`).
"""

from __future__ import annotations

from collections.abc import Mapping

STRINGS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "untranslated.title": "Not translated yet",
        "untranslated.body": "This page has not been translated yet, so it is shown in its original language.",
        "untranslated.link": "Help translate it",
        "permalink": "Permanent link",
        "progress": "Loading the page",
    },
    "fr": {
        "untranslated.title": "Pas encore traduit",
        "untranslated.body": "Cette page n’est pas encore traduite en français\u00a0: elle est affichée en anglais.",
        "untranslated.link": "Aidez-nous à la traduire",
        "permalink": "Lien permanent",
        "progress": "Chargement de la page",
    },
    "nl": {
        "untranslated.title": "Nog niet vertaald",
        "untranslated.body": "Deze pagina is nog niet in het Nederlands vertaald; je leest de Engelse tekst.",
        "untranslated.link": "Help mee met vertalen",
        "permalink": "Permanente link",
        "progress": "Pagina wordt geladen",
    },
    "ne": {
        "untranslated.title": "अझै अनुवाद भएको छैन",
        "untranslated.body": "यो पृष्ठ अझै नेपालीमा अनुवाद भएको छैन, त्यसैले यसलाई अङ्ग्रेजीमा देखाइएको छ।",
        "untranslated.link": "अनुवाद गर्न सहयोग गर्नुहोस्",
        "permalink": "स्थायी लिङ्क",
        "progress": "पृष्ठ खुल्दैछ",
    },
}

KEYS = frozenset(STRINGS["en"])


def strings_for(lang: str) -> Mapping[str, str]:
    """The strings of one language; every key of English must be there."""
    try:
        table = STRINGS[lang]
    except KeyError:
        raise KeyError(f"no interface strings for language {lang!r} in {__name__}") from None
    missing = KEYS - table.keys()
    if missing:
        raise KeyError(f"interface strings for {lang!r} lack {sorted(missing)}")
    return table
