"""Build the `trace` and `modifier` sections: paths from sources, and the modifiers pipeline.

    trace supply {
      from { blue = west  red = [east, 0905] }     # each side's sources: zones, edges, hexes
      through = not enemy_occupied(hex) and (not enemy_zoc(hex) or friendly_occupied(hex))
      across = not crossing(from_hex, hex, river) or crossing(from_hex, hex, bridge)   # each step
      max_length = 6
      lost_when = enemy_occupied(hex)               # a source held by the enemy supplies nobody
    }
    modifier cut_off { applies = unit  when = not supplied(unit)  strength_times = 0.5  move_plus = -1 }
    modifier town    { applies = battle  when = defender_side == blue and has_terrain(defender_hex, town)  shift = -1 }

The engine plays them in rulec/engine/traces.py and rulec/engine/modifiers.py.
"""

from __future__ import annotations

from typing import Any

from rulec.check.fields import plain
from rulec.compile import kinds
from rulec.compile.expressions import ExpressionCompiler, to_function
from rulec.compile.expressions import ExpressionError
from rulec.compile.functions import HEX_FACTS, OWN_ZOC, IN_BATTLE, IN_HEX, IN_STEP, IN_TRACE, IN_UNIT_MODIFIER, POSITIONAL, STATIC
from rulec.language.parse import unparse
from rulec.runtime import model as m

# What a condition of a trace may depend on and still be folded when the game starts: the map, the hex, the side.
_MAP_ONLY = frozenset({STATIC, IN_TRACE, IN_HEX})
# The same for a step's condition (`across`), which may also read the hex the step leaves.
_STEP_ON_MAP_ONLY = _MAP_ONLY | {IN_STEP}
_UNIT_ONLY = ("strength_times", "strength_plus", "move_times", "move_plus")
_BATTLE_ONLY = ("shift", "drm")


