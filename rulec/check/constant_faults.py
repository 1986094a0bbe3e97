"""Expressions that fail whatever the game: a division (or `%`) by a constant zero.

Checked on the document's expression trees, so the designer hears of it from `rulec check`
instead of from a game error in play (rulec.runtime.errors.ExpressionFailed). Divisions by an
expression that is zero only sometimes (`turn - 1`) are reported in play, at their line.
"""

from __future__ import annotations

from typing import Any, Iterator

from rulec.diagnostics import Diagnostic
from rulec.language.document import Document

FAULT_CODES = {"division-by-zero": "an expression dividing (or taking '%') by a constant zero"}


def check_constant_faults(document: Document) -> list[Diagnostic]:
    problems = []
    for path, tree in _expressions(document.data, ()):
        if any(_divides_by_zero(node) for node in _nodes(tree)):
            problems.append(Diagnostic("division-by-zero", "this expression divides by zero, whatever the game",
                                       document.spans.get(path), hint="a divisor must not be 0"))
    return problems


def _divides_by_zero(node: list) -> bool:
    return node[0] == "op" and node[1] in ("/", "%") and node[3][0] == "const" and node[3][1] == 0


def _expressions(value: Any, path: tuple) -> Iterator[tuple[tuple, list]]:
    if isinstance(value, dict):
        if "$expr" in value and isinstance(value.get("tree"), list):
            yield path, value["tree"]
            return
        for key, item in value.items():
            yield from _expressions(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _expressions(item, path + (index,))


def _nodes(tree: Any) -> Iterator[list]:
    """Every node of an expression tree, without recursion (trees are bounded, but need not be shallow)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, list) and node and isinstance(node[0], str):
            yield node
            stack.extend(child for child in node[1:] if isinstance(child, (list, dict)))
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
