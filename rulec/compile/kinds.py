"""The kinds of values in the expression language, checked when a game is compiled.

Every expression has one kind. Ids of the game (a side, a zone, a hex...) are
values of their own kind; sets of units and of hexes are what quantifiers
range over. A kind is written in messages as it is named here.
"""

from __future__ import annotations

NUMBER = "number"
BOOL = "condition"
TEXT = "text"
SIDE = "side"
UNIT = "unit"
UNITS = "units"
HEX = "hex"
HEXES = "hexes"
ZONE = "zone"
EDGE = "edge"
TERRAIN = "terrain"
UNIT_TYPE = "unit type"
FLAG = "flag"
PHASE = "phase"
STATUS = "status"
TRACE = "trace"  # a trace of the game (supply ...), by its name
MARKER = "marker"  # a marker of the game (marker blocks)
HEXSIDE_TYPE = "hexside type"  # a hexside feature of the game (hexside blocks: river, road)
PHASE_KIND = "phase kind"  # movement, combat, victory_points, end_of_turn
SCOPE = "scope"  # a stretch of play history queries ask about (this_player_turn, previous(combat))
VARIABLE = "variable"  # a game variable (variable blocks), by its name: the first argument of set() and add()
# Not a kind: the key under which the names_by_kind of a compiler lists the variables that are flags (true/false);
# the others are numbers. A variable's name read in an expression is its value, of that kind.
FLAG_VARIABLES = "variables that are flags"
OPTION = "option"  # an option of the game (option blocks), by its name: option(night_rules)
# A parameter that takes the name of a zone or of a map edge (units(zone = ...)).
AREA = "zone or edge"

# Kinds whose values are ids (texts at run time): a text in quotes compares equal to them.
ID_KINDS = frozenset({SIDE, HEX, ZONE, EDGE, TERRAIN, UNIT_TYPE, FLAG, PHASE, STATUS, TRACE, MARKER, PHASE_KIND,
                      HEXSIDE_TYPE, OPTION})

# What a set holds: the kind a quantifier's variable takes.
ELEMENT = {UNITS: UNIT, HEXES: HEX}

# How a value of each kind is written in messages ("a side", "an edge").
def article(kind: str) -> str:
    if kind in (UNITS, HEXES):  # sets read without an article: "found units"
        return kind
    return f"{'an' if kind[0] in 'aeiou' and not kind.startswith('unit') else 'a'} {kind}"  # a unit, an edge
