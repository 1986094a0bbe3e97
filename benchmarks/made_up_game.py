"""A made-up map game of any size, as game text, for the scaling and AI benchmarks.

    text = game_text(columns=70, rows=70, units=400)
    game = compile_text(text)          # through the normal pipeline: parse, check, build

Two sides (`west` and `east`) face each other across a river that runs down the
middle of the map, crossed by an east-west road every few rows; forests are
scattered by a fixed rule (no randomness, so every run is the same game). Each
side has `units // 2` units in lines along its own bank, in contact from the
start (so that battles, retreats and advances are played too); objectives are a town
on the river (`holds`), the enemy's map edge (`exits`) and a zone on the enemy's
bank counted every turn (a `phase` award), so an AI player has something to read
from every kind of award.
"""

from __future__ import annotations

import reference

reference.tree_on_path()

from rulec.diagnostics import DiagnosticError  # noqa: E402
from rulec.language.parse import parse_text  # noqa: E402
from rulec.pipeline import check  # noqa: E402
from rulec.runtime.model import Game  # noqa: E402


def _items(items) -> str:
    """A list's items, 50 to a line: a game file's line holds at most 10,000 characters."""
    items = list(items)
    return ",\n    ".join(", ".join(items[i:i + 50]) for i in range(0, len(items), 50))


