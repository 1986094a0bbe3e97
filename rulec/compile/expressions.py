"""Expressions of the game language, compiled to Python.

An expression tree (see rulec.language.parse.expression_tree) becomes Python
source over one argument, `ctx`, an evaluation context supplied by whoever
runs the game (rulec.runtime.context.EvalContext). The same source is written
into generated modules and compiled in memory for games loaded from text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from rulec.diagnostics import did_you_mean

# Names an expression may read from the context, and the Python they become.
CONTEXT_NAMES = {
    "turn": "ctx.turn",
    "turns": "ctx.turns",
    "strength": "ctx.unit.strength",
    "move": "ctx.unit.move",
    "side": "ctx.unit.side",
    "phasing_side": "ctx.phasing_side",
}

# Functions: name -> (min args, max args, allowed keywords).
FUNCTIONS: dict[str, tuple[int, int, frozenset[str]]] = {
    "count": (1, 1, frozenset()),
    "units": (0, 0, frozenset({"side", "zone", "hex", "type", "flag"})),
    "if": (3, 3, frozenset()),
    "min": (1, 9, frozenset()),
    "max": (1, 9, frozenset()),
    "abs": (1, 1, frozenset()),
    "has_flag": (1, 1, frozenset()),
    "strength_of": (1, 1, frozenset()),
    "vp": (1, 1, frozenset()),
}

# Arguments that must name a game fact of one kind: function -> argument (keyword or position) -> kind.
ARGUMENT_KINDS: dict[str, dict[str | int, str]] = {
    "units": {"side": "side", "zone": "zone", "type": "unit type", "flag": "flag", "hex": "hex"},
    "has_flag": {0: "flag"},
    "vp": {0: "side"},
}

_OPERATORS = {"==", "!=", "<", "<=", ">", ">=", "in", "+", "-", "*", "/", "%"}


class ExpressionError(Exception):
    """A name or call the expression language does not know."""

    def __init__(self, code: str, message: str, hint: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint


@dataclass
class ExpressionCompiler:
    """Turns trees into Python source; `constants` are the game's ids, usable as bare names.

    `names_by_kind` ("side", "zone", "unit type", "flag", "hex" -> names), when
    given, lets arguments such as `units(zone = ...)` be checked for naming a
    fact of the right kind.
    """

    constants: frozenset[str]
    names_by_kind: dict[str, frozenset[str]] = field(default_factory=dict)

    def source(self, tree: list) -> str:
        kind = tree[0]
        if kind == "const":
            return repr(tree[1])
        if kind == "name":
            name = tree[1]
            if name in CONTEXT_NAMES:
                return CONTEXT_NAMES[name]
            if name in self.constants:
                return repr(name)
            known = sorted(set(CONTEXT_NAMES) | self.constants)
            raise ExpressionError("unknown-name", f"unknown name '{name}' in expression", did_you_mean(name, known))
        if kind == "op":
            op = tree[1]
            assert op in _OPERATORS
            return f"({self.source(tree[2])} {op} {self.source(tree[3])})"
        if kind == "neg":
            return f"(-{self.source(tree[1])})"
        if kind == "not":
            return f"(not {self.source(tree[1])})"
        if kind in ("and", "or"):
            return "(" + f" {kind} ".join(self.source(t) for t in tree[1]) + ")"
        if kind == "call":
            return self.call(tree[1], tree[2], tree[3])
        raise AssertionError(kind)

    def call(self, name: str, args: list, keywords: dict[str, list]) -> str:
        if name not in FUNCTIONS:
            raise ExpressionError("unknown-function", f"unknown function '{name}'", did_you_mean(name, FUNCTIONS))
        low, high, allowed = FUNCTIONS[name]
        if keywords and not allowed:  # `if(turn = 1, 2, 3)`: '=' written for '=='
            keyword = next(iter(keywords))
            raise ExpressionError("unknown-argument", f"'{name}' takes no named arguments, found '{keyword} = ...'",
                                  f"to compare, write '{keyword} == ...'")
        if not low <= len(args) <= high:
            expected = str(low) if low == high else f"{low} to {high}"
            raise ExpressionError("argument-count", f"'{name}' takes {expected} argument(s), not {len(args)}")
        for keyword in keywords:
            if keyword not in allowed:
                hint = did_you_mean(keyword, allowed) if allowed else None
                raise ExpressionError("unknown-argument", f"'{name}' has no argument '{keyword}'", hint)
        kinds = ARGUMENT_KINDS.get(name, {})
        for where, argument in [*enumerate(args), *keywords.items()]:
            self.check_kind(name, where, argument, kinds.get(where))
        parts = [self.source(a) for a in args]
        if name == "count":
            return f"len({parts[0]})"
        if name == "if":
            return f"({parts[1]} if {parts[0]} else {parts[2]})"
        if name in ("min", "max", "abs"):
            return f"{name}({', '.join(parts)})"
        if name == "has_flag":
            return f"({parts[0]} in ctx.unit.flags)"
        if name == "units":
            kw = ", ".join(f"{k}={self.source(v)}" for k, v in keywords.items())
            return f"ctx.units({kw})"
        if name == "strength_of":
            return f"sum(u.strength for u in {parts[0]})"
        if name == "vp":
            return f"ctx.vp({parts[0]})"
        raise AssertionError(name)


    def check_kind(self, function: str, where: str | int, argument: list, kind: str | None) -> None:
        """An argument that must name a `kind` of fact (a side, a zone...) names one."""
        if kind is None or kind not in self.names_by_kind or argument[0] not in ("name", "const"):
            return
        value = argument[1]
        known = self.names_by_kind[kind]
        if isinstance(value, str) and value in known:
            return
        label = f"'{where}'" if isinstance(where, str) else f"argument {where + 1}"
        raise ExpressionError("wrong-kind-argument", f"{label} of '{function}' must name a {kind}, not '{value}'", did_you_mean(str(value), sorted(known)))


def to_function(python_source: str) -> Callable[[Any], Any]:
    """Compile `python_source` (an expression over `ctx`) into a function.

    The function keeps its source as `python_source`, which the code generator
    writes into generated modules as the body of a named function.
    """
    code = compile(f"lambda ctx: {python_source}", "<rulec expression>", "eval")
    function = eval(code, {"__builtins__": dict(SAFE_BUILTINS)})
    function.python_source = python_source
    return function


# The only built-ins compiled expressions may call (generated modules get them from Python itself).
SAFE_BUILTINS: dict[str, Callable[..., Any]] = {"len": len, "min": min, "max": max, "abs": abs, "sum": sum}
