"""French typography in generated text: a no-break space before : and inside
guillemets, a narrow one before ; ! ? and a number's %, put in by one function
(dhumbal.core.i18n.typography) that every translated message passes through, and
its HTML form for templates and pages, which leaves markup and code alone."""

from __future__ import annotations

import pytest

from dhumbal.core.i18n import NBSP, NNBSP, format_text, translator, typography, typography_html


@pytest.mark.parametrize(("text", "expected"), [
    ("Pris : 25", f"Pris{NBSP}: 25"),
    ("Pris: 25", f"Pris{NBSP}: 25"),
    (f"Pris{NBSP}: 25", f"Pris{NBSP}: 25"),
    ("Vraiment ?", f"Vraiment{NNBSP}?"),
    ("Vraiment?", f"Vraiment{NNBSP}?"),
    ("Jetez ; puis", f"Jetez{NNBSP}; puis"),
    ("Annoncez !", f"Annoncez{NNBSP}!"),
    ("« Jhyap »", f"«{NBSP}Jhyap{NBSP}»"),
    ("«Jhyap»", f"«{NBSP}Jhyap{NBSP}»"),
    ("Main (5) :", f"Main (5){NBSP}:"),
    ("25 %", f"25{NNBSP}%"), ("25%", f"25{NNBSP}%"), (f"25{NBSP}% des donnes", f"25{NNBSP}% des donnes"),
    ("(<1 %)", f"(<1{NNBSP}%)"),
    # not punctuation of a sentence: left alone
    ("10:30", "10:30"),
    ("http://example.org/?a=b", "http://example.org/?a=b"),
    ("x;y", "x;y"),
    ("a &amp; b", "a &amp; b"),
    ("a%20b", "a%20b"), ("100%25", "100%25"),
])
def test_french_spacing(text: str, expected: str) -> None:
    assert typography(text, "fr") == expected


@pytest.mark.parametrize("lang", ["en", "nl", "ne"])
def test_other_languages_are_left_as_written(lang: str) -> None:
    assert typography("Note : yes; « no » ?", lang) == "Note : yes; « no » ?"
    assert typography_html("<p>Note : yes</p>", lang) == "<p>Note : yes</p>"


def test_html_text_only_never_markup_entities_or_code() -> None:
    html = ('<p title="a : b"><a href="#t3">Tour 3</a>: il jette; <code>x : y</code> '
            '&amp; <strong>pris</strong> ! <pre>a ; b</pre><kbd>c ?</kbd></p>')
    assert typography_html(html, "fr") == (
        f'<p title="a : b"><a href="#t3">Tour 3</a>{NBSP}: il jette{NNBSP}; <code>x : y</code> '
        f'&amp; <strong>pris</strong>{NNBSP}! <pre>a ; b</pre><kbd>c ?</kbd></p>'
    )


def test_every_translated_message_gets_it_filled_or_raw() -> None:
    t = translator("fr")
    assert format_text("{a} : {b}", {"a": "Total", "b": 5}, "fr") == f"Total{NBSP}: 5"
    # a value that ends the phrase before the colon is spaced too
    assert format_text("{a}: {b}", {"a": "Total", "b": 5}, "fr") == f"Total{NBSP}: 5"
    shown = t("Bots: {level}", level="Facile")
    assert shown == f"Niveau{NBSP}: Facile", shown
    assert f"{NBSP}:" in t.raw("{level}:") or t.raw("{level}:").endswith(f"{NBSP}:")
