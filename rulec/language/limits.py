"""Limits on what a game file may hold, so that any input is read in bounded time and memory.

A game file past one of these limits is a mistake (or not a game at all): each limit is a
diagnostic at the place it is crossed, never a MemoryError, a RecursionError or a process
growing without end. The limits sit far above anything a board game needs; docs/language.md
lists them ("Limits").

Three moments: the raw text (size, line length) before the lexer sees it, the parse tree
(nesting, expression depth, list size, numbers, ranges) before it becomes data, and the
document (map size, number of units) before the checker builds anything from it.
"""

from __future__ import annotations

from typing import Any, Iterator

from lark import Token, Tree

from rulec.diagnostics import Diagnostic, Span

MAX_FILE_CHARACTERS = 1_000_000  # the largest real game is under 20,000
MAX_LINE_LENGTH = 10_000  # characters on one line
MAX_NESTING = 32  # blocks, lists and { } values inside each other
MAX_EXPRESSION_DEPTH = 40  # operators and calls inside each other in one expression
MAX_LIST_ITEMS = 10_000  # items of one list or entries of one { } value
MAX_NUMBER = 10**9  # a whole number written in the file
MAX_RANGE_SPAN = 1_000_000  # high minus low of a range of whole numbers (a hex range of 6-digit hexes fits)
MAX_MAP_HEXES = 10_000  # columns times rows (100 x 100)
MAX_UNITS = 2_000  # unit blocks
MAX_DIAGNOSTICS_SHOWN = 1_000  # printed for one file; a note counts the rest
MAX_QUANTIFIER_WORK = 2_000_000  # units and hexes one expression's count/any/all/sum/min/max/select visit, nested
                                 # ones multiplied (count in count in count over 400 units: 64,000,000)
MAX_RETREAT_HEXES = 10  # of a retreat effect: each legal path is an order, and the paths multiply with every hex (on
                        # an open map, about twice a hex: 5,115 paths of ten hexes away from a battle, 327,675 of 16)
MAX_OUTCOME_BANDS = 6  # of a battle system: the checker proves its army-state table for every army, which grows
                       # as (units + 1) ** outcomes

# code -> what it means (registered in rulec.check.codes.CODES)
LIMIT_CODES: dict[str, str] = {
    "limit-file-size": f"a game file longer than {MAX_FILE_CHARACTERS:,} characters",
    "limit-line-length": f"a line longer than {MAX_LINE_LENGTH:,} characters",
    "limit-nesting": f"blocks, lists or {{ }} values nested more than {MAX_NESTING} deep",
    "limit-expression": f"an expression nested more than {MAX_EXPRESSION_DEPTH} deep",
    "limit-list-size": f"a list or {{ }} value with more than {MAX_LIST_ITEMS:,} items",
    "limit-number": f"a whole number above {MAX_NUMBER:,}",
    "limit-range": f"a range of whole numbers spanning more than {MAX_RANGE_SPAN:,}",
    "limit-map-size": f"a map of more than {MAX_MAP_HEXES:,} hexes",
    "limit-units": f"more than {MAX_UNITS:,} units",
    "limit-quantifier-work": f"an expression whose quantifiers, nested, may visit more than {MAX_QUANTIFIER_WORK:,} "
                             "units and hexes each time it is evaluated",
    "limit-outcomes": f"a battle system with more than {MAX_OUTCOME_BANDS} outcome bands",
    "limit-retreat": f"a retreat of more than {MAX_RETREAT_HEXES} hexes",
    "limit-diagnostics": f"a note: more than {MAX_DIAGNOSTICS_SHOWN:,} diagnostics for one file, the rest not shown",
}

_NESTING_KINDS = {"block", "list", "object"}
# Expression nodes; a chain `a + b + c` is one node but nests one level per operator in the expression tree.
_EXPRESSION_KINDS = {"or_", "and_", "not_", "comparison", "sum", "product", "neg", "pos", "call"}
_CHAINS = {"sum", "product", "comparison"}


def text_limits(text: str, file: str) -> list[Diagnostic]:
    """The file's size and its longest lines, checked before anything reads the text (linear time)."""
    if len(text) > MAX_FILE_CHARACTERS:
        return [Diagnostic("limit-file-size", f"this file holds {len(text):,} characters; a game file may hold at most "
                                              f"{MAX_FILE_CHARACTERS:,}", Span(file, 1, 1),
                           hint="is this really a game file?")]
    problems = []
    start, number = 0, 1
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if end - start > MAX_LINE_LENGTH:
            problems.append(Diagnostic("limit-line-length", f"this line holds {end - start:,} characters; a line may hold at "
                                                            f"most {MAX_LINE_LENGTH:,}",
                                       Span(file, number, MAX_LINE_LENGTH + 1), hint="break it over several lines"))
            if len(problems) >= 5:
                break
        start, number = end + 1, number + 1
    return problems


