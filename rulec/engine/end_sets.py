"""movement { may_end_move } answered for many of a unit's destinations at once, from the set algebra the checker
wrote it as (model.MovementRules.may_end_sets; rulec/check/end_sets.py gives its forms).

Sets of hexes are bits of hex numbers (hex_bits.py). Each part is asked of the hexes it would be asked of hex by hex
and no more: `and` asks its next part only where the ones before held, `or` only where they did not, `if` each
branch where its condition gives it, so an answer reads what asking hex by hex would read, and the reading context
(answer_reads.ReadingContext, which lets a move keep the answers that read nothing it changed) is told of it: the
traces at those hexes, the zones of control and holders. One exception, on the safe side: any(n in neighbours(hex)
where C) asks C of every neighbour, where hex by hex it stops at the first that holds (more is noted as read than
was, which only asks a unit again that need not be).

The answers are the condition's own: tests/test_engine_end_sets.py compares them with it hex by hex.
"""

from __future__ import annotations

from typing import Any

from rulec.engine.answer_reads import ReadingContext
from rulec.engine.context import EngineContext
from rulec.engine.hex_bits import numbers
from rulec.engine.move_memory import obstacles
from rulec.engine.position import Position
from rulec.engine.trace_sets import OBSTACLE, held_bits
from rulec.engine.traces import traced_bits


def allowed(state: Position, formula: tuple, context: EngineContext, candidates: int) -> int:
    """The hexes of `candidates` (bits) that the condition `formula` holds for, about `context`'s unit."""
    return _Asking(state, context).holds(formula, candidates)


class _Asking:
    """One condition asked of a set of hexes, about one unit in one position."""

    def __init__(self, state: Position, context: EngineContext):
        self.state, self.context, self.tables = state, context, state.tables
        self.reading = context if isinstance(context, ReadingContext) else None

    def holds(self, formula: tuple, candidates: int) -> int:
        if not candidates:
            return 0
        kind = formula[0]
        if kind == "and":
            for part in formula[1]:
                candidates = self.holds(part, candidates)
                if not candidates:
                    break
            return candidates
        if kind == "or":
            found = 0
            for part in formula[1]:
                got = self.holds(part, candidates & ~found)
                found |= got
                if found == candidates:
                    break
            return found
        if kind == "not":
            return candidates & ~self.holds(formula[1], candidates)
        if kind == "if":
            yes = self.holds(formula[1], candidates)
            return self.holds(formula[2], yes) | self.holds(formula[3], candidates & ~yes)
        if kind == "scalar":
            return candidates if formula[1](self.context) else 0
        if kind == "hexes":
            return candidates & self._on_the_map(formula[1])
        if kind == "traced":
            return candidates & self._traced(formula[1], formula[2](self.context), candidates)
        if kind == "fact":
            return candidates & self._fact(formula[1], formula[2](self.context))
        if kind == "at":
            at = formula[1](self.context)  # ("" for a unit off the map: no hex)
            return candidates & self.tables.hex_bit[at] if at in self.tables.index else 0
        if kind == "next to":
            # the map's neighbours (those `neighbours(hex)` gives) as steps, and taken backwards: the hexes next to
            # the candidates, and the candidates next to the hexes C holds for
            forward, backward = self.tables.map_steps(), self.tables.map_steps(backward=True)
            return candidates & backward.after(self.holds(formula[1], forward.after(candidates)))
        assert kind == "per hex", kind
        return self._hex_by_hex(formula[1], candidates)

    def _hex_by_hex(self, condition: Any, candidates: int) -> int:
        context, numbered = self.context, self.tables.numbered
        found = 0
        for number in numbers(candidates):
            context.hex = numbered[number]
            if condition(context):
                found |= 1 << number
        return found

    def _on_the_map(self, condition: Any) -> int:
        """The hexes a condition on the map alone holds for (once a game)."""
        key = ("may_end_sets: on the map", id(condition))
        found = self.state._for_the_game.get(key)
        if found is None:
            found = self._hex_by_hex(condition, (1 << len(self.tables.numbered)) - 1)
            self.state._for_the_game[key] = found
        return found

    def _traced(self, trace: str, side: str, asked: int) -> int:
        state = self.state
        if self.reading is not None:
            self.reading.note_trace_at(trace, side, asked)
        return traced_bits(state, trace, side, EngineContext)

    def _fact(self, fact: str, side: str) -> int:
        if fact == "held":
            if self.reading is not None:
                self.reading.note(("holders",))
            return held_bits(self.state, side)
        if fact == "zoc" and self.reading is not None:
            self.reading.note(("zoc", side))
        return obstacles(self.state, side)[OBSTACLE[fact]]
