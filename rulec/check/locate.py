"""Where in its game file an expression is written: for game errors raised while playing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulec.diagnostics import DiagnosticError, Span


def expression_span(game_file: str | None, source: str) -> Span | None:
    """The span of the first expression of `game_file` whose canonical text is `source` (None if not found)."""
    if not game_file:
        return None
    from rulec.pipeline import ROOT, parse  # here, not at the top: the pipeline imports the checker

    path = Path(game_file)
    if not path.is_absolute() and not path.exists():
        path = ROOT / path
    try:
        document = parse(path)
    except (DiagnosticError, OSError):
        return None
    for where, value in _values(document.data, ()):
        if (isinstance(value, dict) and value.get("$expr") == source) or value == source:
            return document.spans.get(where)
    return None


def _values(value: Any, path: tuple):
    yield path, value
    if isinstance(value, dict) and "$expr" not in value:
        for key, item in value.items():
            yield from _values(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _values(item, path + (index,))