class TraceAndModifierSections:
    """Builder methods for `trace` and `modifier` blocks (mixed into rulec.check.build.Builder)."""

    def traces(self, sides: dict, game_map: m.MapDef | None, compiler: ExpressionCompiler) -> dict[str, m.Trace]:
        result = {}
        tracing = compiler.inside(IN_TRACE)
        stepping = compiler.inside(IN_TRACE, also=(IN_STEP,))  # `across`: `from_hex` too
        for tid, body in self.get(("trace",), {}).items():
            path = ("trace", tid)
            sources: dict[str, tuple[str, ...]] = {}
            for side, value in body.get("from", {}).items():
                if self.reference(side, sides, "side", path + ("from", side), key=True):
                    sources[side] = tuple(dict.fromkeys(self._source_hexes(value, path + ("from", side), game_map)))
            through_static, through = self._through(body["through"], path + ("through",), tracing) if "through" in body else (None, None)
            across_static, across = (self._through(body["across"], path + ("across",), stepping, _STEP_ON_MAP_ONLY)
                                     if "across" in body else (None, None))
            lost = self.expression(body["lost_when"], path + ("lost_when",), tracing, kinds.BOOL) if "lost_when" in body else None
            reads = _reads_at_hex([(body.get("through"), tracing), (body.get("lost_when"), tracing),
                                   (body.get("across"), stepping)])
            sets = None
            if across is None:  # (a step's condition on the position is asked step by step)
                written = {field: _hex_sets(body[field], tracing, sides) for field in ("through", "lost_when") if field in body}
                if None not in written.values():
                    sets = (written.get("through"), written.get("lost_when"))
            result[tid] = m.Trace(id=tid, sources=sources, through=through, through_static=through_static,
                                  max_length=body.get("max_length"), lost_when=lost, across=across, across_static=across_static,
                                  reads_at_hex=reads, sets=sets)
        return result

    def _through(self, value: Any, path: tuple, tracing: ExpressionCompiler,
                 map_only: frozenset[str] = _MAP_ONLY) -> tuple[m.Expr | None, m.Expr | None]:
        """A trace's `through` (or `across`), split into the conditions that depend on the map alone (folded
        into a set of hexes, or of blocked steps, when the game starts) and those that depend on the position
        (asked at each search)."""
        whole = self.expression(value, path, tracing, kinds.BOOL)
        tree = value.get("tree") if isinstance(value, dict) else None
        if whole is None or tree is None:
            return None, whole
        parts = tree[1] if tree[0] == "and" else [tree]
        static = [p for p in parts if tracing.typed(p, kinds.BOOL).depends <= map_only]
        moving = [p for p in parts if not any(p is q for q in static)]
        return _conjunction(static, tracing), _conjunction(moving, tracing)

    def _source_hexes(self, value: Any, path: tuple, game_map: m.MapDef | None) -> list[str]:
        """A trace's sources for one side: zones and map edges by name, hexes, rectangles of hexes."""
        areas = {**game_map.zones, **game_map.edges} if game_map else {}
        hexes: list[str] = []
        items = value if isinstance(value, list) else [value]
        for i, item in enumerate(items):
            here = path + (i,) if isinstance(value, list) else path
            if isinstance(item, str) and not item.isdigit():
                if self.reference(item, areas, "zone", here):
                    hexes.extend(areas[item])
            else:
                hexes.extend(self.hex_list(item, here))
        return hexes

    def modifiers(self, options: dict, compiler: ExpressionCompiler) -> tuple[m.Modifier, ...]:
        result = []
        for mid, body in self.get(("modifier",), {}).items():
            path = ("modifier", mid)
            applies = body.get("applies")
            if applies not in ("unit", "battle"):  # the schema reports it; nothing more to say about the rest
                continue
            wrong = _BATTLE_ONLY if applies == "unit" else _UNIT_ONLY
            for name in wrong:
                if name in body:
                    self.error("unknown-field", f"a modifier that applies to {plain(applies)} has no '{name}'", path + (name,),
                               "unit modifiers change strength and move; battle modifiers shift and drm", key=True)
            if not any(name in body for name in (_UNIT_ONLY if applies == "unit" else _BATTLE_ONLY)):
                self.error("field-alone", f"modifier '{mid}' changes nothing, so it would do nothing", path, key=True,
                           hint="give it " + ("strength_times, strength_plus, move_times or move_plus" if applies == "unit"
                                              else "shift or drm"))
            option = body.get("option")
            if option is not None:
                option = self.reference(option, options, "option", path + ("option",))
            about = compiler.inside(IN_BATTLE) if applies == "battle" else compiler.inside(IN_UNIT_MODIFIER, about_unit=True)
            when = self.expression(body["when"], path + ("when",), about, kinds.BOOL) if "when" in body else None
            if "when" not in body or when is not None:
                result.append(m.Modifier(id=mid, applies=applies, name=str(body.get("name", "")), when=when, option=option,
                                         text=str(body.get("text", "")),
                                         **{k: v for k, v in body.items() if k in _UNIT_ONLY + _BATTLE_ONLY}))
        return tuple(result)


def _conjunction(parts: list, compiler: ExpressionCompiler) -> m.Expr | None:
    """`a and b and ...` of expression trees as one compiled condition (None for none)."""
    if not parts:
        return None
    tree = parts[0] if len(parts) == 1 else ["and", parts]
    return m.Expr(source=unparse(tree), function=to_function(compiler.source(tree, kinds.BOOL)))


# The facts at `hex` a trace's condition may read that the engine keeps as sets of hexes for each position and side
# (model.Trace.sets): enemy_occupied, friendly_occupied, occupied, enemy_zoc.
_HEX_SETS = {"enemy_occupied": "enemy", "friendly_occupied": "friends", "occupied": "occupied", "enemy_zoc": "zoc"}


