"""Reading an example file: bounds before the TOML parser, and the right line for every error
(issue 21, items 8 and 12).

Each case used to go wrong: a 40,000-part dotted key took the parser a
minute and 6 GB; a 4,400-digit integer and a quoted key got no line; a key
name inside an earlier multi-line string got that string's line; a seat
named "stock" was read as the stock; a UTF-8 byte-order mark was "Invalid
statement"; file names reached the terminal raw.
"""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest

from dhumbal.worked import examplefile
from dhumbal.worked.examplefile import MAX_KEY_PARTS, MAX_LINE, ExampleError, parse, read_file, scan, shown_name
from dhumbal.worked.examplenotes import babel_extract
from dhumbal.worked.examples import load_file, load_text
from tests.engine.rules_kit import EXAMPLE_TEXT


def line_of(text: str, needle: str) -> int:
    return next(i + 1 for i, ln in enumerate(text.splitlines()) if needle in ln)


def error(text: str, name: str = "x.toml") -> ExampleError:
    with pytest.raises(ExampleError) as info:
        load_text(text, name)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{name}:{info.value.line}: " if info.value.line else f"{name}: ")
    return info.value


# -- bounds before the parser ---------------------------------------------------------------


def test_a_4400_digit_integer_is_named_at_its_line() -> None:
    text = EXAMPLE_TEXT.replace('stock = "2♦ 7♠"', 'stock = "2♦ 7♠"\nturns = ' + "9" * 4400)
    # within the line bound too: the value's own bound names it
    err = error(text.replace("9" * 4400, "9" * 1500))
    assert err.line == line_of(text, "turns = 9") and "a value of 1500 characters" in str(err)
    err = error(text)
    assert err.line == line_of(text, "turns = 9")


def test_a_whole_number_too_large_for_the_engine_is_named_at_its_line() -> None:
    text = EXAMPLE_TEXT.replace("expect = { total.A = 25 }", "expect = { total.A = 25_000_000_000 }")
    err = error(text)
    assert err.line == line_of(text, "25_000_000_000") and "beyond ±1,000,000,000 at steps.0.expect.total.A" in str(err)


@pytest.mark.parametrize("parts", [MAX_KEY_PARTS + 1, 40_000])
def test_a_key_of_many_dotted_parts_is_refused_before_the_parser(parts: int) -> None:
    key = ".".join(["a"] * parts)
    text = EXAMPLE_TEXT + f"\n{key} = 1\n"
    err = error(text)
    assert err.line == line_of(text, "a.a.a")
    assert (f"more than {MAX_KEY_PARTS} dotted parts" if len(key) <= MAX_LINE else "a line of") in str(err)


def test_a_table_name_of_many_parts_is_refused() -> None:
    text = EXAMPLE_TEXT + "\n[" + ".".join(["t"] * (MAX_KEY_PARTS + 2)) + "]\n"
    err = error(text)
    assert err.line == line_of(text, "[t.t.t") and "dotted parts" in str(err)


def test_dotted_keys_split_over_many_lines_stay_bounded() -> None:
    # every line within bounds, the parser's work stays linear: a thousand eight-part keys
    text = EXAMPLE_TEXT + "\n[extra]\n" + "".join(f"k{i}.a.b.c.d.e.f.g = 1\n" for i in range(1000))
    err = error(text)
    assert "unknown key 'extra'" in str(err)


def test_a_long_line_is_refused_naming_it() -> None:
    text = EXAMPLE_TEXT.replace('title = "K pair"', 'title = "' + "K" * MAX_LINE + '"')
    err = error(text)
    assert err.line == 1 and f"a line of {MAX_LINE + 10} characters" in str(err)


def test_a_large_file_is_refused_by_its_size_before_it_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.toml"
    path.write_text(EXAMPLE_TEXT, encoding="utf-8")
    monkeypatch.setattr(examplefile, "MAX_FILE_BYTES", 100)
    with pytest.raises(ExampleError, match=r"^big\.toml: \d+ bytes: an example file holds at most 100$"):
        read_file(path, "big.toml")


