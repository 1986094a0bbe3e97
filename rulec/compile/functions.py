"""The function table of the expression language: every name, attribute and function a rule may use.

Each entry gives the kinds it takes and returns, the Python it becomes (a
format string over its compiled arguments {0}, {1}... and the evaluation
context `ctx`, see rulec.runtime.context.EvalContext), what it depends on,
and a line for the reference (docs/language.md lists every entry).

`depends` says what an answer can change with, so the engine may one day
fold what never changes into tables: "static" (the game and its map),
"position" (where the units stand, the markers, the history, the VP, the turn
and phase), "unit" (the unit an award is about), "marker" (the marker whose
`expires` is being evaluated: only usable there). New families (markers, supply traces, history
scopes) are new entries here with their own tags; the compiler needs no change.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulec.compile.kinds import (AREA, BOOL, EDGE, FLAG, HEX, HEXES, HEXSIDE_TYPE, MARKER, NUMBER, OPTION, PHASE,
                                 PHASE_KIND, SCOPE, SIDE, STATUS, TERRAIN, TEXT, TRACE, UNIT, UNIT_TYPE, UNITS)

STATIC, POSITION, ABOUT_UNIT, ABOUT_MARKER = "static", "position", "unit", "marker"
# Of the position, the markers alone (marked, marked_hex): an answer that reads nothing else of it holds while the
# markers in play are the same (model.Expr.reads_only_markers). Read as the position wherever that is asked.
MARKERS = "markers"
POSITIONAL = frozenset({POSITION, MARKERS})
# Names that exist only where their field gives them a value: the hex a trace enters and the side tracing
# (a trace's `through` and `lost_when`), the battle a battle modifier's `when` is about.
IN_TRACE, IN_BATTLE = "trace", "battle"
IN_UNIT_MODIFIER = "unit modifier"  # whether the unit is fighting, and on which side of the battle
IN_MOVE = "move"  # a move's own condition (movement { may_end_move }): the hex the move ends in
IN_HEX = "hex"  # the hex being considered: a trace's hex, a hex of a retreat path (retreat { prefer may_enter may_end })
IN_STEP = "step"  # a step between two hexes: a trace's `across`, where `from_hex` is the hex the step leaves
IN_EXIT = "exit"  # a unit leaving the map (movement { may_exit }): `edge` is the map edge it would leave by


@dataclass(frozen=True)
class Name:
    """A bare name with a value of its own (`turn`), or an attribute of a unit (`u.strength`)."""

    name: str
    kind: str
    python: str
    text: str
    depends: str = POSITION


@dataclass(frozen=True)
class Function:
    """One form of a function: positional parameter kinds (the last repeats if `variadic`), keywords, result."""

    name: str
    params: tuple[str, ...]
    returns: str
    python: str
    text: str
    keywords: dict[str, str] = field(default_factory=dict)
    variadic: bool = False
    depends: str = POSITION
    within: str = ""  # IN_TRACE, IN_BATTLE: the only fields it may be used in ("": any)

    def signature(self) -> str:
        parts = [kind.upper().replace(" ", "_") for kind in self.params]
        if self.variadic:
            parts.append("...")
        parts += [f"{k} = {kind.upper().replace(' ', '_')}" for k, kind in self.keywords.items()]
        return f"{self.name}({', '.join(parts)})"


# Names of the running game. `unit`, `strength`, `move` and `side` are the unit an award is about
# (the exiting, eliminated or entering unit): only awards triggered by a unit may use them.
NAMES: dict[str, Name] = {n.name: n for n in (
    Name("turn", NUMBER, "ctx.turn", "the current game turn, from 1"),
    Name("turns", NUMBER, "ctx.turns", "the game's length in turns", STATIC),
    Name("phase", PHASE, "ctx.phase", "the current phase"),
    Name("phasing_side", SIDE, "ctx.phasing_side", "the side whose phase it is (\"\" in a phase of no side)"),
    Name("lead", NUMBER, "ctx.lead()", "the VP of the side with most VP minus the next side's (0 on equal scores)"),
    Name("lead_ratio", NUMBER, "ctx.lead_ratio()",
         "the VP of the side with most VP divided by the next side's (infinite if that is 0 and the leader has VP)"),
    Name("leader", SIDE, "ctx.leader()", "the side with most VP (\"\" on equal scores)"),
    Name("objectives", HEXES, "ctx.objectives()",
         "the hexes whose holder the engine tracks: those of 'holds' awards and of movement { control_of }", STATIC),
    Name("unit", UNIT, "ctx.unit", "the unit the award is about", ABOUT_UNIT),
    Name("strength", NUMBER, "ctx.unit.strength", "the strength of the unit the award is about", ABOUT_UNIT),
    Name("move", NUMBER, "ctx.unit.move", "the movement allowance of the unit the award is about", ABOUT_UNIT),
    Name("side", SIDE, "ctx.unit.side", "the side of the unit the award is about", ABOUT_UNIT),
    Name("true", BOOL, "True", "a condition that holds", STATIC),
    Name("false", BOOL, "False", "a condition that does not hold", STATIC),
    Name("on_map", STATUS, "'map'", "the status of a unit on the map", STATIC),
    Name("pending", STATUS, "'pending'", "the status of a unit not yet arrived", STATIC),
    Name("exited", STATUS, "'exited'", "the status of a unit that left the map", STATIC),
    Name("eliminated", STATUS, "'eliminated'", "the status of an eliminated unit", STATIC),
    # Kinds of phase (`phases_since_marked(combat)`, `previous(movement)`); a phase of the game of the same name wins.
    Name("movement", PHASE_KIND, "'movement'", "the kind of a movement phase", STATIC),
    Name("combat", PHASE_KIND, "'combat'", "the kind of a combat phase", STATIC),
    Name("victory_points", PHASE_KIND, "'victory_points'", "the kind of a victory-points phase", STATIC),
    Name("end_of_turn", PHASE_KIND, "'end_of_turn'", "the kind of an end-of-turn phase", STATIC),
    # Scopes of the history queries (`moved(u, this_player_turn)`).
    Name("this_phase", SCOPE, "ctx.scope('this_phase')", "the current phase"),
    Name("this_player_turn", SCOPE, "ctx.scope('this_player_turn')",
         "the current player-turn: the phases of the current side since its run of phases began"),
    Name("this_turn", SCOPE, "ctx.scope('this_turn')", "the current game turn"),
    Name("previous_player_turn", SCOPE, "ctx.scope('previous_player_turn')", "the player-turn before the current one"),
    Name("previous_turn", SCOPE, "ctx.scope('previous_turn')", "the game turn before the current one"),
)}

# Kinds of built-in names read after the game's own ids (a zone named 'exited', a phase named 'combat').
LATE_KINDS = frozenset({STATUS, PHASE_KIND})

# Attributes of a unit: `u.strength`; {0} is the unit.
UNIT_ATTRIBUTES: dict[str, Name] = {n.name: n for n in (
    Name("side", SIDE, "{0}.side", "its side", STATIC),
    # Not static: a unit with steps changes side (strength, move) when it loses or regains one.
    Name("strength", NUMBER, "{0}.strength", "its strength (of the side it shows now)"),
    Name("move", NUMBER, "{0}.move", "its movement allowance (of the side it shows now)"),
    Name("type", UNIT_TYPE, "{0}.type", "its unit type", STATIC),
    Name("hex", HEX, "ctx.hex_of({0})", "the hex it stands in (\"\" when it is not on the map: in no zone, next to nothing)"),
    Name("status", STATUS, "ctx.status_of({0})", "on_map, pending, exited or eliminated"),
    Name("exited_from", HEX, "ctx.exited_from({0})", "the hex it left the map from (\"\" if it has not left it)"),
    Name("division", TEXT, "{0}.division", "its division (\"\" if none)", STATIC),
    Name("entry", HEXES, "({0}.arrives.hexes if {0}.arrives is not None else ())",
         "the hexes it enters the map by, as its arrival (or the scenario's) names them; none without an arrival", STATIC),
)}

# ------------------------------------------------------------ traces and battles
# In a trace's `through` and `lost_when`: the hex entered (or the source) and the side tracing.
NAMES.update({n.name: n for n in (
    Name("hex", HEX, "ctx.hex", "in a trace: the hex the path enters (in `lost_when`: the source); in a retreat's "
         "`prefer` and `may_end`: the hex the path ends in, in its `may_enter`: each hex of the path", IN_HEX),
    Name("friendly", SIDE, "ctx.friendly", "in a trace: the side tracing", IN_TRACE),
    # In a trace's `across` only: each step of the path leaves `from_hex` for `hex`.
    Name("from_hex", HEX, "ctx.from_hex", "in a trace's `across`: the hex the step leaves (`hex` is the hex it enters)",
         IN_STEP),
)})
# In movement's `may_exit`: the map edge a unit would leave by.
NAMES.update({n.name: n for n in (
    Name("edge", EDGE, "ctx.edge", "in movement's `may_exit`: the map edge the unit would leave by", IN_EXIT),
)})
# In a unit modifier's `when`: what the unit's strength is being worked out for.
NAMES.update({n.name: n for n in (
    Name("attacking", BOOL, "(ctx.role == 'attack')", "in a unit modifier: whether the unit's strength is asked as an attacker's",
         IN_UNIT_MODIFIER),
    Name("defending", BOOL, "(ctx.role == 'defence')", "in a unit modifier: whether the unit's strength is asked as a defender's",
         IN_UNIT_MODIFIER),
)})
# In a battle modifier's `when`: the battle as declared.
NAMES.update({n.name: n for n in (
    Name("attackers", UNITS, "ctx.attackers", "in a battle modifier: the attacking units", IN_BATTLE),
    Name("defenders", UNITS, "ctx.defenders", "in a battle modifier: the defending units", IN_BATTLE),
    Name("attacker_hexes", HEXES, "ctx.attacker_hexes", "in a battle modifier: the hexes the attackers stand in", IN_BATTLE),
    Name("defender_hexes", HEXES, "ctx.defender_hexes", "in a battle modifier: the hexes attacked", IN_BATTLE),
    Name("defender_hex", HEX, "ctx.defender_hexes[0]", "in a battle modifier: the (first) hex attacked", IN_BATTLE),
    Name("attacker_side", SIDE, "ctx.attacker_side", "in a battle modifier: the attacking side", IN_BATTLE),
    Name("defender_side", SIDE, "ctx.defender_side", "in a battle modifier: the defending side", IN_BATTLE),
)})

# Names a field's own context gives a meaning of their own, over the one in NAMES (a name can exist in several
# contexts: `hex` is the hex a trace enters, and in a move's condition the hex the move ends in).
CONTEXT_NAMES: dict[str, dict[str, Name]] = {
    IN_MOVE: {"hex": Name("hex", HEX, "ctx.hex", "in movement's may_end_move: the hex the move would end in; in its "
                          "entry_blocked: the entry hex; in leave_zoc's into_zoc: the enemy-controlled hex entered", IN_MOVE)},
}

_UNIT_FILTERS = {"side": SIDE, "zone": AREA, "hex": HEX, "type": UNIT_TYPE, "flag": FLAG, "status": STATUS}

# Every function, by name; a name with several forms tries them in order (by the number of arguments).
FUNCTIONS: dict[str, tuple[Function, ...]] = {}


def _add(*forms: Function) -> None:
    for form in forms:
        FUNCTIONS[form.name] = FUNCTIONS.get(form.name, ()) + (form,)


_add(
    # unit queries
    Function("units", (), UNITS, "ctx.units({keywords})",
             "the units matching every filter given; on the map unless `status` says otherwise", _UNIT_FILTERS),
    Function("units_at", (HEX,), UNITS, "ctx.units_at({0})", "the units in a hex"),
    Function("hexes", (), HEXES, "ctx.hexes({keywords})",
             "the map's hexes with the terrain (base or feature) and in the zone or edge given", {"terrain": TERRAIN, "zone": AREA},
             depends=STATIC),
    Function("strength_of", (UNITS,), NUMBER, "sum(x_.strength for x_ in {0})", "the total strength of units"),
    Function("has_flag", (FLAG,), BOOL, "({0} in ctx.unit.flags)", "whether the unit the award is about carries a flag",
             depends=ABOUT_UNIT),
    Function("has_flag", (UNIT, FLAG), BOOL, "({1} in {0}.flags)", "whether a unit carries a flag", depends=STATIC),
    Function("moved", (UNIT,), BOOL, "ctx.moved({0})", "whether a unit has moved in this movement phase"),
    Function("awaiting_placement", (UNIT,), BOOL, "ctx.awaiting_placement({0})",
             "whether a unit waits off the map for a placement phase (set up free), not for an arrival turn"),
    Function("attacked", (UNIT,), BOOL, "ctx.attacked({0})", "whether a unit has attacked in this combat phase"),
    # markers (rulec/engine/markers.py)
    Function("marked", (UNIT, MARKER), BOOL, "ctx.marked({0}, {1})", "whether a unit carries a marker",
             depends=MARKERS),
    Function("marked_hex", (HEX, MARKER), BOOL, "ctx.marked_hex({0}, {1})", "whether a hex carries a marker",
             depends=MARKERS),
    Function("phases_since_marked", (PHASE_KIND,), NUMBER, "ctx.phases_since_marked({0})",
             "in a marker's `expires`: how many phases of that kind have begun and ended since the marker was put on "
             "(for a marker on a unit, phases of the unit's side or of no side)", depends=ABOUT_MARKER),
    Function("phases_since_marked", (PHASE,), NUMBER, "ctx.phases_since_marked({0})",
             "in a marker's `expires`: how many times that phase has begun and ended since the marker was put on",
             depends=ABOUT_MARKER),
    # history (rulec/engine/history.py), in a scope
    Function("moved", (UNIT, SCOPE), BOOL, "ctx.did('moved', {0}, {1})",
             "whether a unit moved (or entered the map) in the scope: moved(u, this_player_turn)"),
    Function("attacked", (UNIT, SCOPE), BOOL, "ctx.did('attacked', {0}, {1})", "whether a unit attacked in the scope"),
    Function("defended", (UNIT,), BOOL, "ctx.did('defended', {0}, ctx.scope('this_phase'))",
             "whether a unit was attacked in this phase"),
    Function("defended", (UNIT, SCOPE), BOOL, "ctx.did('defended', {0}, {1})", "whether a unit was attacked in the scope"),
    Function("retreated", (UNIT,), BOOL, "ctx.did('retreated', {0}, ctx.scope('this_phase'))",
             "whether a unit retreated after combat in this phase"),
    Function("retreated", (UNIT, SCOPE), BOOL, "ctx.did('retreated', {0}, {1})", "whether a unit retreated in the scope"),
    Function("entered", (HEX,), BOOL, "ctx.entered({0}, ctx.scope('this_phase'))",
             "whether a unit ended a move, retreat or advance in a hex in this phase"),
    Function("entered", (HEX, SCOPE), BOOL, "ctx.entered({0}, {1})",
             "whether a unit ended a move, retreat or advance in a hex in the scope"),
    Function("last_to_enter", (HEX,), SIDE, "ctx.last_to_enter({0})",
             "the side of the last unit that ended a move, retreat or advance in a hex (\"\" if none has)"),
    Function("previous", (PHASE_KIND,), SCOPE, "ctx.previous({0})",
             "the last phase of that kind that has ended: attacked(u, previous(combat))"),
    Function("previous", (PHASE,), SCOPE, "ctx.previous({0})", "the last time that phase ended"),
    # hex queries
    Function("terrain", (HEX,), TERRAIN, "ctx.terrain({0})", "a hex's base terrain (\"\" for no hex)", depends=STATIC),
    Function("has_terrain", (HEX, TERRAIN), BOOL, "ctx.has_terrain({0}, {1})",
             "whether a hex has a terrain, as its base terrain or as a feature (a city, a wood)", depends=STATIC),
    Function("adjacent", (HEX, HEX), BOOL, "ctx.adjacent({0}, {1})", "whether two hexes are neighbours on the map",
             depends=STATIC),
    Function("neighbours", (HEX,), HEXES, "ctx.neighbours({0})", "the hexes next to a hex on the map (none for no hex)",
             depends=STATIC),
    Function("crossing", (HEX, HEX, HEXSIDE_TYPE), BOOL, "ctx.crossing({0}, {1}, {2})",
             "whether the hexside between two neighbouring hexes carries a hexside type (a river): crossing(u.hex, h, river)",
             depends=STATIC),
    Function("distance", (HEX, HEX), NUMBER, "ctx.distance({0}, {1})",
             "the distance in hexes, counted across the grid (a very large number if either is no hex)", depends=STATIC),
    Function("distance_to", (HEXES, HEX), NUMBER, "ctx.distance_to({0}, {1})",
             "the distance in hexes from the nearest hex of the set, counted across the grid (a very large number if "
             "the set is empty or the hex is no hex)"),
    Function("entry_open", (UNIT,), BOOL, "ctx.entry_open({0})",
             "whether a hex of the unit's own entry area is open to it now: no enemy unit there and movement "
             "{ entry_blocked } not holding (false for a unit with no entry area)"),
    Function("occupied", (HEX,), BOOL, "(len(ctx.sides_at({0})) > 0)", "whether any unit stands in a hex"),
    Function("occupied_by", (SIDE, HEX), BOOL, "({0} in ctx.sides_at({1}))",
             "whether a unit of the side stands in a hex"),
    Function("enemy_occupied", (SIDE, HEX), BOOL, "any(x_ != {0} for x_ in ctx.sides_at({1}))",
             "whether a unit of another side than the one given stands in a hex"),
    Function("controls", (SIDE, HEX), BOOL, "(ctx.controller({1}) == {0})",
             "whether the side holds an objective hex (see `objectives`): its unit was the last to enter or pass through it, "
             "or as movement { control } says; before any unit has, as movement { first_holder } or the scenario's holders say"),
    Function("enemy_zoc", (SIDE, HEX), BOOL, "({1} in ctx.enemy_zoc({0}))",
             "whether a hex is in the zone of control of a unit of another side than the one given"),
    # the same, for the side tracing (a trace's `through` and `lost_when`)
    Function("enemy_occupied", (HEX,), BOOL, "any(x_ != ctx.friendly for x_ in ctx.sides_at({0}))",
             "in a trace: whether a unit of another side than the one tracing stands in a hex", within=IN_TRACE),
    Function("friendly_occupied", (HEX,), BOOL, "(ctx.friendly in ctx.sides_at({0}))",
             "in a trace: whether a unit of the side tracing stands in a hex", within=IN_TRACE),
    Function("enemy_zoc", (HEX,), BOOL, "({0} in ctx.enemy_zoc(ctx.friendly))",
             "in a trace: whether a hex is in the zone of control of a unit of another side than the one tracing",
             within=IN_TRACE),
    # traces (trace NAME { ... }), worked out when asked and kept for the position
    Function("traced", (TRACE, UNIT), BOOL, "ctx.traced({0}, {1})",
             "whether a trace reaches the unit's hex from its side's sources (a unit off the map: no)"),
    Function("traced_hex", (TRACE, SIDE, HEX), BOOL, "ctx.traced_hex({0}, {1}, {2})",
             "whether a trace of the side reaches a hex from its sources"),
    # A counterfactual search, never kept with the position's traces: the position with those units taken off.
    Function("traced_without", (TRACE, UNIT, UNITS), BOOL, "ctx.traced_without({0}, {1}, {2})",
             "whether the trace would reach the unit's hex if those units were off the map (an attack that would "
             "reopen a unit's supply): traced_without(supply, unit, defenders)"),
    Function("supplied", (UNIT,), BOOL, "ctx.traced('supply', {0})",
             "short for traced(supply, UNIT): needs a trace named supply"),
    # state
    Function("vp", (SIDE,), NUMBER, "ctx.vp({0})", "a side's victory points so far"),
    # Fixed for the whole game once it is set up, but not by the game file: chosen by the players.
    Function("option", (OPTION,), BOOL, "ctx.option({0})", "whether an option of the game was chosen for this game"),
    # sets and numbers
    Function("count", (UNITS,), NUMBER, "len({0})", "how many units"),
    Function("count", (HEXES,), NUMBER, "len({0})", "how many hexes", depends=STATIC),
    Function("min", (NUMBER,), NUMBER, "min({args})", "the least of numbers", variadic=True, depends=STATIC),
    Function("max", (NUMBER,), NUMBER, "max({args})", "the greatest of numbers", variadic=True, depends=STATIC),
    Function("abs", (NUMBER,), NUMBER, "abs({0})", "a number without its sign", depends=STATIC),
)

# Functions whose answer reads the position at their last argument, a hex, and nowhere else, by the fact read
# there (the occupying sides, the enemy ZOC, the side holding it): a trace whose conditions read the position only
# so, at `hex` and `from_hex`, is searched again only where those facts changed (rulec/engine/traces.py).
HEX_FACTS = {"occupied": "occupants", "occupied_by": "occupants", "enemy_occupied": "occupants",
             "friendly_occupied": "occupants", "enemy_zoc": "zoc", "controls": "holders"}
# enemy_zoc(hex) and enemy_zoc(friendly, hex) read one view of the zones only, the tracing side's: "own zoc"
# (a side named otherwise reads "zoc", every side's view).
OWN_ZOC = "own zoc"

# Quantifiers over a set with a bound variable: `count(u in S where C)` (count, any, all, select) and
# `sum(V for u in S where C)` (sum, min, max; 0 over an empty set). The compiler writes them.
FILTERS = {"count": "how many members of the set meet the condition",
           "any": "whether some member of the set meets the condition (without `where`: whether the set has a member)",
           "all": "whether every member of the set meets the condition",
           "select": "the members of the set that meet the condition, a set of the same kind"}
AGGREGATES = {"sum": "the total of the value over the members that meet the condition",
              "min": "the least value over the members that meet the condition (0 if none)",
              "max": "the greatest value over the members that meet the condition (0 if none)"}
# `if(C, A, B)`: A when C holds, else B; A and B of one kind. The compiler writes it.
SPECIAL = {"if": "if(CONDITION, A, B): A when the condition holds, else B (A and B of the same kind)"}


def known_functions() -> list[str]:
    return sorted(set(FUNCTIONS) | set(FILTERS) | set(AGGREGATES) | set(SPECIAL))
