"""Small pieces of the glue, without a build."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from dhumbal_site.plugin.search_index import parse_pipeline, split_entries
from dhumbal_site.plugin.sitemaps import SitemapPage, render_sitemap
from dhumbal_site.runtime.fonts import FILES, font_sources

ROOT = Path(__file__).resolve().parents[2]


def test_missing_font_files_fail_the_build_telling_to_run_make_setup(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match="run make setup"):
        font_sources(tmp_path)


def test_font_files_come_from_node_modules() -> None:
    paths = font_sources(ROOT)
    assert [path.name for path in paths] == list(FILES)


def test_search_entries_are_split_by_language_folder_keeping_order() -> None:
    entries = [
        {"location": "", "title": "Home", "text": ""},
        {"location": "glossary/#thupro", "title": "Thupro", "text": ""},
        {"location": "fr/", "title": "Accueil", "text": ""},
        {"location": "ne/glossary/", "title": "शब्दावली", "text": "थुप्रो"},
        {"location": "ne/glossary/#x", "title": "x", "text": ""},
        {"location": "nlx/", "title": "not Dutch", "text": ""},
    ]
    groups = split_entries(entries, {"fr": "fr/", "nl": "nl/", "ne": "ne/"}, "en")
    assert [e["location"] for e in groups["en"]] == ["", "glossary/#thupro", "nlx/"]
    assert [e["location"] for e in groups["fr"]] == [""]
    assert groups["nl"] == []
    assert [e["location"] for e in groups["ne"]] == ["glossary/", "glossary/#x"]
    assert entries[3]["location"] == "ne/glossary/"  # the input is not changed


def test_blank_pipeline_means_none() -> None:
    assert parse_pipeline(" ") == []
    assert parse_pipeline("stopWordFilter, stemmer") == ["stopWordFilter", "stemmer"]


def test_sitemap_urls_are_absolute_and_the_home_page_has_no_dot() -> None:
    xml = render_sitemap(
        "https://example.org/dhumbal",
        [SitemapPage("fr/", {"en": "./", "fr": "fr/"}), SitemapPage("fr/a&b/", {"fr": "fr/a&b/"})],
    )
    assert "<loc>https://example.org/dhumbal/fr/</loc>" in xml
    assert 'hreflang="en" href="https://example.org/dhumbal/"' in xml
    assert "<loc>https://example.org/dhumbal/fr/a&amp;b/</loc>" in xml


def test_of_material_s_palette_only_what_a_custom_palette_uses_goes_into_site_css() -> None:
    """Material's palette.css (2.2 KB gzipped, a request on every page) is every named
    colour; this site's colours are its own, so site.css takes the dark scheme and the
    switch's rules alone, in the order Material gives them."""
    from dhumbal_site.runtime.frontend import material_palette, palette_rules

    made = "@media screen{[data-md-color-scheme=slate]{--a:1}[data-md-color-primary=red]{--b:2}}" \
        "[data-md-color-accent=blue] a{--c:3}[data-md-color-primary=custom] a{--d:4}" \
        "@media screen and (min-width:60em){[data-md-color-primary=white] .x{--e:5}}:root{--f:6}"
    assert palette_rules(made) == \
        "@media screen{[data-md-color-scheme=slate]{--a:1}}[data-md-color-primary=custom] a{--d:4}:root{--f:6}"
    real = material_palette().read_text(encoding="utf-8")
    kept = palette_rules(real)
    assert kept.startswith("@media screen{[data-md-color-scheme=slate]{color-scheme:dark;")
    assert "data-md-color-primary=" not in kept and "data-md-color-accent=" not in kept
    assert len(kept) < len(real) / 4
