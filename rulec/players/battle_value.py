"""What the battles a position offers are worth, read from the combat results table: a term of the evaluator.

A move next to an enemy is weighed, without playing it, by the battles it makes possible in the combat
phases to come: the next side to fight may attack each enemy hex next to its units. A battle's value to
the attacker is its expectation over the die: for each roll, the result's effects, in the VP and strength
each side loses (what the enemy's awards pay for a unit eliminated, plus its strength on the map; a step
is a share of its unit):

- eliminate(side): all of that side's units in the battle;
- exchange: all the defenders, and attackers worth at least the defenders' strength, chosen by their owner
  to lose least (all of them if they have less);
- lose(side, n): units worth at least n strength, chosen the same way; lose_steps(side, n): n steps, the
  cheapest first (an amount read from the other side's losses as the engine reads it);
- retreat(side, n): nothing for units that have somewhere to go (where they end up is the evaluator's other
  terms' business), but a unit whose every neighbouring hex holds an enemy cannot retreat at all: the engine
  eliminates it, and so it is counted (a surrounded enemy is worth more than the same enemy with a way out);
- advances and markers: nothing.

A battle is worth attacking only when its value is positive (the attacker may leave it); of the groups of
attackers next to a hex, the whole group and each unit alone are weighed (an exchange may make a small
attacker the best). The odds are worked out by the engine's own `odds` (strengths, terrain, die), without the
battle modifiers the declaration would apply: an estimate, as every term of the evaluator.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Callable, Final

from rulec.engine import combat as fight
from rulec.engine.tables import Tables
from rulec.runtime.model import Game, Hex, Unit

MOST_SUBSETS_OF: Final = 8  # units of one side of a battle whose every subset is tried for the cheapest loss
_MOST_KEPT: Final = 50_000  # battle values kept before the table is emptied


class BattleValue:
    """Expected value of battles to the attacker (see the module docstring). `unit_value(unit, steps_left)`: what
    losing the unit as it stands costs its side."""

    def __init__(self, game: Game, tables: Tables, unit_value: Callable[[Unit, int], float]):
        self.game = game
        self.tables = tables
        self.unit_value = unit_value
        self.table = game.tables[game.combat.table] if game.combat is not None else None
        self._hold_ground = frozenset(game.combat.retreat.exempt) if game.combat is not None else frozenset()
        self._kept: dict[tuple, float] = {}
        if self.table is not None:
            low, high = self.table.die_range
            self._rolls = range(low, high + 1)
            self._chance = 1.0 / len(self._rolls)
            die = getattr(game.info, "die", None)
            if isinstance(die, int) and die > 0:  # the die, not the rows, says what may be rolled
                self._rolls, self._chance = range(1, die + 1), 1.0 / die

    def can_attack(self, unit: Unit) -> bool:
        unit_type = self.game.unit_types.get(unit.type)
        return unit.strength > 0 and (unit_type is None or unit_type.can_attack)

    def battle(self, attackers: list[tuple[Unit, int, Hex]], defenders: list[tuple[Unit, int]], target: Hex,
               trapped: frozenset[str] = frozenset()) -> float:
        """The attacker's expected gain (VP-like) of `attackers` ((unit, steps left, hex)) attacking `defenders`
        ((unit, steps left)) in `target`; `trapped`: the ids of those units that have no hex to retreat into."""
        trapped = trapped.intersection([u.id for u, _, _ in attackers] + [u.id for u, _ in defenders])
        key = (tuple((u.id, u.strength, s, h) for u, s, h in attackers), tuple((u.id, u.strength, s) for u, s in defenders),
               target, trapped)
        found = self._kept.get(key)
        if found is None:
            if len(self._kept) > _MOST_KEPT:
                self._kept.clear()
            found = self._kept[key] = self._work_out(attackers, defenders, target, trapped)
        return found

    def _work_out(self, attackers, defenders, target: Hex, trapped: frozenset[str]) -> float:
        table = self.table
        assert table is not None  # battles are weighed only in a game with combat
        attack = sum(u.strength for u, _, _ in attackers)
        defence = sum(u.strength for u, _ in defenders)
        odds = fight.odds(self.game, self.tables, attack, defence, sorted({h for _, _, h in attackers}), target)
        sides = {"attacker": [(u, s) for u, s, _ in attackers], "defender": list(defenders)}
        total = 0.0
        results = self.game.results
        for roll in self._rolls:
            code = fight.result_code(table, odds.column, roll, odds.drm)
            result = results.get(code)
            if result is not None:
                total += self._chance * self._result_value(result.effects, sides, trapped)
        return total

    def _result_value(self, effects, sides: dict[str, list[tuple[Unit, int]]],
                      trapped: frozenset[str] = frozenset()) -> float:
        """The attacker's gain of one result: what the defender loses less what the attacker loses."""
        lost: dict[str, tuple[float, int, int]] = {"attacker": (0.0, 0, 0), "defender": (0.0, 0, 0)}  # (value, strength, steps)
        eliminated: set[str] = set()  # the sides all of whose units are gone already
        for effect in effects:
            kind, who = effect.kind, effect.who
            if kind == "retreat" and who in sides and trapped and effect.amount > 0 and who not in eliminated:
                cornered = [(u, s) for u, s in sides[who] if u.id in trapped and u.type not in self._hold_ground]
                if cornered:  # nowhere to go: the engine eliminates them
                    lost[who] = _plus(lost[who], _all(cornered, self.unit_value))
            elif kind == "exchange":
                eliminated.add("defender")
                everyone = _all(sides["defender"], self.unit_value)
                lost["defender"] = _plus(lost["defender"], everyone)
                lost["attacker"] = _plus(lost["attacker"], _cheapest(sides["attacker"], everyone[1], self.unit_value))
            elif kind == "eliminate" and who in sides and who not in eliminated:
                lost[who] = _plus(lost[who], _all(sides[who], self.unit_value))
                eliminated.add(who)
            elif kind in ("lose", "lose_steps") and who in sides:
                amount = effect.amount
                if effect.lost_by is not None:
                    by = lost[effect.lost_by]
                    amount = by[2] if effect.lost_in == "steps" else by[1]
                if kind == "lose":
                    paid = _cheapest(sides[who], amount, self.unit_value)
                else:
                    paid = _cheapest_steps(sides[who], amount, self.unit_value)
                lost[who] = _plus(lost[who], paid)
        return lost["defender"][0] - lost["attacker"][0]


