"""The two HTML pages: the list of games, and a game's board (the aids' map with counters drawn on it).

The map is the aids' SVG map, unchanged; the counters are the counter sheet's faces, each
made a <symbol> the page's script places on the hexes the position names.
"""

from __future__ import annotations

import json
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from rulec.aids import counters_svg, map_svg
from rulec.aids.environment import environment as aids_environment

_COUNTER_SYMBOLS = """{% import "counter_face.j2" as counter %}
<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" class="counter-defs" aria-hidden="true"><defs>
{% for c in faces %}<symbol id="counter-{{ c.unit.id }}-{{ c.version }}" viewBox="0 0 54 54">{{ counter.face(c, symbols) }}</symbol>
{% endfor %}</defs></svg>"""


def _pages() -> Environment:
    return Environment(loader=PackageLoader("rulec.web", "templates"), autoescape=select_autoescape(["html", "j2"]))


def hex_centres(drawing: map_svg.MapDrawing) -> dict[str, tuple[float, float]]:
    """Each hex's centre on the drawing: the mean of its corners."""
    centres = {}
    for shape in drawing.hexes:
        points = [tuple(map(float, p.split(","))) for p in shape.points.split()]
        centres[shape.hex] = (round(sum(x for x, _ in points) / len(points), 2),
                              round(sum(y for _, y in points) / len(points), 2))
    return centres


def counter_symbols(game: Any) -> str:
    """Every unit's counter faces (front, and its back when that is a variant or a reduced side) as <symbol>s."""
    front, back = counters_svg.grids(game, 10 * counters_svg.PITCH)
    faces = [*front.faces, *(f for f in back.faces if f.version in ("variant", "reduced"))]
    return aids_environment().from_string(_COUNTER_SYMBOLS).render(faces=faces, symbols=counters_svg.SYMBOLS)


def board_page(game: Any, game_id: str, scenario: str | None = None) -> str:
    if game.map is None:
        drawing, svg = None, ""
    else:  # the printed map's scale on a sheet cut to the map: a screen shows the hexes, not the paper around them
        printed = map_svg.draw(game)
        drawing = map_svg.draw(game, map_svg.sheet_for(game.map, printed.unit))
        svg = map_svg.render_map_svg(game, standalone=False, drawing=drawing)
    layout = {"centres": hex_centres(drawing) if drawing else {}, "unit": drawing.unit if drawing else 0,
              "width": drawing.width if drawing else 0, "height": drawing.height if drawing else 0}
    return _pages().get_template("board.html.j2").render(
        game=game, game_id=game_id, map_svg=Markup(svg), counters=Markup(counter_symbols(game)),
        scenario=game.scenarios[scenario].name if scenario in game.scenarios else "",
        layout=json.dumps(layout))  # an attribute, escaped by the template: the page has no inline script at all


def index_page(games: dict[str, Any]) -> str:
    from rulec.players.setup import PLAYER_KINDS
    return _pages().get_template("index.html.j2").render(games=games, kinds=PLAYER_KINDS)


def map_less_page(game: Any, name: str) -> str:
    """A battle system's page; the example forces are the first two sides with two units of the first kinds."""
    sides = list(game.sides.values())[:2]
    kinds = list(game.battle.kinds)
    example = [f"{sides[0].name}: {', '.join(kinds[:2])}", f"{sides[1].name}: {kinds[-1]} x2"]
    return _pages().get_template("battle.html.j2").render(game=game, name=name, example=example)
