"""The site's languages as the i18n plugin is configured, and page alternates.

mkdocs-static-i18n builds the whole site once per language, English first at
``/`` and then each other language into its folder. This module reads that
configuration once and answers the questions the glue has: which languages,
where each one's root is, which language is being built, and where the
current page lives in every language.

The same configuration is the one list of languages outside a build too:
:func:`configured` reads ``mkdocs.yml`` itself for the checks, ``make
new-language`` and the tests, so that adding a language is adding its block
(and its catalog), never editing a list in the code. A language still being
translated says so in its block (``extra: {dhumbal_partial: true}``, which
``make new-language`` writes): what is not translated yet is then a warning
in the checks, where in a complete language it is a failure.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import yaml
from jinja2.utils import htmlsafe_json_dumps
from mkdocs.exceptions import PluginError

from . import ROOT

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page


MKDOCS_YML = ROOT / "mkdocs.yml"
#: The key of a language block's ``extra`` that marks a language still being translated.
PARTIAL = "dhumbal_partial"
_CONFIG_SCRIPT = re.compile(
    r'(<script id="__config" type="application/json">)(?P<json>.*?)(</script>)', re.S
)


@dataclass(frozen=True)
class Language:
    """One built language."""

    code: str
    name: str
    #: Path of the language's root relative to the site root: "" or "fr/".
    prefix: str
    default: bool
    #: Still being translated: what is missing is a warning, not a failure.
    partial: bool = False


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
        partial = bool((lang.extra or {}).get(PARTIAL))
        languages.append(Language(lang.locale, lang.name, prefix, bool(lang.default), partial))
    return languages


class _Loader(yaml.SafeLoader):
    """YAML as mkdocs.yml writes it: MkDocs' own tags (``!ENV``, ``!relative``) read as plain values."""


def _any_tag(loader: _Loader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_mapping(node, deep=True)  # type: ignore[arg-type]


_Loader.add_multi_constructor("!", _any_tag)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/name:", _any_tag)


def _merged(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """``child`` over ``parent`` as MkDocs merges ``INHERIT``: mappings key by key, the rest replaced."""
    out = dict(parent)
    for key, value in child.items():
        out[key] = _merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def read_config(path: Path = MKDOCS_YML) -> dict[str, Any]:
    """``mkdocs.yml`` as data, without building (MkDocs' tags read as their plain value, and
    ``INHERIT`` followed as MkDocs follows it)."""
    loaded = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    if not isinstance(loaded, dict):
        raise ValueError(f"{path.name}: not a mapping")
    data: dict[str, Any] = loaded
    parent = data.pop("INHERIT", None)
    if isinstance(parent, str):
        data = _merged(read_config((path.parent / parent).resolve()), data)
    return data


def i18n_block(data: dict[str, Any]) -> dict[str, Any]:
    """The i18n plugin's settings in ``mkdocs.yml`` data."""
    for plugin in data.get("plugins") or []:
        if isinstance(plugin, dict) and isinstance(plugin.get("i18n"), dict):
            block: dict[str, Any] = plugin["i18n"]
            return block
    raise ValueError("mkdocs.yml: the i18n plugin (mkdocs-static-i18n) is not configured")


def configured(path: Path = MKDOCS_YML) -> list[Language]:
    """The built languages as ``mkdocs.yml`` lists them, the default one first: what the
    checks, ``make new-language`` and the tests read instead of a list of their own."""
    out = []
    for entry in i18n_block(read_config(path)).get("languages") or []:
        if not isinstance(entry, dict) or entry.get("build", True) is False or entry.get("locale") in (None, "null"):
            continue
        code, default = str(entry["locale"]), bool(entry.get("default", False))
        link = str(entry.get("link") or ("/" if default else f"/{code}/"))
        prefix = "" if default else link.strip("/") + "/"
        partial = bool((entry.get("extra") or {}).get(PARTIAL))
        out.append(Language(code, str(entry.get("name", code)), prefix, default, partial))
    out.sort(key=lambda lang: not lang.default)
    return out


def codes(path: Path = MKDOCS_YML) -> list[str]:
    """The built languages' codes, the default one (English) first."""
    return [lang.code for lang in configured(path)]


_CODES: dict[tuple[str, int, int], frozenset[str]] = {}


def folder_codes(path: Path = MKDOCS_YML) -> frozenset[str]:
    """The languages' codes, which are also their folders under ``docs/``: read again
    whenever ``mkdocs.yml`` changes (a long ``mkdocs serve`` session)."""
    st = path.stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _CODES:
        _CODES.clear()
        _CODES[key] = frozenset(codes(path))
    return _CODES[key]


def partial_codes(path: Path = MKDOCS_YML) -> frozenset[str]:
    """The languages still being translated (see the module's text)."""
    return frozenset(lang.code for lang in configured(path) if lang.partial)


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


def with_base(output: str, base: str, where: str) -> str:
    """A page with Material's configuration script (``#__config``) pointed at ``base``,
    its language's root, so that its search and instant navigation stay in that language."""
    match = _CONFIG_SCRIPT.search(output)
    if match is None:
        raise PluginError(
            f"{where}: Material's configuration script (#__config) is "
            "missing; the per-language search index and sitemap need it"
        )
    data = json.loads(match.group("json"))
    data["base"] = base
    # str(): the Markup that htmlsafe_json_dumps returns would escape the page.
    config_json = str(htmlsafe_json_dumps(data))
    return output[: match.start("json")] + config_json + output[match.end("json") :]
