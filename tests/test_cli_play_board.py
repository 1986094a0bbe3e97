"""The terminal map: hex grids of either orientation, units in their hexes, colour only on request."""

from __future__ import annotations

import dataclasses
import io
import re

from rulec.cli.board_view import CELL_WIDTH, BoardView, GameScreen, use_color
from rulec.engine import new_game

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _line_with(text: str, needle: str) -> tuple[int, int]:
    for number, line in enumerate(text.splitlines()):
        if needle in line:
            return number, line.index(needle)
    raise AssertionError(f"{needle!r} not drawn")


def test_flat_top_columns_zig_zag_and_units_sit_in_their_hex(metz):
    board = BoardView(metz, hexes=False)  # the grid of cells (maps too wide for 80 columns; test_cli_hex_board.py: hexes)
    text = board.render({"0807": [(metz.units["de_gar"], 1)], "0509": [(metz.units["de_fhnjkr"], 3),
                                                                      (metz.units["de_1010"], 1)]})
    line_0101, x_0101 = _line_with(text, "0101")
    line_0201, x_0201 = _line_with(text, "0201")
    assert (line_0201 - line_0101, x_0201 - x_0101) == (1, CELL_WIDTH)  # column 2 sits half a hex lower
    assert "0807:G1-1" in text and "0509+G3-4" in text  # '+' marks a stack
    _, x_0807 = _line_with(text, "0807")
    assert x_0807 == 7 * CELL_WIDTH
    assert "Cc *=~" in text.splitlines()[_line_with(text, "0701")[0] + 1]  # city, named, road, river


def test_pointy_top_rows_zig_zag(metz):
    grid = dataclasses.replace(metz.map.grid, orientation="pointy_top", offset="even_rows_right")
    game = dataclasses.replace(metz, map=dataclasses.replace(metz.map, grid=grid))
    text = BoardView(game).render({})
    line_0101, x_0101 = _line_with(text, "0101")
    line_0102, x_0102 = _line_with(text, "0102")
    assert line_0102 - line_0101 == 2 and x_0102 - x_0101 == CELL_WIDTH // 2
    assert _line_with(text, "0201") == (line_0101, x_0101 + CELL_WIDTH)


def test_colour_uses_the_sides_colours_only_when_asked(metz):
    stacks = {"0807": [(metz.units["de_gar"], 1)]}
    plain = BoardView(metz, color=False).render(stacks)
    coloured = BoardView(metz, color=True).render(stacks)
    assert not ANSI.search(plain) and ANSI.sub("", coloured) == plain
    red, green, blue = (int(metz.sides["germany"].color[i:i + 2], 16) for i in (1, 3, 5))
    assert f"38;2;{red};{green};{blue}m" in coloured
    assert not use_color(io.StringIO(), no_color=False)


def test_units_list_shows_positions_and_arrivals(metz):
    out = io.StringIO()
    GameScreen(metz, out=out).show_units(new_game(metz))
    text = out.getvalue()
    assert re.search(r"Gar\s+Metz/Gar\s+1-1\s+0807", text)
    assert re.search(r"106\s+106\s+1-8\s+to arrive turn 2", text)


def test_the_unit_key_shows_markers_on_units_and_hexes():
    from pathlib import Path

    from rulec.pipeline import load_game

    game = load_game(str(Path(__file__).resolve().parent / "games" / "disruption.rulec"))
    state = new_game(game)
    state.mark("r1", "disrupted")
    state.mark("0403", "shelled")
    out = io.StringIO()
    GameScreen(game, out=out).show_position(state)
    text = out.getvalue()
    assert "0202 r1 [Disrupted] (2-3)" in text
    assert "0204 r2 (4-3)" in text and "r2 (4-3) [" not in text
    assert "marked hexes: 0403 Shelled" in text


def test_narration_tells_when_a_marker_is_put_on_and_when_it_comes_off():
    from pathlib import Path

    from rulec.engine import Action
    from rulec.pipeline import load_game

    game = load_game(str(Path(__file__).resolve().parent / "games" / "disruption.rulec"))
    state = new_game(game).arrange({"r1": "0202", "b1": "0302"}, phase="red_fight")
    out = io.StringIO()
    screen = GameScreen(game, out=out, map_every="none")
    orders = [Action.attack("0302"), Action.with_unit("r1"), Action.resolve(), Action.roll(1)]
    orders += [Action.end()] * 3  # red_fight, red_move2, red_fight2: r1 recovers
    for action in orders:
        screen.narrate(state, action, state.current_player())
        state.apply_action(action)
    screen.flush(state)
    text = out.getvalue()
    assert "    r1 is marked Disrupted" in text and "    b1 is marked Disrupted" in text
    assert text.index("is marked") < text.index("    r1 is no longer Disrupted")
    assert "b1 is no longer" not in text  # blue has not had its phases yet
