"""What the schemas say about a field: its documentation for hover and the fields a block may hold.

The schemas in schemas/ are the one description of the game file's shape (the checker validates
against them); the editor walks them by the keywords of the enclosing blocks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from rulec.check.schema import GAME_SCHEMA as ROOT_SCHEMA
from rulec.check.schema import SCHEMA_DIR as SCHEMAS
from rulec.editor.outline import Frame


@lru_cache(maxsize=None)
def _load(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Node:
    """A schema and the file its `$ref`s are relative to."""

    schema: dict[str, Any]
    file: str


def _resolve(node: Node) -> Node:
    """Follow `$ref`s; a description written beside a `$ref` wins over the target's."""
    schema, file, seen = node.schema, node.file, 0
    description = schema.get("description")
    while "$ref" in schema and seen < 20:
        target, _, pointer = schema["$ref"].partition("#")
        file = target or file
        schema = _load(file)
        for part in filter(None, pointer.split("/")):
            schema = schema[part]
        description = description or schema.get("description")
        seen += 1
    if description and schema.get("description") != description:
        schema = {**schema, "description": description}
    return Node(schema, file)


def _alternatives(node: Node) -> list[Node]:
    node = _resolve(node)
    out = [node]
    for word in ("anyOf", "oneOf", "allOf"):
        for option in node.schema.get(word, []):
            out.extend(_alternatives(Node(option, node.file)))
    return out


def _properties(node: Node) -> dict[str, Node]:
    props: dict[str, Node] = {}
    for alternative in _alternatives(node):
        for name, sub in alternative.schema.get("properties", {}).items():
            props.setdefault(name, Node(sub, alternative.file))
    return props


def _any_key(node: Node) -> Node | None:
    """The schema of every entry of a collection (`additionalProperties`), if it is one."""
    for alternative in _alternatives(node):
        extra = alternative.schema.get("additionalProperties")
        if isinstance(extra, dict):
            return Node(extra, alternative.file)
    return None


def _root() -> Node:
    return Node(_load(ROOT_SCHEMA), ROOT_SCHEMA)


def block_schema(frames: Iterable[Frame]) -> Node | None:
    """The schema of the statements inside the given blocks (outermost first)."""
    node: Node | None = _root()
    for frame in frames:
        node = _field(node, frame.keyword) if node else None
        # `unit us_4ad { ... }`: a labelled block is one entry of its keyword's collection.
        for _ in frame.labels:
            node = _any_key(node) if node else None
        if node is None:
            return None
    return node


def _field(node: Node, name: str) -> Node | None:
    props = _properties(node)
    if name in props:
        return props[name]
    return _any_key(node)


def field_names(frames: Iterable[Frame]) -> list[str]:
    """The fields (or sections, at the top) that may be written in these blocks."""
    node = block_schema(frames)
    return sorted(_properties(node)) if node else []


def field_schema(frames: Iterable[Frame], name: str) -> dict[str, Any] | None:
    """The resolved schema of field `name` written inside these blocks."""
    node = block_schema(frames)
    if node is None or name not in _properties(node):
        return None
    return _resolve(_properties(node)[name]).schema


def enum_values(schema: dict[str, Any] | None) -> list[str]:
    """The words a field takes, when the schema lists them."""
    if not schema:
        return []
    values = list(schema.get("enum", []))
    for word in ("anyOf", "oneOf"):
        for option in schema.get(word, []):
            option = _resolve(Node(option, ROOT_SCHEMA)).schema
            values += option.get("enum", []) + ([option["const"]] if "const" in option else [])
    return [v for v in values if isinstance(v, str)]


def takes_only_words(schema: dict[str, Any] | None) -> bool:
    """Whether a field takes nothing but the words enum_values lists (not also a hex, a name, an expression)."""
    if not schema or "enum" in schema:
        return True
    options = [_resolve(Node(o, ROOT_SCHEMA)).schema for w in ("anyOf", "oneOf") for o in schema.get(w, [])]
    return all("enum" in o or "const" in o for o in options)


def field_documentation(frames: tuple[Frame, ...], name: str) -> str | None:
    """Markdown for hovering over field (or section) `name` inside `frames`."""
    schema = field_schema(frames, name)
    if schema is None:
        return None
    where = " ".join(f.keyword for f in frames)
    lines = [f"**{name}**" + (f" (in `{where}`)" if where else " (section)")]
    if schema.get("description"):
        lines.append(schema["description"])
    words = enum_values(schema)
    if words:
        lines.append("one of: " + ", ".join(f"`{w}`" for w in words))
    parent = block_schema(frames)
    required = set()
    for alternative in _alternatives(parent) if parent else []:
        required.update(alternative.schema.get("required", []))
    if name in required:
        lines.append("required")
    return "\n\n".join(lines)
