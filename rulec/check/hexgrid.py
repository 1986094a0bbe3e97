"""Hex-grid geometry used at compile time: numbering, neighbours, ranges."""

from __future__ import annotations

from rulec.runtime.model import HexGrid

# Offsets (column, row) to each neighbour, by orientation and by the parity
# of the column (flat_top) or row (pointy_top) that is shifted.
_FLAT_SHIFTED = {"n": (0, -1), "ne": (1, 0), "se": (1, 1), "s": (0, 1), "sw": (-1, 1), "nw": (-1, 0)}
_FLAT_UNSHIFTED = {"n": (0, -1), "ne": (1, -1), "se": (1, 0), "s": (0, 1), "sw": (-1, 0), "nw": (-1, -1)}
_POINTY_SHIFTED = {"ne": (1, -1), "e": (1, 0), "se": (1, 1), "sw": (0, 1), "w": (-1, 0), "nw": (0, -1)}
_POINTY_UNSHIFTED = {"ne": (0, -1), "e": (1, 0), "se": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)}


def digits(grid: HexGrid) -> tuple[int, int]:
    """How many digits the column and the row take in a hex number."""
    return grid.numbering.count("C"), grid.numbering.count("R")


def hex_number(grid: HexGrid, column: int, row: int) -> str:
    column_digits, row_digits = digits(grid)
    return f"{column:0{column_digits}d}{row:0{row_digits}d}"


def parse_hex(grid: HexGrid, text: str | int) -> tuple[int, int] | None:
    """(column, row) of a hex number, or None if it is not a well-formed number."""
    column_digits, row_digits = digits(grid)
    text = str(text)
    if not text.isdigit():
        return None
    text = text.zfill(column_digits + row_digits)
    if len(text) != column_digits + row_digits:
        return None
    return int(text[:column_digits]), int(text[column_digits:])


def on_map(grid: HexGrid, column: int, row: int) -> bool:
    return grid.columns[0] <= column <= grid.columns[1] and grid.rows[0] <= row <= grid.rows[1]


def is_shifted(grid: HexGrid, column: int, row: int) -> bool:
    if grid.offset == "even_columns_down":
        return column % 2 == 0
    if grid.offset == "odd_columns_down":
        return column % 2 == 1
    if grid.offset == "even_rows_right":
        return row % 2 == 0
    return row % 2 == 1  # odd_rows_right


def neighbour_offsets(grid: HexGrid, column: int, row: int) -> dict[str, tuple[int, int]]:
    shifted = is_shifted(grid, column, row)
    if grid.orientation == "flat_top":
        return _FLAT_SHIFTED if shifted else _FLAT_UNSHIFTED
    return _POINTY_SHIFTED if shifted else _POINTY_UNSHIFTED


def neighbours(grid: HexGrid, column: int, row: int) -> dict[str, tuple[int, int]]:
    """Every neighbour position by direction, on the map or not."""
    return {d: (column + dc, row + dr) for d, (dc, dr) in neighbour_offsets(grid, column, row).items()}


def all_hexes(grid: HexGrid) -> list[tuple[int, int]]:
    return [(c, r) for c in range(grid.columns[0], grid.columns[1] + 1) for r in range(grid.rows[0], grid.rows[1] + 1)]
