"""The terminal map drawn as hexes: 80 columns, roads and rivers on the hexsides, unit names, colour."""

from __future__ import annotations

import io
import re

from rulec.aids.palette import terrain_style
from rulec.cli.board_view import BoardView, GameScreen
from rulec.cli.hex_board import SIDES
from rulec.engine import new_game
from rulec.runtime.model import hexside_key

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _at(text: str, needle: str) -> tuple[int, int]:
    for number, line in enumerate(text.splitlines()):
        if needle in line:
            return number, line.index(needle)
    raise AssertionError(f"{needle!r} not drawn")


def test_drive_on_metz_fits_80_columns_with_unit_names_in_their_hexes(metz):
    board = BoardView(metz)
    text = board.render({"0807": [(metz.units["de_gar"], 1)],
                         "0509": [(metz.units["de_fhnjkr"], 3), (metz.units["de_1010"], 1)]},
                        {"de_gar": "Gar", "de_fhnjkr": "Fhnjkr", "de_1010": "1010"})
    assert max(len(line) for line in text.splitlines()) <= 80
    line, x = _at(text, "0807")
    assert text.splitlines()[line + 1][x - 1:x + 6].strip() == "Gar"
    assert text.splitlines()[line + 2][x - 1:x + 6].strip() == "G1-1"
    line, x = _at(text, "0509")
    assert text.splitlines()[line + 2][x - 1:x + 6].strip() == "G3-4+1"  # one more unit in the stack
    row_0101, x_0101 = _at(text, "0101")
    row_0201, x_0201 = _at(text, "0201")
    assert (row_0201 - row_0101, x_0201 - x_0101) == (2, 7)  # column 2 sits half a hex lower


def test_rivers_and_roads_are_drawn_on_their_hexsides(metz):
    text = BoardView(metz).render({}, {}).splitlines()
    board = BoardView(metz).hex_board
    kinds = {"road": 0, "river": 0}
    for hex_, neighbours in metz.map.neighbours.items():
        x, y = board.origin[hex_]
        for direction, other in neighbours.items():
            features = {metz.hexside_types[f].kind for f in metz.map.hexside_features.get(hexside_key(hex_, other), ())
                        if f in metz.hexside_types}
            drawn = "".join(text[y + dy][x + dx] for dx, dy, _ in SIDES[direction])
            if "river" in features:
                assert set(drawn) <= {"~", "#"} and "~" in drawn, (hex_, direction, drawn)
                kinds["river"] += 1
            elif "road" in features:
                assert set(drawn) & {"|", "="}, (hex_, direction, drawn)
                kinds["road"] += 1
            else:
                assert set(drawn) <= {"_", "/", "\\", "*"}, (hex_, direction, drawn)  # *: a named place
    assert kinds["river"] > 10 and kinds["road"] > 10


def test_colour_matches_the_plain_map_and_paints_rivers_blue(metz):
    plain = BoardView(metz, color=False).render({"0807": [(metz.units["de_gar"], 1)]}, {"de_gar": "Gar"})
    coloured = BoardView(metz, color=True).render({"0807": [(metz.units["de_gar"], 1)]}, {"de_gar": "Gar"})
    assert ANSI.sub("", coloured) == plain and "\x1b[38;2;60;120;220m~" in coloured
    forest = terrain_style("forest").fill.lstrip("#")  # hexes filled as on the printed map
    assert f"48;2;{int(forest[0:2], 16)};{int(forest[2:4], 16)};{int(forest[4:6], 16)}m" in coloured


def test_the_map_is_reprinted_only_when_it_changed(metz):
    out = io.StringIO()
    screen = GameScreen(metz, out=out)
    state = new_game(metz, seed=1)
    screen.show_position(state)
    screen.show_position(state)
    assert out.getvalue().count("0807") >= 1 and "(the map is as shown above; `map` shows it again)" in out.getvalue()
    before = out.getvalue().count("  Gar  ")
    screen.show_position(state, legend=True)  # `map` always draws it
    assert out.getvalue().count("  Gar  ") == before + 1
