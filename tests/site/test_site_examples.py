"""The worked examples' diagrams and the comparison's same-deal section are the
engine's state, drawn: checked against the engine on the built site.

* every example shows one diagram for its start and one per step, each seat
  with as many cards as the engine's hand holds (the very cards, face up, or
  backs for a hand the example keeps unseen), and the pile or offer as the
  engine states it;
* the page holds the first step's diagram only (and every step's words);
  the later ones are in the file the example names, beside the page code;
* a changed example file changes its diagram;
* headers name the profile and options in words, never the canonical code;
* the same-deal section's cells are what the engine reports when the
  profiles' transcripts are played again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from dhumbal.core import cards as C
from dhumbal.core.compare import rules_in_words
from dhumbal.core.messages import Message
from dhumbal.play.deal import Deal
from dhumbal.play.records import state_from_json
from dhumbal.worked.examples import display_names, example_files, load_file
from tests.site.htmltree import Node, parse
from tests.sitekit import SITE_LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
#: The site's languages, from mkdocs.yml (English first).
LANGS = SITE_LANGUAGES
EXAMPLE_IDS = [p.stem for p in example_files([ROOT / "examples"])]
# The canonical text of a profile with options, e.g. nepali-games(players=2).
CANONICAL = re.compile(r"[a-z]+(?:-[a-z]+)*\([^)]*=|\b[a-z-]+=[\w.]+")


def _prefix(lang: str) -> str:
    return "" if lang == "en" else f"{lang}/"


_PAGES: dict[Path, Node] = {}


def _tree(site: Any, path: str) -> Node:
    file = site.directory / path / "index.html"
    if file not in _PAGES:
        _PAGES[file] = parse(file.read_text(encoding="utf-8"))
    return _PAGES[file]


def _section(site: Any, lang: str, example_id: str) -> Node:
    tree = _tree(site, f"{_prefix(lang)}examples/")
    return tree.find(lambda n: n.tag == "section" and n.attrs.get("id") == f"example-{example_id}")


def _boards_file(site: Any, section: Node) -> dict[str, Any]:
    return json.loads((site.directory / "assets/dhumbal/examples" / section.attrs["data-later"]).read_text(encoding="utf-8"))


def _diagrams(site: Any, section: Node) -> list[Node]:
    """Each step's diagram: the first from the page, the others from the example's boards' file."""
    steps = section.find_all("dh-step")
    return [steps[0].find("dh-diagram"), *(parse(f"<div>{html}</div>") for html in _boards_file(site, section)["boards"])]


def _ascii(cards: list[int]) -> list[str]:
    return [C.card_text(c, ascii=True) for c in cards]


def _positions(example_id: str) -> tuple[Any, list[Deal]]:
    walk = load_file(ROOT / "examples" / f"{example_id}.toml")
    return walk, [state_from_json(walk.start_state), *(state_from_json(r.state) for r in walk.steps)]


