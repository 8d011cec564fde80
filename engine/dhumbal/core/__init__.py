"""The pieces every layer stands on: cards, the catalogs and number formats,
messages and refusals, the profiles as data, seeded shuffles and bounded JSON.
Nothing here knows a deal.
"""
