"""The counter sheet as SVG: one counter per unit, its improved counter beside it.

Each counter shows the NATO symbol of its unit type, the unit size, the
designation, strength–movement, a band in its division's colour (with the
division written in it, so black-and-white prints still tell divisions
apart) and, in the band's corner, its set-up hex or the turn it arrives.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulec.aids.environment import environment
from rulec.aids.palette import division_colours
from rulec.runtime.model import Game, Unit

COUNTER = 54.0  # points: a 3/4 inch counter
GAP = 6.0  # between a counter and its improved version
SLOT_GAP = 16.0  # between two units
CAPTION = 18.0  # room under a slot for the unit's caption
SHEET_WIDTH = 7.2 * 72
HEADING = 22.0
SYMBOLS = ("infantry", "armor", "mechanized", "cavalry", "reconnaissance", "artillery", "airborne", "engineer")


@dataclass(frozen=True)
class Counter:
    unit: Unit
    version: str  # "base" or "improved"
    x: float
    y: float
    symbol: str
    strength: int
    move: int
    side_fill: str
    band: str
    corner: str  # set-up hex, or "T3" for the turn of arrival, or "" for any turn


@dataclass(frozen=True)
class Caption:
    text: str
    note: str
    x: float
    y: float


@dataclass(frozen=True)
class Heading:
    text: str
    y: float


@dataclass(frozen=True)
class CounterSheet:
    title: str
    width: float
    height: float
    size: float
    counters: tuple[Counter, ...]
    captions: tuple[Caption, ...]
    headings: tuple[Heading, ...]


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


def layout(game: Game) -> CounterSheet:
    slot_width = 2 * COUNTER + GAP
    per_row = max(1, int((SHEET_WIDTH + SLOT_GAP) // (slot_width + SLOT_GAP)))
    counters, captions, headings = [], [], []
    bands = division_colours((u.side, u.division) for u in game.units.values() if u.division)
    y = 0.0
    for side in game.sides.values():
        units = [u for u in game.units.values() if u.side == side.id]
        if not units:
            continue
        headings.append(Heading(side.name, y + 14))
        y += HEADING
        side_fill = lighten(side.color) if side.color else "#eeeeee"
        for index, unit in enumerate(units):
            column = index % per_row
            if column == 0 and index:
                y += COUNTER + CAPTION + 8
            x = column * (slot_width + SLOT_GAP)
            symbol = game.unit_types[unit.type].symbol if unit.type in game.unit_types else unit.type
            band = bands.get((unit.side, unit.division), side_fill)
            counters.append(Counter(unit, "base", x, y, symbol, unit.strength, unit.move, side_fill, band,
                                    corner_text(unit)))
            if unit.improved:
                move = unit.improved.move if unit.improved.move is not None else unit.move
                counters.append(Counter(unit, "improved", x + COUNTER + GAP, y, symbol, unit.improved.strength, move,
                                        side_fill, band, corner_text(unit)))
            notes = []
            if unit.improved:
                notes.append("right: improved" + (f", {unit.improved.vp} VP" if unit.improved.vp else ""))
            if unit.optional:
                notes.append("optional")
            captions.append(Caption(unit.label, "; ".join(notes), x, y + COUNTER + 9))
        y += COUNTER + CAPTION + 14
    return CounterSheet(game.info.title, SHEET_WIDTH, round(y, 2), COUNTER, tuple(counters), tuple(captions),
                        tuple(headings))


def render_counters_svg(game: Game, standalone: bool = True) -> str:
    return environment().get_template("counters.svg.j2").render(sheet=layout(game), symbols=SYMBOLS,
                                                                 standalone=standalone)