def tree_limits(tree: Tree, file: str) -> list[Diagnostic]:
    """Nesting, expression depth, list sizes, numbers and ranges of a parse tree, walked without recursion."""
    problems: list[Diagnostic] = []
    stack: list[tuple[Any, int, int]] = [(tree, 0, 0)]
    while stack and len(problems) < 20:
        node, nesting, depth = stack.pop()
        if isinstance(node, Token):
            if node.type == "INT" and (len(node) > 10 or int(node) > MAX_NUMBER):  # len first: int() of 5,000 digits fails
                problems.append(Diagnostic("limit-number", f"this number is above {MAX_NUMBER:,}, the largest a game file "
                                                           "may hold", _span(file, node)))
            continue
        if not isinstance(node, Tree):
            continue
        kind = node.data
        if kind in _NESTING_KINDS:
            nesting += 1
            if nesting > MAX_NESTING:
                problems.append(Diagnostic("limit-nesting", f"blocks, lists and {{ }} values are nested more than "
                                                            f"{MAX_NESTING} deep here", _span(file, node)))
                continue
            items = sum(1 for child in node.children if child is not None)
            if kind != "block" and items > MAX_LIST_ITEMS:
                problems.append(Diagnostic("limit-list-size", f"this value holds {items:,} items; a list or {{ }} value "
                                                              f"may hold at most {MAX_LIST_ITEMS:,}", _span(file, node)))
                continue
        if kind in _EXPRESSION_KINDS:
            depth += max(1, (len(node.children) - 1) // 2) if kind in _CHAINS else 1
            if depth > MAX_EXPRESSION_DEPTH:
                problems.append(Diagnostic("limit-expression", f"this expression is nested more than {MAX_EXPRESSION_DEPTH} "
                                                               "deep", _span(file, node),
                                           hint="split it, or simplify it"))
                continue
        elif kind not in ("keyword_argument", "name"):
            depth = 0
        if kind == "closed_range":
            problems.extend(_range_limit(node, file))
        stack.extend((child, nesting, depth) for child in reversed(node.children))
    return problems


def _range_limit(node: Tree, file: str) -> Iterator[Diagnostic]:
    low, high = node.children[0], node.children[-1]
    if isinstance(low, Token) and isinstance(high, Token) and low.type == high.type == "INT" \
            and len(low) <= 10 and len(high) <= 10 and int(high) - int(low) > MAX_RANGE_SPAN:
        yield Diagnostic("limit-range", f"this range spans {int(high) - int(low):,} numbers; a range may span at most "
                                        f"{MAX_RANGE_SPAN:,}", _span(file, node))


def document_limits(data: dict[str, Any], spans: dict, file: str) -> list[Diagnostic]:
    """The map's size, the number of units and of battle outcomes, checked before the checker builds the game."""
    problems = []
    game_map = data.get("map")
    if isinstance(game_map, dict):
        columns, rows = _span_of(game_map.get("columns")), _span_of(game_map.get("rows"))
        if columns and rows and columns * rows > MAX_MAP_HEXES:
            problems.append(Diagnostic("limit-map-size", f"this map has {columns:,} x {rows:,} = {columns * rows:,} hexes; a "
                                                         f"map may have at most {MAX_MAP_HEXES:,}",
                                       spans.get(("map", "columns")) or Span(file, 1, 1)))
    units = list(data["unit"]) if isinstance(data.get("unit"), dict) else []
    if len(units) > MAX_UNITS:
        problems.append(Diagnostic("limit-units", f"this game has {len(units):,} units; a game may have at most {MAX_UNITS:,}",
                                   spans.get(("unit",)) or Span(file, 1, 1)))
    battle = data.get("battle")
    outcomes = battle.get("outcome") if isinstance(battle, dict) else None
    if isinstance(outcomes, dict) and len(outcomes) > MAX_OUTCOME_BANDS:
        problems.append(Diagnostic("limit-outcomes", f"this battle system has {len(outcomes)} outcome bands; a battle "
                                                     f"system may have at most {MAX_OUTCOME_BANDS}",
                                   spans.get(("battle", "outcome", list(outcomes)[MAX_OUTCOME_BANDS])) or Span(file, 1, 1)))
    return problems


def _span_of(value: Any) -> int | None:
    """How many columns or rows a `1..9` range holds (None when it is not a range of whole numbers)."""
    if isinstance(value, dict) and isinstance(value.get("$range"), list) and len(value["$range"]) == 2:
        low, high = value["$range"]
        try:
            return int(high) - int(low) + 1
        except (TypeError, ValueError):
            return None
    return None


def _span(file: str, node: Tree | Token) -> Span:
    if isinstance(node, Token):
        return Span(file, node.line, node.column, node.end_line, node.end_column)
    meta = node.meta
    return Span(file, getattr(meta, "line", 1), getattr(meta, "column", 1))
