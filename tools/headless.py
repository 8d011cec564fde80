"""The headless Chromium of the tests and the bench, without the browser's own
user interface.

Chromium's headless mode is the whole browser without a window: for every
new tab it also builds the address bar's drop-down, two WebUI pages
(``chrome://omnibox-popup.top-chrome/`` and its AI-mode twin) in a renderer
of their own. No page under test needs them, and they cost about as much CPU
as the pages themselves (DECISIONS.md, "The test browser", has the paired
figures). :data:`UI_FEATURES_OFF` turns them off.

Chromium keeps only the last ``--disable-features`` switch of its command
line, and Playwright passes one of its own (features that would make
automation flaky: paint holding, HTTPS upgrades, ...). So :func:`launch`
reads Playwright's list once per process, from a browser launched with
Playwright's defaults alone, and passes a single switch holding both lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: The browser UI that headless Chromium builds for each tab and no test needs.
UI_FEATURES_OFF = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")

_defaults: dict[str, tuple[str, ...]] = {}


def default_disabled(chromium: Any, executable: str) -> tuple[str, ...]:
    """The features Playwright's own launch of ``executable`` disables (read once per process)."""
    if executable not in _defaults:
        # --enable-automation lets the probe tell its own command line.
        probe = chromium.launch(executable_path=executable,
                                args=["--headless", "--no-sandbox", "--disable-gpu", "--enable-automation"])
        try:
            line = probe.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"]
        finally:
            probe.close()
        switches = [arg.partition("=")[2] for arg in line if arg.startswith("--disable-features=")]
        _defaults[executable] = tuple(name for name in (switches[-1] if switches else "").split(",") if name)
    return _defaults[executable]


def disable_features_switch(chromium: Any, executable: str) -> str:
    """The one ``--disable-features`` switch: Playwright's list and :data:`UI_FEATURES_OFF`."""
    names = dict.fromkeys([*default_disabled(chromium, executable), *UI_FEATURES_OFF])
    return "--disable-features=" + ",".join(names)


def launch(chromium: Any, executable: str, args: Sequence[str]) -> Any:
    """``chromium.launch`` of ``executable`` with ``args`` (which must not hold a
    ``--disable-features`` switch of their own) and without the browser's UI."""
    if any(arg.startswith("--disable-features=") for arg in args):
        raise ValueError("pass features to turn off in UI_FEATURES_OFF: Chromium keeps only one --disable-features")
    return chromium.launch(executable_path=executable,
                           args=[*args, disable_features_switch(chromium, executable)])
