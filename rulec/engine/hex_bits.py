"""Sets of hexes as the bits of an int (bit i: the hex numbered i, Tables.index), and the steps of a neighbour
table over them: a breadth-first search then takes a whole layer in a few int operations instead of a loop over
every hex of the layer and each of its neighbours (traces.py).

On a grid whose hexes are numbered in order, a step in one direction adds the same number to every hex's number
(give or take the column's parity), so a table's steps group into a few shifts: each a difference of numbers and
the hexes that step by it. A table with no such order (a map drawn as a graph) has too many differences to be worth
it: its steps are then taken hex by hex from each hex's neighbours as bits. Either way every step of the table is
taken and no other, so the two give the same hexes.
"""

from __future__ import annotations

from itertools import compress
from typing import Any, Final, Iterable

from rulec.runtime.model import Hex

# Above this many differences, a layer costs more as shifts than hex by hex.
MOST_SHIFTS = 24
# Up to this many hexes, a set's numbers are found a bit at a time; above, from its binary digits at once. The first
# costs a few big-int operations a hex, the second a pass over every digit (on a map of 780 hexes, about 10 us pure
# Python, what the first spends on some 60 hexes).
FEW_BITS: Final = 48
_AS_SELECTORS: Final = bytes.maketrans(b"01", b"\x00\x01")  # a bin() string's digits -> false/true bytes


class Steps:
    """The steps of a neighbour table (hex -> the hexes a step from it may enter), on hexes numbered by `index`."""

    def __init__(self, neighbours: dict[Hex, tuple[Hex, ...]], index: dict[Hex, int]):
        by_difference: dict[int, int] = {}
        into = [0] * len(index)  # number -> the hexes a step into it comes from
        for h, ns in neighbours.items():
            i = index[h]
            for n in ns:
                j = index[n]
                by_difference[j - i] = by_difference.get(j - i, 0) | (1 << i)
                into[j] |= 1 << i
        self._into = into
        self.hex_count = len(index)
        self.packed: Any = None  # the steps as native.core reads them (trace_sets.new_layers; False: it cannot)
        self._shifts: tuple[tuple[int, int], ...] | None = None
        self._out: list[int] = []
        if len(by_difference) <= MOST_SHIFTS:
            self._shifts = tuple(by_difference.items())
        else:
            out = [0] * len(index)
            for h, ns in neighbours.items():
                for n in ns:
                    out[index[h]] |= 1 << index[n]
            self._out = out

    def after(self, bits: int) -> int:
        """The hexes one step from those of `bits`."""
        found = 0
        if self._shifts is not None:
            for difference, movers in self._shifts:
                moving = bits & movers
                if moving:
                    found |= moving << difference if difference > 0 else moving >> -difference
        else:
            out = self._out
            for i in numbers(bits):
                found |= out[i]
        return found

    def shifts(self) -> tuple[tuple[int, int], ...] | None:
        """Each difference between a hex's number and a neighbour's, with the hexes that step so (as bits); None for
        a table with too many differences (a map drawn as a graph)."""
        return self._shifts

    def into(self, number: int) -> int:
        """The hexes a step into the hex numbered `number` comes from."""
        return self._into[number]


def numbers(bits: int) -> list[int]:
    """The numbers of the hexes of `bits`, lowest first."""
    if bits.bit_count() <= FEW_BITS:
        return _few_numbers(bits)
    return list(compress(range(bits.bit_length()), flags(bits)))


def hexes_in_order(bits: int, numbered: tuple[Hex, ...]) -> list[Hex]:
    """The hexes of `bits`, in the order of their numbers (`numbered`: number -> hex)."""
    if bits.bit_count() <= FEW_BITS:
        return [numbered[i] for i in _few_numbers(bits)]
    return list(compress(numbered, flags(bits)))


def hexes(bits: int, numbered: tuple[Hex, ...]) -> frozenset[Hex]:
    """The hexes of `bits` (`numbered`: number -> hex)."""
    if bits.bit_count() <= FEW_BITS:
        return frozenset([numbered[i] for i in _few_numbers(bits)])
    return frozenset(compress(numbered, flags(bits)))


def _few_numbers(bits: int) -> list[int]:
    """numbers(bits), a set bit at a time (the lowest, then the next ...)."""
    found = []
    while bits:
        lowest = bits & -bits
        found.append(lowest.bit_length() - 1)
        bits ^= lowest
    return found


def flags(bits: int) -> bytes:
    """One byte a bit of `bits`, lowest first: 1 where it is set, else 0 (made in C: no loop over the bits). As long
    as the highest bit set."""
    return bin(bits)[:1:-1].encode().translate(_AS_SELECTORS)


def map_flags(bits: int, size: int) -> bytes:
    """`flags` of the hexes of a map of `size` hexes, one byte more, always 0: `found[index.get(h, -1)] == 1` asks
    whether hex `h` is in the set, a hex off the map (-1: the last byte) included."""
    return flags(bits).ljust(size + 1, b"\0")


def bits_of(hexes_: Iterable[Hex], index: dict[Hex, int]) -> int:
    """The bits of the hexes."""
    found = 0
    for h in hexes_:
        found |= 1 << index[h]
    return found
