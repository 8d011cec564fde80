"""The table's side of the page-worker protocol: every request read and bounded,
one table's match against the bots, and the dispatch from JSON in to HTML out.
"""
