"""Colours and black-and-white patterns for terrain, and a stable colour per division.

Terrain is drawn by what its id says in plain cartographic words (a forest is
green with tree marks, rough ground is tan with hatching); a terrain nobody
listed here still gets a distinct colour and pattern, derived from its id, so a
new game never needs code. Every colour is paired with a pattern or a label so
the aids survive a black-and-white printer.
"""

from __future__ import annotations

import colorsys
import hashlib
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class TerrainStyle:
    fill: str
    pattern: str  # one of PATTERNS: drawn over the fill in dark ink
    symbol: str = ""  # for terrain printed over the base terrain: "city", "town", "fort" or "label" (its name)


# Patterns the map template knows how to draw (the `pattern` macro of rulec/aids/templates/svg_macros.j2).
PATTERNS = ("none", "dots", "trees", "hatch", "crosshatch", "waves", "grass", "bricks")

_KNOWN: dict[str, TerrainStyle] = {
    "clear": TerrainStyle("#f4efd8", "none"),
    "open": TerrainStyle("#f4efd8", "none"),
    "forest": TerrainStyle("#9cc48a", "trees"),
    "woods": TerrainStyle("#9cc48a", "trees"),
    "rough": TerrainStyle("#d8b98a", "hatch"),
    "hills": TerrainStyle("#d8b98a", "hatch"),
    "hill": TerrainStyle("#d8b98a", "hatch"),
    "mountain": TerrainStyle("#b59a7a", "crosshatch"),
    "mountains": TerrainStyle("#b59a7a", "crosshatch"),
    "marsh": TerrainStyle("#b9d6d0", "grass"),
    "swamp": TerrainStyle("#b9d6d0", "grass"),
    "water": TerrainStyle("#9cc3e6", "waves"),
    "lake": TerrainStyle("#9cc3e6", "waves"),
    "city": TerrainStyle("#c9c9c9", "bricks", "city"),
    "town": TerrainStyle("#dedede", "dots", "town"),
    "village": TerrainStyle("#dedede", "dots", "town"),
    "fortified": TerrainStyle("#b0b0b0", "crosshatch", "fort"),
    "fort": TerrainStyle("#b0b0b0", "crosshatch", "fort"),
    "fortress": TerrainStyle("#b0b0b0", "crosshatch", "fort"),
}


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def _hls_colour(hue: float, lightness: float, saturation: float) -> str:
    """'#rrggbb' for a colour given as hue, lightness and saturation (each 0..1)."""
    red, green, blue = colorsys.hls_to_rgb(hue, lightness, saturation)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def hue_colour(key: str, saturation: float = 0.45, lightness: float = 0.72) -> str:
    """A colour that depends only on `key` (the same on every machine and run)."""
    hue = (_digest(key) % 360) / 360
    return _hls_colour(hue, lightness, saturation)


def terrain_style(terrain_id: str) -> TerrainStyle:
    known = _KNOWN.get(terrain_id.lower())
    if known:
        return known
    patterns = PATTERNS[1:]
    return TerrainStyle(hue_colour("terrain:" + terrain_id), patterns[_digest(terrain_id) % len(patterns)], "label")


GOLDEN_TURN = 0.6180339887498949  # successive hues this far apart never crowd together


def division_colours(divisions: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """A band colour per (side, division): light enough for black text, far apart in hue.

    Divisions are taken in sorted order and given hues a golden turn apart, so
    the colours depend only on the game's divisions, never on run or machine.
    """
    colours = {}
    for index, key in enumerate(sorted(set(divisions))):
        hue = (0.08 + index * GOLDEN_TURN) % 1.0
        colours[key] = _hls_colour(hue, 0.72 if index % 2 else 0.64, 0.6)
    return colours
