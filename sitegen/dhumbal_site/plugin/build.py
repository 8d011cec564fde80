"""The site glue, event by event, with its state kept per build.

mkdocs-static-i18n runs a MkDocs build per language: English, then one nested
build per other language from English's ``on_post_build``. The plugin
(plugin.py) makes a fresh :class:`SiteBuild` for each outer build and reuses
it for the nested ones: what one language pass learns (search settings,
sitemap pages) is there when the outer build finishes, and nothing leaks from
one ``mkdocs serve`` rebuild to the next.

What it does, in build order:

* ``on_config``: fail fast without the font files, and on a glossary line
  missing in a complete language (all named at once; a language still being
  translated gets a note); give Material the list of languages
  (``extra.alternate``), the repository for the edit links (repository.py)
  and the Content-Security-Policy (``extra.dhumbal_csp``, see csp.py); note
  this language's search settings. ``on_files``: add the Devanagari fonts.
* ``on_page_markdown``: refuse a page whose front matter YAML misreads or
  that holds markup, naming its file and line (frontmatter.py); show the
  current English page in place of a translation that is still a copy of it
  (freshness.is_copy); expand ``<!-- dhumbal:NAME ARGS -->`` markers, and
  refuse a translation whose markers differ from its English page's; give a
  Weblate page (front matter still English) its title and description from its
  catalog (pagemeta.py); a handler's HTML (``HTMLBlock``) waits behind a placeholder.
* ``on_page_content``: put the page's text in its language's typography
  (``dhumbal.core.i18n.typography_html``); turn card tokens into accessible cards; translate the
  heading permalink title; put each kept block's search text where its
  placeholder is, for the search index (which reads the page next).
* ``on_page_context`` (after the search plugin): put the kept blocks in, in
  place of their search text; the ``dhumbal`` template variable: language switcher
  links for this page, untranslated-page notice, out-of-date notice (a
  translation whose English page changed since, see freshness.py), the
  page's edit and report links, strings (``dhumbal_strings``,
  also given to the 404 page by ``on_template_context``).
* ``on_post_page``: point Material's configuration at the language root, so
  search and instant navigation stay inside the language.
* ``on_post_build`` (last, outer build only): write each language's search
  index and sitemap, each language's puzzle files (puzzles.py) and its 404
  page into its folder (the default language's at the root).
"""

from __future__ import annotations

import importlib
import itertools
import logging
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url
from mkdocs.utils.meta import get_data

from dhumbal.core.i18n import translator, typography, typography_html

from ..content import registry
from ..content.cards import CARD_TOKEN, CardNamer, rewrite_cards
from ..content.markers import BLOCK_PATTERN, HTMLBlock, expand_markers, find_markers
from ..content.prose import fold_prose
from ..languages import (
    Alternate,
    Language,
    current_language,
    i18n_plugin,
    language_switcher,
    languages_of,
    page_alternates,
    source_language,
    with_base,
)
from ..runtime import csp, fonts
from ..strings import strings_for
from ..translation import freshness, frontmatter, pagemeta
from ..translation.glossary import glossary_gaps
from . import repository
from .search_index import SearchSettings, parse_pipeline, split_entries, write_index
from .sitemaps import SitemapPage, render_sitemap, write_sitemap

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page

    from .config import DhumbalConfig

log = logging.getLogger("mkdocs.plugins.dhumbal")

#: The end of a kept block's search text (its start is the placeholder).
_BLOCK_END = "<!-- /dhumbal-block {key} -->"
_PLACED_BLOCK = re.compile(
    r"<!-- dhumbal-block (?P<key>[\w.-]+) -->.*?<!-- /dhumbal-block (?P=key) -->", re.S
)


def theme_strings(config: MkDocsConfig, *keys: str) -> list[str]:
    """Strings of the theme's language partial (one template environment for all:
    ``Theme.get_env`` builds a new one, compiling the partials again, on every call)."""
    env = config.theme.get_env()
    template = env.get_template("partials/language.html", None, {"config": config})
    return [str(template.module.t(key)) for key in keys]  # type: ignore[attr-defined]


def engine_card_name() -> CardNamer:
    """``dhumbal.core.i18n.card_name(card_text, lang)``, looked up when needed.

    Tests replace this function rather than the engine's, so that no module
    of the engine ever holds a stand-in.
    """
    return importlib.import_module("dhumbal.core.i18n").card_name  # type: ignore[no-any-return]