def _hex_sets(value: Any, compiler: ExpressionCompiler, sides: dict) -> Any:
    """A trace's condition (its field's value) as set algebra over the hex facts of the position
    (model.Trace.sets), or None when it reads the position otherwise (a neighbour's occupant, the turn, a unit) or
    is no expression (a plain `true`): its parts on the map alone become ("hexes", Expr), the engine folding them
    once a game and side."""
    tree = value.get("tree") if isinstance(value, dict) else None
    return None if tree is None else _tree_sets(tree, compiler, sides)


def _tree_sets(tree: Any, compiler: ExpressionCompiler, sides: dict) -> Any:
    """_hex_sets of an expression tree (or one of its parts)."""
    if not isinstance(tree, list):
        return None
    try:
        if not POSITIONAL & compiler.typed(tree, kinds.BOOL).depends:
            return ("hexes", _conjunction([tree], compiler))
    except ExpressionError:  # reported where the field is built
        return None
    form = tree[0]
    if form == "not":
        inner = _tree_sets(tree[1], compiler, sides)
        return None if inner is None else ("not", inner)
    if form in ("and", "or"):
        parts = [_tree_sets(part, compiler, sides) for part in tree[1]]
        return None if any(p is None for p in parts) else (form, tuple(parts))
    if form != "call" or tree[3] or not tree[2] or tree[2][-1] != ["name", "hex"]:
        return None
    name, (*named, _) = tree[1], tree[2]
    side = _side_named(named, sides)
    if side is False:
        return None
    if name == "controls":
        return ("held", side) if named else None
    if name in _HEX_SETS and not (name == "occupied" and named):
        return (_HEX_SETS[name], side)
    return None


def _side_named(named: list, sides: dict) -> str | None | bool:
    """The side a hex fact is asked about: None for the side tracing (none named, or `friendly`), a side's id,
    or False when it is named otherwise (a variable, an expression)."""
    if not named:
        return None
    if len(named) == 1 and named[0][0] == "name":
        if named[0][1] == "friendly":
            return None
        if named[0][1] in sides:
            return named[0][1]
    return False


def _reads_at_hex(fields: list[tuple[Any, ExpressionCompiler]]) -> tuple[str, ...] | None:
    """The facts of the position a trace's conditions read, when they read each only at `hex` or `from_hex` through
    a function of functions.HEX_FACTS (enemy_occupied(hex), enemy_zoc(hex) ...); None when they read it otherwise
    (`turn`, units(), a neighbour's occupant): the engine then cannot tell which hexes a change touches."""
    facts: set[str] = set()
    for value, compiler in fields:
        if value is None:
            continue
        tree = value.get("tree") if isinstance(value, dict) else None
        found = _hex_facts(tree, compiler) if tree is not None else None
        if found is None:
            return None
        facts |= found
    return tuple(sorted(facts))


def _hex_facts(tree: list, compiler: ExpressionCompiler) -> set[str] | None:
    try:
        if not POSITIONAL & compiler.typed(tree).depends:
            return set()
    except ExpressionError:  # reported where the field is built
        return None
    form = tree[0]
    if form in ("not", "neg"):
        parts = [tree[1]]
    elif form in ("and", "or"):
        parts = tree[1]
    elif form == "op":
        parts = [tree[2], tree[3]]
    elif form == "call" and tree[1] == "if" and not tree[3]:
        parts = tree[2]
    elif form == "call" and tree[1] in HEX_FACTS and not tree[3] and tree[2]:
        *sides, place = tree[2]
        still = all(_hex_facts(side, compiler) == set() for side in sides)
        fact = HEX_FACTS[tree[1]]
        if fact == "zoc" and sides in ([], [["name", "friendly"]]):
            fact = OWN_ZOC  # the tracing side's own view of the enemy zones: the other sides' views are not read
        return {fact} if still and place in (["name", "hex"], ["name", "from_hex"]) else None
    else:
        return None
    facts: set[str] = set()
    for part in parts:
        found = _hex_facts(part, compiler)
        if found is None:
            return None
        facts |= found
    return facts
