"""The project's repository, for each page's "Edit this page" and "Report a problem" links.

A reader who finds a mistake should not need git or Python to fix it: every
page links to its own source file in its own language on the repository's
web editor (MkDocs' ``repo_url`` and ``edit_uri``, which give each page its
``edit_url``; a page not yet translated is the copy in its language, so the
edit is the translation), and to a new issue on the tracker, with the page
and its language filled in.

Where the address comes from, first found: ``repo_url`` in ``mkdocs.yml``
(from ``DHUMBAL_REPO_URL``, which the workflows set to the repository they
run in), else the checkout's git remote ``origin`` (unless the plugin's
``repo_url_from_git`` is false). None is invented: a build that finds
neither has no such links and says so once.

Material would also draw the repository in the header and fetch its figures
from the host's API, a third-party request the site never makes;
``overrides/partials/source.html`` draws nothing there.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

#: ``git@host:owner/name.git`` and ``ssh://git@host[:port]/owner/name.git``.
_SCP = re.compile(r"^(?:[\w.-]+@)?(?P<host>[\w.-]+):(?P<path>(?!/)[\w./-]+?)(?:\.git)?/?$")
_SSH = re.compile(r"^ssh://(?:[\w.-]+@)?(?P<host>[\w.-]+)(?::\d+)?/(?P<path>[\w./-]+?)(?:\.git)?/?$")
_HTTP = re.compile(r"^(?P<scheme>https?)://(?:[^@/]+@)?(?P<host>[\w.-]+(?::\d+)?)/(?P<path>[\w./-]+?)(?:\.git)?/?$")


def web_address(remote: str) -> str | None:
    """The web address of a git remote (``git@github.com:o/n.git`` → ``https://github.com/o/n``);
    None for a remote that is not on a web host (a local path, a bundle)."""
    remote = remote.strip()
    for pattern in (_HTTP, _SSH, _SCP):
        match = pattern.match(remote)
        if match and "." in match.group("host"):
            scheme = match.groupdict().get("scheme") or "https"
            return f"{scheme}://{match.group('host')}/{match.group('path')}"
    return None


def from_git(repo_root: Path) -> str | None:
    """The web address of the checkout's ``origin`` remote, if it has one."""
    try:
        done = subprocess.run(["git", "remote", "get-url", "origin"], cwd=repo_root,
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return web_address(done.stdout) if done.returncode == 0 else None


def issues_url(repo_url: str) -> str:
    """Where a new issue is opened (GitLab keeps its issues under ``/-/``)."""
    base = repo_url.rstrip("/")
    return f"{base}/-/issues/new" if "gitlab" in urlsplit(base).netloc else f"{base}/issues/new"


def report_url(repo_url: str, *, src_uri: str, lang: str, page_url: str, translation: bool) -> str:
    """A new issue about one page, with the page, its address and its language filled in."""
    kind = "Translation problem" if translation else "Problem"
    body = (f"Page: docs/{src_uri}\nAddress: {page_url}\nLanguage: {lang}\n\n"
            "What reads wrong, and how should it read?\n")
    query = {"title": f"{kind} on {lang}/{src_uri.partition('/')[2] or src_uri}", "body": body}
    if translation:
        query["labels"] = "translation"
    return issues_url(repo_url) + "?" + urlencode(query, quote_via=quote)