def _toc_typography(items: Any, lang: str) -> None:
    """The table of contents' headings in the language's typography, like the page's."""
    for item in items or ():
        title = getattr(item, "title", None)
        if isinstance(title, str):
            item.title = typography(title, lang)
        _toc_typography(getattr(item, "children", None), lang)


def search_plugin(config: MkDocsConfig) -> Any:
    for name in ("material/search", "search"):
        plugin = config.plugins.get(name)
        if plugin is not None:
            return plugin
    raise PluginError("dhumbal: the search plugin must be enabled")


class SiteBuild:
    """Everything one build (all its language passes) accumulates."""

    def __init__(self, config: MkDocsConfig, repo_root: Path, options: DhumbalConfig) -> None:
        self.repo_root = repo_root
        self.options = options
        self.languages: list[Language] = languages_of(config)
        self.default = next(lang.code for lang in self.languages if lang.default)
        self.codes = frozenset(lang.code for lang in self.languages)
        self.fonts = fonts.font_sources(repo_root)
        for lang in self.languages:
            strings_for(lang.code)  # every language has the glue's strings
        self.check_glossary()
        self.search_settings: dict[str, SearchSettings] = {}
        self.sitemap_pages: dict[str, list[SitemapPage]] = {}
        self.not_found_pages: dict[str, str] = {}
        self.files: dict[str, Files] = {}
        self.card_names: dict[tuple[str, str], str] = {}
        #: Page URL -> relative URL of its language root.
        self.lang_bases: dict[str, str] = {}
        #: Finished HTML of markers, by placeholder key, until placed.
        self.blocks: dict[str, HTMLBlock] = {}
        #: The language of each page's text, by source path (English for a page not translated yet).
        self.text_langs: dict[str, str] = {}
        #: The repository's address found from git when mkdocs.yml gives none ("" for none at all).
        self.repo_url: str | None = None
        self.block_numbers = itertools.count(1)

    def check_glossary(self) -> None:
        """Every language's glossary line in every entry, all missing ones named at once: a
        failure for a complete language, a note for one still being translated (whose
        glossary then shows the English term, marked, where its own is missing)."""
        try:
            gaps = glossary_gaps(langs=[lang.code for lang in self.languages])
        except ValueError as error:
            raise PluginError(f"dhumbal: locales/{error}") from None
        failing = []
        for lang in self.languages:
            missing = gaps.get(lang.code, [])
            if not missing:
                continue
            listed = ", ".join(m.rpartition(": ")[2] for m in missing)
            if lang.partial:
                log.info("dhumbal: %s is being translated: %d glossary entries have no %s line yet (%s); "
                         "the glossary shows the English term in their place", lang.code, len(missing), lang.code, listed)
            else:
                failing.append(f"{lang.code} lacks {len(missing)} glossary entries (add a line "
                               f"'{lang.code} = {{ term = \"…\", definition = \"…\" }}' to each):\n  "
                               + "\n  ".join(f"locales/{m}" for m in missing))
        if failing:
            raise PluginError("dhumbal: " + "\n".join(failing))

    # -- per language pass ---------------------------------------------------

    def language(self, code: str) -> Language:
        return next(lang for lang in self.languages if lang.code == code)

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        lang = current_language(config)
        if config.theme.get("language") != lang:
            raise PluginError(
                f"dhumbal: building '{lang}' with theme language "
                f"{config.theme.get('language')!r}: set theme.language for every "
                "language in plugins.i18n.languages"
            )
        config.extra["alternate"] = language_switcher(config, self.languages)
        # The repository, for each page's edit and report links (repository.py): repo_url,
        # else the checkout's git remote unless the plugin's repo_url_from_git is false.
        if not config.repo_url and self.repo_url is None:
            from_git = repository.from_git(self.repo_root) if self.options.repo_url_from_git else None
            self.repo_url = from_git or ""
            if not self.repo_url:
                log.info("dhumbal: no repository address (repo_url, or DHUMBAL_REPO_URL): pages get no "
                         "'Edit this page' or 'Report a problem' link")
        if not config.repo_url and self.repo_url:
            config.repo_url = self.repo_url
        if not config.repo_url:
            # No address: no edit links either (a relative edit_uri alone is a warning on
            # every page, which fails the strict build of a checkout with no remote).
            config.edit_uri = None
            config.edit_uri_template = None
        # The Content-Security-Policy every page states (overrides/main.html).
        config.extra["dhumbal_csp"] = csp.POLICY
        search = search_plugin(config)
        theme_separator, theme_lang, theme_pipeline = theme_strings(
            config, "search.config.separator", "search.config.lang", "search.config.pipeline"
        )
        self.search_settings[lang] = SearchSettings(
            lang=[theme_lang.strip() or "en"],
            separator=search.config.separator or theme_separator,
            pipeline=parse_pipeline(theme_pipeline),
            fields=dict(search.config.fields),
        )
        self.sitemap_pages[lang] = []
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        self.files[current_language(config)] = files
        for path in self.fonts:
            uri = f"{fonts.DEST}/{path.name}"
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(path)))
        return files

    def on_page_markdown(
        self, markdown: str, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        try:
            source = page.file.content_string
        except (OSError, AttributeError):
            source = None
        # Front matter that YAML cannot read (MkDocs drops it without a word) stops
        # the build at its line; so does markup in it, which Material writes into
        # the page unescaped (frontmatter.py).
        where = f"docs/{page.file.src_uri}"
        located = frontmatter.located(source) if source is not None else []
        located += [(None, problem) for problem in frontmatter.problems(page.meta) if source is None]
        if located:
            raise PluginError("dhumbal: " + "; ".join(
                f"{where}:{line}: {what}" if line else f"{where}: {what}" for line, what in located))
        lang = current_language(config)
        text_lang = source_language(page, lang)
        english = self.english_source(page, config, lang)
        translated = english is not None and source is not None
        if english is not None and source is not None and freshness.is_copy(source, english):
            # Not translated yet (a copy of the English page): the current English
            # page is shown, marked as English, with the untranslated notice.
            text_lang, source, translated = self.default, english, False
            markdown = get_data(english)[0]
        self.text_langs[page.file.src_uri] = text_lang

        def stash(block: HTMLBlock) -> str:
            key = f"{lang}.{next(self.block_numbers)}"
            self.blocks[key] = block
            return key

        expanded = expand_markers(
            markdown,
            handlers=registry.HANDLERS,
            page=page,
            config=config,
            files=files,
            lang=lang,
            source_lang=text_lang,
            source=source,
            stash=stash,
        )
        if translated and english is not None:
            self.check_markers(page, markdown, english)
            # a page translated on Weblate keeps the English title and description: its catalog's
            pagemeta.translate_meta(page.meta, get_data(english)[1], lang, page.file.src_uri.partition("/")[2])
        return expanded

    def english_source(self, page: Page, config: MkDocsConfig, lang: str) -> str | None:
        """The English page that ``page`` translates (its text), if ``page`` is a translation in ``lang``."""
        folder, _, name = page.file.src_uri.partition("/")
        if lang == self.default or folder != lang or not name:
            return None
        path = Path(config.docs_dir) / self.default / name
        try:
            return path.read_text(encoding="utf-8-sig")
        except OSError:
            return None

    def check_markers(self, page: Page, markdown: str, english: str) -> None:
        """Stop the build when a translation lacks a marker of its English page (the table or
        example it places would silently be missing) or has one the English page does not."""
        mine = Counter(marker.text for marker in find_markers(markdown, where=lambda _: page.file.src_uri))
        english_markers = find_markers(get_data(english)[0], where=lambda _: "")
        theirs = Counter(marker.text for marker in english_markers)
        if mine == theirs:
            return
        name = page.file.src_uri.partition("/")[2]
        offset = len(english.splitlines()) - len(get_data(english)[0].splitlines())
        lines = {marker.text: marker.index + 1 + offset for marker in reversed(english_markers)}
        problems = [
            f"the generated content {text} of the English page (docs/{self.default}/{name}:{lines[text]}) is missing; "
            "copy that line as it is" for text in sorted((theirs - mine).elements())
        ] + [
            f"the generated content {text} is not on the English page; remove it or add it there too"
            for text in sorted((mine - theirs).elements())
        ]
        raise PluginError(f"dhumbal: docs/{page.file.src_uri}: " + "; ".join(problems))

    def text_language(self, page: Page, lang: str) -> str:
        """The language of the page's text: the build's, or English for a page not translated yet."""
        return self.text_langs.get(page.file.src_uri) or source_language(page, lang)

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        text_lang = self.text_language(page, current_language(config))
        # the page's prose in its language's typography (French: no-break spaces before : ; ! ?)
        html = typography_html(html, text_lang)
        _toc_typography(page.toc, text_lang)
        # the title in the header, the tab and the navigation (Material reads the front matter's first)
        for key in ("title", "description"):
            if isinstance(page.meta.get(key), str):
                page.meta[key] = typography(page.meta[key], text_lang)
        if isinstance(page.title, str):
            page.title = typography(page.title, text_lang)
        if CARD_TOKEN.search(html) or "headerlink" in html:
            html = rewrite_cards(
                html,
                lang=text_lang,
                namer=self.card_namer(page),
                languages=self.codes,
                permalink_title=strings_for(text_lang)["permalink"],
            )

        def search_text(match: re.Match[str]) -> str:
            block = self._block(page, match.group("key"))
            return f"{match.group(0)}{block.search}{_BLOCK_END.format(key=match.group('key'))}"

        return BLOCK_PATTERN.sub(search_text, html)

    def _block(self, page: Page, key: str) -> HTMLBlock:
        try:
            return self.blocks[key]
        except KeyError:
            raise PluginError(
                f"{page.file.src_uri}: generated content {key!r} was lost before it was placed "
                "(a placeholder of sitegen's markers appears where no marker stood)"
            ) from None

    def place_blocks(self, page: Page) -> None:
        """Put each kept block in, in place of the search text the index has read."""
        content = page.content or ""
        if "<!-- dhumbal-block " not in content:
            return

        def full(match: re.Match[str]) -> str:
            key = match.group("key")
            block = self._block(page, key)
            del self.blocks[key]
            return str(block)

        page.content = _PLACED_BLOCK.sub(full, content)

    def card_namer(self, page: Page) -> CardNamer:
        """``dhumbal.core.i18n.card_name``, looked up when first needed, with errors naming the page."""

        def name(card: str, lang: str) -> str:
            key = (card, lang)
            if key in self.card_names:
                return self.card_names[key]
            try:
                card_name = engine_card_name()
            except (ImportError, AttributeError) as error:
                raise PluginError(
                    f"{page.file.src_uri}: the page shows the card {card!r}, whose "
                    "accessible name comes from dhumbal.core.i18n.card_name(card_text, lang), "
                    f"which is not available: {error}"
                ) from error
            try:
                result = card_name(card, lang)
            except Exception as error:
                raise PluginError(
                    f"{page.file.src_uri}: dhumbal.core.i18n.card_name({card!r}, {lang!r}) "
                    f"failed ({type(error).__name__}): {error}"
                ) from error
            if not isinstance(result, str) or not result.strip():
                raise PluginError(
                    f"{page.file.src_uri}: dhumbal.core.i18n.card_name({card!r}, {lang!r}) "
                    f"returned {result!r}, expected a non-empty name"
                )
            self.card_names[key] = result
            return result

        return name

    def on_page_context(
        self, context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Navigation
    ) -> dict[str, Any]:
        self.place_blocks(page)
        page.content = fold_prose(page.content or "")
        lang = current_language(config)
        source_lang = self.text_language(page, lang)
        untranslated = source_lang != lang
        alternates = page_alternates(page, self.languages, lang)
        outdated = None if untranslated or lang == self.default else self.outdated(page, config, lang, alternates)
        contribute_url = None
        if untranslated or outdated is not None:
            contribute = self.files[lang].get_file_from_path(self.options.contribute_page)
            if contribute is None:
                raise PluginError(
                    f"{page.file.src_uri}: the notice on this page (not yet translated, or out of "
                    f"date) links to the Contribute page, but there is no {self.options.contribute_page} "
                    "(the dhumbal plugin's contribute_page in mkdocs.yml)"
                )
            contribute_url = contribute.url
        prefix = self.language(lang).prefix
        report = None
        if config.repo_url:
            report = repository.report_url(
                config.repo_url, src_uri=page.file.src_uri, lang=lang, page_url=page.canonical_url or page.url,
                translation=lang != self.default)
        context["dhumbal"] = {
            "lang": lang,
            "source_lang": source_lang,
            "untranslated": untranslated,
            "outdated": outdated,
            "contribute_url": contribute_url,
            "edit_url": page.edit_url if config.repo_url else None,
            "report_url": report,
            "report_key": "report.translation" if lang != self.default else "report.page",
            "alternates": [vars(alternate) for alternate in alternates],
            "strings": dict(strings_for(lang)),
        }
        context["dhumbal_strings"] = context["dhumbal"]["strings"]
        context["dhumbal_fonts"] = fonts.preloads(lang)
        file_alternates = getattr(page.file, "alternates", {}) or {}
        self.sitemap_pages[lang].append(
            SitemapPage(
                url=page.url,
                alternates={
                    code: file_alternates[code].url
                    for code in (language.code for language in self.languages)
                    if code in file_alternates
                },
            )
        )
        self.lang_bases[page.url] = get_relative_url(prefix or ".", page.url)
        return context

    def outdated(self, page: Page, config: MkDocsConfig, lang: str, alternates: list[Alternate]) -> dict[str, str] | None:
        """The out-of-date notice of a translated page whose English page changed since (see freshness.py)."""
        source = page.file.abs_src_path
        if not source:
            return None
        docs = Path(config.docs_dir)
        try:
            name = Path(source).resolve().relative_to((docs / lang).resolve()).as_posix()
        except ValueError:
            return None
        state = freshness.check_page(lang, name, docs)
        english = next((a for a in alternates if a.lang == self.default), None)
        if state is None or state.state != "stale" or english is None:
            return None
        t = translator(lang)
        changed = state.changed
        return {
            "title": t(freshness.TITLE),
            "text": t(freshness.CHANGED_ON, date=freshness.date_text(changed, lang)) if changed else t(freshness.CHANGED),
            "english_url": english.url,
            "english_link": t(freshness.READ_ENGLISH),
            "help_link": t(freshness.HELP_UPDATE),
            "state": state.state,
            "changed": changed.isoformat() if changed else "",
        }

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        lang = current_language(config)
        if lang == self.default:
            return output  # the site root is the language root
        return with_base(output, self.lang_bases[page.url], page.file.src_uri)

    def on_template_context(
        self, context: dict[str, Any], template_name: str, config: MkDocsConfig
    ) -> dict[str, Any]:
        """Templates that are not pages (the 404 page) get the strings and the font preloads too."""
        context["dhumbal_strings"] = dict(strings_for(current_language(config)))
        context["dhumbal_fonts"] = fonts.preloads(current_language(config))
        return context

    def on_post_template(self, output: str, template_name: str, config: MkDocsConfig) -> str:
        if template_name == "404.html":
            lang = current_language(config)
            # The 404 page is served at any address, so its links are absolute;
            # its search and instant navigation must use its language's root.
            root = next(a["link"] for a in config.extra["alternate"] if a["lang"] == lang)
            output = with_base(output, root, "404.html")
            self.not_found_pages[lang] = output
        return output

    # -- end of the outer build ---------------------------------------------

    def finish(self, config: MkDocsConfig) -> None:
        site = Path(config.site_dir)
        entries = getattr(i18n_plugin(config), "search_entries", None)
        if entries is None:
            raise PluginError(
                "dhumbal: mkdocs-static-i18n no longer exposes search_entries; "
                "sitegen/dhumbal_site/plugin/search_index.py needs updating"
            )
        prefixes = {lang.code: lang.prefix for lang in self.languages if not lang.default}
        for code, code_entries in split_entries(entries, prefixes, self.default).items():
            index = site / self.language(code).prefix / "search" / "search_index.json"
            write_index(index, self.search_settings[code], code_entries)
            log.debug("search index for '%s': %d entries", code, len(code_entries))
        if config.site_url:
            for language in self.languages:
                xml = render_sitemap(config.site_url, self.sitemap_pages[language.code])
                write_sitemap(site / language.prefix, xml)
        # Each puzzle, drawn in every language whose Puzzles page was built (the pages fetch them).
        from ..content.puzzles import PUZZLE_SET

        PUZZLE_SET.write_fragments(site, {lang.code: lang.prefix for lang in self.languages})
        # Each language's 404 page in its own folder; the default language's at the root.
        for language in self.languages:
            page = self.not_found_pages.get(language.code)
            if page is not None:
                (site / language.prefix / "404.html").write_text(page, encoding="utf-8")

