"""Tools shared by the tests and the bench (a headless Chromium, Pyodide under Node)
and the translation checks' report; import them as ``tools.NAME``."""
