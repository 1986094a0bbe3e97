"""The greedy player's battle plans on a big game (The Marne's counterattack): groups that would fight at the same odds are weighed once,
by the group that commits least, and die rolls of one result are weighed once."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from rulec.engine import new_game
from rulec.engine.actions import Action
from rulec.pipeline import load_game
from rulec.players import GreedyPlayer, greedy
from rulec.players.evaluation import Evaluator


@functools.cache
def _marne():
    return load_game("the_marne")


def _first_battle_decision(seed: int):
    """The first German combat phase of the counterattack, the units where they stand historically (and a few
    random moves first, by `seed`)."""
    rng = random.Random(seed)
    state = new_game(_marne(), seed=seed)
    for _ in range(seed * 3):
        moves = [a for a in state.legal_orders() if a.kind == "move"]  # moves given at once
        state.apply_action(rng.choice(moves))
    state.apply_action(Action.end())
    assert state.phase.kind == "combat" and state.pending is None
    return state


@pytest.mark.parametrize("seed", [0, 1])
def test_groups_at_the_same_odds_are_weighed_once(seed):
    state = _first_battle_decision(seed)
    plans = greedy.battle_plans(state, state.legal_actions())
    by_target: dict = {}
    for plan in plans:
        if plan[0].kind == "attack":
            by_target.setdefault(plan[0].hex, []).append(tuple(a.unit for a in plan[1:-1]))
    assert by_target
    for target, groups in by_target.items():
        widest = max(groups, key=len)
        seen = {}
        for group in groups:
            odds = state.odds(Action.attack(target, group))
            key = (odds.column, odds.drm)
            assert key not in seen or group == widest or seen[key] == widest, (target, group, seen[key])
            seen.setdefault(key, group)
        # The group kept for its odds commits no more strength than any other group at those odds.
        joinable = sorted({u for g in groups for u in g})
        for group in groups:
            odds = state.odds(Action.attack(target, group))
            for unit in joinable:
                if unit not in group:
                    continue
                smaller = tuple(u for u in group if u != unit)
                if smaller and group != widest:
                    other = state.odds(Action.attack(target, smaller))
                    assert (other.column, other.drm) != (odds.column, odds.drm)


def test_rolls_of_one_result_are_weighed_once(monkeypatch):
    """resolve() plays out each die roll, but a roll that leaves the position another roll left is not weighed
    again: its value is the same."""
    state = _first_battle_decision(0)
    target = next(a for a in state.legal_actions() if a.kind == "attack")
    child = state.clone()
    child.apply_action(target)
    group = next(a for a in child.legal_actions() if a.kind == "with")
    child.apply_action(group)
    child.apply_action(Action.resolve())
    assert child.is_chance_node()
    evaluator = Evaluator(_marne())
    calls = []
    real = greedy.resolve

    def counted(*args, **kwargs):
        if args[3] == greedy.REACTION_DEPTH - 1:  # the look-aheads from the die roll itself
            calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(greedy, "resolve", counted)
    value = real(child, state.current_player(), evaluator, greedy.REACTION_DEPTH, greedy.phase_key(state))
    rolls = child.chance_outcomes()
    after = []
    for outcome, _ in rolls:
        rolled = child.clone()
        rolled.apply_action(outcome)
        after.append(rolled)
    distinct = []
    for rolled in after:
        if not any(greedy._same_position(rolled, other) for other in distinct):
            distinct.append(rolled)
    assert len(calls) == len(distinct) < len(rolls)  # one look-ahead per distinct result
    expected = sum(p * real(r, state.current_player(), evaluator, greedy.REACTION_DEPTH, greedy.phase_key(state))
                   for (_, p), r in zip(rolls, after))
    assert value == pytest.approx(expected, abs=1e-9)


def test_a_battle_the_rules_force_is_fought_not_cancelled_over_and_over():
    """Blue's infantry must attack and will be eliminated: ending the phase is not open to it, so the greedy
    player fights rather than cancel the declaration it would only have to make again."""
    game = load_game(str(Path(__file__).parent / "games" / "forced_attack.rulec"))
    state = new_game(game)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["attack 0201"]
    player = GreedyPlayer(0)
    steps = []
    while not state.is_chance_node():
        action = player.choose(state)
        steps.append(state.action_to_string(action))
        state.apply_action(action)
        assert len(steps) <= 3, steps
    assert steps == ["attack 0201", "with b1", "resolve"]
