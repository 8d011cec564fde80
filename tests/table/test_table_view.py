"""The table renderer (dhumbal.view): one HTML for the build and the browser.

What is pinned: the pre-rendered board is the live board with its controls
inert; every reader-visible string goes through the catalogs (checked with a
pseudo-language that marks every translated string); numbers use the page
language's digits; cards and controls have names in the page language; the
HTML is well formed and escapes what it is given.
"""

from __future__ import annotations

import gettext
import json
import re
from collections.abc import Iterator
from html import escape, unescape
from pathlib import Path
from typing import Any

import pytest

from dhumbal.core import i18n
from dhumbal.core.cards import card_text, parse_card
from dhumbal.core.i18n import card_name, translator
from dhumbal.core.profiles import PROFILE_KEYS, find_profile
from dhumbal.play.deal import Action, IllegalAction, parse_action
from dhumbal.table import protocol, session, web
from dhumbal.view.felt import PICK_CARD
from dhumbal.view.loader import FRUGAL_NOTE, LOADING_NOTE, NOSCRIPT_NOTE, PLAY, RETRY, STATIC_NOTE
from dhumbal.view.settings import START_NEW, render_settings
from dhumbal.view.table import TITLE, render_board
from dhumbal.worked.examples import load_file
from tests.table.tablekit import LANGS, SCORE_COLUMNS, parse_html, simple_move

ROOT = Path(__file__).resolve().parents[2]


def ask(**request: Any) -> dict[str, Any]:
    request.setdefault("table", "view-table")
    out = json.loads(web.handle(json.dumps(request)))
    assert isinstance(out, dict)
    return out


def static_table(lang: str, profile: str = "nepali-games", seed: int = 42, **kw: Any) -> str:
    return web.prerender(lang=lang, profile=find_profile(profile), seed=seed, table_id="view-table",
                         attrs={"data-seed": str(seed)}, **kw)


def board_of(table_html: str) -> str:
    """The board of a pre-rendered table, with its dock's slot emptied (the page's own
    loader and live status line sit there; the worker's boards leave it empty)."""
    m = re.search(r'<div class="dht-board" id="view-table-board" tabindex="-1">(.*?)</div><details class="dht-settings"', table_html, re.S)
    assert m, "no board in the table"
    board, n = re.subn(r'(<div class="dht-dock__head" data-dht-slot>).*?(</div><div class="dht-actions">)', r"\1\2",
                       m.group(1), flags=re.S)
    assert n == 1, "no dock in the board"
    return board


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("profile", PROFILE_KEYS)
def test_the_prerendered_board_is_the_live_board_with_inert_controls(lang: str, profile: str) -> None:
    html = static_table(lang, profile)
    live = ask(op="new", profile=profile, seed=42, lang=lang)
    static_board = board_of(html)
    assert ' disabled' in static_board
    assert static_board.replace(" disabled", "") == live["html"].replace(" disabled", "")
    assert " disabled" not in live["html"]


@pytest.mark.parametrize("lang", LANGS)
def test_what_nobody_sees_before_intent_waits_inert_in_templates(lang: str) -> None:
    """The guide, the settings form and the question before a fresh game are in
    <template data-dht-later> (a page before Play neither styles nor lays them out,
    issue 49); what shows or speaks before Play stays live."""
    html = static_table(lang)
    later = re.findall(r"<template data-dht-later>(.*?)</template>", html, re.S)
    assert len(later) == 3
    outside = re.sub(r"<template data-dht-later>.*?</template>", "", html, flags=re.S)
    for part in ("data-dht-guide", 'id="view-table-settings"', "data-dht-speed", "data-dht-4c", "<dialog"):
        assert part not in outside and sum(part in t for t in later) == 1, part
    assert "<select" not in outside and "<option" not in outside
    for part in ("data-dht-play", "data-dht-continue", 'role="status"', 'data-error-code="blocked"', "dht-log",
                 '<details class="dht-settings"><summary>'):
        assert part in outside and not any(part in t for t in later), part
    assert all(not parse_html(t).errors and not parse_html(t).stack for t in later)


