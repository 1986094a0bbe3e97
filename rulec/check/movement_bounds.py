"""Check: a movement allowance no path on the map can use is a warning, and is played as the most one can.

The bound is rulec.runtime.bounds.useful_allowance (the engine cuts an allowance raised in play by unit
modifiers to the same bound). A unit's printed MP, its variants' and its reduced sides' are checked.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from rulec.runtime import model as m
from rulec.runtime.bounds import useful_allowance


def bound_allowances(game: m.Game, warn: Callable[[str, str, tuple, str | None], None]) -> m.Game:
    """`game` with every allowance above the map's bound lowered to it, each one warned of at its place."""
    bound = useful_allowance(game)
    units: dict[str, m.Unit] = {}
    changed = False
    for uid, unit in game.units.items():
        path = ("unit", uid)

        def lowered(move: Any, where: tuple) -> Any:
            if not isinstance(move, int) or move <= bound:
                return move
            warn("move-beyond-map", f"a movement allowance of {move:,} MP is more than any move on this map can "
                                    f"use (at most {bound:,}): it is played as {bound:,}", where,
                 "write the most MP a unit of this game may have")
            return bound

        move = lowered(unit.move, path + ("move",))
        variants = tuple(dataclasses.replace(v, move=lowered(v.move, path + ("variant", v.name, "move")))
                         for v in unit.variants)
        reduced = tuple(dataclasses.replace(s, move=lowered(s.move, path + ("reduced",))) for s in unit.reduced)
        if move != unit.move or variants != unit.variants or reduced != unit.reduced:
            unit = dataclasses.replace(unit, move=move, variants=variants, reduced=reduced)
            changed = True
        units[uid] = unit
    return dataclasses.replace(game, units=units) if changed else game
