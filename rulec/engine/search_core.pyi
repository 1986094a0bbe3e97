"""Types of search_core.pyx (the compiled engine's search loops, in C) for the type checker."""

from typing import Any

OBJECTIVES_FIT: int


class Packed:
    def __init__(self, plain_moves: Any, objective_moves: Any, rare: Any, exits: Any, index_bit: Any,
                 mask_rank: Any, neighbours: Any) -> None: ...


def run(packed: Packed, flags: bytes, allowance: int, origin: int, seeded: bool, first: list[tuple[int, int, bool]],
        held: int, stop_in_zoc: bool, zoc_extra: int, zoc_to_zoc: bool, hexes: tuple[str, ...], most_layers: int
        ) -> Any: ...


def board_flags(enemy: int, zoc: int, no_pass: int, size: int) -> bytes: ...


class Shifts:
    def __init__(self, shifts: tuple[tuple[int, int], ...], size: int) -> None: ...


class Layers:
    reached: int

    def __init__(self, shifts: Shifts, start: int, passing: int, limit: int) -> None: ...

    def update(self, passing: int) -> int: ...

    def as_ints(self) -> list[int]: ...
