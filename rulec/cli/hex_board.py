r"""The terminal map drawn as hexes, with roads and rivers on the hexsides, for flat-top grids.

Each hex is drawn with its six sides, 9 characters wide and 5 lines high, and shares
its sides with its neighbours, so a column of hexes takes 7 characters (a 9-column map
is 65 wide, within an 80-column terminal):

      _____           a river side is drawn ~~~~~ (or ~ ~ on a slanted side),
     / 0807\          a road crossing a side | (= on a slanted side), a bridge #;
    /  Gar  \         inside: the hex number, the top unit's name and its side
    \ G1-1+1/         letter with strength-move (+1: one more unit in the stack);
     \__*__/          an empty hex shows its terrain letters, * a named place.

Colour (when asked for): each hex filled with its terrain's colour on the printed map
(the aids' palette), units in their side's colour, rivers blue and roads brown.
"""

from __future__ import annotations

from typing import Any, Mapping

from rulec.aids.palette import terrain_style
from rulec.check.hexgrid import is_shifted
from rulec.runtime.model import Game, Hex, Unit, hexside_key

PITCH = 7  # characters from one column of hexes to the next
RIVER_RGB, ROAD_RGB, INK = (60, 120, 220), (150, 90, 40), (25, 25, 25)
RESET = "\x1b[0m"
# Each side's characters, relative to the hex's top-left corner (x, y), with the character drawn there.
SIDES = {
    "n": [(2, 0, "_"), (3, 0, "_"), (4, 0, "_"), (5, 0, "_"), (6, 0, "_")],
    "s": [(2, 4, "_"), (3, 4, "_"), (4, 4, "_"), (5, 4, "_"), (6, 4, "_")],
    "ne": [(7, 1, "\\"), (8, 2, "\\")], "se": [(8, 3, "/"), (7, 4, "/")],
    "sw": [(0, 3, "\\"), (1, 4, "\\")], "nw": [(1, 1, "/"), (0, 2, "/")],
}


def width_of(game: Game) -> int:
    grid = game.map.grid
    return PITCH * (grid.columns[1] - grid.columns[0] + 1) + 2


def fits(game: Game, columns: int = 80) -> bool:
    return game.map is not None and game.map.grid.orientation == "flat_top" and width_of(game) <= columns