def game_text(columns: int, rows: int, units: int, turns: int = 5) -> str:
    """The text of a game on a `columns` x `rows` map with `units` units in all (half a side)."""
    digits = 2 if max(columns, rows) < 100 else 3
    numbering = "C" * digits + "R" * digits

    def number(column: int, row: int) -> str:
        return f"{column:0{digits}d}{row:0{digits}d}"

    middle = (columns + 1) // 2
    forests = [number(c, r) for c in range(1, columns + 1) for r in range(1, rows + 1)
               if (c * 7 + r * 13) % 11 == 0 and c != middle]
    river, roads = [], []
    for r in range(1, rows + 1):
        # Both hexsides between a hex of the middle column and the next column east (even columns sit lower).
        for east_row in ((r, r + 1) if middle % 2 == 0 else (r - 1, r)):
            if 1 <= east_row <= rows:
                river.append(f"{number(middle, r)}/{number(middle + 1, east_row)}")
        if r % 4 == 2:  # an east-west road across the whole map, with a bridge
            for c in range(1, columns):
                roads.append(f"{number(c, r)}/{number(c + 1, r)}")
    town = number(middle, (rows + 1) // 2)
    per_side = max(1, units // 2)
    lines = [
        "game made_up {", '  title = "A Made-Up Front"', f"  turns = {turns}", "}",
        'side west { name = "West" }', 'side east { name = "East" }',
        "map {", "  orientation = flat_top", "  offset = even_columns_down", f"  numbering = {numbering}",
        f"  columns = 1..{columns}", f"  rows = 1..{rows}", "  default_terrain = clear",
        f"  features {{ forest = [{_items(forests) or town}]  town = [{town}] }}",
        f"  hexsides roads {{ feature = road  sides = [{_items(roads)}] }}" if roads else "",
        f"  hexsides river {{ feature = river  sides = [{_items(river)}] }}",
        "  edges {",
        f"    west = {number(1, 1)}..{number(1, rows)}",
        f"    east = {number(columns, 1)}..{number(columns, rows)}",
        "  }",
        f"  zones {{ east_bank = [{_items(number(c, r) for c in range(middle + 1, min(columns, middle + 3) + 1) for r in range(1, rows + 1))}] }}",
        "}",
        "terrain clear { move = 1 }",
        "terrain forest { move = 2  combat_shift = -1 }",
        "terrain town { move = as_other  combat_shift = -1 }",
        "hexside road { kind = road  move = 1 }",
        "hexside river { crossing = all_mp_from_start_adjacent  combat_shift = -2  blocks_retreat = true  road_negates_crossing = true }",
        'unit_type infantry { name = "Infantry"  symbol = infantry }',
    ]
    # Each side's units stand in a line along its own bank of the river, every other hex, the next line behind.
    for side, columns_of_side in (("west", range(middle, 0, -1)), ("east", range(middle + 1, columns + 1))):
        spots = [number(c, r) for c in columns_of_side for r in range(1 + c % 2, rows + 1, 2)]
        if per_side > len(spots):
            raise ValueError(f"{units} units do not fit on a {columns}x{rows} map")
        for i in range(per_side):
            lines.append(f'unit {side}_{i} {{ side = {side}  designation = "{side[0].upper()}{i}"  type = infantry'
                         f"  strength = {2 + i % 4}  move = {3 + i % 3}  setup = {spots[i]} }}")
    lines += [
        "movement { zoc = stop_on_entry  exit_map = true  exit_cost = as_hex_left }",
        "stacking { limit = 1  checked = end_of_every_phase  pass_through_friendly = true  overstack = owner_removes }",
        "crt main {", "  kind = differential", "  columns = [..-1, 0, 1..2, 3..]",
        "  rows { 1 = [NE, DR, DR, DE]  2 = [NE, NE, DR, DR]  3 = [AR, NE, DR, DR]",
        "         4 = [AR, AR, NE, DR]  5 = [AE, AR, NE, DR]  6 = [AE, AR, AR, NE] }", "}",
        'result NE { name = "No Effect" }',
        'result DR { name = "Defender Retreats"  effects = [retreat(defender, 1), advance(1)] }',
        'result DE { name = "Defender Eliminated"  effects = [eliminate(defender), advance(1)] }',
        'result AR { name = "Attacker Retreats"  effects = [retreat(attacker, 1)] }',
        'result AE { name = "Attacker Eliminated"  effects = [eliminate(attacker)] }',
        "combat { table = main  defenders = hex",
        "  retreat { chosen_by = owner  direction = away  may_not_enter = [occupied, enemy_zoc]  when_blocked = eliminated }",
        "}",
        "sequence {",
        '  phase west_movement { side = west  kind = movement  name = "West Movement" }',
        '  phase west_combat { side = west  kind = combat  name = "West Combat" }',
        '  phase east_movement { side = east  kind = movement  name = "East Movement" }',
        '  phase east_combat { side = east  kind = combat  name = "East Combat" }',
        '  phase west_vp { side = west  kind = victory_points  name = "West VP" }',
        "}",
        f"award west_town {{ side = west  when = holds({town})  amount = 5 }}",
        f"award east_town {{ side = east  when = holds({town})  amount = 5 }}",
        "award west_exit { side = west  when = exits(east)  amount = 3 }",
        "award east_exit { side = east  when = exits(west)  amount = 3 }",
        "award west_bank { side = west  when = phase(west_vp)  amount = count(units(side = west, zone = east_bank)) }",
        "award east_losses { side = east  when = eliminated(west)  amount = strength }",
        "award west_losses { side = west  when = eliminated(east)  amount = strength }",
        "victory {", "  measure = difference", '  level win { at_least = 1  name = "Victory" }', '  draw = "Draw"', "}",
    ]
    return "\n".join(line for line in lines if line) + "\n"


# The combat lines in the words of rulec before results listed their effects (20317e9 and its time), for `--against`:
# the same results and the retreat rules as near as those words say them.
OLDER_WORDS = {
    'result DR { name = "Defender Retreats"  effects = [retreat(defender, 1), advance(1)] }':
        'result DR { name = "Defender Retreats"  defender_retreat = 1  advance = 1 }',
    'result DE { name = "Defender Eliminated"  effects = [eliminate(defender), advance(1)] }':
        'result DE { name = "Defender Eliminated"  defender_eliminated = true  advance = 1 }',
    'result AR { name = "Attacker Retreats"  effects = [retreat(attacker, 1)] }':
        'result AR { name = "Attacker Retreats"  attacker_retreat = 1 }',
    'result AE { name = "Attacker Eliminated"  effects = [eliminate(attacker)] }':
        'result AE { name = "Attacker Eliminated"  attacker_eliminated = true }',
    "combat { table = main  defenders = hex\n"
    "  retreat { chosen_by = owner  direction = away  may_not_enter = [occupied, enemy_zoc]  when_blocked = eliminated }\n}":
        "combat { table = main  defenders = hex  retreat_chosen_by = owner  retreat_through_units = false\n"
        "  retreat_into_enemy_zoc = false }",
}


def in_older_words(text: str) -> str:
    for new, old in OLDER_WORDS.items():
        text = text.replace(new, old)
    return text


def compile_text(text: str, file: str = "<made-up game>") -> Game:
    """The game model of a game text, through the same parse and check as `rulec` itself. A rulec older than
    results with `effects` (a reference commit measured side by side) gets the same game in its own words."""
    game, diagnostics = check(parse_text(text, file))
    if game is None and any("'effects' is not a field" in d.message for d in diagnostics):
        game, diagnostics = check(parse_text(in_older_words(text), file))
    if game is None:
        raise DiagnosticError([d for d in diagnostics if d.is_error])
    return game