def test_a_fifo_is_refused_by_its_type_without_waiting_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)
    with pytest.raises(ExampleError, match="not a regular file"):
        load_file(path)


def test_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    assert load_text("\ufeff" + EXAMPLE_TEXT, "bom.toml").title == "K pair"
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + EXAMPLE_TEXT.encode())
    assert len(load_file(path).steps) == 3


def test_invalid_utf8_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(EXAMPLE_TEXT.encode().replace("K♥ A♦".encode(), b"K\xff A\xe2"))
    with pytest.raises(ExampleError, match=r"^.*bad\.toml:7: not UTF-8 text \(byte 0xff\)$"):
        load_file(path)


# -- the right line -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "needle", "says"),
    [
        ('dealer = "B"', '"dealer" = "Z"', '"dealer"', "'Z' is not a seat"),
        ('dealer = "B"', "'dealer' = 'Z'", "'dealer'", "'Z' is not a seat"),
        ('B = "A♠ 4♣ 7♦ 7♣ 7♥"', '"B" = "A♠ 4♣ 7X 7♣ 7♥"', '"B" =', "not a card: '7X'"),
        ('pile = "9♣"', '"pile" = 9', '"pile" = 9', "position pile: cards must be text"),
        ("expect = { total.A = 25 }", 'expect = { "total"."A" = 26 }', '"total"."A"', "total.A: expected 26, found 25"),
        ("expect = { total.A = 25 }", "expect = { 'total'.'A' = 26 }", "'total'.'A'", "total.A: expected 26, found 25"),
    ],
)
def test_a_quoted_key_is_named_at_its_line(old: str, new: str, needle: str, says: str) -> None:
    text = EXAMPLE_TEXT.replace(old, new)
    assert text != EXAMPLE_TEXT
    err = error(text)
    assert err.line == line_of(text, needle) and says in str(err), str(err)


def test_a_key_inside_an_earlier_multiline_string_is_not_its_line() -> None:
    intro = 'intro = """\nThe dealer is B.\ndealer = "A" would be wrong\n[position]\nturns = 3\n"""\n'
    text = EXAMPLE_TEXT.replace('dealer = "B"', intro + 'dealer = "Zed"').replace('stock = "2♦ 7♠"', 'stock = "2♦ 7♠"\nturns = "x"')
    err = error(text)
    assert err.line == line_of(text, 'dealer = "Zed"'), str(err)
    text = text.replace('dealer = "Zed"', 'dealer = "B"')
    err = error(text)
    assert err.line == line_of(text, 'turns = "x"') and "turns must be a whole number" in str(err), str(err)
    literal = text.replace('"""', "'''")
    assert error(literal).line == line_of(literal, 'turns = "x"')


def test_expectations_are_found_however_the_file_writes_them() -> None:
    styles = {
        "inline": 'act = "A: take stock"\nexpect = { total.A = 26 }\n',
        "dotted": 'act = "A: take stock"\nexpect.total.A = 26\n',
        "nested": 'act = "A: take stock"\nexpect = { total = { A = 26 } }\n',
        "table": 'act = "A: take stock"\n\n[steps.expect]\ntotal.A = 26\n',
        "quoted": 'act = "A: take stock"\n"expect"."total"."A" = 26\n',
    }
    for style, step in styles.items():
        text = EXAMPLE_TEXT.replace('act = "A: take stock"\nexpect = { total.A = 25 }\n', step)
        err = error(text)
        assert err.line == line_of(text, "26"), (style, str(err))
        assert "step 1: total.A: expected 26, found 25" in str(err), (style, str(err))