class HexBoard:
    """Draws one flat-top game's map; build once per game, call `render` for each position."""

    def __init__(self, game: Game, letters: Mapping[str, str], sides: Mapping[str, str],
                 terrain_rgb: Mapping[str, tuple[int, int, int]], color: bool = False):
        self.game, self.letters, self.sides, self.terrain_rgb, self.color = game, letters, sides, terrain_rgb, color
        map_ = game.map
        grid = map_.grid
        self.origin: dict[Hex, tuple[int, int]] = {}
        for hex_, (column, row) in map_.coordinates.items():
            shifted = is_shifted(grid, column, grid.rows[0])
            self.origin[hex_] = (PITCH * (column - grid.columns[0]), 4 * (row - grid.rows[0]) + (2 if shifted else 0))
        self.height = max(y for _, y in self.origin.values()) + 5
        self.width = width_of(game)
        self.sides_drawn = self._hexsides()

    def _kinds(self, features: tuple[str, ...]) -> set[str]:
        return {self.game.hexside_types[f].kind for f in features if f in self.game.hexside_types}

    def _hexsides(self) -> dict[tuple[int, int], tuple[str, tuple[int, int, int] | None]]:
        """Every side character that a road, river or bridge changes: (x, y) -> (character, colour)."""
        drawn: dict[tuple[int, int], tuple[str, tuple[int, int, int] | None]] = {}
        map_ = self.game.map
        for hex_, (x, y) in self.origin.items():
            directions = {d: map_.hexside_features.get(hexside_key(hex_, other), ())
                          for d, other in map_.neighbours.get(hex_, {}).items()}
            for direction, features in map_.edge_exits.get(hex_, {}).items():
                directions.setdefault(direction, features)
            for direction, features in directions.items():
                kinds = self._kinds(features) if direction in map_.neighbours.get(hex_, {}) else \
                    ({"road"} if features else set())
                cells = SIDES.get(direction)
                if not cells or not kinds & {"road", "river"}:
                    continue
                middle = len(cells) // 2 if len(cells) > 2 else len(cells) - 1
                for index, (dx, dy, _) in enumerate(cells):
                    if "river" in kinds:
                        char, rgb = "~", RIVER_RGB
                        if "road" in kinds and index == middle:
                            char, rgb = "#", ROAD_RGB
                    elif index == middle or len(cells) == 2:
                        char, rgb = ("|" if len(cells) > 2 else "="), ROAD_RGB
                    else:
                        continue
                    drawn[(x + dx, y + dy)] = (char, rgb)
        return drawn

    def render(self, stacks: Mapping[Hex, list[tuple[Unit, int]]], names: Mapping[str, str]) -> str:
        # Each character with its colour and its background (the hex's terrain fill, as on the printed map).
        canvas: list[list[tuple[str, Any, Any]]] = [[(" ", None, None)] * self.width for _ in range(self.height)]

        def put(x: int, y: int, text: str, rgb: tuple[int, int, int] | None = None) -> None:
            for offset, char in enumerate(text):
                if 0 <= y < self.height and 0 <= x + offset < self.width:
                    canvas[y][x + offset] = (char, rgb, canvas[y][x + offset][2])

        for hex_, (x, y) in self.origin.items():
            terrains = self.game.map.terrain.get(hex_, ())
            fill = _rgb(terrain_style(terrains[0]).fill) if terrains else None
            for dy, first, last in ((1, 2, 6), (2, 1, 7), (3, 1, 7)):
                for dx in range(first, last + 1):
                    canvas[y + dy][x + dx] = (" ", None, fill)

        for hex_, (x, y) in self.origin.items():
            for cells in SIDES.values():
                for dx, dy, char in cells:
                    if canvas[y + dy][x + dx][0] == " ":
                        put(x + dx, y + dy, char)
        for (x, y), (char, rgb) in self.sides_drawn.items():
            put(x, y, char, rgb)
        for hex_, (x, y) in self.origin.items():
            put(x + 2, y + 1, hex_[:5].ljust(5))
            stack = list(stacks.get(hex_, ()))
            terrains = self.game.map.terrain.get(hex_, ())
            if stack:
                unit, strength = stack[0]
                side = self.game.sides.get(unit.side)
                rgb = _rgb(side.color) if side and side.color else None
                put(x + 1, y + 2, names.get(unit.id, unit.id)[:7].center(7), rgb)
                counter = f"{self.sides.get(unit.side, '?')}{strength}-{unit.move}" + (f"+{len(stack) - 1}" if len(stack) > 1 else "")
                put(x + 1, y + 3, counter[:7].center(7), rgb)
            else:
                letters = "".join(self.letters.get(t, "?") for t in terrains[:2])
                put(x + 1, y + 2, letters.center(7), self.terrain_rgb.get(terrains[0]) if terrains else None)
            if hex_ in self.game.map.places and canvas[y + 4][x + 4][0] == "_":
                put(x + 4, y + 4, "*")
        return "\n".join(self._line(row) for row in canvas)

    def _line(self, row: list[tuple[str, Any, Any]]) -> str:
        if not self.color:
            return "".join(char for char, _, _ in row).rstrip()
        out, current = [], (None, None)
        for char, rgb, fill in row:
            if fill is not None and rgb is None:
                rgb = INK  # dark text on the light terrain fill, whatever the terminal's own colours
            if (rgb, fill) != current:
                out.append(RESET)
                if rgb is not None:
                    out.append(f"\x1b[38;2;{rgb[0]};{rgb[1]};{rgb[2]}m")
                if fill is not None:
                    out.append(f"\x1b[48;2;{fill[0]};{fill[1]};{fill[2]}m")
                current = (rgb, fill)
            out.append(char)
        if current != (None, None):
            out.append(RESET)
        return "".join(out).rstrip()

    @staticmethod
    def legend() -> str:
        return ("hexsides: ~~~ a river, | or = a road crossing the side, # a bridge; * a named place; "
                "in a hex: its number, the top unit's name, side letter and strength-move (+N more units)")


def _rgb(color: str) -> tuple[int, int, int] | None:
    text = color.lstrip("#")
    try:
        return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)) if len(text) == 6 else None
    except ValueError:
        return None
