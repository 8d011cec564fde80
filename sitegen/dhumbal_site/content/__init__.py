"""The page content the build computes: each ``<!-- dhumbal:NAME ARGS -->``
marker's handler (:mod:`dhumbal_site.content.registry`), the templates they
fill, card tokens drawn as cards, and each page's pre-rendered mini table.
"""
