"""What the checker accepts, the engine plays: any expression the compiler accepts evaluates, in a running
game and in the stand-in context the AI uses, to a value of the kind the compiler gave it."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec.compile import kinds as k
from rulec.compile.expressions import ExpressionError, compiler_for, to_function
from rulec.compile.functions import FUNCTIONS, NAMES, UNIT_ATTRIBUTES
from rulec.engine import Action, new_game
from rulec.engine.context import EngineContext
from rulec.pipeline import load_game
from rulec.runtime.context import StandInContext
from rulec.runtime.model import Unit

GAME = load_game(str(Path(__file__).resolve().parent / "games" / "quantified_awards.rulec"))
STATE = new_game(GAME)
STATE.apply_action(Action.move("r1", "0201"))


@st.composite
def typed_tree(draw, kind: str, depth: int = 4, scope: frozenset = frozenset()):
    """A well-kinded expression tree of `kind` (the compiler must accept it and it must evaluate to that kind)."""
    def sub(of: str, inner: frozenset = scope):
        return draw(typed_tree(of, depth - 1, inner))

    leaves = {
        k.NUMBER: [["const", draw(st.integers(0, 4))], ["name", "turn"], ["name", "turns"], ["name", "lead"], ["name", "lead_ratio"]],
        k.BOOL: [["name", "true"], ["name", "false"]],
        k.SIDE: [["name", "red"], ["name", "blue"], ["name", "phasing_side"], ["name", "leader"]],
        k.HEX: [["const", "0303"], ["const", "0501"]] + ([["name", "h"]] if "h" in scope else []),
        k.UNIT: [["name", "r1"], ["name", "b1"], ["name", "unit"]] + ([["name", "u"]] if "u" in scope else []),
        k.UNITS: [["call", "units", [], {}]],
        k.HEXES: [["name", "ring"], ["name", "east"], ["name", "objectives"]],
        k.PHASE: [["name", "phase"], ["name", "red_move"]],
        k.STATUS: [["name", "on_map"], ["name", "exited"]],
        k.TERRAIN: [["name", "forest"]],
        k.UNIT_TYPE: [["name", "armour"]],
    }[kind]
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(leaves))
    number, condition = k.NUMBER, k.BOOL
    forms = {
        k.NUMBER: [
            lambda: ["op", draw(st.sampled_from(["+", "-", "*", "/", "%"])), sub(number), sub(number)],
            lambda: ["neg", sub(number)],
            lambda: ["attr", sub(k.UNIT), draw(st.sampled_from(["strength", "move"]))],
            lambda: ["call", "count", [sub(draw(st.sampled_from([k.UNITS, k.HEXES])))], {}],
            lambda: ["call", "vp", [sub(k.SIDE)], {}],
            lambda: ["call", "distance", [sub(k.HEX), sub(k.HEX)], {}],
            lambda: ["call", "strength_of", [sub(k.UNITS)], {}],
            lambda: ["call", draw(st.sampled_from(["min", "max"])), [sub(number) for _ in range(draw(st.integers(1, 3)))], {}],
            lambda: ["call", "abs", [sub(number)], {}],
            lambda: ["call", "if", [sub(condition), sub(number), sub(number)], {}],
            lambda: ["call", "count", [["where", ["op", "in", ["name", "u"], sub(k.UNITS)], sub(condition, scope | {"u"})]], {}],
            lambda: ["call", draw(st.sampled_from(["sum", "min", "max"])),
                     [["for", sub(number, scope | {"h"}), ["op", "in", ["name", "h"], sub(k.HEXES)], sub(condition, scope | {"h"})]], {}],
        ],
        k.BOOL: [
            lambda: ["op", draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="])), sub(number), sub(number)],
            lambda: (lambda of: ["op", draw(st.sampled_from(["==", "!="])), sub(of), sub(of)])(
                draw(st.sampled_from([k.SIDE, k.HEX, k.UNIT, k.PHASE, k.STATUS, k.TERRAIN, k.UNIT_TYPE]))),
            lambda: ["op", "in", sub(k.UNIT), sub(k.UNITS)],
            lambda: ["op", "in", sub(k.HEX), sub(k.HEXES)],
            lambda: ["not", sub(condition)],
            lambda: [draw(st.sampled_from(["and", "or"])), [sub(condition), sub(condition)]],
            lambda: ["call", "adjacent", [sub(k.HEX), sub(k.HEX)], {}],
            lambda: ["call", "occupied", [sub(k.HEX)], {}],
            lambda: ["call", "occupied_by", [sub(k.SIDE), sub(k.HEX)], {}],
            lambda: ["call", "controls", [sub(k.SIDE), ["const", "0501"]], {}],
            lambda: ["call", draw(st.sampled_from(["moved", "attacked"])), [sub(k.UNIT)], {}],
            lambda: ["call", "has_terrain", [sub(k.HEX), sub(k.TERRAIN)], {}],
            lambda: ["call", draw(st.sampled_from(["any", "all"])),
                     [["where", ["op", "in", ["name", "h"], sub(k.HEXES)], sub(condition, scope | {"h"})]], {}],
            lambda: ["call", "any", [sub(k.UNITS)], {}],
        ],
        k.SIDE: [lambda: ["attr", sub(k.UNIT), "side"], lambda: ["call", "if", [sub(condition), sub(k.SIDE), sub(k.SIDE)], {}]],
        k.HEX: [lambda: ["attr", sub(k.UNIT), "hex"]],
        k.HEXES: [lambda: ["call", "hexes", [], {"terrain": sub(k.TERRAIN), "zone": ["name", "ring"]}]],
        k.UNITS: [lambda: ["call", "units_at", [sub(k.HEX)], {}],
                  lambda: ["call", "units", [], {"side": sub(k.SIDE), "status": sub(k.STATUS)}],
                  lambda: ["call", "units", [], {"zone": ["name", "ring"], "type": ["name", "infantry"]}]],
        k.STATUS: [lambda: ["attr", sub(k.UNIT), "status"]],
        k.TERRAIN: [lambda: ["call", "terrain", [sub(k.HEX)], {}]],
        k.UNIT_TYPE: [lambda: ["attr", sub(k.UNIT), "type"]],
    }.get(kind)
    if not forms:
        return draw(st.sampled_from(leaves))
    return draw(st.sampled_from(forms))()


# Trees of any shape, mostly ill-kinded: the compiler must refuse them or compile them to something that evaluates.
GAME_IDS = ["red", "blue", "forest", "clear", "infantry", "armour", "ring", "east", "red_move", "r1", "r2", "b1", "0303", "0501"]
VARIABLES = ["u", "h"]
OPERATORS = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "in"]
CALLS = sorted(set(FUNCTIONS) | {"count", "any", "all", "sum", "min", "max", "if"})
KEYWORDS = ["side", "zone", "hex", "type", "flag", "status"]

leaves = st.one_of(
    st.integers(min_value=0, max_value=4).map(lambda n: ["const", n]),
    st.sampled_from(["0101", "0303"]).map(lambda h: ["const", h]),
    st.sampled_from(sorted(NAMES) + GAME_IDS + VARIABLES).map(lambda n: ["name", n]),
)


def _extend(children):
    binding = st.tuples(st.sampled_from(VARIABLES), children).map(lambda p: ["op", "in", ["name", p[0]], p[1]])
    return st.one_of(
        st.tuples(st.sampled_from(OPERATORS), children, children).map(lambda p: ["op", *p]),
        children.map(lambda c: ["neg", c]),
        children.map(lambda c: ["not", c]),
        st.lists(children, min_size=2, max_size=3).map(lambda cs: ["and", cs]),
        st.lists(children, min_size=2, max_size=3).map(lambda cs: ["or", cs]),
        st.tuples(children, st.sampled_from(sorted(UNIT_ATTRIBUTES) + ["strenght"])).map(lambda p: ["attr", *p]),
        st.tuples(st.sampled_from(CALLS), st.lists(children, max_size=3),
                  st.dictionaries(st.sampled_from(KEYWORDS), children, max_size=2)).map(lambda p: ["call", *p]),
        st.tuples(st.sampled_from(["count", "any", "all"]), binding, children).map(
            lambda p: ["call", p[0], [["where", p[1], p[2]]], {}]),
        st.tuples(st.sampled_from(["sum", "min", "max"]), children, binding, st.none() | children).map(
            lambda p: ["call", p[0], [["for", p[1], p[2], p[3]]], {}]),
    )


trees = st.recursive(leaves, _extend, max_leaves=8)


def _of_kind(value, kind: str) -> bool:
    if kind == k.NUMBER:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == k.BOOL:
        return isinstance(value, bool)
    if kind == k.UNIT:
        return isinstance(value, Unit)
    if kind == k.UNITS:
        return isinstance(value, Sequence) and all(isinstance(u, Unit) for u in value)
    if kind == k.HEXES:
        return isinstance(value, Collection) and all(isinstance(h, str) for h in value)
    if kind == k.SCOPE:  # a stretch of play (this_phase ...): where it begins, as (turn, phase index)
        return isinstance(value, tuple) and len(value) == 2 and all(type(x) is int for x in value)
    return isinstance(value, str)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), kind=st.sampled_from([k.NUMBER, k.BOOL, k.SIDE, k.HEX, k.UNITS, k.STATUS, k.TERRAIN]))
def test_well_kinded_expressions_compile_and_evaluate_to_their_kind(data, kind):
    tree = data.draw(typed_tree(kind))
    typed = compiler_for(GAME, about_unit=True).typed(tree)
    assert typed.kind == kind
    _evaluates_to_its_kind(typed, about_unit=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=trees, about_unit=st.booleans())
def test_any_tree_is_refused_or_evaluates_to_its_kind(tree, about_unit):
    try:
        typed = compiler_for(GAME, about_unit=about_unit).typed(tree)
    except ExpressionError:
        return
    _evaluates_to_its_kind(typed, about_unit)


def _evaluates_to_its_kind(typed, about_unit: bool) -> None:
    function = to_function(typed.python)
    unit = GAME.units["b1"] if about_unit else None
    placed = [(GAME.units[uid], hex_) for uid, hex_ in STATE.positions.items()]
    for context in (EngineContext(STATE, unit), StandInContext(unit=unit, placed=placed, game=GAME)):
        try:
            value = function(context)
        except ZeroDivisionError:  # '/' and '%' by a value that is 0 in play: a run-time matter, not a kind
            continue
        assert _of_kind(value, typed.kind), (typed.python, typed.kind, value)
