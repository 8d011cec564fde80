"""``make serve`` for translators: live reload under the site's policy, and catalogs watched.

MkDocs' development server reloads a page by injecting an inline
``<script>`` into every HTML page it serves; the site's
Content-Security-Policy (csp.py) allows no inline script, so the browser
blocks it and the page never reloads. Rather than loosen the policy, under
``mkdocs serve`` only:

* the server's injection is wrapped (:func:`on_serve`): the inline script
  becomes ``<script src=".../dhumbal-livereload.js" data-epoch data-request>``,
  a file of the site itself, which the policy allows like every other script;
* that file (:data:`SCRIPT`) is MkDocs' own reload function, taken from
  MkDocs at run time so that it cannot drift from the server it talks to,
  started with the two numbers read from its tag; it is written into the
  served site after each rebuild (:func:`on_post_build`) and never into a
  build (``mkdocs build`` injects nothing and writes no such file);
* ``locales/`` (the catalogs and the glossary), ``examples/``,
  ``puzzles/`` and ``browser/`` (the page code and styles, bundled by the
  build: frontend.py) are watched too, so saving a ``.po`` file rebuilds the
  site with it (the build compiles the catalogs first);
* each rebuild names the cause of its error again (:meth:`Serving.on_build`):
  MkDocs drops a log message it has printed once in the process, so a
  second failing rebuild said only "Aborted with a BuildError!".

Should a later MkDocs inject differently, the page keeps MkDocs' script (the
policy then blocks it) and the server says so once: nothing else changes.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs.utils import DuplicateFilter

log = logging.getLogger("mkdocs.plugins.dhumbal")

#: The reload script's place in the served site.
SCRIPT = "assets/javascripts/dhumbal-livereload.js"
#: What is watched besides docs/, mkdocs.yml and the theme (relative to the repository).
WATCHED = ("locales", "examples", "puzzles", "browser")
#: MkDocs' injected script: its function, then the call with the server's two numbers.
_INJECTED = re.compile(rb"<script>(?P<body>\s*var livereload = function\(epoch, requestId\).*?)"
                       rb"livereload\((?P<epoch>\d+), (?P<request>\d+)\);\s*</script>", re.S)


def script_text() -> str | None:
    """The reload script: MkDocs' own function, started from its tag's data attributes."""
    try:
        from mkdocs.livereload import _SCRIPT_TEMPLATE_STR
    except ImportError:
        return None
    head, found, _ = str(_SCRIPT_TEMPLATE_STR).partition("livereload(${epoch}, ${request_id});")
    if not found or "var livereload = function(epoch, requestId)" not in head:
        return None
    return (
        "/* Live reload for `mkdocs serve` only (sitegen/dhumbal_site/plugin/serve.py): MkDocs' own\n"
        " * script, served as a file so that the site's Content-Security-Policy allows it. */\n"
        + head.strip() + ";\n"  # MkDocs' function expression ends without one: the call below would be its argument
        "(function () {\n"
        "  var tag = document.currentScript;\n"
        "  livereload(+tag.getAttribute(\"data-epoch\"), +tag.getAttribute(\"data-request\"));\n"
        "})();\n"
    )


def external(page: bytes, src: str) -> bytes | None:
    """``page`` (as MkDocs' server serves it) with its inline reload script replaced by a tag
    loading ``src``; None when the page holds no script MkDocs' way."""
    match = _INJECTED.search(page)
    if match is None:
        return None
    tag = (f'<script src="{html.escape(src, quote=True)}" data-epoch="{int(match.group("epoch"))}" '
           f'data-request="{int(match.group("request"))}"></script>').encode()
    return page[: match.start()] + tag + page[match.end():]


class Serving:
    """The serve-only glue; :attr:`active` once ``mkdocs serve`` started."""

    def __init__(self, repo_root: Path) -> None:
        self.repo_root = repo_root
        self.active = False
        self.warned = False

    def on_startup(self, command: str) -> None:
        self.active = command == "serve"

    def on_build(self) -> None:
        """A build starts (not a nested language pass): MkDocs' filter of repeated
        messages forgets the last build's, so an error that still stands is named
        again. Within one build, a message still shows once."""
        for logger in (logging.getLogger("mkdocs.commands.build"), logging.getLogger("mkdocs")):
            for found in logger.filters:
                if isinstance(found, DuplicateFilter):
                    found.msgs.clear()

    def on_serve(self, server: Any, config: Any) -> Any:
        for name in WATCHED:
            path = self.repo_root / name
            if path.is_dir():
                server.watch(str(path))
        inject: Callable[[bytes, Any], bytes] | None = getattr(server, "_inject_js_into_html", None)
        if inject is None or script_text() is None:
            log.info("dhumbal: this MkDocs injects its live reload differently: the site's policy blocks it, reload by hand")
            return server
        mount = str(getattr(server, "mount_path", "/") or "/")
        src = mount.rstrip("/") + "/" + SCRIPT

        def wrapped(content: bytes, epoch: Any) -> bytes:
            page = inject(content, epoch)
            replaced = external(page, src)
            if replaced is None:
                if not self.warned:
                    self.warned = True
                    log.info("dhumbal: MkDocs' live reload script was not found in a page: reload by hand")
                return page
            return replaced

        server._inject_js_into_html = wrapped
        return server

    def on_post_build(self, config: Any) -> None:
        if not self.active:
            return
        text = script_text()
        if text is not None:
            out = Path(config.site_dir) / SCRIPT
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text, encoding="utf-8")
