"""The document: what the parser makes of a game file.

A document is JSON data (dicts, lists, strings, numbers, booleans) plus a map
from each value's path to the span of source it came from, so that later
stages can point at the file. Literals that JSON lacks are tagged objects:

    {"$range": [low, high]}      1..9, 10.. (high None), ..-1 (low None)
    {"$ratio": [3, 1]}           3:1
    {"$hexside": ["0701", "0801"]}
    {"$expr": "8 - turn", "tree": [...]}   anything that is not a literal

A number written with a leading zero (a hex number such as 0807) stays a
string, so that 0807 and 807 are never confused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulec.diagnostics import Span

Path = tuple[str | int, ...]


@dataclass
class Document:
    """A parsed game file: its data and where each piece of it was written."""

    file: str
    text: str
    data: dict[str, Any]
    spans: dict[Path, Span] = field(default_factory=dict)
    key_spans: dict[Path, Span] = field(default_factory=dict)

    def span(self, path: Path) -> Span | None:
        """The span of the value at `path`, or of its nearest enclosing value."""
        path = tuple(path)
        while True:
            if path in self.spans:
                return self.spans[path]
            if not path:
                return None
            path = path[:-1]

    def key_span(self, path: Path) -> Span | None:
        """The span of the key (or block label) that introduced `path`."""
        return self.key_spans.get(tuple(path)) or self.span(path)
