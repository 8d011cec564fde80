"""The site's languages as the i18n plugin is configured, and page alternates.

mkdocs-static-i18n builds the whole site once per language, English first at
``/`` and then each other language into its folder. This module reads that
configuration once and answers the questions the glue has: which languages,
where each one's root is, which language is being built, and where the
current page lives in every language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mkdocs.exceptions import PluginError

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page


@dataclass(frozen=True)
class Language:
    """One built language."""

    code: str
    name: str
    #: Path of the language's root relative to the site root: "" or "fr/".
    prefix: str
    default: bool


@dataclass(frozen=True)
class Alternate:
    """Where the current page is in one language."""

    lang: str
    name: str
    #: URL relative to the site root (MkDocs style, "" is the home page).
    url: str
    current: bool


def i18n_plugin(config: MkDocsConfig) -> Any:
    """The mkdocs-static-i18n plugin instance; the site needs it."""
    plugin = config.plugins.get("i18n")
    if plugin is None:
        raise PluginError("dhumbal: the 'i18n' plugin (mkdocs-static-i18n) must be enabled")
    return plugin


def languages_of(config: MkDocsConfig) -> list[Language]:
    """The built languages, in the configured order."""
    plugin = i18n_plugin(config)
    languages = []
    for lang in plugin.config.languages:
        if not lang.build or lang.locale == "null":
            continue
        prefix = "" if lang.default else lang.link.strip("/") + "/"
        languages.append(Language(lang.locale, lang.name, prefix, bool(lang.default)))
    return languages


def current_language(config: MkDocsConfig) -> str:
    """The language of the build in progress."""
    lang = i18n_plugin(config).current_language
    if not lang:
        raise PluginError("dhumbal: the i18n plugin has not chosen a language yet")
    return str(lang)


def language_switcher(config: MkDocsConfig, languages: list[Language]) -> list[dict[str, str]]:
    """``extra.alternate`` for Material: each language's root.

    Material puts these in the page head (``<link rel="alternate">``) and
    needs a non-empty list to show its language menu at all; the menu itself
    is rendered by ``overrides/partials/alternate.html`` with per-page links.
    """
    base = urlsplit(config.site_url or "").path or "/"
    if not base.endswith("/"):
        base += "/"
    return [{"name": lang.name, "link": base + lang.prefix, "lang": lang.code} for lang in languages]


def page_alternates(page: Page, languages: list[Language], current: str) -> list[Alternate]:
    """The current page in every language (its root if the page has no version there)."""
    alternates = getattr(page.file, "alternates", {}) or {}
    result = []
    for lang in languages:
        if lang.code == current:
            url = page.url
        elif lang.code in alternates:
            url = alternates[lang.code].url
        else:
            url = lang.prefix
        result.append(Alternate(lang.code, lang.name, url, lang.code == current))
    return result


def source_language(page: Page, current: str) -> str:
    """The language the page's Markdown is written in."""
    return str(getattr(page.file, "locale", None) or current)
