"""What the engine does not play yet: model settings it reads but does not act on.

The language and the model already hold mechanics that only a later engine
will play (docs/language.md shows them, in its section on a larger game). A game
that sets one still checks, compiles and prints its aids; `unplayed(game)`
names each such setting so that `rulec check` can warn the designer and
`rulec play` and `rulec simulate` can say which rules the engine will ignore.
Delete an entry here when the engine learns the rule.
"""

from __future__ import annotations

from typing import Callable

from rulec.runtime.model import Game

# (setting as a designer writes it, test on the game model)
_UNPLAYED: tuple[tuple[str, Callable[[Game], bool]], ...] = (
    ("supply { ... } (supply lines and their effects)", lambda g: g.supply is not None),
    ("movement { leapfrog = true }", lambda g: g.movement.leapfrog),
    ("movement { blocked_entry_by_side = ... }", lambda g: bool(g.movement.blocked_entry_by_side)),
    ("phase { attackers_disrupted / only_undisrupted / recover }",
     lambda g: any(p.attackers_disrupted or p.only_undisrupted or p.recover for p in g.sequence)),
    ("unit_type { must_be_attacked / adds_to_defense / blocks_enemy_entry } (forts)",
     lambda g: any(t.must_be_attacked or t.adds_to_defense or t.blocks_enemy_entry for t in g.unit_types.values())),
    ("terrain { defense_multiplier = ... }", lambda g: any(t.defense_multiplier != 1.0 for t in g.terrain.values())),
    ("hexside { no_attack_after_move = true }", lambda g: any(h.no_attack_after_move for h in g.hexside_types.values())),
    ("award { requires_supply = true }", lambda g: any(a.requires_supply for a in g.awards)),
    ("map { hex_vp = ... } (VP for holding towns)", lambda g: g.map is not None and bool(g.map.hex_vp)),
    ("option { start_turn / turns / first_side / free_setup / strength_multiplier } (scenarios)",
     lambda g: any(o.start_turn is not None or o.turns is not None or o.first_side or o.free_setup or o.strength_multiplier
                   for o in g.options.values())),
)


def unplayed(game: Game) -> list[str]:
    """The settings of `game` that the engine does not act on yet, as a designer writes them."""
    if game.map is None:  # battle systems are resolved by rulec.battle, not played by this engine
        return []
    return [setting for setting, used in _UNPLAYED if used(game)]
