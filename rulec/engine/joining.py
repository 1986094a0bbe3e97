"""Who may join a given battle (`combat { may_join = ... }`), and the battle as expressions see it.

`may_join` is a condition about a phasing unit (`unit`) and the battle it would join, as
declared so far: `attackers` (the units already in it, not the one asking), `defenders`,
`attacker_hexes`, `defender_hexes`, `defender_hex`, `attacker_side`, `defender_side` (the
names of a battle modifier's `when`). battles.py asks it before offering `with UNIT`, before
a multi-hex battle takes another hex (every attacker so far must still be allowed), and
before offering `attack HEX` at all; duties.py asks it so that no duty asks for a refused
attack. Answers are kept for the position (GameState._cache).

`battle_context` is also what an `on battle_resolved` hook's expressions see (procedures.py).
"""

from __future__ import annotations

import builtins
from dataclasses import fields
from typing import Any, Callable, Final, Sequence

from rulec.engine import answer_reads, stacking
from rulec.engine.context import EngineContext
from rulec.engine.position import Position
from rulec.runtime.model import Hex, Unit


def battle_context(state: Position, side: str, attackers: Sequence[str], attacker_hexes: Sequence[Hex],
                   defenders: Sequence[str], targets: Sequence[Hex], unit: Unit | None = None) -> EngineContext:
    """An EngineContext with the battle's names set: `side` attacks `targets` with `attackers` (from
    `attacker_hexes`) against `defenders`; about `unit` if given."""
    context = EngineContext(state, unit)
    context.attackers = [state.unit(u) for u in attackers]
    context.defenders = [state.unit(u) for u in defenders]
    context.attacker_hexes = tuple(attacker_hexes)
    context.defender_hexes = tuple(targets) or ("",)
    context.attacker_side = side
    context.defender_side = context.defenders[0].side if context.defenders else ""
    return context


def may_join(state: Position, uid: str, targets: tuple[Hex, ...], attackers: tuple[str, ...]) -> bool:
    """May `uid` join the battle of `attackers` (so far) against `targets`, as the game's may_join says?"""
    combat = state.game.combat
    condition = combat.may_join if combat is not None else None
    if condition is None:
        return True
    # Kept under the attackers so far only when the condition may read them: then each `with` asks it again.
    key = ("may_join", uid, targets, attackers if attackers and _reads_attackers(state, condition.function) else ())
    found = state._cache.get(key)
    if found is None:
        occupants, pos = stacking.occupants(state), state.pos
        context = battle_context(state, state.phase.side or "", attackers,
                                 tuple(dict.fromkeys(pos[u] for u in attackers if u in pos)),
                                 [u for h in targets for u in occupants.get(h, ())], targets, state.unit(uid))
        found = state._cache[key] = bool(condition.function(context))
    return found


# What a condition about a battle may read of it without reading its attackers: the evaluation context's own
# attributes and methods but those two (model.Unit's fields are read off units), and Python's builtins.
_NOT_ATTACKERS: Final = (frozenset(dir(EngineContext)) | frozenset(f.name for f in fields(Unit)) | frozenset(dir(builtins))
                  | {"unit", "hex", "attacker_side", "defender_side", "defenders", "defender_hexes"}) \
    - {"attackers", "attacker_hexes"}


def _reads_attackers(state: Position, condition: Callable[..., Any]) -> bool:
    """May the condition's answer depend on the battle's attackers so far (its code names them, or a name that is
    not the context's, whose reads cannot be told)? Worked out once a game."""
    found = state._for_the_game.get(_READS_ATTACKERS)
    if found is None or found[0] is not condition:
        names = answer_reads.names_in(condition)
        found = state._for_the_game[_READS_ATTACKERS] = (condition, names is None or not names <= _NOT_ATTACKERS)
    return found[1]


_READS_ATTACKERS: Final = "may_join reads attackers"


def why_not(state: Position, uid: str, targets: tuple[Hex, ...], attackers: tuple[str, ...]) -> tuple[str, str] | None:
    """Why `uid` may not join that battle by the game's may_join (None: it may)."""
    assert state.game.combat is not None  # a battle is fought by the game's combat rules
    if may_join(state, uid, targets, attackers):
        return None
    name = state.tables.short_name.get(uid, uid)
    assert state.game.combat.may_join is not None  # (without one every unit may join)
    return (f"{name} may not join a battle against {' and '.join(targets)}: the game's condition "
            f"(may_join = {state.game.combat.may_join.source}) fails", "join")