@pytest.mark.parametrize("lang", LANGS)
def test_the_static_table_says_how_to_start_and_works_without_script(lang: str) -> None:
    t = translator(lang)
    html = static_table(lang)
    tags = parse_html(html)
    assert not tags.errors and not tags.stack, tags.errors
    root = tags.elements[0]
    assert root[0] == "section" and root[1]["data-state"] == "static" and root[1]["data-lang"] == lang
    assert "data-dhumbal-table" in root[1] and root[1]["data-profile"] == "nepali-games"
    assert root[1]["data-digits"] == i18n.digits("0123456789", lang)
    for msgid in (TITLE, PLAY, LOADING_NOTE, NOSCRIPT_NOTE, RETRY, FRUGAL_NOTE):
        assert escape(t(msgid)) in html, msgid
    # the note says what Play downloads, in the page's digits
    assert escape(t(STATIC_NOTE, megabytes="…")) in html
    sized = web.prerender(lang=lang, profile=find_profile("dashain"), seed=1, download_bytes=13_400_000)
    assert escape(t(STATIC_NOTE, megabytes=14)) in sized
    for code in ("blocked", "unsupported", "failed", "not-ready", "bad-message", "missing", "engine", "generic"):
        assert f'data-error-code="{code}"' in html
    # every control of the board is inert until the engine runs; Play is not
    for tag, attrs in tags.elements:
        if tag == "button" and ("data-action" in attrs or "data-op" in attrs or "data-card" in attrs):
            assert "disabled" in attrs, attrs
    play = [(tag, a) for tag, a in tags.elements if "data-dht-play" in a]
    # a link acting as a button: pressed before the scripts run, it leaves the table's "play" address
    assert len(play) == 1 and play[0][0] == "a" and "disabled" not in play[0][1]
    assert play[0][1]["href"] == "#" + play[0][1]["id"] and play[0][1]["role"] == "button"
    assert re.search(r'<fieldset class="dht-settings__fields" disabled>', html)
    # the live region is there (and empty) from the start
    assert 'role="status" aria-live="polite"' in html


