"""The ``dhumbal`` plugin's settings, as ``mkdocs.yml`` writes them under ``plugins:``.

Only what belongs to the site is here; MkDocs' own settings keep their own
places. The two addresses a deployment supplies are MkDocs' ``site_url`` and
``repo_url``: ``mkdocs.yml`` reads them from ``DHUMBAL_SITE_URL`` and
``DHUMBAL_REPO_URL`` where the workflows and the tests set them, and the glue
itself reads no environment variable. The tests' own variables
(``DHUMBAL_TABLE_SITE``, ``DHUMBAL_SOAK_ACTIONS``…) configure the tests, not
the site, and stay theirs.

MkDocs checks each value's type when it loads the configuration, and an
unknown key under ``dhumbal:`` fails the strict build, naming it.
"""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c


class DhumbalConfig(base.Config):  # type: ignore[no-untyped-call]  # MkDocs' Config.__init_subclass__ is untyped
    """``plugins: - dhumbal: {…}``."""

    #: Where each page's "Edit this page" and "Report a problem" links point when
    #: ``repo_url`` is empty: the web address of the checkout's git remote ``origin``
    #: (true), or nowhere (false: no such links, said once).
    repo_url_from_git = c.Type(bool, default=True)
    #: The page (in every language's folder) that a page shown untranslated links
    #: to, for readers who would translate it.
    contribute_page = c.Type(str, default="contribute.md")
