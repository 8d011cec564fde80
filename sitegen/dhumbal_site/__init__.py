"""Build-time glue of the Dhumbal site (MkDocs hooks), kept apart from the engine.

``sitegen/hooks.py`` is what ``mkdocs.yml`` lists; it delegates every event to
:class:`dhumbal_site.build.SiteHooks`. Marker handlers are registered in
:mod:`dhumbal_site.registry`.
"""
