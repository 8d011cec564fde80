"""``make serve`` for translators: MkDocs' live reload works under the site's policy
(served as a file of the site, under serve only, the policy unchanged), and the
catalogs are watched; and the repository the pages link to (edit, report) comes
from the configuration or the git remote, never from a guess."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from mkdocs.livereload import LiveReloadServer

from dhumbal_site.plugin import repository, serve
from dhumbal_site.runtime import csp

ROOT = Path(__file__).resolve().parents[2]
PAGE = b"<!doctype html><html><head></head><body><p>Page</p></body></html>"


def injected(epoch: int = 7) -> bytes:
    """A page as MkDocs' development server sends it: its reload script inline."""
    return LiveReloadServer._inject_js_into_html(None, PAGE, epoch)  # type: ignore[arg-type]


def test_mkdocs_still_injects_an_inline_script_which_the_policy_blocks() -> None:
    page = injected()
    assert re.search(rb"<script>\s*var livereload", page)
    assert "'unsafe-inline'" not in csp.POLICY and "'unsafe-inline'" not in csp.HEADER_POLICY


def test_the_reload_script_becomes_a_file_of_the_site() -> None:
    page = serve.external(injected(1234), "/dhumbal/" + serve.SCRIPT)
    assert page is not None
    assert b"<script>" not in page and b"livereload(" not in page  # nothing inline left
    tag = re.search(rb'<script src="([^"]+)" data-epoch="(\d+)" data-request="(\d+)"></script></body>', page)
    assert tag is not None and tag.group(1) == b"/dhumbal/assets/javascripts/dhumbal-livereload.js" and tag.group(2) == b"1234"
    assert serve.external(PAGE, "/x.js") is None  # a page without MkDocs' script is left alone
    text = serve.script_text()
    assert text is not None and "var livereload = function(epoch, requestId)" in text
    assert 'getAttribute("data-epoch")' in text and 'req.open("GET", "/livereload/"' in text


class FakeServer:
    mount_path = "/"

    def __init__(self) -> None:
        self.watched: list[str] = []

    def watch(self, path: str) -> None:
        self.watched.append(path)

    def _inject_js_into_html(self, content: bytes, epoch: int) -> bytes:
        return LiveReloadServer._inject_js_into_html(self, content, epoch)  # type: ignore[arg-type]


def test_under_serve_the_catalogs_are_watched_and_every_page_gets_the_file(tmp_path: Path) -> None:
    serving = serve.Serving(ROOT)
    serving.on_startup("serve")
    server = FakeServer()
    serving.on_serve(server, None)
    assert str(ROOT / "locales") in server.watched and str(ROOT / "examples") in server.watched
    page = server._inject_js_into_html(PAGE, 3)
    assert b'<script src="/assets/javascripts/dhumbal-livereload.js" data-epoch="3"' in page and b"<script>" not in page
    serving.on_post_build(SimpleNamespace(site_dir=str(tmp_path)))
    assert (tmp_path / serve.SCRIPT).read_text(encoding="utf-8") == serve.script_text()


def test_a_build_writes_no_reload_file(tmp_path: Path) -> None:
    serving = serve.Serving(ROOT)
    serving.on_startup("build")
    serving.on_post_build(SimpleNamespace(site_dir=str(tmp_path)))
    assert not (tmp_path / serve.SCRIPT).exists()


@pytest.mark.parametrize(("remote", "web"), [
    ("git@github.com:owner/dhumbal.git", "https://github.com/owner/dhumbal"),
    ("https://github.com/owner/dhumbal.git", "https://github.com/owner/dhumbal"),
    ("https://token@github.com/owner/dhumbal", "https://github.com/owner/dhumbal"),
    ("ssh://git@codeberg.org:22/owner/dhumbal.git", "https://codeberg.org/owner/dhumbal"),
    ("git@gitlab.com:group/sub/dhumbal.git", "https://gitlab.com/group/sub/dhumbal"),
    ("/srv/git/dhumbal.git", None),
    ("../dhumbal", None),
    ("file:///srv/git/dhumbal.git", None),
    ("", None),
])
def test_the_repository_comes_from_the_git_remote_or_nowhere(remote: str, web: str | None) -> None:
    assert repository.web_address(remote) == web


