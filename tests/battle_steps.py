"""Declaring battles step by step in tests: shared by the rule-case tests of every game."""

from __future__ import annotations

from rulec.engine import Action


def attack(state, hex, *units, more=(), roll=None):
    """Declare a battle step by step (the target, each attacker, other target hexes, resolve), then roll."""
    state.apply_action(Action.attack(hex))
    for unit in units:
        state.apply_action(Action.with_unit(unit))
    for other in more:
        state.apply_action(Action.attack(other))
    state.apply_action(Action.resolve())
    if roll is not None:
        state.apply_action(Action.roll(roll))
    return state


def attackers_for(state, hex) -> tuple[str, ...]:
    """The units offered to join a battle against `hex` (empty if it may not be attacked)."""
    if Action.attack(hex) not in state.legal_actions():
        return ()
    trial = state.clone()
    trial.apply_action(Action.attack(hex))
    return tuple(a.unit for a in trial.legal_actions() if a.kind == "with")
