"""What the learning-framework adapters cost: random playouts per CPU second through the engine
alone, through the OpenSpiel game and through the PettingZoo environment, side by side; and a
state's clone (what MCTS does at every step) in the engine and through OpenSpiel.

    .venv/bin/python benchmarks/adapters.py [--game drive_on_metz] [-n 50]

Needs the extras `openspiel` and `pettingzoo`.
"""

from __future__ import annotations

import argparse
import random
import time

import reference

reference.tree_on_path()

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

import rulec.openspiel  # noqa: E402
from rulec.adapters.games import load  # noqa: E402
from rulec.engine import new_game  # noqa: E402
from rulec.pettingzoo import env  # noqa: E402


def engine_playouts(game, n: int) -> float:
    started = time.process_time()
    for seed in range(n):
        state, rng = new_game(game, seed=seed), random.Random(seed)
        while not state.is_terminal():
            options = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            state.apply_action(rng.choice(options))
    return n / (time.process_time() - started)


def openspiel_playouts(name: str, n: int) -> float:
    game = pyspiel.load_game(rulec.openspiel.short_name(name))
    started = time.process_time()
    for seed in range(n):
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            options = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            state.apply_action(rng.choice(options))
    return n / (time.process_time() - started)


def pettingzoo_playouts(name: str, n: int) -> float:
    environment = env(name)
    started = time.process_time()
    for seed in range(n):
        environment.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            environment.step(None if termination or truncation
                             else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return n / (time.process_time() - started)


def clones_per_second(state, n: int = 2000) -> float:
    started = time.process_time()
    for _ in range(n):
        state.clone()
    return n / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="drive_on_metz")
    parser.add_argument("-n", type=int, default=50)
    args = parser.parse_args()
    game = load(args.game)
    rulec.openspiel.register(args.game)
    rates = {"engine": engine_playouts(game, args.n), "OpenSpiel": openspiel_playouts(args.game, args.n),
             "PettingZoo": pettingzoo_playouts(args.game, args.n)}
    print(f"random playouts of {args.game} per CPU second ({args.n} games each):")
    for label, rate in rates.items():
        print(f"  {label:<11} {rate:8.1f}   {rate / rates['engine']:.2f} x the engine's")
    spiel_state = pyspiel.load_game(rulec.openspiel.short_name(args.game)).new_initial_state()
    engine_clones, spiel_clones = clones_per_second(new_game(game)), clones_per_second(spiel_state)
    print(f"clones per CPU second: engine {engine_clones:.0f}, OpenSpiel {spiel_clones:.0f} "
          f"({spiel_clones / engine_clones:.2f} x the engine's)")


if __name__ == "__main__":
    main()
