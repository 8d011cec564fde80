"""The files written beside the pages: the engine wheel and Pyodide for the
browser's worker, the Content-Security-Policy, the self-hosted font, the icons,
and the device's offline copy (service worker, offline pages, manifests).
"""
