"""`rulec vassal`: the module, read back with pywargame, has the game's hex numbering, pieces and pictures."""

from __future__ import annotations

import io
import math

import pytest

pytest.importorskip("cairosvg", reason="rulec vassal needs cairosvg (pip install -e '.[vassal]')")
pytest.importorskip("PIL", reason="reading the module's pictures needs Pillow")

from PIL import Image  # noqa: E402

from rulec.aids import map_svg  # noqa: E402
from rulec.cli.main import main  # noqa: E402
from rulec.pipeline import load_game  # noqa: E402
from rulec.vassal.library import pywargame_vassal  # noqa: E402

try:
    vassal = pywargame_vassal()
except Exception as error:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"pywargame does not import: {error}", allow_module_level=True)


@pytest.fixture(scope="module")
def metz():
    return load_game("drive_on_metz")


@pytest.fixture(scope="module")
def module(tmp_path_factory, metz):
    out = tmp_path_factory.mktemp("vassal") / "drive_on_metz.vmod"
    assert main(["vassal", "drive_on_metz", "--out", str(out)]) == 0
    return _read(out)


def _read(path):
    """The module's game element and its files, read with pywargame."""
    with vassal.VMod(str(path), "r") as vmod:
        build = vassal.BuildFile(vmod.getBuildFile())
        files = {name: vmod.getFiles(name)[name] for name in vmod.getFileNames()}
    return build.getGame(), files


def _drawn_centres(game, scale: float) -> dict[str, tuple[float, float]]:
    """Each hex's centre on the map picture, from the polygons the aids draw."""
    centres = {}
    for shape in map_svg.draw(game).hexes:
        corners = [tuple(float(v) for v in point.split(",")) for point in shape.points.split()]
        centres[shape.hex] = (scale * sum(x for x, _ in corners) / 6, scale * sum(y for _, y in corners) / 6)
    return centres


def _hex_grid(game_element):
    (board_map,) = game_element.getMaps(asdict=False)
    (picker,) = board_map.getBoardPicker()
    (board,) = picker.getBoards(asdict=False)
    (zone,) = board.getZonedGrids()[0].getZones(asdict=False)
    (grid,) = zone.getHexGrids()
    return board, grid


def _assert_grid_names_every_hex(game, game_element, files) -> None:
    board, grid = _hex_grid(game_element)
    width, _ = Image.open(io.BytesIO(files["images/" + board["image"]])).size
    centres = _drawn_centres(game, width / map_svg.draw(game).width)
    numbering = grid.getNumbering()[0]
    assert set(centres) == set(game.map.hexes)
    for hex_id, (x, y) in centres.items():
        vx, vy = numbering.getLocation(hex_id)
        # VASSAL's centre of the hex it calls hex_id is the drawn centre of hex_id, and no other hex's.
        assert math.dist((vx, vy), (x, y)) <= 1.5, hex_id
        nearest = min(centres, key=lambda other: math.dist(centres[other], (vx, vy)))
        assert nearest == hex_id


def test_every_hex_centre_is_named_by_the_grid_as_the_game_names_it(module, metz):
    _assert_grid_names_every_hex(metz, *module)


TINY = """
game tiny {{ title = "Tiny" turns = 2 }}
side blue {{ name = "Blue" color = "#3355aa" }}
side red {{ name = "Red" color = "#aa3333" }}
map {{ orientation = {orientation}  offset = {offset}  numbering = {numbering}  columns = {columns}  rows = {rows}
       default_terrain = clear }}
terrain clear {{ move = 1 }}
sequence {{ phase blue_move {{ side = blue  kind = movement }}  phase red_move {{ side = red  kind = movement }} }}
unit_type infantry {{ name = "Infantry"  symbol = infantry }}
unit b1 {{ side = blue  type = infantry  strength = 2  move = 3  setup = {first} }}
"""


@pytest.mark.parametrize("orientation, offset, numbering, columns, rows, first", [
    # The first column is shifted: VASSAL's origin is one column left of the map.
    ("flat_top", "odd_columns_down", "CCRR", "1..4", "1..3", "0101"),
    ("flat_top", "odd_columns_down", "CCRR", "2..5", "0..2", "0200"),
    ("flat_top", "even_columns_down", "CCCRRR", "10..13", "5..8", "010005"),
    # Pointy tops: VASSAL's sideways grid, its columns the map's rows.
    ("pointy_top", "even_rows_right", "CCRR", "1..4", "1..5", "0101"),
    ("pointy_top", "odd_rows_right", "CCRR", "1..5", "1..4", "0101"),
    ("pointy_top", "odd_rows_right", "CCCRR", "3..6", "2..6", "00302"),
])
def test_other_grids_and_numberings_are_named_as_the_game_names_them(tmp_path, orientation, offset, numbering, columns,
                                                                     rows, first):
    path = tmp_path / "tiny.rulec"
    path.write_text(TINY.format(orientation=orientation, offset=offset, numbering=numbering, columns=columns, rows=rows,
                                first=first), encoding="utf-8")
    out = tmp_path / "tiny.vmod"
    assert main(["vassal", str(path), "--out", str(out)]) == 0
    game = load_game(str(path))
    _assert_grid_names_every_hex(game, *_read(out))


