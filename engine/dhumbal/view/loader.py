"""The table's loader: the note before Play, the download's progress, and what went wrong in words.

The error texts are keyed by the runtime's error codes
(``browser/runtime/`` / ``browser/worker/``); the table script shows
the one that applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..core.i18n import N_, translator
from .markup import esc
from .model import TableModel

PLAY: Final = N_("Play")
# When this browser holds a game played here before: it comes back with this,
# and Play is called so (the table script shows the one and renames the other).
CONTINUE: Final = N_("Continue your game")
NEW_GAME: Final = N_("New game")
# Asked before a fresh game is started over the reader's game in progress
# (New game, the page's "Play these rules", a new match from the settings).
ASK_TITLE: Final = N_("Start a new game?")
ASK_TEXT: Final = N_("You have a game in progress on this device. A new game takes its place as soon as you play a move in it.")
ASK_NEW: Final = N_("Start a new game")
ASK_KEEP: Final = N_("Keep my game")
RETRY: Final = N_("Retry")
# TRANSLATORS: beside Retry when the table is in error: leaves the game of
# the page's link (which may be what fails) and deals a fresh game.
FRESH_GAME: Final = N_("New game")
STATIC_NOTE: Final = N_("Press Play to deal. The first time, Play downloads the game engine (up to {megabytes} MB) into your browser; after that every table on this site starts at once. Nothing you play is sent anywhere.")
# In place of the note above while "Continue your game" is offered (the engine is
# already in this browser then, and Play reads "New game").
STATIC_NOTE_RESUME: Final = N_("Your last game on this device is kept: Continue your game picks it up where you left it, New game deals a fresh one. Nothing you play is sent anywhere.")
STATIC_NOTE_POSITION: Final = N_("Press Play to play from this position. The first time, Play downloads the game engine (up to {megabytes} MB) into your browser. Nothing you play is sent anywhere.")
FRUGAL_NOTE: Final = N_("Your browser asks to save data, so the game engine loads only when you press Play.")
LOADING_NOTE: Final = N_("Loading the game engine… This takes a moment the first time.")
# TRANSLATORS: {percent} is a whole number from 0 to 100, in the
# language's digits. The msgid starts with a word: "{percent}% d…"
# reads as a printf "% d" to gettext's tools, which then refuse
# every translation of it.
PROGRESS: Final = N_("Downloaded: {percent}%")
STARTING: Final = N_("Starting the game engine…")
NOSCRIPT_NOTE: Final = N_("Playing at this table needs JavaScript. Everything else on this page reads fine without it.")
ERROR_TITLE: Final = N_("The game engine could not be started.")
# The same state once a game was on the table (the engine stopped or stopped answering).
ERROR_TITLE_LIVE: Final = N_("The game engine stopped during the game.")
# By the runtime's error codes (browser/runtime/client.ts, browser/worker/), plus the
# table's own: "missing" (no runtime on the page), "engine" (the engine refused to
# set up the table), "generic" (any other code).
ERRORS: Final[Mapping[str, str]] = {
    "blocked": N_("A file of the game engine could not be downloaded. Check the connection and try again."),
    "unsupported": N_("This browser cannot run the game engine (it needs WebAssembly and module workers). Try a current browser."),
    "failed": N_("The game engine stopped unexpectedly. Try again."),
    "timeout": N_("The game engine took too long to answer. Try again."),
    "not-ready": N_("The game engine was not ready yet. Try again."),
    "bad-message": N_("The game engine could not read a request from this page. Reload the page."),
    "missing": N_("The game engine's loader is missing from this page. Reload the page."),
    # The list of the engine's files (assets/engine/manifest.json) is missing or malformed.
    "manifest": N_("The list of the game engine's files could not be read. Reload the page, or try again later."),
    "engine": N_("The game engine could not set up this table. Try again, or start a new match."),
    "generic": N_("Something went wrong while starting the game engine. Try again."),
}


def render_loader(model: TableModel, download_bytes: int) -> str:
    """The loader of a pre-rendered table: what Play downloads, its progress, and every error text (hidden).

    ``download_bytes`` is what Play downloads the first time (the engine and
    Pyodide), said in the note.
    """
    t = translator(model.lang)
    tid = model.table_id
    errors = "".join(
        f'<p class="dht-error" data-error-code="{esc(code)}" hidden>{esc(t(msgid))}</p>'
        for code, msgid in ERRORS.items()
    )
    megabytes = max(1, -(-download_bytes // 1_000_000)) if download_bytes else 0
    note = STATIC_NOTE_POSITION if model.position else STATIC_NOTE
    static_note = t(note, megabytes=megabytes) if megabytes else t(note, megabytes="…")
    return (
        f'<div class="dht-loader">'
        f'<p class="dht-when dht-when--static">{esc(static_note)}</p>'
        f'<p class="dht-resume-note">{esc(t(STATIC_NOTE_RESUME))}</p>'
        f'<p class="dht-frugal" hidden>{esc(t(FRUGAL_NOTE))}</p>'
        f'<div class="dht-when dht-when--loading"><p>{esc(t(LOADING_NOTE))}</p>'
        f'<p class="dht-progress"><progress class="dht-progress__bar" max="100" aria-labelledby="{esc(tid)}-progress"></progress>'
        f' <span class="dht-progress__text" id="{esc(tid)}-progress" data-template="{esc(t.raw(PROGRESS))}"'
        f' data-starting="{esc(t(STARTING))}">{esc(t(LOADING_NOTE))}</span></p></div>'
        f'<div class="dht-when dht-when--error"><p class="dht-error-title" data-error-title="start">{esc(t(ERROR_TITLE))}</p>'
        f'<p class="dht-error-title" data-error-title="live" hidden>{esc(t(ERROR_TITLE_LIVE))}</p>{errors}</div>'
        f'<noscript><p class="dht-noscript">{esc(t(NOSCRIPT_NOTE))}</p></noscript>'
        f'<p class="dht-loader__buttons">'
        f'<button type="button" class="dht-btn dht-btn--primary dht-continue" data-dht-continue hidden>{esc(t(CONTINUE))}</button>'
        # Play is a link to the table's own "play" address: pressed before the page's
        # scripts have run, it leaves that address, and the table starts when they run
        # (browser/table/bootstrap.ts); once they run, a press starts it at once.
        f'<a href="#{esc(tid)}-play" id="{esc(tid)}-play" role="button" class="dht-btn dht-btn--primary dht-play"'
        f' data-dht-play data-label-play="{esc(t(PLAY))}" data-label-new="{esc(t(NEW_GAME))}">{esc(t(PLAY))}</a>'
        f'<button type="button" class="dht-btn dht-retry" data-dht-retry>{esc(t(RETRY))}</button>'
        f'<button type="button" class="dht-btn dht-retry dht-fresh" data-dht-fresh>{esc(t(FRESH_GAME))}</button>'
        f"</p></div>"
    )


def render_ask(model: TableModel) -> str:
    """The question asked before a fresh game is started over the reader's game in
    progress: a modal dialog (the table script opens it), "Keep my game" first and
    focused, so that Enter or Escape keeps the game."""
    t = translator(model.lang)
    tid = esc(model.table_id)
    return (
        f'<dialog class="dht-ask" id="{tid}-ask" aria-labelledby="{tid}-ask-title" aria-describedby="{tid}-ask-text">'
        f'<p class="dht-ask__title" id="{tid}-ask-title">{esc(t(ASK_TITLE))}</p>'
        f'<p id="{tid}-ask-text">{esc(t(ASK_TEXT))}</p>'
        f'<p class="dht-ask__buttons">'
        f'<button type="button" class="dht-btn dht-btn--primary" data-dht-ask="keep" autofocus>{esc(t(ASK_KEEP))}</button>'
        f'<button type="button" class="dht-btn" data-dht-ask="new">{esc(t(ASK_NEW))}</button>'
        f"</p></dialog>"
    )
