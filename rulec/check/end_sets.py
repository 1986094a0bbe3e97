"""movement { may_end_move } written as set algebra over the hexes a unit may end in (model.MovementRules.may_end_sets),
so that the engine answers it for all of a unit's destinations at once (rulec/engine/end_sets.py) instead of hex by
hex. The condition is about the unit and `hex`; its parts become:

    ("scalar", Expr)        a part that does not read `hex` (the unit's side, whether it is marked): asked once a unit
    ("hexes", Expr)         a part on `hex` and the map alone (hex in north): folded once a game
    ("traced", T, Expr)     traced_hex(T, SIDE, hex), SIDE a scalar
    ("fact", F, Expr)       enemy_occupied / occupied_by / enemy_zoc / controls (SIDE, hex): F is enemy, friends, zoc
                            or held, of the position's hex facts (the same as a trace reads: trace_sets.py)
    ("at", Expr)            hex == HEX, HEX a scalar (unit.hex)
    ("next to", FORMULA)    any(n in neighbours(hex) where C): C written the same way, about `n`
    ("not", F) ("and", (F, ...)) ("or", (F, ...)) ("if", C, A, B)
    ("per hex", Expr)       any other part that reads `hex`: asked hex by hex, as before

A condition made only of "per hex" gains nothing and is left as it is (None). The same as the condition, part for
part: the engine's tests compare every answer with the condition's own (tests/test_engine_end_sets.py).
"""

from __future__ import annotations

from typing import Any

from rulec.compile import kinds
from rulec.compile.expressions import ExpressionCompiler, ExpressionError, to_function
from rulec.compile.functions import IN_HEX, IN_MOVE, STATIC
from rulec.language.parse import unparse
from rulec.runtime import model as m

# hex facts of (SIDE, hex), as the engine keeps them for a side: obstacles (enemy, zoc, friends) and the holders
_FACTS = {"enemy_occupied": "enemy", "occupied_by": "friends", "enemy_zoc": "zoc", "controls": "held"}
_HEX = ["name", "hex"]
_ON_THE_MAP = frozenset({STATIC, IN_MOVE, IN_HEX})  # what a part on `hex` and the map alone may depend on


def end_sets(value: Any, compiler: ExpressionCompiler) -> tuple | None:
    """may_end_move's value (its field's, with the tree the parser gave) as set algebra, or None."""
    tree = value.get("tree") if isinstance(value, dict) else None
    if tree is None:
        return None
    try:
        formula = _formula(tree, compiler)
    except ExpressionError:  # reported where the field is built
        return None
    return None if formula[0] == "per hex" else formula


def _formula(tree: list, compiler: ExpressionCompiler) -> tuple:
    depends = compiler.typed(tree, kinds.BOOL).depends
    if IN_MOVE not in depends:
        return ("scalar", _expr(tree, compiler, kinds.BOOL))
    if depends <= _ON_THE_MAP:
        return ("hexes", _expr(tree, compiler, kinds.BOOL))
    form = tree[0]
    if form == "not":
        return _or_per_hex(tree, compiler, "not", [_formula(tree[1], compiler)])
    if form in ("and", "or"):
        return _or_per_hex(tree, compiler, form, [_formula(part, compiler) for part in tree[1]])
    if form == "op" and tree[1] in ("==", "!=") and _HEX in (tree[2], tree[3]):
        other = tree[3] if tree[2] == _HEX else tree[2]
        if IN_MOVE not in compiler.typed(other).depends and compiler.typed(other).kind == kinds.HEX:
            at = ("at", _expr(other, compiler, kinds.HEX))
            return at if tree[1] == "==" else ("not", at)
    if form == "call" and not tree[3]:
        name, args = tree[1], tree[2]
        if name == "if" and len(args) == 3:
            return _or_per_hex(tree, compiler, "if", [_formula(part, compiler) for part in args])
        if name == "traced_hex" and len(args) == 3 and args[2] == _HEX and args[0][0] == "name" and _scalar(args[1], compiler):
            return ("traced", args[0][1], _expr(args[1], compiler, kinds.SIDE))
        if name in _FACTS and len(args) == 2 and args[1] == _HEX and _scalar(args[0], compiler):
            return ("fact", _FACTS[name], _expr(args[0], compiler, kinds.SIDE))
        if name == "any" and len(args) == 1:
            around = _next_to(args[0], compiler)
            if around is not None:
                return around
    return ("per hex", _expr(tree, compiler, kinds.BOOL))


def _next_to(argument: list, compiler: ExpressionCompiler) -> tuple | None:
    """any(n in neighbours(hex) where C) as ("next to", C about `n`), when C does not read `hex` itself."""
    if argument[0] != "where" or argument[1][0] != "op" or argument[1][1] != "in":
        return None
    variable, whole, condition = argument[1][2], argument[1][3], argument[2]
    if variable[0] != "name" or whole != ["call", "neighbours", [_HEX], {}] or _mentions(condition, _HEX):
        return None
    about_hex = _renamed(condition, variable, _HEX)
    inner = _formula(about_hex, compiler)
    return None if inner[0] == "per hex" else ("next to", inner)


def _or_per_hex(tree: list, compiler: ExpressionCompiler, form: str, parts: list[tuple]) -> tuple:
    """(form, parts), or the whole part asked hex by hex when every part of it would be."""
    if all(part[0] == "per hex" for part in parts):
        return ("per hex", _expr(tree, compiler, kinds.BOOL))
    if form == "not":
        return ("not", parts[0])
    if form == "if":
        return ("if", *parts)
    return (form, tuple(parts))


def _scalar(tree: list, compiler: ExpressionCompiler) -> bool:
    return IN_MOVE not in compiler.typed(tree).depends


def _expr(tree: list, compiler: ExpressionCompiler, kind: str) -> m.Expr:
    return m.Expr(source=unparse(tree), function=to_function(compiler.source(tree, kind)))


def _mentions(tree: Any, node: list) -> bool:
    if tree == node:
        return True
    return isinstance(tree, list) and any(_mentions(part, node) for part in tree if isinstance(part, (list, dict)))


def _renamed(tree: Any, old: list, new: list) -> Any:
    if tree == old:
        return new
    if isinstance(tree, list):
        return [_renamed(part, old, new) for part in tree]
    if isinstance(tree, dict):
        return {key: _renamed(value, old, new) for key, value in tree.items()}
    return tree
