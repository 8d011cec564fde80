"""The site's Content-Security-Policy: one definition for the page tag and the server header.

Every page carries the policy in a ``<meta http-equiv>`` tag (written by
``overrides/main.html`` from ``config.extra.dhumbal_csp``, set in
``SiteBuild.on_config``), which works on any static host. A host that can
send headers should send :data:`HEADER_POLICY` as well (CONTRIBUTING.md has the
recipe for common hosts): a header also covers the Web Workers (the engine's
and the search's), which a page's meta tag does not reach, and can forbid
framing, which a meta tag cannot.

What the site needs, and nothing more:

* scripts from the site itself only, never inline (Material's few inline
  scripts are served as ``assets/dhumbal/head.js``), plus
  ``'wasm-unsafe-eval'`` so Pyodide may compile its WebAssembly (the only
  thing it needs; it never evaluates JavaScript text);
* workers from the site (the engine's module worker and its imports, the
  search worker), fetches to the site (instant navigation, the search index,
  Pyodide's files and the engine wheel);
* style sheets and fonts from the site; images from the site and ``data:``
  URLs (Material's icons are data URLs inside its style sheet);
* no plugins, no other base URL, forms submitted to the site only.
"""

from __future__ import annotations

from typing import Final

DIRECTIVES: Final = (
    ("default-src", "'none'"),
    ("script-src", "'self' 'wasm-unsafe-eval'"),
    ("worker-src", "'self'"),
    ("connect-src", "'self'"),
    ("style-src", "'self'"),
    ("img-src", "'self' data:"),
    ("font-src", "'self'"),
    ("manifest-src", "'self'"),
    ("object-src", "'none'"),
    ("base-uri", "'self'"),
    ("form-action", "'self'"),
)

#: The policy of the pages' ``<meta http-equiv="Content-Security-Policy">``.
POLICY: Final = "; ".join(f"{name} {value}" for name, value in DIRECTIVES)

#: The same policy for a ``Content-Security-Policy`` response header, which
#: may also say who can frame the site (a meta tag cannot).
HEADER_POLICY: Final = POLICY + "; frame-ancestors 'self'"
