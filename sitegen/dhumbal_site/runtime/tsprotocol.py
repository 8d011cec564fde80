"""The page-worker messages as TypeScript, from the engine's one definition of them.

The engine defines every request and answer of ``dhumbal.table.web`` in
``dhumbal.table.messages``: ``TypedDict`` classes with snake_case keys, and
``RESPONSES``, the answer type of each op. Besides its interfaces, the
generated module holds ``Responses`` (op → answer) and ``Requests`` (op →
the request TypedDict whose ``op`` is that one literal). This module writes them as
TypeScript interfaces into ``browser/protocol/messages.generated.ts``, which
``browser/protocol/messages.ts`` re-exports: a field renamed in Python
fails the page code's type check (``make check`` writes the file, then runs
``tsc``; the build writes it before esbuild).

Python types map to TypeScript as: ``str`` → ``string``, ``int``/``float`` →
``number``, ``bool`` → ``boolean``, ``None`` → ``null``, ``Literal[...]`` →
the literals, ``list[X]``/``Sequence[X]`` → ``X[]``, ``dict[str, X]`` →
``Record<string, X>``, ``X | Y`` → ``X | Y``, a TypedDict → its interface,
``NotRequired[X]`` → an optional field, ``Any``/``object`` → ``unknown``.
A type it cannot map stops the build, naming the class and field.

Run by hand: ``python -m dhumbal_site.runtime.tsprotocol``.
"""

from __future__ import annotations

import importlib
import json
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, NotRequired, Required, get_args, get_origin, get_type_hints, is_typeddict

MODULE = "dhumbal.table.messages"
OUTPUT = Path("browser/protocol/messages.generated.ts")
HEADER = (
    "// Written by sitegen/dhumbal_site/runtime/tsprotocol.py from engine/dhumbal/table/messages.py:\n"
    "// do not edit (the build and make check write it again).\n"
)


class Unmappable(TypeError):
    """A Python type this generator cannot say in TypeScript."""


def ts_type(hint: Any, named: dict[str, type], where: str) -> str:
    """The TypeScript for one Python type hint; TypedDicts it meets are added to ``named``."""
    origin = get_origin(hint)
    args = get_args(hint)
    if hint is Any or hint is object:
        return "unknown"
    if hint is None or hint is type(None):
        return "null"
    if hint is str:
        return "string"
    if hint is bool:
        return "boolean"
    if hint in (int, float):
        return "number"
    if isinstance(hint, type) and is_typeddict(hint):
        named.setdefault(hint.__name__, hint)
        return hint.__name__
    if origin in (Required, NotRequired):
        return ts_type(args[0], named, where)
    if origin is Literal:
        return " | ".join(json.dumps(value) for value in args)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(dict.fromkeys(ts_type(arg, named, where) for arg in args))
    if origin in (list, Sequence, tuple) and args:
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return "[" + ", ".join(ts_type(arg, named, where) for arg in args) + "]"
        inner = ts_type(args[0], named, where)
        return f"({inner})[]" if "|" in inner else f"{inner}[]"
    if origin in (dict, Mapping) and len(args) == 2 and args[0] is str:
        return f"Record<string, {ts_type(args[1], named, where)}>"
    raise Unmappable(f"{where}: {hint!r} has no TypeScript form here (tsprotocol.py)")


def _optional(hint: Any, cls: type, key: str) -> bool:
    if get_origin(hint) is NotRequired:
        return True
    if get_origin(hint) is Required:
        return False
    return key in getattr(cls, "__optional_keys__", frozenset())


def interface(cls: type, named: dict[str, type]) -> str:
    """One TypedDict as a TypeScript interface, its docstring's first line as a comment."""
    hints = get_type_hints(cls, include_extras=True)
    doc = (cls.__doc__ or "").strip().splitlines()
    lines = [f"/** {doc[0]} */"] if doc and not doc[0].startswith(f"{cls.__name__}(") else []
    lines.append(f"export interface {cls.__name__} {{")
    for key, hint in hints.items():
        mark = "?" if _optional(hint, cls, key) else ""
        name = key if key.isidentifier() else json.dumps(key)
        lines.append(f"  {name}{mark}: {ts_type(hint, named, f'{cls.__name__}.{key}')};")
    lines.append("}")
    return "\n".join(lines)


def render(module: types.ModuleType) -> str:
    """The TypeScript of every TypedDict of ``module`` and its ``RESPONSES`` map."""
    named: dict[str, type] = {}
    for value in vars(module).values():
        if isinstance(value, type) and is_typeddict(value) and value.__module__ == module.__name__:
            named.setdefault(value.__name__, value)
    responses: Mapping[str, Any] = getattr(module, "RESPONSES", {})
    if not isinstance(responses, Mapping) or not responses:
        raise Unmappable(f"{module.__name__}.RESPONSES: the map from op to answer type is missing")
    answer_types = {op: ts_type(hint, named, f"RESPONSES[{op!r}]") for op, hint in responses.items()}
    out: list[str] = []
    done: set[str] = set()
    while len(done) < len(named):  # a TypedDict met inside another is added as it is met
        for name in sorted(set(named) - done):
            out.append(interface(named[name], named))
            done.add(name)
    out.append("\n".join(["/** The answer type of each op. */", "export interface Responses {",
                           *(f"  {json.dumps(op)}: {answer};" for op, answer in sorted(answer_types.items())), "}"]))
    # The request type of each op: every TypedDict whose ``op`` is one literal.
    requests = {}
    for name, cls in named.items():
        op = get_type_hints(cls, include_extras=True).get("op")
        if get_origin(op) is Literal and len(get_args(op)) == 1 and name.endswith("Request"):
            requests[get_args(op)[0]] = name
    out.append("\n".join(["/** The request type of each op. */", "export interface Requests {",
                           *(f"  {json.dumps(op)}: {name};" for op, name in sorted(requests.items())), "}"]))
    return HEADER + "\n" + "\n\n".join(out) + "\n"


def write(repo_root: Path) -> Path | None:
    """Write the generated file when the engine defines its messages; None when it does not yet."""
    try:
        module = importlib.import_module(MODULE)
    except ModuleNotFoundError as missing:
        if missing.name not in (MODULE, MODULE.rpartition(".")[0]):
            raise
        return None
    text = render(module)
    target = repo_root / OUTPUT
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")
    return target


if __name__ == "__main__":
    written = write(Path(__file__).resolve().parents[3])
    print(written or f"{MODULE} does not exist yet: nothing written")
