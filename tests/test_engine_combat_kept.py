"""The combat phase's answers kept for a position (duties.ready_to_attack, duties.owes_attack) and the quick
question whether some unit may join a battle against a hex (battles.may_be_joined) agree with their definitions,
at every combat decision of random games of every game with may_join or must_attack."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulec.engine import battles, duties, new_game
from rulec.engine.frames import Declare
from rulec.pipeline import load_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["games/the_marne.rulec", "tests/games/bridgehead.rulec", "tests/games/forced_attack.rulec",
         "tests/games/mandatory_combat.rulec", "tests/games/ranged_duties.rulec", "tests/games/river_assault.rulec"]


def combat_decisions(game, seeds: range, most_actions: int):
    """Every position of random games where a combat phase's own decision is due (nothing pending)."""
    for seed in seeds:
        state, rng = new_game(game, seed=seed), random.Random(seed)
        for _ in range(most_actions):
            if state.is_terminal():
                break
            if not state.is_chance_node() and state.phase.kind == "combat" and not state._stack:
                yield state
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes], k=1)[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)


def test_a_target_may_be_joined_exactly_when_some_unit_is_eligible_to_join_it():
    answers = {True: 0, False: 0}
    for path in GAMES:
        game = load_game(str(ROOT / path))
        for state in combat_decisions(game, range(3), 1500 if "marne" in path else 400):
            side = state.phase.side
            for target in battles.target_actions(state, joinable_only=False):
                expected = bool(battles.eligible(state, Declare(side, (target.hex,))))
                assert battles.may_be_joined(state, target.hex) == expected, (path, state.turn, state.phase.id, target.hex)
                answers[expected] += 1
    assert answers[True] > 0 and answers[False] > 0  # both answers were given (refusals: The Marne, river_assault)


@pytest.mark.parametrize("path", GAMES, ids=[Path(p).stem for p in GAMES])
def test_kept_answers_of_who_may_and_who_must_attack_equal_those_worked_out_afresh(path):
    game = load_game(str(ROOT / path))
    compared = 0
    for state in combat_decisions(game, range(2), 1500 if "marne" in path else 400):
        kept = duties.ready_to_attack(state)  # kept in the position's cache, possibly since earlier questions
        state._cache.pop(duties.READY)
        assert duties.ready_to_attack(state) == kept
        if state.game.combat.must_attack is not None:
            owed = {uid: duties.owes_attack(state, uid) for uid in kept if uid in state.pos}
            state._cache.pop(duties.MUST_ATTACK, None)
            assert {uid: duties.owes_attack(state, uid) for uid in owed} == owed
        compared += 1
    assert compared > 0
