"""The translation tools: the catalogs compiled and checked, each translated page
held to its English page (parity, freshness, terminology, front matter), a new
language's mechanical steps, and the translation status figures.

Each has a command line (``python -m dhumbal_site.translation.NAME``) that
``make catalogs``, ``make check-catalogs``, ``make translated`` and
``make new-language`` run; the build uses the same functions.
"""
