"""Battles declared step by step: 18 attackers around one hex give 18 `with` orders, not 2^18
groups (tests/games/big_battle.rulec), and every player still plays the made-up games."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.engine.conformance import check_game
from rulec.pipeline import load_game
from rulec.players import GreedyPlayer, RandomPlayer
from rulec.players.match import play_match

GAMES = Path(__file__).parent / "games"
MADE_UP = sorted(GAMES.glob("*.rulec"))


@pytest.fixture(scope="module")
def big():
    return load_game(str(GAMES / "big_battle.rulec"))


def test_eighteen_attackers_are_offered_one_at_a_time(big):
    state = new_game(big)
    blue = state.units(side="blue")
    assert len(blue) == 18
    assert state.legal_actions() == [Action.attack("0303"), Action.end()]
    state.apply_action(Action.attack("0303"))
    largest = 0
    for joined, uid in enumerate(blue):
        actions = state.legal_actions()
        largest = max(largest, len(actions))
        assert len(actions) <= 20  # the units not yet in, resolve (once one is in) and cancel
        assert {a.unit for a in actions if a.kind == "with"} == set(blue[joined:])
        state.apply_action(Action.with_unit(uid))
        assert state.odds().attack == sum(state.unit(u).strength for u in blue[:joined + 1])
    assert largest == 19 and state.legal_actions() == [Action.resolve(), Action.cancel()]
    state.apply_action(Action.resolve())
    assert state.is_chance_node() and set(state.attacked) == set(blue)


def test_a_cancelled_battle_leaves_nothing_behind(big):
    state = new_game(big)
    for step in (Action.attack("0303"), Action.with_unit("b01"), Action.cancel()):
        state.apply_action(step)
    assert state.pending is None and not state.attacked and not state.defended
    assert Action.attack("0303") in state.legal_actions()


def test_the_greedy_player_declares_a_big_battle_quickly(big):
    state = new_game(big)
    player = GreedyPlayer(seed=1)
    started = time.process_time()
    steps = []
    while state.current_player() == 0 and state.phase.id == "blue_fight" and not state.is_chance_node():
        action = player.choose(state)
        steps.append(action)
        state.apply_action(action)
    assert time.process_time() - started < 30  # a handful of plans, not 2^18 (a bound, not a benchmark)
    if steps[0].kind == "attack":
        assert steps[-1] == Action.resolve() and state.is_chance_node()


@pytest.mark.parametrize("path", MADE_UP, ids=lambda p: p.stem)
def test_made_up_games_keep_the_engines_promises(path):
    game = load_game(str(path))
    assert check_game(game, n_games=4, seed=2) == []
    for seed in range(2):
        state = new_game(game, seed=seed)
        players = [GreedyPlayer(seed)] + [RandomPlayer(seed + n) for n in range(1, len(game.sides))]  # one a side
        random.Random(seed).shuffle(players)
        assert play_match(state, players, seed=seed).finished
