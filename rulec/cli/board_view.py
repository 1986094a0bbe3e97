"""The terminal map: a hex grid in text, drawn from the model's HexGrid.

Every hex is a cell two lines high and `CELL_WIDTH` characters wide:

    0807:G1-1   hex number and the unit in it (side initial, strength-move; `+` instead of
                `:` when several units stack there)
     Cc *=~     base terrain letter (upper case), first feature (lower case), and
                markers: `*` a named place, `=` a road, `~` a river hexside

Flat-top grids zig-zag by column (a shifted column sits one text line lower);
pointy-top grids zig-zag by row (a shifted row sits half a cell to the right).
Colour (24-bit ANSI from the sides' colours, a fixed palette for terrain) is
used only when asked for; the caller decides from the terminal and `--no-color`.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, TextIO

from rulec.check.hexgrid import is_shifted
from rulec.cli import hex_board
from rulec.cli.hex_board import HexBoard
from rulec.engine.actions import Action
from rulec.engine.frames import Loss, Moving, Placing
from rulec.players import view
from rulec.runtime.model import Game, Hex, Unit

CELL_WIDTH = 11
KEY_WIDTH = 100  # the unit key under the map wraps at this width, about the map's own
RESET = "\x1b[0m"
DIM = "\x1b[2m"
TERRAIN_PALETTE = ((150, 190, 110), (60, 140, 60), (170, 130, 80), (120, 160, 200), (200, 180, 90), (190, 110, 110))


def _rgb(color: str) -> tuple[int, int, int] | None:
    text = color.lstrip("#")
    if len(text) != 6:
        return None
    try:
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    except ValueError:
        return None


def _paint(text: str, rgb: tuple[int, int, int] | None, color: bool, bold: bool = False) -> str:
    if not color or rgb is None:
        return text
    return f"\x1b[{'1;' if bold else ''}38;2;{rgb[0]};{rgb[1]};{rgb[2]}m{text}{RESET}"


def terrain_letters(game: Game) -> dict[str, str]:
    """Terrain id -> its letter: base terrains upper case, features lower case."""
    base = {ts[0] for ts in game.map.terrain.values() if ts}
    return {t: (t[0].upper() if t in base else t[0].lower()) for t in game.terrain}


def side_letters(game: Game) -> dict[str, str]:
    letters: dict[str, str] = {}
    for side in game.sides:
        letter = side[0].upper()
        if letter in letters.values():  # two sides with one initial: fall back to a digit
            letter = str(len(letters) + 1)
        letters[side] = letter
    return letters


def counter_text(unit: Unit, strength: int) -> str:
    return f"{strength}-{unit.move}"


class BoardView:
    """Draws one game's map; build once per game, call `render` for each position."""

    def __init__(self, game: Game, color: bool = False, hexes: bool = True):
        self.game = game
        self.color = color
        self.letters = terrain_letters(game)
        self.sides = side_letters(game)
        self.terrain_rgb = {t: TERRAIN_PALETTE[i % len(TERRAIN_PALETTE)] for i, t in enumerate(game.terrain)}
        # Drawn as hexes with their hexsides when the grid is flat-top and fits 80 columns; the grid of cells otherwise.
        self.hex_board = HexBoard(game, self.letters, self.sides, self.terrain_rgb, color) \
            if hexes and hex_board.fits(game) else None
        map_ = game.map
        self.road_hexes: set[Hex] = set()
        self.river_hexes: set[Hex] = set()
        for key, features in map_.hexside_features.items():
            kinds = {game.hexside_types[f].kind for f in features if f in game.hexside_types}
            for hex_ in key.split("/"):
                if "road" in kinds:
                    self.road_hexes.add(hex_)
                if "river" in kinds:
                    self.river_hexes.add(hex_)
        self.road_hexes.update(h for h, exits in map_.edge_exits.items() if exits)

    # ------------------------------------------------------------------ cells
    def _cell(self, hex_: Hex, stack: list[tuple[Unit, int]]) -> tuple[str, str]:
        terrains = self.game.map.terrain.get(hex_, ())
        letters = "".join(self.letters.get(t, "?") for t in terrains[:2]).ljust(2)
        width = CELL_WIDTH - 1
        top = hex_
        if stack:
            unit, strength = stack[0]
            side = self.game.sides.get(unit.side)
            text = f"{self.sides.get(unit.side, '?')}{counter_text(unit, strength)}"
            top += ("+" if len(stack) > 1 else ":") + _paint(text, _rgb(side.color) if side else None, self.color, bold=True)
            top += " " * max(0, width - len(hex_) - 1 - len(text))
        else:
            top = top.ljust(width)
        markers = ("*" if hex_ in self.game.map.places else "") + ("=" if hex_ in self.road_hexes else "") + \
                  ("~" if hex_ in self.river_hexes else "")
        terrain_rgb = self.terrain_rgb.get(terrains[0]) if terrains else None
        bottom = " " + _paint(letters.rstrip(), terrain_rgb, self.color) + " " * (3 - len(letters.rstrip()))
        bottom += (_paint(markers, (150, 150, 150), self.color) if markers else "") + " " * (width - 4 - len(markers))
        return top, bottom

    def render(self, stacks: Mapping[Hex, list[tuple[Unit, int]]], names: Mapping[str, str] | None = None) -> str:
        """The map with the given units: hex -> [(unit, current strength)], top of the stack first."""
        if self.hex_board is not None:
            return self.hex_board.render(stacks, names or {})
        grid = self.game.map.grid
        coordinates = self.game.map.coordinates
        columns = range(grid.columns[0], grid.columns[1] + 1)
        rows = range(grid.rows[0], grid.rows[1] + 1)
        by_position = {position: hex_ for hex_, position in coordinates.items()}
        blank = (" " * (CELL_WIDTH - 1), " " * (CELL_WIDTH - 1))
        lines: list[str] = []
        if grid.orientation == "flat_top":
            height = 2 * len(rows) + 1
            canvas = [[] for _ in range(height)]
            for column in columns:
                shifted = is_shifted(grid, column, rows[0])
                cells = [blank[0]] if shifted else []
                for row in rows:
                    hex_ = by_position.get((column, row))
                    cells.extend(self._cell(hex_, list(stacks.get(hex_, ()))) if hex_ else blank)
                cells.extend([blank[0]] * (height - len(cells)))
                for line, text in zip(canvas, cells):
                    line.append(text)
            lines = [" ".join(parts).rstrip() for parts in canvas]
        else:
            for row in rows:
                indent = " " * (CELL_WIDTH // 2) if is_shifted(grid, columns[0], row) else ""
                tops, bottoms = [], []
                for column in columns:
                    hex_ = by_position.get((column, row))
                    top, bottom = self._cell(hex_, list(stacks.get(hex_, ()))) if hex_ else blank
                    tops.append(top)
                    bottoms.append(bottom)
                lines.append(indent + " ".join(tops).rstrip())
                lines.append(indent + " ".join(bottoms).rstrip())
        return "\n".join(lines)

    def unit_key(self, stacks: Mapping[Hex, list[tuple[Unit, int]]], names: Mapping[str, str]) -> str:
        """Who is where, since a cell has room for one counter only: one wrapped line per side,
        "SIDE (X): HEX NAME (s-m); HEX NAME (s-m) + NAME (s-m); ...", hexes in order, whole stacks."""
        lines = []
        for side_id, side in self.game.sides.items():
            entries = []
            for hex_ in sorted(stacks):
                mine = [(u, s) for u, s in stacks[hex_] if u.side == side_id]
                if mine:
                    entries.append(f"{hex_} " + " + ".join(f"{names.get(u.id, u.id)} ({counter_text(u, s)})" for u, s in mine))
            if entries:
                lines.extend(_wrap_entries(f"{side.name} ({self.sides[side_id]}):", entries))
        return "\n".join(lines)

    def legend(self) -> str:
        """Terrain letters, side letters, markers and the named places."""
        terrain = ", ".join(f"{letter} {self.game.terrain[t].name or t}" for t, letter in self.letters.items())
        sides = ", ".join(f"{letter} {self.game.sides[s].name}" for s, letter in self.sides.items())
        if self.hex_board is not None:
            out = [f"terrain: {terrain} (upper case: the hex's terrain, lower case: a feature in it)",
                   f"sides: {sides}", self.hex_board.legend()]
            places = [f"{h} {name}" for h, name in sorted(self.game.map.places.items())]
            return "\n".join([*out, *(_wrap_entries("places:", places) if places else [])])
        out = [f"terrain: {terrain} (upper case: the hex's terrain, lower case: a feature in it)",
               f"units: {sides} (HEX:Xs-m is a unit of side X, strength s, move m; HEX+ a stack; "
               "the names are listed under the map)",
               "markers: * a named place, = a road through the hex, ~ a river along one of its sides"]
        places = [f"{h} {name}" for h, name in sorted(self.game.map.places.items())]
        if places:
            out.extend(_wrap_entries("places:", places))
        return "\n".join(out)


def _wrap_entries(head: str, entries: list[str]) -> list[str]:
    """`head` then the entries separated by '; ', wrapped between entries (never inside one)."""
    lines, line = [], head
    for entry in entries:
        if len(line) + 2 + len(entry) > KEY_WIDTH and line.strip():
            lines.append(line + ";")
            line = "    " + entry
        else:
            line += ("; " if line != head else " ") + entry
    lines.append(line)
    return lines


# ---------------------------------------------------------------- the screen
def use_color(stream: Any, no_color: bool) -> bool:
    """ANSI colour only on a terminal, never with --no-color or NO_COLOR set."""
    return not no_color and not os.environ.get("NO_COLOR") and hasattr(stream, "isatty") and stream.isatty()


class GameScreen:
    """Everything `rulec play` and `rulec replay` print about a running game.

    `narrate(state, action, seat)` is called before each action is applied;
    what the action caused (a battle's result, VP scored, a new phase) is printed
    on the next call or by `flush(state)`.
    """

    def __init__(self, game: Game, color: bool = False, out: TextIO | None = None, map_every: str = "turn"):
        self.game = game
        self.out = out
        self.color = color
        self.board = BoardView(game, color) if game.map is not None else None
        self.map_every = map_every  # "turn", "phase" or "action"
        self._where: tuple | None = None
        self._vp_seen = 0
        self._battle_pending = False
        self._legend_shown = False
        self._on_map: set[str] | None = None
        self._after_action = False  # an order was given since the last flush (for map_every="action")
        self._positions: dict[str, Hex] = {}  # where the units stood at the last flush
        self._ordered: set[str] = set()  # units the orders since then moved (others moved by the rules)
        self._advance_told: Any = None  # the advance after combat last announced
        self._marks_seen: set[tuple[str, str]] = set()  # (unit id or hex, marker) at the last flush
        self._last_map: tuple | None = None  # the map, unit key and marked hexes as last printed

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    # ----------------------------------------------------------- headings
    def title(self, kinds: dict[str, str], options: tuple[str, ...], seed: int) -> str:
        info = self.game.info
        players = ", ".join(f"{self.game.sides[s].name} ({k})" for s, k in kinds.items())
        lines = [f"{info.title}" + (f", {info.edition}" if info.edition else ""), f"players: {players}; seed {seed}"]
        if info.reconstruction_notice:
            lines.insert(1, info.reconstruction_notice)
        if options:
            lines.append("options: " + ", ".join(self.game.options[o].name or o for o in options))
        return "\n".join(lines)

    def status_line(self, state: Any) -> str:
        info = self.game.info
        phase = state.phase
        vp = ", ".join(f"{self.game.sides[s].name} {v}" for s, v in state.vp.items())
        variables = "".join(f" | {self.game.variables[v].name}: {_shown(value)}" for v, value in state.variables.items())
        return f"== {info.turn_label(state.turn)} (turn {state.turn} of {info.turns}) | {phase.name} | VP: {vp}{variables} =="

    def show_position(self, state: Any, legend: bool = False) -> None:
        """The turn, phase and VP, then the map; the legend the first time (or when asked)."""
        self.say(self.status_line(state))
        if self.board is not None:
            stacks = self._stacks(state)
            names = {u: _name(state, u) for u in view.unit_hexes(state)}
            drawn = self.board.render(stacks, names)
            key = self.board.unit_key(stacks, {u: name + _marked(state, u) for u, name in names.items()})
            hexes = _marked_hexes(state)
            if (drawn, key, hexes) == self._last_map and not legend:  # reprinted only when something changed
                self.say("(the map is as shown above; `map` shows it again)")
                return
            self._last_map = (drawn, key, hexes)
            self.say(drawn)
            if key:
                self.say(key)
            if hexes:
                self.say("\n".join(_wrap_entries("marked hexes:", hexes)))
            if legend or not self._legend_shown:
                self.say(self.board.legend())
                self._legend_shown = True

    def show_units(self, state: Any) -> None:
        positions = view.unit_hexes(state)
        for side in self.game.sides:
            self.say(f"{self.game.sides[side].name}:")
            for unit_id, unit in self.game.units.items():
                if unit.side != side:
                    continue
                status = _status(state, unit_id, positions)
                if status == "unused":
                    continue
                current = view.current_unit(state, unit_id)
                where = positions.get(unit_id) or status
                if status == "pending":
                    due = getattr(state, "arrival_turn", lambda u: None)(unit_id)
                    if due is None:
                        where = "to arrive (any turn)"
                    else:
                        where = "may enter this turn" if due <= state.turn else f"to arrive turn {due}"
                name = state.unit_name(unit_id) if hasattr(state, "unit_name") else unit_id
                self.say(f"  {name:>8}  {unit.label:<12} {counter_text(current, current.strength):>5}  {where}")

    def _stacks(self, state: Any) -> dict[Hex, list[tuple[Unit, int]]]:
        stacks: dict[Hex, list[tuple[Unit, int]]] = {}
        for unit_id, hex_ in view.unit_hexes(state).items():
            unit = view.current_unit(state, unit_id)
            stacks.setdefault(hex_, []).append((unit, unit.strength))
        return stacks

    # ----------------------------------------------------------- narration
    def narrate(self, state: Any, action: Any, seat: int) -> None:
        self.flush(state)
        text = state.action_to_string(action)
        if state.is_chance_node():
            self._battle_pending = True
            self.say(f"    die roll: {text.split()[-1]}")
            return
        side = self.game.sides[state.players[seat]].name if 0 <= seat < len(state.players) else "?"
        kind = getattr(action, "kind", None)
        if kind in ("with", "attack") and not getattr(action, "units", None):
            return  # a battle being declared step by step is told whole when it is resolved
        mover = getattr(action, "unit", None)
        if text.startswith("retreat") and getattr(state, "retreats", None):
            mover = state.retreats[0].unit
        if mover:
            self._ordered.add(mover)
        line = f"  {side}: {describe_order(state, action, text)}"
        if kind == "resolve" and hasattr(state, "odds") and not _declares_first(self.game):
            line += "  -- " + describe_odds(self.game, state.odds())
        elif kind == "fight" and (battle := _declared_battle(state, action)) is not None:
            attackers = tuple(u for u in battle.attackers if _status(state, u, view.unit_hexes(state)) == "map")
            if attackers and any(h in battle.targets for h in view.unit_hexes(state).values()):
                line += "  -- " + describe_odds(self.game, state.odds(Action.attack(battle.targets[0], attackers)))
        elif text.startswith("attack") and hasattr(state, "odds"):
            line += "  -- " + describe_odds(self.game, state.odds(action))
        self.say(line)
        self._after_action = True

    def flush(self, state: Any) -> None:
        """Print what the last action caused: a battle result, VP scored, a new phase (with the map)."""
        if self._battle_pending:
            self._battle_pending = False
            report = getattr(state, "last_battle", None)
            if report is not None:
                result = self.game.results.get(report.result)
                self.say(f"    result: {report.result}" + (f" ({result.name})" if result else ""))
            self._report_losses(state)
            self._report_forced_moves(state)
            self._report_aftermath(state)
        self._report_losses(state)
        self._report_forced_moves(state)
        self._report_advance(state)
        self._report_markers(state)
        log = getattr(state, "vp_log", ())
        for entry in log[self._vp_seen:]:
            self.say(f"    +{entry.amount} VP {self.game.sides[entry.side].name}: {self._vp_reason(state, entry)}")
        self._vp_seen = len(log)
        where = (state.turn, getattr(state, "phase_index", state.phase.id), state.is_terminal())
        if self._where is not None and not state.is_terminal():
            new_turn = self._where[0] != state.turn
            if self.map_every == "action" and self._after_action:
                self.show_position(state)
            elif where != self._where:
                if self.map_every == "phase" or (self.map_every == "turn" and new_turn):
                    self.show_position(state)
                else:
                    self.say(self.status_line(state))
        self._where = where
        self._after_action = False

    def _report_aftermath(self, state: Any) -> None:
        """Who must retreat (and who picks the path) and who may advance, so that the next prompt makes sense."""
        for retreat in getattr(state, "retreats", None) or []:
            chooser = self.game.sides.get(retreat.chooser)
            self.say(f"    {_name(state, retreat.unit)} must retreat {retreat.hexes} hex{'es' if retreat.hexes != 1 else ''}"
                     + (f"; {chooser.name} chooses the path" if chooser else ""))
        pending = getattr(state, "pending", None)
        if isinstance(pending, Loss):  # an exchange or a loss of strength or steps: who pays is chosen
            side = self.game.sides.get(pending.side)
            owed = (f"{pending.owed} more step{'s' if pending.owed != 1 else ''}" if pending.in_steps
                    else f"{pending.owed} more strength")
            payers = [u for u in pending.units if getattr(state, "status", lambda _: "map")(u) == "map"]
            self.say(f"    {side.name if side else pending.side} must lose {owed} from "
                     f"{', '.join(_name(state, u) for u in payers)} (`lose UNIT`, one at a time)")
        self._report_advance(state)

    def _report_advance(self, state: Any) -> None:
        """Who may advance after combat, once each time the chance comes (after the retreats)."""
        advance = getattr(state, "advancing", None)
        if advance is not None and not getattr(state, "retreats", None) and advance != self._advance_told:
            side = self.game.sides.get(advance.side)
            self.say(f"    {side.name if side else advance.side} may advance into {' '.join(advance.hexes)}"
                     f" with {', '.join(_name(state, u) for u in advance.units)} (or `advance none`)")
        self._advance_told = advance

    def _report_forced_moves(self, state: Any) -> None:
        """Name units the rules moved without an order (a retreat with one possible path)."""
        positions = dict(view.unit_hexes(state))
        report = getattr(state, "last_battle", None)
        fought = set(report.attackers) | set(report.defenders) if report is not None else set()
        for unit_id, hex_ in positions.items():
            before = self._positions.get(unit_id)
            if before is not None and before != hex_ and unit_id not in self._ordered:
                how = "retreats" if unit_id in fought else "is moved"
                self.say(f"    {_name(state, unit_id)} {how} {before} -> {hex_} (the only way)")
        self._positions = positions
        self._ordered = set()

    def _report_markers(self, state: Any) -> None:
        """Markers put on or taken off since the last look: "r1 is marked Disrupted", "... no longer Disrupted"."""
        table = getattr(state, "markers", None)
        if table is None:
            return
        marks = {(t, m) for part in (table.units, table.hexes) for t, found in part.items() for m in found}
        if marks == self._marks_seen:
            return
        names = self.game.markers
        for target, marker in sorted(marks - self._marks_seen):
            self.say(f"    {_name(state, target) if target in self.game.units else target} is marked {names[marker].name}")
        for target, marker in sorted(self._marks_seen - marks):
            self.say(f"    {_name(state, target) if target in self.game.units else target} is no longer {names[marker].name}")
        self._marks_seen = marks

    def _report_losses(self, state: Any) -> None:
        """Name the units that left the map by elimination since the last look."""
        on_map = set(view.unit_hexes(state))
        if self._on_map is not None:
            for unit_id in sorted(self._on_map - on_map, key=list(self.game.units).index):
                if _status(state, unit_id, {}) == "eliminated":
                    name = state.unit_name(unit_id) if hasattr(state, "unit_name") else unit_id
                    self.say(f"    eliminated: {name} ({self.game.sides[self.game.units[unit_id].side].name})")
        self._on_map = on_map

    def _vp_reason(self, state: Any, entry: Any) -> str:
        reason = self._source_text(entry.source)
        if entry.unit:
            reason += f", {state.unit_name(entry.unit) if hasattr(state, 'unit_name') else entry.unit}"
        if entry.hex:
            reason += f" at {entry.hex}"
        return reason

    def vp_summary(self, state: Any) -> list[str]:
        """Where each side's VP came from: one line per side and source, largest first."""
        totals: dict[tuple[str, str], int] = {}
        for entry in getattr(state, "vp_log", ()):
            key = (entry.side, entry.source)
            totals[key] = totals.get(key, 0) + entry.amount
        lines = []
        for side_id, side in self.game.sides.items():
            mine = sorted(((amount, source) for (s, source), amount in totals.items() if s == side_id and amount),
                          key=lambda item: -item[0])
            if mine:
                lines.append(f"VP {side.name}:")
                lines.extend(f"  {amount:+4d}  {self._source_text(source)}" for amount, source in mine)
        return lines

    def _source_text(self, source: str) -> str:
        award = next((a for a in self.game.awards if a.id == source), None)
        return (award.text or award.id) if award else source

    def result_line(self, state: Any, final: bool) -> str:
        """'game over: SIDE wins, LEVEL (VP SIDE n, OTHER m; margin d)', or 'result so far: ...'."""
        outcome = state.outcome()
        vp = ", ".join(f"{self.game.sides[s].name} {v}" for s, v in outcome.vp.items())
        who = self.game.sides[outcome.winner].name if outcome.winner else None
        if final:
            verdict = f"{who} wins, {outcome.level}" if who else outcome.level
            return f"game over: {verdict} (VP {vp}; margin {outcome.margin:g})"
        verdict = f"{who} would win, {outcome.level}" if who else outcome.level
        return f"result so far: {verdict} (VP {vp}; margin {outcome.margin:g})"


def describe_order(state: Any, action: Any, text: str) -> str:
    """What an order does, in words, read before it is applied: '357 moves 0101 -> 0203 (2 of 4 MP)'.

    Orders the describer does not know (or a state without positions) keep their notation.
    """
    words = text.split()
    kind = words[0] if words else text
    unit_id = getattr(action, "unit", None)
    name = state.unit_name(unit_id) if unit_id and hasattr(state, "unit_name") else unit_id
    here = view.unit_hexes(state).get(unit_id) if unit_id else None
    if kind == "move" and name and getattr(action, "hex", None) is None:
        return f"{name} is chosen to move" + (f" from {here}" if here else " onto the map")
    pending = getattr(state, "pending", None)
    if kind == "cancel" and isinstance(pending, (Moving, Placing)):
        return f"{state.unit_name(pending.unit)} is put back: another unit may be chosen"
    if kind == "move" and name:
        spent = _movement_points(state, unit_id, state.move_cost(unit_id, action.hex)
                                 if hasattr(state, "move_cost") else None)
        return (f"{name} moves {here} -> {action.hex}" if here else f"{name} enters the map at {action.hex}") + spent
    if kind == "exit" and name:
        spent = _movement_points(state, unit_id, state.exit_cost(unit_id, action.edge)
                                 if hasattr(state, "exit_cost") else None)
        return (f"{name} leaves the map from {here} by the {action.edge} edge" if here else
                f"{name} leaves by the {action.edge} edge") + spent
    if kind == "delay" and name:
        return f"{name} delays its arrival"
    if kind == "place" and name:
        return f"{name} is placed at {action.hex}" if action.hex else f"{name} is chosen to be placed"
    if kind == "remove" and name:
        return f"{name} is removed" + (f" from {here}" if here else "")
    if kind == "retreat":
        retreats = getattr(state, "retreats", None) or []
        unit_id = retreats[0].unit if retreats else None
        if unit_id:
            start = view.unit_hexes(state).get(unit_id)
            path = " -> ".join([*([start] if start else []), *words[1:]])
            return f"{state.unit_name(unit_id)} retreats {path}"
    if kind == "attack" and getattr(action, "units", None) and getattr(action, "hex", None):
        attackers = ", ".join(state.unit_name(u) for u in action.units)
        defenders = [u for u, h in view.unit_hexes(state).items() if h == action.hex]
        held = ", ".join(f"{state.unit_name(u)} ({counter_text(view.current_unit(state, u), view.current_unit(state, u).strength)})"
                         for u in defenders)
        return f"{attackers} attack{'s' if len(action.units) == 1 else ''} {action.hex}" + (f" (held by {held})" if held else "")
    if kind in ("resolve", "cancel") and getattr(state, "declaring", None) is not None:
        battle = state.declaring
        if kind == "cancel":
            return f"calls off the attack on {' '.join(battle.targets)}"
        told = _battle_words(state, battle.targets, battle.attackers)
        return f"declares: {told}" if _declares_first(state.game) else told
    if kind == "fight" and (battle := _declared_battle(state, action)) is not None:
        positions = view.unit_hexes(state)
        attackers = tuple(u for u in battle.attackers if u in positions)
        if not attackers or not any(h in battle.targets for h in positions.values()):
            return f"the battle for {' '.join(battle.targets)} lapses (one side is gone)"
        return _battle_words(state, battle.targets, attackers)
    if kind == "lose" and name:
        if getattr(state, "steps_left", None) is not None and state.steps_left(unit_id) > 1:
            return f"{name} loses a step to pay for the battle"
        return f"{name} is lost to pay for the battle"
    if kind == "advance":
        if unit_id is None:
            return "no advance after combat"
        return f"{name} advances {here} -> {action.hex}" if here else f"{name} advances into {action.hex}"
    if kind == "end":
        return f"ends the {state.phase.name}" if hasattr(state, "phase") else "end"
    return text


def _battle_words(state: Any, targets: tuple, attackers: tuple) -> str:
    """'357, 358 attack 0405 (held by 1010 (1-4))'."""
    names = ", ".join(state.unit_name(u) for u in attackers)
    defenders = [u for u, h in view.unit_hexes(state).items() if h in targets]
    held = ", ".join(f"{state.unit_name(u)} ({counter_text(view.current_unit(state, u), view.current_unit(state, u).strength)})"
                     for u in defenders)
    return f"{names} attack{'s' if len(attackers) == 1 else ''} {' '.join(targets)}" + (f" (held by {held})" if held else "")


def _declares_first(game: Any) -> bool:
    combat = getattr(game, "combat", None)
    return getattr(combat, "declare", "each") == "all_first"


def _declared_battle(state: Any, action: Any) -> Any:
    """The declared battle a `fight HEX` order fights (games that declare every battle first)."""
    frame = getattr(state, "pending", None)
    return next((b for b in getattr(frame, "battles", ()) if b.targets[0] == getattr(action, "hex", None)), None)


def _movement_points(state: Any, unit_id: str, spent: int | None) -> str:
    """' (2 of 4 MP)': what a move spends of the unit's allowance; nothing when the state cannot tell."""
    if spent is None:
        return ""
    return f" ({spent} of {view.current_unit(state, unit_id).move} MP)"


def describe_odds(game: Game, odds: Any) -> str:
    """'8 vs 1, differential +7, terrain -2 -> column "+4, +5"' for a declared battle."""
    table = game.tables.get(game.combat.table) if game.combat else None
    if table is not None and table.kind == "odds":
        base = f"{odds.attack} vs {odds.defence}"
    else:
        base = f"{odds.attack} vs {odds.defence}, differential {odds.attack - odds.defence:+g}"  # a kept fraction: 2.5
    shifts = []
    if odds.terrain_shift:
        shifts.append(f"terrain {odds.terrain_shift:+d}")
    if odds.modifier_shift:
        shifts.append(f"modifiers {odds.modifier_shift:+d}")
    if odds.drm:
        shifts.append(f"die {odds.drm:+d}")
    named = f" (modifiers: {', '.join(odds.modifiers)})" if getattr(odds, "modifiers", ()) else ""
    return f"{base}{', ' + ', '.join(shifts) if shifts else ''} -> column \"{odds.label}\"{named}"


def _status(state: Any, unit_id: str, positions: dict) -> str:
    if unit_id in positions:
        return "map"
    status = getattr(state, "status", None)
    return status(unit_id) if callable(status) else "off map"


def _name(state: Any, unit_id: str) -> str:
    return state.unit_name(unit_id) if hasattr(state, "unit_name") else unit_id


def _marked(state: Any, unit_id: str) -> str:
    """The markers a unit carries, as the unit key shows them: " [Disrupted]"."""
    markers = state.markers_on(unit_id) if hasattr(state, "markers_on") else ()
    return f" [{', '.join(state.game.markers[m].name for m in markers)}]" if markers else ""


def _marked_hexes(state: Any) -> list[str]:
    table = getattr(getattr(state, "markers", None), "hexes", {})
    return [f"{h} {', '.join(state.game.markers[m].name for m in table[h])}" for h in sorted(table)]


def _shown(value: object) -> str:
    """A game variable's value as the status line shows it: yes or no for a flag."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)
