"""The counter sheet as SVG: a die-cut grid of counters at a real size, its back, and a key.

Counters sit edge to edge at PITCH (5/8 in, or 1/2 in), each side's units
starting a new row, with thin cut lines between them. The back sheet holds the
other face of every counter (a unit's variant counter, its reduced side, or a plain back in its
side's colour) with the columns mirrored: printed on the back of the same
sheet, flipped on its long edge, each back lands behind its front. Both grids
are centred on the page, so they align whatever the printer's margins.

Each face shows the NATO symbol of its unit type, the unit size, the
designation, strength–movement, a band in its division's colour (with the
division written in it, so black-and-white prints still tell divisions apart)
and, in the band's corner, its set-up hex or the turn it arrives.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulec.aids.environment import environment, humanize
from rulec.aids.palette import division_colours
from rulec.runtime.model import Game, Unit

DRAWN = 54.0  # a face is drawn in a 54 x 54 box and scaled to the pitch
PITCHES = {"5/8": 45.0, "1/2": 36.0}  # points: 5/8 in and 1/2 in counters
PITCH = PITCHES["5/8"]
SYMBOLS = ("infantry", "armor", "mechanized", "cavalry", "reconnaissance", "artillery", "airborne", "engineer")


@dataclass(frozen=True)
class Face:
    unit: Unit
    version: str  # "base", "variant" (its first variant), "reduced" (its first reduced side) or "back" (a plain back)
    row: int
    column: int
    symbol: str
    strength: int
    move: int
    side_fill: str
    band: str
    corner: str  # set-up hex, or "T3" for the turn of arrival, or "" for any turn


@dataclass(frozen=True)
class CounterGrid:
    title: str
    side: str  # "front" or "back"
    pitch: float
    columns: int
    rows: int
    faces: tuple[Face, ...]
    notice: str = ""  # the game's reconstruction notice (the sheet's description)

    @property
    def width(self) -> float:
        return self.columns * self.pitch

    @property
    def height(self) -> float:
        return self.rows * self.pitch

    @property
    def scale(self) -> float:
        return self.pitch / DRAWN


@dataclass(frozen=True)
class KeyType:
    symbol: str
    name: str


def lighten(colour: str, amount: float = 0.55) -> str:
    """Mix a #rrggbb colour with white so black print stays legible on it."""
    if not (colour.startswith("#") and len(colour) == 7):
        return "#eeeeee"
    channels = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in channels)


def corner_text(unit: Unit) -> str:
    if unit.setup:
        return unit.setup
    if unit.arrives and unit.arrives.turn is not None:
        return f"T{unit.arrives.turn}"
    return ""


def columns_for(width: float, pitch: float = PITCH) -> int:
    """How many counters fit across `width` points."""
    return max(1, int(width // pitch))


def grids(game: Game, width: float, pitch: float = PITCH) -> tuple[CounterGrid, CounterGrid]:
    """The front and back grids of the counter sheet, `width` points wide at most."""
    columns = columns_for(width, pitch)
    bands = division_colours((u.side, u.division) for u in game.units.values() if u.division)
    fronts, backs = [], []
    row = 0
    for side in game.sides.values():
        units = [u for u in game.units.values() if u.side == side.id]
        side_fill = lighten(side.color) if side.color else "#eeeeee"
        for index, unit in enumerate(units):
            if index and index % columns == 0:
                row += 1
            column = index % columns
            symbol = game.unit_types[unit.type].symbol if unit.type in game.unit_types else unit.type
            band = bands.get((unit.side, unit.division), side_fill)
            corner = corner_text(unit)
            fronts.append(Face(unit, "base", row, column, symbol, unit.strength, unit.move, side_fill, band, corner))
            mirrored = columns - 1 - column
            if unit.variants:  # its first variant counter (an improved side, say) is printed on its back
                variant = unit.variants[0]
                move = variant.move if variant.move is not None else unit.move
                backs.append(Face(unit, "variant", row, mirrored, symbol, variant.strength, move, side_fill,
                                  band, corner))
            elif unit.reduced:  # a unit with steps: its back is its first reduced side
                step = unit.reduced[0]
                backs.append(Face(unit, "reduced", row, mirrored, symbol, step.strength,
                                  step.move if step.move is not None else unit.move, side_fill, band, corner))
            else:
                backs.append(Face(unit, "back", row, mirrored, symbol, unit.strength, unit.move, side_fill, band,
                                  corner))
        if units:
            row += 1
    rows = max(row, 1)
    notice = game.info.reconstruction_notice
    return (CounterGrid(game.info.title, "front", pitch, columns, rows, tuple(fronts), notice),
            CounterGrid(game.info.title, "back", pitch, columns, rows, tuple(backs), notice))


def pages(game: Game, width: float, height: float, pitch: float = PITCH) -> tuple[tuple[CounterGrid, CounterGrid], ...]:
    """The counter sheet cut into pages `height` points tall: (front, back) for each."""
    front, back = grids(game, width, pitch)
    per_page = max(1, int(height // pitch))
    found = []
    for first in range(0, front.rows, per_page):
        rows = min(per_page, front.rows - first)

        def part(grid: CounterGrid) -> CounterGrid:
            faces = tuple(replace(f, row=f.row - first) for f in grid.faces if first <= f.row < first + rows)
            return replace(grid, rows=rows, faces=faces)

        found.append((part(front), part(back)))
    return tuple(found)


def key_types(game: Game) -> tuple[KeyType, ...]:
    used = []
    for unit in game.units.values():
        unit_type = game.unit_types.get(unit.type)
        entry = KeyType(unit_type.symbol if unit_type else unit.type, unit_type.name if unit_type else humanize(unit.type))
        if entry not in used:
            used.append(entry)
    return tuple(used)


def render_grid(grid: CounterGrid, standalone: bool = False) -> str:
    return environment().get_template("counters.svg.j2").render(sheet=grid, symbols=SYMBOLS, standalone=standalone)


def render_key(game: Game, grid: CounterGrid) -> str:
    """A counter drawn large with its parts numbered, and the unit types' symbols."""
    example = next((f for f in grid.faces if f.version == "base"), None)
    return environment().get_template("counter_key.svg.j2").render(
        example=example, types=key_types(game), symbols=SYMBOLS,
        variant=any(u.variants for u in game.units.values()))


def render_counters_svg(game: Game, standalone: bool = True, width: float = 7.2 * 72, pitch: float = PITCH) -> str:
    """The front of the counter sheet as an SVG document (the file counters.svg)."""
    return render_grid(grids(game, width, pitch)[0], standalone=standalone)
