"""Edges by side and by use: by which map edges a unit may leave the map (movement { may_exit }).

The movement search finds the edges a unit can reach with MP left to step off; `may_exit`, a
condition about the unit and `edge`, keeps those it may leave by: an edge one side's units arrive
by and no unit leaves by, an edge only one side may leave by. Without it every reached edge is open.
"""

from __future__ import annotations

from rulec.engine.context import EngineContext
from rulec.engine.position import Position


def allowed_edges(state: Position, uid: str, edges: tuple[str, ...]) -> tuple[str, ...]:
    """Of the `edges` the unit can reach, those movement { may_exit } lets it leave by."""
    condition = state.game.movement.may_exit
    if condition is None or not edges:
        return edges
    context = EngineContext(state, state.unit(uid))
    allowed = []
    for edge in edges:
        context.edge = edge
        if condition(context):
            allowed.append(edge)
    return tuple(allowed)


def may_exit(state: Position, uid: str, edge: str) -> bool:
    """Does movement { may_exit } let the unit leave the map by `edge` (True without the rule)?"""
    return bool(allowed_edges(state, uid, (edge,)))
