"""Every translation check reads its command line with one parser: a line it cannot read is
refused with its usage (exit 2), never half-read (``--root`` without its folder used to be
ignored, and a misspelt option was taken for a language code)."""

from __future__ import annotations

import importlib

import pytest

from dhumbal_site import ROOT

ROOTED = ["agreement", "statements", "terminology", "glossary", "pagemeta", "catalogs"]
DOCS = ["parity", "freshness"]
FIRST = {"pagemeta": ["check"], "catalogs": ["check"], "freshness": ["check"]}


def _main(name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"dhumbal_site.translation.{name}").main


@pytest.mark.parametrize("name", ROOTED + DOCS)
def test_an_option_without_its_folder_is_refused(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    option = "--docs" if name in DOCS else "--root"
    assert _main(name)([*FIRST.get(name, []), option]) == 2
    out = capsys.readouterr().out
    assert "usage: python -m dhumbal_site.translation." + name in out
    assert f"argument {option}: expected one argument" in out


@pytest.mark.parametrize("name", ROOTED + DOCS + ["frontmatter"])
def test_a_misspelt_option_is_refused_not_taken_for_a_language(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _main(name)([*FIRST.get(name, []), "--rot", "elsewhere"]) == 2
    assert "unrecognized arguments: --rot" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["pagemeta", "catalogs", "freshness"])
def test_a_command_outside_the_list_is_refused(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _main(name)(["chek"]) == 2
    assert "invalid choice: 'chek'" in capsys.readouterr().out


def test_the_root_may_be_written_with_an_equals_sign(capsys: pytest.CaptureFixture[str]) -> None:
    assert _main("agreement")([f"--root={ROOT}", "fr"]) == 0
    assert capsys.readouterr().out.startswith("fr: ")


def test_catalogs_takes_a_root_only_for_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert _main("catalogs")(["compile", "--root", "elsewhere"]) == 2
    assert "--root goes with check only" in capsys.readouterr().out


def test_a_new_language_needs_exactly_one_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert _main("newlanguage")(["de", "hi"]) == 2
    assert "usage: make new-language CODE=xx" in capsys.readouterr().out
