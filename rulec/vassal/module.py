"""Write a VASSAL module (.vmod) of a map game with pywargame.

The module has: the map board (the aids' map picture) with a hex grid whose numbering is the
game's; one piece per unit (a unit with a variant flips between its counter and that variant);
the set-up as at-start stacks on their hexes; the reinforcements grouped by turn of arrival in the
piece window; a turn track with the game's turn labels; the charts (CRT, TEC, sequence of play,
order of battle, victory) as a help window.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulec.aids import map_svg
from rulec.aids.geometry import centre as hex_centre
from rulec.aids.render import aid_names, render_html
from rulec.aids.sheets import arrival_text
from rulec.diagnostics import Diagnostic, DiagnosticError
from rulec.runtime.model import Game, Unit
from rulec.vassal.grid import VassalGrid, vassal_grid
from rulec.vassal.images import Picture, counter_pictures, counter_side, map_picture
from rulec.vassal.library import pywargame_vassal

MAP_NAME = "Map"
VASSAL_VERSION = "3.7.0"
CHART_AIDS = ("crt", "tec", "sequence", "turns", "victory", "oob", "options")


@dataclass(frozen=True)
class ModuleSummary:
    """What was written, for the command's report."""

    path: Path
    pieces: int
    at_start: int
    map_size: tuple[int, int]


def write_module(game: Game, out: Path) -> ModuleSummary:
    """Build the module of a map game and write it to `out`."""
    if game.map is None:
        raise DiagnosticError([Diagnostic("no-map", f"'{game.info.id}' has no map: a VASSAL module needs one")])
    vassal = pywargame_vassal()
    BuildFile, ModuleData, VMod = vassal.BuildFile, vassal.ModuleData, vassal.VMod

    drawing = map_svg.draw(game)
    board_picture = map_picture(game, drawing)
    grid = _grid(game, drawing, board_picture.width / drawing.width)
    counters = counter_pictures(game, counter_side(drawing))

    build = BuildFile()
    module = build.addGame(name=game.info.title, version="1", description=_description(game),
                           VassalVersion=VASSAL_VERSION)
    module.addBasicCommandEncoder()
    files: dict[str, bytes | str] = {f"images/{board_picture.name}": board_picture.png}
    files.update({f"images/{p.name}": p.png for p in counters.values()})

    documentation = module.addDocumentation()
    files["help/charts.html"] = render_html(game, aids=tuple(a for a in CHART_AIDS if _has_aid(game, a)))
    documentation.addHelpFile(title="Charts", fileName="help/charts.html")

    roster = module.addPlayerRoster()
    for side in game.sides.values():
        roster.addSide(side.name)

    slots = _piece_window(module, game, counters)
    at_start = _board(module, game, board_picture, grid, slots)
    _turn_track(module, game)

    data = ModuleData()
    info = data.addData()
    info.addVersion(version="1")
    info.addVASSALVersion(version=VASSAL_VERSION)
    info.addName(name=game.info.title)
    info.addDescription(description=_description(game))
    info.addDateSaved()

    out.parent.mkdir(parents=True, exist_ok=True)
    with VMod(str(out), "w") as vmod:
        vmod.addFiles(**{VMod.BUILD_FILE: build.encode(), VMod.MODULE_DATA: data.encode()})
        for name, content in files.items():
            vmod.addFile(name, content)
    return ModuleSummary(out, len(slots), at_start, (board_picture.width, board_picture.height))


def _description(game: Game) -> str:
    return " — ".join(part for part in (game.info.title, game.info.edition) if part)


def _has_aid(game: Game, aid: str) -> bool:
    return aid in aid_names(game)


def _grid(game: Game, drawing: map_svg.MapDrawing, s: float) -> VassalGrid:
    """The grid in the map picture's pixels (`s` a point): the drawing's scale, and its offset read off one drawn hex."""
    assert game.map is not None
    shape = drawing.hexes[0]
    corners = [tuple(float(v) for v in point.split(",")) for point in shape.points.split()]
    drawn_x = sum(x for x, _ in corners) / len(corners)
    drawn_y = sum(y for _, y in corners) / len(corners)
    unit_x, unit_y = hex_centre(game.map.grid, *game.map.coordinates[shape.hex])
    left, top = drawn_x - unit_x * drawing.unit, drawn_y - unit_y * drawing.unit
    return vassal_grid(game.map, drawing.unit * s, left * s, top * s)


def _traits(game: Game, unit: Unit, counters: dict[tuple[str, str], Picture], gpid: int) -> list:
    vassal = pywargame_vassal()
    BasicTrait, LayerTrait, MarkTrait, ReportTrait, key = (vassal.BasicTrait, vassal.LayerTrait, vassal.MarkTrait,
                                                           vassal.ReportTrait, vassal.key)

    front = counters[(unit.id, "base")].name
    traits: list = [MarkTrait(name="side", value=trait_text(unit.side)), MarkTrait(name="unit", value=trait_text(unit.id))]
    if (unit.id, "variant") in counters:
        back = counters[(unit.id, "variant")].name
        traits += [LayerTrait(images=[front, back], newNames=["", trait_text(f"+ {unit.variants[0].name}")],
                              activateName="", decreaseName="",
                              increaseName="Flip", increaseKey=key("F"), decreaseKey="", name="Step"),
                   ReportTrait(key("F"))]
    side = game.sides[unit.side]
    traits.append(BasicTrait(name=trait_text(f"{side.adjective or side.name} {unit.label}"), filename=front, gpid=gpid))
    return traits


