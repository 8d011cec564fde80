"""The project's own tests: its guides, docstrings, sizes, layout and tooling."""
