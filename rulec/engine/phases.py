"""The sequence of play: entering each phase, ending it, stepping to the next phase and turn, the game's end.

A game's `sequence` (model.Phase) is a list of phases, each of a kind (movement, combat, placement,
or an automatic phase with no decisions); the turn ends after the last. Entering a phase scores
its 'phase' awards and runs its phase_start hooks, then resets what the phase keeps (the units
that may move, those locked in an enemy zone of control, who has attacked, the placement points);
a phase whose `when` fails, and one with no decisions, is passed over. Ending one sees to late
reinforcements (movement { late_arrival }) and the stacking limit (stacking.py), runs its
phase_end hooks and markers' expiry, checks sudden death, and steps on; after the last turn
(or a sudden death) the game ends and its end-of-game awards are scored (victory.py).

A scenario's deployment phases come before its start phase (GameState._prelude, scenarios.py).
"""

from __future__ import annotations

from rulec.engine import arrivals, history, markers, move_memory, placement, procedures, reach, stacking, victory
from rulec.engine.frames import Remove
from rulec.engine.hex_bits import hexes_in_order
from rulec.engine.position import Position
from rulec.engine.statuses import PENDING, UNUSED
from rulec.engine.records import Outcome


def enter_phase(state: Position) -> None:
    """Start the current phase: score its awards, reset its bookkeeping; run phases that need no decision."""
    while True:
        state.forget_but_exact_views()  # (where units stand: only the views kept stale)
        phase = state.phase
        history.phase_began(state)  # every phase of the sequence counts, also one passed over
        if procedures.comes_up(state):  # a phase whose `when` fails is passed over
            for award in state.game.awards:
                if award.trigger.kind == "phase" and award.trigger.phase == phase.id:
                    amount = victory.award_amount(state, award, None)
                    if amount:
                        victory.score(state, award.side, amount, award.id)
            procedures.run_hooks(state, "phase_start")
            state._cache = {}
            if begin_phase(state):
                return
            # Automatic phases, and placement phases with nothing to place, have no decisions.
            procedures.run_hooks(state, "phase_end")
        elif phase.kind == "movement":  # passed over: its reinforcements are late, as if it had ended
            late_arrivals(state)
        if not next_phase(state):
            return


def begin_phase(state: Position) -> bool:
    """Reset the current phase's bookkeeping; False if the phase has no decisions to make."""
    phase = state.phase
    state._phase_moves = {}
    if state.tables.cost_expressions:
        reach.cost_values(state)  # costs written as expressions are read as the phase begins
    if phase.kind == "movement":
        # The units that may move in this phase: on the map or waiting to arrive as it begins.
        state._movers = procedures.movers(state, phase)
        # those waiting to arrive as it begins: no unit on the map goes back to waiting (sampling's candidates)
        state._phase_moves["arriving"] = tuple(u for u in state._movers if state.where[u] == PENDING)
        state.moved = set()
        if state.game.movement.zoc_locks_start:
            assert phase.side is not None  # a movement phase is a side's
            _, zoc, friends = move_memory.obstacles(state, phase.side)
            state.locked = _standing_in(state, zoc & friends, phase.side)
        else:
            state.locked = frozenset()
        return True
    if phase.kind == "combat":
        if not same_player_turn(state, state._combat_began):
            state.attacked = set()  # one attack per unit a phase, or a player turn (CombatRules.one_attack_per_unit)
        state.defended = set()
        state._combat_began = (state.turn, state.phase_index)
        state._phase_attackers = procedures.attackers(state, phase)
        return True
    if phase.kind == "placement":
        return placement.begin(state)
    return False


def _standing_in(state: Position, hexes: int, side: str) -> frozenset[str]:
    """`side`'s units in `hexes` (bits of hex numbers): asked of those hexes' occupants, not of every unit."""
    if not hexes:
        return frozenset()
    occupants, units = state.occupants(), state._units
    return frozenset(u for h in hexes_in_order(hexes, state.tables.numbered) for u in occupants[h]
                     if units[u].side == side)


def end_phase(state: Position) -> None:
    """The phasing player ends the phase: late reinforcements, then the stacking check (over-stacked units
    are removed first, a Remove frame), then the next phase."""
    phase = state.phase
    if phase.kind == "movement":
        late_arrivals(state)
    checked = state.game.stacking.checked
    if checked == "end_of_every_phase" or (checked == "end_of_movement" and phase.kind == "movement"):
        stacked = stacking.overstacked_units(state)
        if stacked:
            owner = state._units[stacked[0]].side
            if state.game.stacking.overstack == "owner_removes":
                remover = owner
            else:
                remover = next(s for s in state.players if s != owner) if len(state.players) > 1 else owner
            state._stack.append(Remove(remover))
            return
    finish_phase(state)


def finish_phase(state: Position) -> None:
    """The phase is over (its stacking settled): its phase_end hooks, then the next phase, or the game's end."""
    procedures.run_hooks(state, "phase_end")
    if next_phase(state):
        enter_phase(state)


def next_phase(state: Position) -> bool:
    """Step to the next phase of the sequence (and turn); False when the game is over."""
    last = state.phase_index == len(state.game.sequence) - 1 and not state._prelude
    history.phase_ended(state)
    if state.markers:
        markers.expire(state)
    if check_sudden_death(state, ("always", "end_of_phase", "end_of_turn") if last else ("always", "end_of_phase")):
        return False
    if state._prelude:  # a scenario's deployment phases, then its start phase (scenarios.py)
        state.phase_index, state._prelude = state._prelude[0], state._prelude[1:]
        return True
    state.phase_index += 1
    if state.phase_index >= len(state.game.sequence):
        state.phase_index = 0
        state.turn += 1
    if state.turn > state.last_turn > 0:
        state.turn = state.last_turn
        state.phase_index = len(state.game.sequence) - 1
        end_game(state)
        return False
    return True


def late_arrivals(state: Position) -> None:
    """The end of a movement phase (or its passing over): reinforcements due in it that have not entered
    come next turn or are removed (movement.late_arrival)."""
    phase = state.phase
    for uid in [u for u, w in state.where.items() if w == PENDING and state._units[u].side == phase.side]:
        if state.due.get(uid) == state.turn and arrivals.arrives_now(state, uid):
            if state.game.movement.late_arrival == "removed":
                state.where[uid] = UNUSED
                state.due.pop(uid)
            else:
                state.due[uid] = state.turn + 1


def check_sudden_death(state: Position, moments: tuple[str, ...]) -> bool:
    """End the game if a sudden-death condition checked at one of `moments` holds now."""
    decided = victory.sudden_death(state, moments)
    if decided is not None:
        end_game(state, decided)
    return decided is not None


def end_game(state: Position, decided: Outcome | None = None) -> None:
    """The game is over: score the end-of-game awards; `decided` is a sudden death's result."""
    state.terminal, state.decided = True, decided
    procedures.run_game_hooks(state, "game_end")
    for award, amount in victory.score_game_end(state):
        if amount:
            victory.score(state, award.side, amount, award.id)


def same_player_turn(state: Position, since: tuple[int, int] | None) -> bool:
    """With one attack per unit a player turn: did a combat phase of this player turn begin at `since`?"""
    if since is None or state.game.combat is None or state.game.combat.one_attack_per_unit != "player_turn":
        return False
    turn, index = since
    sequence = state.game.sequence
    return turn == state.turn and index < state.phase_index and all(
        sequence[i].side in (None, state.phase.side) for i in range(index, state.phase_index + 1))