def piece_name(unit: Unit) -> str:
    """The unit's label as players write it, as a trait may hold it."""
    return trait_text(unit.label)


def trait_text(text: str) -> str:
    """Text from the game file as a piece's trait may hold it: '/' separates a piece's traits and
    '\\' escapes in VASSAL's encoding, so look-alike characters stand in; tabs and line breaks are spaces."""
    return (text.replace("/", "\u2215").replace("\\", "\u29f5").replace("\t", " ").replace("\n", " ")
            .replace("\r", " "))


def _piece_window(module, game: Game, counters: dict[tuple[str, str], Picture]) -> dict[str, object]:
    """One piece per unit, listed by side and by when it comes into play; unit id -> its piece slot."""
    window = module.addPieceWindow(name="Counters")
    tabs = window.addTabs(entryName="Counters")
    slots: dict[str, object] = {}
    for side in game.sides.values():
        units = [u for u in game.units.values() if u.side == side.id]
        if not units:
            continue
        panel = tabs.addPanel(entryName=side.name, fixed=False)
        for group, members in _schedule(game, units):
            listing = panel.addList(entryName=f"{side.name}: {group}")
            for unit in members:
                gpid = module.nextPieceSlotId()
                size = counters[(unit.id, "base")].width
                slots[unit.id] = listing.addPieceSlot(entryName=piece_name(unit), gpid=gpid, width=size, height=size,
                                                      traits=_traits(game, unit, counters, gpid))
    return slots


def _schedule(game: Game, units: list[Unit]) -> list[tuple[str, list[Unit]]]:
    """The units of a side by when and where they come into play: the set-up, then each arrival
    ("Turn 2: North Edge Entry") in turn order, then the optional units with theirs."""
    groups: dict[str, list[Unit]] = {}
    when: dict[str, tuple[int, int, int]] = {}
    for unit in units:
        arrival = arrival_text(game, unit)
        turn = unit.arrives.turn if unit.arrives and unit.arrives.turn is not None else game.info.turns + 1
        if unit.setup and not unit.optional:
            name, key = "set-up", (0, 0, 0)
        else:
            name = arrival or "not scheduled"
            key = (1, turn, 0 if arrival else 1)
        if unit.optional:
            name, key = f"optional: {name}", (2, *key[1:])
        groups.setdefault(name, []).append(unit)
        when[name] = key
    return [(name, groups[name]) for name in sorted(groups, key=lambda n: (when[n], n))]


def _board(module, game: Game, picture: Picture, grid: VassalGrid, slots: dict[str, object]) -> int:
    """The map with its grid, and the set-up units on it; returns how many pieces start on the map."""
    board_map = module.addMap(mapName=MAP_NAME)
    board_map.addStackMetrics()
    for add in ("addPieceMover", "addStackExpander", "addSelectionHighlighters", "addKeyBufferer",
                "addForwardToChatter", "addMenuDisplayer", "addMapCenterer", "addHighlightLastMoved",
                "addCounterDetailViewer", "addGlobalMap"):
        getattr(board_map, add)()
    board_map.addZoomer()
    picker = board_map.addBoardPicker()
    board = picker.addBoard(name=MAP_NAME, image=picture.name, width=picture.width, height=picture.height)
    zoned = board.addZonedGrid()
    zoned.addHighlighter()
    zone = zoned.addZone(name="Full", useParentGrid=False,
                         path=f"0,0;{picture.width},0;{picture.width},{picture.height};0,{picture.height}")
    hex_grid = zone.addHexGrid(dx=grid.dx, dy=grid.dy, x0=grid.x0, y0=grid.y0, sideways=grid.sideways,
                               visible=False, snapTo=True)
    # The map picture already prints the hex numbers: VASSAL's own stay hidden.
    hex_grid.addNumbering(first=grid.first, hType="N", vType="N", sep="", stagger=False, visible=False,
                          hOff=grid.h_off, vOff=grid.v_off, hLeading=grid.h_leading, vLeading=grid.v_leading)
    placed = 0
    by_hex: dict[str, list[Unit]] = {}
    for unit in game.units.values():
        if unit.setup and not unit.optional:
            by_hex.setdefault(unit.setup, []).append(unit)
    for hex_id, units in by_hex.items():
        stack = board_map.addAtStart(name=f"Set-up {hex_id}", location=hex_id, useGridLocation=True,
                                     owningBoard=MAP_NAME, x=0, y=0)
        placed += len(stack.addPieces(*(slots[u.id] for u in units)))
    return placed


def _turn_track(module, game: Game) -> None:
    turns = game.info.turns
    if turns <= 0:
        return
    labels = game.info.turn_labels
    # VASSAL's list is comma-separated: a comma in a label would split it.
    names = [f"{t}: {labels[t - 1].replace(',', ';')}" if t <= len(labels) else str(t) for t in range(1, turns + 1)]
    module.addTurnTrack(name="Turn", buttonText="Turn", phases={"property": "Turn", "names": names})
