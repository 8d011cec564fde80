"""Worked examples and puzzles from their TOML files: read, run step by step and
checked, with the text the catalogs translate.
"""
