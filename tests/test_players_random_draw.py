"""search.draw_search_action: random play and MCTS rollouts draw an action of search_actions() through the
engine's sampler rather than from the list. The draw must be what rng.choice(search_actions(state)) would give
in distribution: only actions an AI may search (no `cancel` while anything else is offered, no opener cancelled
in this decision), each with the same chance."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from big_games import STEPS_OF_A_BIG_GAME, is_big
from test_engine_sampling import MAP_GAMES, _uniform

from rulec.engine import new_game
from rulec.engine.actions import Action
from rulec.pipeline import SUFFIX, load_game
from rulec.players.random_player import RandomPlayer
from rulec.players.search import draw_search_action, search_actions


def _draws(state, draws: int) -> Counter:
    rng = random.Random(13)
    found: Counter = Counter()
    for _ in range(draws):
        trial = state.clone()
        trial.forget()  # each draw from the position as it first stands: nothing listed in it yet
        found[draw_search_action(trial, rng)] += 1
    return found


def test_a_units_destinations_are_drawn_uniformly_and_never_cancel(metz):
    state = new_game(metz, seed=1)
    unit = next(a.unit for a in state.legal_actions() if a.kind == "move")
    state.apply_action(Action.move(unit))
    searched = search_actions(state.clone())
    assert Action.cancel() in state.clone().legal_actions() and Action.cancel() not in searched
    draws = 60 * len(searched)
    _uniform(_draws(state, draws), searched, draws)


def test_a_movement_phases_actions_are_drawn_uniformly(metz):
    state = new_game(metz, seed=1)
    searched = search_actions(state.clone())
    draws = 60 * len(searched)
    _uniform(_draws(state, draws), searched, draws)


def test_an_opener_cancelled_in_this_decision_is_not_drawn_again(metz):
    state = new_game(metz, seed=1)
    unit = next(a.unit for a in state.legal_actions() if a.kind == "move")
    state.apply_action(Action.move(unit))
    state.apply_action(Action.cancel())
    searched = search_actions(state.clone())
    assert Action.move(unit) in state.clone().legal_actions() and Action.move(unit) not in searched
    draws = 40 * len(searched)
    _uniform(_draws(state, draws), searched, draws)


@pytest.mark.parametrize("path", MAP_GAMES, ids=lambda p: p.rsplit("/", 1)[-1].removesuffix(SUFFIX))
def test_a_random_players_game_plays_only_what_an_ai_may_search(path):
    """A game of random players: every action one of search_actions() in its position (listed on a clone made
    before the draw), and the game ends (or runs its budget) without a loop of declarations and cancels."""
    game = load_game(path)
    state = new_game(game, seed=4)
    players = [RandomPlayer(seed=4 + seat) for seat in range(len(state.players))]
    chance = random.Random(4)
    limit = STEPS_OF_A_BIG_GAME if is_big(game) else 5000
    for _ in range(limit):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(chance.choice([a for a, _ in state.chance_outcomes()]))
            continue
        listed = state.clone()
        listed.forget()
        drawn = players[state.current_player()].choose(state)
        assert drawn in search_actions(listed), (path, state.history()[-5:], drawn)
        state.apply_action(drawn)
    assert state.is_terminal() or is_big(game), path
