"""The mini table's tests: the renderer, the protocol, the pages in a browser."""
