"""Build-time glue of the Dhumbal site, kept apart from the engine, in four parts.

* :mod:`dhumbal_site.translation`: the translation tools (catalogs, page
  parity and freshness, terminology, a new language, the status figures);
* :mod:`dhumbal_site.content`: the page content, each ``<!-- dhumbal:NAME -->``
  marker's handler (:mod:`dhumbal_site.content.registry`) and what draws it;
* :mod:`dhumbal_site.runtime.assets`: the files beside the pages, the engine and
  Pyodide for the browser, the device's offline copy;
* :mod:`dhumbal_site.plugin`: the MkDocs side, the ``dhumbal`` plugin
  (``plugins:`` in ``mkdocs.yml``) handing each build event on.

:mod:`dhumbal_site.languages` and :mod:`dhumbal_site.strings` are shared by all four.
"""

from pathlib import Path

#: The checkout the glue belongs to and reads the project's files from (``docs/``,
#: ``locales/``, ``examples/``, ``puzzles/``, ``engine/``, ``node_modules/``):
#: ``make setup`` installs the package editable, from ``sitegen/`` in it.
ROOT = Path(__file__).resolve().parents[2]
