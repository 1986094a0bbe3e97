"""The registry of diagnostic codes of the front end (language, schema, checks, files).

Every diagnostic carries a stable kebab-case code (the way mypy's
errorcodes.py names its errors), so tests, documentation and designers can
refer to a problem by name. A code, once published, keeps its meaning.
tests/test_check_bad_games.py checks that every code the front end emits is
listed here and that every code here has a bad game file proving it.

Battle-section codes are listed by rulec/check/build_battle.py.
"""

from __future__ import annotations

from rulec.check.completeness import COMPLETENESS_CODES
from rulec.check.constant_faults import FAULT_CODES
from rulec.check.names import NAME_CODES
from rulec.language.limits import LIMIT_CODES

CODES: dict[str, str] = {
    # ------------------------------------------------------------- files
    "no-such-game": "a game name that is not a file in games/",
    "no-such-file": "a path that is not a game file (missing, or a directory)",
    "unreadable-file": "a file that cannot be read (permissions, I/O error)",
    "not-a-game-file": "a file that is binary data or not UTF-8 text",
    "not-a-compiled-game": "a generated module that cannot be imported or defines no GAME",
    "internal-error": "a bug in rulec, reported instead of a traceback",
    # ------------------------------------------------------------ syntax
    "syntax": "a syntax error not covered by a more specific code",
    "syntax-character": "a character that cannot start any token",
    "syntax-unclosed-text": "a text in quotes not closed on its line",
    "syntax-unclosed-picture": "a picture '<<' without its closing '>>'",
    "syntax-unclosed": "a block, list or parenthesis still open at the end of the file",
    "syntax-end-of-file": "the file ends in the middle of a statement",
    "syntax-missing-value": "'=' not followed by a value",
    "syntax-missing-brace": "labels of a block not followed by '{'",
    "syntax-missing-equals": "a name not followed by '=' inside a { } value",
    "syntax-missing-comma": "list items not separated by ','",
    "syntax-unclosed-parenthesis": "'(' without its ')' in an expression",
    "syntax-unmatched-brace": "'}' without an open block",
    "syntax-unmatched-bracket": "']' or ')' without its opening bracket",
    "syntax-double-equals": "'=' written twice",
    "syntax-missing-operand": "an operator without a value after it",
    "syntax-bad-text": "a text in quotes with an escape that cannot be read",
    "syntax-too-deep": "values or expressions nested too deeply to read",
    "syntax-too-many": "a note: reporting stopped after many syntax errors",
    "duplicate-key": "a field or block defined twice",
    # ------------------------------------------------------------ schema
    "unknown-field": "a field or section the game language does not have",
    "missing-field": "a required field or section left out",
    "wrong-type": "a value of the wrong kind (a text where a number belongs ...)",
    "bad-value": "a value not among the allowed words",
    "out-of-range": "a number below its minimum or above its maximum",
    "empty": "a list or block that may not be empty",
    "game-block": "not exactly one 'game NAME { ... }' block",
    "schema": "any other schema violation",
    # ------------------------------------------------------- names (build)
    "unknown-side": "a side that no 'side' block declares",
    "unknown-terrain": "a terrain that no 'terrain' block declares",
    "unknown-hexside-feature": "a hexside feature that no 'hexside' block declares",
    "unknown-unit-type": "a unit type that no 'unit_type' block declares",
    "unknown-unit": "a unit that no 'unit' block declares",
    "unknown-flag": "a flag in game { flag_names } that no unit carries",
    "unknown-zone": "a zone named where one is wanted (an arrival area, control_of, holders, a trace's sources) that is neither a zone nor a map edge",
    "unknown-scenario": "a game's default scenario that no 'scenario' block declares",
    "unknown-edge": "a map edge that the map does not name",
    "unknown-phase": "a phase that the sequence of play does not have",
    "unknown-result-code": "a CRT result code that no 'result' block declares",
    "unknown-combat-table": "a combat table that no 'crt' block declares",
    "unknown-effect": "a combat result effect that is not in the vocabulary (eliminate, retreat, exchange, lose, lose_steps, advance, mark, unmark), or a hook effect that is not score, eliminate, mark, unmark, set, add, lose_step or restore_step",
    "unknown-option": "an option that no 'option' block declares",
    "unknown-mode": "a phase's 'modes' entry that is neither a 'mode' block nor 'ordinary'",
    "trace-cycle": "a trace's condition that asks a trace (traced, traced_hex, supplied)",
    "effect-argument": "an effect argument of the wrong kind (attacker or defender; a whole number, 1 or more)",
    "unknown-name": "a bare name in an expression that is no game id nor context value",
    "unknown-function": "a function the expression language does not have",
    "unknown-argument": "a keyword argument the function does not take",
    "argument-count": "a function called with too few or too many arguments",
    "wrong-kind-argument": "an argument naming the wrong kind of thing (a side where a zone belongs)",
    "wrong-kind": "an expression or operand of the wrong kind (a condition where a number belongs, a side compared with a hex)",
    "no-unit-here": "a name for the unit an award is about, in an expression about no unit",
    "no-marker-here": "phases_since_marked() outside a marker's 'expires'",
    "unknown-marker": "a marker that no 'marker' block declares",
    "unknown-variable": "a game variable that no 'variable' block declares (set(), add())",
    "marker-forbids": "a marker put on hexes that forbids units something",
    "marker-on": "a marker put on hexes named where a unit is marked (an arrival's 'marks')",
    "duplicate-name": "one name given to two things that must be told apart",
    "ambiguous-name": "a warning: one name used for things of different kinds",
    # --------------------------------------------------------------- map
    "map-size": "map columns or rows that run backwards, do not fit the numbering, or are absurdly many",
    "not-a-hex": "a value that is not a hex number of the map's numbering",
    "hex-off-map": "a hex outside the map",
    "hexside-not-adjacent": "a hexside between two hexes that are not neighbours",
    "duplicate-hexside": "a hexside listed twice for the same feature",
    "exit-not-off-map": "a road exit through a side of a hex that is not on the map edge",
    "edge-not-on-edge": "a hex listed in a map edge that is not on the edge of the map",
    "no-terrain": "a map with neither a picture nor a default terrain",
    "map-picture": "a map picture with a bad header, row number, row length or letter",
    # ------------------------------------------------------------- units
    "no-setup": "a unit with neither a set-up hex nor an arrival",
    "setup-and-arrival": "a unit with both a set-up hex and an arrival",
    "setup-overstacked": "a warning: more units set up in one hex than the stacking limit",
    "setup-with-enemy": "units of two sides set up in one hex",
    "move-beyond-map": "a warning: a movement allowance more than any move on the map can use (played as the most it can)",
    "arrival-after-game": "an arrival on a turn after the last turn of the game",
    "arrival-phase-side": "an arrival in a phase of the other side",
    "arrival-phase-kind": "an arrival in a phase that is not a movement phase (it would never arrive)",
    "arrival-nowhere": "an edge arrival naming no area and no hexes",
    "arrival-unused-field": "an arrival field its placement does not use (terrain at an edge, an area placed anywhere ...)",
    # ------------------------------------------------------------ combat
    "crt-column-kind": "a CRT column of the wrong kind (a ratio on a differential table ...)",
    "crt-column-order": "a CRT column whose range runs backwards",
    "crt-column-gap": "CRT columns that leave differentials with no column",
    "crt-column-overlap": "CRT columns that overlap",
    "crt-column-open": "a CRT column open-ended anywhere but at the ends of the table",
    "crt-labels": "a different number of CRT labels than columns",
    "crt-row-length": "a CRT row with a different number of results than columns",
    "crt-missing-row": "a roll of the die (or a modified roll between rows) with no CRT row",
    "unused-result-code": "a warning: a result code no table uses",
    "no-combat-rules": "combat phases without a 'combat' block",
    "field-alone": "a field that does nothing without another (zoc_extra_cost with zoc = none ...)",
    # --------------------------------------------------- sequence, victory
    "side-without-phase": "a warning: a side with no phase in the sequence of play",
    "phase-without-side": "a movement or combat phase that names no side (nobody would move or attack in it)",
    "turn-labels": "a different number of turn labels than turns",
    "bad-trigger": "an award 'when' that is not phase(), holds(), exits(), eliminated(), selected or game_end",
    "victory-level-order": "victory levels not listed best first",
    "victory-level-kind": "a victory level given as a ratio when victory is measured by the difference",
    "victory-level-form": "a victory level with both a lead and a condition, or a condition without a winner",
    # ----------------------------------------------------------- options
    "option-adds-regular-unit": "an option adding a unit that is not optional",
    "optional-unit-unused": "a warning: an optional unit no option adds",
    "option-improve-range": "an option choosing more units than have the variant it names (or a backwards range)",
    "unknown-variant": "an option choosing a variant no unit has",
    # ------------------------------------------------- procedures, scenarios
    "phase-field-kind": "a phase field of another procedure (movers outside a movement phase, a placement block outside a placement phase)",
    "placement-incomplete": "a placement phase without a placement block or without a side",
    "deployment-not-placement": "a scenario deployment naming a phase that is not a placement phase",
    "scenario-length": "a scenario that ends before the turn it starts on",
    "scenario-arrival": "a scenario scheduling the arrival of a unit that has no arrival",
    "arrival-before-start": "a scenario bringing a unit on before the turn the scenario starts",
    "untracked-hex": "a scenario's holders naming a hex whose holder the engine does not track",
    "held-twice": "a scenario's holders giving one hex to two sides",
}

# Limits on the size of a game file (rulec/language/limits.py), proved by tests/test_limits.py.
CODES.update(LIMIT_CODES)
# Names that would make a game mean something else than its file says (rulec/check/names.py).
CODES.update(NAME_CODES)
CODES.update(COMPLETENESS_CODES)  # a game playable as written, nothing declared unused (rulec/check/completeness.py)
CODES.update(FAULT_CODES)  # expressions that fail whatever the game (rulec/check/constant_faults.py)


def describe(code: str) -> str:
    """The one-line description of a code ('' for a code this registry does not know)."""
    return CODES.get(code, "")
