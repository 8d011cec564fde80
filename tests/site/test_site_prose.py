"""The article's long runs of prose go into parts laid out on demand (content/prose.py)."""

from __future__ import annotations

import re

from dhumbal_site.content.prose import MIN_PART, estimate, fold_prose

LONG = "<p>" + "word " * (MIN_PART // 5) + "</p>"


def parts(html: str) -> list[str]:
    return re.findall(r'<div class="dh-prose dh-prose-\d+">(.*?)</div>(?=\s*(?:<h|$))', html, re.S)


def test_the_runs_between_headings_after_the_first_section_heading_become_parts() -> None:
    html = (f"<h1>Title</h1>{LONG}<h2 id='a'>A</h2>{LONG}<ul><li>x</li></ul>"
            f"<h2 id='b'>B</h2>\n{LONG}\n<h3 id='c'>C</h3>{LONG}")
    folded = fold_prose(html)
    # the introduction stays as it is; each run after the first h2 is one part
    assert folded.startswith(f"<h1>Title</h1>{LONG}<h2 id='a'>A</h2><div class=\"dh-prose")
    assert parts(folded) == [f"{LONG}<ul><li>x</li></ul>", LONG, LONG]
    # every heading stays outside the parts, where the table of contents measures it
    for heading in ("<h2 id='a'>A</h2>", "<h2 id='b'>B</h2>", "<h3 id='c'>C</h3>"):
        before = folded[: folded.index(heading)]
        assert before.count('<div class="dh-prose') == before.count("</div>")
    # nothing is lost or reordered
    assert re.sub(r'<div class="dh-prose dh-prose-\d+">|</div>', "", folded) == html


def test_short_runs_and_runs_with_controls_stay_as_they_are() -> None:
    short = "<p>A few words.</p>"
    for control in ("<form><button>Go</button></form>", '<p><input type="text"></p>',
                    "<div><select><option>1</option></select></div>", "<dialog>Sure?</dialog>",
                    "<template><p>later</p></template>", "<textarea></textarea>"):
        html = f"<h2>A</h2>{short}<h2>B</h2>{LONG}{control}<h2>C</h2>{LONG}"
        folded = fold_prose(html)
        assert parts(folded) == [LONG], control


def test_a_page_without_section_headings_or_with_broken_nesting_is_left_whole() -> None:
    assert fold_prose(f"<h1>T</h1>{LONG}{LONG}") == f"<h1>T</h1>{LONG}{LONG}"
    broken = f"<h2>A</h2><div>{LONG}<h2>B</h2>{LONG}"
    assert fold_prose(broken) == broken
    stray = f"<h2>A</h2>{LONG}</section><h2>B</h2>{LONG}"
    assert fold_prose(stray) == stray


def test_the_estimate_grows_with_examples_text_and_rows() -> None:
    example = '<section class="dh-example">' + "x" * 5000 + "</section>"
    assert estimate([example]) == 32
    assert estimate([example, example, example, example]) == 128
    assert estimate(["<p>" + "y" * 400 + "</p>"]) == 16
    assert estimate(["<table>" + "<tr><td>1</td></tr>" * 40 + "</table>"]) == 128
    assert estimate(["<p>a</p>"]) == 8