@pytest.mark.parametrize("lang", ["en", "ne"])
@pytest.mark.parametrize("example_id", EXAMPLE_IDS)
def test_every_step_has_a_diagram_of_the_engines_position(site: Any, lang: str, example_id: str) -> None:
    walk, deals = _positions(example_id)
    section = _section(site, lang, example_id)
    steps = _diagrams(site, section)
    assert len(steps) == len(walk.steps) + 1 == int(section.attrs["data-steps"])
    for index, (step, deal) in enumerate(zip(steps, deals)):
        where = f"{example_id} step {index}"
        seats = step.find_all("dh-dseat")
        assert len(seats) == deal.players, where
        for s, seat in enumerate(seats):
            hand = seat.find("dh-dhand")
            if s in walk.unseen and not deal.is_over:
                assert hand.cards() == [] and hand.backs() == len(deal.hands[s]), where
                assert hand.attrs.get("role") == "img" and hand.attrs.get("aria-label"), where
            else:
                assert hand.cards() == _ascii(deal.hands[s]), where
        pile = step.find("dh-dpile").cards()
        if deal.profile.draw_first and not deal.pile:
            assert pile == [] and "dh-dpile" in step.find("dh-dpile").classes, where
        elif deal.profile.draw_first:
            # the last throw, ending with the card on top of the pile
            assert pile and pile == _ascii(deal.pile[-len(pile):]), where
            assert pile[-1] == C.card_text(deal.pile[-1], ascii=True), where
        else:
            assert pile == _ascii(deal.offer_cards), where
        pending = step.find_all("dh-dpending")
        assert (pending[0].cards() if pending else []) == _ascii(deal.pending), where
        stock = step.find("dh-dstock")
        assert int(stock.attrs["data-count"]) == len(deal.stock), where
        turn = [int(li.attrs["data-seat"]) for li in seats if "dh-dseat--turn" in li.classes]
        assert turn == ([] if deal.is_over else [deal.turn]), where


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", ["examples/", "rules/nepali-games/"])
def test_a_page_holds_only_the_first_diagram_of_each_example(site: Any, lang: str, page: str) -> None:
    """The later steps' diagrams were 7.9 KB of a rules page's 26.5 KB gzipped and half its
    elements: the page keeps every step's words and the first diagram only; the file it
    names (id, language and a hash of the text) holds the rest, one board per later step."""
    sections = _tree(site, _prefix(lang) + page).find_all(lambda n: n.tag == "section" and "data-later" in n.attrs)
    assert sections
    for section in sections:
        steps = section.find_all("dh-step")
        example_id = section.attrs["data-example"]
        assert len(section.find_all("dh-dseats")) == 1, example_id
        assert len(steps[0].find_all("dh-dseats")) == 1, example_id
        assert all(s.find("dh-step__label") for s in steps), example_id  # every step's words stay
        slots = [s.find("dh-diagram--later") for s in steps[1:]]
        assert [int(slot.attrs["data-board"]) for slot in slots] == list(range(1, len(steps))), example_id
        name = section.attrs["data-later"]
        assert re.fullmatch(rf"{re.escape(example_id)}\.{lang}\.[0-9a-f]{{16}}\.json", name), name
        data = _boards_file(site, section)
        assert (data["id"], data["lang"], len(data["boards"])) == (example_id, lang, len(steps) - 1)


def test_what_may_be_taken_is_marked_as_the_engine_says(site: Any) -> None:
    from dhumbal.play.deal import Action

    # From a run on offer only its end cards may be picked (dashain).
    walk, deals = _positions("dashain-run-ends")
    section = _section(site, "en", "dashain-run-ends")
    checked = 0
    for step, deal in zip(_diagrams(site, section), deals):
        if deal.is_over or deal.phase != "take":
            continue
        for face in step.find("dh-dpile").find_all(lambda n: "data-card" in n.attrs):
            card = C.parse_card(face.attrs["data-card"])
            legal = deal.is_legal(Action.take_pile(card))
            assert ("dhc--take" in face.classes) == legal, face.attrs
            assert ("dhc--dim" in face.classes) == (not legal), face.attrs
            checked += 1
    assert checked


@pytest.mark.parametrize("lang", LANGS)
def test_headers_name_profile_and_options_in_words(site: Any, lang: str) -> None:
    from dhumbal.core.i18n import translator

    t = translator(lang)
    for example_id in EXAMPLE_IDS:
        walk = load_file(ROOT / "examples" / f"{example_id}.toml")
        head = _section(site, lang, example_id).find("dh-example-head")
        shown = head.text()
        assert not CANONICAL.search(shown), (example_id, shown)
        assert head.find("dh-example-rules").text() == rules_in_words(walk.profile, lang)
        assert shown.count(t(walk.profile.name)) >= 1
    # An example with options really says them: two players, in the page's language.
    k_pair = _section(site, lang, "k-pair-discard").find("dh-example-rules").text()
    assert k_pair == t(" · ").join([t("Nepali Games"), t.plural("{count} player", "{count} players", 2)])


def test_the_narration_and_refusals_come_from_the_engine_in_the_pages_language(site: Any) -> None:
    for lang in LANGS:
        walk, _ = _positions("dashain-runs")
        names = display_names(walk, lang)
        section = _section(site, lang, "dashain-runs")
        refusals = [r for r in walk.steps if r.refusal is not None]
        shown = [p.text() for p in section.find_all("dh-refusal")]
        assert len(shown) == len(refusals)
        for r, text in zip(refusals, shown):
            assert r.refusal is not None
            # the card tokens of the engine's text are drawn as badges, which keep their printed face
            assert " ".join(r.refusal.text(lang, names).split()) in text.replace("\ufe0e", ""), (lang, text)


