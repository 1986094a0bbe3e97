"""Types of search_core.pyx (the compiled engine's search loop, in C) for the type checker."""

from typing import Any

OBJECTIVES_FIT: int


class Packed:
    def __init__(self, plain_moves: Any, objective_moves: Any, rare: Any, exits: Any, index_bit: Any,
                 mask_rank: Any) -> None: ...


def run(packed: Packed, flags: bytes, allowance: int, origin: int, seeded: bool, first: list[tuple[int, int, bool]],
        counted: int, stop_in_zoc: bool, zoc_extra: int, zoc_to_zoc: bool, hexes: tuple[str, ...]
        ) -> tuple[dict[str, int], tuple[int, ...], tuple[int, ...], list[tuple[int, int, int]]]: ...
