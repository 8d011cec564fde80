"""What runs on a developer's machine and never in the browser: the puzzle
generator, mixed-level arenas, the strength figures, the benchmark and the
same-deal comparison the build draws. The browser's wheel leaves it out.
"""
