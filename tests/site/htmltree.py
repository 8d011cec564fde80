"""A small element tree of built HTML, for tests that read generated markup."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def iter(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(self, test: str | Callable[[Node], bool]) -> list[Node]:
        """Descendants (not self) with the class ``test``, or for which ``test`` holds."""
        check = (lambda n: test in n.classes) if isinstance(test, str) else test
        return [n for n in self.iter() if n is not self and check(n)]

    def find(self, test: str | Callable[[Node], bool]) -> Node:
        found = self.find_all(test)
        if not found:
            raise LookupError(f"no {test!r} in <{self.tag} {self.attrs}>")
        return found[0]

    def text(self, *, skip: Callable[[Node], bool] = lambda n: False) -> str:
        """The text inside, white space collapsed; ``skip`` leaves subtrees out."""
        parts: list[str] = []

        def walk(node: Node) -> None:
            for child in node.children:
                if isinstance(child, str):
                    parts.append(child)
                elif not skip(child):
                    walk(child)

        walk(self)
        return " ".join("".join(parts).split())

    def cards(self) -> list[str]:
        """``data-card`` of the card faces inside, in order."""
        return [n.attrs["data-card"] for n in self.find_all("dhc") if "data-card" in n.attrs]

    def backs(self) -> int:
        return len(self.find_all("dhc--back"))


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root
