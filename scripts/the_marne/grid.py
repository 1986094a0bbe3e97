"""The Marne's hex grid laid over the real map: latitude/longitude to hex numbers and back.

The published map is not available (../shared/data/the-marne.md); the reconstruction lays a
grid of 7.2 km hexes over the theatre: north edge 49.55°N, south 48.25°N, west 2.10°E, east
5.45°E. Hexes are flat-topped in columns running north to south (`orientation = flat_top`,
`offset = even_columns_down`, numbering CCRR): hex 0101 is the north-west corner, columns grow
eastward and rows southward, and even columns sit half a hex lower.
"""

from __future__ import annotations

import math

NORTH, SOUTH, WEST, EAST = 49.55, 48.25, 2.10, 5.45
HEX_KM = 7.2                      # across the flats, north to south in a column
COLUMN_KM = HEX_KM * math.sqrt(3) / 2   # between column centres, west to east
KM_PER_LAT = 111.2
KM_PER_LON = 73.0                 # at 49°N
COLUMNS = range(1, 40)            # 1..39
ROWS = range(1, 21)               # 1..20


def centre_km(column: int, row: int) -> tuple[float, float]:
    """(east, south) of a hex centre in km from the north-west corner."""
    x = (column - 1) * COLUMN_KM
    y = (row - 1) * HEX_KM + (HEX_KM / 2 if column % 2 == 0 else 0.0)
    return x, y


def km_of(lat: float, lon: float) -> tuple[float, float]:
    return (lon - WEST) * KM_PER_LON, (NORTH - lat) * KM_PER_LAT


def label(column: int, row: int) -> str:
    return f"{column:02d}{row:02d}"


def on_map(column: int, row: int) -> bool:
    return column in COLUMNS and row in ROWS


def hex_of(lat: float, lon: float, clamp: bool = False) -> str | None:
    """The hex holding a point (None off the map, or the nearest hex with clamp=True)."""
    x, y = km_of(lat, lon)
    guess = round(x / COLUMN_KM) + 1
    best = None
    for column in range(guess - 1, guess + 2):
        shift = HEX_KM / 2 if column % 2 == 0 else 0.0
        for row in (math.floor((y - shift) / HEX_KM) + 1, math.floor((y - shift) / HEX_KM) + 2):
            cx, cy = centre_km(column, row)
            d = (cx - x) ** 2 + (cy - y) ** 2
            if best is None or d < best[0]:
                best = (d, column, row)
    _, column, row = best
    if not on_map(column, row):
        if not clamp:
            return None
        column = min(max(column, COLUMNS.start), COLUMNS.stop - 1)
        row = min(max(row, ROWS.start), ROWS.stop - 1)
    return label(column, row)


def lat_lon(hex_label: str) -> tuple[float, float]:
    """The latitude and longitude of a hex centre."""
    x, y = centre_km(int(hex_label[:2]), int(hex_label[2:]))
    return NORTH - y / KM_PER_LAT, WEST + x / KM_PER_LON


if __name__ == "__main__":
    for name, lat, lon in [("Paris", 48.8566, 2.3522), ("Reims", 49.2583, 4.0317), ("Troyes", 48.2973, 4.0744),
                           ("Verdun", 49.1598, 5.3844), ("Meaux", 48.9601, 2.8788)]:
        print(name, hex_of(lat, lon))
