"""The engine's tests: rules, bots, examples and puzzles, the command line."""