def test_one_piece_per_unit_of_the_order_of_battle_and_the_set_up_on_its_hexes(module, metz):
    game_element, _ = module
    (window,) = game_element.getPieceWindows(asdict=False)
    slots = window.getAllElements(vassal.PieceSlot, single=False)
    assert len(slots) == len(metz.units)
    (board_map,) = game_element.getMaps(asdict=False)
    stacks = board_map.getAtStarts(single=False)
    placed = {stack["location"]: len(stack.getAllElements(vassal.PieceSlot, single=False)) for stack in stacks}
    expected: dict[str, int] = {}
    for unit in metz.units.values():
        if unit.setup and not unit.optional:
            expected[unit.setup] = expected.get(unit.setup, 0) + 1
    assert placed == expected and sum(placed.values()) > 0
    two_step = sum(1 for u in metz.units.values() if u.variants)
    flipping = [s for s in slots if any(isinstance(t, vassal.LayerTrait) for t in s.getTraits())]
    assert len(flipping) == two_step > 0


def test_the_piece_window_lists_each_arrival_with_its_units(module, metz):
    from rulec.aids.sheets import arrival_text
    from rulec.vassal.module import piece_name

    game_element, _ = module
    (window,) = game_element.getPieceWindows(asdict=False)
    listed = {}
    for listing in window.getAllElements(vassal.ListWidget, single=False):
        for slot in listing.getAllElements(vassal.PieceSlot, single=False):
            listed[slot["entryName"]] = listing["entryName"]
    for unit in metz.units.values():
        group = listed[piece_name(unit)]
        assert group.startswith(metz.sides[unit.side].name + ": ")
        if unit.setup and not unit.optional:
            assert group.endswith(": set-up")
        else:
            assert group.endswith(arrival_text(metz, unit)) and ("optional" in group) == unit.optional


def test_pictures_have_the_sizes_the_module_declares(module, metz):
    game_element, files = module
    board, _ = _hex_grid(game_element)
    board_png = Image.open(io.BytesIO(files["images/" + board["image"]]))
    assert board_png.size == (int(board["width"]), int(board["height"]))
    drawing = map_svg.draw(metz)
    assert board_png.size == (round(drawing.width * 2), round(drawing.height * 2))
    (window,) = game_element.getPieceWindows(asdict=False)
    for slot in window.getAllElements(vassal.PieceSlot, single=False):
        basic = next(t for t in slot.getTraits() if isinstance(t, vassal.BasicTrait))
        counter = Image.open(io.BytesIO(files["images/" + basic["filename"]]))
        assert counter.size == (int(slot["width"]), int(slot["height"]))
    # A counter fits inside a hex.
    _, grid = _hex_grid(game_element)
    assert int(slot["height"]) < float(grid["dy"])


def test_the_charts_help_and_the_turn_track(module, metz):
    game_element, files = module
    assert "Combat Results" in files["help/charts.html"].decode("utf-8")
    (track,) = game_element.getTurnTracks(asdict=False)
    assert track.getList()[0]["list"].count(",") + 1 == metz.info.turns


def test_a_game_without_a_map_gets_a_diagnostic(capsys, tmp_path):
    assert main(["vassal", "engle_ww2_battle", "--out", str(tmp_path / "x.vmod")]) == 1
    assert "[no-map]" in capsys.readouterr().err
    assert not (tmp_path / "x.vmod").exists()


def test_without_out_the_module_is_named_after_the_game_in_the_current_directory(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["vassal", "drive_on_metz"]) == 0
    assert (tmp_path / "drive_on_metz.vmod").is_file()
    assert f"{len(load_game('drive_on_metz').units)} pieces" in capsys.readouterr().out


def test_the_module_data_names_the_game_and_the_same_vassal_version_as_the_build_file(module, metz):
    game_element, files = module
    vassal.ModuleData(vassal.xmlns.parseString(files["moduledata"]))  # pywargame reads it
    text = files["moduledata"].decode("utf-8")
    assert f"<name>{metz.info.title}</name>" in text
    assert f"<VassalVersion>{game_element['VassalVersion']}</VassalVersion>" in text
    assert game_element["name"] == metz.info.title
