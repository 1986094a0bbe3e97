"""The module's pictures: the aids' SVG map and counter sheet, turned into PNGs.

The aids draw in points (1/72 in); the module's pictures are PIXELS_PER_POINT times that, so a hex
of an ordinary map is about as big as VASSAL's default hex (about 100 pixels across).
"""

from __future__ import annotations

import hashlib
import io
import math
import re
from dataclasses import dataclass

from rulec.aids import counters_svg, map_svg
from rulec.runtime.model import Game

PIXELS_PER_POINT = 2.0
COUNTER_TO_HEX = 0.8  # a counter's side as a share of a hex's height, so a counter sits inside its hex


@dataclass(frozen=True)
class Picture:
    name: str  # the file name under images/ in the module
    png: bytes
    width: int
    height: int


def svg_to_png(svg: str, width: float, height: float) -> bytes:
    """The SVG drawn `width` x `height` pixels (its own size is in inches, which cairosvg reads at 96 dpi)."""
    import cairosvg

    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=round(width), output_height=round(height))


def _size(png: bytes) -> tuple[int, int]:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        return image.size


def map_picture(game: Game, drawing: map_svg.MapDrawing) -> Picture:
    """The whole map sheet, as the aids print it."""
    png = svg_to_png(map_svg.render_map_svg(game, drawing=drawing), drawing.width * PIXELS_PER_POINT,
                     drawing.height * PIXELS_PER_POINT)
    return Picture("map.png", png, *_size(png))


def counter_side(drawing: map_svg.MapDrawing) -> int:
    """A counter's side in pixels: a share of the hex's height on the map picture."""
    hex_height = math.sqrt(3) * drawing.unit * PIXELS_PER_POINT
    return max(16, round(COUNTER_TO_HEX * hex_height))


def counter_pictures(game: Game, side: int) -> dict[tuple[str, str], Picture]:
    """(unit id, "base" or "variant") -> that counter, cut from the aids' counter sheet."""
    from PIL import Image

    pictures = {}
    # Both grids of the die-cut sheet: the front has every base counter, the back the variant counters.
    for grid in counters_svg.grids(game, width=8 * counters_svg.PITCH):
        scale = side / grid.pitch
        # The sheet's viewBox has a 1-point margin all round.
        png = svg_to_png(counters_svg.render_grid(grid, standalone=True), (grid.width + 2) * scale,
                         (grid.height + 2) * scale)
        with Image.open(io.BytesIO(png)) as image:
            for face in grid.faces:
                if face.version not in ("base", "variant"):
                    continue  # a plain back: VASSAL shows nothing there
                left, top = round((face.column * grid.pitch + 1) * scale), round((face.row * grid.pitch + 1) * scale)
                cut = image.crop((left, top, left + side, top + side))
                out = io.BytesIO()
                cut.save(out, format="PNG")
                suffix = "" if face.version == "base" else f"_{face.unit.variants[0].name}"
                pictures[(face.unit.id, face.version)] = Picture(file_name(f"{face.unit.id}{suffix}", ".png"),
                                                                 out.getvalue(), side, side)
    return pictures


def file_name(text: str, extension: str) -> str:
    """A name for `text` that is one plain file name in the module's zip (a quoted unit id may hold
    '/', '..', spaces or any letter): unsafe characters become '_', and a short hash of the text keeps
    two such names apart."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", text)[:80]
    if safe != text or not safe:
        safe += "-" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return safe + extension
