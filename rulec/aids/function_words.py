"""How each entry of the expression language's function table reads on a printed aid.

A template's {0}, {1}... are its arguments in words, {a[0]} the adjective of a side
argument ("Red"); rulec.aids.words fills them. tests/test_aids_words.py fails for
an entry of rulec/compile/functions.py (FUNCTIONS, NAMES, UNIT_ATTRIBUTES, FILTERS,
AGGREGATES, SPECIAL) with no wording here, so the language cannot outgrow the aids.
"""

from __future__ import annotations

# Function name -> templates by number of positional arguments (a name with several forms has several).
FUNCTION_WORDS: dict[str, dict[int, str]] = {
    "units": {0: "units"},  # worded from its filters by Wording.units_phrase
    "units_at": {1: "the units in {0}"},
    "hexes": {0: "hexes"},  # worded from its filters by Wording.hexes_phrase
    "strength_of": {1: "the total strength of {0}"},
    "has_flag": {1: "the unit is flagged {0}", 2: "{0} is flagged {1}"},
    "moved": {1: "{0} has moved this phase", 2: "{0} moved {1}"},
    "attacked": {1: "{0} has attacked this phase", 2: "{0} attacked {1}"},
    "marked": {2: "{0} carries a {1} marker"},
    "awaiting_placement": {1: "{0} waits to be placed"},
    "marked_hex": {2: "{0} carries a {1} marker"},
    "phases_since_marked": {1: "the number of {0} phases since the marker was put on"},
    "defended": {1: "{0} was attacked this phase", 2: "{0} was attacked {1}"},
    "retreated": {1: "{0} retreated this phase", 2: "{0} retreated {1}"},
    "entered": {1: "a unit ended its move, retreat or advance in {0} this phase",
                2: "a unit ended its move, retreat or advance in {0} {1}"},
    "last_to_enter": {1: "the side of the last unit to enter {0}"},
    "previous": {1: "in the last {0} phase"},
    "terrain": {1: "the terrain of {0}"},
    "has_terrain": {2: "{0} has {1} terrain"},
    "adjacent": {2: "{0} is next to {1}"},
    "neighbours": {1: "the hexes next to {0}"},
    "crossing": {3: "a {2} hexside lies between {0} and {1}"},
    "distance": {2: "the distance in hexes from {0} to {1}"},
    "distance_to": {2: "the distance in hexes from the nearest hex of {0} to {1}"},
    "entry_open": {1: "{0} has an entry hex open to it"},
    "occupied": {1: "a unit stands in {0}"},
    "occupied_by": {2: "a {a[0]} unit stands in {1}"},
    "enemy_occupied": {1: "an enemy unit stands in {0}", 2: "an enemy of {0} stands in {1}"},
    "friendly_occupied": {1: "a friendly unit stands in {0}"},
    "controls": {2: "{0} controls {1}"},
    "enemy_zoc": {1: "{0} is in an enemy zone of control", 2: "{1} is in the zone of control of an enemy of {0}"},
    "traced": {2: "{1} can trace {0}"},
    "traced_hex": {3: "{1} can trace {0} to {2}"},
    "traced_without": {3: "{1} could trace {0} if {2} were gone"},
    "supplied": {1: "{0} is supplied"},
    "vp": {1: "{0}'s VP"},
    "option": {1: "the {0} option is chosen"},
    "count": {1: "the number of {0}"},
    "min": {-1: "the least of {args}"},  # -1: any number of arguments
    "max": {-1: "the greatest of {args}"},
    "abs": {1: "{0} without its sign"},
}

# Quantifiers `count(u in S where C)`: {set} is the set (with its condition) in words.
FILTER_WORDS = {
    "count": "the number of {set}",
    "any": "there is at least one of {set}",
    "all": "for each of {members}, {condition}",  # {members}: the set alone, {condition}: what each meets
    "select": "{set}",
}
# `sum(V for u in S where C)`.
AGGREGATE_WORDS = {"sum": "the total, over {set}, of {value}", "min": "the least, among {set}, of {value}",
                   "max": "the greatest, among {set}, of {value}"}
SPECIAL_WORDS = {"if": "{1} if {0}, otherwise {2}"}

# Built-in names (rulec.compile.functions.NAMES); a game's own ids are worded from the game.
NAME_WORDS = {
    "turn": "the turn", "turns": "the last turn", "phase": "the phase", "phasing_side": "the phasing side",
    "lead": "the VP margin of the side ahead", "lead_ratio": "the ratio of the leading side's VP to the next side's",
    "leader": "the side with most VP", "objectives": "the objective hexes", "unit": "the unit",
    "strength": "the unit's strength", "move": "the unit's movement allowance", "side": "the unit's side",
    "true": "always", "false": "never", "on_map": "on the map", "pending": "not yet arrived", "exited": "exited",
    "eliminated": "eliminated", "movement": "movement", "combat": "combat", "victory_points": "victory points",
    "end_of_turn": "end-of-turn", "this_phase": "this phase", "this_player_turn": "this player-turn",
    "this_turn": "this turn", "previous_player_turn": "in the previous player-turn",
    "previous_turn": "in the previous turn", "hex": "the hex", "friendly": "the side tracing",
    "from_hex": "the hex the path leaves",
    "edge": "the edge the unit leaves by",
    "attacking": "the unit is attacking", "defending": "the unit is defending", "attackers": "the attacking units",
    "defenders": "the defending units", "attacker_hexes": "the attackers' hexes",
    "defender_hexes": "the hexes attacked",
    "defender_hex": "the hex attacked", "attacker_side": "the attacking side", "defender_side": "the defending side",
}

# Attributes of a unit (`u.strength`); {0} is the unit in words.
ATTRIBUTE_WORDS = {
    "side": "{0}'s side", "strength": "{0}'s strength", "move": "{0}'s movement allowance", "type": "{0}'s type",
    "hex": "{0}'s hex", "status": "{0}'s status", "division": "{0}'s division",
    "exited_from": "the hex {0} left the map from",
}
