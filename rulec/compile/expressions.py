"""Expressions of the game language, checked for kinds and compiled to Python.

An expression tree (see rulec.language.parse.expression_tree) becomes Python
source over one argument, `ctx`, an evaluation context supplied by whoever
runs the game (rulec.runtime.context.EvalContext). Every sub-expression has a
kind (rulec.compile.kinds) checked here: each argument and operand, the number
of arguments, unknown names (with a did-you-mean). The names and functions
come from the table in rulec.compile.functions. The same source is written
into generated modules and compiled in memory for games loaded from text.

A new rule field that takes an expression is built with
`Builder.expression(value, path, compiler, kinds.BOOL)` (rulec/check/build.py),
which reports every problem at its sub-expression; the code generator types the
function's `ctx` by the class that holds the field (codegen.CONTEXT_TYPES).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from rulec.compile import kinds as k
from rulec.compile.functions import (ABOUT_MARKER, ABOUT_UNIT, AGGREGATES, CONTEXT_NAMES, FILTERS, FUNCTIONS, IN_BATTLE,
                                     IN_HEX, IN_MOVE, IN_TRACE, IN_UNIT_MODIFIER, LATE_KINDS, NAMES, POSITION, STATIC,
                                     UNIT_ATTRIBUTES, Function, known_functions)
from rulec.compile.functions import IN_EXIT, IN_STEP, MARKERS
from rulec.diagnostics import did_you_mean
from rulec.language.limits import MAX_QUANTIFIER_WORK
from rulec.language.parse import unparse
from rulec.runtime.model import Game

# The contexts of a field asked of hex after hex (a move's destinations, a trace's hexes, a retreat's path): there a
# part that reads neither the hex nor a quantifier's variable is worked out once for all the hexes (_kept_per_hex).
_ASKED_HEX_BY_HEX = frozenset({IN_HEX, IN_MOVE})
# What may vary from one asking of such a field to the next: the hex and what comes with it (a step's from_hex, the
# side tracing, a map edge) and the battle or role of the fields that have one.
_VARYING = frozenset({IN_HEX, IN_MOVE, IN_STEP, IN_EXIT, IN_TRACE, IN_BATTLE, IN_UNIT_MODIFIER, ABOUT_MARKER})
# The same, read from the Python itself: a second lock, should a name's `depends` ever leave one out.
_READS_VARYING = re.compile(r"\bctx\.(hex|from_hex|friendly|edge|role|attackers|defenders|attacker_hexes|defender_hexes"
                            r"|attacker_side|defender_side)\b")

# Calls worth keeping that give neither units nor hexes (those are all kept): they search or scan the map.
_COSTLY = frozenset({"distance_to", "traced", "supplied", "traced_without"})

_ARITHMETIC = {"+", "-", "*", "/", "%"}
_ORDER = {"<", "<=", ">", ">="}
_EQUALITY = {"==", "!="}
# Kinds of game ids, in the order a name that is several things is first read as.
_ID_KINDS = (k.SIDE, k.UNIT, k.HEX, k.ZONE, k.EDGE, k.TERRAIN, k.UNIT_TYPE, k.FLAG, k.PHASE, k.TRACE, k.MARKER,
             k.HEXSIDE_TYPE, k.OPTION)
_DEPTH = (STATIC, MARKERS, POSITION, ABOUT_UNIT, ABOUT_MARKER, IN_TRACE, IN_BATTLE, IN_UNIT_MODIFIER, IN_HEX, IN_MOVE, IN_STEP,
          IN_EXIT)
# Where names of a field's own context exist, for the message when they are used elsewhere.
_CONTEXT_WHERE = {IN_TRACE: "in a trace's 'through' and 'lost_when'",
                  IN_BATTLE: "in a battle modifier's 'when', combat's 'may_join' and 'on battle_resolved' hooks",
                  IN_UNIT_MODIFIER: "in a unit modifier's 'when'",
                  IN_HEX: "in a trace's 'through' and 'lost_when', a retreat's 'prefer', 'may_enter' and 'may_end', "
                          "movement's 'may_end_move' and 'entry_blocked', and leave_zoc's 'into_zoc'",
                  IN_MOVE: "in movement's 'may_end_move', 'entry_blocked' and leave_zoc's 'into_zoc'",
                  IN_STEP: "in a trace's 'across', a condition on each step of the path",
                  IN_EXIT: "in movement's 'may_exit'"}
# What to write instead, for the names of a context whose mistake has a usual fix.
_CONTEXT_HINT = {IN_STEP: "a condition on a hexside crossed (a river, a ridge) goes in the trace's "
                          "'across = ...', where from_hex is the hex a step leaves and hex the hex it enters: "
                          "across = not crossing(from_hex, hex, river)"}


class ExpressionError(Exception):
    """A name, call or kind the expression language does not accept."""

    def __init__(self, code: str, message: str, hint: str | None = None, node: list | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.node = node  # the sub-expression (a node of the tree) the problem is in, for its place in the file


@dataclass(frozen=True)
class Typed:
    """A compiled (sub-)expression: its Python, its kind, and what it depends on."""

    python: str
    kind: str
    depends: frozenset[str] = frozenset()


def _uses(*parts: Typed | str) -> frozenset[str]:
    result: set[str] = set()
    for part in parts:
        result |= {part} if isinstance(part, str) else part.depends
    return frozenset(result)


SMALL_SET = 6  # the elements of a set that is not the game's units or hexes, reckoned for MAX_QUANTIFIER_WORK


@dataclass
class ExpressionCompiler:
    """Turns trees into Python source, checking kinds.

    `names_by_kind` maps a kind (kinds.SIDE, kinds.ZONE, kinds.HEX, ...) to the
    game's ids of that kind, usable as bare names. `constants` are further ids
    of no particular kind, read as texts. `objectives`, when given, are the
    hexes `controls(SIDE, HEX)` may name. `about_unit`
    says whether the expression is about a unit (an award triggered by one),
    which makes `unit`, `strength`, `move`, `side` and `has_flag(F)` available.
    """

    constants: frozenset[str] = frozenset()
    names_by_kind: dict[str, frozenset[str]] = field(default_factory=dict)
    about_unit: bool = True
    objectives: frozenset[str] | None = None  # the hexes whose holder the engine tracks; None: not checked
    within: frozenset[str] = frozenset()  # the field's own context: IN_TRACE, IN_BATTLE (their names exist there only)
    about_marker: bool = False  # a marker's `expires`: phases_since_marked() is available
    # The work of the quantifiers being compiled, innermost last (see `_looped`).
    _work: list[int] = field(default_factory=list, init=False, repr=False, compare=False)

    def for_unit(self, about_unit: bool) -> "ExpressionCompiler":
        """The same compiler for expressions that are (or are not) about a unit."""
        return ExpressionCompiler(self.constants, self.names_by_kind, about_unit, self.objectives)

    def inside(self, context: str, about_unit: bool = False, also: tuple[str, ...] = ()) -> "ExpressionCompiler":
        """The same compiler for a field with names of its own (a trace's hex, a battle's attackers), and those
        of the contexts `also` (a retreat's conditions are about a hex: inside(IN_HEX) ...). A trace is about hexes."""
        within = {context, *also} | ({IN_HEX} if context in (IN_TRACE, IN_MOVE) else set())
        return ExpressionCompiler(self.constants, self.names_by_kind, about_unit, self.objectives,
                                  within=frozenset(within))

    def check_within(self, what: str, depends: frozenset[str] | str) -> None:
        for context in _CONTEXT_WHERE:
            if context in ({depends} if isinstance(depends, str) else depends) and context not in self.within:
                raise ExpressionError("unknown-name", f"'{what}' exists only {_CONTEXT_WHERE[context]}",
                                      _CONTEXT_HINT.get(context))

    def for_marker(self) -> "ExpressionCompiler":
        """The compiler for a marker's `expires`, about no unit."""
        return ExpressionCompiler(self.constants, self.names_by_kind, False, self.objectives, about_marker=True)

    # ------------------------------------------------------------ entry points
    def source(self, tree: list, want: str | None = None) -> str:
        """The Python of `tree`, which must be of kind `want` when given."""
        return self.typed(tree, want).python

    def typed(self, tree: list, want: str | None = None) -> Typed:
        result = self.compile(tree, {}, (want,) if want else None)
        if want is not None and result.kind != want:
            raise self.wrong_kind(f"expected {k.article(want)} here, found {k.article(result.kind)}", tree, want)
        return result

    # ------------------------------------------------------------ the walk
    def compile(self, tree: list, scope: dict[str, str], want: tuple[str, ...] | None) -> Typed:
        try:
            return self._compile(tree, scope, want)
        except ExpressionError as error:
            if error.node is None:  # the innermost expression the problem was found in
                error.node = tree
            raise

    def _compile(self, tree: list, scope: dict[str, str], want: tuple[str, ...] | None) -> Typed:
        form = tree[0]
        if form in ("const", "name"):
            return self.leaf(tree, scope, want)
        if form == "op":
            return self.operator(tree, scope)
        if form == "neg":
            inner = self.expect(tree[1], scope, k.NUMBER, "'-'")
            return Typed(f"(-{inner.python})", k.NUMBER, inner.depends)
        if form == "not":
            inner = self.expect(tree[1], scope, k.BOOL, "'not'")
            return Typed(f"(not {inner.python})", k.BOOL, inner.depends)
        if form in ("and", "or"):
            parts = [self.expect(t, scope, k.BOOL, f"'{form}'") for t in tree[1]]
            return Typed("(" + f" {form} ".join(p.python for p in parts) + ")", k.BOOL, _uses(*parts))
        if form == "attr":
            return self.attribute(tree, scope)
        if form == "call":
            return self.call(tree[1], tree[2], tree[3], scope, want)
        if form in ("where", "for"):
            raise ExpressionError("wrong-kind", "'where' and 'for' bind a variable only inside count(), any(), all(), "
                                  "sum(), min() or max()", "write count(u in units() where ...) or sum(u.strength for u in ...)")
        raise AssertionError(form)

    def expect(self, tree: list, scope: dict[str, str], kind: str, where: str) -> Typed:
        result = self.compile(tree, scope, (kind,))
        if result.kind != kind:
            raise self.wrong_kind(f"{where} needs {k.article(kind)}, found {k.article(result.kind)}", tree, kind)
        return result

    def wrong_kind(self, message: str, tree: list, kind: str) -> ExpressionError:
        hint = None
        if kind == k.NUMBER and tree[0] in ("op", "and", "or", "not"):
            hint = "a condition is not a number: write if(CONDITION, 1, 0)"
        elif kind == k.BOOL:
            hint = "compare it: write ... == ..., ... > 0"
        return ExpressionError("wrong-kind", f"{message} ({unparse(tree)})", hint, node=tree)

    # ------------------------------------------------------------ names and literals
    def candidates(self, tree: list, scope: dict[str, str]) -> list[Typed]:
        """Every reading of a literal or bare name, most likely first."""
        value = tree[1]
        if tree[0] == "const":
            if isinstance(value, bool):
                return [Typed(repr(value), k.BOOL)]
            readings = []
            hex_number = self.hex_named(value) if isinstance(value, (int, str)) else None
            if hex_number is not None:
                readings.append(Typed(repr(hex_number), k.HEX))
            if isinstance(value, (int, float)):
                readings.append(Typed(repr(value), k.NUMBER))
            elif isinstance(value, str):
                readings.append(Typed(repr(value), k.TEXT))
            return readings
        name = value
        if name in scope:
            return [Typed(f"v_{name}", scope[name])]
        readings = []
        builtin = NAMES.get(name)
        for context in self.within:  # a name the field's own context gives a meaning of its own
            builtin = CONTEXT_NAMES.get(context, {}).get(name, builtin)
        if builtin is not None and builtin.kind not in LATE_KINDS:
            readings.append(Typed(builtin.python, builtin.kind, frozenset({builtin.depends})))
        if name in self.names_by_kind.get(k.VARIABLE, ()):  # a game variable: its value, or (for set/add) itself
            value_kind = k.BOOL if name in self.names_by_kind.get(k.FLAG_VARIABLES, ()) else k.NUMBER
            python = f"(ctx.variable({name!r}) == True)" if value_kind == k.BOOL else f"ctx.variable({name!r})"  # no builtins there
            readings.append(Typed(python, value_kind, frozenset({POSITION})))
            readings.append(Typed(repr(name), k.VARIABLE))
        for kind in _ID_KINDS:
            if name in self.names_by_kind.get(kind, ()):
                if kind == k.UNIT:
                    readings.append(Typed(f"ctx.unit_named({name!r})", k.UNIT, frozenset({STATIC})))
                else:
                    readings.append(Typed(repr(name), kind))
                if kind in (k.ZONE, k.EDGE):
                    readings.append(Typed(f"ctx.zone({name!r})", k.HEXES, frozenset({STATIC})))
                    readings.append(Typed(repr(name), k.AREA))
        if builtin is not None and builtin.kind in LATE_KINDS:  # after the game's ids: a zone may be named 'exited'
            readings.append(Typed(builtin.python, builtin.kind))
        if not readings and name in self.constants:
            readings.append(Typed(repr(name), k.TEXT))
        return readings

    def hex_named(self, value: int | str) -> str | None:
        """The map's hex a number names (`102` is hex 0102 on a map numbered CCRR), or None."""
        hexes = self.names_by_kind.get(k.HEX, frozenset())
        text = str(value)
        if text in hexes or not text.isdigit() or not hexes:
            return text if text in hexes else None
        padded = text.zfill(len(next(iter(hexes))))
        return padded if padded in hexes else None

    def leaf(self, tree: list, scope: dict[str, str], want: tuple[str, ...] | None) -> Typed:
        value = tree[1]
        if (tree[0] == "const" and want and k.HEX in want and k.NUMBER not in want and self.names_by_kind.get(k.HEX)
                and not isinstance(value, bool) and isinstance(value, (int, str)) and str(value).isdigit()
                and self.hex_named(value) is None):
            raise ExpressionError("hex-off-map", f"hex {value} is not on the map")
        readings = self.candidates(tree, scope)
        if not readings:
            name = tree[1]
            known = sorted(set(NAMES) | set(scope) | self.constants | {n for names in self.names_by_kind.values() for n in names})
            raise ExpressionError("unknown-name", f"unknown name '{name}' in expression", did_you_mean(name, known))
        chosen = next((r for r in readings if want and r.kind in want), readings[0])
        self.check_within(str(tree[1]), chosen.depends)
        if ABOUT_UNIT in chosen.depends and not self.about_unit:
            raise ExpressionError("no-unit-here", f"'{tree[1]}' is the unit an award is about, and this expression is about no unit",
                                  "only awards triggered by a unit (holds, exits, eliminated) have one")
        return chosen

    def attribute(self, tree: list, scope: dict[str, str]) -> Typed:
        owner = self.compile(tree[1], scope, (k.UNIT,))
        name = tree[2]
        if owner.kind != k.UNIT:
            raise self.wrong_kind(f"'.{name}' reads an attribute of a unit, not of {k.article(owner.kind)}", tree[1], k.UNIT)
        found = UNIT_ATTRIBUTES.get(name)
        if found is None:
            raise ExpressionError("unknown-name", f"a unit has no attribute '{name}'", did_you_mean(name, sorted(UNIT_ATTRIBUTES)))
        return Typed(found.python.format(owner.python), found.kind, _uses(owner, found.depends))

    # ------------------------------------------------------------ operators
    def operator(self, tree: list, scope: dict[str, str]) -> Typed:
        op, left_tree, right_tree = tree[1], tree[2], tree[3]
        if op in ("+", "-"):  # on two sets of one kind: their union (members of the left first), or the difference
            left = self.compile(left_tree, scope, (k.NUMBER, k.UNITS, k.HEXES))
            if left.kind in k.ELEMENT:
                right = self.compile(right_tree, scope, (left.kind,))
                if right.kind != left.kind:
                    raise ExpressionError("wrong-kind", f"'{op}' combines two sets of one kind: {left.kind} {op} "
                                          f"{k.article(right.kind)} ({unparse(tree)})",
                                          "units and hexes do not mix: select(u in units() where u.hex in HEXES) "
                                          "gives the units standing in a set of hexes" if right.kind in k.ELEMENT
                                          else "count(...) gives a set's size as a number", node=right_tree)
                method = "union" if op == "+" else "without"
                return Typed(f"ctx.{method}({left.python}, {right.python})", left.kind, _uses(left, right))
        if op in _ARITHMETIC or op in _ORDER:
            left = self.expect(left_tree, scope, k.NUMBER, f"'{op}'")
            right = self.expect(right_tree, scope, k.NUMBER, f"'{op}'")
            return Typed(f"({left.python} {op} {right.python})", k.NUMBER if op in _ARITHMETIC else k.BOOL, _uses(left, right))
        if op == "in":
            whole = self.compile(right_tree, scope, (k.UNITS, k.HEXES))
            if whole.kind not in k.ELEMENT:
                raise self.wrong_kind(f"'in' needs units or hexes on its right, found {k.article(whole.kind)}", right_tree, k.HEXES)
            member = self.expect(left_tree, scope, k.ELEMENT[whole.kind], "'in'")
            return Typed(f"({member.python} in {whole.python})", k.BOOL, _uses(member, whole))
        assert op in _EQUALITY, op
        # Read a bare name or literal in the light of the other side: `u.hex == 0701`, `0701 == u.hex`.
        if left_tree[0] in ("const", "name") and right_tree[0] not in ("const", "name"):
            right = self.compile(right_tree, scope, None)
            left = self.compile(left_tree, scope, (right.kind, k.TEXT))
        else:
            left = self.compile(left_tree, scope, None)
            right = self.compile(right_tree, scope, (left.kind, k.TEXT))
            if left.kind == k.TEXT and right.kind != k.TEXT:
                left = self.compile(left_tree, scope, (right.kind, k.TEXT))
        comparable = left.kind == right.kind or {left.kind, right.kind} <= k.ID_KINDS | {k.TEXT} and k.TEXT in (left.kind, right.kind)
        if not comparable:
            raise self.wrong_kind(f"'{op}' compares values of one kind, not {k.article(left.kind)} and {k.article(right.kind)}",
                                  tree, left.kind)
        if left.kind == k.UNIT and right.kind == k.UNIT:
            return Typed(f"({left.python}.id {op} {right.python}.id)", k.BOOL, _uses(left, right))
        return Typed(f"({left.python} {op} {right.python})", k.BOOL, _uses(left, right))

    # ------------------------------------------------------------ calls
    def call(self, name: str, args: list, keywords: dict[str, list], scope: dict[str, str],
             want: tuple[str, ...] | None) -> Typed:
        if name in FILTERS and len(args) == 1 and not keywords and _binding(args[0]):
            return self.quantifier(name, args[0], scope)
        if name in AGGREGATES and args and args[0][0] == "for":
            if len(args) != 1 or keywords:
                raise ExpressionError("argument-count", f"'{name}(V for x in S)' takes that one argument")
            return self.aggregate(name, args[0], scope)
        for arg in args:
            if arg[0] in ("where", "for"):
                example = "count(u in S where C)" if arg[0] == "where" else "sum(V for u in S where C)"
                raise ExpressionError("wrong-kind", f"'{name}' takes no '{arg[0]}' argument",
                                      f"'{arg[0]}' is written inside count, any, all or sum, min, max: {example}")
        if name == "if":
            return self.if_call(args, keywords, scope, want)
        if name == "any" and len(args) == 1 and not keywords:
            whole = self.compile(args[0], scope, (k.UNITS, k.HEXES))
            if whole.kind not in k.ELEMENT:
                raise self.wrong_kind(f"'any' needs units or hexes, found {k.article(whole.kind)}", args[0], k.UNITS)
            return self._kept_per_hex(Typed(f"(len({whole.python}) > 0)", k.BOOL, whole.depends), scope)
        forms = FUNCTIONS.get(name)
        if forms is None:
            if name in FILTERS or name in AGGREGATES:
                example = "count(u in units() where u.strength > 2)" if name in FILTERS else "sum(u.strength for u in units())"
                raise ExpressionError("argument-count", f"'{name}' takes a variable bound to a set, such as {example}")
            raise ExpressionError("unknown-function", f"unknown function '{name}'", did_you_mean(name, known_functions()))
        allowed = {key for form in forms for key in form.keywords}
        if keywords and not allowed:  # `if(turn = 1, 2, 3)`: '=' written for '=='
            keyword = next(iter(keywords))
            raise ExpressionError("unknown-argument", f"'{name}' takes no named arguments, found '{keyword} = ...'",
                                  f"to compare, write '{keyword} == ...'")
        fitting = [f for f in forms if len(args) == len(f.params) or (f.variadic and len(args) >= len(f.params))]
        if not fitting:
            counts = sorted({len(f.params) for f in forms})
            low, high = counts[0], counts[-1]
            expected = str(low) if low == high and not any(f.variadic for f in forms) else (
                f"{low} or more" if any(f.variadic for f in forms) else f"{low} to {high}")
            raise ExpressionError("argument-count", f"'{name}' takes {expected} argument(s), not {len(args)}")
        for keyword in keywords:
            if keyword not in allowed:
                raise ExpressionError("unknown-argument", f"'{name}' has no argument '{keyword}'", did_you_mean(keyword, sorted(allowed)))
        if name == "controls" and len(args) == 2 and self.objectives is not None:
            self.check_objective(args[1])
        if name in ("traced", "traced_hex", "supplied") and IN_TRACE in self.within:
            raise ExpressionError("trace-cycle", f"a trace's conditions may not ask '{name}': the trace would wait for itself",
                                  "say what blocks the path with the position: enemy_occupied(hex), enemy_zoc(hex) ...")
        if name == "supplied" and "supply" not in self.names_by_kind.get(k.TRACE, ()):
            raise ExpressionError("unknown-function", "'supplied(UNIT)' is short for traced(supply, UNIT), and the game has "
                                  "no trace named supply", "write 'trace supply { ... }', or traced(TRACE, UNIT)")
        fitting = [f for f in fitting if not f.within or f.within in self.within] or fitting
        failure: ExpressionError | None = None
        for form in fitting:
            try:
                applied = self.apply(form, args, keywords, scope)
            except ExpressionError as error:
                failure = failure or error
                continue
            return self._kept_per_hex(applied, scope) if applied.kind in k.ELEMENT or name in _COSTLY else applied
        assert failure is not None
        raise failure

    def check_objective(self, tree: list) -> None:
        """`controls(SIDE, 0303)` asks about a hex whose holder the engine tracks: a hex of a 'holds' award."""
        hex_number = self.hex_named(tree[1]) if tree[0] == "const" and isinstance(tree[1], (int, str)) else None
        if hex_number is not None and self.objectives is not None and hex_number not in self.objectives:
            raise ExpressionError("wrong-kind-argument", f"argument 2 of 'controls' must be an objective hex, not {tree[1]}",
                                  "the engine tracks the last side in for the hexes of holds(...) awards and of "
                                  f"movement {{ control_of }} only: write control_of = [{tree[1]}] (or an award "
                                  f"when = holds({tree[1]}))", node=tree)

    def apply(self, form: Function, args: list, keywords: dict[str, list], scope: dict[str, str]) -> Typed:
        self.check_within(form.signature(), form.within or form.depends)
        if form.depends == ABOUT_UNIT and not self.about_unit:
            raise ExpressionError("no-unit-here", f"'{form.signature()}' is about the unit an award is about, and this "
                                  "expression is about no unit", "name the unit: has_flag(u, FLAG)")
        if form.depends == ABOUT_MARKER and not self.about_marker:
            raise ExpressionError("no-marker-here", f"'{form.name}' is about the marker whose expiry is being decided, "
                                  "and this expression is no marker's 'expires'", "use it in marker NAME { expires = ... }")
        params = list(form.params) + [form.params[-1]] * (len(args) - len(form.params)) if form.variadic else list(form.params)
        parts = [self.argument(form.name, index, tree, kind, scope) for index, (tree, kind) in enumerate(zip(args, params))]
        named = {key: self.argument(form.name, key, tree, form.keywords[key], scope) for key, tree in keywords.items()}
        python = form.python.format(*(p.python for p in parts), args=", ".join(p.python for p in parts),
                                    keywords=", ".join(f"{key}={p.python}" for key, p in named.items()))
        if form.variadic and len(parts) == 1:  # min(x) is x (Python's min of one number would want a list)
            python = parts[0].python
        return Typed(python, form.returns, _uses(*parts, *named.values(), form.depends, *filter(None, [form.within])))

    def argument(self, function: str, where: str | int, tree: list, kind: str, scope: dict[str, str]) -> Typed:
        names_a_thing = tree[0] in ("name", "const") and kind in k.ID_KINDS | {k.AREA, k.UNIT}
        try:
            result = self.compile(tree, scope, (kind,))
        except ExpressionError as error:
            if not (names_a_thing and error.code == "unknown-name") or tree[1] in NAMES:  # `hex` out of its field
                raise
            result = Typed("", k.TEXT)  # an unknown name where a zone belongs: say which zones there are
        if result.kind == kind:
            return result
        label = f"'{where}'" if isinstance(where, str) else f"argument {where + 1}"
        if names_a_thing:
            wanted = "zone" if kind == k.AREA else kind
            known = sorted(self.names_by_kind.get(k.ZONE, frozenset()) | self.names_by_kind.get(k.EDGE, frozenset())
                           if kind == k.AREA else self.names_by_kind.get(kind, frozenset())) + self.builtin_names(kind)
            raise ExpressionError("wrong-kind-argument", f"{label} of '{function}' must name {k.article(wanted)}, not '{tree[1]}'",
                                  did_you_mean(str(tree[1]), known), node=tree)
        raise self.wrong_kind(f"{label} of '{function}' must be {k.article(kind)}, not {k.article(result.kind)}", tree, kind)

    def builtin_names(self, kind: str) -> list[str]:
        """The built-in names of a kind this field may use (`hex`, `from_hex` where a hex belongs), for did-you-mean."""
        return [n for n, name in NAMES.items() if name.kind == kind and (name.depends != ABOUT_UNIT or self.about_unit)
                and (name.depends not in _CONTEXT_WHERE or name.depends in self.within)]

    def if_call(self, args: list, keywords: dict, scope: dict[str, str], want: tuple[str, ...] | None) -> Typed:
        if keywords:
            keyword = next(iter(keywords))
            raise ExpressionError("unknown-argument", f"'if' takes no named arguments, found '{keyword} = ...'",
                                  f"to compare, write '{keyword} == ...'")
        if len(args) != 3:
            raise ExpressionError("argument-count", f"'if' takes 3 argument(s), not {len(args)}")
        condition = self.expect(args[0], scope, k.BOOL, "the condition of 'if'")
        then = self.compile(args[1], scope, want)
        otherwise = self.compile(args[2], scope, (then.kind,))
        if otherwise.kind != then.kind:
            raise self.wrong_kind(f"both values of 'if' must be of one kind, not {k.article(then.kind)} and "
                                  f"{k.article(otherwise.kind)}", args[2], then.kind)
        return Typed(f"({then.python} if {condition.python} else {otherwise.python})", then.kind, _uses(condition, then, otherwise))

    # ------------------------------------------------------------ quantifiers
    def bind(self, binding: list, scope: dict[str, str]) -> tuple[str, Typed, dict[str, str]]:
        """`u in S`: the variable, the set, and the scope inside the quantifier."""
        if not _binding(binding):
            raise ExpressionError("wrong-kind", f"expected 'NAME in SET' to bind a variable, found {unparse(binding)}",
                                  "write count(u in units(side = us) where u.strength > 2)")
        variable = binding[2][1]
        if variable in NAMES or any(variable in names for names in self.names_by_kind.values()):
            raise ExpressionError("wrong-kind", f"the variable '{variable}' hides a name of the game",
                                  "give the variable a name of its own, such as u or h")
        whole = self.compile(binding[3], scope, (k.UNITS, k.HEXES))
        if whole.kind not in k.ELEMENT:
            raise self.wrong_kind(f"a variable ranges over units or hexes, not {k.article(whole.kind)}", binding[3], k.UNITS)
        return variable, whole, {**scope, variable: k.ELEMENT[whole.kind]}

    def _set_size(self, tree: list) -> int:
        """How many elements a set may hold at most: the game's units or hexes for units(...) and hexes(...)
        (filtered or not) and a select() of them; SMALL_SET for the rest (a hex's neighbours, the units in
        a hex, a battle's units and hexes), which are bounded by the map's shape or by a battle."""
        if tree and tree[0] == "call":
            if tree[1] in ("units", "hexes"):
                return max(1, len(self.names_by_kind.get(k.UNIT if tree[1] == "units" else k.HEX, ())))
            if tree[1] == "select" and len(tree[2]) == 1:
                argument = tree[2][0]
                binding = argument[1] if argument and argument[0] == "where" else argument
                if _binding(binding):
                    return self._set_size(binding[3])
        return SMALL_SET

    def _looped(self, name: str, loop: Callable[[Callable[[int], None]], Typed]) -> Typed:
        """Compile a quantifier or aggregate and reckon its work: the units or hexes it visits at most in one
        evaluation (the game's count of them, times the work of what it asks of each, plus its set's own).
        Nested ones multiply: `count` in `count` in `count` over 400 units visits 64 million. Past
        MAX_QUANTIFIER_WORK an expression is refused: it would take seconds each time it is evaluated."""
        self._work.append(0)  # the work of the set's own quantifiers, then of the body's
        looped: list[tuple[int, int]] = []  # (the set's work, the set's size), once the set is compiled

        def enter_body(set_size: int) -> None:
            looped.append((self._work.pop(), set_size))
            self._work.append(0)
        try:
            typed = loop(enter_body)
        finally:
            body_work = self._work.pop()
        (set_work, size), = looped
        work = set_work + size * max(1, body_work)
        if self._work:
            self._work[-1] += work
        elif work > MAX_QUANTIFIER_WORK:
            raise ExpressionError("limit-quantifier-work",
                                  f"this '{name}' may visit {work:,} units and hexes each time it is evaluated "
                                  f"(at most {MAX_QUANTIFIER_WORK:,}): a quantifier inside another multiplies their counts",
                                  "narrow the inner sets (units(side = ...), hexes(zone = ...)), or compute the inner "
                                  "value once, outside the outer quantifier")
        return typed

    def quantifier(self, name: str, argument: list, scope: dict[str, str]) -> Typed:
        return self._kept_per_hex(
            self._looped(name, lambda enter_body: self._quantifier(name, argument, scope, enter_body)), scope)

    def _quantifier(self, name: str, argument: list, scope: dict[str, str], enter_body: Callable[[int], None]) -> Typed:
        binding, condition_tree = (argument[1], argument[2]) if argument[0] == "where" else (argument, None)
        variable, whole, inner = self.bind(binding, scope)
        enter_body(self._set_size(binding[3]))
        v = f"v_{variable}"
        if name == "select":  # a subset: `select(h in hexes(terrain = city) where ...)`
            if condition_tree is None:
                return whole
            condition = self.expect(condition_tree, inner, k.BOOL, "the condition of 'select'")
            return Typed(f"[{v} for {v} in {whole.python} if {condition.python}]", whole.kind, _uses(whole, condition))
        if condition_tree is None:
            if name == "all":
                raise ExpressionError("argument-count", "'all' needs a condition: all(u in S where CONDITION)")
            python = f"len({whole.python})" if name == "count" else f"(len({whole.python}) > 0)"
            return Typed(python, k.NUMBER if name == "count" else k.BOOL, whole.depends)
        condition = self.expect(condition_tree, inner, k.BOOL, f"the condition of '{name}'")
        if name == "count":
            python = f"len([{v} for {v} in {whole.python} if {condition.python}])"
        else:
            python = f"{name}({condition.python} for {v} in {whole.python})"
        return Typed(python, k.NUMBER if name == "count" else k.BOOL, _uses(whole, condition))

    def aggregate(self, name: str, argument: list, scope: dict[str, str]) -> Typed:
        return self._kept_per_hex(
            self._looped(name, lambda enter_body: self._aggregate(name, argument, scope, enter_body)), scope)

    def _kept_per_hex(self, typed: Typed, scope: dict[str, str]) -> Typed:
        """`typed`, a quantifier, an aggregate or a costly call, written to be worked out once for every hex a
        condition about a hex is asked of in one position (EvalContext.once) when it reads neither the hex nor
        anything else that varies from one asking to the next, nor a variable of a quantifier around it.

        `min(distance_to(north, u.hex) for u in units(side = enemy))` in a condition asked of every entry hex of a
        unit: worked out for the first, read for the others. The part's Python stays as it is, in a lambda
        `ctx.once` calls or not, under a digest of that Python (the same part in two conditions is one value)."""
        if (not self.within & _ASKED_HEX_BY_HEX or typed.depends & _VARYING or _READS_VARYING.search(typed.python)
                or any(re.search(rf"\bv_{variable}\b", typed.python) for variable in scope)):
            return typed
        key = "k" + hashlib.sha1(typed.python.encode()).hexdigest()[:12]
        return Typed(f"ctx.once({key!r}, lambda: {typed.python})", typed.kind, typed.depends)

    def _aggregate(self, name: str, argument: list, scope: dict[str, str], enter_body: Callable[[int], None]) -> Typed:
        _, value_tree, binding, condition_tree = argument
        variable, whole, inner = self.bind(binding, scope)
        enter_body(self._set_size(binding[3]))
        v = f"v_{variable}"
        value = self.expect(value_tree, inner, k.NUMBER, f"the value of '{name}'")
        condition = self.expect(condition_tree, inner, k.BOOL, f"the condition of '{name}'") if condition_tree else None
        loop = f"{value.python} for {v} in {whole.python}" + (f" if {condition.python}" if condition else "")
        python = f"sum({loop})" if name == "sum" else f"{name}(({loop}), default=0)"
        return Typed(python, k.NUMBER, _uses(whole, value, *([condition] if condition else [])))


def compiler_for(game: Game, about_unit: bool = False) -> ExpressionCompiler:
    """A compiler over a built game's ids, for tools and tests that evaluate expressions of their own."""
    gmap = game.map
    names = {k.SIDE: frozenset(game.sides), k.UNIT: frozenset(game.units), k.UNIT_TYPE: frozenset(game.unit_types),
             k.TERRAIN: frozenset(game.terrain), k.PHASE: frozenset(p.id for p in game.sequence),
             k.FLAG: frozenset(f for u in game.units.values() for f in u.flags),
             k.ZONE: frozenset(gmap.zones if gmap else ()), k.EDGE: frozenset(gmap.edges if gmap else ()),
             k.HEX: frozenset(gmap.hexes if gmap else ()), k.TRACE: frozenset(game.traces),
             k.MARKER: frozenset(game.markers), k.OPTION: frozenset(game.options),
             k.VARIABLE: frozenset(game.variables),
             k.FLAG_VARIABLES: frozenset(v for v, var in game.variables.items() if isinstance(var.initial, bool))}
    objectives = frozenset(h for a in game.awards if a.trigger.kind == "holds" for h in a.trigger.hexes)
    objectives |= frozenset(game.movement.control_of)
    return ExpressionCompiler(frozenset(), names, about_unit, objectives)


def _binding(tree: list) -> bool:
    """Whether `tree` is `NAME in SET` or `NAME in SET where CONDITION` (a quantifier's argument)."""
    if tree[0] == "where":
        tree = tree[1]
    return tree[0] == "op" and tree[1] == "in" and tree[2][0] == "name"


def depth(typed: Typed) -> str:
    """The most changeable thing an expression depends on: static, position or unit."""
    return max(typed.depends, key=_DEPTH.index, default=STATIC)


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
SAFE_BUILTINS: dict[str, Callable[..., Any]] = {"len": len, "min": min, "max": max, "abs": abs, "sum": sum, "any": any,
                                                "all": all}
