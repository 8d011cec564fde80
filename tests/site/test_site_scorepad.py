"""The Score pad page in the built site: every language, its links, its texts, the shell.

- A page per language whose pad root is marked ``data-dhumbal-scorepad``, with
  the set-up form made from the engine's option specs (the same house rules as
  the table's settings) and every text the script shows in the page's
  language (Nepali digits on the number pad).
- Linked from the home page, each rules page and the navigation, in every language.
- In the service worker's shell, in every language, so it opens offline after
  one visit of any page (the offline suite plays it there).
"""

from __future__ import annotations

import html
import json
import re

import pytest

from dhumbal.core.i18n import translator
from dhumbal.core.profiles import PROFILE_KEYS, find_profile
from dhumbal.view.padview import SCRIPT_TEXTS
from tests.site.sitecheck import LANGUAGES, lang_prefix


def pad_page(site, lang: str) -> str:
    return (site.directory / lang_prefix(lang) / "scorepad" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pad_page_in_every_language(site, lang: str) -> None:
    text = pad_page(site, lang)
    assert text.count("data-dhumbal-scorepad") == 1
    root = re.search(r'<div class="dhp" data-dhumbal-scorepad data-lang="(\w+)" data-strings="([^"]*)" data-digits="([^"]*)"', text)
    assert root is not None
    assert root.group(1) == lang
    strings = json.loads(html.unescape(root.group(2)))
    t = translator(lang)
    assert set(strings) == set(SCRIPT_TEXTS)
    assert all(strings[k] == t.raw(v) for k, v in SCRIPT_TEXTS.items())
    assert root.group(3) == ("०१२३४५६७८९" if lang == "ne" else "0123456789")
    for key in PROFILE_KEYS:  # the profile's house rules, as the table's settings have them (players aside)
        p = find_profile(key)
        box = re.search(rf'data-pad-options="{key}"[^>]*>(.*?)</fieldset>', text, re.S)
        assert box is not None
        for spec in p.option_specs:
            assert (f'name="opt:{spec.key}"' in box.group(1)) is (spec.key != "players"), (key, spec.key)
    if lang != "en":
        assert "Who called?" not in text and "Start the match" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_page_the_rules_pages_and_the_navigation_link_to_the_pad(site, lang: str) -> None:
    base = site.directory / lang_prefix(lang)
    home = (base / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<article[^>]*>.*href="scorepad/"', home, re.S), "the home page's text links to the pad"
    for key in PROFILE_KEYS:
        page = (base / "rules" / key / "index.html").read_text(encoding="utf-8")
        article = page[page.index("<article"):page.index("</article>")]
        assert 'href="../../scorepad/"' in article, key
        nav = page[page.index('class="md-nav md-nav--primary"'):page.index("<article")]
        assert 'href="../../scorepad/"' in nav, f"{key}: the navigation lists the pad"


def test_the_pad_pages_are_in_the_service_workers_shell(site) -> None:
    sw = (site.directory / "sw.js").read_text(encoding="utf-8")
    build = json.loads(sw.split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    for lang in LANGUAGES:
        path = lang_prefix(lang) + "scorepad/"
        assert path in build["shell"], path
        assert build["shell"][path] == build["languages"][lang]["pages"][path]
    assert "assets/dhumbal/scorepad.js" in build["shell"]
    assert "assets/dhumbal/scorepad.css" in build["shell"]