def test_a_report_names_the_page_its_address_and_language() -> None:
    url = repository.report_url("https://git.example/o/d", src_uri="ne/rules/dashain.md", lang="ne",
                                page_url="https://site.example/ne/rules/dashain/", translation=True)
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://git.example/o/d/issues/new"
    query = parse_qs(parts.query)
    assert query["title"] == ["Translation problem on ne/rules/dashain.md"] and query["labels"] == ["translation"]
    assert "Page: docs/ne/rules/dashain.md\nAddress: https://site.example/ne/rules/dashain/\nLanguage: ne" in query["body"][0]
    assert repository.issues_url("https://gitlab.com/g/d") == "https://gitlab.com/g/d/-/issues/new"


NODE_RUN = """
const calls = [];
globalThis.document = {
  currentScript: {getAttribute: (name) => ({"data-epoch": "1234", "data-request": "56"})[name]},
  visibilityState: "visible",
};
globalThis.window = {addEventListener: (type, f) => { if (type === "load") f(); }};
globalThis.location = {reload: () => calls.push("reload")};
globalThis.console = {log: () => {}};
globalThis.setTimeout = () => 0;
globalThis.XMLHttpRequest = function () {
  this.open = (method, url) => calls.push(method + " " + url);
  this.send = () => { this.responseText = "1235"; this.status = 200; this.onloadend(); };
};
eval(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(calls));
"""


@pytest.mark.heavy
def test_the_reload_file_polls_the_server_with_its_tags_numbers_and_reloads_on_a_newer_build() -> None:
    """Run in Node with a stand-in page: the script asks MkDocs' server for a build newer
    than the tag's, and reloads the page when there is one (a missing ";" once made
    MkDocs' function take the start-up call as its argument)."""
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    done = subprocess.run([node, "-e", NODE_RUN], input=serve.script_text(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["GET /livereload/1234/56", "reload"]


def test_with_no_repository_address_the_strict_build_passes_with_no_edit_links(tree: Any,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout with no remote: mkdocs.yml's relative edit_uri alone warned on every
    page, and the strict build stopped."""
    monkeypatch.setattr(repository, "from_git", lambda repo_root: None)
    built = tree.build({"en/index.md": "# Home\n\nText.\n", "en/contribute.md": "# Help\n"}, repo_url=None)
    assert tree.errors() == ""
    page = (built.directory / "index.html").read_text(encoding="utf-8")
    assert "edit/main/docs" not in page and 'rel="edit"' not in page


def test_with_repo_url_from_git_off_the_checkouts_remote_is_not_asked(tree: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plugin's setting, not an environment variable, keeps a build off the git remote."""
    asked: list[Path] = []
    monkeypatch.setattr(repository, "from_git", lambda repo_root: asked.append(repo_root) or "https://git.example/o/n")
    built = tree.build({"en/index.md": "# Home\n", "en/contribute.md": "# Help\n"}, repo_url=None,
                       plugin={"repo_url_from_git": False})
    assert asked == [] and 'rel="edit"' not in (built.directory / "index.html").read_text(encoding="utf-8")
    built = tree.build({"en/index.md": "# Home\n", "en/contribute.md": "# Help\n"}, repo_url=None)
    assert asked and "https://git.example/o/n/edit/main/docs/en/index.md" in (
        built.directory / "index.html").read_text(encoding="utf-8")


def test_a_build_error_is_named_again_on_every_rebuild_while_it_stands(tree: Any) -> None:
    """``mkdocs serve`` drops a log message it has printed once in the process (MkDocs'
    DuplicateFilter, which its command line installs): a second failing rebuild printed only
    "Aborted with a BuildError!". Each build now names its error, once."""
    from mkdocs.exceptions import Abort
    from mkdocs.utils import DuplicateFilter

    build_log = logging.getLogger("mkdocs.commands.build")
    dedupe = DuplicateFilter()
    build_log.addFilter(dedupe)
    try:
        for _ in range(2):
            with pytest.raises(Abort):
                tree.build({"en/index.md": "---\ntitle: Home: the start\n---\n\n# Home\n", "en/contribute.md": "# Help\n"})
    finally:
        build_log.removeFilter(dedupe)
    named = [r for r in tree.records if r.levelno >= logging.ERROR and "docs/en/index.md:2:" in r.getMessage()]
    assert len(named) == 2, [r.getMessage() for r in tree.records]
