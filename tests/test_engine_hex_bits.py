"""Sets of hexes as bits (rulec/engine/hex_bits.py): a layer's steps, taken as shifts on a numbered grid or hex by
hex on a map drawn as a graph, are exactly the steps of the neighbour table."""

from __future__ import annotations

import random

import pytest

from rulec.engine import hex_bits, new_game
from rulec.engine.hex_bits import FEW_BITS, Steps, bits_of, hexes, hexes_in_order, map_flags, numbers
from rulec.pipeline import load_game


def one_step(neighbours, among):
    return {n for h in among for n in neighbours[h]}


def assert_steps_exact(neighbours, index, rng, tries=200):
    steps = Steps(neighbours, index)
    numbered = tuple(sorted(index, key=index.__getitem__))
    for _ in range(tries):
        among = {h for h in numbered if rng.random() < 0.1}
        assert hexes(steps.after(bits_of(among, index)), numbered) == one_step(neighbours, among)
    for h in numbered:
        into = {a for a, ns in neighbours.items() if h in ns}
        assert hexes(steps.into(index[h]), numbered) == into
    return steps


def test_a_grid_takes_its_steps_as_a_few_shifts():
    state = new_game(load_game("the_marne"))
    tables = state.tables
    steps = assert_steps_exact(tables.neighbours, tables.index, random.Random(1))
    assert steps._shifts is not None and len(steps._shifts) <= 8


def test_a_map_drawn_as_a_graph_takes_its_steps_hex_by_hex():
    rng = random.Random(2)
    names = [f"h{i}" for i in range(120)]
    neighbours = {h: tuple(rng.sample(names, 3)) for h in names}  # one-way steps, any number apart
    index = {h: i for i, h in enumerate(names)}
    steps = assert_steps_exact(neighbours, index, rng)
    assert steps._shifts is None  # too many differences of numbers to be worth shifts


@pytest.mark.parametrize("most", [0, hex_bits.MOST_SHIFTS])
def test_both_ways_agree_on_a_blocked_grid(monkeypatch, most):
    monkeypatch.setattr(hex_bits, "MOST_SHIFTS", most)
    tables = new_game(load_game("drive_on_metz")).tables
    rng = random.Random(3)
    blocked = {h: tuple(n for n in ns if rng.random() < 0.7) for h, ns in tables.neighbours.items()}  # a river's
    assert_steps_exact(blocked, tables.index, rng, tries=50)


def test_numbers_and_hexes_of_bits():
    assert numbers(0) == [] and numbers(0b101001) == [0, 3, 5]
    numbered = ("a", "b", "c", "d")
    assert hexes(0b1010, numbered) == {"b", "d"} and hexes(0, numbered) == frozenset()
    assert bits_of(["a", "d"], {h: i for i, h in enumerate(numbered)}) == 0b1001


@pytest.mark.parametrize("count", [1, FEW_BITS - 1, FEW_BITS, FEW_BITS + 1, 300, 780])
def test_few_bits_and_many_bits_give_the_same_hexes(count):
    """Few set bits are read a bit at a time, many from the binary digits at once: both give every hex, in order."""
    rng = random.Random(count)
    numbered = tuple(f"{i:04d}" for i in range(780))
    chosen = sorted(rng.sample(range(780), count))
    bits = sum(1 << i for i in chosen)
    assert numbers(bits) == chosen
    assert hexes_in_order(bits, numbered) == [numbered[i] for i in chosen]
    assert hexes(bits, numbered) == {numbered[i] for i in chosen}


def test_map_flags_answer_for_every_hex_and_for_one_off_the_map():
    """A byte a hex of the map, one more always 0: a hex's number, or -1 for a hex off the map, reads its answer."""
    numbered = tuple(f"{i:04d}" for i in range(100))
    index = {h: i for i, h in enumerate(numbered)}
    for chosen in ([], [0], [3, 50], [99], list(range(100))):
        found = map_flags(bits_of((numbered[i] for i in chosen), index), len(numbered))
        assert len(found) == len(numbered) + 1
        assert [h for h in numbered if found[index.get(h, -1)] == 1] == [numbered[i] for i in chosen]
        assert found[index.get("off the map", -1)] == 0
