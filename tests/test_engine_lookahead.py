"""What the engine tells an AI that looks ahead (greedy's look-ahead): GameState.chance_results, what each die
roll of a battle leads to (two rolls of one result leave the same position, played out once), and
GameState.look_ahead, the position after an order without what the engine would keep for the next decisions."""

from __future__ import annotations

import random

import pytest
from big_games import STEPS_OF_A_BIG_GAME, is_big

from rulec.engine import new_game
from rulec.pipeline import GAMES_DIR, SUFFIX, load_game
from rulec.players import greedy
from rulec.players.evaluation import Evaluator
from rulec.players.search import draw_search_action

TEST_GAMES = GAMES_DIR.parent / "tests" / "games"
MAP_GAMES = [str(p) for folder in (GAMES_DIR, TEST_GAMES) for p in sorted(folder.glob(f"*{SUFFIX}"))
             if load_game(str(p)).map is not None]


def _position(state) -> tuple:
    """All a position is but its history and the report of its last battle (which tell the roll)."""
    return (state.pos, state.where, state.vp, state.vp_log, state.holders, state.lost_steps, state.exited_from,
            state.due, state.variables, state._stack, state.terminal, state.attacked, state.defended, state.moved,
            state.markers.units, state.markers.hexes, state.turn, state.phase_index)


def _chance_nodes(path: str, seed: int, most: int):
    """Each chance node of a random game (up to `most`) whose player never calls a battle off (an AI's search),
    the game going on with a random roll."""
    state, rng = new_game(load_game(path), seed=seed), random.Random(seed)
    limit = STEPS_OF_A_BIG_GAME if is_big(state.game) else 3000
    found = 0
    for _ in range(limit):
        if state.is_terminal() or found >= most:
            return
        if state.is_chance_node():
            found += 1
            yield state
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(draw_search_action(state, rng))


def test_rolls_of_one_result_leave_the_same_position():
    """At the first battles of a game of every map game (most of tests/games/ end before any battle: those play
    no part), each roll is played on a clone: those of one result leave the same position and legal actions."""
    shared: dict[str, int] = {}
    for path in MAP_GAMES:
        for state in _chance_nodes(path, seed=3, most=12):
            outcomes, results = state.chance_outcomes(), state.chance_results()
            assert len(results) == len(outcomes)
            first: dict[str, tuple] = {}
            for (outcome, _), result in zip(outcomes, results):
                child = state.clone()
                child.apply_action(outcome)
                position = (_position(child), child.legal_actions())
                if result in first:
                    assert position == first[result], (path, outcome, result)
                    shared[path] = shared.get(path, 0) + 1
                else:
                    first[result] = position
    assert len(shared) >= 3 and sum(shared.values()) >= 20, shared


@pytest.mark.parametrize("name", ["drive_on_metz", "the_marne", "cut_off"])
def test_each_rolls_result_is_the_one_the_battle_then_reports(name):
    """Each roll's result, told before it is rolled, is the one the battle is resolved with, die modifiers
    (The Marne's, cut_off's) included."""
    path = str((GAMES_DIR if (GAMES_DIR / f"{name}{SUFFIX}").exists() else TEST_GAMES) / f"{name}{SUFFIX}")
    modified = 0
    for state in _chance_nodes(path, seed=3, most=30):
        modified += state.pending.odds.drm != 0
        for (outcome, _), result in zip(state.chance_outcomes(), state.chance_results()):
            child = state.clone()
            child.apply_action(outcome)
            assert (child.last_battle.roll, child.last_battle.result) == (outcome.number, result)
    assert modified or name == "drive_on_metz"
    assert new_game(load_game(path), seed=1).chance_results() == []  # not a chance node


def test_greedy_plays_out_one_roll_of_each_result(monkeypatch):
    """Weighing a battle, the greedy player clones the position once for each result the die may give."""
    for state in _chance_nodes(str(GAMES_DIR / f"drive_on_metz{SUFFIX}"), seed=2, most=6):
        played: list = []
        clone = type(state).clone

        def counted(self):
            played.append(self)
            return clone(self)

        monkeypatch.setattr(type(state), "clone", counted)
        evaluator = Evaluator(state.game)
        value = greedy.resolve(state, 0, evaluator, 1, greedy.phase_key(state))
        monkeypatch.undo()
        assert sum(1 for s in played if s is state) == len(set(state.chance_results()))
        # the expectation over every roll, each roll's position played out afresh
        expected = 0.0
        for outcome, probability in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            expected += probability * evaluator.outlook(child, 0)
        assert value == pytest.approx(expected, abs=1e-9)


def test_a_position_looked_ahead_to_is_the_position_played_and_works_out_what_it_is_asked():
    """GameState.look_ahead(action): the same position as a clone with the action played, its legal actions and
    each unit's moves the same; what a move would carry over for the next decisions of the phase is not carried
    (nothing of it in the position's cache) but worked out when asked, and the position looked from is untouched."""
    from rulec.engine import legal_moves

    state, rng = new_game(load_game("drive_on_metz"), seed=6), random.Random(6)
    looked = 0
    while looked < 40 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        orders = state.legal_orders()
        for order in rng.sample(orders, min(3, len(orders))):
            played = state.clone()
            played.apply_action(order)
            ahead = state.look_ahead(order)
            assert _position(ahead) == _position(played) and ahead.history() == played.history()
            if order.kind == "move" and order.hex is not None:
                assert legal_moves.LEGAL_MOVES in state._cache and legal_moves.LEGAL_MOVES not in ahead._cache
                looked += 1
            assert ahead.legal_orders() == played.legal_orders()
            for uid in ahead.units(status="map"):
                assert ahead.moves_of(uid) == played.moves_of(uid)
        assert not state._looking_ahead
        state.apply_action(rng.choice(orders))
    assert looked >= 40