def test_a_changed_example_file_changes_its_diagram(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dhumbal_site.content import walkthrough

    source = (walkthrough.EXAMPLES / "k-pair-discard.toml").read_text(encoding="utf-8")
    (tmp_path / "examples").mkdir()
    monkeypatch.setattr(walkthrough, "EXAMPLES", tmp_path / "examples")
    monkeypatch.setattr(walkthrough, "ROOT", tmp_path)

    def start_hands(text: str) -> list[list[str]]:
        (tmp_path / "examples" / "k-pair-discard.toml").write_text(text, encoding="utf-8")
        cache = walkthrough.ExampleCache()
        html = str(cache.rendered("k-pair-discard", "en", "3"))
        first = parse(html).find("dh-step")
        return [seat.find("dh-dhand").cards() for seat in first.find_all("dh-dseat")]

    before = start_hands(source)
    assert before[1] == ["AS", "4C", "7D", "7C", "7H"]
    # B holds the 4♦ instead of the 4♣ (worth the same: the expectations still hold).
    after = start_hands(source.replace("A♠ 4♣ 7♦ 7♣ 7♥", "A♠ 4♦ 7♦ 7♣ 7♥"))
    assert after[1] == ["AS", "4D", "7D", "7C", "7H"] and after[0] == before[0]


# -- the same deal under three rule sets ------------------------------------------------


def _turns_from_transcript(transcript: dict[str, Any]) -> list[tuple[int, list[Message], int]]:
    """Play a transcript's actions again, grouping the events by turn: (seat, events, total after).

    A turn begins with an action made at the start of a seat's turn.
    """
    from dhumbal.core.profiles import parse_profile
    from dhumbal.play.deal import parse_action

    deal = Deal.new(parse_profile(transcript["profile"]), transcript["seed"], dealer=transcript["dealer"],
                    players=transcript["players"])
    turns: list[tuple[int, list[Message], int]] = []
    for line in transcript["actions"]:
        seat_text, action = line.split(":", 1)
        seat = int(seat_text)
        starts = deal.phase == "start"
        events = deal.apply(parse_action(action), seat=seat)
        if starts or not turns:
            turns.append((seat, list(events), deal.total(seat)))
        else:
            turns[-1] = (seat, turns[-1][1] + list(events), deal.total(seat))
    return turns


@pytest.mark.parametrize("lang", LANGS)
def test_the_same_deal_cells_are_the_engines_transcripts(site: Any, lang: str) -> None:
    from dhumbal.core.i18n import translator
    from dhumbal.lab.samedeal import divergence_text, same_deal, seat_names

    t = translator(lang)
    result = same_deal()
    names = seat_names(result.players, lang)
    section = _tree(site, f"{_prefix(lang)}compare/").find("dh-samedeal")
    table = section.find("dh-samedeal__table")
    rows = table.find_all(lambda n: n.tag == "tr" and "data-turn" in n.attrs)
    for column, (profile, transcript) in enumerate(zip(result.profiles, result.transcripts())):
        turns = _turns_from_transcript(transcript)
        assert len(turns) == len(result.turns[column])
        for row, (seat, events, total) in zip(rows, turns):
            cell = row.find_all(lambda n: n.tag == "td")[column]
            assert cell.attrs["data-profile"] == profile.key
            shown = [e.text().replace("\ufe0e", "") for e in cell.find_all("dh-event")]
            assert shown == [" ".join(m.text(lang, names).split()) for m in events], (profile.key, row.attrs)
            assert cell.find("dh-cell-total").text() == " ".join(t("total {total}", total=total).split())
            assert names[seat] in row.find(lambda n: n.tag == "th").text()
    # where play parts, in the engine's words, with its turn marked in the table
    items = section.find("dh-samedeal__parts").find_all(lambda n: n.tag == "li")
    assert [int(li.attrs["data-turn"]) for li in items] == sorted(
        (d.turn for d in result.divergences), key=lambda turn: (turn == 0, turn))
    texts = {li.attrs["data-code"] + li.attrs["data-turn"]: li.text().replace("\ufe0e", "") for li in items}
    for d in result.divergences:
        assert " ".join(divergence_text(result, d, lang, names).split()) in texts[d.code + str(d.turn)]
        if d.turn:
            row = rows[d.turn - 1]
            assert "dh-parts" in row.classes
            marked = [td.attrs["data-profile"] for td in row.find_all("dh-departs")]
            assert {result.profiles[i].key for i in d.profiles} <= set(marked)


def test_the_same_deal_parts_on_a_pick_rule_the_engine_refuses() -> None:
    """The chosen seed shows Dashain and CardRulesPlus parting on what may be picked."""
    from dhumbal.lab.samedeal import same_deal

    result = same_deal()
    codes = {(d.code, tuple(result.profiles[i].key for i in d.profiles)) for d in result.divergences}
    assert ("turn-order", ("nepali-games", "dashain", "cardrulesplus")) in codes
    refused = [d for d in result.divergences if d.code == "refused"]
    assert refused and refused[0].params["refusal"].code in {"run-not-pickable", "set-not-pickable"}
    # and the hands dealt are the same under every profile
    starts = [Deal.new(p, result.seed, dealer=p.players - 1) for p in result.profiles]
    assert all(s.hands == starts[0].hands and s.pile == starts[0].pile for s in starts)


def test_generated_blocks_are_placed_and_searchable_as_words(site: Any) -> None:
    """Generated HTML skips Markdown behind a placeholder: none is left, and the
    search index holds the examples' words, not their card pictures."""
    import json

    for file in site.directory.rglob("*.html"):
        assert "dhumbal-block" not in file.read_text(encoding="utf-8"), file
    docs = json.loads((site.directory / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    text = " ".join(d["text"] for d in docs if d["location"].startswith("rules/nepali-games/"))
    assert "Both kings leave in one throw" in text  # a step's note: what the example teaches
    assert "A draws 5♥ from the stock" not in text  # a step's move: the page shows it, search leaves it
    assert "dhc" not in text and "data-card" not in text
    # Indexed once, on the rules page that shows the example: the Worked examples page, which
    # shows them all again, is found by its groups' headings, not by every example's text twice.
    examples = [d for d in docs if d["location"].startswith("examples/")]
    assert "Both kings leave in one throw" not in " ".join(d["text"] for d in examples)
    assert {d["location"] for d in examples} >= {"examples/#examples-nepali-games", "examples/#examples-dashain"}
    ne_docs = json.loads((site.directory / "ne" / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    assert any("तीन नियममा एउटै बाजी" in d["title"] or "तीन नियममा एउटै बाजी" in d["text"] for d in ne_docs)


def test_a_finished_block_skips_markdown_and_the_search_index_reads_its_words(tree: Any, handlers: Any) -> None:
    import json

    from dhumbal_site.content.markers import HTMLBlock

    def block(ctx: Any) -> str:
        return HTMLBlock(
            f'<div class="finished" data-lang="{ctx.lang}">*kept as written* K♠\n\n<p>second</p></div>',
            search=f"<p>searchable words {ctx.args[0]}</p>",
        )

    handlers("test-block", block)
    pages = {
        "en/index.md": "# Home\n\nBefore *this*.\n\n<!-- dhumbal:test-block top -->\n\n!!! note\n\n    <!-- dhumbal:test-block inside -->\n",
        "en/contribute.md": "# Contribute\n",
    }
    built = tree.build(pages, nav=[{"Home": "index.md"}, "contribute.md"])
    home = built.html("")
    # placed as written: Markdown left the asterisks and the blank line alone, the card pass the token
    assert home.count('<div class="finished" data-lang="en">*kept as written* K♠\n\n<p>second</p></div>') == 2
    assert "<em>this</em>" in home and "dhumbal-block" not in home and "searchable words" not in home
    # inside the admonition, where the marker was
    note = home.index('class="admonition note"')
    assert home.index('class="finished"', note) > note
    # the search index holds the blocks' search text instead of their HTML
    index = json.loads((built.directory / "search" / "search_index.json").read_text(encoding="utf-8"))
    text = " ".join(d["text"] for d in index["docs"])
    assert "searchable words top" in text and "searchable words inside" in text
    assert "kept as written" not in text
