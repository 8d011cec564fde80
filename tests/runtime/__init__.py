"""The browser runtime's tests: the engine in Pyodide, as CPython plays it."""