@pytest.fixture
def pseudo() -> Iterator[str]:
    """A language ``qq`` whose catalog marks every string: ⟦translated⟧."""

    class Marked(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "⟦" + message + "⟧"

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return "⟦" + (singular if n == 1 else plural) + "⟧"

    real = i18n.translations

    def fake(lang: str) -> gettext.NullTranslations:
        return Marked() if lang == "qq" else real(lang)

    i18n.translator.cache_clear()
    i18n.translations = fake  # type: ignore[assignment]
    try:
        yield "qq"
    finally:
        i18n.translations = real
        i18n.translator.cache_clear()


_CARD_FACE = re.compile(r"^(?:(?:10|[A2-9JQK])[♠♥♦♣]|🃏)$")
_NUMBER = re.compile(r"^[+−]?[0-9./]+$")


_PRINTED = re.compile(r"^(?:10|[A2-9JQK]|[♠♥♦♣]\ufe0e|★|JOKER)$")


def _untranslated(html: str) -> list[str]:
    tags = parse_html(html)
    bad = [t for t in tags.text if not ("⟦" in t or _CARD_FACE.match(t) or _NUMBER.match(t) or t in ("·",))]
    bad += [f"printed {t!r}" for t in tags.printed if not _PRINTED.match(t)]
    for _, attrs in tags.elements:
        for key in ("aria-label", "data-label-none", "data-label-value"):
            if key in attrs and "⟦" not in str(attrs[key]):
                bad.append(f"{key}={attrs[key]}")
    return bad


@pytest.mark.parametrize("profile", PROFILE_KEYS)
def test_every_visible_string_comes_from_the_catalogs(pseudo: str, profile: str) -> None:
    html = static_table(pseudo, profile)
    assert not _untranslated(html), _untranslated(html)
    # and through a whole match, results and standings included
    s = session.Session(protocol.Settings(find_profile(profile).with_options(players=2, rounds=1), "medium", 5), lang=pseudo)
    s.start()
    for _ in range(500):
        d = s.deal
        assert d is not None
        if d.is_over:
            break
        s.act(parse_action(simple_move(d, s.my_deal_seat() or 0)))
    assert s.match_over()
    model = s.model(live=True, table_id="view-table")
    board = render_board(model)
    assert "dht-result" in board and "dht-standings" in board
    assert not _untranslated(board), _untranslated(board)
    assert not _untranslated(render_settings(model))
    assert "⟦" in s.status()


def _visible_digits(html: str) -> list[str]:
    tags = parse_html(html)
    found = []
    for t in tags.text:
        for m in re.finditer(r"[0-9]+", t):
            after = t[m.end():m.end() + 1]
            if after not in ("♠", "♥", "♦", "♣"):  # card indices stay as printed on the cards
                found.append(t)
    return found


def test_nepali_numbers_are_written_in_devanagari() -> None:
    html = static_table("ne", "dashain")
    assert not _visible_digits(html), _visible_digits(html)
    r = ask(op="new", profile="nepali-games", seed=5, lang="ne", options={"players": 2})
    for _ in range(400):
        d = web.table("view-table").playing().deal
        assert d is not None
        if d.is_over:
            break
        r = ask(op="act", action=simple_move(d, 0), lang="ne")
    assert "dht-result" in r["html"]
    assert not _visible_digits(r["html"]), _visible_digits(r["html"])
    assert not _visible_digits(r["status"])
    settings = ask(op="settings", profile="nepali-games", lang="ne")["settings_html"]
    assert not _visible_digits(settings), _visible_digits(settings)


@pytest.mark.parametrize("lang", LANGS)
def test_cards_are_buttons_named_in_the_page_language_with_their_points(lang: str) -> None:
    r = ask(op="new", profile="cardrulesplus", seed=8, lang=lang)
    t = translator(lang)
    deal = web.table("view-table").playing().deal
    assert deal is not None
    buttons = re.findall(r'<button type="button" class="dhc [^"]*\bdht-card\b[^"]*" data-card="([^"]+)" data-value="(\d+)" '
                         r'aria-pressed="false"[^>]*><span class="dh-visually-hidden">([^<]+)</span>', r["html"])
    assert len(buttons) == len(deal.hands[0])
    for code, value, label in buttons:
        card = parse_card(code)
        assert int(value) == deal.profile.value(card)
        assert unescape(label) == t.plural("{card}, {count} point", "{card}, {count} points",
                                                  int(value), card=card_name(card, lang))


def _verdicts(html: str) -> tuple[list[str], str, list[str]]:
    """The Throw control's (card order, verdict digits, reasons)."""
    button = re.search(r'<button [^>]*data-action="throw"[^>]*>', html)
    assert button, "no Throw control"
    attrs = parse_html(button.group(0) + "</button>").elements[0][1]
    return str(attrs["data-cards"]).split(), str(attrs["data-verdicts"]), json.loads(str(attrs["data-reasons"]))


def test_controls_say_what_they_do_and_which_are_not_allowed_now() -> None:
    r = ask(op="new", profile="nepali-games", seed=12, lang="en")
    html = r["html"]
    deal = web.table("view-table").playing().deal
    assert deal is not None
    total = deal.total(0)
    assert total > 5
    # over the limit: no Call control, its place kept (invisible, not a control), and
    # the line above the hand says what the hand holds and the limit the call waits for
    assert 'data-action="call"' not in html
    assert re.search(rf'<span class="dht-btn dht-place dht-call" aria-hidden="true">Call on {total}</span>', html)
    assert f'<span class="dht-hand__total" data-total="{total}">Holding {total}</span>' in html
    assert '<span class="dht-hand__limit">call at 5</span>' in html
    assert escape(IllegalAction("over-call-limit", total=total, limit=5).text("en")) not in html
    # a hand the engine lets call: the control reads "Call on N", in the same place
    from tests.table.test_table_hint import callable_position

    allowed = ask(op="position", state=callable_position(), lang="en")["html"]
    call = re.search(r'<button [^>]*data-action="call"[^>]*>([^<]*)</button>', allowed)
    assert call and call.group(1) == "Call on 3" and "aria-disabled" not in call.group(0)
    assert allowed.index('data-action="call"') < allowed.index('data-op="hint"') < allowed.index('data-action="throw"')
    ask(op="new", profile="nepali-games", seed=12, lang="en")
    # the stock is a face-down stack that takes a card when pressed
    assert re.search(r'<button [^>]*data-action="take stock"[^>]*><span class="dh-visually-hidden">Take from the stock, \d+ cards left</span>', html)
    # in the draw-first profile the throw waits for the take: every set of cards says so
    assert re.search(r'<button [^>]*data-action="throw" aria-disabled="true"', html)
    assert 'data-label-value="Throw, worth {value}"' in html
    order, verdicts, reasons = _verdicts(html)
    assert len(verdicts) == 2 ** len(order) - 1 and set(verdicts) == {"1"}
    assert reasons == ["", IllegalAction("must-take-first").text("en")]
    r = ask(op="act", action="take stock")
    assert 'data-action="take stock"' not in r["html"]
    # after the take: the engine's verdict on each set of cards, for the marks to show
    order, verdicts, reasons = _verdicts(r["html"])
    deal = web.table("view-table").playing().deal
    assert deal is not None
    for mask in range(1, 2 ** len(order)):
        chosen = [parse_card(order[i]) for i in range(len(order)) if mask >> i & 1]
        refusal = deal.refusal(Action.throw(*chosen), seat=0)
        k = int(verdicts[mask - 1], 36)
        assert (k == 0) == (refusal is None), chosen
        if refusal is not None:
            assert reasons[k] == refusal.text("en", web.table("view-table").playing().deal_names())


def test_verdicts_follow_the_engine_for_runs_and_say_which_cards() -> None:
    ask(op="new", profile="dashain", seed=14, lang="fr", options={"players": 2})
    s = web.table("view-table").playing()
    deal = s.deal
    assert deal is not None
    r = ask(op="state", lang="fr")
    order, verdicts, reasons = _verdicts(r["html"])
    names = s.deal_names()
    for mask in range(1, 2 ** len(order)):
        chosen = [parse_card(order[i]) for i in range(len(order)) if mask >> i & 1]
        refusal = deal.refusal(Action.throw(*chosen), seat=0)
        text = reasons[int(verdicts[mask - 1], 36)]
        if refusal is None:
            assert text == ""
        elif refusal.code == "not-a-run":  # the script fills in the marked cards
            assert text.replace("{cards}", " ".join(card_text(c) for c in chosen)) == refusal.text("fr", names)
        else:
            assert text == refusal.text("fr", names)


def test_the_last_throw_shows_whole_with_takable_cards_marked() -> None:
    # a pair thrown in nepali-games: both cards show, only the top one may be taken
    for seed in range(1, 80):
        ask(op="new", profile="nepali-games", seed=seed, lang="en", options={"players": 2})
        s = web.table("view-table").playing()
        for _ in range(12):
            d = s.deal
            assert d is not None
            if d.is_over:
                break
            if d.offer > 1 and d.phase == "start" and d.turn == 0:
                r = ask(op="state")
                throw = re.search(r'<div class="dht-lastthrow"[^>]*>(.*?)</div></div>', r["html"], re.S)
                assert throw
                shown = re.findall(r'data-card="([^"]+)"', throw.group(1))
                assert [parse_card(c) for c in shown] == d.offer_cards
                top = card_text(d.offer_cards[-1], ascii=True)
                assert re.search(rf'<button [^>]*dhc--take[^>]*data-action="take pile" data-card="{top}"', throw.group(1))
                assert throw.group(1).count("dhc--dim") == d.offer - 1
                return
            r = ask(op="act", action=simple_move(d, 0))
    pytest.fail("no group was thrown before the reader's turn")


def test_the_new_card_and_the_barred_card_are_marked_and_say_why() -> None:
    for seed in range(1, 200):
        ask(op="new", profile="nepali-games", seed=seed, lang="en", options={"players": 2})
        s = web.table("view-table").playing()
        d = s.deal
        assert d is not None
        if not d.is_legal(Action.take_pile(), seat=0):
            continue
        top = d.pile_top
        assert top is not None
        r = ask(op="act", action="take pile")
        code = card_text(top, ascii=True)
        button = re.search(rf'<button [^>]*data-card="{code}"[^>]*>(.*?)</button>', r["html"], re.S)
        assert button and "dhc--new" in button.group(0) and "dhc--barred" in button.group(0)
        assert "taken from the pile: it cannot be thrown back this turn" in button.group(1)
        assert 'class="dht-note dht-note--barred"' in r["html"]
        # the engine's verdict for that card: it may not be thrown back
        order, verdicts, reasons = _verdicts(r["html"])
        k = int(verdicts[(1 << order.index(code)) - 1], 36)
        assert reasons[k] == IllegalAction("pile-card-returned", card=card_text(top)).text("en")
        # after the throw the marks are gone
        other = next(c for c in d.hands[0] if c != top)
        r = ask(op="act", action=f"throw {card_text(other)}")
        assert "dhc--barred" not in r["html"]
        return
    pytest.fail("no seed where the pile could be taken")


def test_opponents_show_one_back_per_card_and_the_stock_its_count() -> None:
    r = ask(op="new", profile="dashain", seed=3, lang="en", options={"players": 5})
    s = web.table("view-table").playing()
    d = s.deal
    assert d is not None
    for seat in range(1, d.players):
        item = re.search(rf'<li class="dht-seat[^"]*" data-seat="{seat}"[^>]*>(.*?)</li>', r["html"], re.S)
        assert item, seat
        assert item.group(1).count("dhc--back") == len(d.hands[seat])
        assert f'aria-label="{len(d.hands[seat])} cards"' in item.group(1)
    stack = re.search(r'<span class="dht-stack" role="img" data-count="(\d+)" aria-label="Stock: (\d+) cards">', r["html"])
    assert stack and int(stack.group(1)) == len(d.stock) == int(stack.group(2))


def test_a_face_down_preview_shows_no_card_of_the_deal() -> None:
    html = web.prerender(lang="en", profile=find_profile("nepali-games"), seed=5, face_down=True)
    board = board_of(html.replace('id="dh-table-board"', 'id="view-table-board"'))
    assert 'data-card="' not in board and "data-action" not in board
    assert board.count("dhc--back") >= 5 * 4 + 3
    assert "dht-hand__total" not in board
    assert "<li>" not in board  # nor a word of it in the log


def test_throw_first_offers_each_pickable_card_as_a_button() -> None:
    ask(op="new", profile="dashain", seed=3, lang="fr")
    s = web.table("view-table").playing()
    d = s.deal
    assert d is not None
    r = ask(op="act", action=simple_move(d, 0), lang="fr")
    assert s.deal is not None and s.deal.phase == "take"
    offer = s.deal.offer_cards
    picks = re.findall(r'data-action="take pile ([^"]+)"', r["html"])
    assert [parse_card(p) for p in picks] == offer
    for c in offer:
        assert escape(translator("fr")(PICK_CARD, card=card_name(c, "fr"))) in r["html"]


def test_public_picks_are_shown_beside_the_seat() -> None:
    for seed in range(1, 60):
        r = ask(op="new", profile="dashain", seed=seed, lang="en", difficulty="hard")
        s = web.table("view-table").playing()
        for _ in range(6):
            d = s.deal
            assert d is not None
            if d.is_over:
                break
            r = ask(op="act", action=simple_move(d, 0))
            d = s.deal
            if d is not None and not d.is_over and any(d.known[i] for i in range(1, d.players)):
                seat = next(i for i in range(1, d.players) if d.known[i])
                item = re.search(rf'<li class="dht-seat[^"]*" data-seat="{seat}".*?</li>', r["html"], re.S)
                assert item and "Picked up:" in item.group(0)
                for c in d.known[seat]:
                    assert f'aria-label="{card_name(c, "en")}"' in item.group(0)
                return
    pytest.fail("no bot picked a card in sight")


def test_names_and_texts_are_escaped() -> None:
    walk = load_file(ROOT / "examples" / "k-pair-discard.toml")
    r = ask(op="position", state=walk.start_state, names=['<b id="x">A</b>', 'B & "co"'], lang="en")
    assert r["ok"], r
    assert "<b id=" not in r["html"] and "&lt;b id=&quot;x&quot;&gt;A&lt;/b&gt;" in r["html"]
    assert "B &amp; &quot;co&quot;" in r["html"]
    tags = parse_html(r["html"])
    assert not tags.errors and not tags.stack


@pytest.mark.parametrize("profile", PROFILE_KEYS)
def test_settings_are_generated_from_the_option_specs(profile: str) -> None:
    p = find_profile(profile)
    for lang in LANGS:
        r = ask(op="settings", profile=profile, difficulty="hard", lang=lang)
        html = r["settings_html"]
        t = translator(lang)
        assert f'<option value="{profile}" selected>' in html
        for spec in p.option_specs:
            assert f'name="opt:{spec.key}"' in html
            assert escape(t(spec.label)) in html
            current = spec.text(p.option(spec.key))  # type: ignore[arg-type]
            shown = i18n.number(current, lang)  # a text field shows the page's digits and decimal separator
            assert re.search(rf'name="opt:{re.escape(spec.key)}"[^>]*(value="{re.escape(shown)}"|>.*?<option value="{re.escape(current)}" selected)', html, re.S), spec.key
        assert '<option value="hard" selected>' in html
        assert escape(t(START_NEW)) in html
        tags = parse_html(html)
        labelled = {a.get("for") for tag, a in tags.elements if tag == "label"}
        controls = {a.get("id") for tag, a in tags.elements if tag in ("select", "input")}
        assert controls <= labelled


@pytest.mark.parametrize("profile,rows", [
    ("nepali-games", ["hand", "took", "paid", "total"]),
    ("dashain", ["hand", "paid", "money", "total", "money-total"]),
    ("cardrulesplus", ["hand", "points", "total"]),
])
def test_each_profile_shows_its_own_score_rows(profile: str, rows: list[str]) -> None:
    ask(op="new", profile=profile, seed=4, lang="en", options={"players": 3})
    r: dict[str, Any] = {}
    for _ in range(500):
        d = web.table("view-table").playing().deal
        assert d is not None
        if d.is_over:
            break
        r = ask(op="act", action=simple_move(d, web.table("view-table").playing().my_deal_seat() or 0))
    found = SCORE_COLUMNS.findall(r["html"])
    assert found[:len(rows)] == rows
    assert set(found) - set(rows) <= {"eliminated"}
    # every seat's hand is revealed
    d = web.table("view-table").playing().deal
    assert d is not None
    for s in range(d.players):
        assert f'data-total="{d.total(s)}"' in r["html"]


def test_words_for_screen_readers_alone_use_the_site_s_one_hidden_class() -> None:
    """The table's hidden words take content.css's ``dh-visually-hidden`` (on every page before
    the table's own sheets): no table sheet keeps a copy of it under another name."""
    sheets = sorted((ROOT / "browser" / "styles").glob("table-*.css"))
    assert sheets and not [s.name for s in sheets if ".dht-sr" in s.read_text(encoding="utf-8")]
    assert ".dh-visually-hidden {" in (ROOT / "browser" / "styles" / "content.css").read_text(encoding="utf-8")
    html = ask(op="new", lang="en", profile="nepali-games", seed=7)["html"]
    assert 'class="dh-visually-hidden"' in html and "dht-sr" not in html


@pytest.mark.parametrize("lang", LANGS)
def test_the_number_of_players_has_one_name_in_every_profile_s_settings(lang: str) -> None:
    """Issue 51 D11: the settings said "Players" in one profile and "Seats" in another; one word
    everywhere, the word the felt names the seats by."""
    from dhumbal.view.felt import PLAYERS_LABEL

    assert {find_profile(key).spec("players").label for key in PROFILE_KEYS} == {PLAYERS_LABEL}
    word = translator(lang)(PLAYERS_LABEL)
    for key in PROFILE_KEYS:
        s = session.Session(protocol.Settings(find_profile(key), "medium", 1), lang=lang)
        s.start()
        html = render_settings(s.model(live=True, table_id="t"))
        assert f">{escape(word)}<" in html and ">Seats<" not in html, key
