"""The MkDocs side of the glue: each build event handed to the parts, with the
state of one build (all its language passes) kept per build, and what is
written once every language is built (search indexes, sitemaps, 404 pages).
"""
