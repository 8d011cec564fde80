"""The table's side of the page-worker protocol: every request and answer typed, every field
read and bounded, one table's match against the bots and its link, each table's Hint and
review, and the dispatch from JSON in to HTML out.
"""
