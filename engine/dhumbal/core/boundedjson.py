"""JSON text from outside (links, the page's requests), parsed within bounds.

Python's ``json`` parser recurses once per nested array or object: a text
nested a few thousand deep raises ``RecursionError`` in CPython and, under
Pyodide, can exhaust the WebAssembly stack and kill the interpreter. Every
JSON text that comes from a link or a request is therefore measured first,
without recursion and in C-speed passes (strings removed by one regular
expression, then a running sum over the brackets left), and refused with a
``ValueError`` when it is longer or deeper than the caller allows.

Numbers are bounded too: ``NaN`` and ``Infinity`` (which Python's parser
accepts though JSON has no such thing), a decimal that overflows to an
infinity (``1e999``) and a whole number of more than :data:`MAX_INT_DIGITS`
digits are refused with a ``ValueError``, so no value read from outside can
reach an ``int()`` that overflows or a comparison that is never true.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any, Final

#: Deepest nesting any text the engine reads needs is 4 (a request holding a
#: position: object, state, hands, hand); this leaves room and nothing more.
MAX_DEPTH: Final = 32
#: The most digits a whole number may have (a seed or a count needs at most 19).
MAX_INT_DIGITS: Final = 19

# A JSON string, escapes included. Possessive loops and "or the end of the
# text" make every match attempt succeed in one forward pass, so the scan is
# linear even on hostile text (an unterminated string runs to the end).
_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}


class JSONLimitError(ValueError):
    """A JSON text longer or more deeply nested than allowed."""


def nesting(text: str) -> int:
    """How deeply arrays and objects nest in ``text`` (0 for a scalar); no recursion.

    Brackets inside strings do not count. Unbalanced text still gets a
    number (its deepest running count); the parser refuses it afterwards.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def loads(text: str | bytes, *, max_chars: int, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(text)`` for text at most ``max_chars`` long and ``max_depth`` deep.

    Raises ``JSONLimitError`` (a ``ValueError``) before parsing when the text
    is too long or too deep, and ``ValueError`` when it is not JSON.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if not isinstance(text, str):
        raise TypeError("JSON text must be str or bytes")
    if len(text) > max_chars:
        raise JSONLimitError(f"JSON text over {max_chars} characters")
    depth = nesting(text)
    if depth > max_depth:
        raise JSONLimitError(f"JSON nested {depth} deep (at most {max_depth})")
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite, parse_int=_whole)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is out of range")
    return value


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"a whole number of {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(text)
