"""Reading the axtree text back into nodes: what scripted policies (oracles) see the page by.

Each line of an observation's ``axtree`` is ``[id] role "name" value="…" -> href states``,
indented two spaces per level; text lines are ``StaticText "…"`` without an id.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

_LINE = re.compile(
    r"^(?P<indent> *)(?:\[(?P<id>\d+)\] )?(?P<role>\w+)"
    r'(?: (?P<name>"(?:[^"\\]|\\.)*"))?'
    r'(?: value=(?P<value>"(?:[^"\\]|\\.)*"))?'
    r"(?: -> (?P<href>\S+))?"
    r"(?P<states>(?: [\w=-]+)*)$"
)


@dataclass(frozen=True)
class Node:
    id: str | None
    role: str
    name: str
    value: str | None
    href: str | None
    states: frozenset[str]
    depth: int

    def has(self, state: str) -> bool:
        return state in self.states


class NotFound(LookupError):
    """No node matched; the message lists what was looked for."""


def parse(axtree: str) -> list[Node]:
    nodes = []
    for line in axtree.splitlines():
        match = _LINE.match(line)
        if match is None:
            continue
        nodes.append(
            Node(
                id=match["id"],
                role=match["role"],
                name=json.loads(match["name"]) if match["name"] else "",
                value=json.loads(match["value"]) if match["value"] else None,
                href=match["href"],
                states=frozenset(match["states"].split()),
                depth=len(match["indent"]) // 2,
            )
        )
    return nodes


class AxTree:
    """The nodes of one observation, with lookups by role and name."""

    def __init__(self, text: str):
        self.text = text
        self.nodes = parse(text)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def find_all(
        self, role: str | None = None, name: str | None = None, *, contains: str | None = None
    ) -> list[Node]:
        return [
            node
            for node in self.nodes
            if (role is None or node.role == role)
            and (name is None or node.name == name)
            and (contains is None or contains.casefold() in node.name.casefold())
        ]

    def find(
        self, role: str | None = None, name: str | None = None, *, contains: str | None = None
    ) -> Node:
        """The first matching node; :class:`NotFound` if none."""
        found = self.find_all(role, name, contains=contains)
        if not found:
            raise NotFound(f"no {role or 'node'} named {name or contains!r} in the page")
        return found[0]

    def id(self, role: str | None = None, name: str | None = None, **kw: str) -> str:
        """The element id of the first matching node."""
        node = self.find(role, name, **kw)
        if node.id is None:
            raise NotFound(f"{role} {name!r} has no element id")
        return node.id

    def has(self, role: str | None = None, name: str | None = None, **kw: str) -> bool:
        return bool(self.find_all(role, name, **kw))

    def children(self, parent: Node) -> list[Node]:
        """Nodes nested under ``parent``, in order."""
        start = self.nodes.index(parent) + 1
        out = []
        for node in self.nodes[start:]:
            if node.depth <= parent.depth:
                break
            out.append(node)
        return out
