"""Markers: ``<!-- dhumbal:NAME ARGS -->`` lines replaced by registered handlers."""

from __future__ import annotations

import pytest
from mkdocs.exceptions import Abort, PluginError

from dhumbal_site.content import registry
from dhumbal_site.content.markers import MarkerContext, find_markers, parse_marker_args, source_line_offset


def where(index: int) -> str:
    return f"page.md:{index + 1}"


# -- finding markers (no build) ---------------------------------------------------


def test_a_marker_is_a_line_holding_only_the_comment() -> None:
    text = "Intro\n\n<!-- dhumbal:example dashain-basic seats=4 -->\n\nOutro <!-- dhumbal:x -->\n"
    [marker] = find_markers(text, where=where)
    assert (marker.name, marker.args, dict(marker.options), marker.index) == (
        "example",
        ("dashain-basic",),
        {"seats": "4"},
        2,
    )


def test_marker_arguments_use_shell_quoting() -> None:
    assert parse_marker_args('a "b c" key="d e" f=') == (("a", "b c"), {"key": "d e", "f": ""})


def test_markers_inside_fenced_code_are_left_alone() -> None:
    text = "```md\n<!-- dhumbal:compare -->\n```\n~~~~\n<!-- dhumbal:x -->\n```\n~~~~\n<!-- dhumbal:glossary -->\n"
    assert [m.name for m in find_markers(text, where=where)] == ["glossary"]


def test_indented_marker_keeps_its_indentation() -> None:
    [marker] = find_markers('!!! note\n\n    <!-- dhumbal:options dashain -->\n', where=where)
    assert marker.indent == "    "


def test_malformed_marker_names_the_line() -> None:
    with pytest.raises(PluginError, match=r"page\.md:2: malformed marker"):
        find_markers("x\n<!-- dhumbal:Bad Name -->\n", where=where)


def test_a_marker_not_alone_on_its_line_is_an_error() -> None:
    with pytest.raises(PluginError, match=r"page\.md:1: a marker must be alone on its line"):
        find_markers("<!-- dhumbal:compare --> and more\n", where=where)


def test_unbalanced_quotes_in_arguments_name_the_line() -> None:
    with pytest.raises(PluginError, match=r"page\.md:3: cannot read the arguments"):
        find_markers('\n\n<!-- dhumbal:example "open -->\n', where=where)


def test_front_matter_lines_count_in_line_numbers() -> None:
    source = "---\ntitle: x\n---\n# Title\n\nbody\n"
    assert source_line_offset(source, "# Title\n\nbody\n") == 3


def test_registry_is_a_dict_of_handlers() -> None:
    assert isinstance(registry.HANDLERS, dict)
    assert all(callable(handler) for handler in registry.HANDLERS.values())


# -- in a build ---------------------------------------------------------------------

PAGES = {
    "en/index.md": """
        ---
        title: Home
        ---
        # Home

        Before.

        <!-- dhumbal:test-echo alpha "beta gamma" size=3 -->

        !!! note

            <!-- dhumbal:test-echo inside -->

        ```
        <!-- dhumbal:not-registered -->
        ```
        """,
    "fr/index.md": """
        # Accueil

        <!-- dhumbal:test-echo alpha "beta gamma" size=3 -->

        !!! note

            <!-- dhumbal:test-echo inside -->
        """,
    "en/rules.md": """
        # Rules

        <!-- dhumbal:test-echo untranslated -->
        """,
    "en/contribute.md": "# Contribute\n",
}

SEEN: list[MarkerContext] = []


def echo(ctx: MarkerContext) -> str:
    SEEN.append(ctx)
    return (
        f'<div class="echo" data-lang="{ctx.lang}" data-source="{ctx.source_lang}" '
        f'data-where="{ctx.where}">{" | ".join(ctx.args)} {dict(ctx.options)}</div>'
    )


def test_markers_expand_in_each_language_of_the_build(tree, handlers) -> None:
    SEEN.clear()
    handlers("test-echo", echo)
    built = tree.build(PAGES, nav=[{"Home": "index.md"}, "rules.md", "contribute.md"])

    home = built.html("")
    assert '<div class="echo" data-lang="en" data-source="en" data-where="en/index.md:8">' in home
    assert "alpha | beta gamma {&#x27;size&#x27;: &#x27;3&#x27;}" in home or "alpha | beta gamma {'size': '3'}" in home
    # Inside the admonition, the expansion stays inside it.
    assert home.index('class="admonition note"') < home.index("inside")
    # In the code block the marker is shown, not expanded.
    assert "&lt;!-- dhumbal:not-registered --&gt;" in home

    assert 'data-lang="fr" data-source="fr" data-where="fr/index.md:3"' in built.html("fr/")
    # A page shown untranslated: the reader's language, the text's language.
    assert 'data-lang="ne" data-source="en" data-where="en/rules.md:3"' in built.html("ne/rules/")
    langs = {(ctx.lang, ctx.src_path) for ctx in SEEN}
    assert ("nl", "en/rules.md") in langs and ("en", "en/rules.md") in langs


def test_unknown_marker_fails_the_build_naming_page_and_line(tree) -> None:
    pages = {
        "en/index.md": "---\ntitle: Home\n---\n# Home\n\n<!-- dhumbal:no-such-marker x -->\n",
        "en/contribute.md": "# Contribute\n",
    }
    with pytest.raises(Abort):
        tree.build(pages)
    assert "en/index.md:6: unknown marker 'dhumbal:no-such-marker'" in tree.errors()


def test_handler_error_fails_the_build_naming_page_and_line(tree, handlers) -> None:
    def broken(ctx: MarkerContext) -> str:
        raise ValueError(f"no example called {ctx.args[0]!r}")

    handlers("test-broken", broken)
    pages = {
        "en/index.md": "# Home\n",
        "en/contribute.md": "# Contribute\n",
        "fr/index.md": "# Accueil\n\n\n<!-- dhumbal:test-broken nope -->\n",
    }
    with pytest.raises(Abort):
        tree.build(pages)
    assert (
        "fr/index.md:4: marker 'dhumbal:test-broken' failed (ValueError): no example called 'nope'"
        in tree.errors()
    )


def test_a_translation_that_drops_or_adds_a_marker_fails_the_build_naming_it(tree, handlers) -> None:
    """The strict build used to drop an example silently when a translation lost its marker."""
    handlers("test-echo", echo)
    english = "---\ntitle: Home\n---\n# Home\n\n<!-- dhumbal:test-echo one -->\n\n<!-- dhumbal:test-echo two -->\n"
    pages = {"en/index.md": english, "en/contribute.md": "# Contribute\n",
             "fr/index.md": "# Accueil\n\n<!-- dhumbal:test-echo one -->\n\n<!-- dhumbal:test-echo three -->\n"}
    with pytest.raises(Abort):
        tree.build(pages)
    errors = tree.errors()
    assert ("docs/fr/index.md: the generated content <!-- dhumbal:test-echo two --> of the English page "
            "(docs/en/index.md:8) is missing; copy that line as it is") in errors
    assert "the generated content <!-- dhumbal:test-echo three --> is not on the English page" in errors
    # the same markers, in the translation's own layout, build
    pages["fr/index.md"] = "# Accueil\n\nTexte.\n\n<!--   dhumbal:test-echo one -->\n\n<!-- dhumbal:test-echo two -->\n"
    assert "data-where=\"fr/index.md:5\"" in tree.build(pages).html("fr/")
