"""How a test or a benchmark reaches the page's own modules in a browser page.

The page code is ES modules (browser/, built into assets/dhumbal/): a page
loads site.js, and the table's code, the engine's runtime and the page kinds'
modules on demand. A tool gets the same module instances the page uses by
importing them from the URL the page loaded site.js from (the browser keeps
one instance per URL), instead of reaching into window globals, which the
page does not have.

``on_page(code)`` makes an async function for ``page.evaluate``;
``page_condition(code)`` a plain one for ``page.wait_for_function`` (which
takes the promise an async function returns for true). In ``code``,
``runtime`` is the engine's runtime, ``site``, ``table`` and ``scorepad`` the
page's modules; only those named are imported (importing the table's module
loads the table's code).
"""

from __future__ import annotations

import re

#: The page's module NAME (assets/dhumbal/NAME.js, built from browser/entries/), as a
#: JavaScript expression: the promise of its import, from the URL the page itself loaded
#: site.js from, so a test gets the page's own module instance (its runtime, its tables).
_MODULE = ("import(new URL('{name}.js', document.querySelector("
           "'script[type=module][src*=\"/dhumbal/site.js\"]').src))")
#: What a test's code may name, and the module each comes from.
_BOUND = {
    "runtime": "(await " + _MODULE.format(name="runtime") + ").runtime",
    "site": "await " + _MODULE.format(name="site"),
    "table": "await " + _MODULE.format(name="table"),
    "scorepad": "await " + _MODULE.format(name="scorepad"),
}


def _named(code: str) -> list[str]:
    """The page's modules ``code`` names, but for a name it declares itself (``const site = ...``)."""
    return [name for name in _BOUND
            if re.search(rf"(?<![.\w$/'\"-]){name}(?![\w$/-])", code) and not re.search(rf"\b(?:const|let|var)\s+{name}\b", code)]


def page_condition(code: str) -> str:
    """A condition for ``page.wait_for_function`` on the page's modules, as ``on_page`` binds
    them: a plain function (Playwright takes the promise an async one returns for true),
    false until the modules ``code`` names are imported (into ``window.__testModules``, the
    tests' own), then ``code``'s value (an expression, or a ``{ ... }`` block)."""
    names = _named(code)
    loads = " ".join(
        f"if (!('{name}' in got) && !got['{name}:loading']) {{ got['{name}:loading'] = true; "
        f"{_MODULE.format(name=name)}.then((m) => {{ got['{name}'] = m; }}); }}"
        for name in names)
    binds = "".join(
        f"const {name} = got['{name}']" + (".runtime" if name == "runtime" else "") + "; " for name in names)
    body = code.strip()
    run = f"(() => {body})()" if body.startswith("{") else f"({body})"
    ready = " && ".join(f"'{name}' in got" for name in names) or "true"
    return (f"() => {{ const got = (window.__testModules = window.__testModules || {{}}); {loads} "
            f"if (!({ready})) return false; {binds}return {run}; }}")


def on_page(code: str, args: str = "") -> str:
    """An async function for ``page.evaluate`` (or ``wait_for_function``) running ``code`` (an
    expression, or a ``{ ... }`` block) with ``runtime`` (the engine's runtime), ``site``,
    ``table`` and ``scorepad`` (the page's modules) bound to what the page itself uses: only
    those ``code`` names are imported (importing the table's module loads the table's code)."""
    names = _named(code)
    binds = "".join(f"const {name} = {_BOUND[name]}; " for name in names)
    body = code.strip()
    if body.startswith("{"):
        return f"async ({args}) => {{ {binds}{body[1:-1].strip()} }}"
    return f"async ({args}) => {{ {binds}return ({body}); }}"
