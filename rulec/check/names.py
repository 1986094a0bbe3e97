"""Names that would make a game mean something else than its file says.

Two checks on the ids of a game file, run by rulec.pipeline.check after the builder:

- a name an expression reads from the game itself (`turn`, `strength`...) or a function
  (`count`...) given to a zone, side, unit, flag or terrain: in an expression the built-in
  meaning wins, so `units(zone = turn)` would silently count the turn number's zone;
- two ids that differ only by unicode compatibility forms (NFKC: `"ﬁ"` and `"fi"`): Python
  folds them into one name, and a reader cannot tell them apart.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Iterator

from rulec.compile.functions import AGGREGATES, FILTERS, FUNCTIONS, NAMES, SPECIAL
from rulec.diagnostics import Diagnostic, Span
from rulec.language.document import Document

NAME_CODES = {
    "reserved-name": "a zone, side, unit, flag or terrain named like a built-in name of expressions (turn, count...)",
    "confusable-name": "two ids that differ only by unicode compatibility forms (NFKC), such as 'ﬁ' and 'fi'",
}

# Every bare name and function of the expression language, and its words.
RESERVED = (set(NAMES) | set(FUNCTIONS) | set(FILTERS) | set(AGGREGATES) | set(SPECIAL)
            | {"true", "false", "not", "and", "or", "in", "where", "for"})


def check_names(document: Document) -> list[Diagnostic]:
    problems = []
    seen: dict[str, tuple[str, tuple]] = {}
    for kind, name, path in _game_names(document.data):
        span = document.key_spans.get(path) or document.spans.get(path) or Span(document.file, 1, 1)
        if kind != "block" and name in RESERVED:
            problems.append(Diagnostic("reserved-name", f"the {kind} '{name}' is named like the built-in '{name}' of "
                                       "expressions, which it would hide", span, hint="give it another name"))
        folded = unicodedata.normalize("NFKC", name)
        first = seen.setdefault(folded, (name, path))
        if first[0] != name:
            where = document.key_spans.get(first[1]) or document.spans.get(first[1])
            at = f" (line {where.line})" if where else ""
            problems.append(Diagnostic("confusable-name", f"'{name}' differs from '{first[0]}'{at} only by unicode "
                                       "compatibility forms: they cannot be told apart", span,
                                       hint="use plain letters, digits and '_' for ids"))
    return problems


def _game_names(data: dict[str, Any]) -> Iterator[tuple[str, str, tuple]]:
    """(kind, name, path) of every id the file declares: the labels of top-level blocks, zones, edges and flags."""
    kinds = {"side": "side", "unit": "unit", "terrain": "terrain", "variable": "variable"}
    for section, blocks in data.items():
        if isinstance(blocks, dict) and section not in ("game", "map"):
            for name, body in blocks.items():
                if isinstance(body, dict):
                    yield kinds.get(section, "block"), str(name), (section, name)
    game_map = data.get("map")
    if isinstance(game_map, dict):
        for section, kind in (("zones", "zone"), ("edges", "edge")):
            if isinstance(game_map.get(section), dict):
                for name in game_map[section]:
                    yield kind, str(name), ("map", section, name)
    for unit_id, body in (data.get("unit") or {}).items() if isinstance(data.get("unit"), dict) else ():
        flags = body.get("flags") if isinstance(body, dict) else None
        for index, flag in enumerate(flags if isinstance(flags, list) else []):
            if isinstance(flag, str):
                yield "flag", flag, ("unit", unit_id, "flags", index)