def test_steps_as_an_array_of_inline_tables_have_their_lines() -> None:
    text = EXAMPLE_TEXT[: EXAMPLE_TEXT.index("[[steps]]")] + (
        'steps = [\n  { act = "A: take stock" },\n  { act = "A: throw K♠ K♥", expect = { total.A = 6 } },\n]\n'
    )
    # "steps" before [position] would belong to it: the key goes at the top
    text = text.replace("[position]", 'steps = [\n  { act = "A: take stock" },\n  { act = "A: throw K♠ K♥", expect = { total.A = 6 } },\n]\n\n[position]', 1)
    text = text[: text.rindex("steps = [")]
    err = error(text)
    assert err.line == line_of(text, "total.A = 6") and "step 2: total.A: expected 6, found 5" in str(err), str(err)


# -- seats ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["stock", "pile", "turn", "turns", "offer", "rest", "out_of_play", "none"])
def test_a_seat_may_not_take_a_word_of_the_position(name: str) -> None:
    text = EXAMPLE_TEXT.replace('seats = ["A", "B"]', f'seats = ["A", "{name}"]')
    err = error(text)
    assert err.line == line_of(text, "seats =") and f"a seat cannot be called {name!r}" in str(err)


@pytest.mark.parametrize("name", ["A: B", "{x}", " A", "x" * 41, "a\tb", "\x1b[31m"])
def test_a_seat_name_must_be_plain_text(name: str) -> None:
    text = EXAMPLE_TEXT.replace('seats = ["A", "B"]', f'seats = ["A", {json.dumps(name)}]')
    err = error(text)
    assert err.line == line_of(text, "seats =") and "must be printable text" in str(err)
    assert "\x1b" not in str(err) and "\t" not in str(err)


# -- names printed escaped ---------------------------------------------------------------------


def test_file_names_are_printed_with_their_control_characters_escaped(tmp_path: Path) -> None:
    assert shown_name("a\x1b[2Jb.toml") == "a\\x1b[2Jb.toml"
    assert shown_name("उदाहरण.toml") == "उदाहरण.toml"  # printable text stays as it is
    path = tmp_path / "x\x1b]0;t\x07.toml"
    path.write_text(EXAMPLE_TEXT.replace('pile = "9♣"', 'pile = "9X"'), encoding="utf-8")
    with pytest.raises(ExampleError) as info:
        load_file(path)
    assert "\x1b" not in str(info.value) and "x\\x1b]0;t\\x07.toml:" in str(info.value)


# -- the scanner against the parser ------------------------------------------------------------


def test_every_key_of_the_project_examples_has_its_line() -> None:
    root = Path(__file__).resolve().parents[2] / "examples"
    for path in sorted(root.glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        data, where = parse(text, path.name)
        for key in data:
            first = next(i + 1 for i, ln in enumerate(text.splitlines()) if re.match(rf"\[*{key}\b", ln))
            assert where.top(key) == first, (path.name, key)
        for i, step in enumerate(data["steps"]):
            for key in step:
                found = where.in_step(i, key)
                assert found is not None and key in text.splitlines()[found - 1], (path.name, i, key)


def test_text_the_scanner_cannot_read_is_left_to_the_parser() -> None:
    for text in ('a = "unterminated\n', "a = [1,\n", "= 5\n", "[a\n", 'a = """never closed\n'):
        scan(text, "x.toml")  # no error of its own
        err = error(text)
        assert "not valid TOML" in str(err) and err.line is not None


def test_the_catalog_extractor_reads_the_file_as_the_check_does() -> None:
    intro = 'intro = """\nnote = "not a note"\n"""\n'
    text = "\ufeff" + EXAMPLE_TEXT.replace('dealer = "B"', 'dealer = "B"\n' + intro) + 'note = "A note."\n'
    found = list(babel_extract(io.BytesIO(text.encode()), None, None, None))
    assert [(m, c) for _, _, m, c in found] == [
        ("K pair", ["example title"]),
        ("\nnote = \"not a note\"\n".lstrip("\n"), ["example intro"]),
        ("A note.", ["example note"]),
    ]
    assert found[-1][0] == line_of(text, 'note = "A note."')
    assert list(babel_extract(io.BytesIO(b"\xff"), None, None, None)) == []
