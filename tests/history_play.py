"""Play shared by the tests of tests/games/history.rulec (test_engine_history.py, test_records_faults.py)."""

from __future__ import annotations

from rulec.engine import Action


def end_until(state, phase, turn=None):
    """End phases until `phase` (of `turn`, if given) comes up."""
    while state.phase.id != phase or (turn is not None and state.turn != turn):
        state.apply_action(Action.end())


def red_attacks_b1(state):
    """r2 moves next to b1, then r1 (unmoved) and r2 attack it (the die: 1, a DR) and b1 retreats one hex."""
    near_b1 = state.tables.neighbours["0302"]
    state.apply_action(next(a for a in state.moves_of("r2") if a.kind == "move" and a.hex in near_b1))
    end_until(state, "red_fight")
    for step in state.parse_orders("attack 0302 with r1, r2"):
        state.apply_action(step)
    state.apply_action(Action.roll(1))
    assert state.last_battle.result == "DR"
    while state.retreats:
        state.apply_action(state.legal_actions()[0])