def _plus(one: tuple[float, int, int], other: tuple[float, int, int]) -> tuple[float, int, int]:
    """Two (value, strength, steps) losses added up, each part as it is typed (the compiled build keeps an int an int)."""
    return (one[0] + other[0], one[1] + other[1], one[2] + other[2])


def _all(units: list[tuple[Unit, int]], unit_value) -> tuple[float, int, int]:
    return (sum(unit_value(u, s) for u, s in units), sum(u.strength for u, _ in units), sum(s for _, s in units))


def _cheapest(units: list[tuple[Unit, int]], strength: float, unit_value) -> tuple[float, int, int]:
    """The (value, strength, steps) of the units worth at least `strength` that cost least (all, if they have less)."""
    if strength <= 0:
        return (0.0, 0, 0)
    if sum(u.strength for u, _ in units) <= strength:
        return _all(units, unit_value)
    if len(units) > MOST_SUBSETS_OF:  # the cheapest per strength point first
        chosen, got = [], 0
        for unit, steps in sorted(units, key=lambda us: unit_value(*us) / max(1, us[0].strength)):
            if got >= strength:
                break
            chosen.append((unit, steps))
            got += unit.strength
        return _all(chosen, unit_value)
    best = None
    for k in range(1, len(units) + 1):
        for group in combinations(units, k):
            if sum(u.strength for u, _ in group) >= strength:
                found = _all(list(group), unit_value)
                if best is None or found[0] < best[0]:
                    best = found
    return best if best is not None else _all(units, unit_value)


def _cheapest_steps(units: list[tuple[Unit, int]], steps: int, unit_value) -> tuple[float, int, int]:
    """`steps` steps lost, the cheapest first (a step is its unit's value shared among its steps left)."""
    each = sorted((unit_value(u, s) / max(1, s), u.strength / max(1, s)) for u, s in units for _ in range(max(1, s)))
    taken = each[:max(0, int(steps))]
    return (sum(v for v, _ in taken), int(sum(s for _, s in taken)), len(taken))


def next_fighters(game: Game, phase_id: Any, last_turn: bool = False) -> list[str]:
    """The sides of the combat phases after `phase_id` in the sequence of play (wrapping round to the next turn
    unless this is the `last_turn`), each once, nearest first."""
    sequence = game.sequence
    ids = [p.id for p in sequence]
    start = ids.index(phase_id) if phase_id in ids else -1
    found: list[str] = []
    for offset in range(1, len(sequence) + 1):
        if last_turn and start + offset >= len(sequence):
            break
        phase = sequence[(start + offset) % len(sequence)]
        if phase.kind == "combat" and phase.side and phase.side not in found:
            found.append(phase.side)
    return found
